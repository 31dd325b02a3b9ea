package org.am2j.core;

import java.lang.System.Logger.Level;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.am2j.api.AmException;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.EndpointCounterDescriptor;
import org.am2j.core.stats.EndpointCounters;
import org.am2j.core.stats.SynchronizedCountersManager;
import org.am2j.spi.RankScope;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.TransportContext;

/**
 * The counters of this process's endpoints: in the memory-mapped counters file where {@code bin/am2j stat} reads
 * them, or, when that file cannot be created (no writable directory), in private memory with a warning, so a
 * process without a counters file still runs. The file is deleted at exit.
 * <p>
 * Each endpoint's identity counter records the job and the rank the endpoint belongs to, the rank from the system
 * property {@value #RANK_PROPERTY} as it is when the endpoint is allocated ({@code Spmd.init()} sets it); without it,
 * or with a value that is no rank (then with a warning), the endpoint belongs to no rank. An endpoint allocated on a
 * thread that works for a rank of a JVM holding several ({@link RankScope}) records that rank.
 */
final class ProcessCounters
{
    /** System property holding this process's rank in its job. */
    static final String RANK_PROPERTY = "am2j.rank";

    private static final System.Logger LOGGER = System.getLogger("org.am2j");

    private final CountersFile file;
    private final CountersManager manager;
    private boolean warnedFull;
    private boolean warnedRank;

    private ProcessCounters(final CountersFile file, final CountersManager manager)
    {
        this.file = file;
        this.manager = manager;
    }

    static ProcessCounters open()
    {
        try
        {
            final CountersFile file = CountersFile.create(CountersFile.defaultDirectory(),
                CountersFile.DEFAULT_MAX_COUNTERS);
            return new ProcessCounters(file, file.countersManager());
        }
        catch (final AmException ex)
        {
            LOGGER.log(Level.WARNING, "am2j: no counters file (" + ex.getMessage() + "); counters are kept in " +
                "private memory and bin/am2j stat cannot show this process");
            return new ProcessCounters(null, SynchronizedCountersManager.inMemory(CountersFile.DEFAULT_MAX_COUNTERS));
        }
    }

    EndpointCounters newEndpointCounters(final int endpointId, final String label, final String job)
    {
        return new EndpointCounters(manager, endpointId, label, rank(), job);
    }

    /**
     * @return this process's rank as {@value #RANK_PROPERTY} says, or {@link EndpointCounterDescriptor#NO_RANK}.
     */
    synchronized int rank()
    {
        final RankScope scope = RankScope.current();
        if (null != scope)
        {
            return scope.rank();
        }
        try
        {
            return Settings.system().intValue(
                Setting.property(RANK_PROPERTY), EndpointCounterDescriptor.NO_RANK, 0, Integer.MAX_VALUE);
        }
        catch (final AmException ex)
        {
            if (!warnedRank)
            {
                warnedRank = true;
                LOGGER.log(Level.WARNING, "am2j: " + ex.detail() + " (a rank); bin/am2j stat shows this process's " +
                    "endpoints without one");
            }
            return EndpointCounterDescriptor.NO_RANK;
        }
    }

    /**
     * A counter of a transport's process-wide part ({@link org.am2j.spi.TransportContext#counter}); in private memory,
     * with a warning, when the file has no room left.
     */
    synchronized AtomicCounter newTransportCounter(final String transport, final String name)
    {
        try
        {
            return manager.newCounter(transport + " " + name, EndpointCounterDescriptor.PROCESS_TRANSPORT_TYPE_ID,
                (key) -> EndpointCounterDescriptor.writeKey(key, 0, 0, transport));
        }
        catch (final RuntimeException ex)
        {
            if (!warnedFull)
            {
                warnedFull = true;
                LOGGER.log(Level.WARNING, "am2j: counter '" + transport + " " + name + "' and any later ones kept in " +
                    "private memory (" + ex.getMessage() + "); bin/am2j stat does not show them");
            }
            return TransportContext.privateCounter();
        }
    }

    void close()
    {
        if (null != file)
        {
            file.close();
        }
    }
}
