package org.am2j.api;

/**
 * A live view of an endpoint's counters. The same counters are kept in the process's memory-mapped counters file,
 * where {@code bin/am2j stat --pid PID} reads them from outside.
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
        /** Polls of the transport. */
        POLLS,
        /** Back-offs taken because a destination queue was full. */
        QUEUE_FULL_BACKOFFS,
        /** Retransmissions (network transport). */
        RETRANSMITS,
        /** Messages dropped as malformed, counted and not delivered. */
        DROPS
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
