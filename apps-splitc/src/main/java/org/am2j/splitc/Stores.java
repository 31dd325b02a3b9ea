package org.am2j.splitc;

import static org.am2j.splitc.Handlers.H_STORE;
import static org.am2j.splitc.Handlers.H_STORE_COUNT;

import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.Token;

/**
 * Signalling stores of one rank, scalar (bulk ones go through {@link BulkStaging}), their completion and their
 * handlers. A store is one-way: the owner writes the value ({@link Handlers#H_STORE}) and counts the bytes that
 * arrived; nobody acknowledges. The owner learns of stores with {@link #storeSync(long)} (wait until that many more
 * bytes have arrived) or, every rank together, with {@link #allStoreSync()}: each rank tells every other how many
 * bytes it stored to it since the last call ({@link Handlers#H_STORE_COUNT}), waits until it has received those,
 * then enters the barrier.
 */
final class Stores
{
    private final GlobalSpace space;
    private final Progress progress;
    private final Collectives collectives;
    /** Bytes stored into my segment, by any rank. */
    private long arrived;
    /** Bytes of {@link #arrived} that waits have accounted for. */
    private long consumed;
    /** Bytes announced by the ranks' allStoreSync calls (and my own stores to myself). */
    private long expected;
    private long announcementsReceived;
    private long announcementsExpected;
    /** Bytes this rank stored to each rank since its last allStoreSync. */
    private final long[] sentTo;

    Stores(final GlobalSpace space, final Progress progress, final Collectives collectives)
    {
        this.space = space;
        this.progress = progress;
        this.collectives = collectives;
        this.sentTo = new long[space.size];
    }

    void install(final Endpoint endpoint)
    {
        endpoint.handler(H_STORE, this::onStore);
        endpoint.handler(H_STORE_COUNT, this::onStoreCount);
    }

    /**
     * Count bytes stored into this rank's segment by another concern (a bulk store, this rank's own or another's).
     *
     * @param bytes bytes that arrived.
     */
    void arrived(final long bytes)
    {
        arrived += bytes;
    }

    /**
     * Count bytes this rank stored to a rank, for the next {@link #allStoreSync()}.
     *
     * @param r     the owner.
     * @param bytes bytes stored.
     */
    void sentTo(final int r, final long bytes)
    {
        sentTo[r] += bytes;
    }

    /**
     * Store a scalar of 4 or 8 bytes (a double as its raw bits), one-way.
     */
    void store(final long gp, final long value, final int bytes)
    {
        final int r = space.checkTarget(gp, bytes);
        if (r == space.rank)
        {
            space.writeScalar(GlobalPtr.offset(gp), value, bytes);
            arrived += bytes;
        }
        else
        {
            space.sendScalar(r, H_STORE, GlobalPtr.offset(gp), value, bytes);
        }
        sentTo[r] += bytes;
    }

    void storeSync(final long bytes)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("bytes = " + bytes + " must be 0 or more");
        }
        progress.beginWait();
        while (arrived - consumed < bytes)
        {
            progress.waitStep("storeSync");
        }
        consumed += bytes;
        progress.checkUsable();
    }

    void allStoreSync()
    {
        progress.checkUsable();
        final int rank = space.rank;
        final int size = space.size;
        for (int k = 1; k < size; k++)
        {
            final int d = (rank + k) % size;
            final long bytes = sentTo[d];
            sentTo[d] = 0;
            progress.beforeSend();
            space.endpoint.request(d, H_STORE_COUNT, rank, (int)bytes, (int)(bytes >>> 32));
            space.counts.countShort(space.local[d]);
        }
        expected += sentTo[rank];
        sentTo[rank] = 0;
        announcementsExpected += size - 1;
        progress.beginWait();
        while (announcementsReceived < announcementsExpected || arrived < expected)
        {
            progress.waitStep("allStoreSync");
        }
        // Stores of the next round may arrive from ranks that leave the barrier first: account up to this round only.
        consumed = Math.max(consumed, expected);
        collectives.barrier();
    }

    /**
     * @return bytes stored into this rank's segment so far (by any rank, this one included).
     */
    long storedBytes()
    {
        return arrived;
    }

    /**
     * @return the store counters, for diagnostics.
     */
    String state()
    {
        return "bytes stored here " + arrived + " (accounted " + consumed + ", announced " + expected +
            "), store announcements " + announcementsReceived + "/" + announcementsExpected;
    }

    // Handlers: they run inside this rank's polls, in its thread.

    private void onStore(final Token token, final Message msg)
    {
        arrived += space.writeScalar(msg);
    }

    private void onStoreCount(final Token token, final Message msg)
    {
        expected += Handlers.join(msg.arg(1), msg.arg(2));
        announcementsReceived++;
    }
}
