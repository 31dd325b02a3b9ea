package org.am2j.spmd;

import java.util.function.Consumer;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;

/**
 * Settings of the bootstrap rendezvous, shared by {@link RendezvousServer} and {@link RendezvousClient}.
 * <p>
 * A new configuration takes each timeout (milliseconds, 1 to {@value #MAX_TIMEOUT_MS}) from its system property when
 * that is set, else from its environment variable when that is set, else from the default; the setters override them:
 * <table>
 * <caption>Timeouts of the rendezvous</caption>
 * <tr><th>system property</th><th>environment variable</th><th>default</th><th>what</th></tr>
 * <tr><td>{@value #JOIN_TIMEOUT_PROP}</td><td>{@value #JOIN_TIMEOUT_VARIABLE}</td><td>60 s</td><td>how long the server
 * waits for every rank to join; meanwhile it says every few seconds which ranks it is waiting for, then fails the
 * job naming them</td></tr>
 * <tr><td>{@value #CONNECT_TIMEOUT_PROP}</td><td>{@value #CONNECT_TIMEOUT_VARIABLE}</td><td>60 s</td><td>how long a
 * rank keeps trying to reach the server</td></tr>
 * <tr><td>{@value #COLLECTIVE_TIMEOUT_PROP}</td><td>{@value #COLLECTIVE_TIMEOUT_VARIABLE}</td><td>300 s</td><td>how
 * long a barrier or all-gather waits for the slowest rank</td></tr>
 * <tr><td>{@value #LINGER_TIMEOUT_PROP}</td><td>{@value #LINGER_TIMEOUT_VARIABLE}</td><td>10 s</td><td>how long rank 0,
 * when it hosts the server, waits at close for the others to leave</td></tr>
 * </table>
 * The launcher's ranks inherit its environment, so a variable set for {@code bin/am2j run} reaches the server and the
 * ranks alike. Not thread-safe: configure, then hand it over.
 */
public final class RendezvousConfig
{
    /** System property: how long a rank keeps trying to connect to the rendezvous, in milliseconds. */
    public static final String CONNECT_TIMEOUT_PROP = "am2j.spmd.connect.timeout.ms";
    /** System property: how long a collective may wait for the slowest rank, in milliseconds. */
    public static final String COLLECTIVE_TIMEOUT_PROP = "am2j.spmd.collective.timeout.ms";
    /** System property: how long rank 0 hosting the server waits at close for the other ranks to leave, in ms. */
    public static final String LINGER_TIMEOUT_PROP = "am2j.spmd.linger.timeout.ms";
    /** System property: how long the server waits for every rank to join, in milliseconds. */
    public static final String JOIN_TIMEOUT_PROP = "am2j.spmd.join.timeout.ms";
    /** Environment variable of {@value #CONNECT_TIMEOUT_PROP}. */
    public static final String CONNECT_TIMEOUT_VARIABLE = "AM2J_CONNECT_TIMEOUT_MS";
    /** Environment variable of {@value #COLLECTIVE_TIMEOUT_PROP}. */
    public static final String COLLECTIVE_TIMEOUT_VARIABLE = "AM2J_COLLECTIVE_TIMEOUT_MS";
    /** Environment variable of {@value #LINGER_TIMEOUT_PROP}. */
    public static final String LINGER_TIMEOUT_VARIABLE = "AM2J_LINGER_TIMEOUT_MS";
    /** Environment variable of {@value #JOIN_TIMEOUT_PROP}. */
    public static final String JOIN_TIMEOUT_VARIABLE = "AM2J_JOIN_TIMEOUT_MS";

    /** Default connect timeout: 60 s. */
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
    /** Default collective timeout: 300 s. */
    public static final long DEFAULT_COLLECTIVE_TIMEOUT_MS = 300_000;
    /** Default linger timeout: 10 s. */
    public static final long DEFAULT_LINGER_TIMEOUT_MS = 10_000;
    /** Default join timeout: 60 s. */
    public static final long DEFAULT_JOIN_TIMEOUT_MS = 60_000;

    /** Longest timeout accepted: a day. */
    public static final long MAX_TIMEOUT_MS = 86_400_000;

    private long connectTimeoutMs;
    private long collectiveTimeoutMs;
    private long lingerTimeoutMs;
    private long joinTimeoutMs;
    private Consumer<String> log = RendezvousConfig::logToStandardError;

    /**
     * A configuration with the timeouts of the system properties, else of the environment variables, else the
     * defaults.
     *
     * @throws AmException {@link AmError#BAD_ARG} naming the property and the variable when one is set but is not a
     *                     number of milliseconds in [1, {@value #MAX_TIMEOUT_MS}].
     */
    public RendezvousConfig()
    {
        this(Settings.system());
    }

    /**
     * @param settings where the timeouts are read.
     * @throws AmException as {@link #RendezvousConfig()}.
     */
    RendezvousConfig(final Settings settings)
    {
        connectTimeoutMs = timeout(settings, CONNECT_TIMEOUT_PROP, CONNECT_TIMEOUT_VARIABLE, DEFAULT_CONNECT_TIMEOUT_MS);
        collectiveTimeoutMs = timeout(
            settings, COLLECTIVE_TIMEOUT_PROP, COLLECTIVE_TIMEOUT_VARIABLE, DEFAULT_COLLECTIVE_TIMEOUT_MS);
        lingerTimeoutMs = timeout(settings, LINGER_TIMEOUT_PROP, LINGER_TIMEOUT_VARIABLE, DEFAULT_LINGER_TIMEOUT_MS);
        joinTimeoutMs = timeout(settings, JOIN_TIMEOUT_PROP, JOIN_TIMEOUT_VARIABLE, DEFAULT_JOIN_TIMEOUT_MS);
    }

    /**
     * @return how long the server waits for every rank to join before it fails the job naming the missing ones.
     */
    public long joinTimeoutMs()
    {
        return joinTimeoutMs;
    }

    /**
     * @param timeoutMs how long the server waits for every rank to join, 1 to {@value #MAX_TIMEOUT_MS} ms.
     * @return this.
     */
    public RendezvousConfig joinTimeoutMs(final long timeoutMs)
    {
        AmException.checkRange("joinTimeoutMs", timeoutMs, 1, MAX_TIMEOUT_MS + 1);
        joinTimeoutMs = timeoutMs;
        return this;
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
     * @return how long a collective may wait for the slowest rank.
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

    private static long timeout(
        final Settings settings, final String property, final String variable, final long defaultValue)
    {
        return settings.longValue(new Setting(property, variable), defaultValue, 1, MAX_TIMEOUT_MS);
    }

    private static void logToStandardError(final String message)
    {
        System.err.println("am2j rendezvous: " + message);
    }
}
