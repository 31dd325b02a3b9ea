package org.am2j.splitc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs P ranks of a Split-C program as threads of the test JVM (the in-process transport), each with its own
 * {@link SplitC}. The first failure of any rank is rethrown; the other ranks then fail too (their waits stall, their
 * bootstrap barrier breaks) and are abandoned as daemon threads after a bounded wait.
 */
public final class ThreadTeam
{
    /** The body of a rank. */
    public interface Body
    {
        void run(SplitC sc) throws Exception;
    }

    private ThreadTeam()
    {
    }

    public static void run(final int ranks, final Body body) throws Exception
    {
        run(ranks, () -> new SplitCOptions().segmentBytes(1 << 16).stallMillis(10_000), body);
    }

    public static void run(final int ranks, final Supplier<SplitCOptions> options, final Body body) throws Exception
    {
        final CyclicBarrier barrier = new CyclicBarrier(ranks);
        final byte[][] gathered = new byte[ranks][];
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < ranks; r++)
        {
            final int rank = r;
            final Bootstrap bootstrap = new Bootstrap()
            {
                @Override
                public int rank()
                {
                    return rank;
                }

                @Override
                public int size()
                {
                    return ranks;
                }

                @Override
                public byte[][] allGather(final byte[] mine)
                {
                    gathered[rank] = mine.clone();
                    await(barrier);
                    final byte[][] all = new byte[ranks][];
                    for (int i = 0; i < ranks; i++)
                    {
                        all[i] = gathered[i].clone();
                    }
                    await(barrier);
                    return all;
                }

                @Override
                public void barrier()
                {
                    await(barrier);
                }
            };
            final Thread thread = new Thread(() ->
            {
                try (SplitC sc = SplitC.init(bootstrap, options.get()))
                {
                    body.run(sc);
                    if (null == sc.failure())
                    {
                        sc.finish();
                    }
                    else
                    {
                        bootstrap.barrier();
                    }
                }
                catch (final Throwable t)
                {
                    failure.compareAndSet(null, new AssertionError("rank " + rank + " failed: " + t, t));
                    barrier.reset();
                }
            }, "rank-" + r);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (final Thread thread : threads)
        {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive() && null == failure.get())
            {
                failure.set(new AssertionError(thread.getName() + " did not finish within 60 s"));
            }
        }
        final Throwable t = failure.get();
        if (t instanceof Exception)
        {
            throw (Exception)t;
        }
        if (t instanceof Error)
        {
            throw (Error)t;
        }
    }

    private static void await(final CyclicBarrier barrier)
    {
        try
        {
            barrier.await(30, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in the bootstrap barrier", ex);
        }
        catch (final BrokenBarrierException | TimeoutException ex)
        {
            throw new IllegalStateException("the bootstrap barrier broke: another rank failed", ex);
        }
    }
}
