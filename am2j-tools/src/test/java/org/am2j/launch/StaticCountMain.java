package org.am2j.launch;

import java.util.concurrent.atomic.AtomicReference;

import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Test rank program whose state is a static field, as a C program's globals: it joins its job from a thread it
 * started (which works for the same rank), adds 1 to {@link #count} 10 × (rank + 1) times, waits in a barrier until
 * every rank has added, and prints {@code rank R pid P count C loader L}: C is 10 × (R + 1) when the rank's statics
 * are its own.
 */
public final class StaticCountMain
{
    private static int count;

    private StaticCountMain()
    {
    }

    /**
     * @param args ignored.
     * @throws InterruptedException never expected.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final AtomicReference<Job> joined = new AtomicReference<>();
        final Thread joiner = new Thread(() -> joined.set(Spmd.init()), "joiner");
        joiner.start();
        joiner.join();
        try (Job job = joined.get())
        {
            for (int i = 0; i < 10 * (job.rank() + 1); i++)
            {
                count++;
            }
            job.barrier();
            System.out.println("rank " + job.rank() + " pid " + ProcessHandle.current().pid() + " count " + count +
                " loader " + StaticCountMain.class.getClassLoader().getName());
            job.barrier();
        }
    }
}
