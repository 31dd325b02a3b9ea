package org.am2j.splitc;

/**
 * The collectives of a Split-C program: barrier, reductions and broadcast.
 * <p>
 * <b>Collectives</b> ({@link #barrier()}, {@link #allReduceSum(long)} and the other reductions,
 * {@link #broadcast(int, long)}) are called by every rank in the same order. They gather at rank 0 and fan out from it;
 * rank 0 combines the contributions in rank order, so a double reduction gives the same bits on every run.
 */
public interface CollectiveOperations
{
    /**
     * Wait until every rank has entered this barrier. Messages each rank sent before entering it have been handed to
     * their destinations, but only gets and puts completed by {@link SplitPhaseAccess#sync()} and stores completed by
     * {@link SignallingStores#allStoreSync()} are known to have been handled.
     */
    void barrier();

    /**
     * @param value this rank's contribution.
     * @return the sum over every rank (two's complement, wrapping).
     */
    long allReduceSum(long value);

    /**
     * @param value this rank's contribution.
     * @return the smallest contribution.
     */
    long allReduceMin(long value);

    /**
     * @param value this rank's contribution.
     * @return the largest contribution.
     */
    long allReduceMax(long value);

    /**
     * @param value this rank's contribution.
     * @return the sum over every rank, added in rank order (the same bits on every run).
     */
    double allReduceSum(double value);

    /**
     * @param value this rank's contribution.
     * @return the smallest contribution ({@link Math#min(double, double)}: NaN if any is NaN).
     */
    double allReduceMin(double value);

    /**
     * @param value this rank's contribution.
     * @return the largest contribution ({@link Math#max(double, double)}: NaN if any is NaN).
     */
    double allReduceMax(double value);

    /**
     * @param root  the rank whose value every rank gets.
     * @param value the value at the root; ignored elsewhere.
     * @return the root's value.
     */
    long broadcast(int root, long value);

    /**
     * @param root  the rank whose value every rank gets.
     * @param value the value at the root; ignored elsewhere.
     * @return the root's value, the same bits.
     */
    default double broadcast(int root, double value)
    {
        return Double.longBitsToDouble(broadcast(root, Double.doubleToRawLongBits(value)));
    }
}
