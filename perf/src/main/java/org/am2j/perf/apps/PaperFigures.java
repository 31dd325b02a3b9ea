package org.am2j.perf.apps;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The execution times (seconds) of the model paper's Tables 5 and 6 (Lumetta, Mainwaring, Culler, "Multi-Protocol
 * Active Messages on a Cluster of SMP's", SC'97), copied as printed. Table 5: one 8-way Sun Enterprise 5000 SMP
 * (shared memory only; multi-protocol) and a NOW of 8 UltraSPARC workstations on Myrinet (multi-protocol;
 * single-protocol Myrinet). Table 6: the Clump of four 8-way SMPs (32 processors) and a NOW of 32 processors.
 * Table 5 has a single EM3D row (on one SMP the two layouts are the same).
 */
final class PaperFigures
{
    /** A column of the paper's tables. */
    enum Column
    {
        /** Table 5, 8-way SMP, Shared Memory. */
        SMP_SHM("T5 8-way SMP, Shared Memory"),
        /** Table 5, 8-way SMP, Multi-Protocol. */
        SMP_MULTI("T5 8-way SMP, Multi-Protocol"),
        /** Table 5, NOW (8 processors), Multi-Protocol. */
        NOW8_MULTI("T5 NOW (8), Multi-Protocol"),
        /** Table 5, NOW (8 processors), Myrinet. */
        NOW8_MYRINET("T5 NOW (8), Myrinet"),
        /** Table 6, Clump (4 8-way SMP's). */
        CLUMP32("T6 Clump (4 8-way SMP's)"),
        /** Table 6, NOW (32 processors). */
        NOW32("T6 NOW (32)");

        private final String heading;

        Column(final String heading)
        {
            this.heading = heading;
        }

        /**
         * @return the column's heading in our tables.
         */
        String heading()
        {
            return heading;
        }
    }

    /** The runs of the tables, in their order, as the applications label them (without a preset suffix). */
    static final List<String> RUNS = List.of("3D FFT", "CON/comm", "CON/comp", "EM3D/naive", "EM3D/good");

    /** Table 5 as printed: run, then SMP shared memory, SMP multi-protocol, NOW multi-protocol, NOW Myrinet. */
    static final List<List<String>> TABLE_5 = List.of(
        List.of("3D FFT", "8.7", "9.0", "7.0", "6.76"),
        List.of("CON/comm", "1.96", "2.1", "4.01", "4.01"),
        List.of("CON/comp", "1.40", "1.44", "1.18", "1.19"),
        List.of("EM3D", "7.7", "8.6", "33.9", "33.8"));

    /** Table 6 as printed: run, then Clump (4 8-way SMP's), NOW (32 processors). */
    static final List<List<String>> TABLE_6 = List.of(
        List.of("3D FFT", "6.8", "2.2"),
        List.of("CON/comm", "15", "7.7"),
        List.of("CON/comp", "2.7", "1.3"),
        List.of("EM3D/naive", "54", "48"),
        List.of("EM3D/good", "38", "52"),
        List.of("EM3D/naive bal.", "28 to 52", "25 to 47"),
        List.of("EM3D/good bal.", "5.5 to 37", "28 to 51"));

    private PaperFigures()
    {
    }

    /**
     * @param label a run's label, e.g. {@code EM3D/good (small)}.
     * @return the label of the paper's run it is ({@code EM3D/good}): the label up to a parenthesised suffix.
     */
    static String paperRun(final String label)
    {
        final int paren = label.indexOf(" (");
        return paren < 0 ? label.trim() : label.substring(0, paren).trim();
    }

    /**
     * @param label a run's label (a preset suffix is ignored).
     * @return the paper's figures for it, as printed, by column; empty when the paper has no such run.
     */
    static Map<Column, String> figures(final String label)
    {
        final String run = paperRun(label);
        final Map<Column, String> figures = new LinkedHashMap<>();
        final String t5Run = run.startsWith("EM3D/") ? "EM3D" : run;
        for (final List<String> row : TABLE_5)
        {
            if (row.get(0).equals(t5Run))
            {
                figures.put(Column.SMP_SHM, row.get(1));
                figures.put(Column.SMP_MULTI, row.get(2));
                figures.put(Column.NOW8_MULTI, row.get(3));
                figures.put(Column.NOW8_MYRINET, row.get(4));
            }
        }
        for (final List<String> row : TABLE_6)
        {
            if (row.get(0).equals(run))
            {
                figures.put(Column.CLUMP32, row.get(1));
                figures.put(Column.NOW32, row.get(2));
            }
        }
        return figures;
    }

    /**
     * @param label a run's label.
     * @param column a column.
     * @return the paper's time, NaN when it has none.
     */
    static double seconds(final String label, final Column column)
    {
        final String figure = figures(label).get(column);
        return null == figure ? Double.NaN : Double.parseDouble(figure);
    }
}
