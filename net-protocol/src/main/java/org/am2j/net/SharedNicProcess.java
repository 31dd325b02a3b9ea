package org.am2j.net;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.am2j.api.AmException;
import org.am2j.idle.CpuShare;
import org.am2j.spi.NodeIdentity;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.ShmDirectories;
import org.am2j.spi.TransportContext;
import org.am2j.spmd.SpmdEnvironment;

import static org.am2j.net.NicFileDescriptor.*;

/**
 * A NIC process: one {@link NicAgent} (same wire, reliability, authentication and delivery contract as a process's
 * own NIC) serving the endpoints of several host processes of a node, like a media driver. It makes its control file
 * ({@link NicFileDescriptor}) in the node's NIC directory, publishes its address there, and then runs its duty
 * cycle on the main thread: the commands hosts write ({@link NicCommands}), the endpoints' send queues, the socket and
 * the timers. When idle it spins a little, yields, then sleeps in its socket's selector with {@code sleeping} set in
 * the control file, from which a datagram, a due timer or a host's wake datagram brings it back. SIGTERM (or the end
 * of {@link #close()}) stops it and removes its control file.
 * <p>
 * {@code java org.am2j.net.SharedNicProcess <directory> <index>}; settings as for a rank ({@code am2j.net.*} system
 * properties or {@code AM2J_NET_*} environment variables: host, port, queueBytes, timeouts).
 */
public final class SharedNicProcess implements AutoCloseable
{
    private static final System.Logger LOGGER = System.getLogger("org.am2j.net");
    /** Third argument: stop once the endpoints served are all gone (or none came within {@link #FIRST_ENDPOINT_MS}). */
    static final String IDLE_EXIT = "--exit-when-idle";
    /** With {@link #IDLE_EXIT}: how long the NIC serves no endpoint after its last one went, before it stops. */
    static final long IDLE_EXIT_MS = 2_000;
    /** With {@link #IDLE_EXIT}: how long the NIC waits for its first endpoint. */
    static final long FIRST_ENDPOINT_MS = 60_000;

    private final Path file;
    private final UnsafeBuffer control;
    private final NicAgent nic;
    private final NicCommands commands;
    private final WakeSender waker = new WakeSender();
    private final NicIdleStrategy idle;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Whether the process that started this one still runs ({@code AM2J_LAUNCHER_PID}); null when none was named. */
    private final java.util.function.BooleanSupplier launcher = launcherWatch();
    private long nextLauncherCheckNanos;
    private boolean exitWhenIdle;
    private long idleSinceNanos = System.nanoTime();
    private volatile boolean running = true;

