package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.BundleKind;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The dispatcher trusts nothing a transport hands it: whatever a faulty peer wrote, a message is delivered, returned
 * with a status, or counted as a drop, and never throws or reads out of bounds.
 */
@Timeout(30)
class DispatcherValidationTest
{
    /** A message with any field a peer could have written. */
    static class Raw implements InboundMessage, Route
    {
        int opcode = Opcode.REQUEST_SHORT.code();
        int returnStatus;
        int handler = 1;
        long tag;
        int argCount;
        DirectBuffer data;
        int dataOffset;
        int dataLength;
        long segmentOffset = -1;
        /** What {@link #replyRoute()} gives: this message's own recording route, unless a test points it elsewhere. */
        Route back = this;
        final List<int[]> sentBack = new ArrayList<>();

        @Override
        public int opcode()
        {
            return opcode;
        }

        @Override
        public int returnStatus()
        {
            return returnStatus;
        }

        @Override
        public int handler()
        {
            return handler;
        }

        @Override
        public long tag()
        {
            return tag;
        }

        @Override
        public int argCount()
        {
            return argCount;
        }

        @Override
        public int arg(final int index)
        {
            return 100 + index;
        }

        @Override
        public DirectBuffer dataBuffer()
        {
            return data;
        }

        @Override
        public int dataOffset()
        {
            return dataOffset;
        }

        @Override
        public int dataLength()
        {
            return dataLength;
        }

        @Override
        public long segmentOffset()
        {
            return segmentOffset;
        }

        @Override
        public Route replyRoute()
        {
            return back;
        }

        @Override
        public EndpointName sourceName()
        {
            return null;
        }

        @Override
        public int send(final OutboundMessage message)
        {
            sentBack.add(new int[] { message.returnStatus(), message.opcode(), message.handler(), message.argCount(),
                message.dataLength() });
            return SENT;
        }

        @Override
        public EndpointName peer()
        {
            return null;
        }

        @Override
        public String transport()
        {
            return "raw";
        }
    }

    private int delivered;

    private Dispatcher dispatcherOf(final Pair pair)
    {
        final EndpointCore core = (EndpointCore)pair.b;
        pair.b.handler(1, (token, msg) ->
        {
            delivered++;
            if (msg.dataLength() > 0)
            {
                msg.data().getByte(msg.dataLength() - 1);
            }
        });
        return new Dispatcher(core, wire, core.counters.transport("raw"));
    }

    private void dispatch(final Dispatcher dispatcher, final Raw raw)
    {
        wire.next = raw;
        assertEquals(1, dispatcher.pollShared(DispatchContext.current(), 1, false));
    }

    /** A transport endpoint whose poll hands over one prepared message. */
    static final class Wire extends IdleTransportQueues
    {
        Raw next;

        @Override
        public int poll(final org.am2j.spi.MessageSink sink, final int budget, final boolean repliesOnly)
        {
            sink.onMessage(next);
            return 1;
        }
    }

    private final Wire wire = new Wire();

    private Raw valid(final Pair pair)
    {
        final Raw raw = new Raw();
        raw.tag = pair.b.tag();
        return raw;
    }

