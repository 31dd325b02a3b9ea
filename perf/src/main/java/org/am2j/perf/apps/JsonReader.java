package org.am2j.perf.apps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small reader of JSON text (RFC 8259), enough for the reports {@code bin/am2j app --json} writes: objects become
 * {@link LinkedHashMap}s in the text's order, arrays {@link ArrayList}s, strings {@link String}s, numbers
 * {@link Double}s, {@code true}/{@code false} {@link Boolean}s and {@code null} {@code null}. Malformed text throws
 * {@link IllegalArgumentException} with the offset.
 */
final class JsonReader
{
    private final String text;
    private int at;

    private JsonReader(final String text)
    {
        this.text = text;
    }

    /**
     * @param text one JSON value, with white space around it or not.
     * @return the value.
     * @throws IllegalArgumentException when the text is not one JSON value.
     */
    static Object read(final String text)
    {
        final JsonReader reader = new JsonReader(text);
        final Object value = reader.value();
        reader.space();
        if (reader.at != text.length())
        {
            throw reader.error("text after the value");
        }
        return value;
    }

    /**
     * @param text a JSON object.
     * @return it.
     * @throws IllegalArgumentException when the text is not one JSON object.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> readObject(final String text)
    {
        final Object value = read(text);
        if (!(value instanceof Map))
        {
            throw new IllegalArgumentException("the JSON text is not an object");
        }
        return (Map<String, Object>)value;
    }

    private Object value()
    {
        space();
        if (at >= text.length())
        {
            throw error("a value expected, the text ended");
        }
        final char c = text.charAt(at);
        switch (c)
        {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return word("true", Boolean.TRUE);
            case 'f':
                return word("false", Boolean.FALSE);
            case 'n':
                return word("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9'))
                {
                    return number();
                }
                throw error("unexpected '" + c + "'");
        }
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        at++;
        space();
        if (peek() == '}')
        {
            at++;
            return map;
        }
        while (true)
        {
            space();
            if (peek() != '"')
            {
                throw error("a name expected");
            }
            final String name = string();
            space();
            expect(':');
            map.put(name, value());
            space();
            final char c = next();
            if (c == '}')
            {
                return map;
            }
            if (c != ',')
            {
                throw error("',' or '}' expected");
            }
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek() == ']')
        {
            at++;
            return list;
        }
        while (true)
        {
            list.add(value());
            space();
            final char c = next();
            if (c == ']')
            {
                return list;
            }
            if (c != ',')
            {
                throw error("',' or ']' expected");
            }
        }
    }

    private String string()
    {
        at++;
        final StringBuilder s = new StringBuilder();
        while (true)
        {
            final char c = next();
            if (c == '"')
            {
                return s.toString();
            }
            if (c < 0x20)
            {
                throw error("a control character in a string");
            }
            if (c != '\\')
            {
                s.append(c);
                continue;
            }
            final char e = next();
            switch (e)
            {
                case '"':
                case '\\':
                case '/':
                    s.append(e);
                    break;
                case 'b':
                    s.append('\b');
                    break;
                case 'f':
                    s.append('\f');
                    break;
                case 'n':
                    s.append('\n');
                    break;
                case 'r':
                    s.append('\r');
                    break;
                case 't':
                    s.append('\t');
                    break;
                case 'u':
                    if (at + 4 > text.length())
                    {
                        throw error("a short \\u escape");
                    }
                    try
                    {
                        s.append((char)Integer.parseInt(text.substring(at, at + 4), 16));
                    }
                    catch (final NumberFormatException ex)
                    {
                        throw error("a bad \\u escape");
                    }
                    at += 4;
                    break;
                default:
                    throw error("a bad escape \\" + e);
            }
        }
    }

    private Double number()
    {
        final int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0)
        {
            at++;
        }
        try
        {
            return Double.valueOf(text.substring(start, at));
        }
        catch (final NumberFormatException ex)
        {
            at = start;
            throw error("a bad number");
        }
    }

    private Object word(final String word, final Object value)
    {
        if (!text.startsWith(word, at))
        {
            throw error(word + " expected");
        }
        at += word.length();
        return value;
    }

    private void expect(final char c)
    {
        if (next() != c)
        {
            at--;
            throw error("'" + c + "' expected");
        }
    }

    private char peek()
    {
        if (at >= text.length())
        {
            throw error("the text ended");
        }
        return text.charAt(at);
    }

    private char next()
    {
        final char c = peek();
        at++;
        return c;
    }

    private void space()
    {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0)
        {
            at++;
        }
    }

    private IllegalArgumentException error(final String what)
    {
        return new IllegalArgumentException("bad JSON at offset " + at + ": " + what);
    }
}
