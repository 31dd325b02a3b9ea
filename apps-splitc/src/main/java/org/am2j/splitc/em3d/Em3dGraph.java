package org.am2j.splitc.em3d;

import java.util.ArrayList;
import java.util.List;

import org.am2j.splitc.app.Grid;

/**
 * The graph of EM3D: on each virtual processor of a 3D grid ({@link Grid#balanced}), {@code n} E nodes and {@code n}
 * H nodes; each node has {@code degree} edges to nodes of the other kind, each with a coefficient. An edge goes to a
 * node on the same virtual processor, or with probability {@code remote} (when the virtual processor has neighbours)
 * to a node of a neighbouring one, drawn uniformly among the virtual processors <em>adjacent across a face</em>: one
 * step along one axis, at most 6, fewer on the grid's boundary (no wrap-around). Everything is drawn from a stream
 * seeded by (seed, virtual processor, kind, node), so the graph is the same whatever ranks run it, in whatever layout.
 * <p>
 * <b>Which reading of the model paper.</b> The paper gives EM3D's inputs (nodes per processor, degree, % remote) and
 * says the runs "partition the underlying coordinate space on 32 processors into 4x4x2 blocks"; it does not say where
 * a remote edge goes. This class reads it as a mesh whose edges join nearby points of that space: an edge that leaves
 * a processor's block crosses one of the block's faces into the face-adjacent processor (crossing the block's edges
 * or corners is rare and left out). With this reading the paper's Table 4 follows: with its inputs on 32 ranks over 4
 * nodes of 8, 62.6% of the messages stay on their node with the naive layout and 75.7% with the good one (paper: 62.5
 * and 74.9; {@code Em3dLocalityTest}), where remote edges to all 26 processors one step away along every axis give
 * 35.8% and 65.0%.
 * <p>
 * One step of the computation updates every E node from the H values, then every H node from the new E values:
 * {@code e[i] = e[i] - sum_j c[i][j] v[t[i][j]]}, the sum taken in edge order from 0.0, so that any correct parallel
 * run gives the sequential bits.
 */
public final class Em3dGraph
{
    /** The E kind. */
    public static final int E = 0;
    /** The H kind. */
    public static final int H = 1;

    private final int procs;
    private final int[] grid;
    private final int n;
    private final int degree;
    private final double remote;
    private final long seed;
    private final int[][] neighbours;

    /**
     * @param procs  number of virtual processors (ranks).
     * @param n      nodes of each kind per virtual processor, 1 or more.
     * @param degree edges per node, 1 or more.
     * @param remote probability that an edge leaves its virtual processor, 0 to 1.
     * @param seed   of the graph.
     */
    public Em3dGraph(final int procs, final int n, final int degree, final double remote, final long seed)
    {
        if (n < 1 || degree < 1)
        {
            throw new IllegalArgumentException("--graph-nodes " + n + " and --degree " + degree + " must be 1 or more");
        }
        if (!(remote >= 0 && remote <= 1))
        {
            throw new IllegalArgumentException("--remote " + remote + " must be in [0, 1]");
        }
        if ((long)n * degree > Integer.MAX_VALUE / 2)
        {
            throw new IllegalArgumentException("--graph-nodes " + n + " x --degree " + degree + " is too large");
        }
        this.procs = procs;
        this.grid = Grid.balanced(procs, 3);
        this.n = n;
        this.degree = degree;
        this.remote = remote;
        this.seed = seed;
        this.neighbours = new int[procs][];
        for (int vp = 0; vp < procs; vp++)
        {
            final int x = vp % grid[0];
            final int y = (vp / grid[0]) % grid[1];
            final int z = vp / (grid[0] * grid[1]);
            final int[] at = { x, y, z };
            final List<Integer> list = new ArrayList<>();
            for (int axis = 0; axis < 3; axis++)
            {
                for (int step = -1; step <= 1; step += 2)
                {
                    final int[] next = at.clone();
                    next[axis] += step;
                    if (next[axis] >= 0 && next[axis] < grid[axis])
                    {
                        list.add(next[0] + grid[0] * (next[1] + grid[1] * next[2]));
                    }
                }
            }
            neighbours[vp] = list.stream().mapToInt(Integer::intValue).sorted().toArray();
        }
    }

