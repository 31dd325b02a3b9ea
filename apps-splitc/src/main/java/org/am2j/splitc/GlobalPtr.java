package org.am2j.splitc;

/**
 * Global pointers of the Split-C layer, packed into a {@code long} so that they cost nothing to make, pass and
 * store: the rank that owns the memory in the high 32 bits, the byte offset in that rank's global segment in the low
 * 32 bits.
 * <pre>
 *   63                              32 31                               0
 *  +----------------------------------+----------------------------------+
 *  |              rank                |      offset in rank's segment    |
 *  +----------------------------------+----------------------------------+
 * </pre>
 * Both halves are non-negative: segments are addressed by {@code int} offsets (AM-II segments here are at most
 * {@link org.am2j.api.Am#MAX_SEGMENT_LENGTH} bytes). Ordering global pointers as longs orders them by rank, then by
 * offset.
 */
public final class GlobalPtr
{
    private GlobalPtr()
    {
    }

    /**
     * @param rank   owner of the memory, 0 or more.
     * @param offset byte offset in the owner's segment, 0 or more.
     * @return the global pointer.
     * @throws IllegalArgumentException when rank or offset is negative.
     */
    public static long of(final int rank, final int offset)
    {
        if (rank < 0 || offset < 0)
        {
            throw new IllegalArgumentException("global pointer (rank " + rank + ", offset " + offset +
                "): both must be 0 or more");
        }
        return ((long)rank << 32) | offset;
    }

    /**
     * @param gp a global pointer.
     * @return the rank that owns the memory.
     */
    public static int rank(final long gp)
    {
        return (int)(gp >>> 32);
    }

    /**
     * @param gp a global pointer.
     * @return the byte offset in the owner's segment.
     */
    public static int offset(final long gp)
    {
        return (int)gp;
    }

    /**
     * @param gp a global pointer.
     * @return {@code <rank:offset>}.
     */
    public static String toString(final long gp)
    {
        return "<" + rank(gp) + ":" + offset(gp) + ">";
    }
}
