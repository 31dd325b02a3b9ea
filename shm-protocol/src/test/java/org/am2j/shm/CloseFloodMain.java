package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.spi.ProcessIdentity;

/**
 * A process of {@code CloseFloodTest}, started without a launcher, in one of two roles:
 * <ul>
 *   <li>{@code receiver <dir> <peers> <deliverBeforeClose>}: writes its endpoint's tag and name to
 *       {@code <dir>/receiver.name}, delivers requests (arguments: peer id, sequence number) until all peers are
 *       flooding and it has delivered {@code deliverBeforeClose}, stops polling for a moment so that its queues fill,
 *       frees the endpoint (which returns what is queued), then writes the sequence numbers it delivered of each peer
 *       to {@code <dir>/delivered-<id>} and creates {@code <dir>/receiver.done};</li>
 *   <li>{@code peer <dir> <id> <count> <peers>}: once every peer has mapped the receiver, floods it with
 *       {@code count} requests, short and medium, polling
 *       its bundle for returned ones (each must be EBADENDPOINT), then, once the receiver is done, polls until every
 *       request is accounted for (delivered at the receiver or returned to it) and writes what came back to
 *       {@code <dir>/returned-<id>}.</li>
 * </ul>
 * Each side counts a sequence number seen twice as a duplicate, and fails on anything unexpected.
 */
public final class CloseFloodMain
{
    static final int H_REQUEST = 1;
    private static final long WAIT_MS = 60_000;
    private static final long ACCOUNT_MS = 10_000;

    private CloseFloodMain()
    {
    }

