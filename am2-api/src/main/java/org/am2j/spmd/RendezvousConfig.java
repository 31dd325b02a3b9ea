package org.am2j.spmd;

import java.util.function.Consumer;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Settings of the bootstrap rendezvous, shared by {@link RendezvousServer} and {@link RendezvousClient}.
 * <p>
 * A new configuration takes its timeouts from the system properties {@value #CONNECT_TIMEOUT_PROP},
 * {@value #COLLECTIVE_TIMEOUT_PROP} and {@value #LINGER_TIMEOUT_PROP} (milliseconds) when they are set, else from the
 * defaults; the setters override them. Not thread-safe: configure, then hand it over.
 */
public final class RendezvousConfig
{
    /** System property: how long a rank keeps trying to connect to the rendezvous, in milliseconds. */
    public static final String CONNECT_TIMEOUT_PROP = "am2j.spmd.connect.timeout.ms";
    /** System property: how long a collective may wait for the slowest rank, in milliseconds. */
    public static final String COLLECTIVE_TIMEOUT_PROP = "am2j.spmd.collective.timeout.ms";
    /** System property: how long rank 0 hosting the server waits at close for the other ranks to leave, in ms. */
    public static final String LINGER_TIMEOUT_PROP = "am2j.spmd.linger.timeout.ms";

    /** Default connect timeout: 60 s. */
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
    /** Default collective timeout: 300 s. */
    public static final long DEFAULT_COLLECTIVE_TIMEOUT_MS = 300_000;
    /** Default linger timeout: 10 s. */
    public static final long DEFAULT_LINGER_TIMEOUT_MS = 10_000;

    /** Longest timeout accepted: a day. */
    public static final long MAX_TIMEOUT_MS = 86_400_000;

    private long connectTimeoutMs;
    private long collectiveTimeoutMs;
    private long lingerTimeoutMs;
    private Consumer<String> log = RendezvousConfig::logToStandardError;

    /**
     * A configuration with the timeouts of the system properties, else the defaults.
     *
     * @throws AmException {@link AmError#BAD_ARG} when a property is set but is not a number of milliseconds in
     *                     [1, {@value #MAX_TIMEOUT_MS}].
     */
    public RendezvousConfig()
    {
        connectTimeoutMs = property(CONNECT_TIMEOUT_PROP, DEFAULT_CONNECT_TIMEOUT_MS);
        collectiveTimeoutMs = property(COLLECTIVE_TIMEOUT_PROP, DEFAULT_COLLECTIVE_TIMEOUT_MS);
        lingerTimeoutMs = property(LINGER_TIMEOUT_PROP, DEFAULT_LINGER_TIMEOUT_MS);
    }

    /**
     * @return how long a client keeps trying to connect, with back-off, before it gives up.
     */
    public long connectTimeoutMs()
    {
        return connectTimeoutMs;
    }

    /**
     * @param timeoutMs how long a client keeps trying to connect, 1 to {@value #MAX_TIMEOUT_MS} ms.
     * @return this.
     */
    public RendezvousConfig connectTimeoutMs(final long timeoutMs)
    {
        AmException.checkRange("connectTimeoutMs", timeoutMs, 1, MAX_TIMEOUT_MS + 1);
        connectTimeoutMs = timeoutMs;
        return this;
    }

    /**
     * @return how long a collective (and the initial joining of all ranks) may wait for the slowest rank.
     */
    public long collectiveTimeoutMs()
    {
        return collectiveTimeoutMs;
    }

    /**
     * @param timeoutMs how long a collective may wait for the slowest rank, 1 to {@value #MAX_TIMEOUT_MS} ms.
     * @return this.
     */
    public RendezvousConfig collectiveTimeoutMs(final long timeoutMs)
    {
        AmException.checkRange("collectiveTimeoutMs", timeoutMs, 1, MAX_TIMEOUT_MS + 1);
        collectiveTimeoutMs = timeoutMs;
        return this;
    }

    /**
     * @return how long rank 0, when it hosts the server, waits in {@link Job#close()} for the other ranks to leave.
     */
    public long lingerTimeoutMs()
    {
        return lingerTimeoutMs;
    }

    /**
     * @param timeoutMs how long a hosting rank 0 waits at close for the others to leave, 1 to
     *                  {@value #MAX_TIMEOUT_MS} ms.
     * @return this.
     */
    public RendezvousConfig lingerTimeoutMs(final long timeoutMs)
    {
        AmException.checkRange("lingerTimeoutMs", timeoutMs, 1, MAX_TIMEOUT_MS + 1);
        lingerTimeoutMs = timeoutMs;
        return this;
    }

    /**
     * @return where the server reports the connections it closes and the failures of the job.
     */
    public Consumer<String> log()
    {
        return log;
    }

    /**
     * @param log where the server reports the connections it closes and the failures of the job (called from the
     *            server's thread).
     * @return this.
     */
    public RendezvousConfig log(final Consumer<String> log)
    {
        this.log = AmException.checkNotNull("log", log);
        return this;
    }

    private static long property(final String name, final long defaultValue)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            final long ms = Long.parseLong(value.trim());
            if (ms >= 1 && ms <= MAX_TIMEOUT_MS)
            {
                return ms;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // reported below
        }
        throw new AmException(AmError.BAD_ARG, "system property " + name + " = '" + value +
            "' is not a number of milliseconds in [1, " + MAX_TIMEOUT_MS + "]");
    }

    private static void logToStandardError(final String message)
    {
        System.err.println("am2j rendezvous: " + message);
    }
}
