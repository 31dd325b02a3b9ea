package org.am2j.net;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Layout of the network queue block of an endpoint served by a shared NIC: a file a host process makes in the NIC's
 * directory and maps, and that the NIC process maps when the host registers it. Little-endian.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |               tag requests must carry (host, volatile)        |   0
 * |                                                               |
 * +---------------------------------------------------------------+
 * |            host sleeping: 1 while it may sleep (host)         |   8
 * +---------------------------------------------------------------+
 * |               closed: 1 once the host closed it (host)        |  12
 * +---------------------------------------------------------------+
 * |                segment length in bytes (host)                 |  16
 * |                                                               |
 * +---------------------------------------------------------------+
 * |        UDP port on loopback that wakes the host (host)        |  24
 * +---------------------------------------------------------------+
 * |                 wire endpoint id (NIC, at register)           |  28
 * +---------------------------------------------------------------+
 * |                       host pid (host)                         |  32
 * |                                                               |
 * +---------------------------------------------------------------+
 * |      reply sequence: the command answered (NIC, ordered)      |  64
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                      reply result (NIC)                       |  72
 * +---------------------------------------------------------------+
 * |                 reply payload length (NIC)                    |  76
 * +---------------------------------------------------------------+
 * |               reply payload (NIC, to 432 bytes)              ...  80
 * +---------------------------------------------------------------+
 * | route table: {@link #ROUTES} x (peer index, remote wire id,  ... 512
 * |              peer NIC id), written by the NIC before the       |
 * |              first receive record that names the route         |
 * +---------------------------------------------------------------+
 * |         request send queue (many-to-one ring, host to NIC)   ... ringOffset(0)
 * +---------------------------------------------------------------+
 * |          reply send queue (many-to-one ring, host to NIC)    ... ringOffset(1)
 * +---------------------------------------------------------------+
 * |       request receive queue (one-to-one ring, NIC to host)   ... ringOffset(2)
 * +---------------------------------------------------------------+
 * |        reply receive queue (one-to-one ring, NIC to host)    ... ringOffset(3)
 * +---------------------------------------------------------------+
 * |   in-flight log: what the NIC took and has not resolved      ... inFlightOffset
 * |   ({@link InFlightLogDescriptor}, NIC; the host reads it      |
 * |   once the NIC process is dead)                                |
 * +---------------------------------------------------------------+
 * </pre>
 * Records in the rings are those of the in-process NIC ({@link QueueRecordDescriptor}); a long message's data is never
 * deposited by the NIC (it cannot reach the host's segment): its receive record carries the data and the host copies
 * it into the segment before the handler runs.
 */
final class EndpointBlockDescriptor
{
    static final int TAG_OFFSET = 0;
    static final int HOST_SLEEPING_OFFSET = 8;
    static final int CLOSED_OFFSET = 12;
    static final int SEGMENT_LENGTH_OFFSET = 16;
    static final int WAKE_PORT_OFFSET = 24;
    static final int WIRE_ID_OFFSET = 28;
    static final int HOST_PID_OFFSET = 32;
    static final int REPLY_SEQUENCE_OFFSET = 64;
    static final int REPLY_RESULT_OFFSET = 72;
    static final int REPLY_LENGTH_OFFSET = 76;
    static final int REPLY_PAYLOAD_OFFSET = 80;
    static final int MAX_REPLY_PAYLOAD = 432;
    static final int ROUTE_TABLE_OFFSET = 512;

    /** Most inverse-mapping routes (distinct remote senders) of one endpoint of a shared NIC. */
    static final int ROUTES = 4096;
    static final int ROUTE_LENGTH = 16;
    static final int ROUTE_PEER_OFFSET = 0;
    static final int ROUTE_REMOTE_ID_OFFSET = 4;
    static final int ROUTE_NIC_ID_OFFSET = 8;

    static final int REQUEST_SEND = 0;
    static final int REPLY_SEND = 1;
    static final int REQUEST_RECEIVE = 2;
    static final int REPLY_RECEIVE = 3;

    static final int RINGS_OFFSET = ROUTE_TABLE_OFFSET + ROUTES * ROUTE_LENGTH;

    static
    {
        if (REPLY_PAYLOAD_OFFSET + MAX_REPLY_PAYLOAD > ROUTE_TABLE_OFFSET || RINGS_OFFSET % 64 != 0)
        {
            throw new IllegalStateException("inconsistent endpoint block layout");
        }
    }

    private EndpointBlockDescriptor()
    {
    }

    /**
     * @param route a route index.
     * @return the offset of its entry.
     */
    static int routeOffset(final int route)
    {
        return ROUTE_TABLE_OFFSET + route * ROUTE_LENGTH;
    }

    /**
     * @param ring       {@link #REQUEST_SEND} to {@link #REPLY_RECEIVE}.
     * @param queueBytes capacity of each ring (a power of two).
     * @return the offset of the ring.
     */
    static int ringOffset(final int ring, final int queueBytes)
    {
        return RINGS_OFFSET + ring * (queueBytes + RingBufferDescriptor.TRAILER_LENGTH);
    }

    /**
     * @param queueBytes capacity of each ring (a power of two).
     * @return the offset of the in-flight log ({@link InFlightLogDescriptor}), whose records take queueBytes.
     */
    static int inFlightOffset(final int queueBytes)
    {
        return ringOffset(4, queueBytes);
    }

    /**
     * @param queueBytes capacity of each ring (a power of two).
     * @return the bytes of the file.
     */
    static long length(final int queueBytes)
    {
        if (!BitUtil.isPowerOfTwo(queueBytes))
        {
            throw new IllegalArgumentException("queue bytes must be a power of two: " + queueBytes);
        }
        return (long)inFlightOffset(queueBytes) + InFlightLogDescriptor.HEADER_LENGTH + queueBytes;
    }

    /**
     * @param hostPid    the host's pid.
     * @param endpointId the host's endpoint id.
     * @return the file name of that endpoint's block in the NIC's directory.
     */
    static String fileName(final long hostPid, final int endpointId)
    {
        return "ep-" + hostPid + "-" + endpointId;
    }
}
