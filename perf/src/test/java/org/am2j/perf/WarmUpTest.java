package org.am2j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;

class WarmUpTest
{
    private static final long MS = 1_000_000L;

    /**
     * A pair whose round trips cost what {@link #nsPerRound} says when a chunk starts, on a clock each chunk moves;
     * {@link #compiling} chunks move the compilation time.
     */
    private static final class FakePair
    {
        final List<Integer> chunks = new ArrayList<>();
        long now = 1_000 * MS;
        long compilationMs;
        long nsPerRound;
        int compiling;
        int settles;

        FakePair(final long nsPerRound)
        {
            this.nsPerRound = nsPerRound;
        }

        void chunk(final int rounds)
        {
            chunks.add(rounds);
            now += rounds * nsPerRound;
            if (compiling > 0)
            {
                compiling--;
                compilationMs += 7;
            }
        }

        long warmUp(final int rounds, final long minNanos, final long maxNanos)
        {
            return warmUp(rounds, minNanos, maxNanos, () -> compilationMs);
        }

        long warmUp(final int rounds, final long minNanos, final long maxNanos, final LongSupplier compilation)
        {
            final long start = now;
            final long done = WarmUp.run(rounds, minNanos, maxNanos, () -> now, compilation, () -> settles++,
                this::chunk);
            assertEquals(done, chunks.stream().mapToLong(Integer::longValue).sum(), "the count returned is the sum");
            assertTrue(now - start >= Math.min(minNanos, maxNanos), "warmed up for " + (now - start) + " ns");
            return done;
        }
    }

    @Test
    void aCountThatTakesLongerThanTheFloorStillNeedsASecondChunkToShowItIsSettled()
    {
        final FakePair pair = new FakePair(10_000);
        pair.warmUp(100_000, 500 * MS, 5_000 * MS);

        assertEquals(List.of(100_000, 10_000), pair.chunks,
            "the count, then a chunk of about 100 ms at its rate, no faster than it: settled");
    }

    @Test
    void aFastPairGoesOnUntilTheFloorHasPassedInChunksOfAboutATenthOfASecond()
    {
        final FakePair pair = new FakePair(250);
        pair.warmUp(20_000, 500 * MS, 5_000 * MS);

        assertEquals(20_000, pair.chunks.get(0));
        assertTrue(pair.chunks.subList(1, pair.chunks.size()).stream().allMatch(rounds -> rounds == 400_000),
            pair.chunks.toString());
        assertEquals(1 + 5, pair.chunks.size(), "five chunks of 100 ms pass the floor of 500 ms: " + pair.chunks);
    }

    @Test
    void aRateStillImprovingByMoreThanATenthIsNotSettled()
    {
        final FakePair pair = new FakePair(8_000);
        pair.warmUp(10_000, 50 * MS, 5_000 * MS);
        // the same test with a pair that gets 30% faster after each of its first four chunks
        final FakePair speeding = new FakePair(8_000);
        final long start = speeding.now;
        WarmUp.run(10_000, 50 * MS, 5_000 * MS, () -> speeding.now, () -> 0, () -> { }, rounds ->
        {
            speeding.chunk(rounds);
            if (speeding.chunks.size() <= 4)
            {
                speeding.nsPerRound = speeding.nsPerRound * 7 / 10;
            }
        });

        assertEquals(2, pair.chunks.size(), "a steady rate settles at the second chunk once past the floor");
        assertEquals(6, speeding.chunks.size(), "settled only at the first chunk no faster than the one before: " +
            speeding.chunks);
        assertTrue(speeding.now - start >= 50 * MS);
    }

    @Test
    void aChunkSlowerThanTheOneBeforeByMoreThanATenthIsNotSettled()
    {
        // the responder compiling shows here only as a slower chunk
        final FakePair pair = new FakePair(1_000);
        WarmUp.run(100_000, 150 * MS, 5_000 * MS, () -> pair.now, () -> 0, () -> { }, rounds ->
        {
            pair.chunk(rounds);
            pair.nsPerRound = 1_500;
        });

        assertEquals(3, pair.chunks.size(), "the slower second chunk is not settled, the third is: " + pair.chunks);
    }

