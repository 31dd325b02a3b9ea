package org.am2j.idle;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Whether this machine's CPUs are oversubscribed: more threads runnable than there are CPUs, by more than
 * {@value #VISITORS} (a passing thread: a compiler or collector thread, a NIC keeper, the reader of the count itself,
 * which must not stop two ranks pinned to two CPUs from spinning), so that a waiter that spins keeps a thread it waits
 * for (a peer rank, a NIC thread) off a CPU. Waiters ask at the start of each wait
 * ({@link IdleSteps#firstStep()}); while the answer is yes they sleep at once instead of spinning and yielding first.
 * <p>
 * The {@link RunnableProbe} is read at most once per period (default {@link #DEFAULT_PERIOD_NANOS}); in between, every
 * caller gets the cached answer for the price of a clock read. One thread of the process reads the probe while the
 * others keep the old answer; nothing is allocated.
 * <p>
 * Mode ({@code am2j.idle} / {@code AM2J_IDLE}, for measurement): {@code adaptive} (the default) asks the probe;
 * {@code spin} never finds the CPUs oversubscribed (waiters spin, yield, then sleep, as without a probe);
 * {@code sleep} always does (waiters go to sleep at once). A probe that cannot tell ({@link RunnableProbe#UNKNOWN})
 * counts as not oversubscribed. Thread-safe.
 */
public final class CpuShare
{
    /** Runnable threads beyond the CPUs that do not count as oversubscription: passing ones. */
    public static final int VISITORS = 1;

    /** The system property of the mode. */
    public static final String PROPERTY = "am2j.idle";
    /** The environment variable of the mode, read when the property is not set. */
    public static final String ENVIRONMENT = "AM2J_IDLE";
    /** Longest time the answer is reused before the probe is read again: 2 ms. */
    public static final long DEFAULT_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /** How waiters decide whether to spin. */
    public enum Mode
    {
        /** Spin unless the probe finds more runnable threads than CPUs. */
        ADAPTIVE,
        /** Always spin first: the behaviour without a probe. */
        SPIN,
        /** Never spin: always sleep at once. */
        SLEEP;

        /**
         * @return the name used in the setting.
         */
        public String settingName()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final AtomicIntegerFieldUpdater<CpuShare> READING =
        AtomicIntegerFieldUpdater.newUpdater(CpuShare.class, "reading");

    private final Mode mode;
    private final RunnableProbe probe;
    private final NanoClock clock;
    private final long periodNanos;

    private volatile long nextReadNanos;
    private volatile boolean oversubscribed;
    private volatile int reading;
    private volatile long reads;
    private volatile int lastRunnable = RunnableProbe.UNKNOWN;

    /**
     * @param mode how to decide.
     * @param probe the runnable count, read in {@link Mode#ADAPTIVE} only.
     * @param clock the time that decides when the probe is read again.
     * @param periodNanos how long an answer is reused, at least 1.
     */
    public CpuShare(final Mode mode, final RunnableProbe probe, final NanoClock clock, final long periodNanos)
    {
        if (periodNanos < 1)
        {
            throw new IllegalArgumentException("periodNanos must be at least 1: " + periodNanos);
        }
        this.mode = mode;
        this.probe = probe;
        this.clock = clock;
        this.periodNanos = periodNanos;
        this.nextReadNanos = clock.nanoTime();
    }

    /**
     * @return the process-wide instance: the mode of {@code am2j.idle} / {@code AM2J_IDLE}, the probe of
     * {@link LoadavgProbe#open()}, the system clock, the default period.
     * @throws AmException ({@link AmError#BAD_ARG}) when the setting names no mode.
     */
    public static CpuShare process()
    {
        return Holder.PROCESS;
    }

    /**
     * @return the mode the settings name: {@code am2j.idle} when set, else {@code AM2J_IDLE}, else
     * {@link Mode#ADAPTIVE}.
     * @throws AmException ({@link AmError#BAD_ARG}) when the setting names no mode.
     */
    public static Mode modeSetting()
    {
        return modeSetting(Settings.system());
    }

    static Mode modeSetting(final Settings settings)
    {
        final String[] names = Arrays.stream(Mode.values()).map(Mode::settingName).toArray(String[]::new);
        final String chosen = settings.choice(new Setting(PROPERTY, ENVIRONMENT), Mode.ADAPTIVE.settingName(), names);
        return Mode.valueOf(chosen.toUpperCase(Locale.ROOT));
    }

    /**
     * @return true when waiters should not spin: in {@link Mode#ADAPTIVE} when the last read of the probe, at most
     * a period ago, found more runnable threads than CPUs.
     */
    public boolean oversubscribed()
    {
        if (Mode.ADAPTIVE != mode)
        {
            return Mode.SLEEP == mode;
        }
        final long now = clock.nanoTime();
        // One reader at a time (the probe holds one buffer); the others keep the cached answer rather than wait.
        if (now - nextReadNanos >= 0 && READING.compareAndSet(this, 0, 1))
        {
            try
            {
                final int runnable = probe.runnable();
                lastRunnable = runnable;
                oversubscribed = RunnableProbe.UNKNOWN != runnable && runnable > probe.cpus() + VISITORS;
                nextReadNanos = now + periodNanos;
                reads++;
            }
            finally
            {
                // Release: the answer and the next read time are written before another thread may read the probe.
                READING.lazySet(this, 0);
            }
        }
        return oversubscribed;
    }

    /**
     * @return the mode.
     */
    public Mode mode()
    {
        return mode;
    }

    /**
     * @return how many times the probe was read.
     */
    public long reads()
    {
        return reads;
    }

    /**
     * @return the runnable count of the last read, or {@link RunnableProbe#UNKNOWN} before the first or when it
     * could not tell.
     */
    public int lastRunnable()
    {
        return lastRunnable;
    }

    /**
     * @return the CPUs the probe compares with.
     */
    public int cpus()
    {
        return probe.cpus();
    }

    @Override
    public String toString()
    {
        return "CpuShare{mode=" + mode.settingName() + ", cpus=" + probe.cpus() + ", lastRunnable=" + lastRunnable +
            ", oversubscribed=" + oversubscribed + ", periodNanos=" + periodNanos + '}';
    }

    private static final class Holder
    {
        static final CpuShare PROCESS = create();

        private static CpuShare create()
        {
            final Mode mode = modeSetting();
            final RunnableProbe probe = Mode.ADAPTIVE == mode ? LoadavgProbe.open() :
                RunnableProbe.fixed(RunnableProbe.UNKNOWN, Runtime.getRuntime().availableProcessors());
            return new CpuShare(mode, probe, SystemNanoClock.INSTANCE, DEFAULT_PERIOD_NANOS);
        }
    }
}
