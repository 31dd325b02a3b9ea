package org.am2j.polling;

import java.util.function.LongSupplier;

import org.am2j.spi.PollScheduler;

/**
 * A clock that advances only when the test says a poll took time: polls with and without the network cost what the
 * script says, so a measuring scheduler sees a machine of the test's choosing.
 */
final class ScriptedClock implements LongSupplier
{
    private long now = 1_000_000L;

    @Override
    public long getAsLong()
    {
        return now;
    }

    /**
     * @param nanos time that passes.
     */
    void advance(final long nanos)
    {
        now += nanos;
    }

    /**
     * Make polls as a bundle does; each takes {@code localCost}, plus {@code networkExtra} when it includes the
     * network, plus {@code userWork.applyAsLong(poll)} after it.
     *
     * @param scheduler    the scheduler under test, reading this clock.
     * @param polls        how many polls.
     * @param localCost    time of a poll of the local queues.
     * @param networkExtra extra time of a poll that also includes the network.
     * @param userWork     time the program spends between poll i and the next.
     * @param found        messages each network poll finds.
     * @return the number of polls that included the network.
     */
    int poll(
        final PollScheduler scheduler,
        final int polls,
        final long localCost,
        final long networkExtra,
        final java.util.function.IntToLongFunction userWork,
        final int found)
    {
        int network = 0;
        for (int i = 0; i < polls; i++)
        {
            final boolean withNetwork = scheduler.networkBudget(ScriptedPolls.BASE) > 0;
            advance(localCost);
            if (withNetwork)
            {
                advance(networkExtra);
                scheduler.networkPolled(found);
                network++;
            }
            advance(userWork.applyAsLong(i));
        }
        return network;
    }
}
