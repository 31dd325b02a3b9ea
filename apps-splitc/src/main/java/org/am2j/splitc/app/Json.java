package org.am2j.splitc.app;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes JSON text (RFC 8259) from maps, lists, strings, numbers, booleans and nulls, indented by two spaces. Map keys
 * are written in the map's order; a NaN or infinite double, which JSON cannot hold, is written as {@code null}.
 */
public final class Json
{
    private Json()
    {
    }

    /**
     * @param value a {@link Map} with string keys, a {@link List}, a {@link CharSequence}, a {@link Number}, a
     *              {@link Boolean} or {@code null}, nested to any depth.
     * @return the JSON text, ending with a newline.
     * @throws IllegalArgumentException for a value of another type.
     */
    public static String write(final Object value)
    {
        final StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.append('\n').toString();
    }

    private static void write(final StringBuilder out, final Object value, final int depth)
    {
        if (null == value)
        {
            out.append("null");
        }
        else if (value instanceof Map)
        {
            final Map<?, ?> map = (Map<?, ?>)value;
            if (map.isEmpty())
            {
                out.append("{}");
                return;
            }
            out.append("{\n");
            final Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            while (entries.hasNext())
            {
                final Map.Entry<?, ?> entry = entries.next();
                indent(out, depth + 1);
                string(out, String.valueOf(entry.getKey()));
                out.append(": ");
                write(out, entry.getValue(), depth + 1);
                out.append(entries.hasNext() ? ",\n" : "\n");
            }
            indent(out, depth);
            out.append('}');
        }
        else if (value instanceof List)
        {
            final List<?> list = (List<?>)value;
            if (list.isEmpty())
            {
                out.append("[]");
                return;
            }
            out.append("[\n");
            for (int i = 0; i < list.size(); i++)
            {
                indent(out, depth + 1);
                write(out, list.get(i), depth + 1);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            indent(out, depth);
            out.append(']');
        }
        else if (value instanceof CharSequence)
        {
            string(out, value.toString());
        }
        else if (value instanceof Double || value instanceof Float)
        {
            final double d = ((Number)value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d))
            {
                out.append("null");
            }
            else if (d == Math.rint(d) && Math.abs(d) < 1e15)
            {
                out.append(String.format(Locale.ROOT, "%.1f", d));
            }
            else
            {
                out.append(d);
            }
        }
        else if (value instanceof Number || value instanceof Boolean)
        {
            out.append(value);
        }
        else
        {
            throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as JSON");
        }
    }

    private static void indent(final StringBuilder out, final int depth)
    {
        for (int i = 0; i < depth; i++)
        {
            out.append("  ");
        }
    }

    private static void string(final StringBuilder out, final String s)
    {
        out.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20)
                    {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
