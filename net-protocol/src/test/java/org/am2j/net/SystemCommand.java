package org.am2j.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command of the operating system run to its end within a time bound, its standard output and error merged and
 * kept: the set-up and tear-down steps of {@link VethPair} ({@code ip}, {@code nft}, {@code nsenter}).
 */
final class SystemCommand
{
    /** What a finished command left. */
    static final class Result
    {
        final List<String> command;
        final int status;
        final String output;

        Result(final List<String> command, final int status, final String output)
        {
            this.command = command;
            this.status = status;
            this.output = output;
        }

        boolean succeeded()
        {
            return 0 == status;
        }

        /**
         * @return this result when the command succeeded.
         * @throws IllegalStateException naming the command, its status and its output otherwise.
         */
        Result orThrow()
        {
            if (!succeeded())
            {
                throw new IllegalStateException("'" + String.join(" ", command) + "' failed with status " + status +
                    ": " + output.trim());
            }
            return this;
        }
    }

    private SystemCommand()
    {
    }

    /**
     * Run a command; one that has not ended after {@code timeoutMs} is killed and reported with status -1.
     *
     * @param timeoutMs how long it may run.
     * @param stdin     text for its standard input, or {@code null} for none.
     * @param command   the program and its arguments.
     * @return its status and output; status 127 when the program cannot be started.
     */
    static Result run(final long timeoutMs, final String stdin, final List<String> command)
    {
        Path output = null;
        Process process = null;
        try
        {
            output = Files.createTempFile("am2j-cmd-", ".out");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            try (var in = process.getOutputStream())
            {
                if (null != stdin)
                {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS))
            {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                return new Result(command, -1, "did not end within " + timeoutMs + " ms: " + Files.readString(output));
            }
            return new Result(command, process.exitValue(), Files.readString(output));
        }
        catch (final IOException ex)
        {
            return new Result(command, 127, ex.toString());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            if (null != process)
            {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            return new Result(command, -1, "interrupted");
        }
        finally
        {
            if (null != output)
            {
                try
                {
                    Files.deleteIfExists(output);
                }
                catch (final IOException ignored)
                {
                    // a temporary file of a few bytes; nothing else to do
                }
            }
        }
    }

    /**
     * Run a command without input within 10 s.
     */
    static Result run(final String... command)
    {
        return run(10_000, null, new ArrayList<>(List.of(command)));
    }
}