    /**
     * @return the virtual processor grid, x first.
     */
    public int[] grid()
    {
        return grid.clone();
    }

    /**
     * @return nodes of each kind per virtual processor.
     */
    public int nodes()
    {
        return n;
    }

    /**
     * @return edges per node.
     */
    public int degree()
    {
        return degree;
    }

    /**
     * @param vp a virtual processor.
     * @return its neighbours (the virtual processors adjacent across a face), in increasing order.
     */
    public int[] neighbours(final int vp)
    {
        return neighbours[vp].clone();
    }

    private static long mix(final long z0)
    {
        long z = z0;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * The edges of every node of one kind on one virtual processor.
     *
     * @param vp        the virtual processor.
     * @param kind      {@link #E} or {@link #H}.
     * @param targetVp  out: per edge {@code i * degree + j}, the virtual processor of the target.
     * @param targetIdx out: the target's index among the other kind's nodes there.
     * @param coef      out: the edge's coefficient, uniform in [-1, 1) / degree.
     */
    public void edges(final int vp, final int kind, final int[] targetVp, final int[] targetIdx, final double[] coef)
    {
        final int[] near = neighbours[vp];
        for (int i = 0; i < n; i++)
        {
            long state = mix(seed * 0x9E3779B97F4A7C15L + ((long)vp * 2 + kind) * 0x632BE59BD9B4E019L + i);
            for (int j = 0; j < degree; j++)
            {
                final int e = i * degree + j;
                state += 0x9E3779B97F4A7C15L;
                final double u = (mix(state) >>> 11) * 0x1.0p-53;
                state += 0x9E3779B97F4A7C15L;
                final long r = mix(state) >>> 1;
                state += 0x9E3779B97F4A7C15L;
                final long s = mix(state) >>> 1;
                state += 0x9E3779B97F4A7C15L;
                final double c = (mix(state) >>> 11) * 0x1.0p-52 - 1.0;
                targetVp[e] = near.length > 0 && u < remote ? near[(int)(r % near.length)] : vp;
                targetIdx[e] = (int)(s % n);
                coef[e] = c / degree;
            }
        }
    }

    /**
     * @param vp   a virtual processor.
     * @param kind {@link #E} or {@link #H}.
     * @param i    a node.
     * @return its initial value, uniform in [-1, 1).
     */
    public double initial(final int vp, final int kind, final int i)
    {
        return (mix(seed * 0xD6E8FEB86659FD93L + ((long)vp * 2 + kind) * 0x9E3779B97F4A7C15L + i) >>> 11) *
            0x1.0p-52 - 1.0;
    }

    /**
     * The sequential reference: {@code iterations} steps over the whole graph.
     *
     * @param iterations number of steps.
     * @return values per virtual processor, kind ({@link #E}, {@link #H}) and node.
     */
    public double[][][] sequential(final int iterations)
    {
        final double[][][] values = new double[procs][2][n];
        final int[][][] tv = new int[procs][2][n * degree];
        final int[][][] ti = new int[procs][2][n * degree];
        final double[][][] c = new double[procs][2][n * degree];
        for (int vp = 0; vp < procs; vp++)
        {
            for (int kind = E; kind <= H; kind++)
            {
                edges(vp, kind, tv[vp][kind], ti[vp][kind], c[vp][kind]);
                for (int i = 0; i < n; i++)
                {
                    values[vp][kind][i] = initial(vp, kind, i);
                }
            }
        }
        for (int it = 0; it < iterations; it++)
        {
            for (int kind = E; kind <= H; kind++)
            {
                final int other = 1 - kind;
                for (int vp = 0; vp < procs; vp++)
                {
                    final double[] mine = values[vp][kind];
                    for (int i = 0; i < n; i++)
                    {
                        double acc = 0.0;
                        for (int j = 0; j < degree; j++)
                        {
                            final int e = i * degree + j;
                            acc += c[vp][kind][e] * values[tv[vp][kind][e]][other][ti[vp][kind][e]];
                        }
                        mine[i] = mine[i] - acc;
                    }
                }
            }
        }
        return values;
    }
}
