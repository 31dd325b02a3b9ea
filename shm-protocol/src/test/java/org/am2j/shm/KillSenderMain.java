package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.spi.ProcessIdentity;

/**
 * A sender of {@code KilledSenderTest}, started without a launcher, in one of three modes:
 * <ul>
 *   <li>{@code live}: sends requests to the receiver (at most {@link #WINDOW} unanswered) until
 *       {@code <dir>/stop-sending} exists, then a "done" message with its total; checks every reply, in order, and
 *       waits for all of them;</li>
 *   <li>{@code victim}: floods the receiver without waiting for replies, writes {@code <dir>/<id>.ready} after its
 *       first messages, and runs until it is killed; {@code victim-quiet} the same without polling for the replies
 *       (only the back-off of a full queue polls), so its reply queue is full much of the time;</li>
 *   <li>{@code sweep}: allocates and frees an endpoint (its start-up removes files of dead processes);</li>
 *   <li>{@code stuck-<step>}: leaves the receiver's queue as a sender killed inside a send step would, then waits
 *       to be killed (see {@link #stuck}); {@code stuck-replies} sends requests and never polls for their replies
 *       (see {@link #stuckWithRepliesPending}).</li>
 * </ul>
 * Usage: {@code KillSenderMain dir id live|victim|victim-quiet|sweep|stuck-<step>}.
 */
public final class KillSenderMain
{
    static final int WINDOW = 32;
    /** Requests a {@code stuck-replies} victim leaves behind. */
    static final int PENDING_REQUESTS = 40;

    private final int id;
    private final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
    private int nextReply;
    private boolean doneReplied;
    /** Send times of the unanswered requests of a live sender, by sequence number modulo the window. */
    private final long[] sentNs = new long[WINDOW];
    private long maxRttNs;

    private KillSenderMain(final int id)
    {
        this.id = id;
    }

    public static void main(final String[] args)
    {
        RankSupport.main("KillSenderMain", () ->
        {
            final Path dir = Path.of(args[0]);
            final int id = Integer.parseInt(args[1]);
            final String mode = args[2];
            System.out.println("sender " + id + " pid=" + ProcessIdentity.currentPid() + " " + mode);
            if ("sweep".equals(mode))
            {
                try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
                {
                    bundle.allocateEndpoint().tag(Tags.fresh());
                }
                System.out.println("sweeper ok");
                return;
            }
            if ("stuck-replies".equals(mode))
            {
                new KillSenderMain(id).stuckWithRepliesPending(dir);
                return;
            }
            if (mode.startsWith("stuck-"))
            {
                new KillSenderMain(id).stuck(dir, mode.substring("stuck-".length()));
                return;
            }
            new KillSenderMain(id).run(dir, mode);
        });
    }

