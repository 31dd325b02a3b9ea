package org.am2j.net;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.ProcessIdentity;

import static org.am2j.net.NicCommandDescriptor.*;

/**
 * A shared NIC's control: it carries out the commands hosts write into the command ring ({@link NicCommandDescriptor})
 * on the NIC's thread, between duty cycles, and answers them in the endpoints' blocks; it also notices hosts that
 * died without closing their endpoints (their pids no longer run) and closes those for them, so what was queued for
 * them goes back to the senders.
 */
final class NicCommands
{
    /** How often the NIC looks whether the hosts it serves still run. */
    static final long HOST_CHECK_NANOS = 200_000_000L;

    private final NicAgent nic;
    private final ManyToOneRingBuffer ring;
    private final Path directory;
    private final WakeSender waker;
    private final int queueBytes;
    private final Int2ObjectHashMap<MappedQueues> byWireId = new Int2ObjectHashMap<>();
    private final MessageHandler handler = this::onCommand;
    /** An endpoint registered at some time (a NIC process that stops when idle waits longer for the first). */
    boolean served;
    private int nextWireId = 1;
    private long nextHostCheckNanos;

    NicCommands(final NicAgent nic, final ManyToOneRingBuffer ring, final Path directory, final WakeSender waker,
        final int queueBytes)
    {
        this.nic = nic;
        this.ring = ring;
        this.directory = directory;
        this.waker = waker;
        this.queueBytes = queueBytes;
    }

    /**
     * Carry out the queued commands; every {@link #HOST_CHECK_NANOS}, look for hosts that died.
     *
     * @return work done.
     */
    int doWork()
    {
        int work = ring.read(handler);
        final long now = System.nanoTime();
        if (now - nextHostCheckNanos >= 0)
        {
            nextHostCheckNanos = now + HOST_CHECK_NANOS;
            work += checkHosts();
        }
        return work;
    }

    /**
     * @return true when a command is queued.
     */
    boolean pending()
    {
        return ring.producerPosition() != ring.consumerPosition();
    }

    /**
     * @return endpoints the NIC serves for hosts.
     */
    int endpoints()
    {
        return byWireId.size();
    }

    private int checkHosts()
    {
        int closed = 0;
        for (final MappedQueues endpoint : byWireId.values().toArray(new MappedQueues[0]))
        {
            if (!ProcessIdentity.isAlive(endpoint.hostPid, ProcessIdentity.UNKNOWN_START_TIME))
            {
                endpoint.abandon();
                nic.unregister(endpoint);
                byWireId.remove(endpoint.id());
                closed++;
            }

        }
        return closed;
    }

    private void onCommand(final int type, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long sequence = buffer.getLong(index + SEQUENCE_OFFSET);
        switch (type)
        {
            case REGISTER -> register(buffer, index, sequence);
            case CONNECT -> connect(buffer, index, sequence);
            case NAME -> name(buffer, index, sequence);
            case CLOSE -> close(buffer, index, sequence);
            case DEAD -> nic.declareDead(buffer.getLong(index + DEAD_PROCESS_OFFSET));
            default -> nic.counters().increment(NicEvent.MALFORMED);
        }
    }

    private void register(final DirectBuffer buffer, final int index, final long sequence)
    {
        final long hostPid = buffer.getLong(index + REGISTER_PID_OFFSET);
        final String name = buffer.getStringWithoutLengthUtf8(index + REGISTER_PATH_OFFSET,
            buffer.getInt(index + REGISTER_PATH_LENGTH_OFFSET));
        final Path path = directory.resolve(name).normalize();
        if (!directory.equals(path.getParent()))
        {
            nic.counters().increment(NicEvent.MALFORMED);
            return;
        }
        final long length = EndpointBlockDescriptor.length(queueBytes);
        final MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            if (channel.size() != length)
            {
                // The host made its block with another queue size: tell it (it waits for this answer).
                final UnsafeBuffer block = new UnsafeBuffer(channel.map(FileChannel.MapMode.READ_WRITE, 0,
                    EndpointBlockDescriptor.ROUTE_TABLE_OFFSET));
                MappedQueues.answer(block, sequence, -1, ("the NIC's queues are " + queueBytes +
                    " bytes (am2j.net.queueBytes); the host's block is " + channel.size() + " bytes, not " + length)
                    .getBytes(StandardCharsets.UTF_8));
                return;
            }
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        }
        catch (final IOException | RuntimeException ex)
        {
            // Nothing to answer in: the host's wait ends with its timeout and says the NIC did not answer.
            nic.counters().increment(NicEvent.IO_ERRORS);
            return;
        }
        final int wireId = nextWireId++;
        final MappedQueues endpoint = new MappedQueues(mapping, queueBytes, wireId, hostPid, waker);
        byWireId.put(wireId, endpoint);
        served = true;
        nic.register(endpoint);
        endpoint.answer(sequence, wireId, null);
    }

    private void connect(final DirectBuffer buffer, final int index, final long sequence)
    {
        final MappedQueues endpoint = byWireId.get(buffer.getInt(index + WIRE_ID_OFFSET));
        if (null == endpoint)
        {
            nic.counters().increment(NicEvent.MALFORMED);
            return;
        }
        final int remoteId = buffer.getInt(index + CONNECT_REMOTE_ID_OFFSET);
        final long peerNicId = buffer.getLong(index + CONNECT_NIC_ID_OFFSET);
        final int addressLength = buffer.getInt(index + CONNECT_ADDRESS_LENGTH_OFFSET);
        final String address = buffer.getStringWithoutLengthUtf8(index + CONNECT_ADDRESS_OFFSET, addressLength);
        final int nameAt = index + CONNECT_ADDRESS_OFFSET + addressLength;
        final byte[] name = new byte[buffer.getInt(nameAt)];
        buffer.getBytes(nameAt + Integer.BYTES, name);
        // An endpoint this NIC serves too (its id and key): its messages go from queue to queue inside the NIC
        // (SendQueues). Another NIC may have the same id (NICs on threads of one process): the key tells them apart.
        final Peer self = peerNicId == nic.nicId ? nic.sameNicPeer(address) : null;
        final Peer peer = null != self ? self : nic.peerFor(peerNicId, address);
        if (null == peer)
        {
            endpoint.answer(sequence, -1, null);
            return;
        }
        try
        {
            peer.learnName(remoteId, EndpointName.fromBytes(name));
        }
        catch (final RuntimeException ex)
        {
            endpoint.answer(sequence, -1, null);
            return;
        }
        endpoint.answer(sequence, peer.index, null);
    }

    private void name(final DirectBuffer buffer, final int index, final long sequence)
    {
        final MappedQueues endpoint = byWireId.get(buffer.getInt(index + WIRE_ID_OFFSET));
        if (null == endpoint)
        {
            return;
        }
        final int route = buffer.getInt(index + NAME_ROUTE_OFFSET);
        final Peer peer = route < 0 || route >= EndpointBlockDescriptor.ROUTES ? null : endpoint.routePeer(route);
        final EndpointName name = null == peer ? null : peer.name(endpoint.routeRemoteId(route));
        if (null == name)
        {
            endpoint.answer(sequence, -1, null);
            return;
        }
        final byte[] bytes = name.toBytes();
        endpoint.answer(sequence, bytes.length, bytes);
    }

    private void close(final DirectBuffer buffer, final int index, final long sequence)
    {
        final MappedQueues endpoint = byWireId.remove(buffer.getInt(index + WIRE_ID_OFFSET));
        if (null == endpoint)
        {
            return;
        }
        nic.unregister(endpoint);
        endpoint.answer(sequence, 0, null);
    }
}