    public static void main(final String[] args)
    {
        RankSupport.main("CloseFloodMain " + String.join(" ", args), () ->
        {
            final Path dir = Path.of(args[1]);
            if ("receiver".equals(args[0]))
            {
                receive(dir, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            }
            else
            {
                flood(dir, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
            }
        });
    }

    private static void receive(final Path dir, final int peers, final int deliverBeforeClose) throws Exception
    {
        final BitSet[] delivered = new BitSet[peers];
        for (int i = 0; i < peers; i++)
        {
            delivered[i] = new BitSet();
        }
        final long[] duplicates = new long[1];
        final long[] total = new long[1];
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, (token, msg) -> fail("receiver: returned message " + msg.returnStatus()));
            endpoint.handler(H_REQUEST, (token, msg) ->
            {
                final int id = msg.arg(0);
                final int seq = msg.arg(1);
                check(id >= 0 && id < peers && seq >= 0, "receiver: request from peer " + id + " seq " + seq);
                checkEquals(lengthOf(seq), msg.dataLength(), "receiver: data length of seq " + seq);
                if (delivered[id].get(seq))
                {
                    duplicates[0]++;
                }
                delivered[id].set(seq);
                total[0]++;
            });
            writeName(dir, endpoint);
            System.out.println("receiver pid=" + ProcessIdentity.currentPid() + " " + endpoint.name());

            final long deadline = RankSupport.deadline(WAIT_MS);
            while (total[0] < deliverBeforeClose || !allReady(dir, peers))
            {
                if (RankSupport.expired(deadline))
                {
                    fail("receiver: delivered " + total[0] + " of " + deliverBeforeClose + " in " + WAIT_MS + " ms");
                }
                if (0 == bundle.poll())
                {
                    Thread.onSpinWait();
                }
            }
            // The peers go on flooding: the queues fill, and hold what the close must return.
            TimeUnit.MILLISECONDS.sleep(100);
            final long closeStart = System.nanoTime();
            endpoint.close();
            System.out.println("receiver: delivered " + total[0] + " duplicates " + duplicates[0] + ", freed in " +
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStart) + " ms, drops " +
                endpoint.statistics().total(org.am2j.api.EndpointStatistics.Counter.DROPS));
            checkEquals(0, duplicates[0], "receiver: requests delivered twice");
            for (int i = 0; i < peers; i++)
            {
                writeSet(dir.resolve("delivered-" + i), delivered[i]);
            }
            Files.createFile(dir.resolve("receiver.done"));
            System.out.println("receiver ok");
        }
    }

    private static boolean allReady(final Path dir, final int peers)
    {
        for (int i = 0; i < peers; i++)
        {
            if (!Files.exists(dir.resolve("ready-" + i)))
            {
                return false;
            }
        }
        return true;
    }

    private static void flood(final Path dir, final int id, final int count, final int peers) throws Exception
    {
        final BitSet returned = new BitSet();
        final long[] counts = new long[3];
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            mapReceiver(dir, endpoint);
            endpoint.handler(0, (token, msg) ->
            {
                check(ReturnStatus.EBADENDPOINT == msg.returnStatus(), "peer " + id + ": returned with " +
                    msg.returnStatus());
                check(msg.argCount() == 2 && msg.arg(0) == id, "peer " + id + ": returned arguments");
                final int seq = msg.arg(1);
                if (returned.get(seq))
                {
                    counts[0]++;
                }
                returned.set(seq);
                // Refused at our send (returned through our own in-process queue, so from ourselves) or returned by
                // the receiver's close (through our queue block).
                counts[endpoint.name().equals(token.sourceName()) ? 2 : 1]++;
            });
            // All peers start together, so the receiver is freed while every one of them floods it.
            Files.createFile(dir.resolve("ready-" + id));
            final long start = RankSupport.deadline(WAIT_MS);
            while (!allReady(dir, peers))
            {
                if (RankSupport.expired(start))
                {
                    fail("peer " + id + ": the other peers were not ready after " + WAIT_MS + " ms");
                }
                TimeUnit.MILLISECONDS.sleep(1);
            }
            final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            for (int seq = 0; seq < count; seq++)
            {
                final int length = lengthOf(seq);
                if (0 == length)
                {
                    endpoint.request(0, H_REQUEST, id, seq);
                }
                else
                {
                    endpoint.requestMedium(0, H_REQUEST, data, 0, length, id, seq);
                }
                if (0 == seq % 16)
                {
                    bundle.poll();
                }
            }
            final long deadline = RankSupport.deadline(WAIT_MS);
            while (!Files.exists(dir.resolve("receiver.done")))
            {
                if (RankSupport.expired(deadline))
                {
                    fail("peer " + id + ": the receiver was not done after " + WAIT_MS + " ms");
                }
                bundle.poll();
                TimeUnit.MILLISECONDS.sleep(1);
            }
            final BitSet delivered = readSet(dir.resolve("delivered-" + id));
            // Everything the receiver returned is in our queue by now: a short wait covers scheduling.
            final long accounted = RankSupport.deadline(ACCOUNT_MS);
            while (delivered.cardinality() + returned.cardinality() < count)
            {
                if (RankSupport.expired(accounted))
                {
                    fail("peer " + id + ": " + delivered.cardinality() + " delivered + " + returned.cardinality() +
                        " returned of " + count + " sent, " + ACCOUNT_MS + " ms after the receiver was done");
                }
                if (0 == bundle.poll())
                {
                    TimeUnit.MILLISECONDS.sleep(1);
                }
            }
            // Anything more would come back twice; give it a moment to show.
            final long settle = RankSupport.deadline(100);
            while (!RankSupport.expired(settle))
            {
                bundle.poll();
            }
            checkEquals(returned.cardinality() + counts[0], endpoint.statistics().returned(ReturnStatus.EBADENDPOINT),
                "peer " + id + ": returned-message statistics");
            writeSet(dir.resolve("returned-" + id), returned);
            System.out.println("peer " + id + " ok: sent " + count + " delivered " + delivered.cardinality() +
                " returned " + returned.cardinality() + " (by the close " + counts[1] + ", at the send " + counts[2] +
                ") duplicates " + counts[0]);
        }
    }

    /**
     * @param seq a sequence number.
     * @return the data length of its request: a medium message every sixteenth one (there are fewer bulk blocks than
     * packets), else a short one.
     */
    static int lengthOf(final int seq)
    {
        return 0 == seq % 16 ? 1 + seq % 61 : 0;
    }

    private static void mapReceiver(final Path dir, final Endpoint endpoint) throws Exception
    {
        final Path nameFile = dir.resolve("receiver.name");
        final long deadline = RankSupport.deadline(WAIT_MS);
        while (!Files.exists(nameFile))
        {
            if (RankSupport.expired(deadline))
            {
                fail("no " + nameFile + " after " + WAIT_MS + " ms");
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        try (InputStream file = Files.newInputStream(nameFile); DataInputStream in = new DataInputStream(file))
        {
            final long tag = in.readLong();
            final byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            endpoint.map(0, EndpointName.fromBytes(bytes), tag);
            checkEquals(0, "shm".equals(endpoint.translationTransport(0)) ? 0 : 1, "transport to the receiver is shm");
        }
    }

    private static void writeName(final Path dir, final Endpoint endpoint) throws IOException
    {
        final Path tmp = dir.resolve("receiver.name.tmp");
        final byte[] name = endpoint.name().toBytes();
        try (OutputStream file = Files.newOutputStream(tmp); DataOutputStream out = new DataOutputStream(file))
        {
            out.writeLong(endpoint.tag());
            out.writeInt(name.length);
            out.write(name);
        }
        Files.move(tmp, dir.resolve("receiver.name"), StandardCopyOption.ATOMIC_MOVE);
    }

    static void writeSet(final Path file, final BitSet set) throws IOException
    {
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, set.toByteArray());
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    static BitSet readSet(final Path file) throws IOException
    {
        return BitSet.valueOf(Files.readAllBytes(file));
    }
}
