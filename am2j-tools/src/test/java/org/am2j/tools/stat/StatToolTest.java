package org.am2j.tools.stat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.am2j.api.ReturnStatus;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.CountersFileTest;
import org.am2j.core.stats.CountersFileReader;
import org.am2j.core.stats.EndpointCounters;
import org.am2j.core.stats.ProtocolCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(120)
class StatToolTest
{
    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path tempDir;

    @Test
    void rendersEveryCounterGroupedByEndpointInAlignedColumns()
    {
        try (CountersFile file = CountersFile.create(tempDir, 128);
            EndpointCounters three = new EndpointCounters(file, 3, "rank0");
            EndpointCounters four = new EndpointCounters(file, 4, "");
            CountersFileReader reader = CountersFileReader.open(file.path()))
        {
            final ProtocolCounters inproc = three.transport("inproc");
            three.transport("shm").onReplySent();
            four.transport("net").retransmit();
            for (int i = 0; i < 12345; i++)
            {
                inproc.onRequestSent();
            }
            three.onReturned(ReturnStatus.EBADTAG);
            file.countersManager().newCounter("someone else's counter").setRelease(9);

            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            StatTool.render(reader, new PrintStream(bytes, true, StandardCharsets.UTF_8));
            final String text = bytes.toString(StandardCharsets.UTF_8);
            final List<String> lines = text.lines().toList();

            assertTrue(lines.get(0).startsWith("pid " + PID + "  started "), lines.get(0));
            assertTrue(lines.get(0).contains("counters 58 of 128"), lines.get(0));
            assertTrue(text.contains("\nep 3 endpoint rank0 (2 transports)\n"), text);
            assertTrue(text.contains("\nep 4 endpoint (1 transport)\n"), text);
            assertTrue(text.contains("\nother counters\n"), text);

            assertEquals(12345, valueOf(text, "ep 3 [inproc] requests sent"));
            assertEquals(1, valueOf(text, "ep 3 [shm] replies sent"));
            assertEquals(1, valueOf(text, "ep 3 returned EBADTAG"));
            assertEquals(1, valueOf(text, "ep 4 [net] retransmits"));
            assertEquals(9, valueOf(text, "someone else's counter"));

            final List<String> rows = lines.stream().filter((line) -> line.startsWith("  ")).toList();
            assertEquals(56, rows.size());
            final int width = rows.get(0).length();
            assertTrue(rows.stream().allMatch((row) -> row.length() == width), "values are right-aligned");

            final int epThree = lines.indexOf("ep 3 endpoint rank0 (2 transports)");
            final int epFour = lines.indexOf("ep 4 endpoint (1 transport)");
            assertTrue(epThree < epFour);
            assertTrue(lines.get(epThree + 1).contains("[inproc] requests sent"), "transport counters first");
            assertTrue(lines.get(epThree + 23).contains("returned EBADARGS"), "then returned messages");
        }
    }

