package org.am2j.spi;

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
}
