package org.am2j.polling;

/**
 * The paper's balance between the protocols: a network poll made once every {@code n} polls accepts up to {@code n}
 * times as many network messages as one poll accepts from one local queue, so that the network drains as fast as it
 * would if it were polled every time.
 */
final class NetworkBudget
{
    private NetworkBudget()
    {
    }

    /**
     * @param baseBudget messages one poll accepts from one local queue.
     * @param polls      polls since the previous network poll, this one included; at least 1.
     * @return {@code baseBudget * polls}, saturated at {@link Integer#MAX_VALUE}.
     */
    static int scaled(final int baseBudget, final int polls)
    {
        final long budget = (long)baseBudget * polls;
        return budget > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int)budget;
    }
}
