package org.am2j.splitc.em3d;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.am2j.splitc.GlobalPtr;
import org.am2j.splitc.app.Grid;
import org.am2j.splitc.app.RunSpec;
import org.junit.jupiter.api.Test;

/**
 * The share of EM3D's messages that stay on their node, per layout, for the model paper's inputs (the {@code paper}
 * preset: 2,500 nodes per processor, degree 20, 40% remote) on 32 ranks over 4 nodes of 8, against the paper's Table 4
 * (62.5% naive, 74.9% good), and the number of messages per rank. Graph and layout only, no messaging: every ghost of a
 * rank's {@link FieldUpdate} is one split-phase get per half step, a request and a reply, both local exactly when the
 * ghost's owner runs on the rank's node (the launcher places consecutive ranks on a node). The barrier of each half
 * step adds 62 messages over all ranks to tens of thousands of gets; it is left out.
 */
class Em3dLocalityTest
{
    private static final int PROCS = 32;
    private static final int NODES = 4;
    private static final int PER_NODE = PROCS / NODES;
    private static final Map<String, long[][]> GETS = new ConcurrentHashMap<>();

    private static long[][] getsPerRank(final String layoutName)
    {
        return GETS.computeIfAbsent(layoutName, Em3dLocalityTest::countGets);
    }

    /**
     * @return per rank: {local gets, network gets} of one iteration (both half steps).
     */
    private static long[][] countGets(final String layoutName)
    {
        final RunSpec spec = paper(layoutName);
        final Em3dGraph graph = new Em3dGraph(PROCS, spec.getInt("nodes"), spec.getInt("degree"),
            spec.getDouble("remote"), spec.getLong("seed"));
        final Layout layout = Layout.of(spec.get("layout"), graph.grid(), NODES);
        final long[][] gets = new long[PROCS][2];
        for (int rank = 0; rank < PROCS; rank++)
        {
            final int vp = layout.vpOf(rank);
            for (int kind = Em3dGraph.E; kind <= Em3dGraph.H; kind++)
            {
                for (final long gp : new FieldUpdate(graph, layout, vp, kind).ghostPointer)
                {
                    final int owner = GlobalPtr.rank(gp);
                    assertTrue(owner != rank, "a ghost is a remote value");
                    gets[rank][owner / PER_NODE == rank / PER_NODE ? 0 : 1]++;
                }
            }
        }
        return gets;
    }

    /**
     * @return the {@code paper} preset's run with that layout.
     */
    private static RunSpec paper(final String layoutName)
    {
        return new Em3d().preset("paper-" + layoutName).get(0);
    }

    /**
     * @return mean short messages per rank of the timed phase: a request and a reply per get, every iteration.
     */
    private static double messagesPerRank(final String layoutName)
    {
        long gets = 0;
        for (final long[] g : getsPerRank(layoutName))
        {
            gets += g[0] + g[1];
        }
        return 2.0 * gets * paper(layoutName).getInt("iterations") / PROCS;
    }

    private static double percentLocal(final long[][] gets)
    {
        long local = 0;
        long all = 0;
        for (final long[] g : gets)
        {
            local += g[0];
            all += g[0] + g[1];
        }
        return 100.0 * local / all;
    }

    @Test
    void naiveLayoutKeepsThePapersShareOfMessagesOnTheNode()
    {
        final long[][] gets = getsPerRank("naive");
        final double local = percentLocal(gets);
        assertEquals(62.5, local, 5.0, "EM3D/naive % local (paper's Table 4: 62.5)");
        for (final long[] g : gets)
        {
            assertTrue(g[1] > 0, "naive: every rank has a neighbour on another node (paper's network minimum 199,600)");
        }
    }

    @Test
    void goodLayoutKeepsThePapersShareOfMessagesOnTheNode()
    {
        final long[][] gets = getsPerRank("good");
        final double local = percentLocal(gets);
        assertEquals(74.9, local, 5.0, "EM3D/good % local (paper's Table 4: 74.9)");
        long minNetwork = Long.MAX_VALUE;
        for (final long[] g : gets)
        {
            minNetwork = Math.min(minNetwork, g[1]);
        }
        assertEquals(0, minNetwork,
            "good: the ranks at the grid's corners fetch no ghost over the network (paper: network minimum 0)");
        assertTrue(local > percentLocal(getsPerRank("naive")) + 5, "the good layout keeps more on the node");
    }

    @Test
    void thePaperPresetSendsThePapersNumberOfMessages()
    {
        // Table 4, network + local short messages, mean per rank
        assertEquals(1.0, messagesPerRank("naive") / (608_817 + 1_013_094), 0.05, "EM3D/naive");
        assertEquals(1.0, messagesPerRank("good") / (407_369 + 1_216_549), 0.05, "EM3D/good");
    }

    @Test
    void remoteEdgesGoToFaceAdjacentProcessorsOnly()
    {
        final Em3dGraph graph = new Em3dGraph(PROCS, 10, 4, 0.4, 1);
        final int[] grid = Grid.balanced(PROCS, 3);
        int interior = 0;
        for (int vp = 0; vp < PROCS; vp++)
        {
            final int[] neighbours = graph.neighbours(vp);
            for (final int other : neighbours)
            {
                int steps = 0;
                for (int axis = 0, a = vp, b = other; axis < 3; a /= grid[axis], b /= grid[axis], axis++)
                {
                    steps += Math.abs(a % grid[axis] - b % grid[axis]);
                }
                assertEquals(1, steps, "virtual processors " + vp + " and " + other + " share a face");
            }
            interior += neighbours.length == 5 ? 1 : 0;
            assertTrue(neighbours.length >= 3 && neighbours.length <= 5, "4 x 4 x 2: 3 to 5 face neighbours");
        }
        assertEquals(8, interior, "4 x 4 x 2: the 2 x 2 middle columns of both layers have 5 face neighbours");
    }
}
