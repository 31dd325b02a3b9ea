package org.am2j.net;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.am2j.api.MessageCategory;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.MessageSink;
import org.am2j.spi.Route;
import org.am2j.spi.SegmentBounds;
import org.am2j.spi.ShmDirectories;
import org.am2j.spi.TransportQueues;

import static org.am2j.net.EndpointBlockDescriptor.*;

/**
 * The host's side of an endpoint served by a shared NIC: its network queue block is a file in the NIC's directory
 * ({@link EndpointBlockDescriptor}) that this process makes and maps and the NIC process maps when the endpoint
 * registers. Sends are records in the send queues ({@link SharedNicRoute}); polls read the receive queues as a
 * shared-memory queue is read; the tag, the sleeping and closed flags and the segment's length are plain fields of
 * the block. Commands (register, connect, the name behind a route, close) go through the NIC's command ring.
 * <p>
 * When the NIC process dies, a poll hands what the NIC took from the send queues and never resolved back to the
 * senders' handler 0 with EOUTCOMEUNKNOWN (from the NIC's {@link InFlightLog} in the block), what it never took with
 * EUNREACHABLE, and later polls and sends fail, naming the NIC process.
 */
final class SharedNicQueues implements TransportQueues
{
    /** How often an idle poll looks whether the NIC process still runs. */
    static final long NIC_CHECK_NANOS = 100_000_000L;

    final SharedNicLink link;
    private final EndpointHost host;
    private final Path file;
    private final UnsafeBuffer block;
    final int wireId;
    private final ManyToOneRingBuffer requestSendQueue;
    private final ManyToOneRingBuffer replySendQueue;
    private final ReceiveQueueReader receiveQueues;
    private final OneToOneRingBuffer replyReceiveQueue;
    private final int queueBytes;
    private final Long2ObjectHashMap<SharedNicRoute> forwardRoutes = new Long2ObjectHashMap<>();
    private final Object commandLock = new Object();
    private volatile SharedNicRoute[] inverseRoutes = new SharedNicRoute[16];
    volatile byte[] encodedName = new byte[0];
    private long sequence;
    private long nextNicCheckNanos;
    private boolean nicGoneReported;
    private volatile boolean closed;
    private MessageSink sink;

    SharedNicQueues(final SharedNicLink link, final EndpointHost host, final int queueBytes, final long pid,
        final int wakePort)
    {
        this.link = link;
        this.host = host;
        this.file = link.directory.resolve(fileName(pid, host.endpointId()));
        this.block = new UnsafeBuffer(map(file, length(queueBytes)));
        block.putLong(TAG_OFFSET, host.tag());
        block.putInt(WAKE_PORT_OFFSET, wakePort);
        block.putLong(HOST_PID_OFFSET, pid);
        final AtomicBuffer segment = host.segment();
        block.putLong(SEGMENT_LENGTH_OFFSET, null == segment ? 0 : segment.capacity());
        this.requestSendQueue = new ManyToOneRingBuffer(ServedQueues.ring(block, REQUEST_SEND, queueBytes));
        this.replySendQueue = new ManyToOneRingBuffer(ServedQueues.ring(block, REPLY_SEND, queueBytes));
        // Each queue's reader has its own flyweight: a nested read of the reply queue must not move the request's.
        final SharedNicInbound requestInbound = new SharedNicInbound(this);
        final SharedNicInbound replyInbound = new SharedNicInbound(this);
        this.queueBytes = queueBytes;
        this.replyReceiveQueue = new OneToOneRingBuffer(ServedQueues.ring(block, REPLY_RECEIVE, queueBytes));
        this.receiveQueues = new ReceiveQueueReader(
            new OneToOneRingBuffer(ServedQueues.ring(block, REQUEST_RECEIVE, queueBytes)),
            (type, buffer, index, length) -> deliver(requestInbound, buffer, index, length),
            replyReceiveQueue,
            (type, buffer, index, length) -> deliver(replyInbound, buffer, index, length));
        final byte[] name = SharedNicLink.utf8(file.getFileName().toString());
        final int result;
        try
        {
            result = command(NicCommandDescriptor.REGISTER, NicCommandDescriptor.REGISTER_PATH_OFFSET + name.length,
                (command) ->
                {
                    command.buffer().putLong(command.offset() + NicCommandDescriptor.REGISTER_PID_OFFSET, pid);
                    command.buffer().putInt(command.offset() + NicCommandDescriptor.REGISTER_ENDPOINT_OFFSET,
                        host.endpointId());
                    command.buffer().putInt(command.offset() + NicCommandDescriptor.REGISTER_PATH_LENGTH_OFFSET,
                        name.length);
                    command.buffer().putBytes(command.offset() + NicCommandDescriptor.REGISTER_PATH_OFFSET, name);
                });
        }
        catch (final RuntimeException ex)
        {
            deleteFile();
            throw ex;
        }
        if (result <= 0)
        {
            final String why = replyText();
            deleteFile();
            throw new AmException(AmError.RESOURCE, "am2j net: the " + link.describe() + " refused endpoint " +
                host.endpointId() + (why.isEmpty() ? "" : ": " + why));
        }
        this.wireId = result;
    }

