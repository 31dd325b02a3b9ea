package org.am2j.spi;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;

/**
 * What a transport learns of the process that opens it.
 */
public interface TransportContext
{
    /**
     * @return identity of this node (shared-memory domain): endpoints with the same node string share memory.
     */
    String node();

    /**
     * @return identity of this process, unique across restarts (pid and start time are folded in).
     */
    long processId();

    /**
     * @return the operating-system pid of this process.
     */
    long pid();

    /**
     * @return identity of the SPMD job this process belongs to (a fixed name outside a job).
     */
    String job();

    /**
     * Where the transport reads its settings: a transport's own are {@link Setting#of(String, String)}, the system
     * property {@code am2j.<transport>.<key>}, then the environment variable {@code AM2J_<TRANSPORT>_<KEY>}, then the
     * default.
     *
     * @return the settings; by default this process's ({@link Settings#system()}).
     */
    default Settings settings()
    {
        return Settings.system();
    }

    /**
     * A counter of the transport's process-wide part (a network NIC, say), in the process's counters file where
     * {@code bin/am2j stat} shows it live, labelled {@code "<transport> <name>"}. It stays there until the process
     * exits, as the transport's process-wide part does: a transport does not free it (a freed slot may be given to
     * another counter, and a late increment would land there). Not a hot-path call.
     * <p>
     * The default keeps the counter in private memory, as a context without a counters file (a test's) would.
     *
     * @param transport the transport's name.
     * @param name      what the counter counts, e.g. {@code "nic datagrams_sent"}.
     * @return a counter at 0.
     */
    default AtomicCounter counter(final String transport, final String name)
    {
        return privateCounter();
    }

    /**
     * @return a counter at 0 in private memory, in no counters file (closing it frees nothing).
     */
    static AtomicCounter privateCounter()
    {
        return new AtomicCounter(new UnsafeBuffer(new byte[CountersReader.COUNTER_LENGTH]), 0);
    }
}
