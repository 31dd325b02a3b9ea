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
import org.am2j.api.EndpointName;
import org.am2j.api.EventMask;
import org.am2j.api.Tags;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code NoLeftoverFilesTest}: makes every kind of shared-memory file (queue blocks of endpoints in a
 * SEQ and a PAR bundle, segments from {@code allocateSegment}, the doorbell, mappings of every peer's files), uses
 * them (long requests and replies between every pair of endpoints of different ranks, one {@code waitSema}), prints
 * what the job directory holds, and then ends in one of three ways: {@code close} (frees everything),
 * {@code noclose} (returns from main with its bundles still allocated), {@code exit} ({@code System.exit(0)} with its
 * bundles still allocated). Usage: {@code CleanExitMain close|noclose|exit}.
 */
public final class CleanExitMain
{
    static final int PER_RANK = 3;
    static final int SEGMENT = 64 * 1024;

    private static int replies;
    private static int handled;

    public static void main(final String[] args)
    {
        RankSupport.main("CleanExitMain", () ->
        {
            final String mode = args[0];
            final Job job = Spmd.init();
            System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" +
                job.rank());
            final Bundle seq = Am.allocateBundle(BundleKind.SEQ);
            final Bundle par = Am.allocateBundle(BundleKind.PAR);
            final Endpoint[] mine = { seq.allocateEndpoint(), seq.allocateEndpoint(), par.allocateEndpoint() };
            final byte[][] names = new byte[PER_RANK][];
            for (int j = 0; j < PER_RANK; j++)
            {
                final Endpoint endpoint = mine[j];
                endpoint.tag(Tags.fresh());
                endpoint.allocateSegment(SEGMENT);
                endpoint.handler(0, (token, msg) -> fail("returned message " + msg.returnStatus()));
                endpoint.handler(1, (token, msg) ->
                {
                    handled++;
                    token.reply(2, msg.arg(0));
                });
                endpoint.handler(2, (token, msg) -> replies++);
                final byte[] name = endpoint.name().toBytes();
                names[j] = ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name).array();
            }
            final int size = job.size();
            final int rank = job.rank();
            final byte[][] all = new byte[size * PER_RANK][];
            for (int j = 0; j < PER_RANK; j++)
            {
                final byte[][] gathered = job.allGather(names[j]);
                for (int r = 0; r < size; r++)
                {
                    all[r * PER_RANK + j] = gathered[r];
                }
            }
            for (final Endpoint endpoint : mine)
            {
                for (int i = 0; i < all.length; i++)
                {
                    final ByteBuffer entry = ByteBuffer.wrap(all[i]);
                    final long tag = entry.getLong();
                    final byte[] name = new byte[entry.remaining()];
                    entry.get(name);
                    endpoint.map(i, EndpointName.fromBytes(name), tag);
                }
            }
            job.barrier();

            // Every endpoint sends one long request to every endpoint of the other ranks.
            final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_LONG));
            int sent = 0;
            for (int j = 0; j < PER_RANK; j++)
            {
                for (int i = 0; i < all.length; i++)
                {
                    if (i / PER_RANK != rank)
                    {
                        checkEquals("shm".equals(mine[j].translationTransport(i)) ? 1 : 0, 1, "shm to " + i);
                        checkEquals(Am.OK, mine[j].requestLong(i, 1, data, 0, 1000, (rank * PER_RANK + j) * 1000, i),
                            "request");
                        sent++;
                    }
                }
            }
            final int expected = sent;
            final long deadline = RankSupport.deadline(20_000);
            boolean slept = false;
            while (replies < expected || handled < expected)
            {
                if (0 == seq.poll() + par.poll())
                {
                    if (!slept)
                    {
                        // One sleep on the doorbell, woken by a message or the time limit.
                        seq.eventMask(EventMask.NOTEMPTY);
                        seq.waitSema(1, java.util.concurrent.TimeUnit.MILLISECONDS);
                        slept = true;
                    }
                    check(!RankSupport.expired(deadline), "rank " + rank + ": replies " + replies + " handled " +
                        handled + " of " + expected);
                }
            }
            final String files = RankSupport.listSharedFiles(job.jobId());
            System.out.println("rank " + rank + " files: " + files);
            check(files.contains(".qb") && files.contains(".seg") && files.contains(".bell"),
                "rank " + rank + ": the job directory lacks queue blocks, segments or doorbells: " + files);
            job.barrier();
            System.out.println("rank " + rank + " ending: " + mode);
            switch (mode)
            {
                case "close":
                    seq.close();
                    par.close();
                    job.close();
                    break;
                case "noclose":
                    job.close();
                    break;
                case "exit":
                    job.close();
                    System.out.flush();
                    System.exit(0);
                    break;
                default:
                    fail("mode " + mode);
            }
        });
    }
}
