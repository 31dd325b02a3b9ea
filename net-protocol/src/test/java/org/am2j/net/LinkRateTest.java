package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The link rate's token bucket under a scripted clock: a burst, then the rate; a debt that holds messages back for
 * exactly the time the link needs; no credit saved up beyond the burst. And a paced NIC delivering every message once.
 */
class LinkRateTest
{
    @Test
    void aBurstThenTheRate()
    {
        final LinkRate rate = new LinkRate(160);
        long now = 1_000_000L;
        long sent = 0;
        while (rate.mayTransmit(now))
        {
            rate.transmitted(8192, now);
            sent += 8192;
        }
        assertTrue(sent >= LinkRate.BURST_BYTES && sent < LinkRate.BURST_BYTES + 8192, "burst " + sent);
        // 160 MB/s: 8192 bytes take 51.2 us. Over one simulated second the link carries 160 MB, plus the burst.
        sent = 0;
        final long end = now + 1_000_000_000L;
        while (now < end)
        {
            if (rate.mayTransmit(now))
            {
                rate.transmitted(8192, now);
                sent += 8192;
            }
            else
            {
                now += Math.max(1, rate.nanosUntilReady(now));
            }
        }
        assertEquals(160_000_000.0, sent, 2 * 8192.0, "bytes in one second at 160 MB/s");
    }

    @Test
    void aDebtHoldsMessagesBackForTheLinksTime()
    {
        final LinkRate rate = new LinkRate(100);
        final long start = 5L;
        assertTrue(rate.mayTransmit(start));
        rate.transmitted((int)LinkRate.BURST_BYTES + 100_000, start);
        assertFalse(rate.mayTransmit(start));
        // 100 MB/s is 0.1 byte per ns: a debt of 100,000 bytes is paid in 1 ms.
        assertEquals(1_000_000L, rate.nanosUntilReady(start));
        assertFalse(rate.mayTransmit(start + 999_999));
        assertTrue(rate.mayTransmit(start + 1_000_000));
    }

    @Test
    void anIdleLinkSavesNoMoreThanTheBurst()
    {
        final LinkRate rate = new LinkRate(1);
        rate.mayTransmit(0);
        rate.transmitted((int)LinkRate.BURST_BYTES, 0);
        assertTrue(rate.mayTransmit(3_600_000_000_000L));
        rate.transmitted((int)LinkRate.BURST_BYTES + 1, 3_600_000_000_000L);
        assertFalse(rate.mayTransmit(3_600_000_000_000L), "an hour idle gives one burst, not an hour's bytes");
    }

    @Test
    void aRateMustBePositive()
    {
        assertThrows(IllegalArgumentException.class, () -> new LinkRate(0));
    }

    @Test
    void aPacedNicWaitingForItsLinkSleepsUntilTheNextTokenNotLonger()
    {
        // 1000 MB/s is one byte per nanosecond: the link's wait is exact.
        try (NicPair pair = new NicPair("linkRateMBps", "1000"))
        {
            final NicAgent nic = pair.a.nic();
            final byte[] data = new byte[org.am2j.api.Am.MAX_MEDIUM];
            // The test holds A's NIC: nothing leaves its queues but by the duty cycles it runs on a scripted clock.
            assertTrue(nic.tryLock());
            try
            {
                for (int i = 0; i < 16; i++)
                {
                    assertEquals(org.am2j.spi.Route.SENT, pair.aToB.send(NicPair.dataMessage(
                        org.am2j.api.Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, data, -1, i)));
                }
                final long start = System.nanoTime();
                nic.doWorkAt(start);
                final long burst = nic.counters().get(NicEvent.MESSAGES_SENT);
                assertTrue(burst > 1 && burst < 17, "a burst, then the link holds the rest back: " + burst);
                assertFalse(nic.hasReadySends(), "records waiting for the link are no work to stay awake for");
                final long wait = nic.sleepNanos(1_000_000_000L, start);
                assertTrue(wait > 0 && wait <= NetConfig.MAX_DATAGRAM, "sleeps until the link's next token: " + wait);
                nic.doWorkAt(start + wait - 1);
                assertEquals(burst, nic.counters().get(NicEvent.MESSAGES_SENT), "not before it");
                nic.doWorkAt(start + wait);
                assertEquals(burst + 1, nic.counters().get(NicEvent.MESSAGES_SENT), "and no later");
            }
            finally
            {
                nic.unlock();
            }
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 16, 30_000),
                "delivered " + pair.sinkB.messages.size());
        }
    }

    @Test
    void aPacedNicDeliversEverythingOnceAndNothingBypassesItsQueues()
    {
        try (NicPair pair = new NicPair("linkRateMBps", "20"))
        {
            final byte[] data = new byte[org.am2j.api.Am.MAX_MEDIUM];
            for (int i = 0; i < 200; i++)
            {
                data[0] = (byte)i;
                assertEquals(org.am2j.spi.Route.SENT, pair.sendPumping(pair.aToB, NicPair.dataMessage(
                    org.am2j.api.Opcode.REQUEST_MEDIUM, 5, NicPair.TAG_B, data, -1, i)));
            }
            assertTrue(pair.pumpUntil(() -> pair.sinkB.messages.size() == 200, 30_000),
                "delivered " + pair.sinkB.messages.size());
            final boolean[] seen = new boolean[200];
            for (final Received message : pair.sinkB.messages)
            {
                final int i = message.args[0];
                assertFalse(seen[i], "message " + i + " once");
                seen[i] = true;
                assertEquals((byte)i, message.data[0]);
            }
            assertEquals(0, pair.a.nic().counters().get(NicEvent.DIRECT_SENDS), "every message went through the queue");
            assertEquals(201, pair.a.nic().counters().get(NicEvent.MESSAGES_SENT), "200 and the name announcement");
        }
    }
}
