package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The core polls a network transport exactly when its bundle's scheduler says so, with the budget the scheduler
 * gives, and reports what all endpoints' network polls found: for a SEQ bundle (the straight local loop, the network
 * receivers apart) and a PAR bundle (poll ownership, the scheduler under its monitor). The process runs the
 * in-process transport and {@link CountingNetworkTransport}, under {@code scripted:4} ({@link ScriptedPollScheduler}:
 * the network every 4th poll).
 */
@Timeout(60)
class SchedulerDrivenPollTest
{
    static
    {
        // Read when the runtime starts, at this class's first bundle: no other test of this module starts it.
        System.setProperty("am2j.poll", ScriptedPollScheduler.NAME + ":4");
        CountingNetworkTransport.expectedBudget = ScriptedPollScheduler.BUDGET;
    }

    private static void pollsTheNetworkWhenTheSchedulerSaysSo(final BundleKind kind)
    {
        try (Bundle bundle = Am.allocateBundle(kind))
        {
            final ScriptedPollScheduler scheduler = ScriptedPollScheduler.last;
            bundle.allocateEndpoint();
            bundle.allocateEndpoint();
            final long pollsBefore = CountingNetworkTransport.POLLS.get();
            final long wrongBefore = CountingNetworkTransport.WRONG_BUDGETS.get();
            long handled = 0;
            for (int i = 0; i < 400; i++)
            {
                handled += bundle.poll();
            }
            assertEquals(400, scheduler.budgetCalls, kind + ": the scheduler is asked once per poll");
            assertEquals(100, scheduler.networkPolls, kind + ": told after each network poll, and only then");
            assertEquals(200, CountingNetworkTransport.POLLS.get() - pollsBefore,
                kind + ": both endpoints' network polled on every 4th poll");
            assertEquals(0, CountingNetworkTransport.WRONG_BUDGETS.get() - wrongBefore,
                kind + ": with the scheduler's budget");
            assertEquals(100L * 2 * CountingNetworkTransport.FOUND_PER_POLL, scheduler.found,
                kind + ": the scheduler hears what both endpoints found");
            assertEquals(scheduler.found, handled, kind + ": and poll() returns it");
        }
    }

    @Test
    void aSeqBundlePollsTheNetworkWhenItsSchedulerSaysSo()
    {
        pollsTheNetworkWhenTheSchedulerSaysSo(BundleKind.SEQ);
    }

    @Test
    void aParBundlePollsTheNetworkWhenItsSchedulerSaysSo()
    {
        pollsTheNetworkWhenTheSchedulerSaysSo(BundleKind.PAR);
    }
}
