package org.am2j.splitc.con;

/**
 * The sequential reference of CON: union-find over the whole lattice (path halving; the smaller root becomes the
 * parent, so every set's root is its smallest global id), visiting every node and its present edges in id order.
 */
public final class SequentialCon
{
    private final int[] parent;
    private final int components;

    /**
     * Label the connected components of a lattice.
     *
     * @param lattice the graph.
     */
    public SequentialCon(final Lattice lattice)
    {
        final int n = lattice.nodes();
        parent = new int[n];
        for (int i = 0; i < n; i++)
        {
            parent[i] = i;
        }
        int sets = n;
        for (int id = 0; id < n; id++)
        {
            for (int d = 0; d < lattice.dim(); d++)
            {
                if (lattice.coordinate(id, d) + 1 < lattice.size(d) && lattice.edge(id, d))
                {
                    final int a = find(id);
                    final int b = find((int)(id + lattice.stride(d)));
                    if (a != b)
                    {
                        parent[Math.max(a, b)] = Math.min(a, b);
                        sets--;
                    }
                }
            }
        }
        for (int i = 0; i < n; i++)
        {
            parent[i] = find(i);
        }
        this.components = sets;
    }

    private int find(final int x)
    {
        int i = x;
        while (parent[i] != i)
        {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    /**
     * @param id a global id.
     * @return the smallest global id of the node's component.
     */
    public int label(final long id)
    {
        return parent[(int)id];
    }

    /**
     * @return number of connected components.
     */
    public int components()
    {
        return components;
    }

    /**
     * @return number of nodes of the largest component.
     */
    public int largestComponent()
    {
        final int[] size = new int[parent.length];
        int largest = 0;
        for (final int root : parent)
        {
            largest = Math.max(largest, ++size[root]);
        }
        return largest;
    }
}
