package org.am2j.core;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.status.AtomicCounter;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.core.stats.EndpointCounters;
import org.am2j.idle.CpuShare;
import org.am2j.spi.NodeIdentity;
import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportProvider;

/**
 * The process-wide part of am2j: the identity of this process and node, the open transports (found with
 * {@link ServiceLoader}), the poll scheduler providers, the counters file and the open bundles. Created when first
 * used; a shutdown hook closes what is still open so nothing is left behind.
 */
public final class AmRuntime implements TransportContext
{
    /** The built-in transport every process has; it must be the cheapest. */
    public static final String IN_PROCESS = "inproc";

    private static final System.Logger LOGGER = System.getLogger("org.am2j");
    private static volatile AmRuntime instance;
    /** Processes known to be gone, kept for transports opened after the news. */
    private static final Set<Long> GONE_PROCESSES = ConcurrentHashMap.newKeySet();

    /**
     * The scheduler bundles get unless am2j.poll says otherwise, when its provider (module polling) is on the class
     * path: in the ablation (perf/results/polling-ablation.md) it keeps a multi-protocol shared-memory round trip
     * within 13-17% of shared memory alone where polling the network every time costs 4.8x, and a multi-protocol
     * network round trip equal to the network alone. Without the polling module: {@code every}.
     */
    static final String DEFAULT_SCHEDULER = "follow";

    /**
     * Longest single sleep of {@code waitSema()} before it looks at every queue again: a safety net against a
     * transport that forgot to wake the sleeper. Tests make it long, so that a lost wake-up shows as a long wait.
     */
    static final long DEFAULT_SLEEP_SLICE_MS = 100;

    private static final Settings SETTINGS = Settings.system();
    private static final Setting JOB = new Setting("am2j.job", "AM2J_JOB");
    private static final Setting POLL = new Setting("am2j.poll", "AM2J_POLL");
    private static final Setting POLL_BEFORE_SEND = new Setting("am2j.pollBeforeSend", "AM2J_POLL_BEFORE_SEND");
    private static final Setting SLEEP_SLICE = new Setting("am2j.sleepSliceMs", "AM2J_SLEEP_SLICE_MS");
    private static final Setting TRANSPORTS = new Setting("am2j.transports", "AM2J_TRANSPORTS");

    private final String node;
    private final String job;
    private final long pid;
    private final long processId;
    private final List<Transport> transports;
    private final boolean hasNetwork;
    private final Map<String, PollSchedulerProvider> schedulers;
    private final String pollSetting;
    private final boolean pollBeforeSend;
    private final long sleepSliceNanos;
    private final ProcessCounters counters;
    private final AtomicInteger nextEndpointId = new AtomicInteger();
    private final Set<BundleCore> bundles = new HashSet<>();
    private final BlockerSeat blockerSeat;
    private boolean shutDown;

