package org.am2j.splitc;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.Message;

/**
 * One rank's view of the global address space: its endpoint and global segment, every rank's segment length, which
 * ranks share its node, and the counts of the messages it sends. Every concern of the layer sends through
 * {@link #endpoint} to the rank at the same translation index, and counts each message as local or network by
 * {@link #local}.
 */
final class GlobalSpace
{
    final int rank;
    final int size;
    final Endpoint endpoint;
    final AtomicBuffer segment;
    /** Per rank: true when it runs on this rank's node (this rank included). */
    final boolean[] local;
    final CommCounts counts = new CommCounts();
    /** Largest message of bulk operations, bytes: a multiple of 8 ({@link SplitCOptions#checkChunk}). */
    int bulkChunkBytes;
    private final int[] nodeOf;
    private final int[] segmentLengths;
    private final Progress progress;
    private int nodes;

    GlobalSpace(
        final int rank, final int size, final Endpoint endpoint, final AtomicBuffer segment, final Progress progress)
    {
        this.rank = rank;
        this.size = size;
        this.endpoint = endpoint;
        this.segment = segment;
        this.progress = progress;
        this.local = new boolean[size];
        this.nodeOf = new int[size];
        this.segmentLengths = new int[size];
    }

    /**
     * All-gather every rank's endpoint name, tag and segment length, map rank r at translation index r, number the
     * nodes in order of their lowest rank, and wait until every rank has done so.
     *
     * @param bootstrap the job's set-up collectives.
     */
    void mapEveryRank(final Bootstrap bootstrap)
    {
        final byte[] name = endpoint.name().toBytes();
        final ByteBuffer mine = ByteBuffer.allocate(12 + name.length);
        mine.putLong(endpoint.tag()).putInt(segment.capacity()).put(name);
        final byte[][] all = bootstrap.allGather(mine.array());
        if (all.length != size)
        {
            throw new SplitCException("rank " + rank + ": the all-gather returned " + all.length +
                " contributions for " + size + " ranks");
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

    int nodeOf(final int otherRank)
    {
        return nodeOf[otherRank];
    }

    int nodes()
    {
        return nodes;
    }

    int segmentLength(final int otherRank)
    {
        return segmentLengths[otherRank];
    }

    /**
     * Check that the layer is usable and that {@code bytes} bytes at a global pointer lie in its rank's segment.
     *
     * @param gp    a global pointer.
     * @param bytes bytes to access there.
     * @return the rank of the global pointer.
     * @throws IndexOutOfBoundsException when they do not, saying where the segment ends.
     */
    int checkTarget(final long gp, final long bytes)
    {
        progress.checkUsable();
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

    /**
     * Send a scalar of 4 or 8 bytes to rank {@code r} as a short request (requester, offset, low word[, high word]),
     * as puts and stores do, and count it.
     */
    void sendScalar(final int r, final int handler, final int offset, final long value, final int bytes)
    {
        progress.beforeSend();
        if (8 == bytes)
        {
            endpoint.request(r, handler, rank, offset, (int)value, (int)(value >>> 32));
        }
        else
        {
            endpoint.request(r, handler, rank, offset, (int)value);
        }
        counts.countShort(local[r]);
    }

    /** Write a scalar of 4 or 8 bytes into this rank's segment. */
    void writeScalar(final int offset, final long value, final int bytes)
    {
        if (8 == bytes)
        {
            segment.putLong(offset, value);
        }
        else
        {
            segment.putInt(offset, (int)value);
        }
    }

    /**
     * Write the scalar of a request of {@link #sendScalar} into this rank's segment.
     *
     * @return its bytes.
     */
    int writeScalar(final Message msg)
    {
        final int bytes = 4 == msg.argCount() ? 8 : 4;
        writeScalar(msg.arg(1), 8 == bytes ? Handlers.join(msg.arg(2), msg.arg(3)) : msg.arg(2), bytes);
        return bytes;
    }
}
