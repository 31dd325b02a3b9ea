package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code TruncationTest}, two ranks. Rank 1 floods rank 0 with short, medium and long requests (each
 * answered by a reply) and, in the middle of the flood, tries to truncate every shared file both ranks use: rank 0's
 * queue block, segment and doorbell, and its own queue block and doorbell, to nothing and to one page less. Each
 * truncation must be refused by the kernel (the files are sealed), and the flood must end with every request
 * answered: no process faulted, nothing was lost.
 * <p>
 * Arguments: the number of requests.
 */
public final class TruncationMain
{
    static final int H_REQUEST = 5;
    static final int H_REPLY = 6;
    static final int H_DONE = 7;
    static final int SEGMENT = 64 * 1024;

    private static final RequestReplyCounts COUNTS = new RequestReplyCounts(H_REQUEST, H_REPLY, H_DONE);

    public static void main(final String[] args)
    {
        final int requests = Integer.parseInt(args[0]);
        RankSupport.main("TruncationMain", () ->
        {
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                final Endpoint endpoint = RankSupport.twoRankEndpoint("TruncationMain", job, bundle);
                endpoint.handler(0, (token, msg) -> fail("rank " + job.rank() + ": returned " + msg.returnStatus()));
                COUNTS.installRequestReply(endpoint);
                if (0 == job.rank())
                {
                    endpoint.allocateSegment(SEGMENT);
                }
                Peers.mapAll(job, endpoint);
                job.barrier();
                if (0 == job.rank())
                {
                    COUNTS.serveUntilDone(bundle, 60_000);
                    System.out.println("rank 0 ok: handled " + COUNTS.handled);
                }
                else
                {
                    flood(job, bundle, endpoint, requests);
                }
                job.barrier();
            }
        });
    }

    private static void flood(final Job job, final Bundle bundle, final Endpoint endpoint, final int requests)
    {
        final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
        RankSupport.fill(data, 0, Am.MAX_MEDIUM, 77);
        final long deadline = RankSupport.deadline(60_000);
        int sent = 0;
        boolean attacked = false;
        while (sent < requests)
        {
            if (!attacked && sent >= requests / 2)
            {
                attack(endpoint);
                attacked = true;
            }
            RankSupport.requestOfEachKind(endpoint, H_REQUEST, data, sent, 256, SEGMENT);
            sent++;
            bundle.poll();
            if (RankSupport.expired(deadline))
            {
                throw RankSupport.fail("rank 1: sent " + sent + " replies " + COUNTS.replies);
            }
        }
        RankSupport.pollUntil(bundle, () -> COUNTS.replies >= requests, deadline,
            () -> "rank 1: replies " + COUNTS.replies + " of " + requests);
        checkEquals(Am.OK, endpoint.request(0, H_DONE), "rank 1: done");
        bundle.poll();
        System.out.println("rank 1 ok: " + COUNTS.replies + " replies of " + requests + " requests");
    }

    /**
     * Try to truncate every file both ranks map; each attempt must fail.
     */
    private static void attack(final Endpoint endpoint)
    {
        final String peerAddress = endpoint.translationName(0).address(ShmTransport.NAME);
        final String ownAddress = endpoint.name().address(ShmTransport.NAME);
        check(null != peerAddress && null != ownAddress, "rank 1: no shm addresses");
        final List<String> targets = new ArrayList<>();
        targets.add(peerAddress);
        targets.add(ownAddress);
        final MappedRegion peer = MappedRegion.open(Path.of(peerAddress));
        final QueueBlock peerBlock = QueueBlock.wrap(peer.buffer, "rank 0's queue block");
        targets.add(peerBlock.segmentPath());
        targets.add(peerBlock.doorbellPath());
        final MappedRegion own = MappedRegion.open(Path.of(ownAddress));
        targets.add(QueueBlock.wrap(own.buffer, "rank 1's queue block").doorbellPath());
        for (final String target : targets)
        {
            check(null != target && !target.isEmpty(), "rank 1: a file without an address: " + targets);
            try (FileChannel channel = FileChannel.open(Path.of(target), StandardOpenOption.WRITE))
            {
                final long size = channel.size();
                for (final long length : new long[] { 0, Math.max(0, size - 4096) })
                {
                    try
                    {
                        channel.truncate(length);
                        fail("rank 1: truncating " + target + " to " + length + " bytes was allowed (size now " +
                            channel.size() + ")");
                    }
                    catch (final IOException expected)
                    {
                        checkEquals(size, channel.size(), "rank 1: size of " + target + " after a refused truncation");
                    }
                }
            }
            catch (final IOException ex)
            {
                fail("rank 1: cannot open " + target + " to truncate it: " + ex);
            }
        }
        System.out.println("rank 1: truncation refused for " + targets.size() + " files");
    }
}
