package org.am2j.api;

/**
 * A live view of an endpoint's counters. The same counters are kept in the process's memory-mapped counters file,
 * where {@code bin/am2j stat --pid PID} reads them from outside.
 * <p>
 * An endpoint of a PAR bundle counts in the file at once. An endpoint of a SEQ bundle counts messages and bytes where
 * its owner thread sees them at once (through this view) and the bundle publishes them to the file, never per
 * message: at least once in 4096 polls and sends, and after 256 empty polls in a row that follow a poll that handled
 * a message (the bundle went idle); its {@link Counter#POLLS} are
 * added when published, here as in the file. See docs/am2-api.md, "Statistics".
 */
public interface EndpointStatistics
{
    /**
     * What is counted per transport.
     */
    enum Counter
    {
        /** Requests sent. */
        REQUESTS_SENT,
        /** Replies sent. */
        REPLIES_SENT,
        /** Requests whose handler ran here. */
        REQUESTS_RECEIVED,
        /** Replies whose handler ran here. */
        REPLIES_RECEIVED,
        /** Data bytes of medium and long messages sent. */
        BYTES_SENT,
        /** Data bytes of medium and long messages received. */
        BYTES_RECEIVED,
        /** Polls of the transport (a SEQ bundle's are counted when it publishes its statistics). */
        POLLS,
        /** Back-offs taken because a destination queue was full. */
        QUEUE_FULL_BACKOFFS,
        /** Retransmissions (network transport). */
        RETRANSMITS,
        /** Messages dropped as malformed, counted and not delivered. */
        DROPS,
        /**
         * Messages a freed endpoint could not settle within its close bound (a sender stalled or stopped while writing
         * one, words of its queues that make no sense): neither delivered nor returned; see docs/am2-api.md, "Freeing
         * an endpoint loses nothing queued for it".
         */
        UNSETTLED
    }

    /**
     * @param transport name of a transport, e.g. {@code "inproc"}.
     * @param counter   what to read.
     * @return the count, 0 when the transport does not serve this endpoint.
     */
    long get(String transport, Counter counter);

    /**
     * @param counter what to read.
     * @return the sum of the count over every transport.
     */
    long total(Counter counter);

    /**
     * @param status why messages came back.
     * @return how many of this endpoint's messages came back to it with that status.
     */
    long returned(ReturnStatus status);
}
