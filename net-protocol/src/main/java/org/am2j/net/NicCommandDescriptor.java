package org.am2j.net;

/**
 * Layout of the commands hosts write into a shared NIC's command ring ({@link NicFileDescriptor}); the ring's message
 * type is the command. Every command starts with the sequence number its answer will carry in the endpoint block's
 * reply area ({@link EndpointBlockDescriptor#REPLY_SEQUENCE_OFFSET}), 0 when none is wanted. Little-endian.
 * <pre>
 * REGISTER  0 long sequence | 8 long host pid | 16 int host endpoint id | 20 int path length | 24 path (UTF-8) ...
 *           answer: the wire endpoint id, or a negative error
 * CONNECT   0 long sequence | 8 int wire id | 12 int remote wire id | 16 long peer NIC id | 24 int address length |
 *           28 address (UTF-8) ... | then int name length | encoded name
 *           answer: the peer's index in the NIC's table, or -1
 * NAME      0 long sequence | 8 int wire id | 12 int route index
 *           answer: bytes of the encoded name in the payload, or -1
 * CLOSE     0 long sequence | 8 int wire id
 *           answer: 0
 * DEAD      0 long sequence (0) | 8 long process id (NIC id)      no answer
 * </pre>
 */
final class NicCommandDescriptor
{
    static final int REGISTER = 1;
    static final int CONNECT = 2;
    static final int NAME = 3;
    static final int CLOSE = 4;
    static final int DEAD = 5;

    static final int SEQUENCE_OFFSET = 0;
    static final int WIRE_ID_OFFSET = 8;

    static final int REGISTER_PID_OFFSET = 8;
    static final int REGISTER_ENDPOINT_OFFSET = 16;
    static final int REGISTER_PATH_LENGTH_OFFSET = 20;
    static final int REGISTER_PATH_OFFSET = 24;

    static final int CONNECT_REMOTE_ID_OFFSET = 12;
    static final int CONNECT_NIC_ID_OFFSET = 16;
    static final int CONNECT_ADDRESS_LENGTH_OFFSET = 24;
    static final int CONNECT_ADDRESS_OFFSET = 28;

    static final int NAME_ROUTE_OFFSET = 12;

    static final int DEAD_PROCESS_OFFSET = 8;

    private NicCommandDescriptor()
    {
    }
}
