package org.am2j.splitc;

import org.am2j.api.Am;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;

/**
 * Settings of a {@link SplitC} runtime, fluent: {@code new SplitCOptions().segmentBytes(1 << 20)}.
 * <ul>
 * <li>{@link #segmentBytes(int)}: size of this rank's global segment (default 1 MiB);</li>
 * <li>{@link #getSlots(int)}: most split-phase gets outstanding at once (default 16384); a get issued while all are
 * in use polls until one completes;</li>
 * <li>{@link #pollEvery(int)}: the layer polls before every n-th message it sends (default 16), so that a rank that
 * issues long runs of requests also serves its peers and drains its replies;</li>
 * <li>{@link #bulkChunkBytes(int)}: largest message of a bulk operation (default {@link Am#MAX_LONG}, 8 KiB);</li>
 * <li>{@link #bulkGetWindow(int)}: most chunks of bulk gets in flight (default 8): their medium replies take blocks of
 * this rank's reply bulk queue, of which the shared-memory protocol has 16; asking for more makes the responders wait
 * in back-off for the requester to drain them;</li>
 * <li>{@link #stallMillis(long)}: a wait that handles no message for this long throws {@link SplitCException}
 * naming what it waited for (default: system property {@value #STALL_PROPERTY} in seconds, else 600 s; 0 turns the
 * check off);</li>
 * <li>{@link #spins(int)}, {@link #yields(int)}, {@link #sleepMicros(int)}: how a wait with nothing to do idles:
 * empty polls with {@link Thread#onSpinWait()}, then polls with {@link Thread#yield()}, then sleeps in
 * {@link org.am2j.api.Bundle#waitSema} of at most that many microseconds each (defaults 256, 64, 50,000: a message
 * ends the sleep, the limit is a safety net, and a short one makes every waiting rank wake and poll for nothing, which
 * on oversubscribed CPUs takes them from the ranks with work); while the machine has more runnable threads than CPUs,
 * a wait skips the spins and yields ({@link org.am2j.idle.CpuShare}, setting {@code am2j.idle}).</li>
 * </ul>
 */
public final class SplitCOptions
{
    /** System property with the default stall limit in seconds. */
    public static final String STALL_PROPERTY = "am2j.splitc.stallSeconds";
    /** Default stall limit when the property is not set, in seconds. */
    public static final long DEFAULT_STALL_SECONDS = 600;

    private int segmentBytes = 1 << 20;
    private int getSlots = 16384;
    private int pollEvery = 16;
    private int bulkChunkBytes = Am.MAX_LONG;
    private int bulkGetWindow = 8;
    private long stallMillis = defaultStallMillis();
    private int spins = 256;
    private int yields = 64;
    private int sleepMicros = 50_000;

    /**
     * @return {@value #STALL_PROPERTY} in milliseconds, else the default.
     * @throws org.am2j.api.AmException naming the property when it is not a whole number of seconds in [0, a year].
     */
    private static long defaultStallMillis()
    {
        return Settings.system().longValue(Setting.property(STALL_PROPERTY), DEFAULT_STALL_SECONDS, 0, 31_536_000) *
            1000;
    }

    /**
     * @param bytes size of this rank's global segment, 0 to {@link Am#MAX_SEGMENT_LENGTH} (0 makes a segment of 8
     *              bytes: AM-II segments are not empty).
     * @return this.
     */
    public SplitCOptions segmentBytes(final int bytes)
    {
        this.segmentBytes = check("segmentBytes", bytes, 0, Am.MAX_SEGMENT_LENGTH);
        return this;
    }

    /**
     * @return size of this rank's global segment.
     */
    public int segmentBytes()
    {
        return segmentBytes;
    }

    /**
     * @param slots most split-phase gets outstanding at once, 1 to 2^24.
     * @return this.
     */
    public SplitCOptions getSlots(final int slots)
    {
        this.getSlots = check("getSlots", slots, 1, 1 << 24);
        return this;
    }

    /**
     * @return most split-phase gets outstanding at once.
     */
    public int getSlots()
    {
        return getSlots;
    }

