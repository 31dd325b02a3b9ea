package org.am2j.polling;

/**
 * The number of messages found by each of the last {@value #LENGTH} network polls, and their sum: the history the
 * adaptive scheduler sets its rate from.
 * <pre>
 *   counts:  [c0][c1] ... [c31]    a ring; next is the slot of the oldest count, overwritten by the next add
 *   sum   =  c0 + c1 + ... + c31   kept up to date by each add, never recomputed
 * </pre>
 * Each count is clamped to [0, {@value #LENGTH}] when added: the adaptive rule saturates once the sum reaches
 * {@value #LENGTH}, so a larger count would change nothing, and the clamp keeps the sum at most
 * {@code LENGTH * LENGTH}. Before {@value #LENGTH} network polls the missing counts are 0. Primitive state only.
 */
final class NetworkPollHistory
{
    /** Network polls remembered; a power of two. */
    static final int LENGTH = 32;

    private final int[] counts = new int[LENGTH];
    private int next;
    private int sum;

    /**
     * Remember a network poll, forgetting the oldest.
     *
     * @param found messages that network poll found.
     */
    void add(final int found)
    {
        final int count = found < 0 ? 0 : Math.min(found, LENGTH);
        sum += count - counts[next];
        counts[next] = count;
        next = (next + 1) & (LENGTH - 1);
    }

    /**
     * @return the messages found by the last {@value #LENGTH} network polls, each count clamped to
     * [0, {@value #LENGTH}].
     */
    int sum()
    {
        return sum;
    }
}
