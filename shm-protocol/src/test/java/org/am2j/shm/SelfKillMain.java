package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code ReapedRankFilesTest}, two ranks. Both make an endpoint with a shared segment (so each has a
 * queue block, a segment, a doorbell and a counters file), print their files, meet at a barrier, and then rank 1
 * has itself killed with SIGKILL while rank 0 waits at a second barrier (the launcher stops it).
 */
public final class SelfKillMain
{
    public static void main(final String[] args)
    {
        RankSupport.main("SelfKillMain", () ->
        {
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" +
                    job.rank());
                final Endpoint endpoint = bundle.allocateEndpoint();
                endpoint.allocateSegment(4096);
                Peers.mapAll(job, endpoint);
                System.out.println("rank " + job.rank() + " files: " + RankSupport.listSharedFiles(job.jobId()));
                job.barrier();
                if (1 == job.rank())
                {
                    final Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(ProcessIdentity.currentPid()))
                        .inheritIO().start();
                    kill.waitFor();
                    Thread.sleep(10_000);
                    check(false, "rank 1 outlived its SIGKILL");
                }
                job.barrier();
            }
        });
    }
}
