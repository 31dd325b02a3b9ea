package org.am2j.splitc.em3d;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.splitc.CommCounts;
import org.am2j.splitc.SplitC;
import org.am2j.splitc.app.PhaseClock;
import org.am2j.splitc.app.RunReport;
import org.am2j.splitc.app.RunSpec;
import org.am2j.splitc.app.SplitCApp;

/**
 * EM3D of the model paper: electromagnetic waves on an irregular bipartite graph of E and H nodes
 * ({@link Em3dGraph}), bulk synchronous, with fine-grained communication.
 * <p>
 * Each rank runs one virtual processor of the graph's grid, placed by a {@link Layout} ({@code naive} or
 * {@code good}). Its E and H values live in its segment (E at byte 0, H after the n E values). Every remote node a
 * rank's edges read has a ghost copy; each half step is: a barrier (the other kind's values are final everywhere),
 * one split-phase get per ghost, {@code sync()}, then the update of the local nodes from local values and ghosts.
 * The time of the first three is the communication phase, the update the computation phase; the report gives both
 * for the slowest rank and their range over the ranks (the balance rows of the paper's Table 6).
 * <p>
 * <b>Verification.</b> Every rank runs the whole graph sequentially ({@link Em3dGraph#sequential}) and compares its
 * own E and H values bit for bit.
 */
public final class Em3d implements SplitCApp
{
    /** Name on the command line. */
    public static final String NAME = "em3d";

    /**
     * Iterations of the {@code paper} presets. The paper does not give them; 47 give its 1.62 million short messages
     * per rank (Table 4, mean of network and local) on its 32 ranks: about 17,100 ghosts per rank and iteration, a
     * request and a reply each.
     */
    static final int PAPER_ITERATIONS = 47;

    private static final List<String> PARAMETERS = List.of("nodes", "degree", "remote", "layout", "iterations", "seed");

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
    public String optionOf(final String parameter)
    {
        return "nodes".equals(parameter) ? "graph-nodes" : parameter;
    }

    @Override
    public List<String> presets()
    {
        return List.of("paper", "paper-naive", "paper-good", "small");
    }

    @Override
    public List<RunSpec> preset(final String preset)
    {
        return switch (preset)
        {
            case "paper" -> List.of(spec("EM3D/naive", 2500, 20, "naive", PAPER_ITERATIONS),
                spec("EM3D/good", 2500, 20, "good", PAPER_ITERATIONS));
            case "paper-naive" -> List.of(spec("EM3D/naive", 2500, 20, "naive", PAPER_ITERATIONS));
            case "paper-good" -> List.of(spec("EM3D/good", 2500, 20, "good", PAPER_ITERATIONS));
            case "small" -> List.of(spec("EM3D/naive (small)", 200, 10, "naive", 10),
                spec("EM3D/good (small)", 200, 10, "good", 10));
            default -> List.of();
        };
    }

    private static RunSpec spec(final String label, final int nodes, final int degree, final String layout,
        final int iterations)
    {
        return RunSpec.of(NAME, label, PARAMETERS, nodes, degree, "0.40", layout, iterations, 1);
    }

    private static Em3dGraph graph(final RunSpec spec, final int procs)
    {
        return new Em3dGraph(procs, spec.getInt("nodes"), spec.getInt("degree"), spec.getDouble("remote"),
            spec.getLong("seed"));
    }

    @Override
    public void check(final RunSpec spec, final int procs, final int nodes)
    {
        final Em3dGraph graph = graph(spec, procs);
        Layout.of(spec.get("layout"), graph.grid(), nodes);
        if (spec.getInt("iterations") < 0)
        {
            throw new IllegalArgumentException("--iterations " + spec.getInt("iterations") + " must be 0 or more");
        }
        if (16L * spec.getInt("nodes") > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("--graph-nodes " + spec.getInt("nodes") + " is too large");
        }
    }

    @Override
    public int segmentBytes(final RunSpec spec, final int procs)
    {
        return 16 * spec.getInt("nodes");
    }

