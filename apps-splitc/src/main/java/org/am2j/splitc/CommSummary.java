package org.am2j.splitc;

import java.util.List;

/**
 * The communication counts of every rank of a job, summarised as Table 4 of the model paper does: for each count
 * (network and local, short and bulk messages, bulk bytes) the mean, minimum and maximum over the ranks, and the
 * share of messages that stayed on their node. Made by {@link SplitC#summarize(CommCounts)}.
 */
public final class CommSummary
{
    /** Names of the counts, in the order of {@link #mean(int)}, {@link #min(int)} and {@link #max(int)}. */
    public static final List<String> FIELDS = List.of(
        "network_short", "network_bulk", "network_bulk_bytes", "local_short", "local_bulk", "local_bulk_bytes");
    /** Index of the network short message count. */
    public static final int NETWORK_SHORT = 0;
    /** Index of the network bulk message count. */
    public static final int NETWORK_BULK = 1;
    /** Index of the network bulk byte count. */
    public static final int NETWORK_BULK_BYTES = 2;
    /** Index of the local short message count. */
    public static final int LOCAL_SHORT = 3;
    /** Index of the local bulk message count. */
    public static final int LOCAL_BULK = 4;
    /** Index of the local bulk byte count. */
    public static final int LOCAL_BULK_BYTES = 5;

    private final int ranks;
    private final long[] sum;
    private final long[] min;
    private final long[] max;

    /**
     * @param ranks number of ranks summarised.
     * @param sum   per field, the sum over ranks.
     * @param min   per field, the smallest rank's value.
     * @param max   per field, the largest rank's value.
     */
    public CommSummary(final int ranks, final long[] sum, final long[] min, final long[] max)
    {
        if (sum.length != FIELDS.size() || min.length != FIELDS.size() || max.length != FIELDS.size())
        {
            throw new IllegalArgumentException("expected " + FIELDS.size() + " values per statistic");
        }
        this.ranks = ranks;
        this.sum = sum.clone();
        this.min = min.clone();
        this.max = max.clone();
    }

    /**
     * @return number of ranks summarised.
     */
    public int ranks()
    {
        return ranks;
    }

    /**
     * @param field index in {@link #FIELDS}.
     * @return the sum over ranks.
     */
    public long sum(final int field)
    {
        return sum[field];
    }

    /**
     * @param field index in {@link #FIELDS}.
     * @return the mean over ranks.
     */
    public double mean(final int field)
    {
        return ranks == 0 ? 0 : (double)sum[field] / ranks;
    }

    /**
     * @param field index in {@link #FIELDS}.
     * @return the smallest value of a rank.
     */
    public long min(final int field)
    {
        return min[field];
    }

    /**
     * @param field index in {@link #FIELDS}.
     * @return the largest value of a rank.
     */
    public long max(final int field)
    {
        return max[field];
    }

    /**
     * @return messages (short and bulk) sent to ranks on the same node, as a percentage of all messages; 0 when no
     * message was sent.
     */
    public double percentLocal()
    {
        final long local = sum[LOCAL_SHORT] + sum[LOCAL_BULK];
        final long all = local + sum[NETWORK_SHORT] + sum[NETWORK_BULK];
        return all == 0 ? 0 : 100.0 * local / all;
    }

    /**
     * @param field {@link #NETWORK_BULK} or {@link #LOCAL_BULK}.
     * @return mean data bytes per bulk message of that kind over all ranks, 0 when there was none.
     */
    public double meanBulkBytes(final int field)
    {
        final long messages = sum[field];
        return messages == 0 ? 0 : (double)sum[field + 1] / messages;
    }
}
