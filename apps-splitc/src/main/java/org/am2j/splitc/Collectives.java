package org.am2j.splitc;

import static org.am2j.splitc.Handlers.H_COLLECTIVE;
import static org.am2j.splitc.Handlers.H_COLLECTIVE_RESULT;

import java.util.Objects;

import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.Token;

/**
 * The collectives of one rank: barrier, reductions and broadcast, called by every rank in the same order. Every rank
 * sends its contribution to the root, rank 0 ({@link Handlers#H_COLLECTIVE}: contributor, epoch, operation, value);
 * the root waits for all, checks that every rank called the same operation, combines the values in rank order (so a
 * double reduction gives the same bits on every run) and sends the result to every rank
 * ({@link Handlers#H_COLLECTIVE_RESULT}). The root keeps contributions by the parity of the epoch, since a rank is at
 * most one collective ahead of the root.
 */
final class Collectives
{
    static final int OP_BARRIER = 1;
    static final int OP_SUM_LONG = 2;
    static final int OP_MIN_LONG = 3;
    static final int OP_MAX_LONG = 4;
    static final int OP_SUM_DOUBLE = 5;
    static final int OP_MIN_DOUBLE = 6;
    static final int OP_MAX_DOUBLE = 7;
    static final int OP_BROADCAST = 8;
    private static final int OP_KIND_MASK = 0xFF;
    private static final int ROOT_SHIFT = 8;
    private static final int ROOT = 0;
    /** The names of the operations from {@link #OP_BARRIER} to {@link #OP_MAX_DOUBLE}, for errors. */
    private static final String[] OP_NAMES = { null, "barrier", "allReduceSum(long)", "allReduceMin(long)",
        "allReduceMax(long)", "allReduceSum(double)", "allReduceMin(double)", "allReduceMax(double)" };

    private final GlobalSpace space;
    private final Progress progress;
    private int epoch;
    private final long[][] values;
    private final int[][] ops;
    private final int[] count = new int[2];
    private int resultEpoch;
    private long resultValue;

    Collectives(final GlobalSpace space, final Progress progress)
    {
        this.space = space;
        this.progress = progress;
        this.values = new long[2][space.size];
        this.ops = new int[2][space.size];
    }

    void install(final Endpoint endpoint)
    {
        endpoint.handler(H_COLLECTIVE, this::onCollective);
        endpoint.handler(H_COLLECTIVE_RESULT, this::onCollectiveResult);
    }

    void barrier()
    {
        collective(OP_BARRIER, 0);
    }

    /**
     * @param root  the rank whose value every rank gets.
     * @param value the value at the root; ignored elsewhere.
     * @return the root's value.
     */
    long broadcast(final int root, final long value)
    {
        Objects.checkIndex(root, space.size);
        return collective(OP_BROADCAST | (root << ROOT_SHIFT), space.rank == root ? value : 0);
    }

    /**
     * @param op    an {@code OP_} reduction.
     * @param value this rank's contribution, a double as its raw bits.
     * @return the reduction of every rank's contribution.
     */
    long reduce(final int op, final long value)
    {
        return collective(op, value);
    }

    double reduce(final int op, final double value)
    {
        return Double.longBitsToDouble(collective(op, Double.doubleToRawLongBits(value)));
    }

    /**
     * @return the collective counters, for diagnostics.
     */
    String state()
    {
        return "collective " + epoch + " (contributions " + count[0] + "/" + count[1] + ", result " + resultEpoch + ")";
    }