    @Test
    void aValidMessageIsDelivered()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final Dispatcher dispatcher = dispatcherOf(pair);
            dispatch(dispatcher, valid(pair));
            assertEquals(1, delivered);
        }
    }

    @Test
    void malformedFieldsAreReturnedWithTheirStatus()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final Dispatcher dispatcher = dispatcherOf(pair);
            final UnsafeBuffer small = new UnsafeBuffer(new byte[16]);
            final Object[][] cases = {
                { ReturnStatus.EBADARGS, (java.util.function.Consumer<Raw>)r -> r.argCount = 9 },
                { ReturnStatus.EBADARGS, (java.util.function.Consumer<Raw>)r -> r.argCount = -1 },
                { ReturnStatus.EBADARGS, (java.util.function.Consumer<Raw>)r -> r.argCount = Integer.MAX_VALUE },
                { ReturnStatus.EBADHANDLER, (java.util.function.Consumer<Raw>)r -> r.handler = 256 },
                { ReturnStatus.EBADHANDLER, (java.util.function.Consumer<Raw>)r -> r.handler = -5 },
                { ReturnStatus.EBADHANDLER, (java.util.function.Consumer<Raw>)r -> r.handler = 0 },
                { ReturnStatus.EBADHANDLER, (java.util.function.Consumer<Raw>)r -> r.handler = 77 },
                { ReturnStatus.EBADTAG, (java.util.function.Consumer<Raw>)r -> r.tag = r.tag + 1 },
                { ReturnStatus.EBADLENGTH, (java.util.function.Consumer<Raw>)r -> r.dataLength = 4 },
                { ReturnStatus.EBADLENGTH, (java.util.function.Consumer<Raw>)r ->
                    {
                        r.opcode = Opcode.REQUEST_MEDIUM.code();
                        r.data = small;
                        r.dataLength = 17;
                    } },
                { ReturnStatus.EBADLENGTH, (java.util.function.Consumer<Raw>)r ->
                    {
                        r.opcode = Opcode.REQUEST_MEDIUM.code();
                        r.data = small;
                        r.dataOffset = 10;
                        r.dataLength = 7;
                    } },
                { ReturnStatus.EBADLENGTH, (java.util.function.Consumer<Raw>)r ->
                    {
                        r.opcode = Opcode.REQUEST_MEDIUM.code();
                        r.data = small;
                        r.dataOffset = -1;
                        r.dataLength = 4;
                    } },
                { ReturnStatus.EBADLENGTH, (java.util.function.Consumer<Raw>)r ->
                    {
                        r.opcode = Opcode.REQUEST_MEDIUM.code();
                        r.data = null;
                        r.dataLength = 4;
                    } },
                { ReturnStatus.EBADLENGTH, (java.util.function.Consumer<Raw>)r ->
                    {
                        r.opcode = Opcode.REQUEST_LONG.code();
                        r.dataLength = 8193;
                    } },
                { ReturnStatus.EBADSEGOFF, (java.util.function.Consumer<Raw>)r ->
                    {
                        r.opcode = Opcode.REQUEST_LONG.code();
                        r.data = small;
                        r.segmentOffset = 0;
                        r.dataLength = 4;
                    } },
            };
            for (final Object[] c : cases)
            {
                final Raw raw = valid(pair);
                @SuppressWarnings("unchecked") final java.util.function.Consumer<Raw> mutation =
                    (java.util.function.Consumer<Raw>)c[1];
                mutation.accept(raw);
                dispatch(dispatcher, raw);
                assertEquals(1, raw.sentBack.size(), "case " + c[0]);
                assertEquals(((ReturnStatus)c[0]).code(), raw.sentBack.get(0)[0], "case " + c[0]);
                assertEquals(raw.opcode, raw.sentBack.get(0)[1]);
                assertTrue(raw.sentBack.get(0)[3] >= 0 && raw.sentBack.get(0)[3] <= 8);
            }
            assertEquals(0, delivered);
        }
    }

    @Test
    void aLongMessageWhoseSegmentRangeIsWrongIsReturned()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final Dispatcher dispatcher = dispatcherOf(pair);
            final org.agrona.concurrent.AtomicBuffer segment = pair.b.allocateSegment(64);
            // { offset, length, status }: an end past the segment is EBADLENGTH, a start outside it EBADSEGOFF
            final long[][] ranges = {
                { 60, 8, ReturnStatus.EBADLENGTH.code() }, { 0, 65, ReturnStatus.EBADLENGTH.code() },
                { -1, 1, ReturnStatus.EBADSEGOFF.code() }, { Long.MAX_VALUE, 1, ReturnStatus.EBADSEGOFF.code() },
                { 64, 1, ReturnStatus.EBADSEGOFF.code() }, { 65, 0, ReturnStatus.EBADSEGOFF.code() } };
            for (final long[] range : ranges)
            {
                final Raw raw = valid(pair);
                raw.opcode = Opcode.REQUEST_LONG.code();
                raw.data = segment;
                raw.segmentOffset = range[0];
                raw.dataOffset = (int)range[0];
                raw.dataLength = (int)range[1];
                dispatch(dispatcher, raw);
                assertEquals((int)range[2], raw.sentBack.get(0)[0], "offset " + range[0] + ", length " + range[1]);
            }
            final Raw ok = valid(pair);
            ok.opcode = Opcode.REQUEST_LONG.code();
            ok.data = segment;
            ok.segmentOffset = 56;
            ok.dataOffset = 56;
            ok.dataLength = 8;
            dispatch(dispatcher, ok);
            assertEquals(1, delivered);
        }
    }

    @Test
    void unknownOpcodesAndBadReturnedMessagesAreCountedDrops()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final Dispatcher dispatcher = dispatcherOf(pair);
            final int[][] bad = { { 6, 0 }, { -1, 0 }, { Integer.MIN_VALUE, 0 }, { 0, ReturnStatus.CODE_LIMIT }, { 0, -3 } };
            for (final int[] b : bad)
            {
                final Raw raw = valid(pair);
                raw.opcode = b[0];
                raw.returnStatus = b[1];
                dispatch(dispatcher, raw);
                assertTrue(raw.sentBack.isEmpty());
            }
            final Raw badReturned = valid(pair);
            badReturned.returnStatus = ReturnStatus.EBADTAG.code();
            badReturned.argCount = 12;
            dispatch(dispatcher, badReturned);
            assertEquals(0, delivered);
            assertEquals(bad.length + 1, pair.b.statistics().get("raw", Counter.DROPS));
        }
    }
}
