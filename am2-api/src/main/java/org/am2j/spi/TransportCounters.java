package org.am2j.spi;

/**
 * Counters a transport bumps for one endpoint, beyond the ones the core keeps for every message.
 */
public interface TransportCounters
{
    /**
     * One more back-off because a destination queue was full.
     */
    void queueFullBackoff();

    /**
     * One more retransmission.
     */
    void retransmit();

    /**
     * One more message dropped as malformed.
     */
    void drop();

    /**
     * One more message a freed endpoint could not settle before its close returned (neither delivered nor returned).
     * Counted as a drop by counters that keep no such count.
     */
    default void unsettled()
    {
        drop();
    }
}
