package org.am2j.spi;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.ReturnStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * AMUDP's segment rule: a start outside the segment is EBADSEGOFF, an end past it EBADLENGTH.
 */
class SegmentBoundsTest
{
    @ParameterizedTest
    @CsvSource({
        "0, 64, OK", "56, 8, OK", "64, 0, OK", "0, 0, OK",
        "60, 8, EBADLENGTH", "0, 65, EBADLENGTH", "63, 2, EBADLENGTH", "10, -1, EBADLENGTH",
        "64, 1, EBADSEGOFF", "65, 0, EBADSEGOFF", "-1, 1, EBADSEGOFF", "9223372036854775807, 1, EBADSEGOFF" })
    void aRangeOfASixtyFourByteSegment(final long offset, final int length, final String expected)
    {
        final int status = SegmentBounds.check(new UnsafeBuffer(new byte[64]), offset, length);
        assertEquals("OK".equals(expected) ? 0 : ReturnStatus.valueOf(expected).code(), status);
    }

    @Test
    void noSegmentIsABadOffset()
    {
        assertEquals(ReturnStatus.EBADSEGOFF.code(), SegmentBounds.check(null, 0, 0));
        assertEquals(ReturnStatus.EBADSEGOFF.code(), SegmentBounds.check(new UnsafeBuffer(new byte[0]), 0, 1));
    }
}
