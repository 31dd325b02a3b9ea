package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.am2j.api.EndpointName;
import org.am2j.spi.ShmDirectories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.am2j.net.EndpointBlockDescriptor.*;

/**
 * A shared NIC's control ring ({@link NicCommands}) driven directly: commands written as a host writes them, answers
 * read from the endpoint blocks, and the mapped layout shared by the two sides ({@link EndpointBlockDescriptor}).
 */
class NicCommandsTest
{
    private static final int QUEUE_BYTES = 4096;

    private Path directory;
    private NicAgent nic;
    private NicCounters counters;
    private ManyToOneRingBuffer ring;
    private NicCommands commands;
    private WakeSender waker;

    @BeforeEach
    void setUp()
    {
        directory = ShmDirectories.userRoot().resolve("nic-commands-" + ProcessHandle.current().pid() + "-" +
            System.nanoTime()).toAbsolutePath().normalize();
        ShmDirectories.create(directory);
        final NetConfig config = new NetConfig(new TestContext(5));
        counters = new NicCounters();
        nic = new NicAgent(config, new UdpWire(config.bind, config.host, 0, config.socketBytes, config.connectedPeers),
            5, counters, new ProcessLiveness(null));
        ring = new ManyToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            NicFileDescriptor.COMMAND_RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        waker = new WakeSender();
        commands = new NicCommands(nic, ring, directory, waker, QUEUE_BYTES);
    }

    @AfterEach
    void tearDown()
    {
        nic.onClose();
        waker.close();
        ShmDirectories.deleteTree(directory);
    }

    private UnsafeBuffer block(final String name, final long length) throws Exception
    {
        return new UnsafeBuffer(ShmDirectories.createMapped(directory.resolve(name), length));
    }

    private void register(final String name, final long sequence)
    {
        final byte[] path = name.getBytes(StandardCharsets.UTF_8);
        final int at = ring.tryClaim(NicCommandDescriptor.REGISTER, NicCommandDescriptor.REGISTER_PATH_OFFSET +
            path.length);
        ring.buffer().putLong(at + NicCommandDescriptor.SEQUENCE_OFFSET, sequence);
        ring.buffer().putLong(at + NicCommandDescriptor.REGISTER_PID_OFFSET, ProcessHandle.current().pid());
        ring.buffer().putInt(at + NicCommandDescriptor.REGISTER_PATH_LENGTH_OFFSET, path.length);
        ring.buffer().putBytes(at + NicCommandDescriptor.REGISTER_PATH_OFFSET, path);
        ring.commit(at);
    }

    @Test
    void registerMapsTheBlockAndAnswersAWireIdInIt() throws Exception
    {
        final UnsafeBuffer first = block("ep-1-0", length(QUEUE_BYTES));
        final UnsafeBuffer second = block("ep-1-1", length(QUEUE_BYTES));
        register("ep-1-0", 7);
        register("ep-1-1", 3);
        assertTrue(commands.pending());
        commands.doWork();
        assertFalse(commands.pending());
        assertEquals(7, first.getLongVolatile(REPLY_SEQUENCE_OFFSET));
        assertEquals(3, second.getLongVolatile(REPLY_SEQUENCE_OFFSET));
        final int firstId = first.getInt(REPLY_RESULT_OFFSET);
        final int secondId = second.getInt(REPLY_RESULT_OFFSET);
        assertTrue(firstId > 0 && secondId > 0 && firstId != secondId, firstId + " " + secondId);
        assertEquals(firstId, first.getInt(WIRE_ID_OFFSET));
        assertEquals(2, commands.endpoints());
    }

