package org.am2j.perf;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import org.HdrHistogram.Histogram;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

import org.am2j.spi.Setting;
import org.am2j.spi.Settings;

/**
 * Keeps measurements out of the machine's slow epochs.
 * <p>
 * <b>Why.</b> The vCPUs of the machines this was written on have slow epochs: for seconds at a time a round trip
 * of a cache line between two cores takes three to four times as long as usual (about 520 ns instead of 140 ns
 * between two JVMs), and so does everything that moves cache lines between cores, which a ping-pong does on every
 * message. A measurement taken in such an epoch says more about the hypervisor than about the code.
 * <p>
 * <b>The probe.</b> Before each measurement, the same two processes (pinned to the same CPUs) that are about to
 * measure run a short cache-line ping-pong of {@value #PROBE_ROUND_TRIPS} round trips over a mapped file
 * ({@link CacheLinePingPong}, the program of the machine's limit in a short mode); its median round trip is the
 * probe's value. It takes a few milliseconds. The probe runs again right after the measurement, since an epoch may
 * begin during one.
 * <p>
 * <b>The rule.</b> A probe is slow when its median is above {@value #ABSOLUTE_SLOW_NS} ns, or above
 * {@value #SLOW_FACTOR} times the fastest probe seen in this run (this guard's and those of the earlier rank pairs of
 * the run, handed in). When the probe before a measurement is slow, the measurement waits
 * {@value #RETRY_PAUSE_MS} ms and probes again instead of measuring; when the probe after it is slow, the
 * measurement is thrown away and taken again after the pause. After {@value #MAX_RETRIES} retries the measurement
 * is kept whatever the probes say, and flagged {@code slow_epoch}. The driver of a run re-checks every flag against
 * the fastest probe of the whole run when it reports. The system property {@code am2j.perf.epochRetries} or the
 * environment variable {@code AM2J_PERF_EPOCHRETRIES} of rank 0 sets fewer or more retries ({@link #RETRIES}; 0
 * measures once and flags what a probe saw): where time counts more than clean figures, as in the tests of the
 * benchmarks' plumbing on a busy machine, whose every probe is slow.
 * <p>
 * Results per measurement {@code NAME}: {@code machine.NAME.probe_p50_ns} (the probe before the kept measurement),
 * {@code machine.NAME.probe_after_p50_ns}, {@code machine.NAME.attempts}, {@code machine.NAME.slow_epoch}, and the
 * {@link MachineState} read just before the measurement ({@code machine.NAME.load_avg_1m}, ...,
 * {@code machine.NAME.cpu_mhz}).
 */
final class EpochGuard
{
    /** Round trips of one probe. */
    static final int PROBE_ROUND_TRIPS = 20_000;
    /** A probe median above this is slow whatever the other probes say. */
    static final long ABSOLUTE_SLOW_NS = 350;
    /** A probe median above this many times the fastest one is slow. */
    static final long SLOW_FACTOR = 2;
    /** Retries of a measurement taken in a slow epoch, unless {@link #RETRIES} says otherwise. */
    static final int MAX_RETRIES = 3;
    /** The setting of the retries: {@code am2j.perf.epochRetries} / {@code AM2J_PERF_EPOCHRETRIES}. */
    static final Setting RETRIES = Setting.of("perf", "epochRetries");
    /** Most retries the setting takes. */
    static final int MOST_RETRIES = 100;
    /** Pause before a retry (slow epochs last seconds). */
    static final long RETRY_PAUSE_MS = 1_000;
    /** {@link #fastestNs()} before any probe. */
    static final long NO_PROBE = Long.MAX_VALUE;

    /**
     * What the guard kept of a measurement, as its results and the reports' {@code machine.measurements} name it.
     *
     * @param probeP50Ns      the probe's median before the kept measurement, ns.
     * @param probeAfterP50Ns the probe's median after it, ns.
     * @param attempts        measurements taken, the kept one the last.
     * @param slowEpoch       true when a probe of the kept measurement was slow.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Probes(long probeP50Ns, long probeAfterP50Ns, int attempts, boolean slowEpoch)
    {
    }

    private final LongSupplier probe;
    private final LongConsumer pause;
    private final int maxRetries;
    private long fastestNs;

    /**
     * @param probe      runs a probe and returns its median round trip in ns.
     * @param fastestNs  fastest probe median seen so far in this run, or {@link #NO_PROBE}.
     * @param pause      sleeps for the given milliseconds between a slow probe and the retry.
     * @param maxRetries retries of a measurement taken in a slow epoch before it is kept and flagged.
     */
    EpochGuard(final LongSupplier probe, final long fastestNs, final LongConsumer pause, final int maxRetries)
    {
        this.probe = probe;
        this.pause = pause;
        this.maxRetries = maxRetries;
        this.fastestNs = fastestNs;
    }

