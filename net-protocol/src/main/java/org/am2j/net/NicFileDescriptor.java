package org.am2j.net;

import org.agrona.BitUtil;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Layout of a shared NIC's control file ({@code nic-<index>} in the node's NIC directory), made and mapped by the NIC
 * process, mapped by the hosts it serves. Little-endian.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |                         magic 'am2N'                          |   0
 * +---------------------------------------------------------------+
 * |                         layout version                        |   4
 * +---------------------------------------------------------------+
 * |                    pid of the NIC process                     |   8
 * |                                                               |
 * +---------------------------------------------------------------+
 * |               NIC id (wire id of the NIC, random)             |  16
 * |                                                               |
 * +---------------------------------------------------------------+
 * |      state: 0 starting, 1 serving, 2 closed (ordered store)   |  24
 * +---------------------------------------------------------------+
 * |   sleeping: 1 while the NIC may sleep in its selector         |  28
 * +---------------------------------------------------------------+
 * |                 length of the published address               |  32
 * +---------------------------------------------------------------+
 * |        published address, UTF-8 host:port#key (to 256)      ...  36
 * +---------------------------------------------------------------+
 * |     command ring: Agrona many-to-one ring, hosts to NIC      ... 256
 * +---------------------------------------------------------------+
 * </pre>
 * A host that writes a command or a send-queue record reads {@code sleeping} after its commit (a full fence between)
 * and, when set, sends a one-byte wake datagram to the NIC's socket; the NIC stores {@code sleeping} and then looks
 * at its rings before it sleeps: one of the two sees the other.
 */
final class NicFileDescriptor
{
    static final int MAGIC = 0x4e32_6d61;
    static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int PID_OFFSET = 8;
    static final int NIC_ID_OFFSET = 16;
    static final int STATE_OFFSET = 24;
    static final int SLEEPING_OFFSET = 28;
    static final int ADDRESS_LENGTH_OFFSET = 32;
    static final int ADDRESS_OFFSET = 36;
    static final int MAX_ADDRESS_LENGTH = 220;
    static final int COMMAND_RING_OFFSET = 256;

    static final int STATE_STARTING = 0;
    static final int STATE_SERVING = 1;
    static final int STATE_CLOSED = 2;

    /** Bytes of the command ring's data (a power of two). */
    static final int COMMAND_RING_CAPACITY = 64 * 1024;

    /** File name of the control file of NIC {@code index}. */
    static String fileName(final int index)
    {
        return "nic-" + index;
    }

    /**
     * @return the bytes of the file.
     */
    static int length()
    {
        return COMMAND_RING_OFFSET + COMMAND_RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH;
    }

    static
    {
        if (!BitUtil.isPowerOfTwo(COMMAND_RING_CAPACITY) || COMMAND_RING_OFFSET % 64 != 0 ||
            ADDRESS_OFFSET + MAX_ADDRESS_LENGTH > COMMAND_RING_OFFSET)
        {
            throw new IllegalStateException("inconsistent NIC file layout");
        }
    }

    private NicFileDescriptor()
    {
    }
}
