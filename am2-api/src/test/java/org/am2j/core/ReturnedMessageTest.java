package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Undeliverable messages come back to handler 0 of their sender with the right status, the original opcode,
 * handler index, arguments and data, and never kill the program.
 */
@Timeout(30)
class ReturnedMessageTest
{
    /** A returned message, copied out of the flyweights. */
    record Returned(ReturnStatus status, Opcode opcode, int handler, int[] args, byte[] data, boolean canReply)
    {
    }

    private final List<Returned> returned = new ArrayList<>();

    private void onReturned(final Token token, final Message msg)
    {
        assertTrue(msg.isReturned());
        final int[] args = new int[msg.argCount()];
        for (int i = 0; i < args.length; i++)
        {
            args[i] = msg.arg(i);
        }
        final byte[] data = new byte[msg.dataLength()];
        msg.data().getBytes(0, data);
        returned.add(new Returned(msg.returnStatus(), msg.opcode(), msg.handlerIndex(), args, data, token.isRequest()));
        assertThrows(AmException.class, () -> token.reply(1));
    }

    @Test
    void aWrongTagComesBackWithEbadtag()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.a.handler(0, this::onReturned);
            pair.b.handler(1, (token, msg) -> { });
            final int wrong = pair.a.mapAny(pair.b.name(), pair.b.tag() + 1);
            final UnsafeBuffer src = new UnsafeBuffer(new byte[] { 9, 8, 7 });
            pair.a.requestMedium(wrong, 1, src, 0, 3, 1, 2, 3);
            pair.pollUntil(() -> returned.size() == 1, 100);
            final Returned r = returned.get(0);
            assertEquals(ReturnStatus.EBADTAG, r.status());
            assertEquals(Opcode.REQUEST_MEDIUM, r.opcode());
            assertEquals(1, r.handler());
            assertArrayEquals(new int[] { 1, 2, 3 }, r.args());
            assertArrayEquals(new byte[] { 9, 8, 7 }, r.data());
            assertFalse(r.canReply());
            assertEquals(1, pair.a.statistics().returned(ReturnStatus.EBADTAG));
        }
    }

    @Test
    void tagNoneRefusesEverythingAndTagAllAcceptsAnything()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.a.handler(0, this::onReturned);
            final int[] delivered = new int[1];
            pair.b.handler(1, (token, msg) -> delivered[0]++);
            pair.b.tag(Tags.NONE);
            pair.a.request(0, 1);
            pair.pollUntil(() -> returned.size() == 1, 100);
            assertEquals(ReturnStatus.EBADTAG, returned.get(0).status());

            pair.b.tag(Tags.ALL);
            pair.a.request(0, 1);
            pair.pollUntil(() -> delivered[0] == 1, 100);
            assertEquals(1, returned.size());
        }
    }

    @Test
    void aMissingHandlerComesBackWithEbadhandler()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.a.handler(0, this::onReturned);
            pair.a.request(0, 9, 5);
            pair.pollUntil(() -> returned.size() == 1, 100);
            assertEquals(ReturnStatus.EBADHANDLER, returned.get(0).status());
            assertEquals(9, returned.get(0).handler());
            assertArrayEquals(new int[] { 5 }, returned.get(0).args());
        }
    }

    @Test
    void aLongMessageOutsideTheSegmentComesBackWithItsStatusAndItsData()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            pair.a.handler(0, this::onReturned);
            pair.b.handler(1, (token, msg) -> { });
            final UnsafeBuffer src = new UnsafeBuffer(new byte[] { 4, 5 });
            pair.a.requestLong(0, 1, src, 0, 2, 0);
            pair.b.allocateSegment(16);
            pair.a.requestLong(0, 1, src, 0, 2, 15);
            pair.a.requestLong(0, 1, src, 0, 2, 16);
            pair.pollUntil(() -> returned.size() == 3, 100);
            // no segment, and a start past its end: EBADSEGOFF; a start inside and an end past it: EBADLENGTH
            assertEquals(ReturnStatus.EBADSEGOFF, returned.get(0).status());
            assertEquals(ReturnStatus.EBADLENGTH, returned.get(1).status());
            assertEquals(ReturnStatus.EBADSEGOFF, returned.get(2).status());
            for (final Returned r : returned)
            {
                assertEquals(Opcode.REQUEST_LONG, r.opcode());
                assertArrayEquals(new byte[] { 4, 5 }, r.data());
            }
        }
    }

    @Test
    void aFreedDestinationComesBackWithEbadendpoint()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            pair.a.handler(0, this::onReturned);
            pair.b.close();
            pair.a.request(0, 1, 3);
            pair.pollUntil(() -> returned.size() == 1, 100);
            assertEquals(ReturnStatus.EBADENDPOINT, returned.get(0).status());
        }
    }

    @Test
    void aReplyToAFreedRequesterComesBackWithEreplyrejected()
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint requester = bundle.allocateEndpoint();
            final Endpoint server = bundle.allocateEndpoint();
            requester.tag(Tags.fresh());
            server.tag(Tags.fresh());
            requester.map(0, server.name(), server.tag());
            server.handler(0, this::onReturned);
            server.handler(1, (token, msg) -> token.reply(2, 7));
            requester.request(0, 1);
            requester.close();
            for (int i = 0; i < 100 && returned.isEmpty(); i++)
            {
                bundle.poll();
            }
            assertEquals(1, returned.size());
            assertEquals(ReturnStatus.EREPLYREJECTED, returned.get(0).status());
            assertEquals(Opcode.REPLY_SHORT, returned.get(0).opcode());
            assertArrayEquals(new int[] { 7 }, returned.get(0).args());
        }
    }

    @ParameterizedTest
    @EnumSource(ReturnStatus.class)
    void everyStatusAStransportReportsReachesHandlerZero(final ReturnStatus status)
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.PAR))
        {
            pair.a.handler(0, this::onReturned);
            final int index = pair.a.mapAny(FaultTransport.name(status), 1234);
            assertEquals(FaultTransport.NAME, pair.a.translationTransport(index));
            pair.a.request(index, 17, 1, 2);
            pair.pollUntil(() -> returned.size() == 1, 100);
            assertEquals(status, returned.get(0).status());
            assertEquals(17, returned.get(0).handler());
            assertArrayEquals(new int[] { 1, 2 }, returned.get(0).args());
            assertEquals(1, pair.a.statistics().returned(status));
        }
    }

    @Test
    void theDefaultReturnedMessageHandlerCountsAndKeepsGoing()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final EndpointCore core = (EndpointCore)pair.a;
            pair.a.request(0, 200);
            pair.a.request(0, 201);
            pair.pollUntil(() -> core.defaultHandlerCount() == 2, 100);
            assertEquals(2, pair.a.statistics().returned(ReturnStatus.EBADHANDLER));

            pair.a.handler(0, this::onReturned);
            pair.a.handler(0, null);
            pair.a.request(0, 202);
            pair.pollUntil(() -> core.defaultHandlerCount() == 3, 100);
            assertTrue(returned.isEmpty());
        }
    }

    @Test
    void mappingANameNoTransportReachesIsAClearError()
    {
        try (Pair pair = Pair.inOneBundle(BundleKind.SEQ))
        {
            final org.am2j.api.EndpointName far =
                new org.am2j.api.EndpointName("far-away", 42, 1, 0, java.util.Map.of());
            final AmException error = assertThrows(AmException.class, () -> pair.a.map(5, far, 1));
            assertTrue(error.getMessage().contains("no transport reaches"), error.getMessage());
            assertFalse(pair.a.isMapped(5));
            assertNull(pair.a.handler(5));
        }
    }
}