    @Test
    void aBlockOfAnotherQueueSizeIsRefusedWithTheReason() throws Exception
    {
        final UnsafeBuffer wrong = block("ep-1-0", length(QUEUE_BYTES * 2));
        register("ep-1-0", 1);
        commands.doWork();
        assertEquals(1, wrong.getLongVolatile(REPLY_SEQUENCE_OFFSET));
        assertEquals(-1, wrong.getInt(REPLY_RESULT_OFFSET));
        final String why = wrong.getStringWithoutLengthUtf8(REPLY_PAYLOAD_OFFSET, wrong.getInt(REPLY_LENGTH_OFFSET));
        assertTrue(why.contains("am2j.net.queueBytes"), why);
        assertEquals(0, commands.endpoints());
    }

    @Test
    void aPathOutsideTheDirectoryAndAnUnknownCommandAreMalformed() throws Exception
    {
        register("../escape", 1);
        final int at = ring.tryClaim(99, 8);
        ring.commit(at);
        commands.doWork();
        assertEquals(2, counters.get(NicEvent.MALFORMED));
        assertEquals(0, commands.endpoints());
    }

    @Test
    void connectAnswersThePeerAndCloseUnregisters() throws Exception
    {
        final UnsafeBuffer block = block("ep-1-0", length(QUEUE_BYTES));
        register("ep-1-0", 1);
        commands.doWork();
        final int wireId = block.getInt(REPLY_RESULT_OFFSET);

        final NetConfig config = new NetConfig(new TestContext(6));
        final NicAgent other = new NicAgent(config, new UdpWire(config.bind, config.host, 0, config.socketBytes,
            config.connectedPeers), 6, new NicCounters(), new ProcessLiveness(null));
        try
        {
            final String address = other.publishedAddress();
            final EndpointName name = new EndpointName("node-6", 6, 1, 3, Map.of(NetTransport.NAME, address));
            connect(wireId, 3, 6, address, name.toBytes(), 2);
            connect(wireId, 3, 6, "not an address", name.toBytes(), 3);
            commands.doWork();
            // Only the last answer stays in the block: the malformed address is refused.
            assertEquals(3, block.getLongVolatile(REPLY_SEQUENCE_OFFSET));
            assertEquals(-1, block.getInt(REPLY_RESULT_OFFSET));
            connect(wireId, 3, 6, address, name.toBytes(), 4);
            commands.doWork();
            assertEquals(4, block.getLongVolatile(REPLY_SEQUENCE_OFFSET));
            final int peer = block.getInt(REPLY_RESULT_OFFSET);
            assertTrue(peer >= 0);
            assertEquals(name, nic.peer(6).name(3));
        }
        finally
        {
            other.onClose();
        }

        final int at = ring.tryClaim(NicCommandDescriptor.CLOSE, NicCommandDescriptor.WIRE_ID_OFFSET + 4);
        ring.buffer().putLong(at + NicCommandDescriptor.SEQUENCE_OFFSET, 5);
        ring.buffer().putInt(at + NicCommandDescriptor.WIRE_ID_OFFSET, wireId);
        ring.commit(at);
        commands.doWork();
        assertEquals(5, block.getLongVolatile(REPLY_SEQUENCE_OFFSET));
        assertEquals(0, commands.endpoints());
    }

    private void connect(final int wireId, final int remoteId, final long nicId, final String address,
        final byte[] name, final long sequence)
    {
        final byte[] text = address.getBytes(StandardCharsets.UTF_8);
        final int at = ring.tryClaim(NicCommandDescriptor.CONNECT, NicCommandDescriptor.CONNECT_ADDRESS_OFFSET +
            text.length + 4 + name.length);
        final UnsafeBuffer buffer = (UnsafeBuffer)ring.buffer();
        buffer.putLong(at + NicCommandDescriptor.SEQUENCE_OFFSET, sequence);
        buffer.putInt(at + NicCommandDescriptor.WIRE_ID_OFFSET, wireId);
        buffer.putInt(at + NicCommandDescriptor.CONNECT_REMOTE_ID_OFFSET, remoteId);
        buffer.putLong(at + NicCommandDescriptor.CONNECT_NIC_ID_OFFSET, nicId);
        buffer.putInt(at + NicCommandDescriptor.CONNECT_ADDRESS_LENGTH_OFFSET, text.length);
        buffer.putBytes(at + NicCommandDescriptor.CONNECT_ADDRESS_OFFSET, text);
        buffer.putInt(at + NicCommandDescriptor.CONNECT_ADDRESS_OFFSET + text.length, name.length);
        buffer.putBytes(at + NicCommandDescriptor.CONNECT_ADDRESS_OFFSET + text.length + 4, name);
        ring.commit(at);
    }

