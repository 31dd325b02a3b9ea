package org.am2j.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;
import org.am2j.spmd.SpmdEnvironment;

/**
 * Test rank program: every rank but 1 allocates an endpoint (so that it has a file in the shared-memory root, its
 * counters file), writes its pid file like {@link PidFileMain} and joins the job, which can only fail; rank 1 writes
 * its pid file, waits (at most 30 s) for the others' and returns from {@code main} without joining: exit status 0.
 */
public final class ExitsBeforeJoiningOnRank1Main
{
    private ExitsBeforeJoiningOnRank1Main()
    {
    }

    /**
     * @param args the directory for the pid files.
     * @throws IOException          when a pid file cannot be written.
     * @throws InterruptedException never expected.
     */
    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final Path dir = Path.of(args[0]);
        final int rank = Integer.parseInt(System.getenv(SpmdEnvironment.AM2J_RANK));
        final int size = Integer.parseInt(System.getenv(SpmdEnvironment.AM2J_SIZE));
        if (1 == rank)
        {
            PidFileMain.writePidFile(dir, rank);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int r = 0; r < size; r++)
            {
                while (!Files.exists(PidFileMain.pidFile(dir, r)) && System.nanoTime() - deadlineNs < 0)
                {
                    Thread.sleep(10);
                }
            }
            return;
        }
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ);
            Endpoint endpoint = bundle.allocateEndpoint())
        {
            PidFileMain.writePidFile(dir, rank);
            try (Job job = Spmd.init())
            {
                System.out.println("joined " + job.rank() + " with " + endpoint.name());
            }
        }
    }
}
