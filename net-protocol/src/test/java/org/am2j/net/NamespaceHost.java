package org.am2j.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One emulated machine of a {@link VethPair}: a network namespace made with {@code ip netns add}, and in it a
 * holder process that owns a UTS namespace (its own host name) and a private mount namespace in which {@code /dev/shm}
 * is a tmpfs of its own. Programs started with {@link #start} enter all three namespaces of the holder
 * ({@code nsenter --net --uts --mount}), so the processes of one host share its {@code /dev/shm} and host name and
 * see nothing of the other host's.
 * <p>
 * The holder waits on its standard input ({@code cat}): when the JVM that started it dies, the pipe closes and the
 * holder ends, and with it the mount and UTS namespaces; the network namespace stays until {@link VethPair#close()}
 * or the next pair's sweep of leftovers removes it.
 */
final class NamespaceHost
{
    /** The veth end in each host. */
    static final String INTERFACE = "veth0";

    private final String namespace;
    private final String hostName;
    private final String address;
    private final List<Process> started = new ArrayList<>();
    private Process holder;

    NamespaceHost(final String namespace, final String hostName, final String address)
    {
        this.namespace = namespace;
        this.hostName = hostName;
        this.address = address;
    }

    /**
     * @return the network namespace's name ({@code ip netns list}).
     */
    String namespace()
    {
        return namespace;
    }

    /**
     * @return the host name the host's processes see.
     */
    String hostName()
    {
        return hostName;
    }

    /**
     * @return the IPv4 address of the host's veth end.
     */
    String address()
    {
        return address;
    }

    /**
     * Start the holder: host name set, {@code /dev/shm} a private tmpfs, then waiting on its standard input.
     *
     * @param timeoutMs how long the set-up may take.
     * @throws IllegalStateException when the holder fails or does not report ready in time.
     */
    void startHolder(final long timeoutMs)
    {
        final List<String> command = List.of(VethPair.program("ip"), "netns", "exec", namespace,
            VethPair.program("unshare"), "--uts", "--mount", "--propagation", "private",
            "sh", "-c", "hostname \"$0\" && mount -t tmpfs -o mode=1777 am2j-shm /dev/shm && echo ready && exec cat",
            hostName);
        try
        {
            holder = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot start the holder of " + namespace + ": " + ex, ex);
        }
        final BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
            StandardCharsets.UTF_8));
        final CompletableFuture<String> first = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                final String line = out.readLine();
                return null == line ? "(no output)" : line;
            }
            catch (final IOException ex)
            {
                return ex.toString();
            }
        });
        String line;
        try
        {
            line = first.get(timeoutMs, TimeUnit.MILLISECONDS);
        }
        catch (final TimeoutException | ExecutionException ex)
        {
            line = "(no answer within " + timeoutMs + " ms)";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            line = "(interrupted)";
        }
        if (!"ready".equals(line))
        {
            holder.destroyForcibly();
            throw new IllegalStateException("the holder of " + namespace + " (" + String.join(" ", command) +
                ") did not set up its host name and /dev/shm: " + line);
        }
    }

    /**
     * Start a program in this host's namespaces.
     *
     * @param command the program and its arguments.
     * @param env     the whole environment of the program (nothing is inherited).
     * @param out     file for its standard output.
     * @param err     file for its standard error.
     * @return the process, which is the program itself ({@code nsenter} executes it in place).
     * @throws IOException when it cannot be started.
     */
    Process start(final List<String> command, final Map<String, String> env, final Path out, final Path err)
        throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(enter(command))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        final Process process = builder.start();
        synchronized (started)
        {
            started.add(process);
        }
        return process;
    }

    /**
     * Run a short command in this host's namespaces to its end.
     *
     * @param timeoutMs how long it may take.
     * @param command   the program and its arguments.
     * @return its status and output.
     */
    SystemCommand.Result run(final long timeoutMs, final String... command)
    {
        return SystemCommand.run(timeoutMs, null, enter(List.of(command)));
    }

    private List<String> enter(final List<String> command)
    {
        if (null == holder || !holder.isAlive())
        {
            throw new IllegalStateException("host " + namespace + " has no live holder");
        }
        final List<String> full = new ArrayList<>(List.of(VethPair.program("nsenter"), "--target",
            Long.toString(holder.pid()), "--net", "--uts", "--mount", "--"));
        full.addAll(command);
        return full;
    }

    /**
     * Kill every program started here (and what they started), then the holder, and wait for them to end.
     */
    void killAll()
    {
        final List<Process> all;
        synchronized (started)
        {
            all = new ArrayList<>(started);
            started.clear();
        }
        if (null != holder)
        {
            all.add(holder);
        }
        for (final Process process : all)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        for (final Process process : all)
        {
            try
            {
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString()
    {
        return namespace + " (host name " + hostName + ", " + INTERFACE + " " + address + ")";
    }
}
