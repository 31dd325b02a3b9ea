package org.am2j.spmd;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.HostPort;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;

/**
 * Reads the variables a launcher gives a rank ({@link SpmdEnvironment}), collecting what is missing or malformed so
 * that one error names every problem at once, not one per try.
 */
final class EnvironmentReader
{
    private final Settings settings;
    private final List<String> missing = new ArrayList<>();
    private final List<String> malformed = new ArrayList<>();

    /**
     * @param env the environment.
     */
    EnvironmentReader(final Map<String, String> env)
    {
        this.settings = Settings.of(Map.of(), env);
    }

    /**
     * @param variable a variable.
     * @return true when it is set and not blank.
     */
    boolean isSet(final String variable)
    {
        return settings.isSet(Setting.variable(variable));
    }

    /**
     * @param variable a variable.
     * @return its value, trimmed, or {@code null} when it is not set (not recorded as missing).
     */
    String text(final String variable)
    {
        return settings.value(Setting.variable(variable));
    }

    /**
     * A number that must be set.
     *
     * @param variable the variable.
     * @param min      smallest value taken, 0 or more.
     * @param max      largest value taken.
     * @param allowed  what it takes, for the message, e.g. {@code a whole number in [0, AM2J_SIZE - 1 = 3]}.
     * @return the number, or -1 when it is missing or malformed (recorded).
     */
    long number(final String variable, final long min, final long max, final String allowed)
    {
        final Setting setting = Setting.variable(variable);
        if (null == required(variable))
        {
            return -1;
        }
        try
        {
            return settings.longValue(setting, min, max);
        }
        catch (final AmException ex)
        {
            malformed.add(settings.invalid(setting, allowed).detail());
            return -1;
        }
    }

    /**
     * A text that must be set and pass a check.
     *
     * @param variable the variable.
     * @param valid    the check.
     * @param allowed  what passes it, for the message.
     * @return the value, or {@code null} when it is missing or fails the check (recorded).
     */
    String checked(final String variable, final Predicate<String> valid, final String allowed)
    {
        final String value = required(variable);
        if (null != value && !valid.test(value))
        {
            malformed.add(settings.invalid(Setting.variable(variable), allowed).detail());
            return null;
        }
        return value;
    }

    /**
     * @param variable a variable holding {@code host:port}, which must be set.
     * @return the address, unresolved, or {@code null} when it is missing or malformed (recorded).
     */
    InetSocketAddress address(final String variable)
    {
        final String value = required(variable);
        if (null == value)
        {
            return null;
        }
        try
        {
            return HostPort.parse(variable, value);
        }
        catch (final AmException ex)
        {
            malformed.add(ex.detail());
            return null;
        }
    }

    /**
     * @param variable a variable that must be set.
     * @return its value, trimmed, or {@code null} when it is not set (recorded as missing).
     */
    private String required(final String variable)
    {
        final String value = text(variable);
        if (null == value)
        {
            missing.add(variable);
        }
        return value;
    }

    /**
     * Record a problem found by the caller.
     *
     * @param detail what is wrong, naming the variable.
     */
    void problem(final String detail)
    {
        malformed.add(detail);
    }

    /**
     * @param hint what the launcher sets, or what to set without one: said after the list of missing variables.
     * @throws AmException {@link AmError#BAD_ARG} naming every variable missing and every one malformed, when there
     *                     are any.
     */
    void check(final String hint)
    {
        if (missing.isEmpty() && malformed.isEmpty())
        {
            return;
        }
        final List<String> parts = new ArrayList<>();
        if (!missing.isEmpty())
        {
            final StringBuilder names = new StringBuilder();
            for (int i = 0; i < missing.size(); i++)
            {
                names.append(i == 0 ? "" : i == missing.size() - 1 ? " and " : ", ").append(missing.get(i));
            }
            parts.add(names + (missing.size() == 1 ? " is" : " are") + " missing: " + hint);
        }
        parts.addAll(malformed);
        throw new AmException(AmError.BAD_ARG, String.join("; ", parts));
    }
}
