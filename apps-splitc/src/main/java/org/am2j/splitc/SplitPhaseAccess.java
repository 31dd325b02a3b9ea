package org.am2j.splitc;

/**
 * Split-phase reads and writes of the global segments, scalar and bulk, and the blocking reads built on them.
 * <p>
 * <b>Split-phase get and put</b> ({@link #getLong}, {@link #putLong}, {@link #bulkGet}, {@link #bulkPut}, ...) start
 * an access and return at once; {@link #sync()} waits until every get and put this rank started has completed. A get
 * names a destination in this rank's memory (an array element); the value is written there by the reply's handler,
 * which runs only inside a call of this layer that polls, and the get call itself polls only <em>before</em> it
 * sends: so the destination does not change during the get call, and holds the value after {@code sync()}. Reading it
 * between the two is a race, as in Split-C. A put is complete when the owner has written the value and acknowledged.
 * <p>
 * A scalar get or put sends one short request and gets one short reply. A bulk put sends one long request per
 * {@link SplitCOptions#bulkChunkBytes()} bytes, each acknowledged; a bulk get one short request per chunk, answered by
 * a medium reply, with at most {@link SplitCOptions#bulkGetWindow()} chunks in flight.
 */
public interface SplitPhaseAccess
{
    /**
     * Start reading the long at a global pointer into {@code dst[index]}; the value is there after {@link #sync()}.
     *
     * @param gp    where to read, 8 bytes.
     * @param dst   destination array.
     * @param index destination element.
     */
    void getLong(long gp, long[] dst, int index);

    /**
     * Start reading the double at a global pointer into {@code dst[index]}; the value is there after {@link #sync()}.
     *
     * @param gp    where to read, 8 bytes.
     * @param dst   destination array.
     * @param index destination element.
     */
    void getDouble(long gp, double[] dst, int index);

    /**
     * Start reading the int at a global pointer into {@code dst[index]}; the value is there after {@link #sync()}.
     *
     * @param gp    where to read, 4 bytes.
     * @param dst   destination array.
     * @param index destination element.
     */
    void getInt(long gp, int[] dst, int index);

    /**
     * Start reading {@code count} longs from a global pointer into {@code dst[dstIndex...]}; they are there after
     * {@link #sync()}.
     *
     * @param dst      destination array.
     * @param dstIndex first destination element.
     * @param gp       where to read, {@code 8 * count} bytes.
     * @param count    number of elements, 0 or more.
     */
    void bulkGet(long[] dst, int dstIndex, long gp, int count);

    /**
     * Start reading {@code count} doubles from a global pointer into {@code dst[dstIndex...]}; they are there after
     * {@link #sync()}.
     *
     * @param dst      destination array.
     * @param dstIndex first destination element.
     * @param gp       where to read, {@code 8 * count} bytes.
     * @param count    number of elements, 0 or more.
     */
    void bulkGet(double[] dst, int dstIndex, long gp, int count);

    /**
     * Start reading {@code count} ints from a global pointer into {@code dst[dstIndex...]}; they are there after
     * {@link #sync()}.
     *
     * @param dst      destination array.
     * @param dstIndex first destination element.
     * @param gp       where to read, {@code 4 * count} bytes.
     * @param count    number of elements, 0 or more.
     */
    void bulkGet(int[] dst, int dstIndex, long gp, int count);

    /**
     * Blocking read of a long (Split-C's {@code x = *gp}): waits for this value only, not for other outstanding
     * accesses.
     *
     * @param gp where to read, 8 bytes.
     * @return the value.
     */
    long readLong(long gp);

    /**
     * Blocking read of a double: waits for this value only.
     *
     * @param gp where to read, 8 bytes.
     * @return the value.
     */
    default double readDouble(long gp)
    {
        return Double.longBitsToDouble(readLong(gp));
    }

    /**
     * Blocking read of an int: waits for this value only.
     *
     * @param gp where to read, 4 bytes.
     * @return the value.
     */
    int readInt(long gp);

    /**
     * Start writing a long at a global pointer; it is written when {@link #sync()} returns.
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    void putLong(long gp, long value);

    /**
     * Start writing a double at a global pointer; it is written when {@link #sync()} returns.
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    default void putDouble(long gp, double value)
    {
        putLong(gp, Double.doubleToRawLongBits(value));
    }

    /**
     * Start writing an int at a global pointer; it is written when {@link #sync()} returns.
     *
     * @param gp    where to write, 4 bytes.
     * @param value the value.
     */
    void putInt(long gp, int value);

    /**
     * Start writing {@code count} longs of {@code src} at a global pointer; they are written when {@link #sync()}
     * returns. {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write, {@code 8 * count} bytes.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    void bulkPut(long gp, long[] src, int srcIndex, int count);

    /**
     * Start writing {@code count} doubles of {@code src} at a global pointer; they are written when {@link #sync()}
     * returns. {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write, {@code 8 * count} bytes.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    void bulkPut(long gp, double[] src, int srcIndex, int count);

    /**
     * Start writing {@code count} ints of {@code src} at a global pointer; they are written when {@link #sync()}
     * returns. {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write, {@code 4 * count} bytes.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    void bulkPut(long gp, int[] src, int srcIndex, int count);

    /**
     * Wait until every get and put this rank has started has completed: get destinations hold their values, put
     * values are in their owners' segments.
     */
    void sync();

    /**
     * @return gets and puts (messages; a bulk operation counts one per chunk) started and not yet complete.
     */
    int outstanding();
}
