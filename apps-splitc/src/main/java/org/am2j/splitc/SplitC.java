package org.am2j.splitc;

import java.util.Objects;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.Tags;
import org.am2j.spmd.Job;

/**
 * A Split-C style global address space on AM-II: one instance per rank, used by that rank's thread only. It offers
 * the global address space of every rank ({@link GlobalAddressSpace}), split-phase gets and puts
 * ({@link SplitPhaseAccess}), signalling stores ({@link SignallingStores}) and collectives
 * ({@link CollectiveOperations}), all of them AM-II requests and replies and nothing else (no shared memory is assumed:
 * the same code runs over the network protocol).
 * <p>
 * <b>Progress and waiting.</b> Handlers run when the rank polls: before every {@link SplitCOptions#pollEvery()}-th
 * message it sends, and in every wait. A wait with nothing to handle spins briefly, then yields, then sleeps in
 * {@link Bundle#waitSema} until a message arrives, so that more ranks than cores still progress. A wait that handles
 * nothing for {@link SplitCOptions#stallMillis()} throws {@link SplitCException} saying what it waited for.
 * <p>
 * <b>Failures.</b> A message that comes back undelivered (AM-II handler 0) throws {@link SplitCException} carrying its
 * {@link org.am2j.api.ReturnStatus} out of the call that polled, and every later call throws it again.
 * <p>
 * <b>Costs.</b> Scalar gets, puts and stores send one short request (a get or put also gets one short reply) and
 * allocate nothing. Bulk operations send one message per {@link SplitCOptions#bulkChunkBytes()} bytes: a bulk put
 * or store one long request each (the data lands in the owner's segment; a put is acknowledged per chunk), a bulk
 * get a short request answered by a medium reply per chunk, with at most {@link SplitCOptions#bulkGetWindow()}
 * chunks in flight (medium replies occupy the requester's bulk queue, which is short). Every message sent is counted
 * ({@link #counts()}).
 * <p>
 * <b>Structure.</b> This class is the rank's interface; the work is done by one class per concern, each with its
 * AM-II handlers: {@code Gets} (split-phase gets and blocking reads), {@code Puts} and {@code Stores} (split-phase
 * puts, signalling stores and their completion), {@code BulkStaging} (bulk puts and stores through a staging area),
 * {@code Collectives} (barrier, reductions, broadcast), over {@code GlobalSpace} (endpoint, segment, ranks and nodes,
 * message counts) and {@code Progress} (polling, waiting, failure).
 */
