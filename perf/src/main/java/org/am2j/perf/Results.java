package org.am2j.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.am2j.splitc.app.ReportJson;

/**
 * Named results of a benchmark, in the order they were put, each a JSON value of its own type (a number, a flag, a
 * text, an array of numbers): how rank 0 of a rank pair hands its measurements to the process that started it, in a
 * file holding one JSON object, and the measurements the reports copy into their JSON under the same names. A record
 * put whole ({@link #putAll(String, Object)}) becomes one result per property, named by its prefix and the
 * property's JSON name; {@link #getAll(String, Class)} reads it back. A number JSON cannot hold (NaN, an infinity) goes
 * through the file as {@code null} and is read back as NaN.
 */
final class Results
{
    /** Turns values and records into JSON trees and back. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
        // a null number of a record (NaN on the way through a file) is NaN again
        .addModule(new SimpleModule().addDeserializer(double.class,
            new NumberDeserializers.DoubleDeserializer(double.class, Double.NaN)))
        .build();

    /**
     * Reads and writes what one program hands another as JSON text (a rank's configuration, a rank's scale line):
     * every member of the record must be given, and none may be null.
     */
    static final ObjectMapper STRICT = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
        .build();

    private final ObjectNode values = MAPPER.createObjectNode();

    /**
     * @param key   the name.
     * @param value a number, a flag, a text, an array of numbers or a record (one JSON object).
     * @return this.
     */
    Results put(final String key, final Object value)
    {
        values.set(key, MAPPER.valueToTree(value));
        return this;
    }

    /**
     * @param prefix of the names.
     * @param record whose properties to put, each as {@code prefix} + its JSON name.
     * @return this.
     */
    Results putAll(final String prefix, final Object record)
    {
        MAPPER.valueToTree(record).properties().forEach(member -> values.set(prefix + member.getKey(),
            member.getValue()));
        return this;
    }

    /**
     * @param other results to add; their keys replace equal ones here.
     * @return this.
     */
    Results putAll(final Results other)
    {
        values.setAll(other.values);
        return this;
    }

    /**
     * @param key the name.
     * @return true when there is a result of that name.
     */
    boolean has(final String key)
    {
        return values.has(key);
    }

    /**
     * @param key the name.
     * @return its value.
     * @throws IllegalArgumentException when there is none.
     */
    JsonNode get(final String key)
    {
        final JsonNode value = values.get(key);
        if (null == value)
        {
            throw new IllegalArgumentException("no result " + key);
        }
        return value;
    }

    /**
     * @param prefix of the names a record was put under ({@link #putAll(String, Object)}).
     * @param type   of the record.
     * @param <T>    the type.
     * @return the record.
     * @throws IllegalArgumentException when a property is missing or of another type.
     */
    <T> T getAll(final String prefix, final Class<T> type)
    {
        final ObjectNode record = MAPPER.createObjectNode();
        values.properties().stream().filter(member -> member.getKey().startsWith(prefix))
            .forEach(member -> record.set(member.getKey().substring(prefix.length()), member.getValue()));
        return convert(record, type, prefix + "*");
    }

    /**
     * @param key  the name a record was put under ({@link #put(String, Object)}).
     * @param type of the record.
     * @param <T>  the type.
     * @return the record.
     * @throws IllegalArgumentException when there is none, or a property is missing or of another type.
     */
    <T> T get(final String key, final Class<T> type)
    {
        return convert(get(key), type, key);
    }

    private static <T> T convert(final JsonNode value, final Class<T> type, final String name)
    {
        try
        {
            return MAPPER.treeToValue(value, type);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new IllegalArgumentException("result " + name + " is no " + type.getSimpleName() + ": " +
                ex.getMessage(), ex);
        }
    }

    /**
     * @param key the name of a text.
     * @return its text.
     * @throws IllegalArgumentException when there is none.
     */
    String getString(final String key)
    {
        return get(key).asText();
    }

    /**
     * @param key the name of a whole number.
     * @return its value.
     * @throws IllegalArgumentException when there is none or it is not a whole number.
     */
    long getLong(final String key)
    {
        final JsonNode value = get(key);
        if (!value.isIntegralNumber())
        {
            throw new IllegalArgumentException("result " + key + " = " + value + " is not a whole number");
        }
        return value.longValue();
    }

    /**
     * @param key the name of a number.
     * @return its value; NaN for {@code null} (a number JSON cannot hold).
     * @throws IllegalArgumentException when there is none or it is not a number.
     */
    double getDouble(final String key)
    {
        return number(key, get(key));
    }

    /**
     * @param key the name of an array of numbers.
     * @return them, in order.
     * @throws IllegalArgumentException when there is none or it is not an array of numbers.
     */
    double[] getDoubles(final String key)
    {
        final JsonNode array = get(key);
        if (!array.isArray())
        {
            throw new IllegalArgumentException("result " + key + " = " + array + " is not an array");
        }
        final List<Double> numbers = new ArrayList<>();
        array.forEach(value -> numbers.add(number(key, value)));
        return numbers.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double number(final String key, final JsonNode value)
    {
        if (!value.isNumber() && !value.isNull())
        {
            throw new IllegalArgumentException("result " + key + " = " + value + " is not a number");
        }
        return value.isNull() ? Double.NaN : value.doubleValue();
    }

    /**
     * @return every result, in order, as a JSON object of this instance's (a copy).
     */
    ObjectNode asJson()
    {
        return values.deepCopy();
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
        results.values.setAll((ObjectNode)json);
        return results;
    }
}