    /**
     * @param settings where {@link #RETRIES} is read.
     * @return the retries it sets, else {@value #MAX_RETRIES}.
     * @throws org.am2j.api.AmException when it is set to anything but a whole number in [0, {@value #MOST_RETRIES}].
     */
    static int maxRetries(final Settings settings)
    {
        return settings.intValue(RETRIES, MAX_RETRIES, 0, MOST_RETRIES);
    }

    /**
     * @param fastestNs fastest probe median of a run, or {@link #NO_PROBE}.
     * @return the probe median above which a probe is slow.
     */
    static long thresholdNs(final long fastestNs)
    {
        return fastestNs >= ABSOLUTE_SLOW_NS / SLOW_FACTOR ? ABSOLUTE_SLOW_NS : fastestNs * SLOW_FACTOR;
    }

    /**
     * @param probeNs   a probe median.
     * @param fastestNs fastest probe median of the run (including this one), or {@link #NO_PROBE}.
     * @return true when the probe is slow.
     */
    static boolean isSlow(final long probeNs, final long fastestNs)
    {
        return probeNs > thresholdNs(fastestNs);
    }

    /**
     * @return fastest probe median seen by this guard and before it, or {@link #NO_PROBE}.
     */
    long fastestNs()
    {
        return fastestNs;
    }

    /**
     * Warm up ({@link WarmUp}: {@code --warmup} round trips at least, into {@code PREFIX_warmup_rounds}), then time
     * {@code --rounds} round trips inside this guard into {@code PREFIX_*}. The warm-up runs before the guard: its
     * probe then comes right before the timed round trips, and a retry is not warmed again.
     *
     * @param name       of the measurement.
     * @param prefix     of its results.
     * @param config     of the run.
     * @param results    where.
     * @param histogram  that {@code roundTrips} records into.
     * @param roundTrips commands the other rank and runs the given number of round trips.
     */
    void roundTrips(
        final String name,
        final String prefix,
        final RankConfig config,
        final Results results,
        final Histogram histogram,
        final IntConsumer roundTrips)
    {
        results.put(prefix + "_warmup_rounds", WarmUp.run(config.warmup(), roundTrips));
        measure(name, () ->
        {
            histogram.reset();
            roundTrips.accept(config.rounds());
            LatencySummary.of(histogram).putInto(results, prefix);
        }, results);
    }

    /**
     * Take a measurement outside a slow epoch if the machine allows, as the class comment says.
     *
     * @param name        of the measurement in the results ({@code [a-z0-9_]+}).
     * @param measurement takes the measurement and puts its results; it may run up to the guard's retries + 1
     *                    times, each run replacing the results of the one before.
     * @param results     where the measurement's machine state goes.
     * @return true when the kept measurement is flagged as taken in a slow epoch.
     */
    boolean measure(final String name, final Runnable measurement, final Results results)
    {
        final String prefix = "machine." + name + ".";
        for (int attempt = 1; ; attempt++)
        {
            final boolean last = attempt > maxRetries;
            final long before = runProbe();
            final boolean slowBefore = isSlow(before, fastestNs);
            if (slowBefore && !last)
            {
                pause.accept(RETRY_PAUSE_MS);
                continue;
            }
            final MachineState state = MachineState.read();
            measurement.run();
            final long after = runProbe();
            final boolean slowAfter = isSlow(after, fastestNs);
            if (slowAfter && !last)
            {
                pause.accept(RETRY_PAUSE_MS);
                continue;
            }
            final boolean slow = slowBefore || slowAfter;
            results.putAll(prefix, new Probes(before, after, attempt, slow)).putAll(prefix, state);
            return slow;
        }
    }

    private long runProbe()
    {
        final long p50 = probe.getAsLong();
        fastestNs = Math.min(fastestNs, p50);
        return p50;
    }
}