public final class SplitC
    implements GlobalAddressSpace, SplitPhaseAccess, SignallingStores, CollectiveOperations, AutoCloseable
{
    private final Bootstrap bootstrap;
    private final GlobalSpace space;
    private final Progress progress;
    private final Gets gets;
    private final Puts puts;
    private final Stores stores;
    private final BulkStaging bulk;
    private final Collectives collectives;

    private SplitC(final Bootstrap bootstrap, final SplitCOptions options)
    {
        this.bootstrap = bootstrap;
        final int rank = bootstrap.rank();
        final int size = bootstrap.size();
        if (rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank " + rank + " of " + size);
        }
        final Bundle bundle = Am.allocateBundle(BundleKind.SEQ);
        try
        {
            this.progress = new Progress(bundle, rank, options);
            final Endpoint endpoint = bundle.allocateEndpoint();
            if (endpoint.numTranslations() < size)
            {
                endpoint.numTranslations(size);
            }
            final AtomicBuffer segment = endpoint.allocateSegment(Math.max(8, options.segmentBytes()));
            this.space = new GlobalSpace(rank, size, endpoint, segment, progress);
            space.bulkChunkBytes = options.bulkChunkBytes();
            this.gets = new Gets(space, progress, options);
            this.puts = new Puts(space);
            this.collectives = new Collectives(space, progress);
            this.stores = new Stores(space, progress, collectives);
            this.bulk = new BulkStaging(space, progress, puts, stores);
            endpoint.handler(0, (token, msg) -> Handlers.onReturned(progress, token, msg));
            gets.install(endpoint);
            puts.install(endpoint);
            stores.install(endpoint);
            bulk.install(endpoint);
            collectives.install(endpoint);
            progress.diagnostics(this::state);
            endpoint.tag(Tags.fresh());
            space.mapEveryRank(bootstrap);
        }
        catch (final RuntimeException ex)
        {
            bundle.close();
            throw ex;
        }
    }

    /**
     * Set up the Split-C layer of this rank of an SPMD job: allocate a bundle, an endpoint with a fresh tag and its
     * segment, all-gather every rank's endpoint name, tag and segment length, map rank r at translation index r, and
     * wait until every rank has done so. Every rank of the job calls it.
     *
     * @param job     this rank's job.
     * @param options settings, among them the size of this rank's segment.
     * @return the runtime of this rank.
     */
    public static SplitC init(final Job job, final SplitCOptions options)
    {
        return init(Bootstrap.of(Objects.requireNonNull(job, "job")), options);
    }

    /**
     * {@link #init(Job, SplitCOptions)} over any bootstrap (ranks as threads of one JVM, another launcher).
     *
     * @param bootstrap this rank's place in the job and the set-up collectives.
     * @param options   settings, among them the size of this rank's segment.
     * @return the runtime of this rank.
     */
    public static SplitC init(final Bootstrap bootstrap, final SplitCOptions options)
    {
        return new SplitC(Objects.requireNonNull(bootstrap, "bootstrap"), Objects.requireNonNull(options, "options"));
    }

    @Override
    public int myProc()
    {
        return space.rank;
    }

    @Override
    public int procs()
    {
        return space.size;
    }

    @Override
    public boolean isLocal(final int otherRank)
    {
        return space.local[Objects.checkIndex(otherRank, space.size)];
    }

    @Override
    public int nodeOf(final int otherRank)
    {
        return space.nodeOf(Objects.checkIndex(otherRank, space.size));
    }

    @Override
    public int nodes()
    {
        return space.nodes();
    }

    @Override
    public AtomicBuffer segment()
    {
        return space.segment;
    }

    @Override
    public int segmentLength(final int otherRank)
    {
        return space.segmentLength(Objects.checkIndex(otherRank, space.size));
    }

    /**
     * @return the AM-II endpoint under this layer (for statistics and tests; sending through it directly bypasses
     * the layer's counts and completion tracking).
     */
    public Endpoint endpoint()
    {
        return space.endpoint;
    }

    /**
     * @return the live counts of the messages this rank has sent.
     */
    public CommCounts counts()
    {
        return space.counts;
    }

    /**
     * @param bytes largest message of later bulk operations, 8 to {@link Am#MAX_LONG}, a multiple of 8 (the 3D FFT
     *              sends 4 KiB messages as in the model paper).
     */
    public void bulkChunkBytes(final int bytes)
    {
        space.bulkChunkBytes = SplitCOptions.checkChunk(bytes);
    }

    /**
     * @return largest message of bulk operations.
     */
    public int bulkChunkBytes()
    {
        return space.bulkChunkBytes;
    }

    /**
     * Run the handlers of the messages waiting for this rank. A rank that computes for long without calling this
     * layer delays the peers that access its segment; it may call this now and then.
     *
     * @return messages handled.
     */
    public int poll()
    {
        return progress.poll();
    }

    @Override
    public void getLong(final long gp, final long[] dst, final int index)
    {
        gets.get(gp, dst, dst.length, Elements.LONG, index);
    }

    @Override
    public void getDouble(final long gp, final double[] dst, final int index)
    {
        gets.get(gp, dst, dst.length, Elements.DOUBLE, index);
    }

    @Override
    public void getInt(final long gp, final int[] dst, final int index)
    {
        gets.get(gp, dst, dst.length, Elements.INT, index);
    }

    @Override
    public void bulkGet(final long[] dst, final int dstIndex, final long gp, final int count)
    {
        gets.bulkGet(dst, dst.length, Elements.LONG, dstIndex, gp, count);
    }

    @Override
    public void bulkGet(final double[] dst, final int dstIndex, final long gp, final int count)
    {
        gets.bulkGet(dst, dst.length, Elements.DOUBLE, dstIndex, gp, count);
    }

    @Override
    public void bulkGet(final int[] dst, final int dstIndex, final long gp, final int count)
    {
        gets.bulkGet(dst, dst.length, Elements.INT, dstIndex, gp, count);
    }

    @Override
    public long readLong(final long gp)
    {
        return gets.readLong(gp);
    }

    @Override
    public int readInt(final long gp)
    {
        return gets.readInt(gp);
    }

    @Override
    public void putLong(final long gp, final long value)
    {
        puts.put(gp, value, 8);
    }

    @Override
    public void putInt(final long gp, final int value)
    {
        puts.put(gp, value, 4);
    }

    @Override
    public void bulkPut(final long gp, final long[] src, final int srcIndex, final int count)
    {
        bulk.bulkPut(gp, src, src.length, Elements.LONG, srcIndex, count);
    }

    @Override
    public void bulkPut(final long gp, final double[] src, final int srcIndex, final int count)
    {
        bulk.bulkPut(gp, src, src.length, Elements.DOUBLE, srcIndex, count);
    }

    @Override
    public void bulkPut(final long gp, final int[] src, final int srcIndex, final int count)
    {
        bulk.bulkPut(gp, src, src.length, Elements.INT, srcIndex, count);
    }

    @Override
    public void sync()
    {
        progress.beginWait();
        while (0 != gets.pending() || 0 != puts.pending())
        {
            progress.waitStep("sync");
        }
        progress.checkUsable();
    }

    /**
     * @return how many times a wait of this rank slept in {@code waitSema} (after its spins and yields found nothing).
     */
    public long sleeps()
    {
        return progress.sleeps();
    }

    /**
     * @return how many of those sleeps ended with no message, after the whole sleep.
     */
    public long sleepTimeouts()
    {
        return progress.sleepTimeouts();
    }

    @Override
    public int outstanding()
    {
        return gets.pending() + puts.pending();
    }

    @Override
    public void storeLong(final long gp, final long value)
    {
        stores.store(gp, value, 8);
    }

    @Override
    public void storeInt(final long gp, final int value)
    {
        stores.store(gp, value, 4);
    }

    @Override
    public void bulkStore(final long gp, final long[] src, final int srcIndex, final int count)
    {
        bulk.bulkStore(gp, src, src.length, Elements.LONG, srcIndex, count);
    }

    @Override
    public void bulkStore(final long gp, final double[] src, final int srcIndex, final int count)
    {
        bulk.bulkStore(gp, src, src.length, Elements.DOUBLE, srcIndex, count);
    }

    @Override
    public void bulkStore(final long gp, final int[] src, final int srcIndex, final int count)
    {
        bulk.bulkStore(gp, src, src.length, Elements.INT, srcIndex, count);
    }

    @Override
    public void storeSync(final long bytes)
    {
        stores.storeSync(bytes);
    }

    @Override
    public void allStoreSync()
    {
        stores.allStoreSync();
    }

    @Override
    public long storedBytes()
    {
        return stores.storedBytes();
    }

    @Override
    public void barrier()
    {
        collectives.barrier();
    }

    @Override
    public long allReduceSum(final long value)
    {
        return collectives.reduce(Collectives.OP_SUM_LONG, value);
    }

    @Override
    public long allReduceMin(final long value)
    {
        return collectives.reduce(Collectives.OP_MIN_LONG, value);
    }

    @Override
    public long allReduceMax(final long value)
    {
        return collectives.reduce(Collectives.OP_MAX_LONG, value);
    }

    @Override
    public double allReduceSum(final double value)
    {
        return collectives.reduce(Collectives.OP_SUM_DOUBLE, value);
    }

    @Override
    public double allReduceMin(final double value)
    {
        return collectives.reduce(Collectives.OP_MIN_DOUBLE, value);
    }

    @Override
    public double allReduceMax(final double value)
    {
        return collectives.reduce(Collectives.OP_MAX_DOUBLE, value);
    }

    @Override
    public long broadcast(final int root, final long value)
    {
        return collectives.broadcast(root, value);
    }

    /**
     * Summarise counts of every rank (a collective: every rank calls it, with its own counts).
     *
     * @param mine this rank's counts, e.g. {@code counts().minus(before)} for a phase.
     * @return sums, minima and maxima over the ranks.
     */
    public CommSummary summarize(final CommCounts mine)
    {
        final long[] values = mine.toArray();
        final long[] sum = new long[values.length];
        final long[] min = new long[values.length];
        final long[] max = new long[values.length];
        for (int i = 0; i < values.length; i++)
        {
            sum[i] = allReduceSum(values[i]);
            min[i] = allReduceMin(values[i]);
            max[i] = allReduceMax(values[i]);
        }
        return new CommSummary(space.size, sum, min, max);
    }

    /**
     * Leave the job normally: wait until every rank has called this (through the bootstrap, so that no rank frees
     * its endpoint while a peer may still need it), then {@link #close()}. Complete outstanding accesses first
     * ({@link #sync()}, {@link #allStoreSync()}).
     */
    public void finish()
    {
        progress.checkUsable();
        if (0 != gets.pending() || 0 != puts.pending())
        {
            throw new SplitCException("rank " + space.rank + ": finish() with " + gets.pending() + " gets and " +
                puts.pending() + " puts outstanding; call sync() first");
        }
        bootstrap.barrier();
        close();
    }

    /**
     * Free the endpoint, its segment and the bundle at once, without waiting for other ranks (on failure paths; a
     * normal end calls {@link #finish()}). Closing twice is harmless.
     */
    @Override
    public void close()
    {
        progress.close();
    }

    /**
     * @return the failure that made this layer unusable (a returned message, a stall, a collective mismatch), or
     * {@code null} while it works.
     */
    public SplitCException failure()
    {
        return progress.failure();
    }

    /**
     * @return what this rank is waiting for, for diagnostics.
     */
    public String state()
    {
        return "rank " + space.rank + " of " + space.size + ": gets outstanding " + gets.pending() +
            ", puts outstanding " + puts.pending() + ", " + stores.state() + ", " + collectives.state() + ", sleeps " +
            progress.sleeps() + " (timed out " + progress.sleepTimeouts() + "), queue-full back-offs " +
            space.endpoint.statistics().total(EndpointStatistics.Counter.QUEUE_FULL_BACKOFFS) + ", " + space.counts;
    }

    @Override
    public String toString()
    {
        return "SplitC{rank " + space.rank + " of " + space.size + ", segment " + space.segment.capacity() + " bytes}";
    }
}
