package org.am2j.splitc;

import static org.am2j.splitc.Handlers.H_PUT_ACK;
import static org.am2j.splitc.Handlers.H_PUT_BULK;
import static org.am2j.splitc.Handlers.H_STORE_BULK;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Objects;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.Token;

/**
 * Bulk puts and bulk stores of one rank, staged: the caller's array is cut into chunks of at most
 * {@link GlobalSpace#bulkChunkBytes} bytes, each chunk copied into a direct staging area and sent as one long request
 * whose data the transport writes into the owner's segment before the handler runs. A bulk put's chunk
 * ({@link Handlers#H_PUT_BULK}) is acknowledged like a scalar put ({@link Puts}); a bulk store's chunk
 * ({@link Handlers#H_STORE_BULK}) counts its bytes at the owner like a scalar store ({@link Stores}). The caller may
 * change its array as soon as the call returns.
 */
final class BulkStaging
{
    private static final int STAGING_BYTES = Math.max(Am.MAX_LONG, Am.MAX_MEDIUM);

    private final GlobalSpace space;
    private final Progress progress;
    private final Puts puts;
    private final Stores stores;
    /** The data of one chunk, copied from the caller's array; the views below share its bytes. */
    private final UnsafeBuffer staging;
    private final DoubleBuffer stagingDoubles;
    private final LongBuffer stagingLongs;
    private final IntBuffer stagingInts;

    BulkStaging(final GlobalSpace space, final Progress progress, final Puts puts, final Stores stores)
    {
        this.space = space;
        this.progress = progress;
        this.puts = puts;
        this.stores = stores;
        final ByteBuffer stagingBytes = ByteBuffer.allocateDirect(STAGING_BYTES).order(ByteOrder.nativeOrder());
        this.staging = new UnsafeBuffer(stagingBytes);
        this.stagingDoubles = stagingBytes.asDoubleBuffer();
        this.stagingLongs = stagingBytes.asLongBuffer();
        this.stagingInts = stagingBytes.asIntBuffer();
    }

    void install(final Endpoint endpoint)
    {
        endpoint.handler(H_PUT_BULK, this::onPutBulk);
        endpoint.handler(H_STORE_BULK, this::onStoreBulk);
    }

    /**
     * Start a bulk put of {@code count} elements of {@code src} at a global pointer.
     */
    void bulkPut(final long gp, final Object src, final int srcLength, final byte kind, final int srcIndex,
        final int count)
    {
        write(H_PUT_BULK, gp, src, srcLength, kind, srcIndex, count);
    }

    /**
     * Store {@code count} elements of {@code src} at a global pointer, one-way.
     */
    void bulkStore(final long gp, final Object src, final int srcLength, final byte kind, final int srcIndex,
        final int count)
    {
        write(H_STORE_BULK, gp, src, srcLength, kind, srcIndex, count);
    }

    private void write(
        final int handler, final long gp, final Object src, final int srcLength, final byte kind, final int srcIndex,
        final int count)
    {
        final int shift = Elements.shift(kind);
        Objects.checkFromIndexSize(srcIndex, count, srcLength);
        final long total = (long)count << shift;
        final int r = space.checkTarget(gp, total);
        final int offset = GlobalPtr.offset(gp);
        final boolean store = H_STORE_BULK == handler;
        if (r == space.rank)
        {
            Elements.copyIn(space.segment, offset, src, kind, srcIndex, count);
            if (store)
            {
                stores.arrived(total);
                stores.sentTo(r, total);
            }
            return;
        }
        final int perChunk = space.bulkChunkBytes >> shift;
        for (int done = 0; done < count; done += perChunk)
        {
            final int n = Math.min(perChunk, count - done);
            final int bytes = n << shift;
            progress.beforeSend();
            stage(src, kind, srcIndex + done, n);
            space.endpoint.requestLong(r, handler, staging, 0, bytes, offset + (done << shift), space.rank);
            space.counts.countBulk(space.local[r], bytes);
            if (store)
            {
                stores.sentTo(r, bytes);
            }
            else
            {
                puts.sent();
            }
        }
    }

    /** Copy one chunk into the staging area with the bulk copies of the NIO views. */
    private void stage(final Object src, final byte kind, final int from, final int n)
    {
        switch (kind)
        {
            case Elements.LONG -> stagingLongs.put(0, (long[])src, from, n);
            case Elements.DOUBLE -> stagingDoubles.put(0, (double[])src, from, n);
            default -> stagingInts.put(0, (int[])src, from, n);
        }
    }

    // Handlers: they run inside this rank's polls, in its thread; the transport has written the data already.

    private void onPutBulk(final Token token, final Message msg)
    {
        final int requester = msg.arg(0);
        token.reply(H_PUT_ACK);
        space.counts.countShort(space.local[requester]);
    }

    private void onStoreBulk(final Token token, final Message msg)
    {
        stores.arrived(msg.dataLength());
    }
}
