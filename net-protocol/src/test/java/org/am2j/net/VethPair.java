package org.am2j.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two emulated machines ({@link NamespaceHost}) joined by a veth pair with an MTU of {@value #MTU}: the real network
 * path (kernel UDP stack, a network device, IP fragmentation rules of a 1500-byte MTU) between processes that have
 * their own host names and their own {@code /dev/shm}, on one machine.
 * <p>
 * The veth ends carry {@value #ADDRESS_A} and {@value #ADDRESS_B} of TEST-NET-1 (RFC 5737, 192.0.2.0/24), which
 * exist only inside the two namespaces: their only route is the link between them, so nothing they send can leave
 * the pair. Names carry the pid of the JVM and a counter ({@code am2jt-<pid>-<n>-a}); a new pair first removes the
 * namespaces of pairs whose JVM is gone (killed before it could clean up).
 * <p>
 * Loss: {@link #dropUdp} installs an nftables table in one host that drops a share of the UDP datagrams arriving
 * there, chosen at random per datagram ({@code numgen random mod 100 < P}); this kernel has no netem. Dropping on the
 * input hook loses datagrams on the wire as a lossy link would; dropping on output would instead fail the sender's
 * system call with {@code EPERM}, which is not what a network does.
 * <p>
 * {@link #close()} kills every process started in either host, removes the nftables tables and deletes the
 * namespaces; a JVM shutdown hook does the same should the JVM be stopped first. Needs root, {@code ip}
 * (iproute2), {@code nft} (nftables), {@code unshare} and {@code nsenter} (util-linux): {@link #unavailableReason()}
 * says what is missing, for tests to skip with.
 */
final class VethPair implements AutoCloseable
{
    /** MTU of both veth ends. */
    static final int MTU = 1500;
    /** Address of host A's veth end. */
    static final String ADDRESS_A = "192.0.2.1";
    /** Address of host B's veth end. */
    static final String ADDRESS_B = "192.0.2.2";
    /** Prefix length of the link's subnet. */
    static final int PREFIX = 24;
    /** Name of the nftables table of {@link #dropUdp}. */
    static final String LOSS_TABLE = "am2j_loss";
    /** How long one set-up or tear-down command may take. */
    static final long COMMAND_TIMEOUT_MS = 20_000;

    private static final String PREFIX_NAME = "am2jt-";
    private static final Pattern NAMESPACE = Pattern.compile("^" + PREFIX_NAME + "(\\d+)-\\d+-[ab]\\b",
        Pattern.MULTILINE);
    private static final Pattern COUNTER = Pattern.compile("counter packets (\\d+) bytes");
    private static final AtomicInteger PAIRS = new AtomicInteger();
    private static final String[] PROGRAMS = {"ip", "nft", "unshare", "nsenter", "sh", "mount", "hostname", "cat"};
    private static String unavailable;
    private static boolean probed;

    private final NamespaceHost a;
    private final NamespaceHost b;
    private final List<NamespaceHost> added = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::tearDown, "veth-pair-cleanup");
    private boolean closed;

    private VethPair(final NamespaceHost a, final NamespaceHost b)
    {
        this.a = a;
        this.b = b;
    }

    /**
     * @return why namespaces cannot be made here (not Linux, not root, a program missing, the kernel refusing), or
     * {@code null} when they can.
     */
    static synchronized String unavailableReason()
    {
        if (!probed)
        {
            unavailable = probe();
            probed = true;
        }
        return unavailable;
    }

    private static String probe()
    {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux"))
        {
            return "network namespaces need Linux, this is " + System.getProperty("os.name");
        }
        try
        {
            final String status = Files.readString(Path.of("/proc/self/status"));
            final Matcher uid = Pattern.compile("^Uid:\\s+\\d+\\s+(\\d+)", Pattern.MULTILINE).matcher(status);
            if (uid.find() && !"0".equals(uid.group(1)))
            {
                return "network namespaces need root (effective uid " + uid.group(1) + "); CI runs as root";
            }
        }
        catch (final java.io.IOException ex)
        {
            return "cannot read /proc/self/status: " + ex;
        }
        final List<String> missing = new ArrayList<>();
        for (final String program : PROGRAMS)
        {
            if (null == locate(program))
            {
                missing.add(program);
            }
        }
        if (!missing.isEmpty())
        {
            return "missing programs " + missing + ": install iproute2, nftables and util-linux " +
                "(apt-get install -y iproute2 nftables), as .ci/run does";
        }
        final String name = PREFIX_NAME + ProcessHandle.current().pid() + "-probe-a";
        final SystemCommand.Result add = SystemCommand.run(program("ip"), "netns", "add", name);
        if (!add.succeeded())
        {
            return "'ip netns add' is refused here (a container without CAP_SYS_ADMIN?): " + add.output.trim();
        }
        final SystemCommand.Result nft = SystemCommand.run(COMMAND_TIMEOUT_MS, "table inet am2j_probe { }\n",
            List.of(program("ip"), "netns", "exec", name, program("nft"), "-f", "-"));
        SystemCommand.run(program("ip"), "netns", "del", name);
        if (!nft.succeeded())
        {
            return "nftables does not work in a network namespace here: " + nft.output.trim();
        }
        return null;
    }

    /**
     * @return the absolute path of a program, from {@code PATH} or the system directories; {@code null} when absent.
     */
    static String locate(final String program)
    {
        final List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (final String dir : dirs)
        {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program)))
            {
                return Path.of(dir, program).toString();
            }
        }
        return null;
    }

    /**
     * @return the absolute path of a program {@link #unavailableReason()} found, or its bare name.
     */
    static String program(final String program)
    {
        final String path = locate(program);
        return null == path ? program : path;
    }

    /**
     * Make the two hosts and the veth pair between them, each end up with its address and MTU {@value #MTU}.
     *
     * @return the pair; the caller closes it.
     * @throws IllegalStateException when namespaces cannot be made ({@link #unavailableReason()}) or a step fails;
     *                               what was made by then is removed.
     */
    static VethPair create()
    {
        final String reason = unavailableReason();
        if (null != reason)
        {
            throw new IllegalStateException(reason);
        }
        sweepLeftovers();
        final String base = PREFIX_NAME + ProcessHandle.current().pid() + "-" + PAIRS.incrementAndGet();
        final VethPair pair = new VethPair(
            new NamespaceHost(base + "-a", "am2j-host-a-" + ProcessHandle.current().pid(), ADDRESS_A),
            new NamespaceHost(base + "-b", "am2j-host-b-" + ProcessHandle.current().pid(), ADDRESS_B));
        Runtime.getRuntime().addShutdownHook(pair.shutdownHook);
        try
        {
            pair.build();
            return pair;
        }
        catch (final RuntimeException ex)
        {
            pair.close();
            throw ex;
        }
    }

    private void build()
    {
        for (final NamespaceHost host : List.of(a, b))
        {
            ip("netns", "add", host.namespace());
            added.add(host);
        }
        // Made inside the namespaces directly: the name veth0 never exists outside them.
        ip("link", "add", "name", NamespaceHost.INTERFACE, "netns", a.namespace(), "type", "veth",
            "peer", "name", NamespaceHost.INTERFACE, "netns", b.namespace());
        for (final NamespaceHost host : List.of(a, b))
        {
            ip("-n", host.namespace(), "link", "set", "lo", "up");
            ip("-n", host.namespace(), "link", "set", NamespaceHost.INTERFACE, "mtu", Integer.toString(MTU));
            ip("-n", host.namespace(), "addr", "add", host.address() + "/" + PREFIX, "dev", NamespaceHost.INTERFACE);
            ip("-n", host.namespace(), "link", "set", NamespaceHost.INTERFACE, "up");
            host.startHolder(COMMAND_TIMEOUT_MS);
        }
    }

    private static void ip(final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(program("ip"));
        command.addAll(List.of(args));
        SystemCommand.run(COMMAND_TIMEOUT_MS, null, command).orThrow();
    }

    /**
     * Remove the namespaces of pairs whose JVM no longer runs (killed before its clean-up), and what runs in them.
     */
    static void sweepLeftovers()
    {
        final SystemCommand.Result list = SystemCommand.run(program("ip"), "netns", "list");
        final Matcher m = NAMESPACE.matcher(list.output);
        while (m.find())
        {
            final long pid = Long.parseLong(m.group(1));
            final String name = m.group().trim();
            if (pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty())
            {
                final SystemCommand.Result pids = SystemCommand.run(program("ip"), "netns", "pids", name);
                for (final String line : pids.output.split("\\s+"))
                {
                    if (line.matches("\\d+"))
                    {
                        ProcessHandle.of(Long.parseLong(line)).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
                SystemCommand.run(program("ip"), "netns", "del", name);
            }
        }
    }

    /**
     * @return host A, at {@value #ADDRESS_A}.
     */
    NamespaceHost a()
    {
        return a;
    }

    /**
     * @return host B, at {@value #ADDRESS_B}.
     */
    NamespaceHost b()
    {
        return b;
    }

    /**
     * Drop {@code percent} of the UDP datagrams that arrive at {@code host}, each chosen at random, counted.
     *
     * @param host    of this pair.
     * @param percent 0 to 100.
     */
    void dropUdp(final NamespaceHost host, final int percent)
    {
        if (percent < 0 || percent > 100)
        {
            throw new IllegalArgumentException("percent " + percent + " is not in [0, 100]");
        }
        final String rules = "table inet " + LOSS_TABLE + " {\n" +
            "  chain input {\n" +
            "    type filter hook input priority 0; policy accept;\n" +
            "    meta l4proto udp numgen random mod 100 < " + percent + " counter drop\n" +
            "  }\n" +
            "}\n";
        SystemCommand.run(COMMAND_TIMEOUT_MS, rules,
            List.of(program("ip"), "netns", "exec", host.namespace(), program("nft"), "-f", "-")).orThrow();
    }

    /**
     * @param host of this pair with {@link #dropUdp} applied.
     * @return UDP datagrams the table has dropped so far.
     */
    long droppedUdp(final NamespaceHost host)
    {
        final SystemCommand.Result list = SystemCommand.run(COMMAND_TIMEOUT_MS, null, List.of(program("ip"), "netns",
            "exec", host.namespace(), program("nft"), "list", "table", "inet", LOSS_TABLE)).orThrow();
        final Matcher m = COUNTER.matcher(list.output);
        long dropped = 0;
        while (m.find())
        {
            dropped += Long.parseLong(m.group(1));
        }
        return dropped;
    }

    /**
     * @return the namespaces of this pair that {@code ip netns list} still shows.
     */
    List<String> namespacesLeft()
    {
        final String list = SystemCommand.run(program("ip"), "netns", "list").output;
        final List<String> left = new ArrayList<>();
        for (final NamespaceHost host : List.of(a, b))
        {
            if (Pattern.compile("^" + Pattern.quote(host.namespace()) + "\\b", Pattern.MULTILINE).matcher(list).find())
            {
                left.add(host.namespace());
            }
        }
        return left;
    }

    @Override
    public void close()
    {
        tearDown();
        try
        {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (final IllegalStateException ex)
        {
            // the JVM is shutting down and the hook runs (or ran) the tear-down itself
        }
    }

    private synchronized void tearDown()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final NamespaceHost host : List.of(a, b))
        {
            host.killAll();
        }
        for (final NamespaceHost host : added)
        {
            // Deleting the namespace takes its tables with it; deleting the table first says so should it stay.
            SystemCommand.run(COMMAND_TIMEOUT_MS, null, List.of(program("ip"), "netns", "exec", host.namespace(),
                program("nft"), "delete", "table", "inet", LOSS_TABLE));
            SystemCommand.run(COMMAND_TIMEOUT_MS, null, List.of(program("ip"), "netns", "del", host.namespace()));
        }
    }

    @Override
    public String toString()
    {
        return "veth pair (MTU " + MTU + ") between " + a + " and " + b;
    }
}
