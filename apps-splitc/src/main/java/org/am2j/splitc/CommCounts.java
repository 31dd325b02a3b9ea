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
    /** The counts, indexed by the fields of {@link CommSummary}. */
    private final long[] values = new long[CommSummary.FIELDS.size()];

    /**
     * @return short messages sent to ranks on other nodes.
     */
    public long networkShort()
    {
        return values[CommSummary.NETWORK_SHORT];
    }

    /**
     * @return bulk (data-carrying) messages sent to ranks on other nodes.
     */
    public long networkBulk()
    {
        return values[CommSummary.NETWORK_BULK];
    }

    /**
     * @return data bytes of the bulk messages sent to ranks on other nodes.
     */
    public long networkBulkBytes()
    {
        return values[CommSummary.NETWORK_BULK_BYTES];
    }

    /**
     * @return short messages sent to other ranks on this node.
     */
    public long localShort()
    {
        return values[CommSummary.LOCAL_SHORT];
    }

    /**
     * @return bulk (data-carrying) messages sent to other ranks on this node.
     */
    public long localBulk()
    {
        return values[CommSummary.LOCAL_BULK];
    }

    /**
     * @return data bytes of the bulk messages sent to other ranks on this node.
     */
    public long localBulkBytes()
    {
        return values[CommSummary.LOCAL_BULK_BYTES];
    }

    /**
     * @return a copy of these counts.
     */
    public CommCounts copy()
    {
        final CommCounts copy = new CommCounts();
        System.arraycopy(values, 0, copy.values, 0, values.length);
        return copy;
    }

    /**
     * @param earlier counts taken before these.
     * @return what was counted since {@code earlier}.
     */
    public CommCounts minus(final CommCounts earlier)
    {
        final CommCounts delta = new CommCounts();
        for (int i = 0; i < values.length; i++)
        {
            delta.values[i] = values[i] - earlier.values[i];
        }
        return delta;
    }

    /**
     * @return the counts in the order of {@link CommSummary#FIELDS}.
     */
    long[] toArray()
    {
        return values.clone();
    }

    void countShort(final boolean local)
    {
        values[local ? CommSummary.LOCAL_SHORT : CommSummary.NETWORK_SHORT]++;
    }

    void countBulk(final boolean local, final int bytes)
    {
        final int messages = local ? CommSummary.LOCAL_BULK : CommSummary.NETWORK_BULK;
        values[messages]++;
        // the bytes of each kind follow its messages
        values[messages + 1] += bytes;
    }

    @Override
    public String toString()
    {
        return "CommCounts{network short " + networkShort() + ", bulk " + networkBulk() + " (" + networkBulkBytes() +
            " B); local short " + localShort() + ", bulk " + localBulk() + " (" + localBulkBytes() + " B)}";
    }
}
