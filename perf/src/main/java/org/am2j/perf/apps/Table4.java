package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.am2j.perf.apps.PaperTable4.Group;
import org.am2j.perf.apps.PaperTable4.Quantity;

/**
 * One run's messages per rank beside the paper's Table 4 ({@link PaperTable4}): every figure of the row, ours and
 * the paper's, the paper's counts scaled to the iterations run where a count means "per iteration" (EM3D), which
 * figures differ by more than {@value #TOLERANCE_PERCENT} %, and the check of the run's % local where the paper's is
 * a target (3D FFT exactly {@value #FFT_PERCENT_LOCAL}, each EM3D layout within {@value #EM3D_POINTS} points).
 *
 * @param label      the run's label.
 * @param paper      the paper's row.
 * @param iterations EM3D's iterations run, 0 for other runs.
 * @param scale      the factor applied to the paper's counts: iterations / {@value PaperTable4#EM3D_ITERATIONS} for
 *                   EM3D, else 1.
 * @param figures    ours and the paper's, in {@link Quantity} order.
 * @param check      the % local target and whether it is met; {@code null} when the run has none.
 */
record Table4(String label, PaperTable4.Row paper, long iterations, double scale, List<Table4.Figure> figures,
    Table4.Check check)
{
    /** A figure that differs from the paper's by more than this many percent of the paper's is flagged. */
    static final double TOLERANCE_PERCENT = 10.0;
    /** 3D FFT's % local on 32 ranks over 4 nodes: 7 of every rank's 31 peers are on its node. */
    static final double FFT_PERCENT_LOCAL = 22.6;
    /** Each EM3D layout's % local must be within this many points of the paper's. */
    static final double EM3D_POINTS = 5.0;

    /**
     * One figure of the row.
     *
     * @param quantity which one.
     * @param ours     ours.
     * @param paper    the paper's as printed.
     * @param scale    the factor for the paper's, when the quantity is a count.
     */
    record Figure(Quantity quantity, double ours, double paper, double scale)
    {
        /**
         * @return the paper's figure scaled to our iterations when it is a count, else as printed.
         */
        double paperScaled()
        {
            return quantity.scalesWithIterations() ? paper * scale : paper;
        }

        /**
         * @return true when ours differs from the (scaled) paper's by more than {@link #TOLERANCE_PERCENT} % of it;
         * against a paper's 0, when ours is a message or more.
         */
        boolean flagged()
        {
            return differs(ours, paperScaled());
        }

        /**
         * @return ours against the paper's (scaled) in percent of it, e.g. {@code +25 %}; {@code new} when the paper's
         * is 0.
         */
        String difference()
        {
            final double paperValue = paperScaled();
            if (paperValue == 0)
            {
                return ours == 0 ? "0 %" : "new";
            }
            return String.format(Locale.ROOT, "%+.0f %%", 100 * (ours - paperValue) / paperValue);
        }
    }

    /**
     * The check of a run's % local against the paper's target.
     *
     * @param target what is required, in words.
     * @param met    whether ours meets it.
     */
    record Check(String target, boolean met)
    {
    }

    /**
     * @param label   the run's label.
     * @param paper   the paper's row.
     * @param iterations EM3D's iterations, 0 for other runs.
     * @param scale   factor of the paper's counts.
     * @param figures ours and the paper's.
     * @param check   the % local check, or {@code null}.
     */
    Table4
    {
        figures = Collections.unmodifiableList(new ArrayList<>(figures));
    }

    /**
     * @param run a run's numbers from a clump job's report.
     * @return the run beside the paper's row, or {@code null} when Table 4 has no such run.
     */
    static Table4 of(final AppRun run)
    {
        final PaperTable4.Row paper = PaperTable4.row(run.label());
        if (null == paper)
        {
            return null;
        }
        final boolean em3d = PaperTable4.isEm3d(run.label());
        final long iterations = em3d ? run.parameter("iterations", PaperTable4.EM3D_ITERATIONS) : 0;
        final double scale = em3d ? (double)iterations / PaperTable4.EM3D_ITERATIONS : 1.0;
        final List<Figure> figures = new ArrayList<>();
        for (final Quantity quantity : Quantity.values())
        {
            figures.add(new Figure(quantity, ours(run, quantity), paper.figure(quantity), scale));
        }
        return new Table4(run.label(), paper, iterations, scale, figures, check(paper.run(), run.percentLocal()));
    }

    /**
     * @param run      a run's numbers.
     * @param quantity a figure of Table 4.
     * @return ours: the report's mean, min or max per rank, the mean bulk size, or the % local.
     */
    static double ours(final AppRun run, final Quantity quantity)
    {
        // the report's field is the group's name: network_short, network_bulk, local_short, local_bulk
        final String field = quantity.group().name().toLowerCase(Locale.ROOT);
        return switch (quantity.statistic())
        {
            case "min" -> run.min(field);
            case "max" -> run.max(field);
            case "size" -> run.meanBulkSize(field);
            case "" -> run.percentLocal();
            default -> run.mean(field);
        };
    }

    /**
     * @param ours  our figure.
     * @param paper the paper's.
     * @return true when they differ by more than {@link #TOLERANCE_PERCENT} % of the paper's; against 0, when ours
     * is half a message or more (a mean over the ranks).
     */
    static boolean differs(final double ours, final double paper)
    {
        if (paper == 0)
        {
            return Math.abs(ours) >= 0.5;
        }
        return Math.abs(ours - paper) > TOLERANCE_PERCENT / 100 * Math.abs(paper);
    }

    /**
     * @param paperRun      the paper's run label.
     * @param percentLocal  ours.
     * @return the check of the run's % local, {@code null} when the paper's is no target: 3D FFT's must print as
     * {@value #FFT_PERCENT_LOCAL} (one decimal), each EM3D layout's be within {@value #EM3D_POINTS} points of the
     * paper's.
     */
    static Check check(final String paperRun, final double percentLocal)
    {
        if ("3D FFT".equals(paperRun))
        {
            final String ours = String.format(Locale.ROOT, "%.1f", percentLocal);
            return new Check("= " + FFT_PERCENT_LOCAL, ours.equals(Double.toString(FFT_PERCENT_LOCAL)));
        }
        final PaperTable4.Row row = PaperTable4.row(paperRun);
        if (null != row && PaperTable4.isEm3d(paperRun))
        {
            final double paper = row.figure(Quantity.PERCENT_LOCAL);
            return new Check(String.format(Locale.ROOT, "%.1f +- %.0f", paper, EM3D_POINTS),
                Math.abs(percentLocal - paper) <= EM3D_POINTS);
        }
        return null;
    }

    /**
     * @param group a column group.
     * @return the figures of that group that differ from the paper's by more than the tolerance, in order.
     */
    List<Figure> flagged(final Group group)
    {
        return figures.stream().filter(figure -> figure.quantity().group() == group && figure.flagged()).toList();
    }

    /**
     * @param quantity a figure of the row.
     * @return it.
     */
    Figure figure(final Quantity quantity)
    {
        return figures.get(quantity.ordinal());
    }
}
