package org.am2j.net;

/**
 * Layout of a record in an endpoint's network queue block rings, little-endian. Send queue records (host to NIC):
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                  peer index in the NIC's peer table           |  0
 *  +---------------------------------------------------------------+
 *  |                  reserved (0)                                 |  4
 *  +---------------------------------------------------------------+
 *  |                  message body ({@link MessageDescriptor}) ... |  8
 * </pre>
 * Receive queue records (NIC to host): the first word is the index of the inverse-mapping route in the receiving
 * endpoint's route table (what replies and returned messages go back by), the second word 1 when a long message's
 * data was written into the segment (the body then ends after its header), else 0.
 */
final class QueueRecordDescriptor
{
    /** Ring message type of every record. */
    static final int MESSAGE_TYPE = 1;

    static final int PEER_OFFSET = 0;
    static final int ROUTE_OFFSET = 0;
    static final int DEPOSITED_OFFSET = 4;
    static final int BODY_OFFSET = 8;

    private QueueRecordDescriptor()
    {
    }
}
