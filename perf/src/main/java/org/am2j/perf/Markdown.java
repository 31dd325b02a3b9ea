package org.am2j.perf;

import java.util.List;
import java.util.Locale;

/**
 * What the Markdown reports of the harness ({@code scale}, {@code apps-matrix}) share: table rows and numbers.
 */
public final class Markdown
{
    private Markdown()
    {
    }

    /**
     * Append one row of a table: {@code | a | b | c |} and a line end; an empty cell is {@code | |}.
     *
     * @param md    where.
     * @param cells the cells, each as {@link String#valueOf(Object)} writes it.
     * @return md.
     */
    public static StringBuilder row(final StringBuilder md, final Object... cells)
    {
        md.append('|');
        for (final Object cell : cells)
        {
            final String text = String.valueOf(cell);
            md.append(text.isEmpty() ? "" : " ").append(text).append(" |");
        }
        return md.append('\n');
    }

    /**
     * Append the heading row of a table and its rule: the first column aligned left, the others right.
     *
     * @param md       where.
     * @param headings the columns' headings.
     * @return md.
     */
    public static StringBuilder head(final StringBuilder md, final List<?> headings)
    {
        return row(md, headings.toArray()).append("|---|").append("---:|".repeat(headings.size() - 1)).append('\n');
    }

    /**
     * @param format a format of one number, e.g. {@code %.1f}.
     * @param value  the number.
     * @param nan    what to write for NaN.
     * @return the number so formatted, or {@code nan}.
     */
    public static String number(final String format, final double value, final String nan)
    {
        return Double.isNaN(value) ? nan : String.format(Locale.ROOT, format, value);
    }
}