    @Test
    void theFloorIsWallClockTimeWithTheSleepsBetweenChunks()
    {
        final FakePair pair = new FakePair(1_000);
        WarmUp.run(1_000, 500 * MS, 5_000 * MS, () -> pair.now, () -> 0, () -> pair.now += 2_000 * MS, pair::chunk);

        assertEquals(List.of(1_000, 100_000), pair.chunks, "a settle of 2 s passes the floor of 0.5 s by itself");
    }

    @Test
    void aChunkDuringWhichThisJvmCompiledIsNotSettled()
    {
        final FakePair pair = new FakePair(1_000);
        pair.compiling = 3;
        pair.warmUp(100_000, 100 * MS, 5_000 * MS);

        assertEquals(4, pair.chunks.size(), "three chunks compiling, then a steady one: " + pair.chunks);
        assertEquals(3, pair.settles, "the compilers settle between two chunks, not after the last");
    }

    @Test
    void withoutCompilationTimeTheRateAloneDecides()
    {
        final FakePair pair = new FakePair(1_000);
        pair.compiling = 3;
        pair.warmUp(100_000, 100 * MS, 5_000 * MS, () -> -1);

        assertEquals(2, pair.chunks.size(), pair.chunks.toString());
    }

    @Test
    void theCeilingEndsAWarmUpThatNeverSettles()
    {
        final FakePair pair = new FakePair(1_000);
        pair.compiling = Integer.MAX_VALUE;
        pair.warmUp(1_000, 100 * MS, 1_000 * MS);

        final long elapsed = pair.chunks.stream().mapToLong(Integer::longValue).sum() * 1_000;
        assertTrue(elapsed >= 1_000 * MS && elapsed < 1_000 * MS + 101 * MS, elapsed + " ns");
    }

    @Test
    void chunksStayBetweenTheLeastAndTheMostSize()
    {
        final FakePair slow = new FakePair(10 * MS);
        slow.warmUp(1, 30 * MS, 5_000 * MS);
        assertEquals(WarmUp.MIN_CHUNK, slow.chunks.get(1), "a chunk after the first has at least the least size");

        final FakePair fast = new FakePair(0);
        fast.warmUp(1_000, 0, 0);
        final FakePair fast2 = new FakePair(1);
        fast2.warmUp(1_000, 20 * MS, 5_000 * MS);
        assertEquals(WarmUp.MAX_CHUNK, fast2.chunks.get(1), "1 ns per round trip asks for the most");
    }

    @Test
    void aCountOfZeroStartsWithTheLeastChunk()
    {
        final FakePair pair = new FakePair(1_000);
        pair.warmUp(0, 10 * MS, 5_000 * MS);

        assertEquals(WarmUp.MIN_CHUNK, pair.chunks.get(0));
    }

    @Test
    void noFloorAndNoCeilingRunsOneChunk()
    {
        final FakePair pair = new FakePair(1_000);
        assertEquals(5, pair.warmUp(5, 0, 0));
        assertEquals(List.of(5), pair.chunks);
        assertEquals(0, pair.settles);
    }

    @Test
    void badBoundsAreRefused()
    {
        final Runnable settle = () -> { };
        final LongSupplier unknown = () -> -1;
        assertThrows(IllegalArgumentException.class,
            () -> WarmUp.run(-1, 0, 0, () -> 0, unknown, settle, rounds -> { }));
        assertThrows(IllegalArgumentException.class,
            () -> WarmUp.run(0, -1, 0, () -> 0, unknown, settle, rounds -> { }));
        assertThrows(IllegalArgumentException.class,
            () -> WarmUp.run(0, 10, 9, () -> 0, unknown, settle, rounds -> { }));
    }
}