    /**
     * Make the control file and the NIC.
     *
     * @param directory the node's NIC directory (made when missing).
     * @param index     which NIC of the node.
     * @param context   settings.
     * @throws IOException when the control file cannot be made (another live NIC process serves that index).
     */
    public SharedNicProcess(final Path directory, final int index, final TransportContext context) throws IOException
    {
        final NetConfig config = new NetConfig(context);
        ShmDirectories.create(directory);
        this.file = directory.resolve(fileName(index));
        final MappedByteBuffer mapping = createControlFile(file);
        this.control = new UnsafeBuffer(mapping);
        final long nicId = ProcessIdentity.currentProcessId();
        this.nic = new NicAgent(config, NetTransport.openWire(config), nicId, new NicCounters(context),
            new ProcessLiveness(config.node));
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(control, COMMAND_RING_OFFSET,
            COMMAND_RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH));
        this.commands = new NicCommands(nic, ring, directory.toAbsolutePath().normalize(), waker, config.queueBytes);
        this.idle = new NicIdleStrategy(this::sleep, CpuShare.process());
        final byte[] address = nic.publishedAddress().getBytes(StandardCharsets.UTF_8);
        if (address.length > MAX_ADDRESS_LENGTH)
        {
            throw new AmException(org.am2j.api.AmError.BAD_ARG, "am2j net: NIC address too long: " +
                nic.publishedAddress());
        }
        control.putInt(MAGIC_OFFSET, MAGIC);
        control.putInt(VERSION_OFFSET, VERSION);
        control.putLong(PID_OFFSET, ProcessIdentity.currentPid());
        control.putLong(NIC_ID_OFFSET, nicId);
        control.putBytes(ADDRESS_OFFSET, address);
        control.putInt(ADDRESS_LENGTH_OFFSET, address.length);
        // Ordered store last: a host that sees the NIC serving sees its address, id and ring.
        control.putIntOrdered(STATE_OFFSET, STATE_SERVING);
    }

    /**
     * Make the control file; one left by a NIC process that no longer runs is replaced.
     */
    private static MappedByteBuffer createControlFile(final Path file) throws IOException
    {
        try
        {
            return ShmDirectories.createMapped(file, length());
        }
        catch (final FileAlreadyExistsException ex)
        {
            final long pid;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
            {
                final UnsafeBuffer old = new UnsafeBuffer(channel.map(FileChannel.MapMode.READ_ONLY, 0,
                    Math.min(channel.size(), COMMAND_RING_OFFSET)));
                pid = old.capacity() >= PID_OFFSET + Long.BYTES ? old.getLong(PID_OFFSET) : 0;
            }
            if (ProcessIdentity.isAlive(pid, ProcessIdentity.UNKNOWN_START_TIME))
            {
                throw new FileAlreadyExistsException(file.toString(), null,
                    "a NIC process (pid " + pid + ") serves it already");
            }
            Files.deleteIfExists(file);
            return ShmDirectories.createMapped(file, length());
        }
    }

    /**
     * @return the NIC's published address.
     */
    public String address()
    {
        return nic.publishedAddress();
    }

    /**
     * @return the NIC agent (for tests).
     */
    NicAgent nic()
    {
        return nic;
    }

    /**
     * Run the duty cycle on this thread until {@link #close()}.
     */
    public void run()
    {
        try
        {
            while (running)
            {
                int work;
                try
                {
                    work = commands.doWork();
                    work += nic.doWork();
                }
                catch (final RuntimeException ex)
                {
                    // As an agent runner does: report and go on serving the other endpoints.
                    nic.counters().increment(NicEvent.IO_ERRORS);
                    LOGGER.log(System.Logger.Level.ERROR, "am2j net: shared NIC duty cycle failed", ex);
                    work = 1;
                }
                idle.idle(work);
                checkLauncher();
            }
        }
        finally
        {
            control.putIntOrdered(STATE_OFFSET, STATE_CLOSED);
            nic.onClose();
            waker.close();
            try
            {
                Files.deleteIfExists(file);
                if (exitWhenIdle)
                {
                    removeStarted();
                }
            }
            catch (final IOException ex)
            {
                LOGGER.log(System.Logger.Level.WARNING, "am2j net: cannot remove " + file + ": " + ex);
            }
            stopped.countDown();
        }
    }

    /**
     * @return a watch of the launcher that started this NIC process ({@code AM2J_LAUNCHER_PID} and
     * {@code AM2J_LAUNCHER_START}), or null when no launcher did.
     * @throws org.am2j.api.AmException naming the variable when one is set but malformed.
     */
    private static java.util.function.BooleanSupplier launcherWatch()
    {
        final Settings settings = Settings.system();
        final long pid = settings.longValue(Setting.variable(SpmdEnvironment.AM2J_LAUNCHER_PID), 0, 1, Long.MAX_VALUE);
        final long start = settings.longValue(Setting.variable(SpmdEnvironment.AM2J_LAUNCHER_START),
            ProcessIdentity.UNKNOWN_START_TIME, 0, Long.MAX_VALUE);
        return 0 == pid ? null : ProcessIdentity.watch(pid, start);
    }

    /**
     * A launcher killed without stopping its NIC processes leaves nobody to stop them: they stop themselves.
     */
    private void checkLauncher()
    {
        final long now = System.nanoTime();
        if (null != launcher && now - nextLauncherCheckNanos >= 0)
        {
            nextLauncherCheckNanos = now + NicCommands.HOST_CHECK_NANOS;
            if (!launcher.getAsBoolean())
            {
                LOGGER.log(System.Logger.Level.WARNING, "am2j net: the launcher is gone: NIC process stops");
                running = false;
            }
        }
        if (exitWhenIdle && now - nextIdleCheckNanos >= 0)
        {
            nextIdleCheckNanos = now + NicCommands.HOST_CHECK_NANOS;
            if (commands.endpoints() > 0)
            {
                idleSinceNanos = now;
            }
            // Whether an endpoint came is the command table's record, not this check's sample: an endpoint that
            // registered and closed between two checks must not leave the process waiting for a first one.
            else if ((now - idleSinceNanos) / 1_000_000L >= (commands.served ? IDLE_EXIT_MS : FIRST_ENDPOINT_MS))
            {
                running = false;
            }
        }
    }

    private long nextIdleCheckNanos;

    /**
     * A NIC process a rank started ({@link NicStarter}) leaves nothing behind when it stops having served well: its
     * log goes, and the last one of the node removes the start lock and the directory.
     */
    private void removeStarted() throws IOException
    {
        final Path directory = file.getParent();
        Files.deleteIfExists(directory.resolve(file.getFileName() + ".log"));
        try (java.util.stream.Stream<Path> entries = Files.list(directory))
        {
            if (entries.allMatch((entry) -> NicStarter.LOCK_FILE.equals(entry.getFileName().toString())))
            {
                Files.deleteIfExists(directory.resolve(NicStarter.LOCK_FILE));
                Files.deleteIfExists(directory);
            }
        }
        catch (final java.nio.file.DirectoryNotEmptyException | java.nio.file.NoSuchFileException ex)
        {
            // Another NIC process, or a new job, uses the directory now; or the last one removed it first.
        }
    }

    /**
     * The idle strategy's sleep: publish {@code sleeping}, then look at the command ring (the NIC looks at the send
     * queues itself) before sleeping in the selector.
     */
    private void sleep(final long nanos)
    {
        control.putIntVolatile(SLEEPING_OFFSET, 1);
        // Volatile store, then the reads of the rings: the Dekker pair with a host's commit, full fence, read of
        // the flag. One of the two sees the other, so no command or record waits for the whole sleep.
        VarHandle.fullFence();
        try
        {
            if (running && !commands.pending())
            {
                nic.sleep(nanos);
            }
        }
        finally
        {
            control.putIntOrdered(SLEEPING_OFFSET, 0);
        }
    }

    /**
     * Stop the duty cycle and wait for it to end (it removes the control file).
     */
    @Override
    public void close()
    {
        running = false;
        nic.wakeup();
        try
        {
            stopped.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @param args the node's NIC directory, the NIC's index, and {@link #IDLE_EXIT} to stop once the endpoints it
     *             served are all gone.
     * @throws IOException when the control file cannot be made.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length < 2 || args.length > 3 || (3 == args.length && !IDLE_EXIT.equals(args[2])))
        {
            System.err.println("usage: SharedNicProcess <directory> <index> [" + IDLE_EXIT + "]");
            System.exit(2);
        }
        final SharedNicProcess process = new SharedNicProcess(Path.of(args[0]), Integer.parseInt(args[1]),
            new ProcessContext());
        process.exitWhenIdle = 3 == args.length;
        final Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            process.running = false;
            process.nic.wakeup();
            try
            {
                main.join(5_000);
            }
            catch (final InterruptedException ignored)
            {
                Thread.currentThread().interrupt();
            }
        }, "am2j-nic-stop"));
        System.out.println("am2j NIC " + args[1] + " pid " + ProcessIdentity.currentPid() + " at " +
            process.address());
        System.out.flush();
        process.run();
    }

    /**
     * The settings of a NIC process: system properties, then environment variables (as a rank reads them).
     */
    static final class ProcessContext implements TransportContext
    {
        @Override
        public String node()
        {
            return NodeIdentity.local();
        }

        @Override
        public long processId()
        {
            return ProcessIdentity.currentProcessId();
        }

        @Override
        public long pid()
        {
            return ProcessIdentity.currentPid();
        }

        @Override
        public String job()
        {
            return Settings.system().text(new Setting("am2j.job", SpmdEnvironment.AM2J_JOB), "default");
        }
    }
}
