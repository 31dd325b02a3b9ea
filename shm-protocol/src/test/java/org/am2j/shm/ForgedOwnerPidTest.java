package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A queue block's header names its owner's pid and start time, words any process of the user may overwrite. A route
 * made while they are forged must still know the owner for the live process it is: looked at, it is not found dead
 * (which would hand back the messages it holds while it delivers them), and the packets the owner's process sends are
 * not judged spoiled by their READY state's pid.
 */
@Timeout(30)
class ForgedOwnerPidTest
{
    private static final long FORGED_PID = 0x3FFF_FFF0L;

    @Test
    void aRouteMadeOverAForgedOwnerPidKnowsTheLiveOwner()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final QueueBlock view = b.queueBlock();
            view.buffer.putLong(QueueBlockDescriptor.OWNER_PID_OFFSET, FORGED_PID);
            view.buffer.putLong(QueueBlockDescriptor.OWNER_START_OFFSET, 12_345L);
            final ShmRoute ab = a.routeTo(b);
            assertEquals(ProcessIdentity.currentPid(), ab.owner().pid, "the pid of the process that holds the file");
            assertFalse(ab.owner().check(System.nanoTime()), "looked at, the live owner is not found dead");
            assertFalse(ab.owner().isDead());

            // The way back: b resolves a's block by its address while a's header is forged too.
            final QueueBlock own = a.queueBlock();
            own.buffer.putLong(QueueBlockDescriptor.OWNER_PID_OFFSET, FORGED_PID);
            assertEquals(Route.SENT, ab.sendShort(new OutboundMessage(), Opcode.REQUEST_SHORT.code(), 5, b.host.tag, 0,
                1, 7, 0, 0, 0, 0, 0, 0, 0));
            final int[] seen = new int[1];
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (0 == seen[0] && System.nanoTime() < deadline)
            {
                b.shm.poll(m -> seen[0] = m.arg(0), 32, false);
            }
            assertEquals(7, seen[0], "delivered, not judged spoiled");
            assertEquals(0, b.host.drops());
        }
    }
    /**
     * The start time forged alone, the pid left: the route still takes the owner for the process that holds the file,
     * as it is now, and finds it alive (a header start time believed once made a live owner look dead, and every
     * message sent through that route came back).
     */
    @Test
    void aRouteMadeOverAForgedOwnerStartTimeKnowsTheLiveOwner()
    {
        try (Fixture f = new Fixture())
        {
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            b.queueBlock().buffer.putLong(QueueBlockDescriptor.OWNER_START_OFFSET,
                ProcessIdentity.currentStartTimeMs() - 3_600_000L);
            final ShmRoute ab = a.routeTo(b);
            assertFalse(ab.owner().check(System.nanoTime()), "looked at, the live owner is not found dead");
            assertFalse(ab.owner().isDead());
            assertEquals(Route.SENT, ab.sendShort(new OutboundMessage(), Opcode.REQUEST_SHORT.code(), 5, b.host.tag, 0,
                1, 7, 0, 0, 0, 0, 0, 0, 0));
        }
    }
}
