package org.am2j.shm;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;

/**
 * Settings of the shared-memory transport, read from {@code am2j.shm.<key>} system properties or
 * {@code AM2J_SHM_<KEY>} environment variables:
 * <ul>
 *   <li>{@code requestDepth}, {@code replyDepth}: packets per queue, a power of two in [2, 65536];</li>
 *   <li>{@code bulkDepth}: 8 KiB bulk blocks per queue, in [1, 4096] and at most the smaller packet depth;</li>
 *   <li>{@code slots}: connection table slots (senders that can map the endpoint at once), in [1, 4096];</li>
 *   <li>{@code livenessMs}: how long a packet claimed by a sender may stay unfilled before the receiver asks
 *       whether that sender is alive, and skips the packet when it is not;</li>
 *   <li>{@code boxes}: the cap on fast boxes per receiving endpoint, in [0, 64] (default 8, 0 turns them off): each
 *       of that many sending endpoints gets a single-producer ring of its own in the receiver's queue block; the
 *       others, and every pair's overflow, use the shared queues ({@link FastBoxDescriptor});</li>
 *   <li>{@code boxDepth}: packets per fast box ring, a power of two in [2, 4096] (default 64);</li>
 *   <li>{@code sealed}: {@code true} (default) for sealed memory files where the kernel has them, {@code false} for
 *       named files in the job directory ({@link SealedMemory});</li>
 *   <li>{@code dir}: directory of the queue block files (default {@code /dev/shm/am2j-<user>/<job>}).</li>
 * </ul>
 * Defaults are in {@code docs/shm-protocol.md} with the measurements behind them.
 */
final class ShmConfig
{
    static final int DEFAULT_REQUEST_DEPTH = 256;
    static final int DEFAULT_REPLY_DEPTH = 256;
    static final int DEFAULT_BULK_DEPTH = 16;
    static final int DEFAULT_SLOTS = 256;
    static final long DEFAULT_LIVENESS_MS = 1000;
    static final int DEFAULT_BOXES = 8;
    static final int DEFAULT_BOX_DEPTH = 64;

    final int requestDepth;
    final int replyDepth;
    final int bulkDepth;
    final int slots;
    final long livenessNanos;
    final int boxes;
    final int boxDepth;
    /** Sealed memory files where the kernel has them ({@link SealedMemory}); false: named files in the directory. */
    final boolean sealed;

    ShmConfig(final int requestDepth, final int replyDepth, final int bulkDepth, final int slots, final long livenessMs)
    {
        this(requestDepth, replyDepth, bulkDepth, slots, livenessMs, 0, DEFAULT_BOX_DEPTH, true);
    }

    ShmConfig(
        final int requestDepth, final int replyDepth, final int bulkDepth, final int slots, final long livenessMs,
        final int boxes, final int boxDepth, final boolean sealed)
    {
        check("requestDepth", requestDepth, validDepth(requestDepth), "a power of two in [2, 65536]");
        check("replyDepth", replyDepth, validDepth(replyDepth), "a power of two in [2, 65536]");
        check("bulkDepth", bulkDepth, validBulkDepth(bulkDepth) && bulkDepth <= Math.min(requestDepth, replyDepth),
            "in [1, 4096] and at most the packet depths");
        check("slots", slots, validSlots(slots), "in [1, 4096]");
        check("livenessMs", livenessMs, livenessMs >= 1 && livenessMs <= 3_600_000, "in [1, 3600000]");
        check("boxes", boxes, validBoxes(boxes), "in [0, " + FastBoxDescriptor.MAX_BOXES + "]");
        check("boxDepth", boxDepth, validBoxDepth(boxDepth), "a power of two in [2, 4096]");
        this.boxes = boxes;
        this.boxDepth = boxDepth;
        this.sealed = sealed;
        this.requestDepth = requestDepth;
        this.replyDepth = replyDepth;
        this.bulkDepth = bulkDepth;
        this.slots = slots;
        this.livenessNanos = livenessMs * 1_000_000L;
    }

    /**
     * @param settings where to read {@code am2j.shm.<key>} / {@code AM2J_SHM_<KEY>}, e.g. the transport context's.
     * @return the configuration.
     * @throws AmException {@link AmError#BAD_ARG} naming the setting when a value does not parse or is out of range.
     */
    static ShmConfig from(final Settings settings)
    {
        final int requestDepth = powerOfTwo(settings, "requestDepth", DEFAULT_REQUEST_DEPTH, 65536);
        final int replyDepth = powerOfTwo(settings, "replyDepth", DEFAULT_REPLY_DEPTH, 65536);
        final Setting bulk = Setting.of(ShmTransport.NAME, "bulkDepth");
        final int bulkDepth = settings.intValue(bulk, DEFAULT_BULK_DEPTH, 1, 4096);
        if (bulkDepth > Math.min(requestDepth, replyDepth))
        {
            throw settings.invalid(bulk, "in [1, 4096] and at most the packet depths (" + requestDepth + ", " +
                replyDepth + ")");
        }
        return new ShmConfig(
            requestDepth,
            replyDepth,
            bulkDepth,
            settings.intValue(Setting.of(ShmTransport.NAME, "slots"), DEFAULT_SLOTS, 1, 4096),
            settings.longValue(Setting.of(ShmTransport.NAME, "livenessMs"), DEFAULT_LIVENESS_MS, 1, 3_600_000),
            settings.intValue(Setting.of(ShmTransport.NAME, "boxes"), DEFAULT_BOXES, 0, FastBoxDescriptor.MAX_BOXES),
            powerOfTwo(settings, "boxDepth", DEFAULT_BOX_DEPTH, 4096),
            settings.flag(Setting.of(ShmTransport.NAME, "sealed"), true));
    }

    static boolean validDepth(final int depth)
    {
        return depth >= 2 && depth <= 65536 && Integer.bitCount(depth) == 1;
    }

    static boolean validBulkDepth(final int bulkDepth)
    {
        return bulkDepth >= 1 && bulkDepth <= 4096;
    }

    static boolean validBoxes(final int boxes)
    {
        return boxes >= 0 && boxes <= FastBoxDescriptor.MAX_BOXES;
    }

    static boolean validBoxDepth(final int depth)
    {
        return depth >= 2 && depth <= 4096 && Integer.bitCount(depth) == 1;
    }

    static boolean validSlots(final int slots)
    {
        return slots >= 1 && slots <= 4096;
    }

    /**
     * @return the setting {@code am2j.shm.<key>}: a power of two in [2, max].
     */
    private static int powerOfTwo(final Settings settings, final String key, final int defaultValue, final int max)
    {
        final Setting setting = Setting.of(ShmTransport.NAME, key);
        final int value = settings.intValue(setting, defaultValue, 2, max);
        if (Integer.bitCount(value) != 1)
        {
            throw settings.invalid(setting, "a power of two in [2, " + max + "]");
        }
        return value;
    }

    private static void check(final String key, final long value, final boolean valid, final String allowed)
    {
        if (!valid)
        {
            throw new AmException(AmError.BAD_ARG, "am2j.shm." + key + " = " + value + " must be " + allowed);
        }
    }
}
