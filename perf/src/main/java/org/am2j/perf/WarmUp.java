package org.am2j.perf;

import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

import org.am2j.splitc.app.JitClock;

/**
 * The untimed round trips before a ping-pong is timed: at least the configured number, for at least
 * {@value #MIN_NANOS} ns, and until the round trips have settled, for at most {@value #MAX_NANOS} ns.
 * <p>
 * A count alone does not warm up a fast pair. Both ranks are pinned, each to its own CPU, and spin; the JIT
 * compiler's threads share those CPUs with the spinning threads, and while either rank compiles, its spinning
 * thread is descheduled for milliseconds at a time and the other waits for it. 20,000 shared-memory round trips (the
 * old quick warm-up) take 5 ms of compiled code but took 250 ms and more here, mostly in the interpreter, and the
 * compiler was still at work when the timing started: timed blocks of such runs measured 3 to 12 times the later
 * ones, and one run's median came out at 520 ns against 270 (`perf/results/pingpong-shm.md`, session 10).
 * <p>
 * So the warm-up runs in chunks, each one command to the responder: the first is the configured count, each later
 * one sized from the last chunk's rate to take about {@value #CHUNK_NANOS} ns (at least {@value #MIN_CHUNK}, at
 * most {@value #MAX_CHUNK} round trips). Between two chunks both ranks are idle (the responder waits for the next
 * command), and this one sleeps until its compiler threads are quiet ({@link JitClock#settle()}), so that what the
 * last chunk queued is compiled with the CPUs free. The warm-up ends after a chunk when the floor has passed and the
 * chunk is <em>settled</em>: this JVM compiled nothing during it ({@link JitClock#millis()}; where the JVM does not
 * say, this test is left out), and its time per round trip is within {@value #TOLERANCE} of the last chunk's either
 * way (the responder's compiling shows only in the rate, as a slower chunk). It ends at the ceiling in any case.
 * Floor and ceiling are wall-clock time from the first chunk's start, the sleeps between chunks included: the
 * floor is time for the compilers, which the sleeps give them.
 */
final class WarmUp
{
    /** Least time spent warming up, in ns. */
    static final long MIN_NANOS = 500_000_000L;
    /** Most time spent warming up, in ns: a rate that never settles (a noisy machine) ends here. */
    static final long MAX_NANOS = 5_000_000_000L;
    /** Time a chunk after the first is sized to take, in ns. */
    static final long CHUNK_NANOS = 100_000_000L;
    /** Fewest round trips of a chunk after the first. */
    static final int MIN_CHUNK = 1_000;
    /** Most round trips of one chunk. */
    static final int MAX_CHUNK = 10_000_000;
    /** Fraction by which a chunk's time per round trip may differ from the last one's and still count as settled. */
    static final double TOLERANCE = 0.1;

    private WarmUp()
    {
    }

    /**
     * Warm up with the default bounds, {@link System#nanoTime()}, this JVM's compilation time and
     * {@link JitClock#settle()} between chunks.
     *
     * @param rounds at least this many round trips, at least 0.
     * @param chunk  runs the given number of untimed round trips, at least 1, in one command to the responder.
     * @return the round trips run.
     */
    static long run(final int rounds, final IntConsumer chunk)
    {
        return run(rounds, MIN_NANOS, MAX_NANOS, System::nanoTime, JitClock::millis, JitClock::settle, chunk);
    }

    /**
     * @param rounds      at least this many round trips, at least 0.
     * @param minNanos    for at least this long, at least 0.
     * @param maxNanos    and at most this long (the first chunk, the count, runs whole), at least {@code minNanos}.
     * @param clock       in ns.
     * @param compilation this JVM's total compilation time, or a constant where it is not known (as
     *                    {@link JitClock#millis()}'s -1): then no chunk counts as compiling.
     * @param settle      runs between two chunks, with both ranks idle.
     * @param chunk       runs the given number of untimed round trips, at least 1, in one command to the responder.
     * @return the round trips run.
     * @throws IllegalArgumentException when {@code rounds} or {@code minNanos} is negative or {@code maxNanos} is less
     *                                  than {@code minNanos}.
     */
    static long run(
        final int rounds,
        final long minNanos,
        final long maxNanos,
        final LongSupplier clock,
        final LongSupplier compilation,
        final Runnable settle,
        final IntConsumer chunk)
    {
        if (rounds < 0 || minNanos < 0 || maxNanos < minNanos)
        {
            throw new IllegalArgumentException("rounds = " + rounds + ", minNanos = " + minNanos + ", maxNanos = " +
                maxNanos + ": the first two must not be negative, the last not less than the second");
        }
        final long start = clock.getAsLong();
        long done = 0;
        // a count of 0: a first chunk of the least size gives a rate to size the next from
        int next = rounds > 0 ? rounds : MIN_CHUNK;
        double lastNsPerRound = Double.NaN;
        while (true)
        {
            final long compiledBefore = compilation.getAsLong();
            final long chunkStart = clock.getAsLong();
            chunk.accept(next);
            done += next;
            final long now = clock.getAsLong();
            final double nsPerRound = (double)(now - chunkStart) / next;
            final long elapsed = now - start;
            if (elapsed >= maxNanos)
            {
                return done;
            }
            final boolean compiled = compilation.getAsLong() != compiledBefore;
            // NaN before the second chunk: never settled then. Two-sided: a chunk slower than the last by more than
            // the tolerance may have had the responder compiling.
            final boolean settled = !compiled && Math.abs(nsPerRound - lastNsPerRound) <= lastNsPerRound * TOLERANCE;
            if (elapsed >= minNanos && settled)
            {
                return done;
            }
            settle.run();
            lastNsPerRound = nsPerRound;
            next = (int)Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, CHUNK_NANOS / Math.max(1.0, nsPerRound)));
        }
    }
}
