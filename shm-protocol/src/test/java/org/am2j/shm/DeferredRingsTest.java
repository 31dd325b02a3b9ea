package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.am2j.api.Opcode;
import org.am2j.idle.CpuShare;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;

/**
 * While the CPUs are oversubscribed, a send to a sleeping endpoint owes its process a ring and keeps it until the
 * sender polls (once per poll of a bundle, {@link ShmTransport#beforePoll()}), sleeps, finds a queue full or closes;
 * with a CPU to spare it rings at once. The ring is seen as the doorbell's sequence number (the ticket a sleeper would
 * wait on) moving.
 */
class DeferredRingsTest
{
    private final OutboundMessage scratch = new OutboundMessage();

    private int send(final ShmRoute route, final Fixture.Ep to, final int value)
    {
        return route.sendShort(scratch, Opcode.REQUEST_SHORT.code(), 5, to.host.tag, 0, 1, value, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void withACpuToSpareTheRingGoesAtOnce()
    {
        try (Fixture f = new Fixture(CpuShare.Mode.SPIN))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            b.shm.sleeping(true);
            final long ticket = f.transport.prepareBlock();
            assertEquals(Route.SENT, send(ab, b, 1));
            assertEquals(ticket + 1, f.transport.prepareBlock());
            assertEquals(0, f.transport.rings.owed());
        }
    }

    @Test
    void oversubscribedTheRingWaitsForTheSendersNextPoll()
    {
        try (Fixture f = new Fixture(CpuShare.Mode.SLEEP))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            b.shm.sleeping(true);
            final long ticket = f.transport.prepareBlock();
            for (int i = 0; i < 5; i++)
            {
                assertEquals(Route.SENT, send(ab, b, i));
            }
            assertEquals(ticket, f.transport.prepareBlock(), "no ring before the sender's poll");
            assertEquals(1, f.transport.rings.owed(), "one ring per sleep, not per message");

            f.transport.beforePoll();
            assertEquals(ticket + 1, f.transport.prepareBlock(), "the poll rang once");
            assertEquals(0, f.transport.rings.owed());
            assertEquals(1, f.transport.rings.flushes());
        }
    }

    @Test
    void oversubscribedTheRingGoesOncePerPollNotOncePerEndpoint()
    {
        try (Fixture f = new Fixture(CpuShare.Mode.SLEEP))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Fixture.Ep c = f.endpoint();
            b.shm.sleeping(true);
            final long ticket = f.transport.prepareBlock();
            assertEquals(Route.SENT, send(a.routeTo(b), b, 1));

            // A bundle's poll of its endpoints' queues: the idle tests of each (and the receive of one) are the
            // endpoints' own work, and leave the process's rings to the poll's one process-wide step.
            for (final Fixture.Ep polled : new Fixture.Ep[] {a, c})
            {
                polled.shm.receiveQueues().idle(false);
                polled.shm.receiveQueues().receive(m -> { }, 32, false);
            }
            assertEquals(ticket, f.transport.prepareBlock(), "no endpoint's poll rang");
            assertEquals(1, f.transport.rings.owed());

            f.transport.beforePoll();
            assertEquals(ticket + 1, f.transport.prepareBlock(), "the poll's process-wide step rang once");
            f.transport.beforePoll();
            assertEquals(ticket + 1, f.transport.prepareBlock(), "and a poll with nothing owed rings nothing");
            assertEquals(1, f.transport.rings.flushes());
        }
    }

    @Test
    void oversubscribedTheRingGoesBeforeTheSenderSleeps()
    {
        try (Fixture f = new Fixture(CpuShare.Mode.SLEEP))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            b.shm.sleeping(true);
            final long ticket = f.transport.prepareBlock();
            assertEquals(Route.SENT, send(a.routeTo(b), b, 7));
            assertEquals(ticket, f.transport.prepareBlock());

            a.shm.sleeping(true);
            assertEquals(ticket + 1, f.transport.prepareBlock(), "rung as the sender went to sleep");
        }
    }

    @Test
    void oversubscribedTheRingGoesWhenTheSenderFindsAQueueFull()
    {
        try (Fixture f = new Fixture(CpuShare.Mode.SLEEP, "requestDepth", "4", "bulkDepth", "2"))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            b.shm.sleeping(true);
            final long ticket = f.transport.prepareBlock();
            int sent = 0;
            while (Route.SENT == send(ab, b, sent))
            {
                assertEquals(ticket, f.transport.prepareBlock(), "rung before the queue was full, message " + sent);
                sent++;
            }
            assertEquals(4, sent);
            assertEquals(ticket + 1, f.transport.prepareBlock(), "rung when the queue was found full");
            assertEquals(0, f.transport.rings.owed());
        }
    }

    @Test
    void oversubscribedTheRingGoesWhenTheSendingEndpointCloses()
    {
        try (Fixture f = new Fixture(CpuShare.Mode.SLEEP))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            b.shm.sleeping(true);
            final long ticket = f.transport.prepareBlock();
            assertEquals(Route.SENT, send(a.routeTo(b), b, 7));
            a.shm.close();
            assertEquals(ticket + 1, f.transport.prepareBlock(), "rung as the sender closed");
        }
    }

    @Test
    void ringsBeyondTheCapacityGoAtOnce()
    {
        try (Fixture f = new Fixture(CpuShare.Mode.SLEEP))
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final Doorbell doorbell = a.routeTo(b).doorbell();
            final DeferredRings rings = new DeferredRings(new CpuShare(CpuShare.Mode.SLEEP,
                org.am2j.idle.RunnableProbe.fixed(1, 1), () -> 0L, 1L));
            final long ticket = doorbell.ticket();
            for (int i = 0; i < DeferredRings.CAPACITY; i++)
            {
                rings.ring(doorbell);
            }
            assertEquals(ticket, doorbell.ticket());
            rings.ring(doorbell);
            assertEquals(ticket + 1, doorbell.ticket(), "one ring more than the capacity goes at once");
            rings.flush();
            assertEquals(ticket + 1 + DeferredRings.CAPACITY, doorbell.ticket());
            assertEquals(DeferredRings.CAPACITY, rings.deferred());
        }
    }
}