    @Override
    public RunReport run(final SplitC sc, final RunSpec spec, final PhaseClock clock)
    {
        final Em3dGraph graph = graph(spec, sc.procs());
        final Layout layout = Layout.of(spec.get("layout"), graph.grid(), sc.nodes());
        final int iterations = spec.getInt("iterations");
        final int vp = layout.vpOf(sc.myProc());
        final int n = graph.nodes();
        final int degree = graph.degree();
        final AtomicBuffer segment = sc.segment();

        sc.barrier();
        final CommCounts before = sc.counts().copy();
        final long start = System.nanoTime();
        clock.begin();
        final FieldUpdate[] updates = { new FieldUpdate(graph, layout, vp, Em3dGraph.E),
            new FieldUpdate(graph, layout, vp, Em3dGraph.H) };
        for (int kind = Em3dGraph.E; kind <= Em3dGraph.H; kind++)
        {
            for (int i = 0; i < n; i++)
            {
                segment.putDouble(kind * 8 * n + 8 * i, graph.initial(vp, kind, i));
            }
        }
        clock.end("setup");

        long communication = 0;
        long computation = 0;
        for (int it = 0; it < iterations; it++)
        {
            for (final FieldUpdate update : updates)
            {
                final long t0 = System.nanoTime();
                sc.barrier();
                for (int g = 0; g < update.ghostPointer.length; g++)
                {
                    sc.getDouble(update.ghostPointer[g], update.ghost, g);
                }
                sc.sync();
                final long t1 = System.nanoTime();
                compute(segment, update, n, degree);
                final long t2 = System.nanoTime();
                communication += t1 - t0;
                computation += t2 - t1;
            }
            clock.iteration(String.format(Locale.ROOT, "iteration %d of %d", it + 1, iterations), it + 1 == iterations);
        }
        clock.add("communication", communication);
        clock.add("computation", computation);
        sc.barrier();
        // the counts of the timed phases, before the reductions of the report add their own messages
        final CommCounts counts = sc.counts().minus(before);
        final double total = sc.allReduceMax((System.nanoTime() - start) / 1e9);
        final Map<String, Double> phases = clock.maxOverRanks(sc);
        final double communicationMin = sc.allReduceMin(communication / 1e9);

        clock.begin();
        final Map<String, Object> verification = verify(sc, graph, vp, iterations);
        clock.end("verification");

        final Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("layout", layout.toString());
        extra.put("iterations", (long)iterations);
        extra.put("ghosts_per_half_step_max", sc.allReduceMax((long)Math.max(updates[0].ghost.length,
            updates[1].ghost.length)));
        extra.put("communication_s_min", communicationMin);
        extra.put("communication_s_max", phases.get("communication"));
        return new RunReport(spec, phases, total, 0 == (Long)verification.get("bitwise_mismatches"), verification,
            sc.summarize(counts), extra);
    }

    /** The computation of a half step: each node of the update's kind less the weighted values of its sources. */
    private static void compute(final AtomicBuffer segment, final FieldUpdate update, final int n, final int degree)
    {
        final int mine = update.kind * 8 * n;
        final int other = (1 - update.kind) * 8 * n;
        for (int i = 0; i < n; i++)
        {
            double acc = 0.0;
            for (int j = 0; j < degree; j++)
            {
                final int e = i * degree + j;
                final int s = update.source[e];
                final double v = s < n ? segment.getDouble(other + 8 * s) : update.ghost[s - n];
                acc += update.coef[e] * v;
            }
            segment.putDouble(mine + 8 * i, segment.getDouble(mine + 8 * i) - acc);
        }
    }

    /**
     * Compare every value of this rank with the sequential run's, bit for bit (a collective).
     *
     * @return the verification's facts.
     */
    private static Map<String, Object> verify(final SplitC sc, final Em3dGraph graph, final int vp,
        final int iterations)
    {
        final AtomicBuffer segment = sc.segment();
        final int n = graph.nodes();
        final double[][][] expected = graph.sequential(iterations);
        long mismatches = 0;
        double checksum = 0;
        for (int kind = Em3dGraph.E; kind <= Em3dGraph.H; kind++)
        {
            for (int i = 0; i < n; i++)
            {
                final double value = segment.getDouble(kind * 8 * n + 8 * i);
                checksum += value;
                if (Double.doubleToRawLongBits(value) != Double.doubleToRawLongBits(expected[vp][kind][i]))
                {
                    mismatches++;
                }
            }
        }
        final Map<String, Object> verification = new LinkedHashMap<>();
        verification.put("values_compared", 2L * n * sc.procs());
        verification.put("bitwise_mismatches", sc.allReduceSum(mismatches));
        verification.put("checksum", sc.allReduceSum(checksum));
        return verification;
    }
}
