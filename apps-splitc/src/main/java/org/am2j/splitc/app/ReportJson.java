package org.am2j.splitc.app;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON of the tools' reports ({@code bin/am2j app}, {@code pingpong}, {@code logp}, {@code scale}), written and
 * read by Jackson: maps, records and trees as they are, members in the order they were put, indented by two spaces
 * with one member or array element a line ({@code "name": value}), the text ending with a newline. A number JSON
 * cannot hold (NaN, an infinity: a ratio over a limit of 0, a load the OS does not report) is written as
 * {@code null}.
 */
public final class ReportJson
{
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
            .addDecorator(ReportJson::finiteNumbers).build())
        .defaultPrettyPrinter(printer())
        .enable(SerializationFeature.INDENT_OUTPUT)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();

    private ReportJson()
    {
    }

    /**
     * @return a new, empty JSON object to put a report's members into, in order.
     */
    public static ObjectNode object()
    {
        return MAPPER.createObjectNode();
    }

    /**
     * @param value a tree, a map with string keys, a list, a record, a string, a number, a boolean or {@code null},
     *              nested to any depth.
     * @return its JSON text, ending with a newline.
     * @throws IllegalArgumentException for a value Jackson cannot write (an object without properties).
     */
    public static String write(final Object value)
    {
        try
        {
            return MAPPER.writeValueAsString(value) + "\n";
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("cannot write as JSON: " + ex.getOriginalMessage(), ex);
        }
    }

    /**
     * @param text one JSON value, with white space around it or not.
     * @return the value as a tree: objects keep their members' order.
     * @throws IllegalArgumentException when the text is not one JSON value; the message says where.
     */
    public static JsonNode read(final String text)
    {
        final JsonNode value;
        try
        {
            value = MAPPER.readTree(text);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException("bad JSON: " + ex.getMessage(), ex);
        }
        if (value.isMissingNode())
        {
            throw new IllegalArgumentException("bad JSON: no value in the text");
        }
        return value;
    }

    /** {@code "name": value}, one member or element a line, indented by two spaces; {@code {}} and {@code []}. */
    private static DefaultPrettyPrinter printer()
    {
        final DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        return new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator(""))
            .withObjectIndenter(indenter)
            .withArrayIndenter(indenter);
    }

    /** JSON has no NaN or infinity: a generator that writes them as {@code null}. */
    private static JsonGenerator finiteNumbers(final JsonFactory factory, final JsonGenerator generator)
    {
        return new JsonGeneratorDelegate(generator, false)
        {
            @Override
            public void writeNumber(final double value) throws IOException
            {
                if (Double.isFinite(value))
                {
                    super.writeNumber(value);
                }
                else
                {
                    writeNull();
                }
            }

            @Override
            public void writeNumber(final float value) throws IOException
            {
                if (Float.isFinite(value))
                {
                    super.writeNumber(value);
                }
                else
                {
                    writeNull();
                }
            }
        };
    }
}