    private void run(final Path dir, final String mode) throws Exception
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, (token, msg) -> fail("sender " + id + ": returned message " + msg.returnStatus() +
                " " + msg.opcode() + (msg.argCount() > 1 ? " seq " + msg.arg(1) : "")));
            endpoint.handler(KillReceiverMain.H_REPLY, this::onReply);
            endpoint.handler(KillReceiverMain.H_DONE_REPLY, (token, msg) -> doneReplied = true);
            mapReceiver(dir, endpoint);
            if (mode.startsWith("victim"))
            {
                flood(dir, bundle, endpoint, "victim-quiet".equals(mode));
            }
            else
            {
                sendUntilStopped(dir, bundle, endpoint);
            }
        }
    }

    private static void mapReceiver(final Path dir, final Endpoint endpoint) throws Exception
    {
        final Path nameFile = dir.resolve("receiver.name");
        final long deadline = RankSupport.deadline(20_000);
        while (!Files.exists(nameFile))
        {
            if (RankSupport.expired(deadline))
            {
                fail("no " + nameFile + " after 20 s");
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        try (InputStream file = Files.newInputStream(nameFile); DataInputStream in = new DataInputStream(file))
        {
            final long tag = in.readLong();
            final byte[] name = new byte[in.readInt()];
            in.readFully(name);
            endpoint.map(0, EndpointName.fromBytes(name), tag);
        }
        checkEquals(0, "shm".equals(endpoint.translationTransport(0)) ? 0 : 1, "transport to the receiver is shm");
    }

    private void send(final Endpoint endpoint, final int seq)
    {
        final boolean medium = 0 == seq % 2;
        final int length = medium ? KillReceiverMain.mediumLength(seq) : 0;
        if (medium)
        {
            RankSupport.fill(data, 0, length, pattern(id, seq, -1, KillReceiverMain.SALT));
        }
        final int status = endpoint.requestN(0, medium ? MessageCategory.MEDIUM : MessageCategory.SHORT,
            medium ? KillReceiverMain.H_MEDIUM : KillReceiverMain.H_SHORT, medium ? data : null, 0, length, -1,
            false, 2 + seq % 3, id, seq, pattern(id, seq, 2, KillReceiverMain.SALT),
            pattern(id, seq, 3, KillReceiverMain.SALT), 0, 0, 0, 0);
        checkEquals(Am.OK, status, "sender " + id + ": request " + seq);
    }

    private void flood(final Path dir, final Bundle bundle, final Endpoint endpoint, final boolean quiet)
        throws IOException
    {
        final long deadline = RankSupport.deadline(60_000);
        for (int seq = 0; ; seq++)
        {
            send(endpoint, seq);
            if (20 == seq)
            {
                Files.createFile(dir.resolve(id + ".ready"));
            }
            if (0 == (seq & 63))
            {
                if (!quiet)
                {
                    bundle.poll();
                }
                if (RankSupport.expired(deadline))
                {
                    fail("victim " + id + " was not killed within 60 s");
                }
            }
        }
    }

    private void sendUntilStopped(final Path dir, final Bundle bundle, final Endpoint endpoint)
    {
        final Path stop = dir.resolve("stop-sending");
        final long deadline = RankSupport.deadline(100_000);
        int sent = 0;
        long iterations = 0;
        while (true)
        {
            if (0 == (++iterations & 127) && Files.exists(stop))
            {
                break;
            }
            if (RankSupport.expired(deadline))
            {
                fail("sender " + id + ": no stop-sending after 100 s");
            }
            final int polled = bundle.poll();
            if (sent - nextReply < WINDOW)
            {
                sentNs[sent % WINDOW] = System.nanoTime();
                send(endpoint, sent++);
            }
            else if (0 == polled)
            {
                RankSupport.idle(bundle, 1000);
            }
        }
        checkEquals(Am.OK, endpoint.request(0, KillReceiverMain.H_DONE, id, sent), "sender " + id + ": done");
        final long end = RankSupport.deadline(30_000);
        while (nextReply < sent || !doneReplied)
        {
            if (0 == bundle.poll())
            {
                if (RankSupport.expired(end))
                {
                    fail("sender " + id + ": " + nextReply + " replies of " + sent + " after 30 s, done reply " +
                        doneReplied);
                }
                RankSupport.idle(bundle, 1000);
            }
        }
        System.out.println("sender " + id + " ok: sent " + sent + ", replies " + nextReply + ", maxRttMs=" +
            maxRttNs / 1_000_000 + ", backoffs " +
            endpoint.statistics().get("shm", EndpointStatistics.Counter.QUEUE_FULL_BACKOFFS));
    }

    /**
     * Do part of the paper's five send steps by hand on the receiver's request queue, as a sender that is killed in
     * the middle of a send leaves it, then wait to be killed:
     * <ul>
     *   <li>{@code assigned}: took a packet assignment (tail CAS), never claimed the packet;</li>
     *   <li>{@code claimed}: claimed the packet (its claim word CLAIMED with the lap and our pid), filled it, never
     *       made it ready;</li>
     *   <li>{@code bulk}: claimed a bulk block, never took a packet;</li>
     *   <li>{@code bulk-ready}: bulk block filled and READY, packet claimed and filled, never made ready.</li>
     * </ul>
     */
    private void stuck(final Path dir, final String step) throws Exception
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            mapReceiver(dir, endpoint);
            final String path = endpoint.translationName(0).address(ShmTransport.NAME);
            final MappedRegion region = MappedRegion.open(Path.of(path));
            final QueueBlock block = QueueBlock.wrap(region.buffer, "receiver queue block");
            final PacketQueue queue = block.requests;
            final UnsafeBuffer buffer = queue.buffer;
            final long pid = ProcessIdentity.currentPid();
            int bulk = PacketDescriptor.NO_BULK;
            if (step.startsWith("bulk"))
            {
                bulk = claimBulk(queue, pid);
            }
            if (!"bulk".equals(step))
            {
                final long deadline = RankSupport.deadline(20_000);
                while (true)
                {
                    final long tail = buffer.getLongVolatile(queue.tailOffset);
                    final int packet = queue.packetOffset(tail);
                    final long state = buffer.getLongVolatile(packet + PacketDescriptor.STATE_OFFSET);
                    final long free = QueueBlockDescriptor.state(PacketDescriptor.FREE,
                        tail >>> Integer.numberOfTrailingZeros(queue.depth));
                    if (state == free && buffer.compareAndSetLong(queue.tailOffset, tail, tail + 1))
                    {
                        if (!"assigned".equals(step))
                        {
                            final int claim = queue.claimOffset(tail);
                            check(buffer.compareAndSetLong(claim, buffer.getLongVolatile(claim),
                                QueueBlockDescriptor.claim(queue.lap(tail), pid)), "claim of packet " + tail);
                            buffer.putByte(packet + PacketDescriptor.OPCODE_OFFSET,
                                (byte)org.am2j.api.Opcode.REQUEST_MEDIUM.code());
                            buffer.putByte(packet + PacketDescriptor.HANDLER_OFFSET, (byte)KillReceiverMain.H_MEDIUM);
                            buffer.putByte(packet + PacketDescriptor.ARG_COUNT_OFFSET, (byte)2);
                            buffer.putShort(packet + PacketDescriptor.BULK_INDEX_OFFSET, (short)bulk);
                            buffer.putShort(packet + PacketDescriptor.DATA_LENGTH_OFFSET,
                                (short)(PacketDescriptor.NO_BULK == bulk ? 0 : 100));
                            buffer.putInt(packet + PacketDescriptor.ARGS_OFFSET, id);
                            buffer.putInt(packet + PacketDescriptor.ARGS_OFFSET + 4, 0);
                            if (PacketDescriptor.NO_BULK != bulk)
                            {
                                buffer.putLongRelease(queue.bulkFlagOffset(bulk),
                                    QueueBlockDescriptor.state(QueueBlockDescriptor.BULK_READY, pid));
                            }
                        }
                        System.out.println("stuck " + id + ": " + step + " at sequence " + tail + ", bulk " + bulk);
                        break;
                    }
                    check(!RankSupport.expired(deadline), "stuck " + id + ": no free packet within 20 s");
                    Thread.onSpinWait();
                }
            }
            else
            {
                System.out.println("stuck " + id + ": " + step + " " + bulk);
            }
            Files.createFile(dir.resolve(id + ".ready"));
            TimeUnit.SECONDS.sleep(60);
            fail("stuck " + id + " was not killed within 60 s");
        }
    }

    /**
     * Send {@link #PENDING_REQUESTS} requests and never poll for their replies: once this process's reply
     * queue is full, the receiver's next reply to it waits, and when this process is killed, every request of it
     * still queued at the receiver has a reply that can never be delivered.
     */
    private void stuckWithRepliesPending(final Path dir) throws Exception
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(KillReceiverMain.H_REPLY, this::onReply);
            mapReceiver(dir, endpoint);
            for (int seq = 0; seq < PENDING_REQUESTS; seq++)
            {
                send(endpoint, seq);
            }
            System.out.println("stuck " + id + ": " + PENDING_REQUESTS + " requests sent, not polling");
            Files.createFile(dir.resolve(id + ".ready"));
            TimeUnit.SECONDS.sleep(60);
            fail("stuck " + id + " was not killed within 60 s");
        }
    }

    private static int claimBulk(final PacketQueue queue, final long pid)
    {
        final long deadline = RankSupport.deadline(20_000);
        while (true)
        {
            for (int i = 0; i < queue.bulkDepth; i++)
            {
                final int flag = queue.bulkFlagOffset(i);
                final long current = queue.buffer.getLongVolatile(flag);
                if (QueueBlockDescriptor.BULK_FREE == QueueBlockDescriptor.type(current) &&
                    queue.buffer.compareAndSetLong(flag, current,
                    QueueBlockDescriptor.state(QueueBlockDescriptor.BULK_CLAIMED, pid)))
                {
                    return i;
                }
            }
            check(!RankSupport.expired(deadline), "no free bulk block within 20 s");
            Thread.onSpinWait();
        }
    }

    private void onReply(final Token token, final Message msg)
    {
        checkEquals(id, msg.arg(0), "sender " + id + ": reply for sender");
        if (msg.arg(1) != nextReply)
        {
            fail("sender " + id + ": reply " + msg.arg(1) + ", expected " + nextReply);
        }
        maxRttNs = Math.max(maxRttNs, System.nanoTime() - sentNs[nextReply % WINDOW]);
        nextReply++;
    }
}
