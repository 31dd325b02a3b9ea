package org.am2j.splitc.con;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.splitc.CommCounts;
import org.am2j.splitc.GlobalPtr;
import org.am2j.splitc.SplitC;
import org.am2j.splitc.app.PhaseClock;
import org.am2j.splitc.app.RunReport;
import org.am2j.splitc.app.RunSpec;
import org.am2j.splitc.app.SplitCApp;

/**
 * CON of the model paper: the connected components of a {@link Lattice} with a fraction of its edges present, by
 * fine-grained remote accesses.
 * <ol>
 * <li><b>local</b>: union-find over the rank's block with the edges inside it; each local component c gets a label
 * {@code L[c]}, initially its own component id {@code (rank << 32) | c} (ordered by rank, then c). L lives in the
 * rank's segment, as does the component of each local node;</li>
 * <li><b>boundary</b>: for each present edge leaving the block, a split-phase get of the neighbour's component from
 * its owner; the distinct remote components become the targets of step 3;</li>
 * <li><b>global</b>: iterations of label propagation with pointer jumping until no label changes anywhere: get the
 * label of every target component (one get per distinct target) and the label of the component each boundary
 * component's label names ({@code L[L[c]]}, the jump), sync, lower each label to the smallest seen, then chase labels
 * that point within the rank. Labels only decrease and always name a component of the same connected component; an
 * iteration in which no rank changed a label has read every label in its final state, so each edge joins equal
 * labels, and each connected component is labelled with its smallest component id.</li>
 * </ol>
 * <b>Verification.</b> Every rank runs {@link SequentialCon} on the whole lattice. For each local component it
 * fetches, from the owner of the component its label names, that component's sequential label, and compares: equal
 * final labels imply equal sequential labels. The number of components labelled by themselves (one per connected
 * component found) must equal the sequential number of components, so the two labellings are the same partition.
 */
public final class Con implements SplitCApp
{
    /** Name on the command line. */
    public static final String NAME = "con";

    private static final List<String> PARAMETERS = List.of("dim", "side", "fraction", "seed");

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public List<String> parameterNames()
    {
        return PARAMETERS;
    }

    @Override
    public List<String> presets()
    {
        return List.of("paper", "paper-comm", "paper-comp", "small");
    }

    @Override
    public List<RunSpec> preset(final String preset)
    {
        return switch (preset)
        {
            case "paper" -> List.of(spec("CON/comm", 3, 80, "0.25"), spec("CON/comp", 2, 800, "0.40"));
            case "paper-comm" -> List.of(spec("CON/comm", 3, 80, "0.25"));
            case "paper-comp" -> List.of(spec("CON/comp", 2, 800, "0.40"));
            case "small" -> List.of(spec("CON/comm (small)", 3, 16, "0.25"), spec("CON/comp (small)", 2, 100, "0.40"));
            default -> List.of();
        };
    }

    private static RunSpec spec(final String label, final int dim, final int side, final String fraction)
    {
        return RunSpec.of(NAME, label, PARAMETERS, dim, side, fraction, 1);
    }

    private static Lattice lattice(final RunSpec spec, final int procs)
    {
        return new Lattice(spec.getInt("dim"), spec.getInt("side"), procs, spec.getDouble("fraction"),
            spec.getLong("seed"));
    }

    @Override
    public void check(final RunSpec spec, final int procs, final int nodes)
    {
        lattice(spec, procs);
    }

    @Override
    public int segmentBytes(final RunSpec spec, final int procs)
    {
        return 20 * lattice(spec, procs).nodesPerRank();
    }

    private static long self(final int rank, final int component)
    {
        return ((long)rank << 32) | component;
    }

    private static int ownerOf(final long label)
    {
        return (int)(label >>> 32);
    }

    private static int componentOf(final long label)
    {
        return (int)label;
    }

