package org.am2j.core;

import static org.am2j.core.BadArguments.HANDLER_TABLE_RANGE;
import static org.am2j.core.BadArguments.NOOP;
import static org.am2j.core.BadArguments.bad;
import static org.am2j.core.BadArguments.failing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.util.stream.Stream;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.core.BadArguments.Case;
import org.am2j.core.BadArguments.Fixture;
import org.am2j.core.BadArguments.Good;

/**
 * Bad arguments to an endpoint's handler table, segment and statistics. Each throws
 * {@link org.am2j.api.AmException} naming the argument and its range, sends nothing and changes nothing
 * ({@link BadArguments#run}); the in-range extremes are accepted.
 */
class BadEndpointArgumentsTest extends BadCallTable
{
    static Stream<Case> badCalls()
    {
        return Stream.of(
            // handler table
            bad("handler(-1, h)", f -> f.a.handler(-1, NOOP), "handler index = -1", HANDLER_TABLE_RANGE),
            bad("handler(256, h)", f -> f.a.handler(Am.NUM_HANDLERS, NOOP),
                "handler index = " + Am.NUM_HANDLERS, HANDLER_TABLE_RANGE),
            bad("handler(MIN_VALUE, h)", f -> f.a.handler(Integer.MIN_VALUE, NOOP),
                "handler index = " + Integer.MIN_VALUE, HANDLER_TABLE_RANGE),
            bad("handler(-1)", f -> f.a.handler(-1), "handler index = -1", HANDLER_TABLE_RANGE),
            bad("handler(256)", f -> f.a.handler(Am.NUM_HANDLERS), "handler index = " + Am.NUM_HANDLERS,
                HANDLER_TABLE_RANGE),
            bad("handlerAny(null)", f -> f.a.handlerAny(null), "handler must not be null"),
            failing("handlerAny(h) with a full table", BadEndpointArgumentsTest::fillHandlerTable, f -> f.a.handlerAny(NOOP),
                AmError.RESOURCE, "handler table full", "1 to " + (Am.NUM_HANDLERS - 1)),
            // segment
            bad("segment(buffer larger than MAX_SEGMENT_LENGTH)", f -> f.a.segment(hugeBuffer()),
                "segment capacity = " + Integer.MAX_VALUE, "[0, " + Am.MAX_SEGMENT_LENGTH + "]"),
            bad("allocateSegment(0)", f -> f.a.allocateSegment(0), "segment length = 0",
                "[1, " + ((long)Am.MAX_SEGMENT_LENGTH + 1) + ")"),
            bad("allocateSegment(-1)", f -> f.a.allocateSegment(-1), "segment length = -1",
                "[1, " + ((long)Am.MAX_SEGMENT_LENGTH + 1) + ")"),
            bad("allocateSegment(MAX_VALUE)", f -> f.a.allocateSegment(Integer.MAX_VALUE),
                "segment length = " + Integer.MAX_VALUE, "[1, " + ((long)Am.MAX_SEGMENT_LENGTH + 1) + ")"),
            // statistics
            bad("statistics().get(null, counter)", f -> f.a.statistics().get(null, Counter.REQUESTS_SENT),
                "transport must not be null"),
            bad("statistics().get(transport, null)", f -> f.a.statistics().get("inproc", null),
                "counter must not be null"),
            bad("statistics().total(null)", f -> f.a.statistics().total(null), "counter must not be null"),
            bad("statistics().returned(null)", f -> f.a.statistics().returned(null), "status must not be null"));
    }

    static Stream<Good> extremes()
    {
        return Stream.of(
            new Good("handler(255, h) and handler(0, null) restores the default", f ->
            {
                f.a.handler(Am.NUM_HANDLERS - 1, NOOP);
                assertSame(NOOP, f.a.handler(Am.NUM_HANDLERS - 1));
                f.a.handler(0, null);
                assertNotNull(f.a.handler(0));
                f.a.handler(0, (token, msg) -> f.returnedToA.incrementAndGet());
            }),
            new Good("allocateSegment(1)", f -> assertEquals(1, f.a.allocateSegment(1).capacity())),
            new Good("segment(null) then segment(buffer)", f ->
            {
                final UnsafeBuffer segment = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
                f.b.segment(null);
                assertNull(f.b.segment());
                f.b.segment(segment);
                assertSame(segment, f.b.segment());
            }));
    }

    private static void fillHandlerTable(final Fixture f)
    {
        for (int i = 1; i < Am.NUM_HANDLERS; i++)
        {
            if (null == f.a.handler(i))
            {
                f.a.handler(i, NOOP);
            }
        }
    }

    /** A buffer over real memory claiming a capacity above {@link Am#MAX_SEGMENT_LENGTH}; never accessed. */
    private static UnsafeBuffer hugeBuffer()
    {
        final ByteBuffer memory = ByteBuffer.allocateDirect(64);
        return new UnsafeBuffer(BufferUtil.address(memory), Integer.MAX_VALUE);
    }
}
