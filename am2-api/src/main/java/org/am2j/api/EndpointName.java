package org.am2j.api;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The globally unique name of an endpoint (AM-II's en_t): which node it lives on, which process, its id in that
 * process, and one address per transport that can reach it (a shared-memory queue block path, a network address).
 * <p>
 * Names are immutable values. They are exchanged between processes in the compact binary form of {@link #toBytes()},
 * laid out as:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |  magic 'A' 'N' (16)           |  version (8)  | count (8)     |
 *  +---------------------------------------------------------------+
 *  |                     process id (64)                           |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     os pid (64)                               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     endpoint id (32)                          |
 *  +---------------------------------------------------------------+
 *  |  node length (16)             |  node bytes (UTF-8) ...      ...
 *  +---------------------------------------------------------------+
 *  |  count x { key length (16), key bytes, value length (16), value bytes }
 *  +---------------------------------------------------------------+
 * </pre>
 * (all integers big-endian).
 */
public final class EndpointName
{
    /** Largest encoded name accepted by {@link #fromBytes(byte[], int, int)}. */
    public static final int MAX_ENCODED_LENGTH = 4096;

    private static final int MAGIC = 0x414E;
    private static final int VERSION = 1;
    private static final int MAX_ADDRESSES = 16;

    private final String node;
    private final long processId;
    private final long pid;
    private final int endpointId;
    private final Map<String, String> addresses;
    private final int hash;

    /**
     * @param node       identity of the node (a shared-memory domain): equal strings mean the same node.
     * @param processId  identity of the process, unique across restarts and containers (not only the OS pid).
     * @param pid        the operating-system process id, for diagnostics.
     * @param endpointId the endpoint's id within its process, zero or more.
     * @param addresses  transport name to that transport's address of the endpoint.
     */
    public EndpointName(
        final String node, final long processId, final long pid, final int endpointId, final Map<String, String> addresses)
    {
        this.node = AmException.checkNotNull("node", node);
        AmException.checkNotNull("addresses", addresses);
        if (endpointId < 0)
        {
            throw new AmException(AmError.BAD_ARG, "endpointId = " + endpointId + " is outside [0, " +
                Integer.MAX_VALUE + "]");
        }
        if (addresses.size() > MAX_ADDRESSES)
        {
            throw new AmException(AmError.BAD_ARG, "addresses has " + addresses.size() + " entries, allowed [0, " +
                MAX_ADDRESSES + "]");
        }
        final TreeMap<String, String> sorted = new TreeMap<>();
        for (final Map.Entry<String, String> e : addresses.entrySet())
        {
            sorted.put(AmException.checkNotNull("addresses key (a transport name)", e.getKey()),
                AmException.checkNotNull("addresses value of transport " + e.getKey(), e.getValue()));
        }
        this.processId = processId;
        this.pid = pid;
        this.endpointId = endpointId;
        this.addresses = Collections.unmodifiableMap(sorted);
        final int encodedLength = encodedLength();
        if (encodedLength > MAX_ENCODED_LENGTH)
        {
            throw new AmException(AmError.BAD_ARG, "node and addresses encode to " + encodedLength +
                " bytes, allowed [0, " + MAX_ENCODED_LENGTH + "]");
        }
        this.hash = Objects.hash(node, processId, endpointId);
    }

    /**
     * @return identity of the node the endpoint lives on.
     */
    public String node()
    {
        return node;
    }

    /**
     * @return identity of the process that owns the endpoint.
     */
    public long processId()
    {
        return processId;
    }

    /**
     * @return the operating-system pid of the owning process.
     */
    public long pid()
    {
        return pid;
    }

    /**
     * @return the endpoint's id within its process.
     */
    public int endpointId()
    {
        return endpointId;
    }

    /**
     * @param transport name of a transport, e.g. {@code "shm"} or {@code "net"}.
     * @return that transport's address of the endpoint, or {@code null} when the transport does not serve it.
     */
    public String address(final String transport)
    {
        return addresses.get(AmException.checkNotNull("transport", transport));
    }

    /**
     * @return every transport address of the endpoint, by transport name (unmodifiable).
     */
    public Map<String, String> addresses()
    {
        return addresses;
    }

    /**
     * @param other another name.
     * @return true when both endpoints live on the same node.
     */
    public boolean sameNode(final EndpointName other)
    {
        return node.equals(AmException.checkNotNull("other", other).node);
    }

    /**
     * @return the binary form described in the class documentation.
     */
    public byte[] toBytes()
    {
        final byte[] bytes = new byte[encodedLength()];
        final ByteBuffer w = ByteBuffer.wrap(bytes);
        w.putShort((short)MAGIC).put((byte)VERSION).put((byte)addresses.size());
        w.putLong(processId).putLong(pid).putInt(endpointId);
        putString(w, node);
        for (final Map.Entry<String, String> e : addresses.entrySet())
        {
            putString(w, e.getKey());
            putString(w, e.getValue());
        }
        return bytes;
    }

    /**
     * Decode a name written by {@link #toBytes()}.
     *
     * @param bytes  holding the name.
     * @param offset of the first byte.
     * @param length of the encoded name.
     * @return the name.
     * @throws AmException with {@link AmError#BAD_ARG} when the bytes are not a valid name.
     */
    public static EndpointName fromBytes(final byte[] bytes, final int offset, final int length)
    {
        AmException.checkNotNull("bytes", bytes);
        if (offset < 0 || length < 0 || length > MAX_ENCODED_LENGTH || offset > bytes.length - length)
        {
            throw new AmException(AmError.BAD_ARG, "offset = " + offset + ", length = " + length +
                " must lie within the " + bytes.length + " bytes given, length at most " + MAX_ENCODED_LENGTH);
        }
        try
        {
            final ByteBuffer r = ByteBuffer.wrap(bytes, offset, length);
            final int magic = r.getShort() & 0xFFFF;
            final int version = r.get() & 0xFF;
            if (magic != MAGIC || version != VERSION)
            {
                throw new AmException(AmError.BAD_ARG, "not an endpoint name: magic 0x" + Integer.toHexString(magic) +
                    " version " + version + ", expected magic 0x" + Integer.toHexString(MAGIC) + " version " + VERSION);
            }
            final int count = r.get() & 0xFF;
            final long processId = r.getLong();
            final long pid = r.getLong();
            final int endpointId = r.getInt();
            final String node = getString(r);
            final Map<String, String> addresses = new TreeMap<>();
            for (int i = 0; i < count; i++)
            {
                addresses.put(getString(r), getString(r));
            }
            if (r.hasRemaining())
            {
                throw new AmException(AmError.BAD_ARG, "endpoint name has " + r.remaining() +
                    " trailing bytes");
            }
            return new EndpointName(node, processId, pid, endpointId, addresses);
        }
        catch (final BufferUnderflowException ex)
        {
            throw new AmException(AmError.BAD_ARG, "endpoint name truncated at " + length + " bytes", ex);
        }
    }

    /**
     * @param bytes holding exactly one encoded name.
     * @return the name.
     */
    public static EndpointName fromBytes(final byte[] bytes)
    {
        return fromBytes(bytes, 0, AmException.checkNotNull("bytes", bytes).length);
    }

    @Override
    public boolean equals(final Object o)
    {
        return this == o || o instanceof EndpointName that && processId == that.processId &&
            endpointId == that.endpointId && pid == that.pid && node.equals(that.node) &&
            addresses.equals(that.addresses);
    }

    @Override
    public int hashCode()
    {
        return hash;
    }

    @Override
    public String toString()
    {
        return "ep" + endpointId + "@" + node + "/pid" + pid + addresses;
    }

    private int encodedLength()
    {
        long length = 2 + 1 + 1 + 8 + 8 + 4 + 2 + (long)utf8(node).length;
        for (final Map.Entry<String, String> e : addresses.entrySet())
        {
            length += 2 + utf8(e.getKey()).length + 2 + utf8(e.getValue()).length;
        }
        return (int)Math.min(Integer.MAX_VALUE, length);
    }

    private static byte[] utf8(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A string: its length in UTF-8 bytes, two bytes big-endian, then the bytes (the name's length bounds it). */
    private static void putString(final ByteBuffer buffer, final String s)
    {
        final byte[] b = utf8(s);
        buffer.putShort((short)b.length).put(b);
    }

    private static String getString(final ByteBuffer buffer)
    {
        final int length = buffer.getShort() & 0xFFFF;
        if (length > buffer.remaining())
        {
            throw new BufferUnderflowException();
        }
        final String s = new String(buffer.array(), buffer.arrayOffset() + buffer.position(), length,
            StandardCharsets.UTF_8);
        buffer.position(buffer.position() + length);
        return s;
    }
}
