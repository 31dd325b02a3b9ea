package org.am2j.api;

import java.util.List;

import org.am2j.core.AmRuntime;

/**
 * The entry point of am2j and the limits of the AM-II interface.
 * <p>
 * The process's transports are found with {@link java.util.ServiceLoader} when the first bundle is allocated: the
 * in-process transport is always there, {@code shm} and {@code net} when their modules are on the class path. The
 * transports used can be narrowed with the {@code am2j.transports} system property (comma separated names), the poll
 * scheduler chosen with {@code am2j.poll} (see {@link org.am2j.spi.PollSchedulerProvider}).
 *
 * <pre>{@code
 * try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
 * {
 *     Endpoint ep = bundle.allocateEndpoint();
 *     ep.tag(Tags.fresh());
 *     ep.handler(1, (token, msg) -> token.reply(2, msg.arg(0) + 1));
 *     ...
 * }
 * }</pre>
 */
public final class Am
{
    /** Success: the value every non-throwing call returns when it did its job. */
    public static final int OK = 0;

    /** Most 32-bit arguments a message carries (AM_MaxShort). */
    public static final int MAX_SHORT = 8;

    /** Most data bytes of a medium message (AM_MaxMedium). */
    public static final int MAX_MEDIUM = 8192;

    /** Most data bytes of a long message (AM_MaxLong). */
    public static final int MAX_LONG = 8192;

    /** Entries in a handler table; entry 0 receives returned messages. */
    public static final int NUM_HANDLERS = 256;

    /** Largest translation table (AM_MaxNumTranslations). */
    public static final int MAX_TRANSLATIONS = 65536;

    /** Size of a new endpoint's translation table. */
    public static final int DEFAULT_TRANSLATIONS = 256;

    /** Largest segment (AM_MaxSeg): segments are addressed by int offsets of an {@code AtomicBuffer}. */
    public static final int MAX_SEGMENT_LENGTH = Integer.MAX_VALUE - 8;

    private Am()
    {
    }

    /**
     * Allocate a bundle (AM_AllocateBundle).
     *
     * @param kind SEQ (one thread at a time) or PAR (any threads).
     * @return a new, empty bundle.
     */
    public static Bundle allocateBundle(final BundleKind kind)
    {
        AmException.checkNotNull("kind", kind);
        return AmRuntime.instance().allocateBundle(kind);
    }

    /**
     * @return the names of the transports this process uses, cheapest first.
     */
    public static List<String> transports()
    {
        return AmRuntime.instance().transportNames();
    }

    /**
     * @return the poll scheduler new bundles get, as name and settings.
     */
    public static String pollScheduler()
    {
        return AmRuntime.instance().pollSchedulerDescription();
    }

    /**
     * @return the node this process is on, as endpoint names record it.
     */
    public static String node()
    {
        return AmRuntime.instance().node();
    }
}
