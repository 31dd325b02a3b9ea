package org.am2j.splitc;

/**
 * Signalling stores into the global segments, scalar and bulk, and their completion.
 * <p>
 * <b>Signalling stores</b> ({@link #storeLong}, {@link #bulkStore}, ...) are one-way: the owner writes the value and
 * counts the bytes, and nobody acknowledges. The owner learns of them with {@link #storeSync(long)} (wait until that
 * many bytes more have been stored into my segment) or, all ranks together, with {@link #allStoreSync()} (every store
 * any rank issued before the call has completed when it returns, everywhere).
 * <p>
 * A scalar store sends one short request; a bulk store one long request per {@link SplitCOptions#bulkChunkBytes()}
 * bytes. Nothing comes back.
 */
public interface SignallingStores
{
    /**
     * Store a long at a global pointer, one-way: the owner learns of it through {@link #storeSync(long)} (8 bytes) or
     * {@link #allStoreSync()}.
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    void storeLong(long gp, long value);

    /**
     * Store a double at a global pointer, one-way (see {@link #storeLong(long, long)}).
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    default void storeDouble(long gp, double value)
    {
        storeLong(gp, Double.doubleToRawLongBits(value));
    }

    /**
     * Store an int at a global pointer, one-way: the owner learns of it through {@link #storeSync(long)} (4 bytes) or
     * {@link #allStoreSync()}.
     *
     * @param gp    where to write, 4 bytes.
     * @param value the value.
     */
    void storeInt(long gp, int value);

    /**
     * Store {@code count} longs of {@code src} at a global pointer, one-way ({@code 8 * count} bytes for
     * {@link #storeSync(long)}). {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    void bulkStore(long gp, long[] src, int srcIndex, int count);

    /**
     * Store {@code count} doubles of {@code src} at a global pointer, one-way ({@code 8 * count} bytes for
     * {@link #storeSync(long)}). {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    void bulkStore(long gp, double[] src, int srcIndex, int count);

    /**
     * Store {@code count} ints of {@code src} at a global pointer, one-way ({@code 4 * count} bytes for
     * {@link #storeSync(long)}). {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    void bulkStore(long gp, int[] src, int srcIndex, int count);

    /**
     * Wait until {@code bytes} more bytes have been stored into this rank's segment than earlier calls (and
     * {@link #allStoreSync()}) accounted for (Split-C's {@code store_sync(n)}); the stored values are then visible.
     *
     * @param bytes number of bytes, 0 or more.
     */
    void storeSync(long bytes);

    /**
     * Wait until every store that any rank issued before entering this call has completed at its owner (Split-C's
     * {@code all_store_sync()}). Every rank calls it; it ends with a {@link CollectiveOperations#barrier()}. Each rank
     * tells every other how many bytes it stored to it since the last call, waits until it has received those, then
     * enters the barrier.
     */
    void allStoreSync();

    /**
     * @return bytes stored into this rank's segment so far (by any rank, this one included).
     */
    long storedBytes();
}
