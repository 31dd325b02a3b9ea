package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ReceiveQueues;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The receive side a SEQ bundle's poll loop calls: {@code idle} says whether anything is there (replies, and requests
 * unless replies only), {@code receive} hands it over, and the transport's {@code poll} is the two together.
 */
@Timeout(30)
class ShmReceiveQueuesTest
{
    private static OutboundMessage frame(final Opcode opcode, final int handler, final long tag, final int arg)
    {
        return new OutboundMessage().header(opcode.code(), 0, handler, tag).args(1, arg, 0, 0, 0, 0, 0, 0, 0)
            .source(0);
    }

    @Test
    void idleSaysWhetherAnythingIsThereAndReceiveHandsItOver()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ReceiveQueues queues = b.shm.receiveQueues();
            assertSame(queues, b.shm.receiveQueues(), "one object, kept in the poll loop's plan");
            assertTrue(queues.inUse());

            // Empty: idle, but for the now-and-then look at the tails, after which receive hands nothing over.
            int notIdle = 0;
            for (int i = 0; i < 10_000; i++)
            {
                if (!queues.idle(false))
                {
                    notIdle++;
                    assertEquals(0, queues.receive(new Fixture.Recorder(), 32, false));
                }
            }
            assertTrue(notIdle <= 2 * (10_000 / 1024 + 1), notIdle + " of 10,000 empty turns were not idle");

            assertEquals(Route.SENT, a.routeTo(b).send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 7)));
            assertFalse(queues.idle(false), "a request is there");
            assertFalse(queues.idle(false), "and stays there until received");
            final Fixture.Recorder recorder = new Fixture.Recorder();
            assertEquals(0, queues.receive(recorder, 32, true), "replies only: the request waits");
            assertEquals(1, queues.receive(recorder, 32, false));
            assertEquals(7, recorder.headers.get(0)[5]);
            assertTrue(idleWithin(queues, false), "received: idle again");

            assertEquals(Route.SENT, b.routeTo(a).send(frame(Opcode.REPLY_SHORT, 6, 0L, 8)));
            final ReceiveQueues aQueues = a.shm.receiveQueues();
            assertFalse(aQueues.idle(true), "a reply is there, for a poll of reply queues too");
            assertEquals(1, aQueues.receive(recorder, 32, true));
            assertTrue(idleWithin(aQueues, true));
        }
    }

    @Test
    void theTransportsPollIsTheIdleTestThenReceive()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            for (int i = 0; i < 3; i++)
            {
                assertEquals(Route.SENT, ab.send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, i)));
            }
            assertEquals(2, b.shm.poll(new Fixture.Recorder(), 2, false), "within the budget");
            assertEquals(1, b.shm.poll(new Fixture.Recorder(), 32, false));
            assertEquals(0, b.shm.poll(new Fixture.Recorder(), 32, false));
        }
    }

    @Test
    void closedQueuesHandNothingOverToPollsAndLeaveItToTheDrain()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmReceiveQueues queues = (ShmReceiveQueues)b.shm.receiveQueues();
            assertEquals(Route.SENT, a.routeTo(b).send(frame(Opcode.REQUEST_SHORT, 5, b.host.tag, 1)));
            queues.close();
            assertFalse(queues.idle(false), "the request is there");
            assertEquals(0, queues.receive(new Fixture.Recorder(), 32, false), "but a poll does not hand it over");
            assertEquals(0, b.shm.poll(new Fixture.Recorder(), 32, false));
            final Fixture.Recorder returned = new Fixture.Recorder();
            assertEquals(1, b.shm.returnQueued(returned), "the drain does");
            assertEquals(1, returned.headers.size());
        }
    }

    private static boolean idleWithin(final ReceiveQueues queues, final boolean repliesOnly)
    {
        // The look at the tails that an idle test makes now and then answers false once; it is not a message.
        return queues.idle(repliesOnly) || queues.idle(repliesOnly);
    }
}