    private static java.nio.MappedByteBuffer map(final Path file, final long length)
    {
        try
        {
            try
            {
                return ShmDirectories.createMapped(file, length);
            }
            catch (final FileAlreadyExistsException ex)
            {
                // Left by an earlier process that had this pid: ours now.
                Files.deleteIfExists(file);
                return ShmDirectories.createMapped(file, length);
            }
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.RESOURCE, "am2j net: cannot make the network queue block " + file + ": " +
                ex, ex);
        }
    }

    private int command(final int type, final int length, final java.util.function.Consumer<SharedNicLink.CommandBuffer>
        writer)
    {
        synchronized (commandLock)
        {
            return link.command(type, length, writer, block, ++sequence);
        }
    }

    private String replyText()
    {
        final int length = block.getInt(REPLY_LENGTH_OFFSET);
        return length <= 0 ? "" : block.getStringWithoutLengthUtf8(REPLY_PAYLOAD_OFFSET, length);
    }

    @Override
    public String address()
    {
        return SharedNicAddress.format(link.published, link.nicId, wireId);
    }

    @Override
    public void named(final EndpointName name)
    {
        this.encodedName = name.toBytes();
    }

    @Override
    public Route connect(final EndpointName destination, final long tag)
    {
        final SharedNicAddress.Target target = SharedNicAddress.target(destination);
        if (null == target)
        {
            return null;
        }
        final long nicId = target.nicId();
        final int remoteId = target.wireId();
        final byte[] nicAddress = SharedNicLink.utf8(target.nicAddress());
        final byte[] name = destination.toBytes();
        final int peerIndex = command(NicCommandDescriptor.CONNECT,
            NicCommandDescriptor.CONNECT_ADDRESS_OFFSET + nicAddress.length + Integer.BYTES + name.length, (command) ->
            {
                final MutableDirectBuffer buffer = command.buffer();
                final int at = command.offset();
                buffer.putInt(at + NicCommandDescriptor.WIRE_ID_OFFSET, wireId);
                buffer.putInt(at + NicCommandDescriptor.CONNECT_REMOTE_ID_OFFSET, remoteId);
                buffer.putLong(at + NicCommandDescriptor.CONNECT_NIC_ID_OFFSET, nicId);
                buffer.putInt(at + NicCommandDescriptor.CONNECT_ADDRESS_LENGTH_OFFSET, nicAddress.length);
                buffer.putBytes(at + NicCommandDescriptor.CONNECT_ADDRESS_OFFSET, nicAddress);
                final int nameAt = at + NicCommandDescriptor.CONNECT_ADDRESS_OFFSET + nicAddress.length;
                buffer.putInt(nameAt, name.length);
                buffer.putBytes(nameAt + Integer.BYTES, name);
            });
        if (peerIndex < 0)
        {
            return null;
        }
        final SharedNicRoute route = new SharedNicRoute(this, peerIndex, remoteId, destination);
        synchronized (forwardRoutes)
        {
            forwardRoutes.put(routeKey(peerIndex, remoteId), route);
        }
        return route;
    }

    private static long routeKey(final int peerIndex, final int remoteId)
    {
        return ((long)peerIndex << 32) | (remoteId & 0xFFFF_FFFFL);
    }

    @Override
    public int poll(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        final MessageSink outer = this.sink;
        this.sink = sink;
        try
        {
            int handled = 0;
            if (closed)
            {
                return 0;
            }
            handled += receiveQueues.read(budget, repliesOnly);
            if (0 == handled)
            {
                handled += checkNic();
            }
            return handled;
        }
        finally
        {
            this.sink = outer;
        }
    }

    private ControlledMessageHandler.Action deliver(final SharedNicInbound inbound, final MutableDirectBuffer ring,
        final int index, final int length)
    {
        if (closed)
        {
            // Closed by a handler of this very read: the record stays, for the NIC to return to its sender.
            return ControlledMessageHandler.Action.ABORT;
        }
        sink.onMessage(inbound.wrap(ring, index, length, deposit(ring, index, length)));
        return ControlledMessageHandler.Action.CONTINUE;
    }

    /**
     * A long message's data travels in its record (the NIC cannot reach the segment): copy it into the segment when
     * it fits there, as the in-process NIC deposits it. When it does not (the segment changed since the NIC checked),
     * the core finds the data missing from the segment and returns the message.
     *
     * @return the segment the data now lies in, or null.
     */
    private AtomicBuffer deposit(final DirectBuffer ring, final int index, final int length)
    {
        final int body = index + QueueRecordDescriptor.BODY_OFFSET;
        final Opcode opcode = Opcode.fromCode(ring.getByte(body + MessageDescriptor.OPCODE_OFFSET) & 0xFF);
        if (null == opcode || MessageCategory.LONG != opcode.category() ||
            0 != ring.getByte(body + MessageDescriptor.RETURN_STATUS_OFFSET))
        {
            return null;
        }
        final AtomicBuffer segment = host.segment();
        final long offset = ring.getLong(body + MessageDescriptor.SEGMENT_OFFSET_OFFSET);
        final int dataLength = Math.min(ring.getInt(body + MessageDescriptor.DATA_LENGTH_OFFSET),
            length - QueueRecordDescriptor.BODY_OFFSET - MessageDescriptor.HEADER_LENGTH);
        if (0 != SegmentBounds.check(segment, offset, dataLength))
        {
            return null;
        }
        segment.putBytes((int)offset, ring, body + MessageDescriptor.HEADER_LENGTH, dataLength);
        return segment;
    }

    /**
     * Now and then, in a poll that found nothing: is the NIC process still there? When it has gone, hand what it
     * took and never resolved back to the senders (EOUTCOMEUNKNOWN: it may have run), and what it never took from the
     * send queues (EUNREACHABLE), once; the polls after that fail.
     *
     * @return messages handed back.
     */
    private int checkNic()
    {
        final long now = System.nanoTime();
        if (!link.nicDead() && now - nextNicCheckNanos < 0)
        {
            return 0;
        }
        nextNicCheckNanos = now + NIC_CHECK_NANOS;
        if (link.checkAlive())
        {
            return 0;
        }
        if (!nicGoneReported)
        {
            nicGoneReported = true;
            // The NIC, the only writer of the log and the only reader of the send queues, is gone: this thread reads
            // what it left. The log first: a record it took is returned from there, never again from its queue.
            final long[] takenThrough = new long[2];
            int returned = InFlightLog.recover(block, queueBytes, replyReceiveQueue, this::returnUnresolved,
                takenThrough);
            returned += returnUntaken(replySendQueue, takenThrough[1]) +
                returnUntaken(requestSendQueue, takenThrough[0]);
            if (returned > 0)
            {
                return returned;
            }
        }
        throw nicGone();
    }

    AmException nicGone()
    {
        return new AmException(AmError.RESOURCE, "am2j net: the " + link.describe() + " died: what it had taken " +
            "from the send queues and not had acknowledged came back EOUTCOMEUNKNOWN (it may have run), what it had " +
            "not taken came back EUNREACHABLE; this process cannot use the network any more");
    }

    private void returnUnresolved(final AtomicBuffer records, final int index, final int peerIndex, final int body,
        final int bodyLength)
    {
        final Route back = routeBack(peerIndex, records, body);
        if (null != back)
        {
            records.putByte(body + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)ReturnStatus.EOUTCOMEUNKNOWN.code());
            sink.onMessage(new ReturnedRecord(back, records, body, bodyLength));
        }
    }

    /**
     * @param takenThrough records of the queue below this position were taken into the NIC's in-flight log.
     */
    private int returnUntaken(final RingBuffer queue, final long takenThrough)
    {
        int returned = 0;
        int read;
        do
        {
            // A read stops at the end of the ring; the next one takes what wrapped around. Within a read, a record's
            // position is the head's plus its distance from the head's index.
            final long head = queue.consumerPosition();
            final int headIndex = (int)(head & (queue.capacity() - 1));
            final int[] count = new int[1];
            read = queue.read((type, buffer, index, length) ->
            {
                final int body = index + QueueRecordDescriptor.BODY_OFFSET;
                final long position = head + (index - org.agrona.concurrent.ringbuffer.RecordDescriptor.HEADER_LENGTH -
                    headIndex);
                if (position < takenThrough || !InFlightLog.returnable(buffer, body))
                {
                    return;
                }
                final Route back = routeBack(buffer.getInt(index + QueueRecordDescriptor.PEER_OFFSET), buffer, body);
                if (null == back)
                {
                    return;
                }
                buffer.putByte(body + MessageDescriptor.RETURN_STATUS_OFFSET, (byte)ReturnStatus.EUNREACHABLE.code());
                sink.onMessage(new ReturnedRecord(buffer, index, length, back));
                count[0]++;
            });
            returned += count[0];
        }
        while (read > 0);
        return returned;
    }

    private Route routeBack(final int peerIndex, final DirectBuffer buffer, final int body)
    {
        final SharedNicRoute route;
        synchronized (forwardRoutes)
        {
            route = forwardRoutes.get(routeKey(peerIndex,
                buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET)));
        }
        return null != route ? route : routeAtOrNull(buffer, body);
    }

    private Route routeAtOrNull(final DirectBuffer buffer, final int body)
    {
        // A reply goes back by an inverse route: find the one to its destination.
        final int destination = buffer.getInt(body + MessageDescriptor.DESTINATION_ENDPOINT_OFFSET);
        for (final SharedNicRoute route : inverseRoutes)
        {
            if (null != route && route.remoteEndpointId == destination)
            {
                return route;
            }
        }
        return null;
    }

    /**
     * @param index from a receive queue record.
     * @return the inverse-mapping route it names, made when first seen from the NIC's route table in the block.
     */
    Route routeAt(final int index)
    {
        SharedNicRoute[] table = inverseRoutes;
        SharedNicRoute route = index < table.length ? table[index] : null;
        if (null == route)
        {
            final int entry = routeOffset(index);
            route = new SharedNicRoute(this, block.getInt(entry + ROUTE_PEER_OFFSET),
                block.getInt(entry + ROUTE_REMOTE_ID_OFFSET), null);
            route.inverseIndex = index;
            if (index >= table.length)
            {
                table = Arrays.copyOf(table, Math.max(index + 1, table.length * 2));
            }
            table[index] = route;
            // Volatile store of the table: another thread of this host that reads it finds the route complete.
            inverseRoutes = table;
        }
        return route;
    }

    /**
     * @param route an inverse route's index.
     * @return the name of the remote endpoint behind it, asked of the NIC.
     */
    EndpointName nameOf(final int route)
    {
        final int length = command(NicCommandDescriptor.NAME, NicCommandDescriptor.NAME_ROUTE_OFFSET + Integer.BYTES,
            (command) ->
            {
                command.buffer().putInt(command.offset() + NicCommandDescriptor.WIRE_ID_OFFSET, wireId);
                command.buffer().putInt(command.offset() + NicCommandDescriptor.NAME_ROUTE_OFFSET, route);
            });
        if (length <= 0 || length > MAX_REPLY_PAYLOAD)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        block.getBytes(REPLY_PAYLOAD_OFFSET, bytes);
        return EndpointName.fromBytes(bytes);
    }

    @Override
    public boolean hasPending()
    {
        return receiveQueues.pending() || (link.nicDead() && !nicGoneReported);
    }

    @Override
    public void sleeping(final boolean sleeping)
    {
        // Volatile store, then the caller's volatile reads of the receive queues: the Dekker pair with the NIC's
        // commit, fence, read of the flag.
        block.putIntVolatile(HOST_SLEEPING_OFFSET, sleeping ? 1 : 0);
    }

    @Override
    public void tagChanged(final long tag)
    {
        // Volatile store: the NIC checks requests that arrive from now on against it.
        block.putLongVolatile(TAG_OFFSET, tag);
    }

    @Override
    public void segmentChanged(final AtomicBuffer segment)
    {
        // Volatile store: the NIC checks long messages that arrive from now on against it.
        block.putLongVolatile(SEGMENT_LENGTH_OFFSET, null == segment ? 0 : segment.capacity());
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        // Volatile store: the NIC takes nothing more for the endpoint and returns what its receive queues hold.
        block.putIntVolatile(CLOSED_OFFSET, 1);
        if (!link.nicDead())
        {
            try
            {
                command(NicCommandDescriptor.CLOSE, NicCommandDescriptor.WIRE_ID_OFFSET + Integer.BYTES,
                    (command) -> command.buffer().putInt(command.offset() + NicCommandDescriptor.WIRE_ID_OFFSET, wireId));
            }
            catch (final AmException ex)
            {
                // The NIC is gone or does not answer: nothing of ours is left to return through it.
            }
        }
        // The NIC keeps its mapping until it has drained the queues; the name goes now.
        deleteFile();
    }

    private void deleteFile()
    {
        // A leftover block file of a dead pid is replaced by the next process that gets the pid.
        IoUtil.delete(file.toFile(), true);
    }

    ManyToOneRingBuffer sendQueue(final boolean replyChannel)
    {
        return replyChannel ? replySendQueue : requestSendQueue;
    }

    boolean isClosed()
    {
        return closed;
    }

    @Override
    public String toString()
    {
        return "net endpoint " + host.endpointId() + " (wire " + wireId + ") over the " + link.describe();
    }
}
