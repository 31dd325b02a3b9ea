package org.am2j.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.Header;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The peers of the LogP harness ({@link LogP}): an Aeron ping-pong between two processes, over IPC (shared memory:
 * Aeron's log buffers in a mapped file) or over UDP on loopback. This is what a Java user would pick today for the
 * job am2j does, so its round trip is measured in the same run, pinned the same way, and ours is reported over it.
 * <p>
 * <b>Set-up.</b> An embedded media driver in {@link ThreadingMode#INVOKER} mode with no other threads (no conductor,
 * sender or receiver thread, no async executor thread: on a machine of two CPUs any extra busy thread ruins the
 * latency of two spinning processes), its agents run by {@link AgentInvoker#invoke()} from the rank's own loop; the
 * Aeron client likewise runs its conductor through {@link Aeron#conductorAgentInvoker()}. Terms of
 * {@value #TERM_BYTES} bytes, allocated (not sparse) and pre-touched, so the ping-pong runs on a few hot pages. A
 * driver's directory is deleted when it closes; those of drivers killed with their pair are deleted by the next
 * driver that starts ({@link #removeStale}).
 * <ul>
 * <li><b>IPC</b>: rank 0 runs the one driver of the pair (in its own directory under {@code /dev/shm}) and rank 1's
 * client connects to it; rank 0 publishes pings on {@code aeron:ipc} stream {@value #PING_STREAM} and rank 1 pongs on
 * stream {@value #PONG_STREAM}. The data path needs no driver (the publication writes the log the subscription
 * reads), but the driver's conductor advances each publication's limit from its subscriber's position, so rank 0
 * invokes the driver (and both ranks their client conductors) between round trips, outside the timed part, every
 * {@value #ROUND_TRIPS_PER_SERVICE} round trips.</li>
 * <li><b>UDP</b>: each rank runs its own driver and subscribes on {@code aeron:udp?endpoint=127.0.0.1:0} (a port the
 * driver picks), the ranks swap the bound addresses and each publishes to the other's. The drivers' sender and
 * receiver are the data path, so each rank invokes its driver on every turn of its spin loop, as invoker mode
 * asks.</li>
 * </ul>
 * <b>Ping-pong.</b> Messages of {@value #MESSAGE_BYTES} bytes (the size of Aeron's own {@code Ping} sample) carrying
 * a sequence number; the initiator offers a ping, spins on its subscription until the pong of that number is in
 * and times the whole; the responder offers a pong for every ping. A poll that finds nothing is followed by
 * {@link Thread#onSpinWait()}, as in the AM and cache-line loops. An offer refused for back pressure or an admin
 * action is retried after servicing the agents, one refused as not connected too for up to
 * {@link #CONNECT_TIMEOUT_NS}; any other refusal fails the run.
 */
final class AeronPingPong implements AutoCloseable
{
    /** Bytes of a ping and of a pong. */
    static final int MESSAGE_BYTES = 32;
    /** Stream of the pings. */
    static final int PING_STREAM = 1001;
    /** Stream of the pongs. */
    static final int PONG_STREAM = 1002;
    /** Term length of every log buffer: Aeron's smallest. */
    static final int TERM_BYTES = 64 * 1024;
    /** IPC: round trips between two services of the agents by the initiator. */
    static final int ROUND_TRIPS_PER_SERVICE = 16;
    /** Empty polls between two services of the client conductor by a spinning rank. */
    static final int IDLE_POLLS_PER_SERVICE = 1024;
    /**
     * Liveness timeouts of clients, images and publications: long, since a rank runs no agent while it probes or
     * waits for a command between phases, which on a loaded machine can take seconds (Aeron's default takes a UDP
     * publication whose peer sent no status message for 5 s as no longer connected).
     */
    static final long LIVENESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    /** Start of the name of every driver directory this class makes. */
    static final String DIRECTORY_PREFIX = "am2j-aeron-";
    /** A driver directory whose driver has not beaten its heartbeat for this long (and whose process is gone) is stale. */
    static final long STALE_DRIVER_MS = 10_000;
    /** How long the set-up may take to connect the two ranks. */
    static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /** Which transport of Aeron. */
    enum Kind
    {
        /** {@code aeron:ipc}. */
        IPC,
        /** {@code aeron:udp} on loopback. */
        UDP;

        /**
         * @param name {@code ipc} or {@code udp}.
         * @return the kind.
         */
        static Kind of(final String name)
        {
            return Stream.of(values()).filter(kind -> kind.name().toLowerCase(Locale.ROOT).equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Aeron kind '" + name + "' is not ipc or udp"));
        }
    }

    private final Kind kind;
    private final MediaDriver driver;
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;
    private final AgentInvoker clientInvoker;
    private Publication publication;
    private Subscription subscription;
    private final UnsafeBuffer message = new UnsafeBuffer(
        ByteBuffer.allocateDirect(MESSAGE_BYTES).order(ByteOrder.nativeOrder()));
    private long received;
    private long lastSequence = -1;
    private long outOfOrder;
    private int idlePolls;

    private AeronPingPong(final Kind kind, final MediaDriver driver, final Aeron aeron)
    {
        this.kind = kind;
        this.driver = driver;
        this.driverInvoker = null == driver ? null : driver.sharedAgentInvoker();
        this.aeron = aeron;
        this.clientInvoker = aeron.conductorAgentInvoker();
    }

    /**
     * Open rank {@code rank}'s side of the pair and connect it to the other's.
     *
     * @param kind      IPC or UDP.
     * @param rank      0 (the initiator) or 1 (the responder).
     * @param allGather the job's all-gather: this rank's bytes in, every rank's out (both ranks call it the same
     *                  number of times).
     * @return the connected side.
     */
    static AeronPingPong open(final Kind kind, final int rank, final Function<byte[], byte[][]> allGather)
    {
        final boolean ownDriver = Kind.UDP == kind || 0 == rank;
        MediaDriver driver = null;
        Aeron aeron = null;
        try
        {
            String dir = null;
            if (ownDriver)
            {
                driver = MediaDriver.launch(driverContext(newDirectory(kind, rank)));
                dir = driver.aeronDirectoryName();
            }
            if (Kind.IPC == kind)
            {
                dir = new String(allGather.apply(0 == rank ? bytes(dir) : new byte[0])[0], StandardCharsets.UTF_8);
            }
            aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(dir)
                .useConductorAgentInvoker(true)
                .driverAgentInvoker(null == driver ? null : driver.sharedAgentInvoker())
                .driverTimeoutMs(TimeUnit.NANOSECONDS.toMillis(LIVENESS_TIMEOUT_NS))
                .preTouchMappedMemory(true)
                .errorHandler(Throwable::printStackTrace));
            final AeronPingPong side = new AeronPingPong(kind, driver, aeron);
            side.connect(rank, allGather);
            return side;
        }
        catch (final RuntimeException | Error ex)
        {
            CloseHelper.quietCloseAll(aeron, driver);
            throw ex;
        }
    }

    private static MediaDriver.Context driverContext(final String dir)
    {
        return new MediaDriver.Context()
            .aeronDirectoryName(dir)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .threadingMode(ThreadingMode.INVOKER)
            .asyncTaskExecutorThreads(0)
            .ipcTermBufferLength(TERM_BYTES)
            .publicationTermBufferLength(TERM_BYTES)
            .termBufferSparseFile(false)
            .performStorageChecks(false)
            .clientLivenessTimeoutNs(LIVENESS_TIMEOUT_NS)
            .imageLivenessTimeoutNs(LIVENESS_TIMEOUT_NS)
            .publicationConnectionTimeoutNs(LIVENESS_TIMEOUT_NS)
            .untetheredWindowLimitTimeoutNs(LIVENESS_TIMEOUT_NS)
            .publicationUnblockTimeoutNs(2 * LIVENESS_TIMEOUT_NS)
            .errorHandler(Throwable::printStackTrace);
    }

    private static String newDirectory(final Kind kind, final int rank)
    {
        final Path base = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") :
            Path.of(System.getProperty("java.io.tmpdir"));
        removeStale(base);
        try
        {
            final Path dir = Files.createTempDirectory(base, DIRECTORY_PREFIX + kind.name().toLowerCase() + "-" +
                rank + "-" + ProcessHandle.current().pid() + "-");
            // the driver makes it again (dirDeleteOnStart), and deletes it when it closes
            Files.delete(dir);
            return dir.toString();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot make a directory for the Aeron driver in " + base, ex);
        }
    }

    /**
     * Delete the directories of drivers whose process is gone: a pair killed at its time limit (or by SIGKILL) does not
     * close its drivers, and each leaves some 47 MB in {@code /dev/shm}. A directory is stale when the process whose
     * id is in its name ({@code am2j-aeron-KIND-RANK-PID-...}) is not running and its driver has not written its
     * heartbeat for {@value #STALE_DRIVER_MS} ms (a reused process id only keeps a stale directory longer).
     *
     * @param base where the drivers' directories are made.
     * @return the directories deleted.
     */
    static List<Path> removeStale(final Path base)
    {
        final List<Path> removed = new ArrayList<>();
        try (Stream<Path> files = Files.list(base))
        {
            for (final Path dir : (Iterable<Path>)files::iterator)
            {
                final long pid = ownerPid(dir.getFileName().toString());
                if (pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) &&
                    Files.isDirectory(dir) && !CommonContext.isDriverActive(dir.toFile(), STALE_DRIVER_MS, message -> { }))
                {
                    IoUtil.delete(dir.toFile(), true);
                    removed.add(dir);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // best effort: a directory that cannot be listed or deleted is left for the next run
        }
        return removed;
    }

    /**
     * @param name of a file.
     * @return the process id in the name of a driver directory this class made, or -1 for any other name.
     */
    static long ownerPid(final String name)
    {
        if (!name.startsWith(DIRECTORY_PREFIX))
        {
            return -1;
        }
        final String[] parts = name.substring(DIRECTORY_PREFIX.length()).split("-");
        try
        {
            return parts.length >= 3 ? Long.parseLong(parts[2]) : -1;
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void connect(final int rank, final Function<byte[], byte[][]> allGather)
    {
        final int sendStream = 0 == rank ? PING_STREAM : PONG_STREAM;
        final int receiveStream = 0 == rank ? PONG_STREAM : PING_STREAM;
        if (Kind.IPC == kind)
        {
            subscription = aeron.addSubscription("aeron:ipc", receiveStream);
            publication = aeron.addExclusivePublication("aeron:ipc?term-length=" + TERM_BYTES, sendStream);
        }
        else
        {
            subscription = aeron.addSubscription("aeron:udp?endpoint=127.0.0.1:0", receiveStream);
            final String mine = await(() -> subscription.localSocketAddresses(), "the subscription to bind");
            final String theirs = new String(allGather.apply(bytes(mine))[1 - rank], StandardCharsets.UTF_8);
            publication = aeron.addExclusivePublication(
                "aeron:udp?endpoint=" + theirs + "|term-length=" + TERM_BYTES, sendStream);
        }
        await(() -> publication.isConnected() && subscription.isConnected() ? List.of("yes") : List.of(),
            "the publication and subscription to connect");
        // both sides connected before either measures
        allGather.apply(new byte[0]);
    }

    private String await(final java.util.function.Supplier<List<String>> condition, final String what)
    {
        final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
        for (;;)
        {
            final List<String> value = condition.get();
            if (!value.isEmpty())
            {
                return value.get(0);
            }
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("Aeron " + kind + ": timed out waiting for " + what);
            }
            service();
            Thread.yield();
        }
    }

    /**
     * Run the agents this rank holds: its driver's (if any) and its client conductor's.
     */
    private void service()
    {
        if (null != driverInvoker)
        {
            driverInvoker.invoke();
        }
        clientInvoker.invoke();
    }

    /**
     * One turn of the spin loop: over UDP the driver first (it is the data path), then a poll of the subscription;
     * after a poll that found nothing a spin-wait hint, and after {@value #IDLE_POLLS_PER_SERVICE} of those the
     * agents (which also frees a peer held back by a publication limit only the driver's conductor advances).
     */
    private void spin()
    {
        if (Kind.UDP == kind)
        {
            driverInvoker.invoke();
        }
        if (subscription.poll(this::onMessage, 1) == 0)
        {
            Thread.onSpinWait();
            if (++idlePolls == IDLE_POLLS_PER_SERVICE)
            {
                idlePolls = 0;
                service();
            }
        }
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        final long sequence = buffer.getLong(offset);
        if (sequence != lastSequence + 1 || length != MESSAGE_BYTES)
        {
            outOfOrder++;
        }
        lastSequence = sequence;
        received++;
    }

    private void send(final long sequence)
    {
        message.putLong(0, sequence);
        long deadline = 0;
        for (;;)
        {
            final long result = publication.offer(message, 0, MESSAGE_BYTES);
            if (result > 0)
            {
                break;
            }
            if (Publication.NOT_CONNECTED == result)
            {
                // a peer that ran no agent for a while reconnects once it does again
                final long now = System.nanoTime();
                deadline = 0 == deadline ? now + CONNECT_TIMEOUT_NS : deadline;
                if (now - deadline > 0)
                {
                    throw new IllegalStateException("Aeron " + kind + ": the publication stayed not connected");
                }
            }
            else if (Publication.BACK_PRESSURED != result && Publication.ADMIN_ACTION != result)
            {
                throw new IllegalStateException("Aeron " + kind + ": offer refused with " + result);
            }
            service();
        }
        if (Kind.UDP == kind)
        {
            // the driver's sender puts it on the wire
            driverInvoker.invoke();
        }
    }

    /**
     * Initiator: ping-pong round trips, each timed.
     *
     * @param n         round trips.
     * @param histogram receives each round trip's time in ns.
     */
    void roundTrips(final int n, final Histogram histogram)
    {
        for (int i = 0; i < n; i++)
        {
            final long expected = received + 1;
            final long start = System.nanoTime();
            send(lastSequence + 1);
            while (received != expected)
            {
                spin();
            }
            LatencySummary.record(histogram, System.nanoTime() - start);
            if (Kind.IPC == kind && i % ROUND_TRIPS_PER_SERVICE == 0)
            {
                service();
            }
        }
        check();
    }

    /**
     * Responder: answer {@code n} pings with pongs of the same sequence number.
     *
     * @param n pings.
     */
    void respond(final int n)
    {
        final long end = received + n;
        while (received != end)
        {
            final long before = received;
            spin();
            if (received != before)
            {
                send(lastSequence);
                if (Kind.IPC == kind && received % ROUND_TRIPS_PER_SERVICE == 0)
                {
                    clientInvoker.invoke();
                }
            }
        }
        check();
    }

    private void check()
    {
        if (outOfOrder != 0)
        {
            throw new IllegalStateException("Aeron " + kind + ": " + outOfOrder + " messages out of order or of the " +
                "wrong length");
        }
    }

    /**
     * Close the client, then the driver (which deletes its directory). Over IPC rank 1's client must close before
     * rank 0's driver: the rank program orders them with a barrier.
     */
    @Override
    public void close()
    {
        CloseHelper.quietCloseAll(publication, subscription, aeron, driver);
    }
}
