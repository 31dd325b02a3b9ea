package org.am2j.perf.apps;

import org.am2j.perf.apps.PaperTable4.Group;

/**
 * Why a figure of ours differs from the paper's Table 4 by more than the tolerance ({@link Table4}): what am2j's
 * applications send (read from {@code Fft3d}, {@code Con}, {@code Em3d} and the Split-C layer's {@code Stores},
 * {@code BulkStaging} and {@code Collectives}) against what the paper's counts imply. Each text explains a column group
 * of one run; a preset other than the paper's inputs is said first, since it changes every count.
 */
final class Table4Explanations
{
    private static final String FFT_SHORT = "The paper counts about one short message per bulk message more than " +
        "am2j does (its 3,270 network = 3,072 + 198, its 954 local = 896 + 58): a reply to every 4 kB bulk store " +
        "request, as AM-II pairs each request with a reply. am2j's bulk stores are one-way requests (`BulkStaging`, " +
        "`Stores`: the owner counts the bytes that arrive; `all_store_sync` then sends every peer the bytes stored " +
        "to it), so its short messages are only those byte counts (31 per rank and transpose: 24 network, 7 local) " +
        "and the barriers' (each rank sends one to rank 0 and rank 0 one to each: rank 0 has the maximum).";
    private static final String FFT_BULK = "3D FFT's bulk messages are the transposes' data, split into messages of " +
        "at most the `msg` parameter (the paper preset's 4,096 bytes, the paper's 4 kB): 2 transposes of " +
        "nx*ny*nz*16/P^2 bytes to each of the 24 network and 7 local peers; the paper's inputs on 32 ranks give its " +
        "3,072 x 4 kB and 896 x 4 kB, other inputs or message limits other counts and sizes.";
    private static final String FFT_LOCAL = "With 8 consecutive ranks per node, 7 of a rank's 31 peers share its " +
        "node: the all-to-all transposes keep 7/31 = 22.6 % of the messages local whatever the inputs.";
    private static final String CON_SHORT = "am2j's CON reads every remote value with a scalar split-phase get, a " +
        "short request and a short reply (`Con`): one get per present edge leaving the rank's block (the boundary " +
        "phase), then in every iteration of the global phase one get per distinct remote target component, one " +
        "per pointer jump and an all-reduce of the changes, until an iteration changes no label anywhere; its counts follow that algorithm on the " +
        "seeded lattice, while the paper gives its CON's counts but not the messages of its algorithm. The paper's " +
        "CON/comm maximum (240,919, 3.6 times its mean) is the \"period of high contention and load imbalance near " +
        "the end\" it reports.";
    private static final String CON_BULK = "am2j's CON sends no bulk messages: every value it moves is a 4- or " +
        "8-byte label, carried in a short reply's arguments. The paper's CON sent a few 16-byte bulk messages per " +
        "processor (under 0.5 % of its messages); ours are among the short ones.";
    private static final String CON_COMM_LOCAL = "am2j lays CON/comm's 3D blocks on a 4x4x2 grid of ranks, x " +
        "fastest (`Grid.balanced`, `Lattice`), and the launcher puts 8 consecutive ranks on a node: a node holds a " +
        "4x2x1 block of ranks, so on average 2.5 of a rank's 4 neighbouring blocks are on its node (its x " +
        "neighbours, one of its two y neighbours, no z neighbour), which keeps about 60 % of the boundary traffic " +
        "local. The paper does not give CON's placement; its 42.7 % means fewer of a processor's neighbours shared " +
        "its SMP.";
    private static final String CON_COMP_LOCAL = "am2j lays CON/comp's 2D blocks on an 8x4 grid of ranks, x fastest " +
        "(`Grid.balanced`, `Lattice`), and the launcher puts 8 consecutive ranks on a node: a node holds one row of " +
        "8 ranks, so on average 1.75 of a rank's 3.25 neighbouring blocks (its x neighbours) are on its node, about " +
        "54 % of the boundary traffic. The paper does not give CON's placement.";
    private static final String EM3D_SHORT = "Each EM3D count is a short request and a short reply per ghost node " +
        "and half step, plus the barrier of each half step (`Em3d`). With remote edges drawn uniformly among the " +
        "processors adjacent across a face (`Em3dGraph`), the means match the paper's within a few percent, but " +
        "the spread over the ranks is narrower in the naive layout: a rank's network share follows how many of its " +
        "3 to 5 faces (1 or 2) leave its node, while the paper's wider range (naive: 199,600 to 1,015,500 network " +
        "messages) implies that its generator, which the paper does not describe, chose remote nodes less evenly.";
    private static final String EM3D_BULK = "Neither the paper's EM3D nor am2j's sends bulk messages: every value is " +
        "a double read by a split-phase get.";
    private static final String EM3D_LOCAL = "The naive layout puts a 4x2x1 block of virtual processors on each " +
        "node, the good one a 2x2x2 block (`Layout`); with remote edges to face-adjacent processors the graph gives " +
        "62.6 % and 75.7 % local on 32 ranks over 4 nodes (`Em3dLocalityTest`). Another share means another graph " +
        "or rank placement.";
    private static final String UNKNOWN = "No explanation is written for this difference: compare the " +
        "application's messages with the paper's Table 4.";

    private Table4Explanations()
    {
    }

    /**
     * @param preset   the preset the run used.
     * @param paperRun the paper's run label.
     * @param group    a column group with a flagged figure.
     * @return why ours differs from the paper's.
     */
    static String explain(final String preset, final String paperRun, final Group group)
    {
        final String inputs = MatrixConfig.PAPER_PRESET.equals(preset) ? "" : "Preset `" + preset + "` is not the " +
            "paper's inputs, and counts follow the inputs: only % local compares. ";
        return inputs + perRun(paperRun, group);
    }

    private static String perRun(final String paperRun, final Group group)
    {
        final boolean shortMessages = group == Group.NETWORK_SHORT || group == Group.LOCAL_SHORT;
        final boolean local = group == Group.PERCENT_LOCAL;
        return switch (paperRun)
        {
            case "3D FFT" -> shortMessages ? FFT_SHORT : local ? FFT_LOCAL : FFT_BULK;
            case "CON/comm" -> local ? CON_COMM_LOCAL : shortMessages ? CON_SHORT : CON_BULK;
            case "CON/comp" -> local ? CON_COMP_LOCAL : shortMessages ? CON_SHORT : CON_BULK;
            case "EM3D/naive", "EM3D/good" -> local ? EM3D_LOCAL : shortMessages ? EM3D_SHORT : EM3D_BULK;
            default -> UNKNOWN;
        };
    }
}
