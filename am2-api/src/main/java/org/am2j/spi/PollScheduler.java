package org.am2j.spi;

/**
 * Decides, poll by poll, whether a bundle polls its network transports, and how many network messages it accepts
 * when it does. Shared-memory and in-process transports are polled on every poll. One instance per bundle, called by
 * one thread at a time.
 */
public interface PollScheduler
{
    /**
     * Called once per poll of the bundle.
     *
     * @param baseBudget the number of messages one poll accepts from one local queue.
     * @return how many network messages this poll accepts; 0 skips the network this time.
     */
    int networkBudget(int baseBudget);

    /**
     * Called after a network poll.
     *
     * @param found number of network messages that poll found.
     */
    void networkPolled(int found);

    /**
     * @return the scheduler's name and settings, for reports.
     */
    String describe();
}
