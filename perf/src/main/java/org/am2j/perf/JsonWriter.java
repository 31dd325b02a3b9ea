package org.am2j.perf;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A small streaming writer of JSON text (RFC 8259), indented by two spaces, for the benchmark results; no
 * dependency needed. Names and strings are escaped ({@code "}, {@code \}, and control characters as {@code \n},
 * {@code \t}, ... or {@code \}{@code u00XX}); a {@code double} that is NaN or infinite, which JSON cannot hold, is
 * written as {@code null}. Misuse (a value where a name is due, closing what is not open) throws
 * {@link IllegalStateException}.
 */
final class JsonWriter
{
    private static final String INDENT = "  ";

    private final StringBuilder out;
    private final Deque<Scope> scopes = new ArrayDeque<>();
    private boolean nameWritten;
    private boolean started;

    private static final class Scope
    {
        private final boolean object;
        private boolean empty = true;

        private Scope(final boolean object)
        {
            this.object = object;
        }
    }

    /**
     * @param out where the text goes.
     */
    JsonWriter(final StringBuilder out)
    {
        this.out = out;
    }

    /**
     * @return this, after {@code {}.
     */
    JsonWriter beginObject()
    {
        beforeValue();
        out.append('{');
        scopes.push(new Scope(true));
        return this;
    }

    /**
     * @return this, after {@code }}.
     */
    JsonWriter endObject()
    {
        return end(true, '}');
    }

    /**
     * @return this, after {@code [}.
     */
    JsonWriter beginArray()
    {
        beforeValue();
        out.append('[');
        scopes.push(new Scope(false));
        return this;
    }

    /**
     * @return this, after {@code ]}.
     */
    JsonWriter endArray()
    {
        return end(false, ']');
    }

    /**
     * @param name of the next member of the current object.
     * @return this.
     */
    JsonWriter name(final String name)
    {
        final Scope scope = scopes.peek();
        if (null == scope || !scope.object || nameWritten)
        {
            throw new IllegalStateException("a name is allowed only where an object member starts: " + name);
        }
        separate(scope);
        quote(name);
        out.append(": ");
        nameWritten = true;
        return this;
    }

    /**
     * @param value a string, or {@code null}.
     * @return this.
     */
    JsonWriter value(final String value)
    {
        if (null == value)
        {
            return nullValue();
        }
        beforeValue();
        quote(value);
        return this;
    }

    /**
     * @param value a whole number.
     * @return this.
     */
    JsonWriter value(final long value)
    {
        beforeValue();
        out.append(value);
        return this;
    }

    /**
     * @param value a number; NaN and infinities are written as {@code null}.
     * @return this.
     */
    JsonWriter value(final double value)
    {
        beforeValue();
        out.append(number(value));
        return this;
    }

    /**
     * @param value a flag.
     * @return this.
     */
    JsonWriter value(final boolean value)
    {
        beforeValue();
        out.append(value);
        return this;
    }

    /**
     * @return this, after {@code null}.
     */
    JsonWriter nullValue()
    {
        beforeValue();
        out.append("null");
        return this;
    }

    /**
     * @param value a number.
     * @return its JSON text: {@link Double#toString(double)} for a finite value, {@code null} otherwise.
     */
    static String number(final double value)
    {
        return Double.isNaN(value) || Double.isInfinite(value) ? "null" : Double.toString(value);
    }

    /**
     * @param value any string.
     * @return it as a JSON string literal, quotes included.
     */
    static String quoted(final String value)
    {
        final StringBuilder text = new StringBuilder(value.length() + 2);
        new JsonWriter(text).value(value);
        return text.toString();
    }

    private void quote(final String value)
    {
        out.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
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
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                default:
                    if (c < 0x20 || c == 0x7F || c == '\u2028' || c == '\u2029')
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    private void beforeValue()
    {
        final Scope scope = scopes.peek();
        if (null == scope)
        {
            if (started)
            {
                throw new IllegalStateException("the JSON text is complete: it holds one value");
            }
            started = true;
            return;
        }
        if (scope.object)
        {
            if (!nameWritten)
            {
                throw new IllegalStateException("an object member needs a name before its value");
            }
            nameWritten = false;
        }
        else
        {
            separate(scope);
        }
    }

    private void separate(final Scope scope)
    {
        if (!scope.empty)
        {
            out.append(',');
        }
        scope.empty = false;
        newline(scopes.size());
    }

    private JsonWriter end(final boolean object, final char close)
    {
        final Scope scope = scopes.peek();
        if (null == scope || scope.object != object || nameWritten)
        {
            throw new IllegalStateException("'" + close + "' does not close an open " + (object ? "object" :
                "array"));
        }
        scopes.pop();
        if (!scope.empty)
        {
            newline(scopes.size());
        }
        out.append(close);
        return this;
    }

    private void newline(final int depth)
    {
        out.append('\n');
        for (int i = 0; i < depth; i++)
        {
            out.append(INDENT);
        }
    }
}
