package org.am2j.perf;

import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One measurement a rank program of {@link Scale} prints: {@code scale.KIND} and a JSON object of its values on one
 * line of standard output, which the launcher prefixes with {@code [rank] }.
 *
 * @param kind   what was measured, e.g. {@code hello}.
 * @param values the values by name.
 */
record ScaleLine(String kind, JsonNode values)
{
    /** What every measurement line starts with, after the launcher's prefix. */
    static final String PREFIX = "scale.";
    /** Writes and reads a line's object (on one line: no pretty printer). */
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param kind  what was measured, e.g. {@code hello}.
     * @param pairs names and values, alternating: numbers stay numbers, anything else is written as text.
     * @return the line a rank prints.
     */
    static String format(final String kind, final Object... pairs)
    {
        if (0 != pairs.length % 2)
        {
            throw new IllegalArgumentException("names and values must come in pairs");
        }
        final ObjectNode values = JSON.createObjectNode();
        for (int i = 0; i < pairs.length; i += 2)
        {
            values.set(pairs[i].toString(), pairs[i + 1] instanceof Number ? JSON.valueToTree(pairs[i + 1]) :
                values.textNode(String.valueOf(pairs[i + 1])));
        }
        return PREFIX + kind + " " + values;
    }

    /**
     * @param output what a job printed, each line possibly prefixed by {@code [rank] }.
     * @param kind   the kind of the lines wanted.
     * @return its measurement lines of that kind, in order.
     * @throws IllegalArgumentException for a measurement line that is malformed.
     */
    static List<ScaleLine> parseAll(final String output, final String kind)
    {
        return output.lines().map(ScaleLine::parse).filter(line -> null != line && line.kind.equals(kind)).toList();
    }

    /**
     * @param text a line of output.
     * @return its measurement, or {@code null} when it is not a measurement line.
     * @throws IllegalArgumentException when it starts like one but holds no JSON object.
     */
    static ScaleLine parse(final String text)
    {
        final String rest = text.strip().replaceFirst("^\\[[^\\]]*\\] ", "").strip();
        if (!rest.startsWith(PREFIX))
        {
            return null;
        }
        final int space = rest.indexOf(' ');
        try
        {
            final JsonNode values = space < 0 ? null : JSON.readTree(rest.substring(space + 1));
            if (null == values || !values.isObject())
            {
                throw new IllegalArgumentException("no JSON object of values in '" + text + "'");
            }
            return new ScaleLine(rest.substring(PREFIX.length(), space), values);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("bad JSON in '" + text + "': " + ex.getOriginalMessage(), ex);
        }
    }

    String text(final String key)
    {
        final JsonNode value = values.get(key);
        if (null == value || value.isContainerNode())
        {
            throw new IllegalArgumentException(PREFIX + kind + " line without " + key + ": " + values);
        }
        return value.asText();
    }

    long longValue(final String key)
    {
        return parse(key, Long::valueOf, "a whole number");
    }

    double doubleValue(final String key)
    {
        return parse(key, Double::valueOf, "a number");
    }

    private <T> T parse(final String key, final Function<String, T> parser, final String what)
    {
        try
        {
            return parser.apply(text(key));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(PREFIX + kind + " " + key + " is not " + what + ": " + text(key), ex);
        }
    }
}
