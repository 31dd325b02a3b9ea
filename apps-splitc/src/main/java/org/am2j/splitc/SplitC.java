package org.am2j.splitc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.EventMask;
import org.am2j.api.Handler;
import org.am2j.api.Message;
import org.am2j.api.MessageCategory;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.spmd.Job;

/**
 * A Split-C style global address space on AM-II: one instance per rank, used by that rank's thread only.
 * <p>
 * <b>Memory.</b> Every rank has a <em>global segment</em>: the AM-II segment of its endpoint, allocated by
 * {@link Endpoint#allocateSegment(int)} ({@link #segment()}). A global pointer ({@link GlobalPtr}, a packed
 * {@code long}) names a rank and a byte offset in that rank's segment. A rank reads and writes its own segment
 * directly; other ranks' segments only through the operations below, which are AM-II requests and replies to the
 * owner and nothing else (no shared memory is assumed: the same code runs over the network protocol).
 * <p>
 * <b>Split-phase get and put</b> ({@link #getLong}, {@link #putLong}, {@link #bulkGet}, {@link #bulkPut}, ...) start
 * an access and return at once; {@link #sync()} waits until every get and put this rank started has completed. A get
 * names a destination in this rank's memory (an array element); the value is written there by the reply's handler,
 * which runs only inside a call of this layer that polls, and the get call itself polls only <em>before</em> it
 * sends: so the destination does not change during the get call, and holds the value after {@code sync()}. Reading it
 * between the two is a race, as in Split-C. A put is complete when the owner has written the value and acknowledged.
 * <p>
 * <b>Signalling stores</b> ({@link #storeLong}, {@link #bulkStore}, ...) are one-way: the owner writes the value and
 * counts the bytes, and nobody acknowledges. The owner learns of them with {@link #storeSync(long)} (wait until that
 * many bytes more have been stored into my segment) or, all ranks together, with {@link #allStoreSync()} (every store
 * any rank issued before the call has completed when it returns, everywhere).
 * <p>
 * <b>Collectives</b> ({@link #barrier()}, {@link #allReduceSum(long)} and the other reductions,
 * {@link #broadcast(int, long)}) are called by every rank in the same order. They gather at rank 0 and fan out from it;
 * rank 0 combines the contributions in rank order, so a double reduction gives the same bits on every run.
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
 */
public final class SplitC implements AutoCloseable
{
    /** Handler of a scalar get: (requester, slot, offset, bytes). */
    static final int H_GET = 64;
    /** Reply to a scalar get: (slot, low word, high word). */
    static final int H_GET_REPLY = 65;
    /** Handler of one chunk of a bulk get: (requester, slot, offset, bytes, first element of the chunk). */
    static final int H_GET_BULK = 66;
    /** Medium reply with one chunk of a bulk get: (slot, first element of the chunk). */
    static final int H_GET_BULK_REPLY = 67;
    /** Handler of a scalar put: (requester, offset, low word[, high word]). */
    static final int H_PUT = 68;
    /** Handler of a long request holding one chunk of a bulk put: (requester). */
    static final int H_PUT_BULK = 69;
    /** Reply acknowledging a put or a chunk of a bulk put. */
    static final int H_PUT_ACK = 70;
    /** Handler of a scalar store: (requester, offset, low word[, high word]). */
    static final int H_STORE = 71;
    /** Handler of a long request holding one chunk of a bulk store: (requester). */
    static final int H_STORE_BULK = 72;
    /** Handler at the collective root of a contribution: (contributor, epoch, operation, low word, high word). */
    static final int H_COLLECTIVE = 73;
    /** Handler of a collective's result: (epoch, low word, high word). */
    static final int H_COLLECTIVE_RESULT = 74;
    /** Handler of the bytes a rank stored to this one since the last allStoreSync: (sender, low word, high word). */
    static final int H_STORE_COUNT = 75;

    private static final byte KIND_LONG = 1;
    private static final byte KIND_DOUBLE = 2;
    private static final byte KIND_INT = 3;

    private static final int OP_BARRIER = 1;
    private static final int OP_SUM_LONG = 2;
    private static final int OP_MIN_LONG = 3;
    private static final int OP_MAX_LONG = 4;
    private static final int OP_SUM_DOUBLE = 5;
    private static final int OP_MIN_DOUBLE = 6;
    private static final int OP_MAX_DOUBLE = 7;
    private static final int OP_BROADCAST = 8;
    private static final int OP_KIND_MASK = 0xFF;
    private static final int ROOT_SHIFT = 8;

    private static final int COLLECTIVE_ROOT = 0;
    private static final int STAGING_BYTES = Math.max(Am.MAX_LONG, Am.MAX_MEDIUM);

    private final Bootstrap bootstrap;
    private final Bundle bundle;
    private final Endpoint endpoint;
    private final AtomicBuffer segment;
    private final int rank;
    private final int size;
    private final boolean[] local;
    private final int[] nodeOf;
    private int nodes;
    private final int[] segmentLengths;
    private final CommCounts counts = new CommCounts();

    private final int pollEvery;
    private final long stallNanos;
    private final int spins;
    private final int yields;
    private final int sleepMicros;
    private int chunkBytes;
    private int sendsSincePoll;
    private int idle;
    private long idleSince;
    private long sleeps;
    private long sleepTimeouts;

    /** Staging area of bulk puts and stores: the data of one chunk is copied here from the caller's array. */
    private final UnsafeBuffer staging;
    private final DoubleBuffer stagingDoubles;
    private final LongBuffer stagingLongs;
    private final IntBuffer stagingInts;

    // Outstanding gets: each has a slot that says where its value goes. Slots are recycled through a stack.
    private final Object[] slotTarget;
    private final int[] slotIndex;
    private final byte[] slotKind;
    private final int[] slotChunks;
    private final int[] slotGeneration;
    private final int[] freeSlots;
    private int freeTop;
    /** Get messages (scalar gets and chunks of bulk gets) whose reply has not been handled. */
    private int pendingGets;
    /** Put messages (scalar puts and chunks of bulk puts) not yet acknowledged. */
    private int pendingPuts;
    /** Chunks of bulk gets whose medium reply has not been handled, at most {@link #bulkGetWindow}. */
    private int pendingBulkChunks;
    private final int bulkGetWindow;
    private final long[] readLongBox = new long[1];
    private final double[] readDoubleBox = new double[1];
    private final int[] readIntBox = new int[1];

