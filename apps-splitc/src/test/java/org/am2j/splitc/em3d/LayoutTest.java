package org.am2j.splitc.em3d;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.am2j.splitc.app.Grid;
import org.junit.jupiter.api.Test;

/**
 * Processor grids, the naive and good layouts of the model paper, and the EM3D graph's determinism.
 */
class LayoutTest
{
    @Test
    void balancedGridsAreTheMostCubeLike()
    {
        assertArrayEquals(new int[]{ 4, 4, 2 }, Grid.balanced(32, 3), "the paper's EM3D grid");
        assertArrayEquals(new int[]{ 2, 2, 2 }, Grid.balanced(8, 3));
        assertArrayEquals(new int[]{ 2, 2, 1 }, Grid.balanced(4, 3));
        assertArrayEquals(new int[]{ 3, 1, 1 }, Grid.balanced(3, 3));
        assertArrayEquals(new int[]{ 4, 2 }, Grid.balanced(8, 2));
        assertArrayEquals(new int[]{ 3, 2 }, Grid.balanced(6, 2));
        assertArrayEquals(new int[]{ 1, 1 }, Grid.balanced(1, 2));
        assertArrayEquals(new int[]{ 7 }, Grid.balanced(7, 1));
    }

    /** The node of each virtual processor, for ranks placed in blocks of {@code perNode} consecutive ranks. */
    private static int[] nodeOfVp(final Layout layout, final int procs, final int perNode)
    {
        final int[] node = new int[procs];
        for (int vp = 0; vp < procs; vp++)
        {
            node[vp] = layout.rankOf(vp) / perNode;
        }
        return node;
    }

    @Test
    void thePapersLayoutsOn32RanksOf4Nodes()
    {
        final int[] grid = Grid.balanced(32, 3);
        final Layout naive = Layout.of("naive", grid, 4);
        final Layout good = Layout.of("good", grid, 4);
        final int[] naiveNode = nodeOfVp(naive, 32, 8);
        final int[] goodNode = nodeOfVp(good, 32, 8);
        for (int vp = 0; vp < 32; vp++)
        {
            final int x = vp % 4;
            final int y = (vp / 4) % 4;
            final int z = vp / 16;
            assertEquals(y / 2 + 2 * z, naiveNode[vp], "naive: nodes hold 4 x 2 x 1 blocks");
            assertEquals(x / 2 + 2 * (y / 2), goodNode[vp], "good: nodes hold 2 x 2 x 2 blocks");
            assertEquals(vp, good.vpOf(good.rankOf(vp)));
        }
        // the good layout leaves a corner processor with no neighbour on another node (the paper's network minimum 0)
        final Em3dGraph graph = new Em3dGraph(32, 10, 4, 0.4, 1);
        int minOffNode = Integer.MAX_VALUE;
        int naiveMinOffNode = Integer.MAX_VALUE;
        for (int vp = 0; vp < 32; vp++)
        {
            int offNode = 0;
            int naiveOffNode = 0;
            for (final int n : graph.neighbours(vp))
            {
                offNode += goodNode[n] != goodNode[vp] ? 1 : 0;
                naiveOffNode += naiveNode[n] != naiveNode[vp] ? 1 : 0;
            }
            minOffNode = Math.min(minOffNode, offNode);
            naiveMinOffNode = Math.min(naiveMinOffNode, naiveOffNode);
        }
        assertEquals(0, minOffNode);
        assertTrue(naiveMinOffNode > 0, "naive: every processor has a neighbour on another node");
    }

    @Test
    void onOneNodeBothLayoutsAreTheIdentity()
    {
        for (final int procs : new int[]{ 1, 2, 4, 6, 8 })
        {
            final int[] grid = Grid.balanced(procs, 3);
            for (final String name : new String[]{ "naive", "good" })
            {
                final Layout layout = Layout.of(name, grid, 1);
                for (int vp = 0; vp < procs; vp++)
                {
                    assertEquals(vp, layout.rankOf(vp));
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Layout.of("good", Grid.balanced(6, 3), 4));
        assertThrows(IllegalArgumentException.class, () -> Layout.of("other", Grid.balanced(4, 3), 1));
    }

    @Test
    void layoutsArePermutations()
    {
        final int[] grid = Grid.balanced(16, 3);
        final Layout good = Layout.of("good", grid, 2);
        final Set<Integer> ranks = new HashSet<>();
        for (int vp = 0; vp < 16; vp++)
        {
            ranks.add(good.rankOf(vp));
        }
        assertEquals(16, ranks.size());
    }

    @Test
    void theGraphIsDeterministicAndItsRemoteFractionClose()
    {
        final Em3dGraph graph = new Em3dGraph(8, 500, 10, 0.4, 3);
        final int[] tv = new int[5000];
        final int[] ti = new int[5000];
        final double[] c = new double[5000];
        final int[] tv2 = new int[5000];
        final int[] ti2 = new int[5000];
        final double[] c2 = new double[5000];
        graph.edges(5, Em3dGraph.H, tv, ti, c);
        new Em3dGraph(8, 500, 10, 0.4, 3).edges(5, Em3dGraph.H, tv2, ti2, c2);
        assertArrayEquals(tv, tv2);
        assertArrayEquals(ti, ti2);
        assertArrayEquals(c, c2);
        int remote = 0;
        final Set<Integer> near = new HashSet<>();
        for (final int n : graph.neighbours(5))
        {
            near.add(n);
        }
        for (int e = 0; e < 5000; e++)
        {
            remote += tv[e] != 5 ? 1 : 0;
            assertTrue(tv[e] == 5 || near.contains(tv[e]));
            assertTrue(ti[e] >= 0 && ti[e] < 500);
            assertTrue(Math.abs(c[e]) <= 0.1);
        }
        assertEquals(0.4, remote / 5000.0, 0.03);
        assertEquals(3, graph.neighbours(0).length, "a corner of the 2 x 2 x 2 grid: one face neighbour per axis");
    }
}
