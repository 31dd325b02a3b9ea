package org.am2j.api;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * The SPMD program of README.md, from "README SPMD example begins" to its end, as the README shows it; only the
 * printing goes through {@code out} so that the test can read it ({@code System.out::println} in the README).
 */
final class ReadmeSpmdExample
{
    private ReadmeSpmdExample()
    {
    }

    // README SPMD example begins
    public static void main(final String[] args)
    {
        try (Job job = Spmd.init())                   // rank and size from the launcher; waits for every rank
        {
            rank(job, System.out::println);
        }
    }

    static void rank(final Job job, final Consumer<String> out)
    {
        final int me = job.rank();
        final int peers = job.size() - 1;
        final int[] greeted = { 0 };
        final int[] replies = { 0 };
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint ep = bundle.allocateEndpoint();
            ep.tag(Tags.fresh());                      // senders must present this tag

            // handler 1: a medium request carrying a greeting; handler 2: its reply; handler 0: returned messages
            ep.handler(1, (token, msg) ->
            {
                out.accept("rank " + me + " got '" + msg.data().getStringWithoutLengthAscii(0, msg.dataLength()) +
                    "'");
                greeted[0]++;
                token.reply(2);
            });
            ep.handler(2, (token, msg) -> replies[0]++);
            ep.handler(0, (token, msg) -> { throw new IllegalStateException("returned: " + msg.returnStatus()); });

            // exchange names and tags: every rank's name and tag, indexed by rank
            final byte[] name = ep.name().toBytes();
            final ByteBuffer mine = ByteBuffer.allocate(Long.BYTES + name.length).putLong(ep.tag()).put(name);
            final byte[][] all = job.allGather(mine.array());

            // map every rank: translation table index r is rank r
            for (int r = 0; r < job.size(); r++)
            {
                final ByteBuffer theirs = ByteBuffer.wrap(all[r]);
                final long tag = theirs.getLong();
                ep.map(r, EndpointName.fromBytes(all[r], Long.BYTES, all[r].length - Long.BYTES), tag);
            }
            job.barrier();                             // every rank has mapped its peers before anyone sends

            // a medium request from a DirectBuffer to every other rank
            final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            final int length = buffer.putStringWithoutLengthAscii(0, "hello from rank " + me);
            for (int r = 0; r < job.size(); r++)
            {
                if (r != me)
                {
                    ep.requestMedium(r, 1, buffer, 0, length);
                }
            }

            // poll while waiting for the peers: handlers run inside poll(), never in a thread of their own
            while (greeted[0] < peers || replies[0] < peers)
            {
                bundle.poll();
            }
            out.accept("rank " + me + ": " + greeted[0] + " peers greeted, " + replies[0] + " replies");
            job.barrier();                             // nobody closes its endpoint while others may still send
        }
    }
    // README SPMD example ends
}