    @Test
    void theLayoutKeepsItsPartsApartAndAligned()
    {
        final int[] header = {TAG_OFFSET, HOST_SLEEPING_OFFSET, CLOSED_OFFSET, SEGMENT_LENGTH_OFFSET, WAKE_PORT_OFFSET,
            WIRE_ID_OFFSET, HOST_PID_OFFSET, REPLY_SEQUENCE_OFFSET, REPLY_RESULT_OFFSET, REPLY_LENGTH_OFFSET,
            REPLY_PAYLOAD_OFFSET};
        for (int i = 1; i < header.length; i++)
        {
            assertTrue(header[i] > header[i - 1], "fields in order at " + header[i]);
        }
        assertTrue(REPLY_PAYLOAD_OFFSET + MAX_REPLY_PAYLOAD <= ROUTE_TABLE_OFFSET);
        assertEquals(RINGS_OFFSET, routeOffset(ROUTES));
        for (int r = REQUEST_SEND; r <= REPLY_RECEIVE; r++)
        {
            assertEquals(0, ringOffset(r, QUEUE_BYTES) % 64, "ring " + r + " on a cache line");
            assertEquals(ringOffset(r, QUEUE_BYTES) + QUEUE_BYTES + RingBufferDescriptor.TRAILER_LENGTH,
                ringOffset(r + 1, QUEUE_BYTES));
        }
        assertEquals(ringOffset(4, QUEUE_BYTES), inFlightOffset(QUEUE_BYTES));
        assertEquals(0, inFlightOffset(QUEUE_BYTES) % 64, "the in-flight log on a cache line");
        assertEquals(inFlightOffset(QUEUE_BYTES) + InFlightLogDescriptor.HEADER_LENGTH + QUEUE_BYTES,
            length(QUEUE_BYTES));
        assertTrue(NicFileDescriptor.ADDRESS_OFFSET + NicFileDescriptor.MAX_ADDRESS_LENGTH <=
            NicFileDescriptor.COMMAND_RING_OFFSET);
    }

    @Test
    void twoMappingsOfABlockShareItsRingsAndFields() throws Exception
    {
        final UnsafeBuffer host = block("ep-1-0", length(QUEUE_BYTES));
        final UnsafeBuffer nicSide;
        try (FileChannel channel = FileChannel.open(directory.resolve("ep-1-0"), StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            nicSide = new UnsafeBuffer(channel.map(FileChannel.MapMode.READ_WRITE, 0, length(QUEUE_BYTES)));
        }
        final int at = ringOffset(REQUEST_RECEIVE, QUEUE_BYTES);
        final int bytes = QUEUE_BYTES + RingBufferDescriptor.TRAILER_LENGTH;
        final OneToOneRingBuffer writer = new OneToOneRingBuffer(new UnsafeBuffer(nicSide, at, bytes));
        final OneToOneRingBuffer reader = new OneToOneRingBuffer(new UnsafeBuffer(host, at, bytes));
        final UnsafeBuffer record = new UnsafeBuffer(new byte[] {1, 2, 3, 4});
        assertTrue(writer.write(QueueRecordDescriptor.MESSAGE_TYPE, record, 0, 4));
        final int[] read = new int[1];
        assertEquals(1, reader.read((type, buffer, index, length) -> read[0] = buffer.getInt(index)));
        assertEquals(record.getInt(0), read[0]);
        host.putLongVolatile(TAG_OFFSET, 0x1234);
        assertEquals(0x1234, nicSide.getLongVolatile(TAG_OFFSET));
    }
}
