package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code AllKindsTest#emptyLongMessagesAreDelivered}, two ranks: rank 1 sends rank 0 a long request
 * with no data, rank 0 answers with a long reply with no data, first with both segments from
 * {@code allocateSegment} (shared memory), then with user segments (private memory). Each must run its handler
 * with segment offset as sent and 0 data bytes, like a long message with data; none may come back to handler 0.
 */
public final class EmptyLongMain
{
    private static int requests;
    private static int replies;

    public static void main(final String[] args)
    {
        RankSupport.main("EmptyLongMain", () ->
        {
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" +
                    job.rank());
                final int rank = job.rank();
                final Endpoint endpoint = bundle.allocateEndpoint();
                final UnsafeBuffer empty = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
                endpoint.tag(Tags.fresh());
                endpoint.handler(0, (token, msg) -> fail("rank " + rank + ": " + msg.opcode() + " with " +
                    msg.dataLength() + " bytes at segment offset " + msg.segmentOffset() + " came back: " +
                    msg.returnStatus()));
                endpoint.handler(1, (token, msg) ->
                {
                    checkEquals(0, msg.dataLength(), "rank 0: request data length");
                    checkEquals(100, msg.segmentOffset(), "rank 0: request segment offset");
                    requests++;
                    token.replyLong(2, empty, 0, 0, 200, msg.arg(0));
                });
                endpoint.handler(2, (token, msg) ->
                {
                    checkEquals(0, msg.dataLength(), "rank 1: reply data length");
                    checkEquals(200, msg.segmentOffset(), "rank 1: reply segment offset");
                    replies++;
                });
                Peers.mapAll(job, endpoint);
                check("shm".equals(endpoint.translationTransport(1 - rank)), "transport to the peer is shm");
                for (final String segments : new String[] { "shared", "user" })
                {
                    if ("shared".equals(segments))
                    {
                        endpoint.allocateSegment(4096);
                    }
                    else
                    {
                        endpoint.segment(new UnsafeBuffer(ByteBuffer.allocateDirect(4096)));
                    }
                    job.barrier();
                    final int before = 0 == rank ? requests : replies;
                    if (1 == rank)
                    {
                        checkEquals(Am.OK, endpoint.requestLong(0, 1, empty, 0, 0, 100, 7), "request");
                    }
                    final long deadline = RankSupport.deadline(10_000);
                    while ((0 == rank ? requests : replies) == before)
                    {
                        if (0 == bundle.poll())
                        {
                            check(!RankSupport.expired(deadline), "rank " + rank + ": nothing after 10 s");
                            RankSupport.idle(bundle, 1000);
                        }
                    }
                    System.out.println("rank " + rank + " ok with " + segments + " segments");
                    job.barrier();
                }
            }
        });
    }
}
