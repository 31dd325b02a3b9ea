package org.am2j.perf;

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
     * Append one row of a table: {@code | a | b | c |} and a line end.
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
            md.append(' ').append(cell).append(" |");
        }
        return md.append('\n');
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