    /**
     * A rank's block and what the phases make of it. The phases are methods of their own, each small enough for the
     * JIT: as one method of 2 KB of bytecode, called once a run, the run was compiled by on-stack replacement of its
     * loops, again in late warm-ups, and its compilation was still under way in timed runs.
     */
    private static final class Block
    {
        final int me;
        final Lattice lattice;
        final int side;
        final int nodes;
        final int compBase;
        final int seqBase;
        final AtomicBuffer segment;
        final long origin;
        final int sz;
        /** Local component of each local node. */
        int[] compOf;
        int localComponents;
        /** Boundary edges: the local component of the inner end, and the index of the outer end's component. */
        int edges;
        int[] edgeComp;
        int[] edgeTarget;
        /** The distinct remote components the boundary edges reach, and the local components with such edges. */
        long[] targets;
        int[] boundaryComps;

        Block(final SplitC sc, final Lattice lattice)
        {
            this.me = sc.myProc();
            this.lattice = lattice;
            this.side = lattice.side();
            this.nodes = lattice.nodesPerRank();
            this.compBase = 8 * nodes;
            this.seqBase = 12 * nodes;
            this.segment = sc.segment();
            this.origin = lattice.globalId(me, 0);
            this.sz = lattice.dim() == 3 ? side : 1;
        }
    }

    @Override
    public RunReport run(final SplitC sc, final RunSpec spec, final PhaseClock clock)
    {
        final Block block = new Block(sc, lattice(spec, sc.procs()));

        sc.barrier();
        final CommCounts before = sc.counts().copy();
        final long start = System.nanoTime();
        clock.begin();
        local(block);
        clock.end("local");
        sc.barrier();
        boundary(sc, block);
        clock.end("boundary");
        final int iterations = global(sc, block, clock);
        clock.end("global");
        // the counts of the timed phases, before the reductions of the report add their own messages
        final CommCounts counts = sc.counts().minus(before);
        final double total = sc.allReduceMax((System.nanoTime() - start) / 1e9);
        final Map<String, Double> phases = clock.maxOverRanks(sc);

        clock.begin();
        final Map<String, Object> verification = verify(sc, block);
        final boolean verified = (Boolean)verification.remove("verified");
        clock.end("verification");

        final Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("lattice", block.lattice.toString());
        extra.put("nodes_per_rank", (long)block.nodes);
        extra.put("iterations", (long)iterations);
        extra.put("local_components_max", sc.allReduceMax((long)block.localComponents));
        extra.put("boundary_edges_max", sc.allReduceMax((long)block.edges));
        extra.put("remote_targets_max", sc.allReduceMax((long)block.targets.length));
        return new RunReport(spec, phases, total, verified, verification, sc.summarize(counts), extra);
    }

    /**
     * 1. local: union-find inside the block, then number the components in order of their first node.
     */
    private static void local(final Block b)
    {
        final Lattice lattice = b.lattice;
        final int side = b.side;
        final int[] parent = new int[b.nodes];
        for (int i = 0; i < b.nodes; i++)
        {
            parent[i] = i;
        }
        for (int lz = 0; lz < b.sz; lz++)
        {
            for (int ly = 0; ly < side; ly++)
            {
                for (int lx = 0; lx < side; lx++)
                {
                    final int li = lx + side * (ly + side * lz);
                    final long id = b.origin + lx + lattice.size(0) * (ly + lattice.size(1) * lz);
                    if (lx + 1 < side && lattice.edge(id, 0))
                    {
                        union(parent, li, li + 1);
                    }
                    if (ly + 1 < side && lattice.edge(id, 1))
                    {
                        union(parent, li, li + side);
                    }
                    if (lz + 1 < b.sz && lattice.edge(id, 2))
                    {
                        union(parent, li, li + side * side);
                    }
                }
            }
        }
        final int[] compOf = new int[b.nodes];
        final int[] compOfRoot = new int[b.nodes];
        Arrays.fill(compOfRoot, -1);
        int components = 0;
        for (int li = 0; li < b.nodes; li++)
        {
            final int root = find(parent, li);
            if (compOfRoot[root] < 0)
            {
                compOfRoot[root] = components++;
            }
            compOf[li] = compOfRoot[root];
            b.segment.putInt(b.compBase + 4 * li, compOf[li]);
        }
        for (int c = 0; c < components; c++)
        {
            b.segment.putLong(8 * c, self(b.me, c));
        }
        b.compOf = compOf;
        b.localComponents = components;
    }

