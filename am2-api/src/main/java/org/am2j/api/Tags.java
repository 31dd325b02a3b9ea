package org.am2j.api;

import java.security.SecureRandom;

/**
 * Endpoint tags: the 64-bit access keys of AM-II. A sender must know a destination's tag; a message whose tag does
 * not match comes back with {@link ReturnStatus#EBADTAG}.
 */
public final class Tags
{
    /** The tag that refuses every message (AM_NONE). New endpoints start with it. */
    public static final long NONE = 0L;

    /** The tag that accepts a message whatever tag it carries (AM_ALL). */
    public static final long ALL = -1L;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Tags()
    {
    }

    /**
     * @return a fresh tag from {@link SecureRandom}, never {@link #NONE} nor {@link #ALL}.
     */
    public static long fresh()
    {
        long tag;
        do
        {
            tag = RANDOM.nextLong();
        }
        while (tag == NONE || tag == ALL);
        return tag;
    }

    /**
     * @param endpointTag the receiving endpoint's tag.
     * @param messageTag  the tag the message carries.
     * @return true when the endpoint accepts the message.
     */
    public static boolean accepts(final long endpointTag, final long messageTag)
    {
        return endpointTag == ALL || (endpointTag != NONE && endpointTag == messageTag);
    }

    /**
     * @param tag a tag.
     * @return the tag in hex, or NONE/ALL.
     */
    public static String toString(final long tag)
    {
        return tag == NONE ? "NONE" : tag == ALL ? "ALL" : "0x" + Long.toHexString(tag);
    }
}