    private long collective(final int op, final long value)
    {
        progress.checkUsable();
        final int epoch = ++this.epoch;
        final int parity = epoch & 1;
        final int size = space.size;
        if (size == 1)
        {
            return value;
        }
        progress.beginWait();
        if (space.rank != ROOT)
        {
            progress.beforeSend();
            space.endpoint.request(ROOT, H_COLLECTIVE, space.rank, epoch, op, (int)value, (int)(value >>> 32));
            space.counts.countShort(space.local[ROOT]);
            while (resultEpoch != epoch)
            {
                progress.waitStep(waitName(op));
            }
            return resultValue;
        }

        final long[] values = this.values[parity];
        final int[] ops = this.ops[parity];
        values[ROOT] = value;
        ops[ROOT] = op;
        while (count[parity] < size - 1)
        {
            progress.waitStep(waitName(op));
        }
        count[parity] = 0;
        for (int r = 0; r < size; r++)
        {
            if (ops[r] != op)
            {
                throw progress.fail(new SplitCException("collective " + epoch + ": rank " + r + " called " +
                    opName(ops[r]) + " while rank " + ROOT + " called " + opName(op) +
                    " (every rank must call the same collectives in the same order)"));
            }
        }
        final long result = combine(op, values);
        for (int r = 0; r < size; r++)
        {
            if (r != ROOT)
            {
                progress.beforeSend();
                space.endpoint.request(r, H_COLLECTIVE_RESULT, epoch, (int)result, (int)(result >>> 32));
                space.counts.countShort(space.local[r]);
            }
        }
        return result;
    }

    private long combine(final int op, final long[] values)
    {
        final int kind = op & OP_KIND_MASK;
        if (kind == OP_BARRIER)
        {
            return 0;
        }
        if (kind == OP_BROADCAST)
        {
            return values[op >>> ROOT_SHIFT];
        }
        if (kind < OP_SUM_LONG || kind > OP_MAX_DOUBLE)
        {
            throw progress.fail(new SplitCException("unknown collective operation " + op));
        }
        long result = values[0];
        for (int r = 1; r < space.size; r++)
        {
            result = combine(kind, result, values[r]);
        }
        return result;
    }

    /** One step of a reduction; a double travels as its raw bits, which the conversions keep exactly. */
    private static long combine(final int kind, final long a, final long b)
    {
        return switch (kind)
        {
            case OP_SUM_LONG -> a + b;
            case OP_MIN_LONG -> Math.min(a, b);
            case OP_MAX_LONG -> Math.max(a, b);
            default ->
                Double.doubleToRawLongBits(combine(kind, Double.longBitsToDouble(a), Double.longBitsToDouble(b)));
        };
    }

    private static double combine(final int kind, final double a, final double b)
    {
        return kind == OP_SUM_DOUBLE ? a + b : kind == OP_MIN_DOUBLE ? Math.min(a, b) : Math.max(a, b);
    }

    private static String waitName(final int op)
    {
        return (op & OP_KIND_MASK) == OP_BARRIER ? "barrier" : "collective";
    }

    private static String opName(final int op)
    {
        final int kind = op & OP_KIND_MASK;
        return kind == OP_BROADCAST ? "broadcast(root " + (op >>> ROOT_SHIFT) + ")" :
            kind >= OP_BARRIER && kind < OP_BROADCAST ? OP_NAMES[kind] : "operation " + op;
    }

    // Handlers: they run inside this rank's polls, in its thread.

    private void onCollective(final Token token, final Message msg)
    {
        final int contributor = msg.arg(0);
        final int epoch = msg.arg(1);
        if (epoch != this.epoch && epoch != this.epoch + 1)
        {
            throw progress.fail(new SplitCException("rank " + space.rank + ": rank " + contributor +
                " contributed to collective " + epoch + " while this rank is at collective " + this.epoch +
                " (every rank must call the same collectives in the same order)"));
        }
        final int parity = epoch & 1;
        ops[parity][contributor] = msg.arg(2);
        values[parity][contributor] = Handlers.join(msg.arg(3), msg.arg(4));
        count[parity]++;
    }

    private void onCollectiveResult(final Token token, final Message msg)
    {
        resultValue = Handlers.join(msg.arg(1), msg.arg(2));
        resultEpoch = msg.arg(0);
    }
}
