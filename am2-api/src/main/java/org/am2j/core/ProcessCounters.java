package org.am2j.core;

import java.lang.System.Logger.Level;

import org.agrona.concurrent.status.CountersManager;
import org.am2j.api.AmException;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.EndpointCounters;
import org.am2j.core.stats.SynchronizedCountersManager;

/**
 * The counters of this process's endpoints: in the memory-mapped counters file where {@code bin/am2j stat} reads
 * them, or, when that file cannot be created (no writable directory), in private memory with a warning, so a
 * process without a counters file still runs. The file is deleted at exit.
 */
final class ProcessCounters
{
    private static final System.Logger LOGGER = System.getLogger("org.am2j");

    private final CountersFile file;
    private final CountersManager manager;

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

    EndpointCounters newEndpointCounters(final int endpointId, final String label)
    {
        return new EndpointCounters(manager, endpointId, label);
    }

    void close()
    {
        if (null != file)
        {
            file.close();
        }
    }
}
