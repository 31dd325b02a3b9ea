package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.am2j.perf.Markdown;

/**
 * The shape of the paper's Table 6: each run's time on the Clump against the NOW of 32, ours ({@link
 * MatrixConfig#CLUMP32} and {@link MatrixConfig#CLUMP32_3NIC} against {@link MatrixConfig#NOW32}) beside the paper's,
 * each Clump named with its NICs, per run and per application. Only the ratios compare: the machines differ.
 */
final class Table6Report
{
    private static final List<MatrixConfig> CLUMPS = List.of(MatrixConfig.CLUMP32, MatrixConfig.CLUMP32_3NIC);

    private Table6Report()
    {
    }

    /**
     * Append the section when the matrix ran a configuration of Table 6's scale.
     *
     * @param md     the Markdown text.
     * @param result the matrix.
     */
    static void markdown(final StringBuilder md, final MatrixResult result)
    {
        final List<MatrixConfig> clumps = clumps(result);
        final boolean now = result.configs().contains(MatrixConfig.NOW32);
        if (clumps.isEmpty() && !now)
        {
            return;
        }
        md.append("## Table 6's shape: the Clump against the NOW of 32\n\n");
        if (clumps.isEmpty() || !now)
        {
            md.append("Not computed: it needs `now32` and `clump32` or `clump-3nic` (`--configs`).\n\n");
            return;
        }
        md.append("Median totals, seconds, poll `").append(result.polls().get(0)).append("`; the ratio of each " +
            "Clump to the NOW beside the paper's (Table 6: 4 8-way SMPs with 3 NICs each, against 32 " +
            "workstations). The Clumps here: ");
        final List<String> named = new ArrayList<>();
        for (final MatrixConfig clump : clumps)
        {
            named.add("`" + clump.cliName() + "` with " + clump.nics());
        }
        md.append(String.join("; ", named)).append(". The NOW: `now32`, ").append(MatrixConfig.NOW32.nics())
            .append(".\n\n");
        final List<Object> head = new ArrayList<>(List.of("run"));
        clumps.forEach(clump -> head.add(clump.cliName()));
        head.add("now32");
        clumps.forEach(clump -> head.add(clump.cliName() + " / now32"));
        head.addAll(List.of("paper: Clump / NOW", "paper: Clump", "paper: NOW"));
        Markdown.head(md, head);
        for (final String label : result.labels())
        {
            final List<Object> row = new ArrayList<>(List.of(label));
            clumps.forEach(clump -> row.add(MatrixReport.seconds(result.cell(clump, label).medianTotal())));
            row.add(MatrixReport.seconds(result.cell(MatrixConfig.NOW32, label).medianTotal()));
            clumps.forEach(clump ->
                row.add(MatrixReport.ratio(MatrixRatios.configRatio(result, clump, MatrixConfig.NOW32, label))));
            final Map<PaperFigures.Column, String> paper = PaperFigures.figures(label);
            row.add(MatrixReport.ratio(MatrixRatios.paperRatio(label, PaperFigures.Column.CLUMP32,
                PaperFigures.Column.NOW32)));
            row.add(paper.getOrDefault(PaperFigures.Column.CLUMP32, ""));
            row.add(paper.getOrDefault(PaperFigures.Column.NOW32, ""));
            Markdown.row(md, row.toArray());
        }
        md.append('\n');
        for (final MatrixConfig clump : clumps)
        {
            final List<String> parts = new ArrayList<>();
            MatrixRatios.perApplication(result, result.polls().get(0), clump, MatrixConfig.NOW32).forEach((app, r) ->
                parts.add(app + " " + MatrixReport.ratio(r) + " (paper " +
                    MatrixReport.ratio(paperRatio(result.labels(), app)) + ")"));
            md.append("Per application (the sum of its runs' median totals), ").append(clump.cliName())
                .append(" / now32: ").append(parts.isEmpty() ? "no application with both times" :
                String.join(", ", parts)).append(".\n\n");
        }
    }

    /**
     * @param result the matrix.
     * @return its Clumps of Table 6's scale, in order.
     */
    static List<MatrixConfig> clumps(final MatrixResult result)
    {
        return CLUMPS.stream().filter(result.configs()::contains).toList();
    }

    /**
     * @param labels the matrix's runs.
     * @param app    an application.
     * @return the paper's Table 6 ratio for the application: the sum of its runs' Clump times over their NOW times.
     */
    static double paperRatio(final List<String> labels, final String app)
    {
        double clump = 0;
        double now = 0;
        for (final String label : labels)
        {
            if (MatrixRatios.application(label).equals(app))
            {
                clump += PaperFigures.seconds(label, PaperFigures.Column.CLUMP32);
                now += PaperFigures.seconds(label, PaperFigures.Column.NOW32);
            }
        }
        return Stats.ratio(clump, now);
    }
}
