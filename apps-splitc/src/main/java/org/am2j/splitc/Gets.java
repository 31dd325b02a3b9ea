package org.am2j.splitc;

import static org.am2j.splitc.Handlers.H_GET;
import static org.am2j.splitc.Handlers.H_GET_BULK;
import static org.am2j.splitc.Handlers.H_GET_BULK_REPLY;
import static org.am2j.splitc.Handlers.H_GET_REPLY;

import java.util.Objects;

import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Token;

/**
 * Split-phase gets of one rank, scalar and bulk, the blocking reads built on them, and their handlers.
 * <p>
 * A scalar get is a short request to the owner ({@link Handlers#H_GET}) answered by a short reply with the value
 * ({@link Handlers#H_GET_REPLY}); a bulk get is one short request per chunk ({@link Handlers#H_GET_BULK}) answered by a
 * medium reply with the chunk's data ({@link Handlers#H_GET_BULK_REPLY}), with at most
 * {@link SplitCOptions#bulkGetWindow()} chunks in flight, since medium replies occupy the requester's bulk queue.
 * <p>
 * Each outstanding get has a <em>slot</em> saying where its value goes (array, first element, kind, chunks still
 * missing); slots are recycled through a stack, and a slot's generation counts its uses so that a blocking read waits
 * for its own reply only.
 */
final class Gets
{
    private final GlobalSpace space;
    private final Progress progress;
    private final int bulkGetWindow;

    private final Object[] slotTarget;
    private final int[] slotIndex;
    private final byte[] slotKind;
    private final int[] slotChunks;
    private final int[] slotGeneration;
    private final int[] freeSlots;
    private int freeTop;
    /** Get messages (scalar gets and chunks of bulk gets) whose reply has not been handled. */
    private int pending;
    /** Chunks of bulk gets whose medium reply has not been handled, at most {@link #bulkGetWindow}. */
    private int pendingBulkChunks;

    private final long[] readLongBox = new long[1];
    private final int[] readIntBox = new int[1];

    Gets(final GlobalSpace space, final Progress progress, final SplitCOptions options)
    {
        this.space = space;
        this.progress = progress;
        this.bulkGetWindow = options.bulkGetWindow();
        final int slots = options.getSlots();
        this.slotTarget = new Object[slots];
        this.slotIndex = new int[slots];
        this.slotKind = new byte[slots];
        this.slotChunks = new int[slots];
        this.slotGeneration = new int[slots];
        this.freeSlots = new int[slots];
        for (int i = 0; i < slots; i++)
        {
            freeSlots[i] = slots - 1 - i;
        }
        this.freeTop = slots;
    }

    void install(final Endpoint endpoint)
    {
        endpoint.handler(H_GET, this::onGet);
        endpoint.handler(H_GET_REPLY, this::onGetReply);
        endpoint.handler(H_GET_BULK, this::onGetBulk);
        endpoint.handler(H_GET_BULK_REPLY, this::onGetBulkReply);
    }

    /**
     * @return get messages (a bulk get counts one per chunk) whose reply has not been handled.
     */
    int pending()
    {
        return pending;
    }

    /**
     * Start reading one element at a global pointer into {@code dst[index]}.
     *
     * @param dst       a {@code long[]}, {@code double[]} or {@code int[]} as {@code kind} says.
     * @param dstLength its length.
     * @param kind      the element kind ({@link Elements}).
     */
    void get(final long gp, final Object dst, final int dstLength, final byte kind, final int index)
    {
        final int bytes = 1 << Elements.shift(kind);
        final int r = space.checkTarget(gp, bytes);
        Objects.checkIndex(index, dstLength);
        if (r == space.rank)
        {
            Elements.copyOut(space.segment, GlobalPtr.offset(gp), dst, kind, index, 1);
            return;
        }
        send(r, GlobalPtr.offset(gp), bytes, takeSlot(dst, index, kind, 1));
    }

    long readLong(final long gp)
    {
        read(gp, readLongBox, Elements.LONG);
        return readLongBox[0];
    }

    int readInt(final long gp)
    {
        read(gp, readIntBox, Elements.INT);
        return readIntBox[0];
    }

