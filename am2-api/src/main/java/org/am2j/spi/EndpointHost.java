package org.am2j.spi;

import org.am2j.api.EndpointName;
import org.agrona.concurrent.AtomicBuffer;

/**
 * What the core tells a transport about an endpoint it serves.
 */
public interface EndpointHost
{
    /**
     * @return the endpoint's id in this process.
     */
    int endpointId();

    /**
     * @return the endpoint's name, or null until every transport has attached.
     */
    EndpointName name();

    /**
     * @return the endpoint's current tag.
     */
    long tag();

    /**
     * @return the endpoint's segment, or null when none is set.
     */
    AtomicBuffer segment();

    /**
     * Check a long message's target range before writing it into the segment.
     *
     * @param segmentOffset where the data would go.
     * @param length        of the data.
     * @return 0 when the range lies inside the segment, else the code of {@link org.am2j.api.ReturnStatus#EBADSEGOFF}
     * (no segment, or a start outside it) or {@link org.am2j.api.ReturnStatus#EBADLENGTH} (an end past it); see
     * {@link SegmentBounds}.
     */
    int checkSegment(long segmentOffset, int length);

    /**
     * A message has been queued for this endpoint while it may be sleeping: wake the thread in {@code waitSema()}.
     */
    void signalArrival();

    /**
     * The transport's {@link ReceiveQueues#inUse()} changed (a first sender arrived): the bundle's poll loop looks at
     * the queues from its next turn on. May be called from any thread.
     */
    default void receiveQueuesChanged()
    {
    }

    /**
     * @param transport name of the transport.
     * @return the counters the transport updates for this endpoint.
     */
    TransportCounters counters(String transport);

    /**
     * @return true once the endpoint is closed.
     */
    boolean isClosed();
}
