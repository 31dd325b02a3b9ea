package org.am2j.splitc.con;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The lattice's numbering and edges, and the sequential union-find against a breadth-first search.
 */
public class SequentialConTest
{
    /**
     * @return the number of connected components of the lattice, by breadth-first search over every node's present
     * edges in both directions.
     */
    public static long bfsComponents(final int procs, final int dim, final int side, final double fraction,
        final long seed)
    {
        final Lattice lattice = new Lattice(dim, side, procs, fraction, seed);
        final int n = lattice.nodes();
        final boolean[] seen = new boolean[n];
        long components = 0;
        final ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int s = 0; s < n; s++)
        {
            if (seen[s])
            {
                continue;
            }
            components++;
            seen[s] = true;
            queue.add(s);
            while (!queue.isEmpty())
            {
                final int id = queue.poll();
                for (int d = 0; d < dim; d++)
                {
                    final long c = lattice.coordinate(id, d);
                    final int up = (int)(id + lattice.stride(d));
                    final int down = (int)(id - lattice.stride(d));
                    if (c + 1 < lattice.size(d) && lattice.edge(id, d) && !seen[up])
                    {
                        seen[up] = true;
                        queue.add(up);
                    }
                    if (c > 0 && lattice.edge(down, d) && !seen[down])
                    {
                        seen[down] = true;
                        queue.add(down);
                    }
                }
            }
        }
        return components;
    }

    @ParameterizedTest
    @CsvSource({ "4, 2, 20, 0.4", "8, 3, 6, 0.25", "1, 3, 10, 0.3", "6, 2, 9, 0.55" })
    void unionFindFindsTheComponentsOfABreadthFirstSearch(final int procs, final int dim, final int side,
        final double fraction)
    {
        final Lattice lattice = new Lattice(dim, side, procs, fraction, 11);
        final SequentialCon con = new SequentialCon(lattice);
        assertEquals(bfsComponents(procs, dim, side, fraction, 11), con.components());
        // labels are the smallest id of the component: an edge joins equal labels, a label is its own label
        for (int id = 0; id < lattice.nodes(); id++)
        {
            assertTrue(con.label(id) <= id);
            assertEquals(con.label(id), con.label(con.label(id)));
            for (int d = 0; d < dim; d++)
            {
                if (lattice.coordinate(id, d) + 1 < lattice.size(d) && lattice.edge(id, d))
                {
                    assertEquals(con.label(id), con.label(id + lattice.stride(d)));
                }
            }
        }
    }

    @Test
    void numberingRoundTripsAndBlocksBelongToTheirRanks()
    {
        final Lattice lattice = new Lattice(3, 4, 12, 0.5, 1);
        assertEquals(12 * 64, lattice.nodes());
        for (int rank = 0; rank < 12; rank++)
        {
            for (int local = 0; local < lattice.nodesPerRank(); local++)
            {
                final long id = lattice.globalId(rank, local);
                assertEquals(rank, lattice.rankOf(id));
                assertEquals(local, lattice.localIndex(id));
            }
        }
    }

    @Test
    void theFractionOfEdgesPresentIsClose()
    {
        final Lattice lattice = new Lattice(2, 200, 4, 0.4, 5);
        long present = 0;
        for (int id = 0; id < lattice.nodes(); id++)
        {
            present += lattice.edge(id, 0) ? 1 : 0;
        }
        assertEquals(0.4, present / (double)lattice.nodes(), 0.01);
        assertThrows(IllegalArgumentException.class, () -> new Lattice(4, 2, 2, 0.5, 1));
        assertThrows(IllegalArgumentException.class, () -> new Lattice(2, 2, 2, 1.5, 1));
    }
}
