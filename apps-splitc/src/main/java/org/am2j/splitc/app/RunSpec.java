package org.am2j.splitc.app;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run of an application: its label (as in the model paper's tables, e.g. {@code CON/comm}) and its parameters,
 * by name, as text, in a fixed order. Typed getters parse them and name the parameter when it is malformed.
 */
public final class RunSpec
{
    private final String app;
    private final String label;
    private final Map<String, String> parameters;

    /**
     * @param app        name of the application.
     * @param label      what the run is called in reports.
     * @param parameters every parameter of the application, by name.
     */
    public RunSpec(final String app, final String label, final Map<String, String> parameters)
    {
        this.app = app;
        this.label = label;
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * @return name of the application.
     */
    public String app()
    {
        return app;
    }

    /**
     * @return what the run is called in reports.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return the parameters, by name, in order.
     */
    public Map<String, String> parameters()
    {
        return parameters;
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
        try
        {
            return Integer.parseInt(get(name).trim().replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option(name) + " " + get(name) + " is not an integer", ex);
        }
    }

    /**
     * @param name of a parameter.
     * @return its value as a long.
     */
    public long getLong(final String name)
    {
        try
        {
            return Long.parseLong(get(name).trim().replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option(name) + " " + get(name) + " is not an integer", ex);
        }
    }

    /**
     * @param name of a parameter.
     * @return its value as a double.
     */
    public double getDouble(final String name)
    {
        try
        {
            return Double.parseDouble(get(name).trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option(name) + " " + get(name) + " is not a number", ex);
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
