package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;

/**
 * {@code follow}: the network on every poll while network messages are recent, once every Q polls while it is quiet;
 * Q = 100 r from a scripted clock, or given.
 */
class FollowPollSchedulerTest
{
    private final FollowPollScheduler.Provider provider = new FollowPollScheduler.Provider();

    @Test
    void aQuietNetworkIsPolledOnceEveryQPolls()
    {
        final FollowPollScheduler scheduler = (FollowPollScheduler)provider.create("100");
        for (int poll = 1; poll <= 1000; poll++)
        {
            final int budget = scheduler.networkBudget(ScriptedPolls.BASE);
            if (0 == poll % 100)
            {
                assertEquals(100 * ScriptedPolls.BASE, budget, "poll " + poll + " includes the network");
                scheduler.networkPolled(0);
            }
            else
            {
                assertEquals(0, budget, "poll " + poll + " is local");
            }
        }
        assertFalse(scheduler.following());
        assertEquals("follow[quiet 1/100 fixed, network quiet]", scheduler.describe());
    }

    @Test
    void aNetworkMessageMakesEveryPollIncludeTheNetworkUntilQQuietPolls()
    {
        final FollowPollScheduler scheduler = (FollowPollScheduler)provider.create("100");
        for (int poll = 1; poll < 100; poll++)
        {
            assertEquals(0, scheduler.networkBudget(ScriptedPolls.BASE));
        }
        assertEquals(100 * ScriptedPolls.BASE, scheduler.networkBudget(ScriptedPolls.BASE));
        scheduler.networkPolled(1);
        assertTrue(scheduler.following());
        // the next 99 polls all include the network, with the base budget; none finds anything
        for (int poll = 1; poll < 100; poll++)
        {
            assertEquals(ScriptedPolls.BASE, scheduler.networkBudget(ScriptedPolls.BASE), "poll " + poll);
            scheduler.networkPolled(0);
        }
        // the Q-th poll after the message finds the network quiet: local, and the next network poll comes Q polls
        // after the last one
        assertEquals(0, scheduler.networkBudget(ScriptedPolls.BASE));
        assertFalse(scheduler.following());
        for (int poll = 2; poll < 100; poll++)
        {
            assertEquals(0, scheduler.networkBudget(ScriptedPolls.BASE), "quiet poll " + poll);
        }
        assertEquals(100 * ScriptedPolls.BASE, scheduler.networkBudget(ScriptedPolls.BASE));
    }

    @Test
    void steadyNetworkTrafficKeepsEveryPollOnTheNetwork()
    {
        final FollowPollScheduler scheduler = (FollowPollScheduler)provider.create("64");
        scheduler.networkBudget(ScriptedPolls.BASE);
        for (int poll = 0; poll < 64; poll++)
        {
            scheduler.networkBudget(ScriptedPolls.BASE);
        }
        scheduler.networkPolled(1);
        // a message every 50 polls, as a network ping-pong waiting on replies sees
        for (int poll = 1; poll <= 10_000; poll++)
        {
            assertTrue(scheduler.networkBudget(ScriptedPolls.BASE) > 0, "poll " + poll);
            scheduler.networkPolled(0 == poll % 50 ? 1 : 0);
        }
    }

    @Test
    void qIsAHundredTimesTheMeasuredRatio()
    {
        final ScriptedClock clock = new ScriptedClock();
        final FollowPollScheduler scheduler = new FollowPollScheduler(clock);
        assertEquals(FollowPollScheduler.DEFAULT_QUIET_INTERVAL, scheduler.quietInterval());
        assertEquals("follow[quiet 1/1024 until measured, network quiet]", scheduler.describe());
        // a local poll takes 10 units, one that includes the network 10 + 20 * 10: r = 20, Q = 2000
        clock.poll(scheduler, 4_000_000, 10, 200, i -> 0, 0);
        assertEquals(2000, scheduler.quietInterval());
        assertEquals("follow[quiet 1/2000 from ratio 20, network quiet]", scheduler.describe());
        assertEquals(64, FollowPollScheduler.quietIntervalFor(0.5));
        assertEquals(65536, FollowPollScheduler.quietIntervalFor(1e6));
    }

    @Test
    void badArgumentsAreRefused()
    {
        for (final String bad : new String[] {"0", "65537", "-5", "x", "", "1e3", " 10", "99999999999"})
        {
            final AmException ex = assertThrows(AmException.class, () -> provider.create(bad), bad);
            assertTrue(ex.getMessage().contains("follow"), ex.getMessage());
        }
        assertEquals(65536, ((FollowPollScheduler)provider.create("65536")).quietInterval());
    }
}
