package org.am2j.splitc.app;

import java.util.Locale;
import java.util.Map;

/**
 * The words the printed report of a run gives its facts in, for a reader of the paper rather than of the JSON: each
 * JSON field (whose name stays as documented) has a phrase with a {@code %s} where its value goes, e.g.
 * {@code ghosts_per_half_step_max} prints as "100 ghost nodes per half step (most on one rank)". A field without a
 * phrase prints as its name with spaces, then its value.
 */
final class ReportWords
{
    private static final Map<String, String> PHRASES = Map.ofEntries(
        // every application
        Map.entry("verified", "verified %s"),
        Map.entry("iterations", "%s iterations"),
        // 3D FFT
        Map.entry("points", "%s points"),
        Map.entry("slab_bytes_per_rank", "%s bytes of the array per rank"),
        Map.entry("sampled_frequencies", "%s frequencies sampled"),
        Map.entry("max_error_vs_direct_dft", "largest error against a direct DFT %s"),
        Map.entry("bound", "allowed %s"),
        Map.entry("bound_fft", "the FFT's rounding bound %s"),
        Map.entry("bound_direct_dft", "the direct DFT's %s"),
        Map.entry("max_diff_vs_sequential_fft", "largest difference from the sequential FFT %s"),
        Map.entry("bound_vs_sequential_fft", "allowed %s"),
        // CON
        Map.entry("components", "%s connected components"),
        Map.entry("components_sequential", "%s in the sequential run"),
        Map.entry("label_mismatches", "%s nodes labelled otherwise than in the sequential run"),
        Map.entry("largest_component", "largest component %s nodes"),
        Map.entry("lattice", "lattice %s"),
        Map.entry("nodes_per_rank", "%s lattice nodes per rank"),
        Map.entry("local_components_max", "%s local components (most on one rank)"),
        Map.entry("boundary_edges_max", "%s edges leaving the rank's block (most on one rank)"),
        Map.entry("remote_targets_max", "%s remote components read (most on one rank)"),
        // EM3D
        Map.entry("values_compared", "%s values compared with the sequential run's"),
        Map.entry("bitwise_mismatches", "%s not bitwise equal"),
        Map.entry("checksum", "checksum %s"),
        Map.entry("layout", "layout %s"),
        Map.entry("ghosts_per_half_step_max", "%s ghost nodes per half step (most on one rank)"),
        Map.entry("communication_s_min", "communication %s s on the fastest rank"),
        Map.entry("communication_s_max", "%s s on the slowest"),
        // what the ranks did besides the application (each the largest over the ranks)
        Map.entry("warmup_runs", "%s warm-up runs before it"),
        Map.entry("timed_run", "timed run %s"),
        Map.entry("run_ms_max", "run %s ms"),
        Map.entry("jit_ms_max", "JIT compiling %s ms"),
        Map.entry("jit_quiet", "JIT quiet %s"),
        Map.entry("jit_cpu_ms_max", "compiler threads' CPU %s ms"),
        Map.entry("other_threads_cpu_ms_max", "other threads' CPU (collector, NIC keeper) %s ms"),
        Map.entry("jit_settle_ms_max", "waiting for the compilers before the run %s ms"),
        Map.entry("sleeps_max", "%s sleeps in waitSema"),
        Map.entry("sleep_timeouts_max", "%s of them to the end of their slice"));

    private ReportWords()
    {
    }

    /**
     * @param values facts by JSON field name, in order.
     * @return them in words, comma-separated.
     */
    static String describe(final Map<String, Object> values)
    {
        final StringBuilder text = new StringBuilder();
        values.forEach((name, value) -> text.append(text.length() == 0 ? "" : ", ").append(phrase(name, value)));
        return text.toString();
    }

    /**
     * @param name  a JSON field name.
     * @param value its value.
     * @return the value in the field's phrase.
     */
    static String phrase(final String name, final Object value)
    {
        final String formatted = value instanceof Double ? format((Double)value) : String.valueOf(value);
        final String phrase = PHRASES.get(name);
        return null == phrase ? name.replace('_', ' ') + " " + formatted : String.format(Locale.ROOT, phrase, formatted);
    }

    private static String format(final double d)
    {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.format(Locale.ROOT, "%.0f", d) :
            Math.abs(d) >= 1e-3 && Math.abs(d) < 1e6 ? String.format(Locale.ROOT, "%.4f", d) :
            String.format(Locale.ROOT, "%.3e", d);
    }
}
