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
     * Configuration of the transport: the system property {@code am2j.<transport>.<key>}, then the environment
     * variable {@code AM2J_<TRANSPORT>_<KEY>} (upper case, dots as underscores), then the default.
     *
     * @param transport    name of the transport.
     * @param key          of the setting.
     * @param defaultValue when it is not set.
     * @return the setting.
     */
    String property(String transport, String key, String defaultValue);

    /**
     * The name of a setting as the user gave it, for error messages: the system property's name when that is set,
     * else the environment variable's when that is set, else both.
     *
     * @param transport name of the transport.
     * @param key       of the setting.
     * @return e.g. {@code AM2J_NET_HOST} when the environment variable gave the value.
     */
    default String settingName(final String transport, final String key)
    {
        return propertyName(transport, key);
    }

    /**
     * @param transport name of the transport.
     * @param key       of a setting.
     * @return the system property of the setting, {@code am2j.<transport>.<key>}.
     */
    static String propertyName(final String transport, final String key)
    {
        return "am2j." + transport + "." + key;
    }

    /**
     * @param transport name of the transport.
     * @param key       of a setting.
     * @return the environment variable of the setting, {@code AM2J_<TRANSPORT>_<KEY>} (upper case, dots as
     * underscores).
     */
    static String environmentName(final String transport, final String key)
    {
        return ("AM2J_" + transport + "_" + key).toUpperCase(java.util.Locale.ROOT).replace('.', '_');
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
