package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.am2j.spi.TransportQueues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class NetTransportTest
{
    @Test
    void shortRequestAndItsReply()
    {
        try (NicPair pair = new NicPair())
        {
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 40, 2)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000));
            final Received request = pair.sinkB.messages.get(0);
            assertEquals(Opcode.REQUEST_SHORT.code(), request.opcode);
            assertEquals(3, request.handler);
            assertArrayEquals(new int[] {40, 2}, request.args);
            assertEquals(0, request.returnStatus);
            assertNotNull(request.replyRoute.peer(), "the request's sender is known by name");
            assertEquals(pair.hostA.name, request.replyRoute.peer());

            assertEquals(Route.SENT, request.replyRoute.send(NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, 42)));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 1, 5000));
            final Received reply = pair.sinkA.messages.get(0);
            assertEquals(Opcode.REPLY_SHORT.code(), reply.opcode);
            assertArrayEquals(new int[] {42}, reply.args);
            assertEquals(pair.hostB.name, reply.replyRoute.peer());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"64", "0"})
    void aNicThatLearnsOfAPeerFromItsFirstDatagramAnswersItsReceivingSocket(final String connectedPeers)
    {
        try (NicPair pair = NicPair.oneWay("connectedPeers", connectedPeers))
        {
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 1)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000));
            final Peer learned = pair.b.nic().peer(1);
            assertEquals(PeerTable.parse(pair.hostA.endpoint.address()), learned.destination.address,
                "the port the datagram named, not the one it left from");

            final Received request = pair.sinkB.messages.get(0);
            assertEquals(Route.SENT, request.replyRoute.send(NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, 42)));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 1, 5000), "the reply arrives");
            assertArrayEquals(new int[] {42}, pair.sinkA.messages.get(0).args);
        }
    }

    @Test
    void mediumAndLongMessagesOfEverySizeAcrossA1500ByteMtu()
    {
        try (NicPair pair = new NicPair("mtu", "1500"))
        {
            assertEquals(1472, pair.a.config().datagramLimit);
            pair.hostB.segment(64 * 1024);
            final Random random = new Random(5);
            final int[] sizes = {0, 1, 63, 64, 1399, 1400, 1401, 4095, 4096, 8191, 8192};
            for (final int size : sizes)
            {
                final byte[] medium = new byte[size];
                random.nextBytes(medium);
                final int before = pair.sinkB.messages.size();
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                    NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, medium, -1, size)));
                assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == before + 1, 5000), "medium " + size);
                assertArrayEquals(medium, pair.sinkB.messages.get(before).data, "medium " + size);

                final byte[] long_ = new byte[size];
                random.nextBytes(long_);
                final long offset = 1000 + size;
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                    NicPair.dataMessage(Opcode.REQUEST_LONG, 6, NicPair.TAG_B, long_, offset, size)));
                assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == before + 2, 5000), "long " + size);
                final Received got = pair.sinkB.messages.get(before + 1);
                assertEquals(offset, got.segmentOffset);
                assertArrayEquals(long_, got.data, "long " + size + " read back from the segment");
                final byte[] inSegment = new byte[size];
                pair.hostB.segment.getBytes((int)offset, inSegment);
                assertArrayEquals(long_, inSegment);
            }
            assertTrue(pair.a.nic().counters().get(NicEvent.DATAGRAMS_SENT) >
                pair.a.nic().counters().get(NicEvent.MESSAGES_SENT), "8 KiB messages went as several datagrams");
        }
    }

    @Test
    void refusedMessagesComeBackWithTheirStatus()
    {
        try (NicPair pair = new NicPair())
        {
            pair.hostB.segment(1024);
            final Route toNowhere = pair.hostA.endpoint.connect(new org.am2j.api.EndpointName("node-2", 2, 1, 1234,
                java.util.Map.of(NetTransport.NAME, pair.hostB.endpoint.address())), 1);
            pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, 0x9999, 1));
            toNowhere.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, 1, 2));
            pair.aToB.send(NicPair.dataMessage(Opcode.REQUEST_LONG, 3, NicPair.TAG_B, new byte[100], 1000, 3));
            pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 0, NicPair.TAG_B, 4));
            pair.aToB.send(NicPair.dataMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, new byte[10], -1, 5));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 5, 5000));
            assertTrue(pair.sinkB.messages.isEmpty(), "nothing refused reached the receiver");
            final int[] statusByArg = new int[6];
            for (final Received returned : pair.sinkA.messages)
            {
                statusByArg[returned.args[0]] = returned.returnStatus;
            }
            assertEquals(ReturnStatus.EBADTAG.code(), statusByArg[1]);
            assertEquals(ReturnStatus.EBADENDPOINT.code(), statusByArg[2]);
            assertEquals(ReturnStatus.EBADLENGTH.code(), statusByArg[3], "100 bytes at 1000 of a 1024-byte segment");
            assertEquals(ReturnStatus.EBADHANDLER.code(), statusByArg[4]);
            assertEquals(ReturnStatus.EBADLENGTH.code(), statusByArg[5]);
            assertEquals(5, pair.b.nic().counters().get(NicEvent.REFUSED));
        }
    }

    @Test
    void garbageDatagramsAreCountedAndDroppedAndTheNicGoesOn() throws Exception
    {
        // Tags off, so that the checks behind them can be reached with datagrams this test makes up as peer A (NIC 1).
        try (NicPair pair = new NicPair("authenticate", "false");
            java.nio.channels.DatagramChannel raw = java.nio.channels.DatagramChannel.open())
        {
            final java.net.InetSocketAddress target = PeerTable.parse(pair.hostB.endpoint.address());
            raw.bind(new java.net.InetSocketAddress(target.getAddress(), 0));
            final NicCounters counters = pair.b.nic().counters();
            final java.nio.ByteBuffer datagram = java.nio.ByteBuffer.allocate(2000).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            // The session A and B made, whose id every datagram of A names (an attacker reads it on the wire).
            pair.handshake();
            datagram.putInt(WireDescriptor.SESSION_OFFSET, pair.b.nic().peer(1).session.id);
            // Truncated: shorter than a header.
            raw.send(java.nio.ByteBuffer.wrap(new byte[10]), target);
            // Bad magic.
            raw.send(java.nio.ByteBuffer.wrap(new byte[WireDescriptor.HEADER_LENGTH + WireDescriptor.TAG_LENGTH]),
                target);
            // A message from an unknown NIC: no peer is made for it, nothing is answered.
            send(raw, target, datagram, header(datagram, 77, 2, 0, 1, 0, 64, 0), 64);
            // Good header, but for another incarnation of the process.
            send(raw, target, datagram, header(datagram, 1, 99, 0, 1, 0, 100, 0), 0);
            // Lengths beyond the datagram: the body claims 1000 bytes, 64 arrive.
            datagram.putLong(WireDescriptor.SEQUENCE_OFFSET, 10);
            send(raw, target, datagram, header(datagram, 1, 2, 0, 1, 0, 1000, 0), 64);
            // A fragment whose offset points past the body.
            send(raw, target, datagram, header(datagram, 1, 2, 1, 3, 0, 3000, 2990), 64);
            // A sequence far outside the window.
            datagram.putLong(WireDescriptor.SEQUENCE_OFFSET, 1L << 40);
            send(raw, target, datagram, header(datagram, 1, 2, 0, 1, 0, 64, 0), 64);
            // A whole body whose data length contradicts the body length (a sequence ahead of A's real ones).
            header(datagram, 1, 2, 0, 1, 0, 64, 0);
            datagram.putLong(WireDescriptor.SEQUENCE_OFFSET, 10);
            datagram.putInt(WireDescriptor.HEADER_LENGTH + MessageDescriptor.DATA_LENGTH_OFFSET, 5000);
            send(raw, target, datagram, WireDescriptor.HEADER_LENGTH, 64);

            // The keeper thread may be handling the last datagram: wait for every counter, then check none is over.
            assertTrue(pair.pumpUntil(() -> counters.get(NicEvent.TRUNCATED) >= 3 &&
                counters.get(NicEvent.BAD_HEADER) >= 1 && counters.get(NicEvent.WRONG_NIC) >= 1 &&
                counters.get(NicEvent.UNKNOWN_PEER) >= 1 &&
                counters.get(NicEvent.OUT_OF_WINDOW) >= 1 && counters.get(NicEvent.MALFORMED) >= 1, 5000),
                counters.toString());
            assertEquals(3, counters.get(NicEvent.TRUNCATED), "short datagram, lengths beyond it, fragment offset");
            assertEquals(1, counters.get(NicEvent.BAD_HEADER), "bad magic");
            assertEquals(1, counters.get(NicEvent.UNKNOWN_PEER));
            assertEquals(1, counters.get(NicEvent.WRONG_NIC));
            assertEquals(1, counters.get(NicEvent.OUT_OF_WINDOW));
            assertEquals(1, counters.get(NicEvent.MALFORMED));
            assertEquals(null, pair.b.nic().peer(77), "no peer for an unknown NIC's datagram");
            assertTrue(pair.sinkB.messages.isEmpty(), "no garbage reached the endpoint");

            pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 1));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000), "the NIC still works");
        }
    }

    private static int header(final java.nio.ByteBuffer datagram, final long sourceNic, final long destinationNic,
        final int fragmentIndex, final int fragmentCount, final int flags, final int bodyLength,
        final int fragmentOffset)
    {
        datagram.putShort(WireDescriptor.MAGIC_OFFSET, WireDescriptor.MAGIC);
        datagram.put(WireDescriptor.VERSION_OFFSET, WireDescriptor.VERSION);
        datagram.put(WireDescriptor.TYPE_OFFSET, (byte)WireDescriptor.TYPE_DATA);
        datagram.putShort(WireDescriptor.FLAGS_OFFSET, (short)flags);
        datagram.put(WireDescriptor.FRAGMENT_INDEX_OFFSET, (byte)fragmentIndex);
        datagram.put(WireDescriptor.FRAGMENT_COUNT_OFFSET, (byte)fragmentCount);
        datagram.putLong(WireDescriptor.SOURCE_NIC_OFFSET, sourceNic);
        datagram.putLong(WireDescriptor.DESTINATION_NIC_OFFSET, destinationNic);
        datagram.putInt(WireDescriptor.BODY_LENGTH_OFFSET, bodyLength);
        datagram.putInt(WireDescriptor.FRAGMENT_OFFSET_OFFSET, fragmentOffset);
        // Where the test's socket receives (any nonzero port: nothing is read from it).
        datagram.putShort(WireDescriptor.SOURCE_PORT_OFFSET, (short)9);
        return WireDescriptor.HEADER_LENGTH;
    }

    private static void send(final java.nio.channels.DatagramChannel raw, final java.net.InetSocketAddress target,
        final java.nio.ByteBuffer datagram, final int headerLength, final int bodyBytes) throws java.io.IOException
    {
        final java.nio.ByteBuffer copy = datagram.duplicate();
        // Room for the tag the NIC expects after the bytes (zeros: right only with tags off).
        copy.position(0).limit(headerLength + bodyBytes + WireDescriptor.TAG_LENGTH);
        raw.send(copy, target);
    }

    @Test
    void aSlowReceiverThrottlesItsSenderWithoutLoss()
    {
        try (NicPair pair = new NicPair("depth", "4", "queueBytes", "131072", "timeoutMs", "20000"))
        {
            final int messages = 3000;
            final byte[] data = new byte[1000];
            int sent = 0;
            int full = 0;
            while (sent < messages)
            {
                data[0] = (byte)sent;
                final int result = pair.aToB.send(
                    NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, data, -1, sent));
                if (result == Route.SENT)
                {
                    sent++;
                    continue;
                }
                assertEquals(Route.FULL, result);
                full++;
                pair.hostA.endpoint.poll(pair.sinkA, 16, false);
                // The receiver takes one message now and then: its 16 KiB queues fill up.
                if (full % 8 == 0)
                {
                    pair.hostB.endpoint.poll(pair.sinkB, 1, false);
                }
            }
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == messages, 20000));
            assertTrue(full > 0, "the sender was throttled");
            assertTrue(pair.sinkA.messages.isEmpty(), "nothing came back");
            final boolean[] seen = new boolean[messages];
            for (final Received received : pair.sinkB.messages)
            {
                final int id = received.args[0];
                assertTrue(!seen[id], "delivered once: " + id);
                seen[id] = true;
                assertEquals((byte)id, received.data[0]);
            }
        }
    }

    @Test
    void aPollThatHandledAMessageDoesNotReadTheEmptySocketAgain()
    {
        // No keeper: it reads the socket on its own and would count empty reads of its own.
        try (NicPair pair = new NicPair("keeperUs", "0"))
        {
            // The session first: its handshake needs A's host to read B's answer, and A's host only sends here.
            pair.handshake();
            final NicCounters counters = pair.b.nic().counters();
            final long emptyAtStart = counters.get(NicEvent.EMPTY_RECEIVES);
            assertEquals(0, pair.hostB.endpoint.poll(pair.sinkB, 16, false));
            assertEquals(emptyAtStart + 1, counters.get(NicEvent.EMPTY_RECEIVES), "a poll of an idle socket is counted");
            for (int i = 0; i < 20; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, i)));
                final long deadline = System.nanoTime() + 5_000_000_000L;
                int handled = 0;
                while (0 == handled)
                {
                    assertTrue(System.nanoTime() - deadline < 0, "request " + i + " arrived");
                    final long emptyBefore = counters.get(NicEvent.EMPTY_RECEIVES);
                    handled = pair.hostB.endpoint.poll(pair.sinkB, 16, false);
                    if (0 != handled)
                    {
                        assertEquals(emptyBefore, counters.get(NicEvent.EMPTY_RECEIVES),
                            "the poll that handled request " + i + " went back to the empty socket");
                    }
                }
                assertEquals(1, handled);
                assertEquals(i, pair.sinkB.messages.get(i).args[0]);
            }
        }
    }

    @Test
    void aPollWithMoreThanTheBaseBudgetDrainsTheSocket()
    {
        // The budget of a scheduler that polls the network now and then: the poll reads on to an empty socket.
        try (NicPair pair = new NicPair("keeperUs", "0"))
        {
            pair.handshake();
            final NicCounters counters = pair.b.nic().counters();
            final int budget = 8 * TransportQueues.BASE_POLL_BUDGET;
            final int messages = 6;
            for (int i = 0; i < messages; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, i)));
            }
            final long deadline = System.nanoTime() + 5_000_000_000L;
            int handled = 0;
            while (handled < messages)
            {
                assertTrue(System.nanoTime() - deadline < 0, handled + " of " + messages + " arrived");
                final long emptyBefore = counters.get(NicEvent.EMPTY_RECEIVES);
                handled += pair.hostB.endpoint.poll(pair.sinkB, budget, false);
                assertEquals(emptyBefore + 1, counters.get(NicEvent.EMPTY_RECEIVES),
                    "a poll with a large budget ends at an empty socket (" + handled + " handled so far)");
            }
            assertEquals(messages, handled);
            for (int i = 0; i < messages; i++)
            {
                assertEquals(i, pair.sinkB.messages.get(i).args[0]);
            }
        }
    }

    @Test
    void aHostThatFindsTheNicFreeSendsStraightIntoTheWindow()
    {
        // No keeper: it takes the NIC when a timer is due, and a send that found it taken would be queued.
        try (NicPair pair = new NicPair("keeperUs", "0"))
        {
            final NicCounters counters = pair.a.nic().counters();
            // The first request carries the endpoint's name announcement, which goes through the send queue.
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 0)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000));
            final long direct = counters.get(NicEvent.DIRECT_SENDS);
            final byte[] data = new byte[3000];
            new Random(7).nextBytes(data);
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 1, 2)));
            assertEquals(direct + 1, counters.get(NicEvent.DIRECT_SENDS));
            assertEquals(Route.SENT, pair.aToB.send(NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, data,
                -1, 2)));
            assertEquals(direct + 2, counters.get(NicEvent.DIRECT_SENDS));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 3, 5000));
            assertArrayEquals(new int[] {1, 2}, pair.sinkB.messages.get(1).args);
            assertArrayEquals(data, pair.sinkB.messages.get(2).data);
            assertEquals(2, pair.sinkB.messages.get(2).args[0]);

            // A reply goes straight too, on its own channel.
            final long directB = pair.b.nic().counters().get(NicEvent.DIRECT_SENDS);
            assertEquals(Route.SENT, pair.sinkB.messages.get(1).replyRoute.send(
                NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, 42)));
            assertEquals(directB + 1, pair.b.nic().counters().get(NicEvent.DIRECT_SENDS));
            assertTrue(pair.pumpUntil(() -> pair.sinkA.messages.size() == 1, 5000));
            assertArrayEquals(new int[] {42}, pair.sinkA.messages.get(0).args);
        }
    }

    @Test
    void aDirectSendThatCannotReadItsDataGivesTheNicAndItsCreditBack()
    {
        try (NicPair pair = new NicPair("keeperUs", "0", "depth", "4"))
        {
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 0)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1 &&
                !((NetRoute)pair.aToB).peer.out(false).hasInFlight(), 5000),
                "the announcement and the first request acknowledged");
            final OutboundMessage unreadable = NicPair.shortMessage(Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, 1)
                .data(new UnsafeBuffer(new byte[10]), 0, 100, -1);
            assertThrows(IndexOutOfBoundsException.class, () -> pair.aToB.send(unreadable));
            final long direct = pair.a.nic().counters().get(NicEvent.DIRECT_SENDS);
            for (int i = 1; i <= 4; i++)
            {
                assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, i)),
                    "all 4 credits are there");
            }
            assertEquals(direct + 4, pair.a.nic().counters().get(NicEvent.DIRECT_SENDS), "the NIC was given back");
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 5, 5000));
            for (int i = 1; i <= 4; i++)
            {
                assertEquals(i, pair.sinkB.messages.get(i).args[0]);
            }
        }
    }

    @Test
    void aDirectSendNeverOvertakesAMessageItsEndpointQueued() throws Exception
    {
        try (NicPair pair = new NicPair("depth", "64"))
        {
            final NicAgent nic = pair.a.nic();
            final int messages = 20_000;
            final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            // Another thread that runs A's NIC now and then, as a PAR bundle's other threads or the keeper do: a send
            // that finds the NIC taken is queued, and the next one, finding it free, must not go first.
            final Thread other = new Thread(() ->
            {
                while (!stop.get())
                {
                    nic.inlineReceive(null);
                    Thread.onSpinWait();
                }
            }, "other NIC user");
            other.start();
            try
            {
                for (int i = 0; i < messages; i++)
                {
                    assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                        NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, i)));
                }
                assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == messages, 30_000));
            }
            finally
            {
                stop.set(true);
                other.join();
            }
            for (int i = 0; i < messages; i++)
            {
                assertEquals(i, pair.sinkB.messages.get(i).args[0], "message " + i);
            }
            final NicCounters counters = nic.counters();
            assertTrue(counters.get(NicEvent.DIRECT_SENDS) > 0, counters.toString());
            assertTrue(counters.get(NicEvent.MESSAGES_SENT) - counters.get(NicEvent.DIRECT_SENDS) > 1,
                "some messages found the NIC taken and were queued: " + counters);
        }
    }

    @Test
    void theNicThreadMovesMessagesWhileTheHostOnlyReadsItsQueues()
    {
        try (NicPair pair = new NicPair("nic", "thread"))
        {
            for (int i = 0; i < 1000; i++)
            {
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                    NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, i)));
            }
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1000, 10000));
            for (int i = 0; i < 1000; i++)
            {
                assertEquals(i, pair.sinkB.messages.get(i).args[0]);
            }
        }
    }

    /**
     * The sleeper's selector waits last an hour, far beyond the class's {@code @Timeout}: it ends its loop only when
     * the message has woken it, and one never woken fails the test by its timeout (which interrupts the join).
     */
    @Test
    void aHostAsleepInTheSelectorWakesWhenAMessageArrives() throws Exception
    {
        try (NicPair pair = new NicPair())
        {
            final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            final Thread sleeper = new Thread(() ->
            {
                while (!stop.get())
                {
                    final long ticket = pair.b.prepareBlock();
                    pair.hostB.endpoint.sleeping(true);
                    if (pair.hostB.endpoint.hasPending())
                    {
                        break;
                    }
                    pair.b.block(ticket, java.util.concurrent.TimeUnit.HOURS.toNanos(1));
                }
                pair.hostB.endpoint.sleeping(false);
            }, "selector-sleeper");
            sleeper.setDaemon(true);
            sleeper.start();
            try
            {
                org.am2j.shm.ThreadWaits.awaitInside(sleeper, UdpWire.class, "await");
                // A window in which nothing arrives: the sleeper neither wakes for good nor spins in it.
                final long cpuBefore = threads.getThreadCpuTime(sleeper.getId());
                Thread.sleep(400);
                final long cpuAfter = threads.getThreadCpuTime(sleeper.getId());
                assertTrue(sleeper.isAlive(), "asleep while nothing arrives");
                assertTrue(cpuAfter - cpuBefore < 100_000_000L, "the sleeper used " +
                    (cpuAfter - cpuBefore) / 1_000_000 + " ms of CPU in 400 ms asleep: it must not spin");

                pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 1));
                sleeper.join();
                pair.hostB.endpoint.poll(pair.sinkB, 16, false);
                assertEquals(1, pair.sinkB.messages.size());
            }
            finally
            {
                stop.set(true); // ends a sleeper left behind by a failure
                pair.b.wakeup();
                sleeper.join(10_000);
            }
        }
    }

    /**
     * The sleep lasts an hour, far beyond the class's {@code @Timeout}: it ends only because the ring counted, and one
     * that is not ended fails the test by its timeout (which interrupts the join).
     */
    @Test
    void aWakeDatagramTakenFromTheSocketByAnotherThreadStillEndsTheSleep() throws Exception
    {
        try (NicPair pair = new NicPair("keeperUs", "0");
            java.nio.channels.DatagramChannel raw = java.nio.channels.DatagramChannel.open())
        {
            final java.net.InetSocketAddress nicB = PeerTable.parse(pair.hostB.endpoint.address());
            final long ticket = pair.b.prepareBlock();
            // A shared-memory sender rings once per sleep: its one datagram is read by another thread (here the
            // keeper's duty cycle, as if the host had been away) before the sleeper reaches the selector.
            raw.send(java.nio.ByteBuffer.wrap(new byte[WireDescriptor.WAKE_LENGTH]), nicB);
            assertTrue(pair.pumpUntil(() ->
            {
                pair.b.nic().keep(0);
                return pair.b.nic().counters().get(NicEvent.WAKEUPS) == 1;
            }, 5000), "the keeper took the wake datagram");
            final Thread sleeper = new Thread(() -> pair.b.block(ticket, java.util.concurrent.TimeUnit.HOURS.toNanos(1)),
                "wake-taken-sleeper");
            sleeper.setDaemon(true);
            sleeper.start();
            try
            {
                sleeper.join();
            }
            finally
            {
                pair.b.wakeup(); // ends a sleep left behind by a failure
            }
        }
    }

    @Test
    void requestsAndRepliesAllocateNothingInSteadyState()
    {
        // Tags only: AES-GCM through the JDK allocates a bounded amount per datagram (the next test).
        try (NicPair pair = new NicPair("wire", "authenticate"))
        {
            final long[] allocated = allocatedByRoundTrips(pair, 20_000);
            assertTrue(allocated[0] < 1024, "allocated " + allocated[0] + " bytes for 20,000 round trips");
            assertTrue(pair.b.nic().counters().get(NicEvent.DIRECT_DELIVERIES) > 0 &&
                pair.a.nic().counters().get(NicEvent.DIRECT_DELIVERIES) > 0, "the handed-over path was measured");
        }
    }

    @Test
    void encryptedRequestsAndRepliesAllocateWithinTheBoundPerDatagram()
    {
        try (NicPair pair = new NicPair("wire", "encrypt"))
        {
            final long[] allocated = allocatedByRoundTrips(pair, 5_000);
            // Each datagram is sealed once and opened once (both NICs run on this thread).
            System.out.printf("encrypted round trips: %d bytes allocated per datagram sent (bound %d to seal and as " +
                "much to open)%n", allocated[0] / allocated[1], WireSeal.ALLOCATION_BOUND);
            assertTrue(allocated[0] <= 2 * allocated[1] * WireSeal.ALLOCATION_BOUND,
                allocated[0] + " bytes for " + allocated[1] + " datagrams");
        }
    }

    /**
     * Round trips of a 512-byte request and a short reply, both NICs on this thread.
     *
     * @return the bytes this thread allocated in the least of several rounds (the JIT's own compilations and
     *         deoptimisations allocate now and then; a message path that allocates shows in every round), and the
     *         datagrams both NICs sent in that round.
     */
    private static long[] allocatedByRoundTrips(final NicPair pair, final int roundTrips)
    {
        final org.am2j.spi.OutboundMessage request = NicPair.dataMessage(Opcode.REQUEST_MEDIUM, 3, NicPair.TAG_B,
            new byte[512], -1, 1);
        final org.am2j.spi.OutboundMessage reply = NicPair.shortMessage(Opcode.REPLY_SHORT, 4, 0, 2);
        final long[] sum = new long[1];
        final org.am2j.spi.MessageSink server = (m) ->
        {
            sum[0] += m.arg(0) + m.dataLength();
            m.replyRoute().send(reply);
        };
        final org.am2j.spi.MessageSink client = (m) -> sum[0] += m.arg(0);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final long[] least = { Long.MAX_VALUE, 0 };
        for (int round = 0; round < 6; round++)
        {
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            final long sentBefore = datagramsSent(pair);
            for (int i = 0; i < roundTrips; i++)
            {
                final long expected = sum[0] + 1 + 512 + 2;
                pair.aToB.send(request);
                while (sum[0] != expected)
                {
                    pair.hostB.endpoint.poll(server, 16, false);
                    pair.hostA.endpoint.poll(client, 16, false);
                }
            }
            final long roundBytes = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            if (round >= 2 && roundBytes < least[0])
            {
                least[0] = roundBytes;
                least[1] = datagramsSent(pair) - sentBefore;
            }
        }
        return least;
    }

    private static long datagramsSent(final NicPair pair)
    {
        return pair.a.nic().counters().get(NicEvent.DATAGRAMS_SENT) +
            pair.b.nic().counters().get(NicEvent.DATAGRAMS_SENT);
    }

    @Test
    void theKeeperRunsAnInlineNicWhoseHostDoesNotCallIn()
    {
        try (NicPair pair = new NicPair("depth", "4"))
        {
            // B's host never polls: its keeper thread takes the requests into B's queue and acknowledges them, so
            // A gets its credits back, and a request B's NIC refuses comes back.
            for (int round = 0; round < 3; round++)
            {
                for (int i = 0; i < 4; i++)
                {
                    final int id = round * 4 + i;
                    assertEquals(Route.SENT, pair.sendPumpingOnly(pair.aToB, pair.hostA,
                        NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, id)), "request " + id);
                }
            }
            pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, 0x5555, 99));
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (pair.sinkA.messages.isEmpty() && System.nanoTime() < deadline)
            {
                pair.hostA.endpoint.poll(pair.sinkA, 16, false);
            }
            assertEquals(1, pair.sinkA.messages.size(), "the refusal came back");
            assertEquals(ReturnStatus.EBADTAG.code(), pair.sinkA.messages.get(0).returnStatus);
            assertTrue(pair.b.nic().counters().get(NicEvent.MESSAGES_DELIVERED) >= 12);
            assertTrue(pair.sinkB.messages.isEmpty(), "B's host ran no handler: it never polled");
        }
    }

    @Test
    void theKeeperOfAQuietNicSleepsLongerAndComesBackToOnePeriodOnTraffic()
    {
        final long period = 1_000_000L;
        assertEquals(2 * period, NicKeeper.nextSleep(period, period, false));
        assertEquals(4 * period, NicKeeper.nextSleep(2 * period, period, false));
        assertEquals(NicKeeper.QUIET_PERIODS * period,
            NicKeeper.nextSleep(NicKeeper.QUIET_PERIODS * period, period, false), "at most QUIET_PERIODS periods");
        assertEquals(NicKeeper.QUIET_PERIODS * period,
            NicKeeper.nextSleep(NicKeeper.QUIET_PERIODS * period / 2 + 1, period, false));
        assertEquals(period, NicKeeper.nextSleep(NicKeeper.QUIET_PERIODS * period, period, true));

        try (NicPair pair = new NicPair("keeperUs", "0"))
        {
            final NicKeeper b = new NicKeeper(pair.b.nic(), period, NicPair.cpus(false));
            b.busy();
            assertFalse(b.busy(), "no traffic, no timers");
            assertEquals(Route.SENT, pair.aToB.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 1)));
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 1, 5000));
            assertTrue(b.busy(), "a datagram arrived");
            // B owes A an acknowledgement (a timer) until its delayed ack goes out: busy until then, quiet after.
            assertTrue(pair.pumpUntil(() -> !b.busy(), 5000), "quiet once everything is acknowledged");
            assertFalse(b.busy());
        }
    }

    @Test
    void theKeeperOfANicItsHostTendsSleepsLonger()
    {
        assertTrue(NicKeeper.needed(true, false, true, false), "it did the work");
        assertTrue(NicKeeper.needed(false, true, false, false), "traffic while the host is away");
        assertFalse(NicKeeper.needed(false, true, true, false), "traffic, but the host polls");
        assertFalse(NicKeeper.needed(false, false, false, false), "nothing to do");
        assertFalse(NicKeeper.needed(true, true, false, true), "the CPUs are oversubscribed: the host will be back");

        try (NicPair pair = new NicPair("keeperUs", "0"))
        {
            final NicAgent b = pair.b.nic();
            pair.pump();
            assertTrue(b.hostPresent(60_000_000_000L), "B's host polled just now");
            assertFalse(b.hostPresent(0), "not within no time");
        }
    }

    @Test
    void closingAnEndpointWithQueuedSendsLosesNoCredits()
    {
        try (NicPair pair = new NicPair("nic", "thread", "depth", "4"))
        {
            for (int i = 0; i < 50; i++)
            {
                final TestHost brief = TestHost.attach(pair.a, 1, 100 + i, 0x7777);
                final Route route = brief.endpoint.connect(pair.hostB.name, NicPair.TAG_B);
                final long deadline = System.nanoTime() + 5_000_000_000L;
                while (route.send(NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, i)) == Route.FULL)
                {
                    assertTrue(System.nanoTime() < deadline, "credits lost after " + i + " closed endpoints");
                    pair.pump();
                }
                brief.endpoint.close();
            }
            for (int i = 0; i < 100; i++)
            {
                assertEquals(Route.SENT, pair.sendPumping(pair.aToB,
                    NicPair.shortMessage(Opcode.REQUEST_SHORT, 3, NicPair.TAG_B, 1000 + i)), "request " + i);
            }
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 150, 10_000),
                "received " + pair.sinkB.messages.size());
        }
    }

    @Test
    void settingsOutOfRangeAreRefusedWithTheirName()
    {
        for (final String[] bad : new String[][] {{"depth", "1"}, {"depth", "65"}, {"queueBytes", "65536"},
            {"queueBytes", "200000"}, {"mtu", "500"}, {"timeoutMs", "x"}, {"nic", "fast"}, {"host", "no.such.host."}})
        {
            final org.am2j.api.AmException ex = org.junit.jupiter.api.Assertions.assertThrows(
                org.am2j.api.AmException.class, () -> new NetConfig(new TestContext(1, bad)), String.join("=", bad));
            assertEquals(org.am2j.api.AmError.BAD_ARG, ex.error(), ex.getMessage());
            assertTrue(ex.getMessage().contains(bad[0]) || ex.getMessage().contains("NIC mode"), ex.getMessage());
        }
    }

    @Test
    void threadModeOnOneCpuRunsTheNicInline()
    {
        assertEquals(NicMode.THREAD, new NetConfig(new TestContext(1, "nic", "thread"), 2).mode);
        final NetConfig pinned = new NetConfig(new TestContext(1, "nic", "thread"), 1);
        assertEquals(NicMode.INLINE, pinned.mode);
        assertEquals(NicMode.THREAD, pinned.requestedMode);
        assertEquals(NicMode.INLINE, new NetConfig(new TestContext(1), 1).mode);
    }
}
