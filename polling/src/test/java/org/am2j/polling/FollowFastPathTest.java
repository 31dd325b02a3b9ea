package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.LongSupplier;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code follow} counts quiet polls down and does its bookkeeping only at the polls that need it. This test drives it
 * beside {@link Reference}, the rule taken on every poll, through phases of network traffic and quiet, with a clock
 * that makes the cost sampler close windows and change Q, and checks that both give every poll the same budget.
 */
class FollowFastPathTest
{
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 42 })
    void everyPollGetsTheBudgetThePerPollRuleGives(final long seed)
    {
        final Random random = new Random(seed);
        final ScriptedClock clockFast = new ScriptedClock();
        final ScriptedClock clockReference = new ScriptedClock();
        final FollowPollScheduler fast = new FollowPollScheduler(clockFast);
        final Reference reference = new Reference(clockReference);
        long networkPolls = 0;
        int changes = 0;
        int lastQ = fast.quietInterval();
        for (int phase = 0; phase < 40; phase++)
        {
            // A phase of network traffic (a message found by some network polls), or a quiet one.
            final double findRate = random.nextInt(3) == 0 ? 0.3 : 0.0;
            // The cost of a network poll changes from phase to phase, so the sampler moves Q.
            final long networkExtra = 50L * (1 + random.nextInt(60));
            for (int poll = 0; poll < 20_000; poll++)
            {
                final int expected = reference.networkBudget(ScriptedPolls.BASE);
                final int actual = fast.networkBudget(ScriptedPolls.BASE);
                assertEquals(expected, actual, "phase " + phase + ", poll " + poll);
                final long cost = 40 + (expected > 0 ? networkExtra : 0) + (random.nextInt(8) == 0 ? 500 : 0);
                clockFast.advance(cost);
                clockReference.advance(cost);
                if (expected > 0)
                {
                    networkPolls++;
                    final int found = random.nextDouble() < findRate ? 1 + random.nextInt(3) : 0;
                    reference.networkPolled(found);
                    fast.networkPolled(found);
                }
                assertEquals(reference.following(), fast.following(), "phase " + phase + ", poll " + poll);
            }
            assertEquals(reference.quietInterval, fast.quietInterval(), "phase " + phase);
            if (fast.quietInterval() != lastQ)
            {
                changes++;
                lastQ = fast.quietInterval();
            }
        }
        assertTrue(networkPolls > 1000, "the network was polled: " + networkPolls);
        assertTrue(changes > 0, "the sampler moved Q");
    }

    /**
     * The rule as it was written before the countdown: everything on every poll.
     */
    private static final class Reference
    {
        private final PollCostSampler sampler;
        int quietInterval = FollowPollScheduler.DEFAULT_QUIET_INTERVAL;
        private int pollsSinceNetworkPoll;
        private long pollsSinceNetworkMessage = Long.MAX_VALUE / 2;

        Reference(final LongSupplier clock)
        {
            this.sampler = new PollCostSampler(clock);
        }

        boolean following()
        {
            return pollsSinceNetworkMessage < quietInterval;
        }

        int networkBudget(final int baseBudget)
        {
            pollsSinceNetworkPoll++;
            pollsSinceNetworkMessage++;
            final boolean network = following() || pollsSinceNetworkPoll >= quietInterval;
            final int budget = network ? NetworkBudget.scaled(baseBudget, pollsSinceNetworkPoll) : 0;
            if (network)
            {
                pollsSinceNetworkPoll = 0;
            }
            if (sampler.onPoll(network))
            {
                quietInterval = FollowPollScheduler.quietIntervalFor(sampler.ratio());
            }
            return budget;
        }

        void networkPolled(final int found)
        {
            if (found > 0)
            {
                pollsSinceNetworkMessage = 0;
            }
        }
    }
}
