package org.am2j.shm;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.am2j.idle.CpuShare;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Setting;
import org.am2j.spi.ShmDirectories;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportQueues;
import org.am2j.spi.VirtualThreads;

/**
 * The shared-memory transport {@code shm}: endpoints of processes on the same node exchange messages through queue
 * blocks in memory-mapped files (see {@link QueueBlockDescriptor}). One per process: it owns the job directory, the
 * process's doorbell, and the table of files this process has mapped (one mapping per file).
 */
public final class ShmTransport implements Transport
{
    /** The transport's name. */
    public static final String NAME = "shm";

    private static final System.Logger LOGGER = System.getLogger("org.am2j.shm");

    final ShmConfig config;
    final MappedFiles mappedFiles = new MappedFiles();
    final String node;
    final long processId;
    final long pid = ProcessIdentity.currentPid();
    final long startMs = ProcessIdentity.currentStartTimeMs();
    private final Path directory;
    private final Doorbell doorbell;
    private final boolean canBlock;
    private final Map<Integer, ShmQueues> endpoints = new ConcurrentHashMap<>();
    /** Rings owed to sleeping peers while the CPUs are oversubscribed. */
    final DeferredRings rings;
    /** The processes whose queue blocks this process's routes send into, and whether they are dead. */
    final PeerProcesses peers = new PeerProcesses();
    final DeadPeerCounters deadPeerCounters;

    ShmTransport(final TransportContext context)
    {
        this(context, CpuShare.process());
    }

    /**
     * @param share whether the CPUs are oversubscribed, which decides whether rings wait for a flush point (tests
     *              give a scripted one).
     */
    ShmTransport(final TransportContext context, final CpuShare share)
    {
        this.rings = new DeferredRings(share);
        this.config = ShmConfig.from(context.settings());
        this.deadPeerCounters = new DeadPeerCounters(context);
        this.node = context.node();
        this.processId = context.processId();
        final Path userRoot = ShmDirectories.userRoot();
        final String configured = context.settings().text(Setting.of(NAME, "dir"), "");
        this.directory = configured.isEmpty() ? userRoot.resolve(sanitise(context.job())) : Path.of(configured);
        // The root and the job directory are checked (the user's own, private, not symbolic links) before anything
        // in them is swept or made.
        ShmDirectories.create(directory);
        StaleFiles.sweep(userRoot);
        if (!configured.isEmpty())
        {
            StaleFiles.sweepDirectory(directory);
        }
        this.doorbell = new Doorbell(createDoorbell(directory.resolve(pid + "-" + startMs + ".bell"), config.sealed));
        final Throwable futexProblem = Futex.unavailable();
        this.canBlock = null == futexProblem;
        if (!canBlock)
        {
            LOGGER.log(Level.WARNING, "am2j shm: no futex (" + futexProblem + "); waitSema() polls in slices");
        }
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int cost()
    {
        return 10;
    }

    @Override
    public boolean isNetwork()
    {
        return false;
    }

    @Override
    public boolean canReach(final EndpointName name)
    {
        return node.equals(name.node()) && null != name.address(NAME);
    }

    @Override
    public TransportQueues attach(final EndpointHost host)
    {
        return new ShmQueues(this, host);
    }

    @Override
    public AtomicBuffer allocateSegment(final EndpointHost host, final int length)
    {
        final ShmQueues endpoint = endpoints.get(host.endpointId());
        return null == endpoint ? null : endpoint.allocateSegment(length);
    }

    @Override
    public boolean canBlock()
    {
        return canBlock;
    }

    @Override
    public long prepareBlock()
    {
        return doorbell.ticket();
    }

    @Override
    public void block(final long ticket, final long nanos)
    {
        // A futex wait through JNA holds the thread's carrier: a virtual thread sleeping here could stop the JVM's
        // other virtual threads. The core never sends one here; this keeps it so.
        if (VirtualThreads.isVirtual(Thread.currentThread()))
        {
            throw new IllegalStateException("a virtual thread may not sleep in the shared-memory doorbell's futex");
        }
        doorbell.await((int)ticket, nanos);
    }

    @Override
    public void wakeup()
    {
        if (canBlock)
        {
            doorbell.ring();
        }
    }

    @Override
    public void blockerWakeAddress(final String address)
    {
        if (address.startsWith("udp:") && !doorbell.publishWakeAddress(address.substring(4)))
        {
            LOGGER.log(Level.WARNING, "am2j shm: wake address " + address + " is too long for the doorbell; " +
                "shared-memory senders cannot wake this process's waitSema() before its time slice ends");
        }
    }

    /**
     * The job's rendezvous lost a rank, or its launcher reaped it: look whether that process is dead (a notice is not
     * proof: the pid must be gone or given to another process). If it is, every endpoint is told to hand back what
     * was sent into its blocks; if it is not yet (a killed process is torn down after its sockets close), the
     * endpoints' watch looks again until it is.
     */
    @Override
    public void processGone(final long processId)
    {
        final PeerProcess peer = peers.find(processId);
        if (null != peer)
        {
            peer.suspect();
            if (peer.check(System.nanoTime()))
            {
                peerDied(peer);
            }
        }
    }

    /**
     * A peer process was found dead (once per process): every endpoint looks for routes into its blocks at its next
     * poll, and a sleeping one is woken for it.
     */
    void peerDied(final PeerProcess peer)
    {
        deadPeerCounters.peersDied.increment();
        LOGGER.log(Level.INFO, () -> "am2j shm: " + peer + " is dead; messages sent to it come back to handler 0: " +
            "EUNREACHABLE what it never took, EOUTCOMEUNKNOWN what it may have run");
        for (final ShmQueues endpoint : endpoints.values())
        {
            endpoint.peerDied();
        }
    }

    /**
     * Every poll of a bundle starts here, once whatever its number of endpoints: the rings the process's sends since
     * the last poll owe go now, one per sleeper.
     */
    @Override
    public void beforePoll()
    {
        rings.flush();
    }

    @Override
    public void close()
    {
        rings.flush();
        doorbell.region().delete();
        mappedFiles.releaseAll();
        ShmDirectories.removeIfEmpty(directory);
    }

    /**
     * The doorbell is the first file of this process in the job directory, and keeps it from being removed as empty
     * while the process lives. Another process that leaves the directory empty may remove it between our creating
     * it and our file: then make it again.
     */
    private static MappedRegion createDoorbell(final Path path, final boolean sealed)
    {
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                // Inside the try: the directory can vanish between its creation and the check of its owner and mode
                // too, when another process that left it empty removes it.
                ShmDirectories.create(path.getParent());
                return MappedRegion.create(path, Doorbell.LENGTH, sealed);
            }
            catch (final AmException ex)
            {
                if (attempt >= 2 || !ShmDirectories.directoryVanished(ex))
                {
                    throw ex;
                }
            }
        }
    }

    void register(final int endpointId, final ShmQueues endpoint)
    {
        endpoints.put(endpointId, endpoint);
    }

    void unregister(final int endpointId)
    {
        endpoints.remove(endpointId);
    }

    Path directory()
    {
        return directory;
    }

    String doorbellPath()
    {
        return doorbell.region().path.toString();
    }

    /**
     * @param path of a peer process's doorbell file.
     * @return the doorbell, or null when futexes are not available here.
     */
    Doorbell peerDoorbell(final String path)
    {
        return canBlock && null != path ? new Doorbell(mappedFiles.acquire(Path.of(path))) : null;
    }

    private static String sanitise(final String job)
    {
        final String safe = job.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() ? "default" : safe;
    }
}
