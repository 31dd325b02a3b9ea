package org.am2j.perf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One measurement a rank program of {@link Scale} prints: {@code scale.KIND key=value key=value ...} on standard
 * output, which the launcher prefixes with {@code [rank] }. Values are numbers or words without spaces.
 */
final class ScaleLine
{
    /** What every measurement line starts with, after the launcher's prefix. */
    static final String PREFIX = "scale.";

    private final String kind;
    private final Map<String, String> values;

    ScaleLine(final String kind, final Map<String, String> values)
    {
        this.kind = kind;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * @param kind  what was measured, e.g. {@code hello}.
     * @param pairs names and values, alternating.
     * @return the line a rank prints.
     */
    static String format(final String kind, final Object... pairs)
    {
        if (0 != pairs.length % 2)
        {
            throw new IllegalArgumentException("names and values must come in pairs");
        }
        final StringBuilder line = new StringBuilder(PREFIX).append(kind);
        for (int i = 0; i < pairs.length; i += 2)
        {
            final String value = String.valueOf(pairs[i + 1]);
            if (value.isEmpty() || value.chars().anyMatch(Character::isWhitespace))
            {
                throw new IllegalArgumentException("value of " + pairs[i] + " must be one word: '" + value + "'");
            }
            line.append(' ').append(pairs[i]).append('=').append(value);
        }
        return line.toString();
    }

    /**
     * @param output what a job printed, each line possibly prefixed by {@code [rank] }.
     * @param kind   the kind of the lines wanted.
     * @return its measurement lines of that kind, in order.
     * @throws IllegalArgumentException for a measurement line that is malformed.
     */
    static List<ScaleLine> parseAll(final String output, final String kind)
    {
        final List<ScaleLine> lines = new ArrayList<>();
        for (final String text : output.split("\\R"))
        {
            final ScaleLine line = parse(text);
            if (null != line && line.kind.equals(kind))
            {
                lines.add(line);
            }
        }
        return lines;
    }

    /**
     * @param text a line of output.
     * @return its measurement, or {@code null} when it is not a measurement line.
     * @throws IllegalArgumentException when it starts like one but a field is not {@code key=value}.
     */
    static ScaleLine parse(final String text)
    {
        String rest = text.strip();
        if (rest.startsWith("["))
        {
            final int close = rest.indexOf("] ");
            if (close < 0)
            {
                return null;
            }
            rest = rest.substring(close + 2).strip();
        }
        if (!rest.startsWith(PREFIX))
        {
            return null;
        }
        final String[] fields = rest.substring(PREFIX.length()).split("\\s+");
        final Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < fields.length; i++)
        {
            final int eq = fields[i].indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException("not key=value: '" + fields[i] + "' in '" + text + "'");
            }
            values.put(fields[i].substring(0, eq), fields[i].substring(eq + 1));
        }
        return new ScaleLine(fields[0], values);
    }

    String kind()
    {
        return kind;
    }

    String text(final String key)
    {
        final String value = values.get(key);
        if (null == value)
        {
            throw new IllegalArgumentException("scale." + kind + " line without " + key + ": " + values);
        }
        return value;
    }

    long longValue(final String key)
    {
        try
        {
            return Long.parseLong(text(key));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("scale." + kind + " " + key + " is not a whole number: " + text(key),
                ex);
        }
    }

    double doubleValue(final String key)
    {
        try
        {
            return Double.parseDouble(text(key));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("scale." + kind + " " + key + " is not a number: " + text(key), ex);
        }
    }

    @Override
    public String toString()
    {
        return PREFIX + kind + " " + values;
    }
}
