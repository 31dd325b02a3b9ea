package org.am2j.splitc.app;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One run of an application: its label (as in the model paper's tables, e.g. {@code CON/comm}) and its parameters,
 * by name, as text, in a fixed order. Typed getters parse them and name the parameter when it is malformed.
 */
public record RunSpec(String app, String label, Map<String, String> parameters)
{
    /**
     * @param app        name of the application.
     * @param label      what the run is called in reports.
     * @param parameters every parameter of the application, by name, in order.
     */
    public RunSpec
    {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * @param app    name of the application.
     * @param label  what the run is called in reports.
     * @param names  every parameter of the application, in order.
     * @param values their values, in the same order, written as {@link String#valueOf(Object)} writes them.
     * @return the run.
     */
    public static RunSpec of(final String app, final String label, final List<String> names, final Object... values)
    {
        final Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++)
        {
            parameters.put(names.get(i), String.valueOf(values[i]));
        }
        return new RunSpec(app, label, parameters);
    }

    /**
     * @param name of a parameter.
     * @return its value.
     * @throws IllegalArgumentException when the run has no such parameter.
     */
    public String get(final String name)
    {
        final String value = parameters.get(name);
        if (null == value)
        {
            throw new IllegalArgumentException(app + " has no parameter --" + name);
        }
        return value;
    }

    /**
     * @param name of a parameter.
     * @return its value as an int.
     */
    public int getInt(final String name)
    {
        return parse(name, text -> Integer.parseInt(text.replace("_", "")), "an integer");
    }

    /**
     * @param name of a parameter.
     * @return its value as a long.
     */
    public long getLong(final String name)
    {
        return parse(name, text -> Long.parseLong(text.replace("_", "")), "an integer");
    }

    /**
     * @param name of a parameter.
     * @return its value as a double.
     */
    public double getDouble(final String name)
    {
        return parse(name, Double::parseDouble, "a number");
    }

    private <T> T parse(final String name, final Function<String, T> parser, final String what)
    {
        try
        {
            return parser.apply(get(name).trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option(name) + " " + get(name) + " is not " + what, ex);
        }
    }

    /**
     * @return the parameters as {@code option=value}, space-separated, each under the command-line option that sets
     * it (EM3D's {@code nodes} as {@code graph-nodes}).
     */
    public String describeParameters()
    {
        final StringBuilder text = new StringBuilder();
        parameters.forEach((k, v) -> text.append(text.length() == 0 ? "" : " ").append(Apps.byName(app).optionOf(k))
            .append('=').append(v));
        return text.toString();
    }

    @Override
    public String toString()
    {
        return label + ": " + describeParameters();
    }

    /**
     * @param name of a parameter.
     * @return the command-line option that sets it, with its dashes.
     */
    private String option(final String name)
    {
        return "--" + Apps.byName(app).optionOf(name);
    }
}