    /**
     * @param messages poll before every n-th message sent, 1 to 2^20.
     * @return this.
     */
    public SplitCOptions pollEvery(final int messages)
    {
        this.pollEvery = check("pollEvery", messages, 1, 1 << 20);
        return this;
    }

    /**
     * @return poll before every n-th message sent.
     */
    public int pollEvery()
    {
        return pollEvery;
    }

    /**
     * @param bytes largest message of a bulk operation, 8 to {@link Am#MAX_LONG}, a multiple of 8.
     * @return this.
     */
    public SplitCOptions bulkChunkBytes(final int bytes)
    {
        this.bulkChunkBytes = checkChunk(bytes);
        return this;
    }

    /**
     * @return largest message of a bulk operation.
     */
    public int bulkChunkBytes()
    {
        return bulkChunkBytes;
    }

    /**
     * @param chunks most chunks of bulk gets in flight, 1 to 2^20.
     * @return this.
     */
    public SplitCOptions bulkGetWindow(final int chunks)
    {
        this.bulkGetWindow = check("bulkGetWindow", chunks, 1, 1 << 20);
        return this;
    }

    /**
     * @return most chunks of bulk gets in flight.
     */
    public int bulkGetWindow()
    {
        return bulkGetWindow;
    }

    /**
     * @param millis longest wait without any message handled before a wait fails; 0 for no limit.
     * @return this.
     */
    public SplitCOptions stallMillis(final long millis)
    {
        if (millis < 0)
        {
            throw new IllegalArgumentException("stallMillis = " + millis + " must be 0 or more");
        }
        this.stallMillis = millis;
        return this;
    }

    /**
     * @return longest wait without any message handled before a wait fails; 0 for no limit.
     */
    public long stallMillis()
    {
        return stallMillis;
    }

    /**
     * @param count empty polls with {@link Thread#onSpinWait()} before a wait starts yielding, 0 or more.
     * @return this.
     */
    public SplitCOptions spins(final int count)
    {
        this.spins = check("spins", count, 0, Integer.MAX_VALUE / 4);
        return this;
    }

    /**
     * @return empty polls with {@link Thread#onSpinWait()} before a wait starts yielding.
     */
    public int spins()
    {
        return spins;
    }

    /**
     * @param count empty polls with {@link Thread#yield()} before a wait starts sleeping, 0 or more.
     * @return this.
     */
    public SplitCOptions yields(final int count)
    {
        this.yields = check("yields", count, 0, Integer.MAX_VALUE / 4);
        return this;
    }

    /**
     * @return empty polls with {@link Thread#yield()} before a wait starts sleeping.
     */
    public int yields()
    {
        return yields;
    }

    /**
     * @param micros longest single sleep of a wait in {@link org.am2j.api.Bundle#waitSema}, 1 to 1,000,000.
     * @return this.
     */
    public SplitCOptions sleepMicros(final int micros)
    {
        this.sleepMicros = check("sleepMicros", micros, 1, 1_000_000);
        return this;
    }

    /**
     * @return longest single sleep of a wait.
     */
    public int sleepMicros()
    {
        return sleepMicros;
    }

    static int checkChunk(final int bytes)
    {
        check("bulkChunkBytes", bytes, 8, Math.min(Am.MAX_LONG, Am.MAX_MEDIUM));
        if ((bytes & 7) != 0)
        {
            throw new IllegalArgumentException("bulkChunkBytes = " + bytes + " must be a multiple of 8");
        }
        return bytes;
    }

    private static int check(final String name, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + " = " + value + " is outside [" + min + ", " + max + "]");
        }
        return value;
    }

    @Override
    public String toString()
    {
        return "SplitCOptions{segmentBytes=" + segmentBytes + ", getSlots=" + getSlots + ", pollEvery=" + pollEvery +
            ", bulkChunkBytes=" + bulkChunkBytes + ", bulkGetWindow=" + bulkGetWindow + ", stallMillis=" + stallMillis + ", spins=" + spins +
            ", yields=" + yields + ", sleepMicros=" + sleepMicros + '}';
    }
}
