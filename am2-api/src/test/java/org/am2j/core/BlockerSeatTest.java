package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * One sleeper of a process sleeps in its blocker at a time; the seat passes on when it leaves, and its holder wakes
 * the parked sleepers that have work.
 */
class BlockerSeatTest
{
    /** A bundle whose sleeper the test controls. */
    private static final class FakeSleeper implements BlockerSeat.Sleeper
    {
        boolean asleep;
        boolean pending;
        int unparks;

        @Override
        public boolean unparkSleeper()
        {
            if (asleep)
            {
                unparks++;
            }
            return asleep;
        }

        @Override
        public void unparkIfPending()
        {
            if (asleep && pending)
            {
                unparks++;
            }
        }
    }

    private final BlockerSeat seat = new BlockerSeat(null, List.of(), 1);
    private final Thread first = new Thread("first");
    private final Thread second = new Thread("second");

    @Test
    void oneThreadHoldsTheSeatUntilItLeaves()
    {
        final FakeSleeper bundle = new FakeSleeper();
        seat.add(bundle);
        assertTrue(seat.take(first));
        assertTrue(seat.take(first), "the holder keeps it");
        assertFalse(seat.take(second));
        assertTrue(seat.heldBy(first));
        assertFalse(seat.heldBy(second));
        seat.leave(second, bundle);
        assertTrue(seat.heldBy(first), "a thread that does not hold it cannot free it");
        seat.leave(first, bundle);
        assertTrue(seat.take(second));
    }

    @Test
    void aHolderThatLeavesUnparksOneParkedSleeperToTakeTheSeat()
    {
        final FakeSleeper holder = new FakeSleeper();
        final FakeSleeper awake = new FakeSleeper();
        final FakeSleeper parked = new FakeSleeper();
        final FakeSleeper parkedToo = new FakeSleeper();
        parked.asleep = true;
        parkedToo.asleep = true;
        holder.asleep = true;
        seat.add(holder);
        seat.add(awake);
        seat.add(parked);
        seat.add(parkedToo);
        assertTrue(seat.take(first));
        seat.leave(first, holder);
        assertEquals(0, holder.unparks, "not the one leaving");
        assertEquals(1, parked.unparks + parkedToo.unparks, "one parked sleeper, not all");
        assertFalse(seat.heldBy(first));
    }

    @Test
    void theHolderUnparksOnlyTheParkedSleepersWithWorkAndNotItself()
    {
        final FakeSleeper holder = new FakeSleeper();
        final FakeSleeper idle = new FakeSleeper();
        final FakeSleeper withWork = new FakeSleeper();
        final FakeSleeper removed = new FakeSleeper();
        holder.asleep = holder.pending = true;
        idle.asleep = true;
        withWork.asleep = withWork.pending = true;
        removed.asleep = removed.pending = true;
        seat.add(holder);
        seat.add(idle);
        seat.add(removed);
        seat.add(withWork);
        seat.remove(removed);
        assertTrue(seat.take(first));
        seat.wakePending(holder);
        assertEquals(0, holder.unparks);
        assertEquals(0, idle.unparks);
        assertEquals(1, withWork.unparks);
        assertEquals(0, removed.unparks, "a closed bundle is not looked at");
    }
}
