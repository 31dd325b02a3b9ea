package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.am2j.perf.Markdown;

import org.am2j.perf.apps.PaperTable4.Group;
import org.am2j.perf.apps.PaperTable4.Quantity;

/**
 * The matrix's Table 4 beside the paper's: for each run of the clump configuration at the paper's scale
 * ({@link #source}), the messages per rank of the run with the median total ({@link Table4}), a row of ours and a row
 * of the paper's, every figure that differs by more than {@value Table4#TOLERANCE_PERCENT} % marked with the number of
 * its explanation ({@link Table4Explanations}), listed under the table, and the check of % local.
 */
final class Table4Report
{
    private Table4Report()
    {
    }

    /**
     * @param result the matrix.
     * @return the configuration Table 4 is computed from: {@link MatrixConfig#CLUMP32}, else
     * {@link MatrixConfig#CLUMP32_3NIC} (the same ranks on the same nodes); {@code null} when the matrix has neither.
     */
    static MatrixConfig source(final MatrixResult result)
    {
        return Table6Report.clumps(result).stream().findFirst().orElse(null);
    }

    /**
     * Append the section.
     *
     * @param md     the Markdown text.
     * @param result the matrix.
     */
    static void markdown(final StringBuilder md, final MatrixResult result)
    {
        md.append("## Table 4: messages per rank on the Clump, beside the paper's\n\n");
        final MatrixConfig source = source(result);
        if (null == source)
        {
            md.append("Not computed: Table 4 is about 32 ranks on 4 nodes of 8, and the matrix ran neither `clump32`" +
                " nor `clump-3nic` (`--configs`).\n\n");
            return;
        }
        final List<Table4> rows = new ArrayList<>();
        final List<String> missing = new ArrayList<>();
        for (final String label : result.labels())
        {
            final AppRun run = result.cell(source, label).medianRun();
            final Table4 row = null == run ? null : Table4.of(run);
            if (null != row)
            {
                rows.add(row);
            }
            else if (null != PaperTable4.row(label))
            {
                missing.add(label);
            }
        }
        md.append(table(rows, result.preset(), source));
        if (!missing.isEmpty())
        {
            md.append("No verified run of ").append(String.join(", ", missing)).append(" in `")
                .append(source.cliName()).append("`: see Failures.\n\n");
        }
    }

