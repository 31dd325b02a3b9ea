package org.am2j.splitc.con;

import org.am2j.splitc.app.Grid;

/**
 * The graph of CON: a 2D or 3D lattice (no wrap-around) in which each edge between neighbours along an axis is present
 * with probability {@code fraction}, decided by a hash of the edge (its lower end's global id, its axis) and the
 * seed, so every rank and the sequential reference see the same graph. The lattice is split into blocks of
 * {@code side^dim} nodes, one per rank, the ranks forming a balanced grid ({@link Grid#balanced}).
 * <p>
 * Global ids: {@code x + X (y + Y z)}, X, Y, Z the global sides. Local index within a rank's block:
 * {@code lx + side (ly + side lz)}. Rank of a block: {@code rx + px (ry + py rz)}.
 */
public final class Lattice
{
    private final int dim;
    private final int side;
    private final int procs;
    private final int[] grid = { 1, 1, 1 };
    private final long[] size = { 1, 1, 1 };
    private final double fraction;
    private final long seed;
    private final long threshold;

    /**
     * @param dim      2 or 3.
     * @param side     nodes along each axis of a rank's block, 1 or more.
     * @param procs    number of ranks.
     * @param fraction probability that an edge is present, 0 to 1.
     * @param seed     of the graph.
     */
    public Lattice(final int dim, final int side, final int procs, final double fraction, final long seed)
    {
        if (dim != 2 && dim != 3)
        {
            throw new IllegalArgumentException("--dim " + dim + " must be 2 or 3");
        }
        if (side < 1)
        {
            throw new IllegalArgumentException("--side " + side + " must be 1 or more");
        }
        if (!(fraction >= 0 && fraction <= 1))
        {
            throw new IllegalArgumentException("--fraction " + fraction + " must be in [0, 1]");
        }
        this.dim = dim;
        this.side = side;
        this.procs = procs;
        this.fraction = fraction;
        this.seed = seed;
        final int[] sides = Grid.balanced(procs, dim);
        for (int d = 0; d < dim; d++)
        {
            grid[d] = sides[d];
            size[d] = (long)sides[d] * side;
        }
        if ((long)Math.pow(side, dim) > Integer.MAX_VALUE / 20 || size[0] * size[1] * size[2] > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("CON: " + side + "^" + dim + " nodes per rank on " + procs +
                " ranks is too large");
        }
        // an edge is present when the top 53 bits of its hash, as a fraction of 2^53, are below the fraction
        this.threshold = (long)Math.ceil(fraction * 0x1.0p53);
    }

    /**
     * @return 2 or 3.
     */
    public int dim()
    {
        return dim;
    }

    /**
     * @return nodes along each axis of a rank's block.
     */
    public int side()
    {
        return side;
    }

    /**
     * @return nodes per rank, {@code side^dim}.
     */
    public int nodesPerRank()
    {
        return dim == 2 ? side * side : side * side * side;
    }

    /**
     * @return nodes of the whole lattice.
     */
    public int nodes()
    {
        return (int)(size[0] * size[1] * size[2]);
    }

    /**
     * @param d axis, 0 to 2.
     * @return global nodes along it (1 beyond the lattice's dimensions).
     */
    public long size(final int d)
    {
        return size[d];
    }

    /**
     * @param d axis, 0 to 2.
     * @return the difference of global ids of neighbours along the axis.
     */
    public long stride(final int d)
    {
        return d == 0 ? 1 : d == 1 ? size[0] : size[0] * size[1];
    }

    /**
     * @param id global id of a node whose coordinate along axis d is below the last.
     * @param d  axis, 0 to dim - 1.
     * @return true when the edge from the node to its neighbour {@code id + stride(d)} is present.
     */
    public boolean edge(final long id, final int d)
    {
        long h = seed * 0x9E3779B97F4A7C15L + id * 4 + d;
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        return (h >>> 11) < threshold;
    }

    /**
     * @param id a global id.
     * @param d  axis, 0 to 2.
     * @return the node's coordinate along the axis.
     */
    public long coordinate(final long id, final int d)
    {
        return d == 0 ? id % size[0] : d == 1 ? (id / size[0]) % size[1] : id / (size[0] * size[1]);
    }

    /**
     * @param id a global id.
     * @return the rank whose block holds the node.
     */
    public int rankOf(final long id)
    {
        final int rx = (int)(coordinate(id, 0) / side);
        final int ry = (int)(coordinate(id, 1) / side);
        final int rz = (int)(coordinate(id, 2) / side);
        return rx + grid[0] * (ry + grid[1] * rz);
    }

    /**
     * @param id a global id.
     * @return the node's index within its rank's block.
     */
    public int localIndex(final long id)
    {
        final int lx = (int)(coordinate(id, 0) % side);
        final int ly = (int)(coordinate(id, 1) % side);
        final int lz = (int)(coordinate(id, 2) % side);
        return lx + side * (ly + side * lz);
    }

    /**
     * @param rank  a rank.
     * @param local index within its block.
     * @return the node's global id.
     */
    public long globalId(final int rank, final int local)
    {
        final int rx = rank % grid[0];
        final int ry = (rank / grid[0]) % grid[1];
        final int rz = rank / (grid[0] * grid[1]);
        final long x = (long)rx * side + local % side;
        final long y = (long)ry * side + (local / side) % side;
        final long z = (long)rz * side + local / (side * side);
        return x + size[0] * (y + size[1] * z);
    }

    @Override
    public String toString()
    {
        return dim + "D lattice " + size[0] + " x " + size[1] + (dim == 3 ? " x " + size[2] : "") + " on a " +
            grid[0] + " x " + grid[1] + (dim == 3 ? " x " + grid[2] : "") + " rank grid, " + nodesPerRank() +
            " nodes per rank, " + fraction + " of edges present";
    }
}
