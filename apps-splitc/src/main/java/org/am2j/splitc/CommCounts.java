package org.am2j.splitc;

/**
 * Messages one rank's Split-C layer has sent, by kind and by where they went: the columns of Table 4 of the model
 * paper. <b>Short</b> messages carry arguments only; <b>bulk</b> messages carry data (medium and long messages).
 * <b>Local</b> messages went to a rank on the same node (shared memory), <b>network</b> messages to a rank on another
 * node. Requests and replies both count, at the rank that sends them. Accesses of a rank to its own segment are memory
 * accesses, not messages, and are not counted.
 * <p>
 * The live instance of a {@link SplitC} is written by its rank's thread only (handlers run in it too); read it from
 * that thread, or take a {@link #copy()}.
 */
public final class CommCounts
{
    long networkShort;
    long networkBulk;
    long networkBulkBytes;
    long localShort;
    long localBulk;
    long localBulkBytes;

    /**
     * An empty set of counts.
     */
    public CommCounts()
    {
    }

    /**
     * @return short messages sent to ranks on other nodes.
     */
    public long networkShort()
    {
        return networkShort;
    }

    /**
     * @return bulk (data-carrying) messages sent to ranks on other nodes.
     */
    public long networkBulk()
    {
        return networkBulk;
    }

    /**
     * @return data bytes of the bulk messages sent to ranks on other nodes.
     */
    public long networkBulkBytes()
    {
        return networkBulkBytes;
    }

    /**
     * @return short messages sent to other ranks on this node.
     */
    public long localShort()
    {
        return localShort;
    }

    /**
     * @return bulk (data-carrying) messages sent to other ranks on this node.
     */
    public long localBulk()
    {
        return localBulk;
    }

    /**
     * @return data bytes of the bulk messages sent to other ranks on this node.
     */
    public long localBulkBytes()
    {
        return localBulkBytes;
    }

    /**
     * @return every message counted.
     */
    public long total()
    {
        return networkShort + networkBulk + localShort + localBulk;
    }

    /**
     * @return a copy of these counts.
     */
    public CommCounts copy()
    {
        final CommCounts copy = new CommCounts();
        copy.networkShort = networkShort;
        copy.networkBulk = networkBulk;
        copy.networkBulkBytes = networkBulkBytes;
        copy.localShort = localShort;
        copy.localBulk = localBulk;
        copy.localBulkBytes = localBulkBytes;
        return copy;
    }

    /**
     * @param earlier counts taken before these.
     * @return what was counted since {@code earlier}.
     */
    public CommCounts minus(final CommCounts earlier)
    {
        final CommCounts delta = new CommCounts();
        delta.networkShort = networkShort - earlier.networkShort;
        delta.networkBulk = networkBulk - earlier.networkBulk;
        delta.networkBulkBytes = networkBulkBytes - earlier.networkBulkBytes;
        delta.localShort = localShort - earlier.localShort;
        delta.localBulk = localBulk - earlier.localBulk;
        delta.localBulkBytes = localBulkBytes - earlier.localBulkBytes;
        return delta;
    }

    /**
     * @return the counts in the order of {@link CommSummary#FIELDS}.
     */
    long[] toArray()
    {
        return new long[]{ networkShort, networkBulk, networkBulkBytes, localShort, localBulk, localBulkBytes };
    }

    void countShort(final boolean local)
    {
        if (local)
        {
            localShort++;
        }
        else
        {
            networkShort++;
        }
    }

    void countBulk(final boolean local, final int bytes)
    {
        if (local)
        {
            localBulk++;
            localBulkBytes += bytes;
        }
        else
        {
            networkBulk++;
            networkBulkBytes += bytes;
        }
    }

    @Override
    public String toString()
    {
        return "CommCounts{network short " + networkShort + ", bulk " + networkBulk + " (" + networkBulkBytes +
            " B); local short " + localShort + ", bulk " + localBulk + " (" + localBulkBytes + " B)}";
    }
}
