package org.am2j.perf.apps;

import java.util.Arrays;
import java.util.List;

/**
 * Table 4 of the model paper (Lumetta, Mainwaring, Culler, SC'97) as printed: messages per processor of each run on
 * the Clump (32 processors on 4 SMPs), network and local, short messages as mean, minimum and maximum over the
 * processors, bulk messages as a mean count times their size, and the share of messages that stayed on their SMP.
 * "4 kB" is read as 4,096 bytes; "none" as 0 messages.
 * <pre>
 * | Run        | Network: short mean / min / max | bulk         | Local: short mean / min / max | bulk       | % Local |
 * | 3D FFT     |   3,270 /   3,072 /   3,468     | 3,072 x 4 kB |     954 /   896 /   1,292     | 896 x 4 kB |    22.6 |
 * | CON/comm   |  67,236 /  51,541 / 240,919     |   292 x 16 B |  50,138 / 43,614 /  90,346    | 130 x 16 B |    42.7 |
 * | CON/comp   |   5,993 /   5,601 /   6,498     |    10 x 16 B |   5,890 /  5,351 /   6,411    |   6 x 16 B |    49.5 |
 * | EM3D/naive | 608,817 / 199,600 / 1,015,500   | none         | 1,013,094 / 804,065 / 1,222,500 | none     |    62.5 |
 * | EM3D/good  | 407,369 /       0 /   818,500   | none         | 1,216,549 / 1,198,407 / 1,223,500 | none   |    74.9 |
 * </pre>
 */
final class PaperTable4
{
    /** The figures of one row of Table 4, by {@link Quantity}. */
    enum Quantity
    {
        /** Short messages to other SMPs, mean per processor. */
        NETWORK_SHORT_MEAN(Group.NETWORK_SHORT, "mean"),
        /** Short messages to other SMPs, the smallest processor's. */
        NETWORK_SHORT_MIN(Group.NETWORK_SHORT, "min"),
        /** Short messages to other SMPs, the largest processor's. */
        NETWORK_SHORT_MAX(Group.NETWORK_SHORT, "max"),
        /** Bulk messages to other SMPs, mean per processor. */
        NETWORK_BULK(Group.NETWORK_BULK, "messages"),
        /** Mean data bytes of a bulk message to another SMP. */
        NETWORK_BULK_SIZE(Group.NETWORK_BULK, "size"),
        /** Short messages inside the SMP, mean per processor. */
        LOCAL_SHORT_MEAN(Group.LOCAL_SHORT, "mean"),
        /** Short messages inside the SMP, the smallest processor's. */
        LOCAL_SHORT_MIN(Group.LOCAL_SHORT, "min"),
        /** Short messages inside the SMP, the largest processor's. */
        LOCAL_SHORT_MAX(Group.LOCAL_SHORT, "max"),
        /** Bulk messages inside the SMP, mean per processor. */
        LOCAL_BULK(Group.LOCAL_BULK, "messages"),
        /** Mean data bytes of a bulk message inside the SMP. */
        LOCAL_BULK_SIZE(Group.LOCAL_BULK, "size"),
        /** Percent of all messages that stayed inside their SMP. */
        PERCENT_LOCAL(Group.PERCENT_LOCAL, "");

        private final Group group;
        private final String statistic;

        Quantity(final Group group, final String statistic)
        {
            this.group = group;
            this.statistic = statistic;
        }

        /**
         * @return the column group it belongs to.
         */
        Group group()
        {
            return group;
        }

        /**
         * @return which figure of its group it is ({@code mean}, {@code min}, {@code max}, {@code messages},
         * {@code size}), empty for % local.
         */
        String statistic()
        {
            return statistic;
        }

        /**
         * @return true for a count of messages, which grows with the iterations run; false for a size or a share.
         */
        boolean scalesWithIterations()
        {
            return this != NETWORK_BULK_SIZE && this != LOCAL_BULK_SIZE && this != PERCENT_LOCAL;
        }
    }

    /** The column groups of Table 4. */
    enum Group
    {
        /** Network short messages. */
        NETWORK_SHORT("network short"),
        /** Network bulk messages. */
        NETWORK_BULK("network bulk"),
        /** Local short messages. */
        LOCAL_SHORT("local short"),
        /** Local bulk messages. */
        LOCAL_BULK("local bulk"),
        /** The share of local messages. */
        PERCENT_LOCAL("% local");

        private final String heading;

        Group(final String heading)
        {
            this.heading = heading;
        }

        /**
         * @return its name in our tables.
         */
        String heading()
        {
            return heading;
        }
    }

    /**
     * One run of Table 4.
     *
     * @param run     the run's label in the paper.
     * @param figures the figures in {@link Quantity} order; a bulk size is 0 where the paper has no bulk messages.
     */
    record Row(String run, List<Double> figures)
    {
        /**
         * @param run     the run's label.
         * @param figures the figures.
         */
        Row
        {
            if (figures.size() != Quantity.values().length)
            {
                throw new IllegalArgumentException(run + ": " + figures.size() + " figures, not " +
                    Quantity.values().length);
            }
            figures = List.copyOf(figures);
        }

        /**
         * @param quantity a quantity.
         * @return the paper's figure.
         */
        double figure(final Quantity quantity)
        {
            return figures.get(quantity.ordinal());
        }
    }

    /**
     * EM3D's iterations behind the paper's counts: the paper does not give them; 47 iterations of its inputs give its
     * 1.62 million short messages per processor (network and local), and the {@code paper} preset of EM3D runs 47.
     * Counts of a run of other iterations are compared with the paper's scaled by iterations / 47.
     */
    static final int EM3D_ITERATIONS = 47;

    /** 4 kB as printed. */
    private static final double KB4 = 4096;
    /** The paper's 16-byte bulk messages of CON. */
    private static final double B16 = 16;

    /** The rows of Table 4, in its order. */
    static final List<Row> ROWS = List.of(
        row("3D FFT", 3_270, 3_072, 3_468, 3_072, KB4, 954, 896, 1_292, 896, KB4, 22.6),
        row("CON/comm", 67_236, 51_541, 240_919, 292, B16, 50_138, 43_614, 90_346, 130, B16, 42.7),
        row("CON/comp", 5_993, 5_601, 6_498, 10, B16, 5_890, 5_351, 6_411, 6, B16, 49.5),
        row("EM3D/naive", 608_817, 199_600, 1_015_500, 0, 0, 1_013_094, 804_065, 1_222_500, 0, 0, 62.5),
        row("EM3D/good", 407_369, 0, 818_500, 0, 0, 1_216_549, 1_198_407, 1_223_500, 0, 0, 74.9));

    private PaperTable4()
    {
    }

    private static Row row(final String run, final double... figures)
    {
        return new Row(run, Arrays.stream(figures).boxed().toList());
    }

    /**
     * @param label a run's label (a preset suffix is ignored).
     * @return the paper's row for it, or {@code null} when Table 4 has no such run.
     */
    static Row row(final String label)
    {
        final String run = PaperFigures.paperRun(label);
        return ROWS.stream().filter(row -> row.run().equals(run)).findFirst().orElse(null);
    }

    /**
     * @param label a run's label.
     * @return true for an EM3D run, whose counts are per the iterations run.
     */
    static boolean isEm3d(final String label)
    {
        return PaperFigures.paperRun(label).startsWith("EM3D/");
    }
}