    /**
     * 2. boundary: edges leaving the block, and the components of their far ends (gets from the owners).
     */
    private static void boundary(final SplitC sc, final Block b)
    {
        final Lattice lattice = b.lattice;
        final int side = b.side;
        final EdgeList boundary = new EdgeList();
        for (int lz = 0; lz < b.sz; lz++)
        {
            for (int ly = 0; ly < side; ly++)
            {
                for (int lx = 0; lx < side; lx++)
                {
                    if (lx != 0 && lx != side - 1 && ly != 0 && ly != side - 1 &&
                        (b.sz == 1 || (lz != 0 && lz != side - 1)))
                    {
                        continue;
                    }
                    final int li = lx + side * (ly + side * lz);
                    final long id = b.origin + lx + lattice.size(0) * (ly + lattice.size(1) * lz);
                    for (int d = 0; d < lattice.dim(); d++)
                    {
                        final int local = d == 0 ? lx : d == 1 ? ly : lz;
                        final long coordinate = lattice.coordinate(id, d);
                        if (local == side - 1 && coordinate + 1 < lattice.size(d) && lattice.edge(id, d))
                        {
                            boundary.add(lattice, b.compOf[li], id + lattice.stride(d));
                        }
                        if (local == 0 && coordinate > 0 && lattice.edge(id - lattice.stride(d), d))
                        {
                            boundary.add(lattice, b.compOf[li], id - lattice.stride(d));
                        }
                    }
                }
            }
        }
        final int edges = boundary.size;
        final int[] edgeRank = boundary.rank;
        final int[] edgeLocal = boundary.local;
        final int[] remoteComp = new int[edges];
        for (int k = 0; k < edges; k++)
        {
            sc.getInt(GlobalPtr.of(edgeRank[k], b.compBase + 4 * edgeLocal[k]), remoteComp, k);
        }
        sc.sync();
        final long[] targetOfEdge = new long[edges];
        for (int k = 0; k < edges; k++)
        {
            targetOfEdge[k] = self(edgeRank[k], remoteComp[k]);
        }
        final long[] targets = Arrays.stream(targetOfEdge).sorted().distinct().toArray();
        final int[] edgeTarget = new int[edges];
        for (int k = 0; k < edges; k++)
        {
            edgeTarget[k] = Arrays.binarySearch(targets, targetOfEdge[k]);
        }
        b.edges = edges;
        b.edgeComp = boundary.comp;
        b.edgeTarget = edgeTarget;
        b.targets = targets;
        b.boundaryComps = Arrays.stream(Arrays.copyOf(boundary.comp, edges)).sorted().distinct().toArray();
    }

    /**
     * 3. global: label propagation with pointer jumping until no label changes.
     *
     * @return the iterations.
     */
    private static int global(final SplitC sc, final Block b, final PhaseClock clock)
    {
        final long[] targetLabel = new long[b.targets.length];
        final long[] jumpLabel = new long[b.boundaryComps.length];
        final int[] jumping = new int[b.boundaryComps.length];
        int iterations = 0;
        long changedTotal;
        do
        {
            iterations++;
            changedTotal = sc.allReduceSum(propagate(sc, b, targetLabel, jumpLabel, jumping));
            clock.iteration(String.format(Locale.ROOT, "iteration %d: %d labels lowered", iterations, changedTotal),
                changedTotal == 0);
        }
        while (changedTotal != 0);
        return iterations;
    }