    // Stores: bytes stored into my segment, bytes my waits have accounted for, bytes announced by allStoreSync.
    private long storeArrived;
    private long storeConsumed;
    private long storeExpected;
    private long announcementsReceived;
    private long announcementsExpected;
    /** Bytes this rank stored to each rank since its last allStoreSync. */
    private final long[] storeSentTo;

    // Collectives: contributions at the root by epoch parity (a rank is at most one collective ahead of the root).
    private int collectiveEpoch;
    private final long[][] collectiveValues;
    private final int[][] collectiveOps;
    private final int[] collectiveCount = new int[2];
    private int resultEpoch;
    private long resultValue;

    private SplitCException failure;
    private boolean closed;

    private SplitC(final Bootstrap bootstrap, final SplitCOptions options)
    {
        this.bootstrap = bootstrap;
        this.rank = bootstrap.rank();
        this.size = bootstrap.size();
        if (rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank " + rank + " of " + size);
        }
        this.pollEvery = options.pollEvery();
        this.stallNanos = TimeUnit.MILLISECONDS.toNanos(options.stallMillis());
        this.spins = options.spins();
        this.yields = options.yields();
        this.sleepMicros = options.sleepMicros();
        this.chunkBytes = options.bulkChunkBytes();
        this.bulkGetWindow = options.bulkGetWindow();

        final ByteBuffer stagingBytes = ByteBuffer.allocateDirect(STAGING_BYTES).order(ByteOrder.nativeOrder());
        this.staging = new UnsafeBuffer(stagingBytes);
        this.stagingDoubles = stagingBytes.asDoubleBuffer();
        this.stagingLongs = stagingBytes.asLongBuffer();
        this.stagingInts = stagingBytes.asIntBuffer();

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

        this.local = new boolean[size];
        this.nodeOf = new int[size];
        this.segmentLengths = new int[size];
        this.storeSentTo = new long[size];
        this.collectiveValues = new long[2][size];
        this.collectiveOps = new int[2][size];

        this.bundle = Am.allocateBundle(BundleKind.SEQ);
        try
        {
            this.endpoint = bundle.allocateEndpoint();
            if (endpoint.numTranslations() < size)
            {
                endpoint.numTranslations(size);
            }
            installHandlers();
            this.segment = endpoint.allocateSegment(Math.max(8, options.segmentBytes()));
            endpoint.tag(Tags.fresh());
            mapEveryRank();
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

    private void installHandlers()
    {
        final Handler returned = this::onReturned;
        endpoint.handler(0, returned);
        endpoint.handler(H_GET, this::onGet);
        endpoint.handler(H_GET_REPLY, this::onGetReply);
        endpoint.handler(H_GET_BULK, this::onGetBulk);
        endpoint.handler(H_GET_BULK_REPLY, this::onGetBulkReply);
        endpoint.handler(H_PUT, this::onPut);
        endpoint.handler(H_PUT_BULK, this::onPutBulk);
        endpoint.handler(H_PUT_ACK, this::onPutAck);
        endpoint.handler(H_STORE, this::onStore);
        endpoint.handler(H_STORE_BULK, this::onStoreBulk);
        endpoint.handler(H_COLLECTIVE, this::onCollective);
        endpoint.handler(H_COLLECTIVE_RESULT, this::onCollectiveResult);
        endpoint.handler(H_STORE_COUNT, this::onStoreCount);
    }

    private void mapEveryRank()
    {
        final byte[] name = endpoint.name().toBytes();
        final ByteBuffer mine = ByteBuffer.allocate(12 + name.length);
        mine.putLong(endpoint.tag()).putInt(segment.capacity()).put(name);
        final byte[][] all = bootstrap.allGather(mine.array());
        if (all.length != size)
        {
            throw new SplitCException("rank " + rank + ": the all-gather returned " + all.length + " contributions for " +
                size + " ranks");
        }
        final EndpointName myName = endpoint.name();
        final Map<String, Integer> nodeIndex = new HashMap<>();
        for (int r = 0; r < size; r++)
        {
            final ByteBuffer theirs = ByteBuffer.wrap(all[r]);
            final long tag = theirs.getLong();
            segmentLengths[r] = theirs.getInt();
            final byte[] bytes = new byte[theirs.remaining()];
            theirs.get(bytes);
            final EndpointName peer = EndpointName.fromBytes(bytes);
            endpoint.map(r, peer, tag);
            local[r] = myName.sameNode(peer);
            nodeOf[r] = nodeIndex.computeIfAbsent(peer.node(), k -> nodeIndex.size());
        }
        nodes = nodeIndex.size();
        bootstrap.barrier();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Identity and memory
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * @return this rank (Split-C's MYPROC).
     */
    public int myProc()
    {
        return rank;
    }

    /**
     * @return number of ranks (Split-C's PROCS).
     */
    public int procs()
    {
        return size;
    }

    /**
     * @param otherRank a rank.
     * @return true when that rank runs on this rank's node (messages to it are local), also for this rank itself.
     */
    public boolean isLocal(final int otherRank)
    {
        return local[Objects.checkIndex(otherRank, size)];
    }

    /**
     * @param otherRank a rank.
     * @return the index of the node it runs on: nodes are numbered in order of their lowest rank, from 0.
     */
    public int nodeOf(final int otherRank)
    {
        return nodeOf[Objects.checkIndex(otherRank, size)];
    }

    /**
     * @return number of nodes the ranks run on.
     */
    public int nodes()
    {
        return nodes;
    }

    /**
     * @return this rank's global segment: read and write it directly; other ranks reach it through this layer.
     */
    public AtomicBuffer segment()
    {
        return segment;
    }

    /**
     * @param otherRank a rank.
     * @return the length in bytes of that rank's segment.
     */
    public int segmentLength(final int otherRank)
    {
        return segmentLengths[Objects.checkIndex(otherRank, size)];
    }

    /**
     * @param offset byte offset in this rank's segment.
     * @return a global pointer to it.
     */
    public long toGlobal(final int offset)
    {
        return GlobalPtr.of(rank, offset);
    }

    /**
     * @return the AM-II endpoint under this layer (for statistics and tests; sending through it directly bypasses
     * the layer's counts and completion tracking).
     */
    public Endpoint endpoint()
    {
        return endpoint;
    }

    /**
     * @return the live counts of the messages this rank has sent.
     */
    public CommCounts counts()
    {
        return counts;
    }

    /**
     * @param bytes largest message of later bulk operations, 8 to {@link Am#MAX_LONG}, a multiple of 8 (the 3D FFT
     *              sends 4 KiB messages as in the model paper).
     */
    public void bulkChunkBytes(final int bytes)
    {
        this.chunkBytes = SplitCOptions.checkChunk(bytes);
    }

    /**
     * @return largest message of bulk operations.
     */
    public int bulkChunkBytes()
    {
        return chunkBytes;
    }

    /**
     * Run the handlers of the messages waiting for this rank. A rank that computes for long without calling this
     * layer delays the peers that access its segment; it may call this now and then.
     *
     * @return messages handled.
     */
    public int poll()
    {
        checkUsable();
        return bundle.poll();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Split-phase gets
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Start reading the long at a global pointer into {@code dst[index]}; the value is there after {@link #sync()}.
     *
     * @param gp    where to read, 8 bytes.
     * @param dst   destination array.
     * @param index destination element.
     */
    public void getLong(final long gp, final long[] dst, final int index)
    {
        final int r = checkTarget(gp, 8);
        Objects.checkIndex(index, dst.length);
        if (r == rank)
        {
            dst[index] = segment.getLong(GlobalPtr.offset(gp));
            return;
        }
        sendGet(r, GlobalPtr.offset(gp), 8, takeSlot(dst, index, KIND_LONG, 1));
    }

    /**
     * Start reading the double at a global pointer into {@code dst[index]}; the value is there after {@link #sync()}.
     *
     * @param gp    where to read, 8 bytes.
     * @param dst   destination array.
     * @param index destination element.
     */
    public void getDouble(final long gp, final double[] dst, final int index)
    {
        final int r = checkTarget(gp, 8);
        Objects.checkIndex(index, dst.length);
        if (r == rank)
        {
            dst[index] = segment.getDouble(GlobalPtr.offset(gp));
            return;
        }
        sendGet(r, GlobalPtr.offset(gp), 8, takeSlot(dst, index, KIND_DOUBLE, 1));
    }

    /**
     * Start reading the int at a global pointer into {@code dst[index]}; the value is there after {@link #sync()}.
     *
     * @param gp    where to read, 4 bytes.
     * @param dst   destination array.
     * @param index destination element.
     */
    public void getInt(final long gp, final int[] dst, final int index)
    {
        final int r = checkTarget(gp, 4);
        Objects.checkIndex(index, dst.length);
        if (r == rank)
        {
            dst[index] = segment.getInt(GlobalPtr.offset(gp));
            return;
        }
        sendGet(r, GlobalPtr.offset(gp), 4, takeSlot(dst, index, KIND_INT, 1));
    }

    private void sendGet(final int r, final int offset, final int bytes, final int slot)
    {
        beforeSend();
        endpoint.request(r, H_GET, rank, slot, offset, bytes);
        counts.countShort(local[r]);
        pendingGets++;
    }

    /**
     * Start reading {@code count} longs from a global pointer into {@code dst[dstIndex...]}; they are there after
     * {@link #sync()}.
     *
     * @param dst      destination array.
     * @param dstIndex first destination element.
     * @param gp       where to read, {@code 8 * count} bytes.
     * @param count    number of elements, 0 or more.
     */
    public void bulkGet(final long[] dst, final int dstIndex, final long gp, final int count)
    {
        bulkGet(dst, dst.length, KIND_LONG, 3, dstIndex, gp, count);
    }

    /**
     * Start reading {@code count} doubles from a global pointer into {@code dst[dstIndex...]}; they are there after
     * {@link #sync()}.
     *
     * @param dst      destination array.
     * @param dstIndex first destination element.
     * @param gp       where to read, {@code 8 * count} bytes.
     * @param count    number of elements, 0 or more.
     */
    public void bulkGet(final double[] dst, final int dstIndex, final long gp, final int count)
    {
        bulkGet(dst, dst.length, KIND_DOUBLE, 3, dstIndex, gp, count);
    }

    /**
     * Start reading {@code count} ints from a global pointer into {@code dst[dstIndex...]}; they are there after
     * {@link #sync()}.
     *
     * @param dst      destination array.
     * @param dstIndex first destination element.
     * @param gp       where to read, {@code 4 * count} bytes.
     * @param count    number of elements, 0 or more.
     */
    public void bulkGet(final int[] dst, final int dstIndex, final long gp, final int count)
    {
        bulkGet(dst, dst.length, KIND_INT, 2, dstIndex, gp, count);
    }

    private void bulkGet(
        final Object dst, final int dstLength, final byte kind, final int shift, final int dstIndex, final long gp,
        final int count)
    {
        Objects.checkFromIndexSize(dstIndex, count, dstLength);
        final int r = checkTarget(gp, (long)count << shift);
        final int offset = GlobalPtr.offset(gp);
        if (0 == count)
        {
            return;
        }
        if (r == rank)
        {
            copyOut(segment, offset, dst, kind, dstIndex, count);
            return;
        }
        final int perChunk = chunkBytes >> shift;
        final int chunks = (count + perChunk - 1) / perChunk;
        final int slot = takeSlot(dst, dstIndex, kind, chunks);
        for (int done = 0; done < count; done += perChunk)
        {
            final int n = Math.min(perChunk, count - done);
            if (pendingBulkChunks >= bulkGetWindow)
            {
                idle = 0;
                while (pendingBulkChunks >= bulkGetWindow)
                {
                    progress("the bulk get window");
                }
            }
            beforeSend();
            endpoint.request(r, H_GET_BULK, rank, slot, offset + (done << shift), n << shift, done);
            counts.countShort(local[r]);
            pendingGets++;
            pendingBulkChunks++;
        }
    }

    /**
     * Blocking read of a long (Split-C's {@code x = *gp}): waits for this value only, not for other outstanding
     * accesses.
     *
     * @param gp where to read, 8 bytes.
     * @return the value.
     */
    public long readLong(final long gp)
    {
        final int r = checkTarget(gp, 8);
        if (r == rank)
        {
            return segment.getLong(GlobalPtr.offset(gp));
        }
        final int slot = takeSlot(readLongBox, 0, KIND_LONG, 1);
        final int generation = slotGeneration[slot];
        sendGet(r, GlobalPtr.offset(gp), 8, slot);
        awaitSlot(slot, generation);
        return readLongBox[0];
    }

    /**
     * Blocking read of a double: waits for this value only.
     *
     * @param gp where to read, 8 bytes.
     * @return the value.
     */
    public double readDouble(final long gp)
    {
        final int r = checkTarget(gp, 8);
        if (r == rank)
        {
            return segment.getDouble(GlobalPtr.offset(gp));
        }
        final int slot = takeSlot(readDoubleBox, 0, KIND_DOUBLE, 1);
        final int generation = slotGeneration[slot];
        sendGet(r, GlobalPtr.offset(gp), 8, slot);
        awaitSlot(slot, generation);
        return readDoubleBox[0];
    }

    /**
     * Blocking read of an int: waits for this value only.
     *
     * @param gp where to read, 4 bytes.
     * @return the value.
     */
    public int readInt(final long gp)
    {
        final int r = checkTarget(gp, 4);
        if (r == rank)
        {
            return segment.getInt(GlobalPtr.offset(gp));
        }
        final int slot = takeSlot(readIntBox, 0, KIND_INT, 1);
        final int generation = slotGeneration[slot];
        sendGet(r, GlobalPtr.offset(gp), 4, slot);
        awaitSlot(slot, generation);
        return readIntBox[0];
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Split-phase puts
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Start writing a long at a global pointer; it is written when {@link #sync()} returns.
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    public void putLong(final long gp, final long value)
    {
        final int r = checkTarget(gp, 8);
        if (r == rank)
        {
            segment.putLong(GlobalPtr.offset(gp), value);
            return;
        }
        beforeSend();
        endpoint.request(r, H_PUT, rank, GlobalPtr.offset(gp), (int)value, (int)(value >>> 32));
        counts.countShort(local[r]);
        pendingPuts++;
    }

    /**
     * Start writing a double at a global pointer; it is written when {@link #sync()} returns.
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    public void putDouble(final long gp, final double value)
    {
        putLong(gp, Double.doubleToRawLongBits(value));
    }

    /**
     * Start writing an int at a global pointer; it is written when {@link #sync()} returns.
     *
     * @param gp    where to write, 4 bytes.
     * @param value the value.
     */
    public void putInt(final long gp, final int value)
    {
        final int r = checkTarget(gp, 4);
        if (r == rank)
        {
            segment.putInt(GlobalPtr.offset(gp), value);
            return;
        }
        beforeSend();
        endpoint.request(r, H_PUT, rank, GlobalPtr.offset(gp), value);
        counts.countShort(local[r]);
        pendingPuts++;
    }

    /**
     * Start writing {@code count} longs of {@code src} at a global pointer; they are written when {@link #sync()}
     * returns. {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write, {@code 8 * count} bytes.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    public void bulkPut(final long gp, final long[] src, final int srcIndex, final int count)
    {
        bulkWrite(H_PUT_BULK, gp, src, src.length, KIND_LONG, 3, srcIndex, count);
    }

    /**
     * Start writing {@code count} doubles of {@code src} at a global pointer; they are written when {@link #sync()}
     * returns. {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write, {@code 8 * count} bytes.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    public void bulkPut(final long gp, final double[] src, final int srcIndex, final int count)
    {
        bulkWrite(H_PUT_BULK, gp, src, src.length, KIND_DOUBLE, 3, srcIndex, count);
    }

    /**
     * Start writing {@code count} ints of {@code src} at a global pointer; they are written when {@link #sync()}
     * returns. {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write, {@code 4 * count} bytes.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    public void bulkPut(final long gp, final int[] src, final int srcIndex, final int count)
    {
        bulkWrite(H_PUT_BULK, gp, src, src.length, KIND_INT, 2, srcIndex, count);
    }

    /**
     * Wait until every get and put this rank has started has completed: get destinations hold their values, put
     * values are in their owners' segments.
     */
    public void sync()
    {
        idle = 0;
        while (0 != pendingGets || 0 != pendingPuts)
        {
            progress("sync");
        }
        checkUsable();
    }

    /**
     * @return how many times a wait of this rank slept in {@code waitSema} (after its spins and yields found nothing).
     */
    public long sleeps()
    {
        return sleeps;
    }

    /**
     * @return how many of those sleeps ended with no message, after the whole sleep.
     */
    public long sleepTimeouts()
    {
        return sleepTimeouts;
    }

    /**
     * @return gets and puts (messages; a bulk operation counts one per chunk) started and not yet complete.
     */
    public int outstanding()
    {
        return pendingGets + pendingPuts;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Signalling stores
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Store a long at a global pointer, one-way: the owner learns of it through {@link #storeSync(long)} (8 bytes) or
     * {@link #allStoreSync()}.
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    public void storeLong(final long gp, final long value)
    {
        final int r = checkTarget(gp, 8);
        if (r == rank)
        {
            segment.putLong(GlobalPtr.offset(gp), value);
            storeArrived += 8;
            storeSentTo[r] += 8;
            return;
        }
        beforeSend();
        endpoint.request(r, H_STORE, rank, GlobalPtr.offset(gp), (int)value, (int)(value >>> 32));
        counts.countShort(local[r]);
        storeSentTo[r] += 8;
    }

    /**
     * Store a double at a global pointer, one-way (see {@link #storeLong(long, long)}).
     *
     * @param gp    where to write, 8 bytes.
     * @param value the value.
     */
    public void storeDouble(final long gp, final double value)
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
    public void storeInt(final long gp, final int value)
    {
        final int r = checkTarget(gp, 4);
        if (r == rank)
        {
            segment.putInt(GlobalPtr.offset(gp), value);
            storeArrived += 4;
            storeSentTo[r] += 4;
            return;
        }
        beforeSend();
        endpoint.request(r, H_STORE, rank, GlobalPtr.offset(gp), value);
        counts.countShort(local[r]);
        storeSentTo[r] += 4;
    }

    /**
     * Store {@code count} longs of {@code src} at a global pointer, one-way ({@code 8 * count} bytes for
     * {@link #storeSync(long)}). {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    public void bulkStore(final long gp, final long[] src, final int srcIndex, final int count)
    {
        bulkWrite(H_STORE_BULK, gp, src, src.length, KIND_LONG, 3, srcIndex, count);
    }

    /**
     * Store {@code count} doubles of {@code src} at a global pointer, one-way ({@code 8 * count} bytes for
     * {@link #storeSync(long)}). {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    public void bulkStore(final long gp, final double[] src, final int srcIndex, final int count)
    {
        bulkWrite(H_STORE_BULK, gp, src, src.length, KIND_DOUBLE, 3, srcIndex, count);
    }

    /**
     * Store {@code count} ints of {@code src} at a global pointer, one-way ({@code 4 * count} bytes for
     * {@link #storeSync(long)}). {@code src} may be changed as soon as this call returns.
     *
     * @param gp       where to write.
     * @param src      source array.
     * @param srcIndex first source element.
     * @param count    number of elements, 0 or more.
     */
    public void bulkStore(final long gp, final int[] src, final int srcIndex, final int count)
    {
        bulkWrite(H_STORE_BULK, gp, src, src.length, KIND_INT, 2, srcIndex, count);
    }

    /**
     * Wait until {@code bytes} more bytes have been stored into this rank's segment than earlier calls (and
     * {@link #allStoreSync()}) accounted for (Split-C's {@code store_sync(n)}); the stored values are then visible.
     *
     * @param bytes number of bytes, 0 or more.
     */
    public void storeSync(final long bytes)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException("bytes = " + bytes + " must be 0 or more");
        }
        idle = 0;
        while (storeArrived - storeConsumed < bytes)
        {
            progress("storeSync");
        }
        storeConsumed += bytes;
        checkUsable();
    }

    /**
     * Wait until every store that any rank issued before entering this call has completed at its owner (Split-C's
     * {@code all_store_sync()}). Every rank calls it; it ends with a {@link #barrier()}. Each rank tells every other
     * how many bytes it stored to it since the last call, waits until it has received those, then enters the barrier.
     */
    public void allStoreSync()
    {
        checkUsable();
        for (int k = 1; k < size; k++)
        {
            final int d = (rank + k) % size;
            final long bytes = storeSentTo[d];
            storeSentTo[d] = 0;
            beforeSend();
            endpoint.request(d, H_STORE_COUNT, rank, (int)bytes, (int)(bytes >>> 32));
            counts.countShort(local[d]);
        }
        storeExpected += storeSentTo[rank];
        storeSentTo[rank] = 0;
        announcementsExpected += size - 1;
        idle = 0;
        while (announcementsReceived < announcementsExpected || storeArrived < storeExpected)
        {
            progress("allStoreSync");
        }
        // Stores of the next round may arrive from ranks that leave the barrier first: account up to this round only.
        storeConsumed = Math.max(storeConsumed, storeExpected);
        barrier();
    }

    /**
     * @return bytes stored into this rank's segment so far (by any rank, this one included).
     */
    public long storedBytes()
    {
        return storeArrived;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Collectives
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Wait until every rank has entered this barrier. Messages each rank sent before entering it have been handed to
     * their destinations, but only gets and puts completed by {@link #sync()} and stores completed by
     * {@link #allStoreSync()} are known to have been handled.
     */
    public void barrier()
    {
        collective(OP_BARRIER, 0);
    }

    /**
     * @param value this rank's contribution.
     * @return the sum over every rank (two's complement, wrapping).
     */
    public long allReduceSum(final long value)
    {
        return collective(OP_SUM_LONG, value);
    }

    /**
     * @param value this rank's contribution.
     * @return the smallest contribution.
     */
    public long allReduceMin(final long value)
    {
        return collective(OP_MIN_LONG, value);
    }

    /**
     * @param value this rank's contribution.
     * @return the largest contribution.
     */
    public long allReduceMax(final long value)
    {
        return collective(OP_MAX_LONG, value);
    }

    /**
     * @param value this rank's contribution.
     * @return the sum over every rank, added in rank order (the same bits on every run).
     */
    public double allReduceSum(final double value)
    {
        return Double.longBitsToDouble(collective(OP_SUM_DOUBLE, Double.doubleToRawLongBits(value)));
    }

    /**
     * @param value this rank's contribution.
     * @return the smallest contribution ({@link Math#min(double, double)}: NaN if any is NaN).
     */
    public double allReduceMin(final double value)
    {
        return Double.longBitsToDouble(collective(OP_MIN_DOUBLE, Double.doubleToRawLongBits(value)));
    }

    /**
     * @param value this rank's contribution.
     * @return the largest contribution ({@link Math#max(double, double)}: NaN if any is NaN).
     */
    public double allReduceMax(final double value)
    {
        return Double.longBitsToDouble(collective(OP_MAX_DOUBLE, Double.doubleToRawLongBits(value)));
    }

    /**
     * @param root  the rank whose value every rank gets.
     * @param value the value at the root; ignored elsewhere.
     * @return the root's value.
     */
    public long broadcast(final int root, final long value)
    {
        Objects.checkIndex(root, size);
        return collective(OP_BROADCAST | (root << ROOT_SHIFT), rank == root ? value : 0);
    }

    /**
     * @param root  the rank whose value every rank gets.
     * @param value the value at the root; ignored elsewhere.
     * @return the root's value, the same bits.
     */
    public double broadcast(final int root, final double value)
    {
        return Double.longBitsToDouble(broadcast(root, Double.doubleToRawLongBits(value)));
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
        return new CommSummary(size, sum, min, max);
    }

    private long collective(final int op, final long value)
    {
        checkUsable();
        final int epoch = ++collectiveEpoch;
        final int parity = epoch & 1;
        if (size == 1)
        {
            return value;
        }
        idle = 0;
        if (rank != COLLECTIVE_ROOT)
        {
            beforeSend();
            endpoint.request(COLLECTIVE_ROOT, H_COLLECTIVE, rank, epoch, op, (int)value, (int)(value >>> 32));
            counts.countShort(local[COLLECTIVE_ROOT]);
            while (resultEpoch != epoch)
            {
                progress(waitName(op));
            }
            return resultValue;
        }

        final long[] values = collectiveValues[parity];
        final int[] ops = collectiveOps[parity];
        values[COLLECTIVE_ROOT] = value;
        ops[COLLECTIVE_ROOT] = op;
        while (collectiveCount[parity] < size - 1)
        {
            progress(waitName(op));
        }
        collectiveCount[parity] = 0;
        for (int r = 0; r < size; r++)
        {
            if (ops[r] != op)
            {
                throw fail(new SplitCException("collective " + epoch + ": rank " + r + " called " + opName(ops[r]) +
                    " while rank " + COLLECTIVE_ROOT + " called " + opName(op) +
                    " (every rank must call the same collectives in the same order)"));
            }
        }
        final long result = combine(op, values);
        for (int r = 0; r < size; r++)
        {
            if (r != COLLECTIVE_ROOT)
            {
                beforeSend();
                endpoint.request(r, H_COLLECTIVE_RESULT, epoch, (int)result, (int)(result >>> 32));
                counts.countShort(local[r]);
            }
        }
        return result;
    }

    private long combine(final int op, final long[] values)
    {
        long result = values[0];
        switch (op & OP_KIND_MASK)
        {
            case OP_BARRIER:
                return 0;
            case OP_SUM_LONG:
                for (int r = 1; r < size; r++)
                {
                    result += values[r];
                }
                return result;
            case OP_MIN_LONG:
                for (int r = 1; r < size; r++)
                {
                    result = Math.min(result, values[r]);
                }
                return result;
            case OP_MAX_LONG:
                for (int r = 1; r < size; r++)
                {
                    result = Math.max(result, values[r]);
                }
                return result;
            case OP_SUM_DOUBLE:
            case OP_MIN_DOUBLE:
            case OP_MAX_DOUBLE:
                return Double.doubleToRawLongBits(combineDouble(op & OP_KIND_MASK, values));
            case OP_BROADCAST:
                return values[op >>> ROOT_SHIFT];
            default:
                throw fail(new SplitCException("unknown collective operation " + op));
        }
    }

    private double combineDouble(final int kind, final long[] values)
    {
        double result = Double.longBitsToDouble(values[0]);
        for (int r = 1; r < size; r++)
        {
            final double v = Double.longBitsToDouble(values[r]);
            result = kind == OP_SUM_DOUBLE ? result + v : kind == OP_MIN_DOUBLE ? Math.min(result, v) :
                Math.max(result, v);
        }
        return result;
    }

    private static String waitName(final int op)
    {
        return (op & OP_KIND_MASK) == OP_BARRIER ? "barrier" : "collective";
    }

    private static String opName(final int op)
    {
        switch (op & OP_KIND_MASK)
        {
            case OP_BARRIER:
                return "barrier";
            case OP_SUM_LONG:
                return "allReduceSum(long)";
            case OP_MIN_LONG:
                return "allReduceMin(long)";
            case OP_MAX_LONG:
                return "allReduceMax(long)";
            case OP_SUM_DOUBLE:
                return "allReduceSum(double)";
            case OP_MIN_DOUBLE:
                return "allReduceMin(double)";
            case OP_MAX_DOUBLE:
                return "allReduceMax(double)";
            case OP_BROADCAST:
                return "broadcast(root " + (op >>> ROOT_SHIFT) + ")";
            default:
                return "operation " + op;
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Leaving
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Leave the job normally: wait until every rank has called this (through the bootstrap, so that no rank frees
     * its endpoint while a peer may still need it), then {@link #close()}. Complete outstanding accesses first
     * ({@link #sync()}, {@link #allStoreSync()}).
     */
    public void finish()
    {
        checkUsable();
        if (0 != pendingGets || 0 != pendingPuts)
        {
            throw new SplitCException("rank " + rank + ": finish() with " + pendingGets + " gets and " + pendingPuts +
                " puts outstanding; call sync() first");
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
        if (!closed)
        {
            closed = true;
            bundle.close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Handlers: they run inside this rank's polls, in its thread
    // ---------------------------------------------------------------------------------------------------------------

    private void onReturned(final Token token, final Message msg)
    {
        final StringBuilder text = new StringBuilder("rank ").append(rank).append(": a ").append(msg.opcode())
            .append(" message for handler ").append(msg.handlerIndex()).append(" (").append(handlerName(
            msg.handlerIndex())).append(") came back undelivered with status ").append(msg.returnStatus())
            .append(", arguments [");
        for (int i = 0; i < msg.argCount(); i++)
        {
            text.append(i == 0 ? "" : ", ").append(msg.arg(i));
        }
        text.append(']');
        throw fail(new SplitCException(text.toString(), msg.returnStatus()));
    }

    private void onGet(final Token token, final Message msg)
    {
        final int requester = msg.arg(0);
        final int slot = msg.arg(1);
        final int offset = msg.arg(2);
        if (8 == msg.arg(3))
        {
            final long value = segment.getLong(offset);
            token.reply(H_GET_REPLY, slot, (int)value, (int)(value >>> 32));
        }
        else
        {
            token.reply(H_GET_REPLY, slot, segment.getInt(offset));
        }
        counts.countShort(local[requester]);
    }

    private void onGetReply(final Token token, final Message msg)
    {
        final int slot = msg.arg(0);
        final Object target = slotTarget[slot];
        final int index = slotIndex[slot];
        switch (slotKind[slot])
        {
            case KIND_LONG:
                ((long[])target)[index] = join(msg.arg(1), msg.arg(2));
                break;
            case KIND_DOUBLE:
                ((double[])target)[index] = Double.longBitsToDouble(join(msg.arg(1), msg.arg(2)));
                break;
            default:
                ((int[])target)[index] = msg.arg(1);
                break;
        }
        releaseSlot(slot);
        pendingGets--;
    }

    private void onGetBulk(final Token token, final Message msg)
    {
        final int requester = msg.arg(0);
        final int offset = msg.arg(2);
        final int bytes = msg.arg(3);
        token.replyN(MessageCategory.MEDIUM, H_GET_BULK_REPLY, segment, offset, bytes, -1, 2, msg.arg(1), msg.arg(4),
            0, 0, 0, 0, 0, 0);
        counts.countBulk(local[requester], bytes);
    }

    private void onGetBulkReply(final Token token, final Message msg)
    {
        final int slot = msg.arg(0);
        final int index = slotIndex[slot] + msg.arg(1);
        final DirectBuffer data = msg.data();
        final int bytes = msg.dataLength();
        final Object target = slotTarget[slot];
        switch (slotKind[slot])
        {
            case KIND_LONG:
            {
                final long[] dst = (long[])target;
                for (int i = 0, n = bytes >> 3; i < n; i++)
                {
                    dst[index + i] = data.getLong(i << 3);
                }
                break;
            }
            case KIND_DOUBLE:
            {
                final double[] dst = (double[])target;
                for (int i = 0, n = bytes >> 3; i < n; i++)
                {
                    dst[index + i] = data.getDouble(i << 3);
                }
                break;
            }
            default:
            {
                final int[] dst = (int[])target;
                for (int i = 0, n = bytes >> 2; i < n; i++)
                {
                    dst[index + i] = data.getInt(i << 2);
                }
                break;
            }
        }
        if (0 == --slotChunks[slot])
        {
            releaseSlot(slot);
        }
        pendingGets--;
        pendingBulkChunks--;
    }

    private void onPut(final Token token, final Message msg)
    {
        final int requester = msg.arg(0);
        final int offset = msg.arg(1);
        if (4 == msg.argCount())
        {
            segment.putLong(offset, join(msg.arg(2), msg.arg(3)));
        }
        else
        {
            segment.putInt(offset, msg.arg(2));
        }
        token.reply(H_PUT_ACK);
        counts.countShort(local[requester]);
    }

    private void onPutBulk(final Token token, final Message msg)
    {
        // The transport wrote the data into the segment before running this handler.
        final int requester = msg.arg(0);
        token.reply(H_PUT_ACK);
        counts.countShort(local[requester]);
    }

    private void onPutAck(final Token token, final Message msg)
    {
        pendingPuts--;
    }

    private void onStore(final Token token, final Message msg)
    {
        final int offset = msg.arg(1);
        if (4 == msg.argCount())
        {
            segment.putLong(offset, join(msg.arg(2), msg.arg(3)));
            storeArrived += 8;
        }
        else
        {
            segment.putInt(offset, msg.arg(2));
            storeArrived += 4;
        }
    }

    private void onStoreBulk(final Token token, final Message msg)
    {
        storeArrived += msg.dataLength();
    }

    private void onStoreCount(final Token token, final Message msg)
    {
        storeExpected += join(msg.arg(1), msg.arg(2));
        announcementsReceived++;
    }

    private void onCollective(final Token token, final Message msg)
    {
        final int contributor = msg.arg(0);
        final int epoch = msg.arg(1);
        if (epoch != collectiveEpoch && epoch != collectiveEpoch + 1)
        {
            throw fail(new SplitCException("rank " + rank + ": rank " + contributor + " contributed to collective " +
                epoch + " while this rank is at collective " + collectiveEpoch +
                " (every rank must call the same collectives in the same order)"));
        }
        final int parity = epoch & 1;
        collectiveOps[parity][contributor] = msg.arg(2);
        collectiveValues[parity][contributor] = join(msg.arg(3), msg.arg(4));
        collectiveCount[parity]++;
    }

    private void onCollectiveResult(final Token token, final Message msg)
    {
        resultValue = join(msg.arg(1), msg.arg(2));
        resultEpoch = msg.arg(0);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Helpers
    // ---------------------------------------------------------------------------------------------------------------

    private void bulkWrite(
        final int handler, final long gp, final Object src, final int srcLength, final byte kind, final int shift,
        final int srcIndex, final int count)
    {
        Objects.checkFromIndexSize(srcIndex, count, srcLength);
        final long total = (long)count << shift;
        final int r = checkTarget(gp, total);
        final int offset = GlobalPtr.offset(gp);
        final boolean store = H_STORE_BULK == handler;
        if (r == rank)
        {
            copyIn(segment, offset, src, kind, srcIndex, count);
            if (store)
            {
                storeArrived += total;
                storeSentTo[r] += total;
            }
            return;
        }
        final int perChunk = chunkBytes >> shift;
        for (int done = 0; done < count; done += perChunk)
        {
            final int n = Math.min(perChunk, count - done);
            final int bytes = n << shift;
            beforeSend();
            stage(src, kind, srcIndex + done, n);
            endpoint.requestLong(r, handler, staging, 0, bytes, offset + (done << shift), rank);
            counts.countBulk(local[r], bytes);
            if (store)
            {
                storeSentTo[r] += bytes;
            }
            else
            {
                pendingPuts++;
            }
        }
    }

    private void stage(final Object src, final byte kind, final int from, final int n)
    {
        switch (kind)
        {
            case KIND_LONG:
                stagingLongs.put(0, (long[])src, from, n);
                break;
            case KIND_DOUBLE:
                stagingDoubles.put(0, (double[])src, from, n);
                break;
            default:
                stagingInts.put(0, (int[])src, from, n);
                break;
        }
    }

    private static void copyIn(
        final AtomicBuffer segment, final int offset, final Object src, final byte kind, final int from, final int n)
    {
        switch (kind)
        {
            case KIND_LONG:
            {
                final long[] a = (long[])src;
                for (int i = 0; i < n; i++)
                {
                    segment.putLong(offset + (i << 3), a[from + i]);
                }
                break;
            }
            case KIND_DOUBLE:
            {
                final double[] a = (double[])src;
                for (int i = 0; i < n; i++)
                {
                    segment.putDouble(offset + (i << 3), a[from + i]);
                }
                break;
            }
            default:
            {
                final int[] a = (int[])src;
                for (int i = 0; i < n; i++)
                {
                    segment.putInt(offset + (i << 2), a[from + i]);
                }
                break;
            }
        }
    }

    private static void copyOut(
        final AtomicBuffer segment, final int offset, final Object dst, final byte kind, final int from, final int n)
    {
        switch (kind)
        {
            case KIND_LONG:
            {
                final long[] a = (long[])dst;
                for (int i = 0; i < n; i++)
                {
                    a[from + i] = segment.getLong(offset + (i << 3));
                }
                break;
            }
            case KIND_DOUBLE:
            {
                final double[] a = (double[])dst;
                for (int i = 0; i < n; i++)
                {
                    a[from + i] = segment.getDouble(offset + (i << 3));
                }
                break;
            }
            default:
            {
                final int[] a = (int[])dst;
                for (int i = 0; i < n; i++)
                {
                    a[from + i] = segment.getInt(offset + (i << 2));
                }
                break;
            }
        }
    }

    private static long join(final int low, final int high)
    {
        return ((long)high << 32) | (low & 0xFFFF_FFFFL);
    }

    /**
     * @return the rank of a global pointer whose {@code bytes} bytes lie in that rank's segment.
     */
    private int checkTarget(final long gp, final long bytes)
    {
        checkUsable();
        final int r = GlobalPtr.rank(gp);
        final int offset = GlobalPtr.offset(gp);
        if (r < 0 || r >= size || offset < 0 || offset > segmentLengths[r] - bytes)
        {
            throw new IndexOutOfBoundsException("rank " + rank + ": global pointer " + GlobalPtr.toString(gp) +
                " with " + bytes + " bytes is outside " + (r < 0 || r >= size ? "ranks [0, " + size + ")" :
                "rank " + r + "'s segment of " + segmentLengths[r] + " bytes"));
        }
        return r;
    }

    private void checkUsable()
    {
        if (null != failure)
        {
            throw failure;
        }
        if (closed)
        {
            throw new SplitCException("rank " + rank + ": the Split-C layer is closed");
        }
    }

    private SplitCException fail(final SplitCException ex)
    {
        if (null == failure)
        {
            failure = ex;
        }
        return ex;
    }

    private int takeSlot(final Object target, final int index, final byte kind, final int chunks)
    {
        if (0 == freeTop)
        {
            idle = 0;
            while (0 == freeTop)
            {
                progress("a free get slot");
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

    private void awaitSlot(final int slot, final int generation)
    {
        idle = 0;
        while (slotGeneration[slot] == generation)
        {
            progress("read");
        }
    }

    /**
     * Poll first, every {@code pollEvery} messages, as the model paper's layer polls before each send: a rank that
     * sends long runs of requests keeps serving its peers and draining its replies. Polls only before sending, never
     * between a get's send and its return.
     */
    private void beforeSend()
    {
        if (++sendsSincePoll >= pollEvery)
        {
            sendsSincePoll = 0;
            if (null != failure)
            {
                throw failure;
            }
            bundle.poll();
        }
    }

    /**
     * One step of a wait: poll; when nothing was handled, idle a little (spin, then yield, then sleep until a message
     * arrives), and fail when nothing has been handled for the stall limit.
     */
    private void progress(final String waitingFor)
    {
        if (null != failure)
        {
            throw failure;
        }
        if (0 != bundle.poll())
        {
            idle = 0;
            return;
        }
        final int n = idle++;
        if (0 == n)
        {
            idleSince = System.nanoTime();
        }
        if (n < spins)
        {
            Thread.onSpinWait();
        }
        else if (n < spins + yields)
        {
            Thread.yield();
        }
        else
        {
            if (0 != stallNanos && System.nanoTime() - idleSince > stallNanos)
            {
                throw fail(new SplitCException("rank " + rank + ": no message handled for " +
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - idleSince) + " ms while waiting for " +
                    waitingFor + "; " + state()));
            }
            sleeps++;
            bundle.eventMask(EventMask.NOTEMPTY);
            if (!bundle.waitSema(sleepMicros, TimeUnit.MICROSECONDS))
            {
                sleepTimeouts++;
                bundle.eventMask(EventMask.NOEVENTS);
            }
        }
    }

    /**
     * @return the failure that made this layer unusable (a returned message, a stall, a collective mismatch), or
     * {@code null} while it works.
     */
    public SplitCException failure()
    {
        return failure;
    }

    /**
     * @return what this rank is waiting for, for diagnostics.
     */
    public String state()
    {
        return "rank " + rank + " of " + size + ": gets outstanding " + pendingGets + ", puts outstanding " +
            pendingPuts + ", bytes stored here " + storeArrived + " (accounted " + storeConsumed + ", announced " +
            storeExpected + "), store announcements " + announcementsReceived + "/" + announcementsExpected +
            ", collective " + collectiveEpoch + " (contributions " + collectiveCount[0] + "/" + collectiveCount[1] +
            ", result " + resultEpoch + "), sleeps " + sleeps + " (timed out " + sleepTimeouts + "), queue-full back-offs " +
            endpoint.statistics().total(EndpointStatistics.Counter.QUEUE_FULL_BACKOFFS) + ", " + counts;
    }

    private static String handlerName(final int handler)
    {
        switch (handler)
        {
            case H_GET:
                return "get";
            case H_GET_REPLY:
                return "get reply";
            case H_GET_BULK:
                return "bulk get";
            case H_GET_BULK_REPLY:
                return "bulk get reply";
            case H_PUT:
                return "put";
            case H_PUT_BULK:
                return "bulk put";
            case H_PUT_ACK:
                return "put acknowledgement";
            case H_STORE:
                return "store";
            case H_STORE_BULK:
                return "bulk store";
            case H_COLLECTIVE:
                return "collective contribution";
            case H_COLLECTIVE_RESULT:
                return "collective result";
            case H_STORE_COUNT:
                return "store count";
            default:
                return "not a Split-C handler";
        }
    }

    @Override
    public String toString()
    {
        return "SplitC{rank " + rank + " of " + size + ", segment " + segment.capacity() + " bytes}";
    }
}