    /**
     * @param rows   the runs beside the paper's.
     * @param preset the preset they ran.
     * @param source the configuration they ran in.
     * @return the table, the notes on how to read it, and the explanation of every flagged difference.
     */
    static String table(final List<Table4> rows, final String preset, final MatrixConfig source)
    {
        final StringBuilder md = new StringBuilder();
        md.append("From the JSON reports of `").append(source.cliName()).append("` (").append(source.description())
            .append("), preset `").append(preset).append("`: the run with the median total. Counts are of the " +
            "timed phases, per rank (requests and replies, each counted at its sender; barriers inside the phases " +
            "included). Short messages: mean, minimum and maximum over the ranks; bulk (data-carrying) messages: " +
            "mean count x mean size, as the paper prints them. A figure of ours marked [n] differs from the " +
            "paper's by more than ").append(fmt(Table4.TOLERANCE_PERCENT)).append(" %; explanation n follows the " +
            "table. Check: 3D FFT's % local must be ").append(Table4.FFT_PERCENT_LOCAL).append(" (7 of 31 peers " +
            "local), each EM3D layout's within ").append(fmt(Table4.EM3D_POINTS)).append(" points of the paper's.\n");
        for (final Table4 row : rows)
        {
            if (row.iterations() > 0 && row.iterations() != PaperTable4.EM3D_ITERATIONS)
            {
                md.append("\n").append(row.label()).append(" ran ").append(row.iterations()).append(" iterations: " +
                    "its counts are per those, and the paper's counts beside them are scaled by ")
                    .append(row.iterations()).append(" / ").append(PaperTable4.EM3D_ITERATIONS).append(" (the " +
                    "paper's per-rank counts are totals over its run, which the paper preset's ")
                    .append(PaperTable4.EM3D_ITERATIONS).append(" iterations reproduce; sizes and % local are not " +
                    "scaled).\n");
            }
        }
        md.append("\n| run | | network short: mean | min | max | network bulk | local short: mean | min | max | " +
            "local bulk | % local | check |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        final List<String> notes = new ArrayList<>();
        final List<String> explained = new ArrayList<>();
        for (final Table4 row : rows)
        {
            final String[] marks = new String[Group.values().length];
            for (final Group group : Group.values())
            {
                final List<Table4.Figure> flagged = row.flagged(group);
                if (!flagged.isEmpty())
                {
                    final String why = Table4Explanations.explain(preset, row.paper().run(), group);
                    final int same = explained.indexOf(why);
                    notes.add(note(row, group, flagged) + (same < 0 ? why : "As " + (same + 1) + "."));
                    explained.add(why);
                    marks[group.ordinal()] = " [" + notes.size() + "]";
                }
            }
            final List<Object> ours = new ArrayList<>(List.of(row.label(), "ours"));
            final List<Object> paper = new ArrayList<>(List.of("", "paper" + (row.scale() == 1.0 ? "" :
                String.format(Locale.ROOT, " x %d/%d", row.iterations(), PaperTable4.EM3D_ITERATIONS))));
            for (final Quantity quantity : Quantity.values())
            {
                final Table4.Figure figure = row.figure(quantity);
                if (Quantity.NETWORK_BULK == quantity || Quantity.LOCAL_BULK == quantity)
                {
                    final Table4.Figure size = row.figure(Quantity.values()[quantity.ordinal() + 1]);
                    ours.add(bulk(figure.ours(), size.ours()) + mark(row, quantity.group(), marks));
                    paper.add(bulk(figure.paperScaled(), size.paper()));
                }
                else if (Quantity.PERCENT_LOCAL == quantity)
                {
                    ours.add(String.format(Locale.ROOT, "%.1f", figure.ours()) + mark(row, quantity.group(), marks));
                    paper.add(String.format(Locale.ROOT, "%.1f", figure.paper()));
                }
                else if (!quantity.name().endsWith("_SIZE"))
                {
                    ours.add(ours(row, quantity, marks));
                    paper.add(count(figure.paperScaled()));
                }
            }
            ours.add(null == row.check() ? "" : (row.check().met() ? "yes (" : "**no** (") + row.check().target() +
                ")");
            paper.add("");
            Markdown.row(md, ours.toArray());
            Markdown.row(md, paper.toArray());
        }
        md.append('\n');
        if (notes.isEmpty())
        {
            md.append("Every figure is within ").append(fmt(Table4.TOLERANCE_PERCENT)).append(" % of the paper's.\n\n");
        }
        else
        {
            md.append("Differences over ").append(fmt(Table4.TOLERANCE_PERCENT)).append(" %:\n\n");
            for (int i = 0; i < notes.size(); i++)
            {
                md.append(i + 1).append(". ").append(notes.get(i)).append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * @return the flagged figures of a group, ours against the paper's, up to where the explanation goes.
     */
    private static String note(final Table4 row, final Group group, final List<Table4.Figure> flagged)
    {
        final StringBuilder text = new StringBuilder("**").append(row.label()).append(", ").append(group.heading())
            .append("**: ");
        for (int i = 0; i < flagged.size(); i++)
        {
            final Table4.Figure figure = flagged.get(i);
            text.append(i > 0 ? "; " : "").append(figure.quantity().statistic().isEmpty() ? "" :
                figure.quantity().statistic() + " ").append("ours ").append(figure(figure.quantity(), figure.ours()))
                .append(", paper ").append(figure(figure.quantity(), figure.paperScaled())).append(" (")
                .append(figure.difference()).append(')');
        }
        return text.append(". ").toString();
    }

    private static String ours(final Table4 row, final Quantity quantity, final String[] marks)
    {
        final Table4.Figure figure = row.figure(quantity);
        return count(figure.ours()) + (figure.flagged() ? marks[quantity.group().ordinal()] : "");
    }

    private static String mark(final Table4 row, final Group group, final String[] marks)
    {
        return row.flagged(group).isEmpty() ? "" : marks[group.ordinal()];
    }

    private static String figure(final Quantity quantity, final double value)
    {
        return switch (quantity)
        {
            case PERCENT_LOCAL -> String.format(Locale.ROOT, "%.1f %%", value);
            case NETWORK_BULK_SIZE, LOCAL_BULK_SIZE -> String.format(Locale.ROOT, "%.0f B", value);
            default -> count(value);
        };
    }

    /**
     * @param messages mean bulk messages per rank.
     * @param size     their mean size, bytes.
     * @return {@code none}, or e.g. {@code 3,072 x 4096 B}.
     */
    static String bulk(final double messages, final double size)
    {
        return messages < 0.05 ? "none" : count(messages) + String.format(Locale.ROOT, " x %.0f B", size);
    }

    /**
     * @param mean a count per rank.
     * @return it with thousands separators, one decimal when not whole.
     */
    static String count(final double mean)
    {
        return Math.abs(mean - Math.rint(mean)) < 0.05 ? String.format(Locale.ROOT, "%,.0f", mean) :
            String.format(Locale.ROOT, "%,.1f", mean);
    }

    private static String fmt(final double value)
    {
        return String.format(Locale.ROOT, "%.0f", value);
    }
}
