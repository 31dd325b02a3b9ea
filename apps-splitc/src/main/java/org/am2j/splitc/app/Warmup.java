package org.am2j.splitc.app;

/**
 * How many untimed runs of a run precede its timed one, in the same JVMs: a fixed number ({@code --warmup N}), or
 * runs until the JIT compilers are quiet ({@code --warmup auto} or {@code auto:MAX}).
 * <p>
 * Why "until quiet": a JVM keeps compiling (and recompiling what it deoptimised) for several runs of an application,
 * and its compiler threads compete with the rank for its CPU (all of it when the rank is pinned to one). Measured on
 * EM3D (paper preset, 2 ranks pinned to 2 CPUs): after one warm-up run the timed run still compiled for 450 to 1,075
 * ms on its slowest rank, more than the run itself took; after eight, 1 to 52 ms. A protocol with more code (the
 * multi-protocol configuration) needs more runs, so a fixed count compares configurations at different stages of
 * compilation. A warm-up run is <em>quiet</em> when no rank compiled for more than {@value #QUIET_PERCENT}% of the
 * run's time (or {@value #QUIET_FLOOR_MS} ms, whichever is larger).
 */
public record Warmup(boolean auto, int runs)
{
    /** Most warm-up runs, fixed or automatic. */
    public static final int MAX_RUNS = 100;
    /** Most runs of {@code --warmup auto} without a bound. */
    public static final int DEFAULT_AUTO_MAX = 20;
    /** A quiet run compiled for at most this share of its time, in percent. */
    public static final int QUIET_PERCENT = 2;
    /** ... or for at most this long. */
    public static final long QUIET_FLOOR_MS = 2;

    private static final String AUTO = "auto";

    /**
     * @param auto true for runs until a quiet one.
     * @param runs the number of runs, or the most runs when {@code auto}: in [0, {@value #MAX_RUNS}], [1, ...] when
     *             {@code auto}.
     * @throws IllegalArgumentException outside the range.
     */
    public Warmup
    {
        if (runs < (auto ? 1 : 0) || runs > MAX_RUNS)
        {
            throw new IllegalArgumentException("--warmup must be in [" + (auto ? 1 : 0) + ", " + MAX_RUNS +
                "] runs, got " + (auto ? AUTO + ":" + runs : Integer.toString(runs)));
        }
    }

    /**
     * @param runs exactly this many warm-up runs, in [0, {@value #MAX_RUNS}].
     * @return the policy.
     * @throws IllegalArgumentException outside the range.
     */
    public static Warmup fixed(final int runs)
    {
        return new Warmup(false, runs);
    }

    /**
     * @param maxRuns at most this many, in [1, {@value #MAX_RUNS}].
     * @return runs until a quiet one.
     * @throws IllegalArgumentException outside the range.
     */
    public static Warmup untilQuiet(final int maxRuns)
    {
        return new Warmup(true, maxRuns);
    }

    /**
     * @param value {@code N}, {@code auto} or {@code auto:MAX}.
     * @return the policy it names.
     * @throws IllegalArgumentException naming what is wrong.
     */
    public static Warmup parse(final String value)
    {
        if (AUTO.equals(value))
        {
            return untilQuiet(DEFAULT_AUTO_MAX);
        }
        if (value.startsWith(AUTO + ":"))
        {
            return untilQuiet(number(value.substring(AUTO.length() + 1), value));
        }
        return fixed(number(value, value));
    }

    private static int number(final String digits, final String value)
    {
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit))
        {
            throw new IllegalArgumentException("--warmup needs a whole number of runs, auto or auto:MAX (e.g. auto:20)" +
                ", got '" + value + "'");
        }
        return Integer.parseInt(digits);
    }

    /**
     * @param done          warm-up runs made so far.
     * @param lastWasQuiet  whether the last of them was quiet ({@link #quiet}); false when none was made.
     * @return true when no more warm-up runs are due.
     */
    public boolean finished(final int done, final boolean lastWasQuiet)
    {
        return done >= runs || (auto && done > 0 && lastWasQuiet);
    }

    /**
     * @param jitMillis compile time of the slowest-compiling rank during the run, negative when unknown.
     * @param runMillis the run's time on the slowest rank.
     * @return true when the compilers were quiet during the run; always false when the JVM does not report compile
     * time (the automatic policy then makes its most runs).
     */
    public static boolean quiet(final long jitMillis, final long runMillis)
    {
        return jitMillis >= 0 && jitMillis <= Math.max(QUIET_FLOOR_MS, runMillis * QUIET_PERCENT / 100);
    }

    /**
     * @return {@code N} or {@code auto:MAX}, as {@link #parse} reads it.
     */
    @Override
    public String toString()
    {
        return auto ? AUTO + ":" + runs : Integer.toString(runs);
    }
}
