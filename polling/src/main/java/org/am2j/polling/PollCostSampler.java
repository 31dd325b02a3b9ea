package org.am2j.polling;

import java.util.function.LongSupplier;

/**
 * Measures, on the running machine, how much a network poll costs in local (shared-memory) polls, from the outside of
 * the core: the interval between two consecutive calls of {@link org.am2j.spi.PollScheduler#networkBudget(int)}
 * covers one whole poll, and the scheduler knows whether that poll included the network.
 * <pre>
 *   call n                          call n+1
 *     | t0 = clock                    | t1 = clock
 *     |--- poll n (local, or local + network) --- user code ---|
 *     interval = t1 - t0, a sample of the class of poll n
 * </pre>
 * Sampling keeps the hot path cheap: one poll in {@value #LOCAL_SAMPLE_PERIOD} of the local polls and one in
 * {@value #NETWORK_SAMPLE_PERIOD} of the network polls (counted separately, so a network polling period cannot alias
 * the local sampling) has its interval measured: two clock reads, or one when a sample ends where the next begins.
 * <p>
 * Per class the sampler keeps the <em>minimum</em> interval of the current window: in a tight polling loop the
 * minimum approximates the cost of the poll itself, and it is robust to user work, handlers and preemption between
 * polls, which only lengthen intervals. A window closes at the first sample that finds at least
 * {@value #WINDOW_SAMPLES} samples in each class; it yields
 * <pre>
 *   ratio = (networkMin - localMin) / localMin
 * </pre>
 * the extra cost of the network poll over the local polls a network poll also makes, in local polls; then both
 * minima start again, so a later window follows a changed machine. Intervals that are not positive (a clock that did
 * not advance) are dropped.
 * <p>
 * Not thread-safe; primitive state only, nothing is allocated. With PAR bundles polled by several threads the
 * intervals are between calls of different threads; their minimum still bounds the cost of a poll from below.
 */
final class PollCostSampler
{
    /** One local poll in this many is sampled; a power of two. */
    static final int LOCAL_SAMPLE_PERIOD = 64;

    /** One network poll in this many is sampled; a power of two. */
    static final int NETWORK_SAMPLE_PERIOD = 4;

    /** Samples of each class a window needs before it yields a ratio. */
    static final int WINDOW_SAMPLES = 16;

    private final LongSupplier nanoClock;
    private int localPolls;
    private int networkPolls;
    private boolean sampling;
    private boolean samplingNetwork;
    private long sampleStart;
    private long localMin = Long.MAX_VALUE;
    private long networkMin = Long.MAX_VALUE;
    private int localSamples;
    private int networkSamples;
    private long windowLocalMin;
    private long windowNetworkMin;
    private int windows;

    /**
     * @param nanoClock the clock, in nanoseconds (or any unit: only ratios are used); {@code System::nanoTime}.
     */
    PollCostSampler(final LongSupplier nanoClock)
    {
        this.nanoClock = nanoClock;
    }

    /**
     * Account one poll; call at the same point of every poll, once it is known whether the poll includes the network.
     *
     * @param network true when this poll includes the network.
     * @return true when this call closed a window: {@link #ratio()} has a new value.
     */
    boolean onPoll(final boolean network)
    {
        boolean closed = false;
        long now = 0;
        boolean clockRead = false;
        if (sampling)
        {
            now = nanoClock.getAsLong();
            clockRead = true;
            sampling = false;
            record(samplingNetwork, now - sampleStart);
            if (localSamples >= WINDOW_SAMPLES && networkSamples >= WINDOW_SAMPLES)
            {
                closeWindow();
                closed = true;
            }
        }

        final boolean sample = network ?
            (++networkPolls & (NETWORK_SAMPLE_PERIOD - 1)) == 0 :
            (++localPolls & (LOCAL_SAMPLE_PERIOD - 1)) == 0;
        if (sample)
        {
            sampling = true;
            samplingNetwork = network;
            sampleStart = clockRead ? now : nanoClock.getAsLong();
        }
        return closed;
    }

    /**
     * @return how many polls from now, counting the next as 1, the first that {@link #onPoll} must see if they are all
     * local: 1 while a sample is open (the next poll ends it), else the poll that starts the next local sample. The
     * polls before it may be accounted together with {@link #skipLocal(int)}.
     */
    int localPollsUntilEvent()
    {
        return sampling ? 1 : LOCAL_SAMPLE_PERIOD - (localPolls & (LOCAL_SAMPLE_PERIOD - 1));
    }

    /**
     * Account local polls that neither end nor start a sample, at once: fewer than {@link #localPollsUntilEvent()}.
     *
     * @param polls how many.
     */
    void skipLocal(final int polls)
    {
        localPolls += polls;
    }

    /**
     * @return windows closed so far; 0 while {@link #ratio()} has no value.
     */
    int windows()
    {
        return windows;
    }

    /**
     * @return the extra cost of a network poll in local polls, from the last closed window; negative when the network
     * polls measured no dearer than the local ones; NaN before the first window closes.
     */
    double ratio()
    {
        return 0 == windows ? Double.NaN : (double)(windowNetworkMin - windowLocalMin) / windowLocalMin;
    }

    /**
     * @return the minimum interval of a local poll in the last closed window, in clock units; 0 before one closes.
     */
    long localCost()
    {
        return windowLocalMin;
    }

    /**
     * @return the minimum interval of a poll that included the network in the last closed window, in clock units;
     * 0 before one closes.
     */
    long networkCost()
    {
        return windowNetworkMin;
    }

    private void record(final boolean network, final long interval)
    {
        if (interval <= 0)
        {
            return;
        }
        if (network)
        {
            networkMin = Math.min(networkMin, interval);
            networkSamples++;
        }
        else
        {
            localMin = Math.min(localMin, interval);
            localSamples++;
        }
    }

    private void closeWindow()
    {
        windowLocalMin = localMin;
        windowNetworkMin = networkMin;
        windows++;
        localMin = Long.MAX_VALUE;
        networkMin = Long.MAX_VALUE;
        localSamples = 0;
        networkSamples = 0;
    }
}
