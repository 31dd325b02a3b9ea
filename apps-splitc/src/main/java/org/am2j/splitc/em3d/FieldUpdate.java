package org.am2j.splitc.em3d;

import java.util.Arrays;

import org.am2j.splitc.GlobalPtr;

/**
 * The update of one field (E or H) on one virtual processor, as its rank runs it in every half step: the edges of its
 * nodes of that kind, each edge's source resolved to a local value of the other kind or to a <em>ghost</em>, a copy of
 * a remote node's value. Every distinct remote node the edges read has one ghost, fetched by one split-phase get from
 * the rank that owns it ({@link #ghostPointer}) before each update; so each ghost costs one request and one reply per
 * half step, local when the owner runs on the same node.
 */
final class FieldUpdate
{
    /** {@link Em3dGraph#E} or {@link Em3dGraph#H}. */
    final int kind;
    /** Per edge {@code i * degree + j}: the local node of the other kind ({@code < n}), or {@code n +} a ghost. */
    final int[] source;
    /** Per edge: its coefficient. */
    final double[] coef;
    /** Per ghost: the global pointer of the remote value, in its owner's segment. */
    final long[] ghostPointer;
    /** Per ghost: the value fetched in this half step. */
    final double[] ghost;

    /**
     * @param graph  the graph.
     * @param layout where the virtual processors run.
     * @param vp     this virtual processor.
     * @param kind   {@link Em3dGraph#E} or {@link Em3dGraph#H}.
     */
    FieldUpdate(final Em3dGraph graph, final Layout layout, final int vp, final int kind)
    {
        this.kind = kind;
        final int n = graph.nodes();
        final int edges = n * graph.degree();
        final int[] targetVp = new int[edges];
        final int[] targetIdx = new int[edges];
        this.coef = new double[edges];
        graph.edges(vp, kind, targetVp, targetIdx, coef);
        final long[] keys = new long[edges];
        int remote = 0;
        for (int e = 0; e < edges; e++)
        {
            if (targetVp[e] != vp)
            {
                keys[remote++] = (long)targetVp[e] * n + targetIdx[e];
            }
        }
        Arrays.sort(keys, 0, remote);
        int distinct = 0;
        for (int k = 0; k < remote; k++)
        {
            if (0 == distinct || keys[k] != keys[distinct - 1])
            {
                keys[distinct++] = keys[k];
            }
        }
        final long[] ghosts = Arrays.copyOf(keys, distinct);
        this.source = new int[edges];
        for (int e = 0; e < edges; e++)
        {
            source[e] = targetVp[e] == vp ? targetIdx[e] :
                n + Arrays.binarySearch(ghosts, (long)targetVp[e] * n + targetIdx[e]);
        }
        final int otherOffset = (1 - kind) * 8 * n;
        this.ghostPointer = new long[ghosts.length];
        for (int g = 0; g < ghosts.length; g++)
        {
            final int owner = layout.rankOf((int)(ghosts[g] / n));
            ghostPointer[g] = GlobalPtr.of(owner, otherOffset + 8 * (int)(ghosts[g] % n));
        }
        this.ghost = new double[ghosts.length];
    }
}