    private AmRuntime()
    {
        JvmFlags.check();
        this.node = NodeIdentity.local();
        this.job = SETTINGS.text(JOB, "default");
        this.pid = ProcessHandle.current().pid();
        this.processId = ProcessIdentity.currentProcessId();
        this.schedulers = loadSchedulers();
        this.pollSetting = SETTINGS.text(POLL,
            schedulers.containsKey(DEFAULT_SCHEDULER) ? DEFAULT_SCHEDULER : EveryPollScheduler.NAME);
        this.pollBeforeSend = SETTINGS.flag(POLL_BEFORE_SEND, false);
        this.sleepSliceNanos = TimeUnit.MILLISECONDS.toNanos(
            SETTINGS.longValue(SLEEP_SLICE, DEFAULT_SLEEP_SLICE_MS, 1, 600_000));
        // A wrong am2j.idle fails here with its name, before a waiter first asks CpuShare.process().
        CpuShare.modeSetting();
        newScheduler();
        this.counters = ProcessCounters.open();
        final List<Transport> opened = new ArrayList<>();
        try
        {
            this.transports = openTransports(this, opened);
            warnWithoutDefaultScheduler();
            boolean network = false;
            Transport canBlock = null;
            for (final Transport transport : transports)
            {
                network |= transport.isNetwork();
                if (transport.canBlock() && (null == canBlock || transport.isNetwork()))
                {
                    canBlock = transport;
                }
            }
            this.hasNetwork = network;
            this.blockerSeat = new BlockerSeat(canBlock, transports, sleepSliceNanos);
            final String wakeAddress = null != canBlock ? canBlock.wakeAddress() : null;
            if (null != wakeAddress)
            {
                // Senders of the other transports must be able to wake a thread asleep in the blocker.
                for (final Transport transport : transports)
                {
                    if (transport != canBlock)
                    {
                        transport.blockerWakeAddress(wakeAddress);
                    }
                }
            }
            Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "am2j-shutdown"));
        }
        catch (final RuntimeException | Error ex)
        {
            // A transport that cannot open (a UDP port in use, a full /dev/shm) fails the runtime, which then has no
            // shutdown hook: what was opened is closed here, or its files (the shm doorbell, the counters file)
            // would outlive a normal exit, and a second attempt in this process would find them in use.
            for (final Transport transport : opened)
            {
                try
                {
                    transport.close();
                }
                catch (final RuntimeException | Error closeEx)
                {
                    ex.addSuppressed(closeEx);
                }
            }
            try
            {
                counters.close();
            }
            catch (final RuntimeException | Error closeEx)
            {
                ex.addSuppressed(closeEx);
            }
            throw ex;
        }
    }

    /**
     * @return the process's runtime, created on first use.
     */
    public static AmRuntime instance()
    {
        AmRuntime runtime = instance;
        if (null == runtime)
        {
            synchronized (AmRuntime.class)
            {
                runtime = instance;
                if (null == runtime)
                {
                    runtime = new AmRuntime();
                    instance = runtime;
                    // News that came before the runtime (a processGone racing with this is told twice: harmless).
                    for (final Long gone : GONE_PROCESSES)
                    {
                        runtime.tellGone(gone);
                    }
                }
            }
        }
        return runtime;
    }

    /**
     * A process this one may talk to is gone (the job's rendezvous lost its rank, or its launcher reaped it): every
     * transport is told ({@link Transport#processGone(long)}), now and, when the runtime is created later, then.
     * Messages sent to it that may have run there come back to handler 0 with
     * {@link org.am2j.api.ReturnStatus#EOUTCOMEUNKNOWN}. Any thread; does not create the runtime.
     *
     * @param processId the gone process's {@link org.am2j.api.EndpointName#processId()}.
     */
    public static void processGone(final long processId)
    {
        if (!GONE_PROCESSES.add(processId))
        {
            return;
        }
        final AmRuntime runtime = instance;
        if (null != runtime)
        {
            runtime.tellGone(processId);
        }
    }

    private void tellGone(final long processId)
    {
        for (final Transport transport : transports)
        {
            transport.processGone(processId);
        }
    }

    /**
     * @param kind of the bundle.
     * @return a new bundle with this process's transports and a new poll scheduler.
     */
    public Bundle allocateBundle(final BundleKind kind)
    {
        final BundleCore bundle = new BundleCore(this, kind, newScheduler());
        synchronized (bundles)
        {
            if (shutDown)
            {
                throw new AmException(AmError.NOT_INIT, "am2j is shutting down");
            }
            bundles.add(bundle);
        }
        blockerSeat.add(bundle);
        return bundle;
    }

    /**
     * @return names of the open transports, cheapest first.
     */
    public List<String> transportNames()
    {
        final List<String> names = new ArrayList<>(transports.size());
        for (final Transport transport : transports)
        {
            names.add(transport.name());
        }
        return names;
    }

    /**
     * @return the longest single sleep of {@code waitSema()} ({@code am2j.sleepSliceMs}).
     */
    long sleepSliceNanos()
    {
        return sleepSliceNanos;
    }

    /**
     * @return the poll scheduler setting new bundles get.
     */
    public String pollSchedulerDescription()
    {
        return newScheduler().describe();
    }

    @Override
    public String node()
    {
        return node;
    }

    @Override
    public long processId()
    {
        return processId;
    }

    @Override
    public long pid()
    {
        return pid;
    }

    @Override
    public String job()
    {
        return job;
    }

    @Override
    public AtomicCounter counter(final String transport, final String name)
    {
        return counters.newTransportCounter(transport, name);
    }

    List<Transport> transports()
    {
        return transports;
    }

    /**
     * @return the local transports (every poll polls them), cheapest first: a new array for the caller to keep.
     */
    Transport[] localTransports()
    {
        return transports.stream().filter(transport -> !transport.isNetwork()).toArray(Transport[]::new);
    }

    boolean hasNetwork()
    {
        return hasNetwork;
    }

    /**
     * @return true when a request first polls its bundle, as the paper's implementation does ({@code
     * am2j.pollBeforeSend} / {@code AM2J_POLL_BEFORE_SEND}, default false: see docs/polling.md).
     */
    boolean pollBeforeSend()
    {
        return pollBeforeSend;
    }

    EndpointCore newEndpoint(final BundleCore bundle)
    {
        return new EndpointCore(this, bundle, nextEndpointId.getAndIncrement());
    }

    EndpointCounters newEndpointCounters(final int endpointId)
    {
        return counters.newEndpointCounters(endpointId, "", job);
    }

    void bundleClosed(final BundleCore bundle)
    {
        synchronized (bundles)
        {
            bundles.remove(bundle);
        }
        blockerSeat.remove(bundle);
    }

    /**
     * @return who of the process's sleepers sleeps in the blocker.
     */
    BlockerSeat blockerSeat()
    {
        return blockerSeat;
    }

    void log(final String what, final Throwable error)
    {
        LOGGER.log(Level.WARNING, what, error);
    }

    /**
     * Without the polling module a bundle polls every transport at every poll ({@code every}), which costs a
     * shared-memory round trip several times over when the network is open too: say so, and what to add, unless the
     * user chose a scheduler.
     */
    private void warnWithoutDefaultScheduler()
    {
        if (transports.size() > 2 && !schedulers.containsKey(DEFAULT_SCHEDULER) &&
            !SETTINGS.isSet(POLL))
        {
            LOGGER.log(Level.WARNING, "am2j: poll scheduler '" + DEFAULT_SCHEDULER + "' (the default) is not on " +
                "the class path, so every poll polls every transport of " + transportNames() + " ('" +
                EveryPollScheduler.NAME + "')" + ModuleArtifacts.missingSchedulerHint(DEFAULT_SCHEDULER) +
                "; or set am2j.poll / AM2J_POLL=" + EveryPollScheduler.NAME + " to choose it");
        }
    }

    private PollScheduler newScheduler()
    {
        final int colon = pollSetting.indexOf(':');
        final String name = colon < 0 ? pollSetting : pollSetting.substring(0, colon);
        final String argument = colon < 0 ? null : pollSetting.substring(colon + 1);
        final PollSchedulerProvider provider = schedulers.get(name);
        if (null == provider)
        {
            throw SETTINGS.rejected(POLL, unknownScheduler(name, schedulers.values()));
        }
        try
        {
            return provider.create(argument);
        }
        catch (final AmException ex)
        {
            throw SETTINGS.rejected(POLL, ex.detail());
        }
    }

    /**
     * Check a poll scheduler setting, {@code name} or {@code name:argument}, against the providers a class loader
     * finds, as the runtime would when it starts.
     *
     * @param setting the setting.
     * @param loader  to find the providers with.
     * @throws AmException {@link AmError#BAD_ARG} with a one-line message that lists the valid values.
     */
    public static void checkPollSetting(final String setting, final ClassLoader loader)
    {
        final Map<String, PollSchedulerProvider> providers = new LinkedHashMap<>();
        for (final PollSchedulerProvider provider : ServiceLoader.load(PollSchedulerProvider.class, loader))
        {
            providers.putIfAbsent(provider.name(), provider);
        }
        final int colon = setting.indexOf(':');
        final String name = colon < 0 ? setting : setting.substring(0, colon);
        final PollSchedulerProvider provider = providers.get(name);
        if (null == provider)
        {
            throw new AmException(AmError.BAD_ARG, unknownScheduler(name, providers.values()));
        }
        provider.create(colon < 0 ? null : setting.substring(colon + 1));
    }

    private static String unknownScheduler(final String name, final Iterable<PollSchedulerProvider> providers)
    {
        final List<String> valid = new ArrayList<>();
        for (final PollSchedulerProvider provider : providers)
        {
            valid.add(provider.usage());
        }
        final String artifact = ModuleArtifacts.missingSchedulerHint(name);
        return "'" + name + "' is not a poll scheduler; valid: " + String.join(", ", valid) + (!artifact.isEmpty() ?
            artifact : valid.size() < 2 ? " (the other schedulers come with am2j's polling module, which is not on " +
            "the class path)" : "");
    }

    private void shutdown()
    {
        final List<BundleCore> open;
        synchronized (bundles)
        {
            shutDown = true;
            open = new ArrayList<>(bundles);
        }
        for (final BundleCore bundle : open)
        {
            try
            {
                bundle.closeAtExit();
            }
            catch (final RuntimeException ex)
            {
                log("closing " + bundle + " at exit", ex);
            }
        }
        blockerSeat.stopWatcher();
        for (final Transport transport : transports)
        {
            try
            {
                transport.close();
            }
            catch (final RuntimeException ex)
            {
                log("closing transport " + transport.name() + " at exit", ex);
            }
        }
        counters.close();
    }

    /**
     * @param runtime the transports' context.
     * @param open    receives each transport as it is opened, for the caller to close when this throws.
     * @return the transports, cheapest first.
     */
    private static List<Transport> openTransports(final AmRuntime runtime, final List<Transport> open)
    {
        final String wanted = SETTINGS.text(TRANSPORTS, "");
        final Set<String> only = new HashSet<>();
        for (final String name : wanted.split(","))
        {
            if (!name.isBlank())
            {
                only.add(name.trim());
            }
        }
        final Set<String> seen = new HashSet<>();
        for (final TransportProvider provider : ServiceLoader.load(TransportProvider.class))
        {
            final String name = provider.name();
            if (!seen.add(name))
            {
                throw new AmException(AmError.RESOURCE, "two transport providers are named '" + name + "'");
            }
            if (only.isEmpty() || only.contains(name) || IN_PROCESS.equals(name))
            {
                open.add(provider.open(runtime));
            }
        }
        for (final String name : only)
        {
            if (!seen.contains(name))
            {
                final String artifact = ModuleArtifacts.ofTransport(name);
                throw new AmException(AmError.BAD_ARG, "transport '" + name + "' (am2j.transports) is not on the " +
                    "class path; present: " + seen + (null == artifact ? "" : "; it comes with " + artifact +
                    ": add it, or " + ModuleArtifacts.ALL + " for the whole library"));
            }
        }
        open.sort(Comparator.comparingInt(Transport::cost));
        if (open.isEmpty() || !IN_PROCESS.equals(open.get(0).name()))
        {
            throw new AmException(AmError.RESOURCE, "the in-process transport must be present and cheapest, found " +
                open);
        }
        return List.copyOf(open);
    }

    private static Map<String, PollSchedulerProvider> loadSchedulers()
    {
        final Map<String, PollSchedulerProvider> providers = new LinkedHashMap<>();
        for (final PollSchedulerProvider provider : ServiceLoader.load(PollSchedulerProvider.class))
        {
            providers.putIfAbsent(provider.name(), provider);
        }
        return providers;
    }
}
