package org.am2j.perf;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rank program of the poll-cost pairs of {@link LogP}: an AM rank pair like {@link AmPingPongRank}'s (same set-up
 * and route check) in which nothing is sent. Rank 0 polls its bundle while rank 1 idles, so every poll is empty:
 * <ol>
 * <li>warm-up: empty polls for at least {@value #WARMUP_MS} ms and {@code --warmup} polls, so that the poll loop is
 * compiled and a measuring poll scheduler ({@code calibrated}, {@code follow}) has closed its first windows;</li>
 * <li>{@code poll}, inside an {@link EpochGuard}: {@code --bw-repeats} blocks of {@code --rounds} empty polls, each
 * block timed; {@code poll_empty_ns} is the median block's time per poll, {@code poll_empty_min_ns} and
 * {@code poll_empty_max_ns} the fastest and slowest block's;</li>
 * <li>then the bundle's poll scheduler as it describes itself ({@code poll_scheduler}) and, when that names a
 * measured or fixed ratio r of a network poll's cost to a local poll's, {@code poll_ratio}.</li>
 * </ol>
 * What a poll is depends on the pair's settings: with the network the only transport and the scheduler
 * {@code every}, each poll is an empty network poll (an in-process NIC's non-blocking socket read, a shared NIC's
 * receive-queue check); with shared memory open too, the scheduler decides which polls include the network and,
 * when it measures, what they cost in local polls.
 */
public final class NetPollRank
{
    /** Least time of empty polls before the timed blocks. */
    static final long WARMUP_MS = 1_000;
    /** Most time of the warm-up, whatever {@code --warmup} asks. */
    static final long MOST_WARMUP_MS = 10_000;
    /** Polls of one warm-up step, between clock checks. */
    static final int WARMUP_STEP = 1_000;

    private static final Pattern RATIO = Pattern.compile("ratio (-?[0-9]+(?:\\.[0-9]+)?)");

    private NetPollRank()
    {
    }

    /**
     * @param args a {@link RankConfig} command line: {@code --rounds} polls per block, {@code --bw-repeats} blocks,
     *             {@code --warmup} warm-up polls at least.
     * @throws IOException when the cache-line file cannot be mapped or the results cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        AmPingPongRank.run(args, false, NetPollRank::initiate);
    }

    /**
     * Rank 0: the measurements of the class comment, then the end command.
     *
     * @param config    of the run.
     * @param messaging on rank 0's endpoint.
     * @param line      the pair's cache line, for the probes.
     * @param udp       unused: null.
     * @param channel   to rank 1.
     * @param pause     sleeps the given milliseconds.
     * @return the results.
     */
    static Results initiate(
        final RankConfig config,
        final AmMessaging messaging,
        final CacheLinePingPong line,
        final UdpPingPong udp,
        final PhaseChannel channel,
        final LongConsumer pause)
    {
        final Results results = new Results();
        final EpochGuard guard = AmPingPongRank.guard(config, line, channel, pause);
        final long warmupStart = System.nanoTime();
        long warmupPolls = 0;
        while (elapsedMs(warmupStart) < MOST_WARMUP_MS &&
            (warmupPolls < config.warmup() || elapsedMs(warmupStart) < WARMUP_MS))
        {
            messaging.emptyPollsNs(WARMUP_STEP);
            warmupPolls += WARMUP_STEP;
        }
        results.put("poll_warmup_polls", warmupPolls);
        guard.measure("poll", () ->
        {
            final long[] blocks = new long[Math.max(1, config.bwRepeats())];
            for (int b = 0; b < blocks.length; b++)
            {
                blocks[b] = messaging.emptyPollsNs(config.rounds());
            }
            final double perPoll = config.rounds();
            results.put("poll_empty_ns", Medians.of(blocks) / perPoll);
            results.put("poll_empty_min_ns", Arrays.stream(blocks).min().getAsLong() / perPoll);
            results.put("poll_empty_max_ns", Arrays.stream(blocks).max().getAsLong() / perPoll);
            results.put("poll_blocks", blocks.length);
            results.put("poll_block_polls", config.rounds());
        }, results);
        final String described = messaging.describeBundle();
        results.put("poll_scheduler", described);
        final double ratio = ratio(described);
        if (!Double.isNaN(ratio))
        {
            results.put("poll_ratio", ratio);
        }
        return AmPingPongRank.end(channel, guard, results);
    }

    /**
     * @param described a bundle's or poll scheduler's description.
     * @return the ratio r it names ({@code ratio 38.2 measured}, {@code from ratio 20}), or NaN when it names none
     * (a scheduler that does not measure, or whose first measurement is pending).
     */
    static double ratio(final String described)
    {
        final Matcher matcher = RATIO.matcher(described);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : Double.NaN;
    }

    private static long elapsedMs(final long startNs)
    {
        return (System.nanoTime() - startNs) / 1_000_000;
    }
}
