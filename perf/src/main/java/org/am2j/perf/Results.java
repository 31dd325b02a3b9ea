package org.am2j.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.app.ReportJson;

/**
 * Named results of a benchmark, in the order they were put: how rank 0 of a rank pair hands its measurements to the
 * process that started it, in a file holding one JSON object of strings. Numbers are kept as the text
 * {@link Long#toString(long)} or {@link Double#toString(double)} gives (NaN and the infinities too), so nothing is
 * lost on the way.
 */
final class Results
{
    private final Map<String, String> values = new LinkedHashMap<>();

    /**
     * @param key   the name.
     * @param value a number (kept as {@link Long#toString(long)} or {@link Double#toString(double)} writes it, NaN
     *              and the infinities too), a flag or text.
     * @return this.
     */
    Results put(final String key, final Object value)
    {
        values.put(key, String.valueOf(value));
        return this;
    }

    /**
     * @param other results to add; their keys replace equal ones here.
     * @return this.
     */
    Results putAll(final Results other)
    {
        values.putAll(other.values);
        return this;
    }

    /**
     * @param key the name.
     * @return true when there is a result of that name.
     */
    boolean has(final String key)
    {
        return values.containsKey(key);
    }

    /**
     * @param key the name.
     * @return its text.
     * @throws IllegalArgumentException when there is none.
     */
    String getString(final String key)
    {
        final String value = values.get(key);
        if (null == value)
        {
            throw new IllegalArgumentException("no result " + key);
        }
        return value;
    }

    /**
     * @param key the name of a whole number.
     * @return its value.
     * @throws IllegalArgumentException when there is none or it is not a whole number.
     */
    long getLong(final String key)
    {
        return parse(key, Long::valueOf, "a whole number");
    }

    /**
     * @param key the name of a number.
     * @return its value.
     * @throws IllegalArgumentException when there is none or it is not a number.
     */
    double getDouble(final String key)
    {
        return parse(key, Double::valueOf, "a number");
    }

    private <T> T parse(final String key, final Function<String, T> parser, final String what)
    {
        final String value = getString(key);
        try
        {
            return parser.apply(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("result " + key + " = '" + value + "' is not " + what, ex);
        }
    }

    /**
     * @param key the name of a flag.
     * @return its value.
     * @throws IllegalArgumentException when there is none.
     */
    boolean getBoolean(final String key)
    {
        return Boolean.parseBoolean(getString(key));
    }

    /**
     * @return every result, in order; unmodifiable.
     */
    Map<String, String> asMap()
    {
        return Collections.unmodifiableMap(values);
    }

    /**
     * Write the results to a file, replacing it whole (written beside it, then moved).
     *
     * @param file where.
     * @throws IOException when it cannot be written.
     */
    void write(final Path file) throws IOException
    {
        final Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.writeString(partial, ReportJson.write(values), StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * @param file written by {@link #write(Path)}.
     * @return its results.
     * @throws IOException when it cannot be read or does not hold a JSON object.
     */
    static Results read(final Path file) throws IOException
    {
        final JsonNode json;
        try
        {
            json = ReportJson.read(Files.readString(file, StandardCharsets.UTF_8));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IOException(file + ": " + ex.getMessage(), ex);
        }
        if (!json.isObject())
        {
            throw new IOException(file + " holds no JSON object of results");
        }
        final Results results = new Results();
        json.properties().forEach(result -> results.put(result.getKey(), result.getValue().asText()));
        return results;
    }
}