    @Test
    void runOncePrintsTheCountersOfAPid()
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 2, "self"))
        {
            endpoint.transport("inproc").onPoll();

            final Result result = run("--pid", Long.toString(PID), "--once", "--dir", tempDir.toString());
            assertEquals(StatTool.EXIT_OK, result.status, result.err);
            assertEquals(1, valueOf(result.out, "ep 2 [inproc] polls"));
            assertEquals("", result.err);
        }
    }

    @Test
    void withoutPidListsTheLiveProcessesAndShowsTheOnlyOne() throws IOException
    {
        CountersFileTest.writeHeaderOnlyFile(tempDir, CountersFileTest.DEAD_PID, CountersFileTest.DEAD_PID, 1000);
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file.countersManager(), 2, "self", 5, "j7-x");
            EndpointCounters another = new EndpointCounters(file.countersManager(), 4, "", 6, "j7-x"))
        {
            CountersFileTest.writeHeaderOnlyFile(tempDir, CountersFileTest.DEAD_PID, CountersFileTest.DEAD_PID, 1000);
            endpoint.transport("inproc").onReplySent();

            final Result result = run("--once", "--dir=" + tempDir);
            assertEquals(StatTool.EXIT_OK, result.status, result.err);
            final List<String> lines = result.out.lines().toList();
            assertEquals("1 live process has counters in " + tempDir, lines.get(0), result.out);
            assertTrue(lines.get(1).matches("\\s+PID\\s+RANK\\s+JOB\\s+EP\\s+STARTED\\s+COUNTERS\\s+COMMAND"),
                result.out);
            // a row per endpoint, its rank and job beside the pid
            assertTrue(lines.get(2).matches("\\s+" + PID + "\\s+5\\s+j7-x\\s+2\\s+\\S+\\s+35\\s.*"), result.out);
            assertTrue(lines.get(3).matches("\\s+" + PID + "\\s+6\\s+j7-x\\s+4\\s+\\S+\\s+35\\s.*"), result.out);
            assertTrue(result.out.contains("\nep 2 endpoint self (1 transport)  rank 5  job j7-x\n"), result.out);
            assertTrue(result.out.contains("\nep 4 endpoint (0 transports)  rank 6  job j7-x\n"), result.out);
            assertEquals(1, valueOf(result.out, "ep 2 [inproc] replies sent"));
        }
    }

    @Test
    void withoutPidAndNoLiveProcessIsExitStatusOne()
    {
        final Result result = run("--once", "--dir", tempDir.resolve("empty").toString());
        assertEquals(StatTool.EXIT_NOT_FOUND, result.status);
        assertTrue(result.out.startsWith("0 live processes have counters in "), result.out);
    }

    @Test
    void pidWithoutAFileIsExitStatusOne()
    {
        final Result result = run("--pid", "4242", "--once", "--dir", tempDir.toString());
        assertEquals(StatTool.EXIT_NOT_FOUND, result.status);
        assertTrue(result.err.contains("no counters file for pid 4242 in " + tempDir), result.err);
    }

    @Test
    void pidWithADeadOwnerIsExitStatusOne() throws IOException
    {
        CountersFileTest.writeHeaderOnlyFile(tempDir, CountersFileTest.DEAD_PID, CountersFileTest.DEAD_PID, 1000);

        final Result result =
            run("--pid", Long.toString(CountersFileTest.DEAD_PID), "--once", "--dir", tempDir.toString());
        assertEquals(StatTool.EXIT_NOT_FOUND, result.status);
        assertTrue(result.err.contains("process " + CountersFileTest.DEAD_PID + " is not running"), result.err);
        assertTrue(result.err.contains("stale"), result.err);
    }

    @Test
    void badCountersFileIsExitStatusOne() throws IOException
    {
        Files.write(tempDir.resolve("77.counters"), CountersFileTest.garbage(1000));

        final Result result = run("--pid", "77", "--once", "--dir", tempDir.toString());
        assertEquals(StatTool.EXIT_NOT_FOUND, result.status);
        assertTrue(result.err.contains("not an am2j counters file"), result.err);
    }

    @Test
    void badArgumentsPrintUsageAndExitTwo()
    {
        for (final String[] args : new String[][]{
            { "--bogus" }, { "--pid" }, { "--pid", "abc" }, { "--pid", "0" }, { "--interval", "-5" },
            { "--once=yes" }, { "--dir=" }, { "stat" } })
        {
            final Result result = run(args);
            assertEquals(StatTool.EXIT_USAGE, result.status, String.join(" ", args));
            assertTrue(result.err.contains("usage: am2j stat"), result.err);
            assertTrue(result.err.startsWith("am2j stat: "), result.err);
        }
    }

    @Test
    void aBadArgumentIsNamedInTheError()
    {
        for (final String[] args : new String[][]{
            { "--bogus", "--bogus" }, { "--pid", "--pid needs a value" }, { "--pid=abc", "--pid 'abc' is not a number" },
            { "--pid", "0", "--pid 0 must be at least 1" }, { "--interval=-5", "--interval -5 must be at least 1" },
            { "--once=yes", "'--once'" }, { "--dir=", "--dir must not be empty" } })
        {
            final Result result = run(Arrays.copyOf(args, args.length - 1));
            assertTrue(result.err.startsWith("am2j stat: ") && result.err.contains(args[args.length - 1]), result.err);
        }
    }

    @Test
    void helpPrintsUsage()
    {
        final Result result = run("--help");
        assertEquals(StatTool.EXIT_OK, result.status);
        assertTrue(result.out.startsWith("usage: am2j stat [--pid PID] [--once] [--interval MS] [--dir DIR]"));
        for (final String option : new String[]{ "--pid PID", "--once", "--interval MS", "--dir DIR", "exit status" })
        {
            assertTrue(result.out.contains(option), option + " in " + result.out);
        }
    }

    @Test
    void optionsParse()
    {
        final StatOptions defaults = StatOptions.parse(new String[0]);
        assertEquals(new StatOptions(0, false, StatOptions.DEFAULT_INTERVAL_MS, null, false), defaults);

        final StatOptions all =
            StatOptions.parse(new String[]{ "--pid=12", "--once", "--interval", "250", "--dir", "/x" });
        assertEquals(new StatOptions(12, true, 250, Paths.get("/x"), false), all);
    }

    @Test
    void refreshesUntilInterrupted() throws InterruptedException
    {
        try (CountersFile file = CountersFile.create(tempDir, 64);
            EndpointCounters endpoint = new EndpointCounters(file, 2, "self"))
        {
            endpoint.transport("inproc");

            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final AtomicInteger status = new AtomicInteger(-1);
            final Thread tool = new Thread(() -> status.set(StatTool.run(
                new String[]{ "--pid", Long.toString(PID), "--interval", "10", "--dir", tempDir.toString() },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))));
            tool.setDaemon(true);
            tool.start();

            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (countOf(out, "ep 2 [inproc] polls") < 3 && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(5);
            }
            assertTrue(countOf(out, "ep 2 [inproc] polls") >= 3, "the tool printed at least three refreshes");

            tool.interrupt();
            tool.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(tool.isAlive());
            assertEquals(StatTool.EXIT_OK, status.get());
        }
    }

    @Test
    void readsTheCountersOfAnotherLiveProcess() throws Exception
    {
        final Path directory = tempDir.resolve("shared");
        final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        final Process child = new ProcessBuilder(
            java.toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"),
            CountersChildMain.class.getName(),
            directory.toString())
            .redirectErrorStream(true)
            .start();

        try
        {
            final String ready = firstLine(child, 60);
            assertEquals("READY " + child.pid(), ready);

            final String label =
                "ep " + CountersChildMain.ENDPOINT_ID + " [" + CountersChildMain.TRANSPORT + "] requests sent";
            final Result once = run("--pid", Long.toString(child.pid()), "--once", "--dir", directory.toString());
            assertEquals(StatTool.EXIT_OK, once.status, once.err);
            assertTrue(once.out.startsWith("pid " + child.pid() + " "), once.out);
            assertTrue(once.out.contains("command " + CountersChildMain.class.getName()), once.out);
            assertTrue(valueOf(once.out, label) > 0, once.out);

            final Result listing = run("--once", "--dir", directory.toString());
            assertEquals(StatTool.EXIT_OK, listing.status, listing.err);
            assertTrue(listing.out.contains(CountersChildMain.class.getName()), listing.out);

            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final AtomicInteger status = new AtomicInteger(-1);
            final Thread tool = new Thread(() -> status.set(StatTool.run(
                new String[]{ "--pid", Long.toString(child.pid()), "--interval", "20", "--dir", directory.toString() },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))));
            tool.setDaemon(true);
            tool.start();
            // Kill the child only once the tool has shown it: a tool that starts after the child is gone rightly
            // reports "not found" instead.
            final long shownBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!out.toString(StandardCharsets.UTF_8).contains("pid " + child.pid()) && System.nanoTime() < shownBy)
            {
                Thread.sleep(10);
            }

            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            tool.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(tool.isAlive(), "the tool stops when the process exits");
            assertEquals(StatTool.EXIT_OK, status.get());
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("process " + child.pid() + " has exited"));

            final Result after = run("--pid", Long.toString(child.pid()), "--once", "--dir", directory.toString());
            assertEquals(StatTool.EXIT_NOT_FOUND, after.status);
            assertTrue(after.err.contains("is not running"), after.err);
        }
        finally
        {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String firstLine(final Process process, final int timeoutSeconds) throws InterruptedException
    {
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while (null != (line = in.readLine()))
                {
                    lines.add(line);
                }
            }
            catch (final IOException ignore)
            {
                // the child was killed
            }
        });
        reader.setDaemon(true);
        reader.start();

        final String line = lines.poll(timeoutSeconds, TimeUnit.SECONDS);
        assertNotNull(line, "the child did not report READY in " + timeoutSeconds + " s");
        return line;
    }

    private static long valueOf(final String text, final String label)
    {
        final Matcher matcher = Pattern.compile("(?m)^  " + Pattern.quote(label) + " +(\\d+)$").matcher(text);
        assertTrue(matcher.find(), "no line for \"" + label + "\" in:\n" + text);
        return Long.parseLong(matcher.group(1));
    }

    private static int countOf(final ByteArrayOutputStream out, final String label)
    {
        final String text = out.toString(StandardCharsets.UTF_8);
        int count = 0;
        for (int at = text.indexOf(label); at >= 0; at = text.indexOf(label, at + 1))
        {
            count++;
        }
        return count;
    }

    private static Result run(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = StatTool.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int status, String out, String err)
    {
    }
}
