package org.am2j.spi;

import org.agrona.DirectBuffer;
import org.am2j.api.ReturnStatus;

/**
 * The check of a long message's target range in its destination's segment, one rule for every transport and both
 * ends (the sender that sees a shared segment, the receiver that deposits), as AMUDP and AMMPI check it:
 * <ul>
 * <li>no segment, a negative offset, or an offset at or past the segment's end with data to write:
 * {@link ReturnStatus#EBADSEGOFF} (the message starts outside the segment);</li>
 * <li>a start inside the segment but an end past it (or a negative length): {@link ReturnStatus#EBADLENGTH};</li>
 * <li>else 0: the range lies inside the segment (an empty message at the very end included).</li>
 * </ul>
 */
public final class SegmentBounds
{
    private SegmentBounds()
    {
    }

    /**
     * @param segment       the destination's segment, or {@code null} when it has none.
     * @param segmentOffset where the data would start.
     * @param length        of the data.
     * @return 0, or the code of {@link ReturnStatus#EBADSEGOFF} or {@link ReturnStatus#EBADLENGTH}.
     */
    public static int check(final DirectBuffer segment, final long segmentOffset, final int length)
    {
        return null == segment ? ReturnStatus.EBADSEGOFF.code() : check(segment.capacity(), segmentOffset, length);
    }

    /**
     * @param capacity      of the destination's segment in bytes.
     * @param segmentOffset where the data would start.
     * @param length        of the data.
     * @return 0, or the code of {@link ReturnStatus#EBADSEGOFF} or {@link ReturnStatus#EBADLENGTH}.
     */
    public static int check(final int capacity, final long segmentOffset, final int length)
    {
        if (segmentOffset < 0 || segmentOffset > capacity || (segmentOffset == capacity && length > 0))
        {
            return ReturnStatus.EBADSEGOFF.code();
        }
        if (length < 0 || segmentOffset + length > capacity)
        {
            return ReturnStatus.EBADLENGTH.code();
        }
        return 0;
    }
}