    /**
     * Start reading {@code count} elements at a global pointer into {@code dst[dstIndex...]}.
     *
     * @param dst       a {@code long[]}, {@code double[]} or {@code int[]} as {@code kind} says.
     * @param dstLength its length.
     * @param kind      the element kind ({@link Elements}).
     * @param dstIndex  first destination element.
     * @param gp        where to read.
     * @param count     number of elements, 0 or more.
     */
    void bulkGet(
        final Object dst, final int dstLength, final byte kind, final int dstIndex, final long gp, final int count)
    {
        final int shift = Elements.shift(kind);
        Objects.checkFromIndexSize(dstIndex, count, dstLength);
        final int r = space.checkTarget(gp, (long)count << shift);
        final int offset = GlobalPtr.offset(gp);
        if (0 == count)
        {
            return;
        }
        if (r == space.rank)
        {
            Elements.copyOut(space.segment, offset, dst, kind, dstIndex, count);
            return;
        }
        final int perChunk = space.bulkChunkBytes >> shift;
        final int chunks = (count + perChunk - 1) / perChunk;
        final int slot = takeSlot(dst, dstIndex, kind, chunks);
        for (int done = 0; done < count; done += perChunk)
        {
            final int n = Math.min(perChunk, count - done);
            if (pendingBulkChunks >= bulkGetWindow)
            {
                progress.beginWait();
                while (pendingBulkChunks >= bulkGetWindow)
                {
                    progress.waitStep("the bulk get window");
                }
            }
            progress.beforeSend();
            space.endpoint.request(r, H_GET_BULK, space.rank, slot, offset + (done << shift), n << shift, done);
            space.counts.countShort(space.local[r]);
            pending++;
            pendingBulkChunks++;
        }
    }

    private void send(final int r, final int offset, final int bytes, final int slot)
    {
        progress.beforeSend();
        space.endpoint.request(r, H_GET, space.rank, slot, offset, bytes);
        space.counts.countShort(space.local[r]);
        pending++;
    }

    /** A blocking read into {@code box[0]}: send the get, then wait for this slot's reply only. */
    private void read(final long gp, final Object box, final byte kind)
    {
        final int bytes = 1 << Elements.shift(kind);
        final int r = space.checkTarget(gp, bytes);
        if (r == space.rank)
        {
            Elements.copyOut(space.segment, GlobalPtr.offset(gp), box, kind, 0, 1);
            return;
        }
        final int slot = takeSlot(box, 0, kind, 1);
        final int generation = slotGeneration[slot];
        send(r, GlobalPtr.offset(gp), bytes, slot);
        progress.beginWait();
        while (slotGeneration[slot] == generation)
        {
            progress.waitStep("read");
        }
    }

    private int takeSlot(final Object target, final int index, final byte kind, final int chunks)
    {
        if (0 == freeTop)
        {
            progress.beginWait();
            while (0 == freeTop)
            {
                progress.waitStep("a free get slot");
            }
        }
        final int slot = freeSlots[--freeTop];
        slotTarget[slot] = target;
        slotIndex[slot] = index;
        slotKind[slot] = kind;
        slotChunks[slot] = chunks;
        return slot;
    }

    private void releaseSlot(final int slot)
    {
        slotTarget[slot] = null;
        slotGeneration[slot]++;
        freeSlots[freeTop++] = slot;
    }

    // Handlers: they run inside this rank's polls, in its thread.

    private void onGet(final Token token, final Message msg)
    {
        final int requester = msg.arg(0);
        final int slot = msg.arg(1);
        final int offset = msg.arg(2);
        if (8 == msg.arg(3))
        {
            final long value = space.segment.getLong(offset);
            token.reply(H_GET_REPLY, slot, (int)value, (int)(value >>> 32));
        }
        else
        {
            token.reply(H_GET_REPLY, slot, space.segment.getInt(offset));
        }
        space.counts.countShort(space.local[requester]);
    }

    private void onGetReply(final Token token, final Message msg)
    {
        final int slot = msg.arg(0);
        final Object target = slotTarget[slot];
        final int index = slotIndex[slot];
        switch (slotKind[slot])
        {
            case Elements.LONG -> ((long[])target)[index] = Handlers.join(msg.arg(1), msg.arg(2));
            case Elements.DOUBLE ->
                ((double[])target)[index] = Double.longBitsToDouble(Handlers.join(msg.arg(1), msg.arg(2)));
            default -> ((int[])target)[index] = msg.arg(1);
        }
        releaseSlot(slot);
        pending--;
    }

    private void onGetBulk(final Token token, final Message msg)
    {
        final int requester = msg.arg(0);
        final int offset = msg.arg(2);
        final int bytes = msg.arg(3);
        token.replyN(MessageCategory.MEDIUM, H_GET_BULK_REPLY, space.segment, offset, bytes, -1, 2, msg.arg(1),
            msg.arg(4), 0, 0, 0, 0, 0, 0);
        space.counts.countBulk(space.local[requester], bytes);
    }

    private void onGetBulkReply(final Token token, final Message msg)
    {
        final int slot = msg.arg(0);
        final byte kind = slotKind[slot];
        Elements.copyOut(msg.data(), 0, slotTarget[slot], kind, slotIndex[slot] + msg.arg(1),
            msg.dataLength() >> Elements.shift(kind));
        if (0 == --slotChunks[slot])
        {
            releaseSlot(slot);
        }
        pending--;
        pendingBulkChunks--;
    }
}
