package org.am2j.net;

import static org.am2j.shm.RankSupport.check;

import java.nio.ByteBuffer;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of a job whose NIC process is killed: after a barrier every rank floods short requests (answered by
 * short replies) to the rank one node further on, and prints {@code flooding}; a message that comes back prints its
 * status ({@code returned EUNREACHABLE}, at most one line per status). It runs until the launcher stops it, or until a
 * poll fails because its NIC is gone, which it prints (and exits with 1).
 * <p>
 * Argument: ranks per node.
 */
public final class NicLossMain
{
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;

    private NicLossMain()
    {
    }

    public static void main(final String[] args)
    {
        RankSupport.main("NicLossMain", () -> run(Integer.parseInt(args[0])));
    }

    private static void run(final int perNode) throws Exception
    {
        final Job job = Spmd.init();
        final int rank = job.rank();
        final int size = job.size();
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + rank);
        final boolean[] reported = new boolean[256];
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, (token, msg) ->
            {
                final ReturnStatus status = msg.returnStatus();
                if (!reported[status.code()])
                {
                    reported[status.code()] = true;
                    System.out.println("rank " + rank + " returned " + status);
                    System.out.flush();
                }
            });
            endpoint.handler(H_REQUEST, (token, msg) -> token.reply(H_REPLY, msg.arg(0)));
            endpoint.handler(H_REPLY, (token, msg) -> { });
            final byte[] name = endpoint.name().toBytes();
            final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name)
                .array());
            for (int q = 0; q < all.length; q++)
            {
                final ByteBuffer buffer = ByteBuffer.wrap(all[q]);
                final long tag = buffer.getLong();
                final byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                endpoint.map(q, EndpointName.fromBytes(bytes), tag);
            }
            final int peer = (rank + perNode) % size;
            check(!endpoint.translationName(peer).node().equals(endpoint.name().node()), "peer on another node");
            check("net".equals(endpoint.translationTransport(peer)), "the network reaches the peer");
            job.barrier();
            System.out.println("rank " + rank + " flooding");
            System.out.flush();
            final long deadline = System.nanoTime() + 120_000_000_000L;
            int sent = 0;
            while (System.nanoTime() - deadline < 0)
            {
                endpoint.request(peer, H_REQUEST, sent++);
                bundle.poll();
            }
        }
    }
}