    /**
     * One iteration of the global phase on this rank.
     *
     * @return the labels it lowered.
     */
    private static long propagate(final SplitC sc, final Block b, final long[] targetLabel, final long[] jumpLabel,
        final int[] jumping)
    {
        final AtomicBuffer segment = b.segment;
        final long[] targets = b.targets;
        for (int u = 0; u < targets.length; u++)
        {
            sc.getLong(GlobalPtr.of(ownerOf(targets[u]), 8 * componentOf(targets[u])), targetLabel, u);
        }
        int jumps = 0;
        for (final int c : b.boundaryComps)
        {
            final long label = segment.getLong(8 * c);
            if (ownerOf(label) != b.me)
            {
                sc.getLong(GlobalPtr.of(ownerOf(label), 8 * componentOf(label)), jumpLabel, jumps);
                jumping[jumps++] = c;
            }
        }
        sc.sync();
        long changed = 0;
        for (int k = 0; k < b.edges; k++)
        {
            changed += lower(segment, b.edgeComp[k], targetLabel[b.edgeTarget[k]]);
        }
        for (int j = 0; j < jumps; j++)
        {
            changed += lower(segment, jumping[j], jumpLabel[j]);
        }
        for (final int c : b.boundaryComps)
        {
            // chase labels that name components of this rank
            long label = segment.getLong(8 * c);
            while (ownerOf(label) == b.me && componentOf(label) != c)
            {
                final long next = segment.getLong(8 * componentOf(label));
                if (next >= label)
                {
                    break;
                }
                segment.putLong(8 * c, next);
                label = next;
                changed++;
            }
        }
        return changed;
    }

    /**
     * Verification against the sequential union-find (a collective).
     *
     * @return the verification's facts, with "verified" (Boolean) among them.
     */
    private static Map<String, Object> verify(final SplitC sc, final Block b)
    {
        final AtomicBuffer segment = b.segment;
        long roots = 0;
        for (int c = 0; c < b.localComponents; c++)
        {
            roots += segment.getLong(8 * c) == self(b.me, c) ? 1 : 0;
        }
        roots = sc.allReduceSum(roots);
        final SequentialCon sequential = new SequentialCon(b.lattice);
        long mismatches = 0;
        final long[] seqOfComp = new long[b.localComponents];
        Arrays.fill(seqOfComp, -1);
        for (int li = 0; li < b.nodes; li++)
        {
            final long label = sequential.label(b.lattice.globalId(b.me, li));
            final int c = b.compOf[li];
            if (seqOfComp[c] < 0)
            {
                seqOfComp[c] = label;
                segment.putLong(b.seqBase + 8 * c, label);
            }
            else if (seqOfComp[c] != label)
            {
                mismatches++;
            }
        }
        sc.barrier();
        final long[] fetched = new long[b.localComponents];
        for (int c = 0; c < b.localComponents; c++)
        {
            final long label = segment.getLong(8 * c);
            sc.getLong(GlobalPtr.of(ownerOf(label), b.seqBase + 8 * componentOf(label)), fetched, c);
        }
        sc.sync();
        for (int c = 0; c < b.localComponents; c++)
        {
            mismatches += fetched[c] == seqOfComp[c] ? 0 : 1;
        }
        mismatches = sc.allReduceSum(mismatches);
        final Map<String, Object> verification = new LinkedHashMap<>();
        verification.put("verified", mismatches == 0 && roots == sequential.components());
        verification.put("components", roots);
        verification.put("components_sequential", (long)sequential.components());
        verification.put("label_mismatches", mismatches);
        verification.put("largest_component", (long)sequential.largestComponent());
        return verification;
    }

    /**
     * @return 1 when the label of component c was lowered to {@code label}, else 0.
     */
    private static int lower(final AtomicBuffer segment, final int c, final long label)
    {
        if (label < segment.getLong(8 * c))
        {
            segment.putLong(8 * c, label);
            return 1;
        }
        return 0;
    }

    /** Edges leaving a rank's block: the local component of the inner end, the owner and index of the outer end. */
    private static final class EdgeList
    {
        int size;
        int[] comp = new int[1024];
        int[] rank = new int[1024];
        int[] local = new int[1024];

        void add(final Lattice lattice, final int component, final long neighbour)
        {
            if (size == comp.length)
            {
                comp = Arrays.copyOf(comp, 2 * size);
                rank = Arrays.copyOf(rank, 2 * size);
                local = Arrays.copyOf(local, 2 * size);
            }
            comp[size] = component;
            rank[size] = lattice.rankOf(neighbour);
            local[size] = lattice.localIndex(neighbour);
            size++;
        }
    }

    private static int find(final int[] parent, final int x)
    {
        int i = x;
        while (parent[i] != i)
        {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(final int[] parent, final int a, final int b)
    {
        final int ra = find(parent, a);
        final int rb = find(parent, b);
        if (ra != rb)
        {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }
}
