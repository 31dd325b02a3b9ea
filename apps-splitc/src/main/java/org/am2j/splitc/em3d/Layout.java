package org.am2j.splitc.em3d;

/**
 * Where the virtual processors of EM3D's grid go: which rank (and so which node, since the launcher places
 * consecutive ranks on a node) runs the virtual processor at (x, y, z) of a px x py x pz grid.
 * <ul>
 * <li><b>naive</b>: rank = virtual processor number {@code x + px (y + py z)}, so a node's ranks form a slab of
 * consecutive rows (on the paper's 4 x 4 x 2 grid with 8 ranks per node: 4 x 2 x 1 blocks);</li>
 * <li><b>good</b>: a node's ranks form the most cube-like box (smallest surface) that tiles the grid (on the paper's
 * grid: 2 x 2 x 2 blocks), which keeps more of the neighbour traffic on the node. It needs the same number of ranks
 * on every node and a box of that volume that divides the grid. On one node both layouts are the same.</li>
 * </ul>
 */
public final class Layout
{
    private final String name;
    private final int[] grid;
    private final int[] block;
    private final int perNode;
    private final int[] rankOfVp;
    private final int[] vpOfRank;

    private Layout(final String name, final int[] grid, final int[] block)
    {
        this.name = name;
        this.grid = grid.clone();
        this.block = block.clone();
        this.perNode = block[0] * block[1] * block[2];
        final int procs = grid[0] * grid[1] * grid[2];
        this.rankOfVp = new int[procs];
        this.vpOfRank = new int[procs];
        final int bx = grid[0] / block[0];
        final int by = grid[1] / block[1];
        for (int vp = 0; vp < procs; vp++)
        {
            final int x = vp % grid[0];
            final int y = (vp / grid[0]) % grid[1];
            final int z = vp / (grid[0] * grid[1]);
            final int blockIndex = x / block[0] + bx * (y / block[1] + by * (z / block[2]));
            final int inner = x % block[0] + block[0] * (y % block[1] + block[1] * (z % block[2]));
            final int rank = "naive".equals(name) ? vp : blockIndex * perNode + inner;
            rankOfVp[vp] = rank;
            vpOfRank[rank] = vp;
        }
    }

    /**
     * @param name  {@code naive} or {@code good}.
     * @param grid  the virtual processor grid, x first, 3 sides.
     * @param nodes number of nodes the ranks run on.
     * @return the layout.
     * @throws IllegalArgumentException when the name is unknown or {@code good} cannot tile the grid.
     */
    public static Layout of(final String name, final int[] grid, final int nodes)
    {
        final int procs = grid[0] * grid[1] * grid[2];
        if ("naive".equals(name))
        {
            return new Layout(name, grid, grid);
        }
        if (!"good".equals(name))
        {
            throw new IllegalArgumentException("--layout " + name + " must be naive or good");
        }
        if (procs % nodes != 0)
        {
            throw new IllegalArgumentException("--layout good needs the same number of ranks on every node: " + procs +
                " ranks on " + nodes + " nodes");
        }
        final int perNode = procs / nodes;
        int[] best = null;
        for (int bx = grid[0]; bx >= 1; bx--)
        {
            for (int by = grid[1]; by >= 1; by--)
            {
                if (grid[0] % bx != 0 || grid[1] % by != 0 || perNode % (bx * by) != 0)
                {
                    continue;
                }
                final int bz = perNode / (bx * by);
                if (bz > grid[2] || grid[2] % bz != 0)
                {
                    continue;
                }
                final int[] candidate = { bx, by, bz };
                if (null == best || surface(candidate) < surface(best))
                {
                    best = candidate;
                }
            }
        }
        if (null == best)
        {
            throw new IllegalArgumentException("--layout good: no box of " + perNode + " virtual processors tiles the " +
                grid[0] + " x " + grid[1] + " x " + grid[2] + " grid");
        }
        return new Layout(name, grid, best);
    }

    private static int surface(final int[] b)
    {
        return b[0] * b[1] + b[1] * b[2] + b[0] * b[2];
    }

    /**
     * @param vp a virtual processor.
     * @return the rank that runs it.
     */
    public int rankOf(final int vp)
    {
        return rankOfVp[vp];
    }

    /**
     * @param rank a rank.
     * @return the virtual processor it runs.
     */
    public int vpOf(final int rank)
    {
        return vpOfRank[rank];
    }

    @Override
    public String toString()
    {
        return "naive".equals(name) ? "naive: rank = virtual processor number on a " + grid[0] + " x " + grid[1] +
            " x " + grid[2] + " grid" : "good: " + block[0] + " x " + block[1] + " x " + block[2] +
            " boxes of virtual processors per node on a " + grid[0] + " x " + grid[1] + " x " + grid[2] + " grid";
    }
}
