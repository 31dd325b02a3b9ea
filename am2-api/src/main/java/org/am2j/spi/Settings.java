package org.am2j.spi;

import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Reads am2j's settings: each {@link Setting} from its system property when that is set, else from its environment
 * variable when that is set, else the default. A value is trimmed; an empty or blank one counts as not set.
 * <p>
 * A value that does not parse is an {@link AmException} with {@link AmError#BAD_ARG} that names the setting as it was
 * given, the value, the values it takes, and both of its names when it has two, e.g.
 * {@code AM2J_SHM_SEALED = 'maybe' must be true or false (system property am2j.shm.sealed or environment variable
 * AM2J_SHM_SEALED; the property wins)}. Flags take {@code true} or {@code false} only (in any case), numbers decimal
 * digits with an optional minus sign, inside their range; nothing is taken silently for something else.
 * <p>
 * Read once when a component starts, never on the hot path.
 */
public final class Settings
{
    private static final Settings SYSTEM = new Settings(System::getProperty, System::getenv);
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?[0-9]{1,19}");
    private static final int LONGEST_SHOWN = 80;

    private final UnaryOperator<String> properties;
    private final UnaryOperator<String> environment;

    /**
     * @param properties the system properties by name ({@code null} for one not set).
     * @param environment the environment variables by name ({@code null} for one not set).
     */
    public Settings(final UnaryOperator<String> properties, final UnaryOperator<String> environment)
    {
        this.properties = AmException.checkNotNull("properties", properties);
        this.environment = AmException.checkNotNull("environment", environment);
    }

    /**
     * @return the settings of this process: {@link System#getProperty(String)}, then {@link System#getenv(String)},
     * read when asked (a property set later is seen).
     */
    public static Settings system()
    {
        return SYSTEM;
    }

    /**
     * @param properties  system properties by name.
     * @param environment environment variables by name.
     * @return settings read from the two maps.
     */
    public static Settings of(final Map<String, String> properties, final Map<String, String> environment)
    {
        AmException.checkNotNull("properties", properties);
        AmException.checkNotNull("environment", environment);
        return new Settings(properties::get, environment::get);
    }

    /**
     * @param setting its names.
     * @return the value given, trimmed: the system property's when set, else the environment variable's when set,
     * else {@code null}.
     */
    public String value(final Setting setting)
    {
        final String fromProperty = fromProperty(setting);
        return null != fromProperty ? fromProperty : fromVariable(setting);
    }

    /**
     * @param setting its names.
     * @return true when its property or its variable is set (not blank).
     */
    public boolean isSet(final Setting setting)
    {
        return null != value(setting);
    }

    /**
     * For a setting known by more than one pair of names (a transport's own and an older, documented one).
     *
     * @param settings the names, in the order they are read.
     * @return the first of them that is set, else the last (whose names the messages then give).
     */
    public Setting firstSet(final Setting... settings)
    {
        for (final Setting setting : settings)
        {
            if (isSet(setting))
            {
                return setting;
            }
        }
        return settings[settings.length - 1];
    }

    /**
     * @param setting      its names.
     * @param defaultValue when it is not set.
     * @return the value given, trimmed, else the default.
     */
    public String text(final Setting setting, final String defaultValue)
    {
        final String value = value(setting);
        return null != value ? value : defaultValue;
    }

    /**
     * @param setting its names.
     * @return the name the value was given under (the system property when set, else the environment variable when
     * set), else both names ({@code property / variable}): for messages about the value.
     */
    public String givenName(final Setting setting)
    {
        if (null != fromProperty(setting))
        {
            return setting.property();
        }
        return null != fromVariable(setting) ? setting.variable() : setting.toString();
    }

    /**
     * @param setting      its names.
     * @param defaultValue when it is not set.
     * @return true for {@code true}, false for {@code false} (any case), else the default when not set.
     * @throws AmException {@link AmError#BAD_ARG} for any other value.
     */
    public boolean flag(final Setting setting, final boolean defaultValue)
    {
        final String value = value(setting);
        if (null == value)
        {
            return defaultValue;
        }
        if ("true".equalsIgnoreCase(value))
        {
            return true;
        }
        if ("false".equalsIgnoreCase(value))
        {
            return false;
        }
        throw invalid(setting, "true or false");
    }

    /**
     * @param setting      its names.
     * @param defaultValue when it is not set (not checked against the range).
     * @param min          smallest value taken.
     * @param max          largest value taken.
     * @return the number given, else the default.
     * @throws AmException {@link AmError#BAD_ARG} when the value is not a whole number in [min, max].
     */
    public long longValue(final Setting setting, final long defaultValue, final long min, final long max)
    {
        return isSet(setting) ? longValue(setting, min, max) : defaultValue;
    }

    /**
     * A number that must be set.
     *
     * @param setting its names.
     * @param min     smallest value taken.
     * @param max     largest value taken.
     * @return the number given.
     * @throws AmException {@link AmError#BAD_ARG} when it is not set, or not a whole number in [min, max].
     */
    public long longValue(final Setting setting, final long min, final long max)
    {
        final String value = value(setting);
        if (null == value)
        {
            throw new AmException(AmError.BAD_ARG, setting.describe() + " is missing: it must be " +
                wholeNumber(min, max));
        }
        if (!WHOLE_NUMBER.matcher(value).matches())
        {
            throw invalid(setting, wholeNumber(min, max));
        }
        final long parsed;
        try
        {
            parsed = Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw invalid(setting, wholeNumber(min, max));
        }
        if (parsed < min || parsed > max)
        {
            throw invalid(setting, wholeNumber(min, max));
        }
        return parsed;
    }

    /**
     * @param setting      its names.
     * @param defaultValue when it is not set (not checked against the range).
     * @param min          smallest value taken.
     * @param max          largest value taken.
     * @return the number given, else the default.
     * @throws AmException {@link AmError#BAD_ARG} when the value is not a whole number in [min, max].
     */
    public int intValue(final Setting setting, final int defaultValue, final int min, final int max)
    {
        return (int)longValue(setting, defaultValue, min, max);
    }

    /**
     * @param setting      its names.
     * @param defaultValue when it is not set.
     * @param allowed      the values taken, in the spelling returned (matched in any case).
     * @return the allowed value given, else the default.
     * @throws AmException {@link AmError#BAD_ARG} when the value is none of them.
     */
    public String choice(final Setting setting, final String defaultValue, final String... allowed)
    {
        final String value = value(setting);
        if (null == value)
        {
            return defaultValue;
        }
        for (final String candidate : allowed)
        {
            if (candidate.equalsIgnoreCase(value))
            {
                return candidate;
            }
        }
        throw invalid(setting, oneOf(allowed));
    }

    /**
     * The error for a value a caller's own check refused (a number that must also be a power of two, a path that
     * must be absolute).
     *
     * @param setting its names.
     * @param allowed what it takes, e.g. {@code "a power of two in [2, 4096]"}.
     * @return an {@link AmException} with {@link AmError#BAD_ARG} naming the setting as given, the value, what is
     * allowed, and both names.
     */
    public AmException invalid(final Setting setting, final String allowed)
    {
        return error(setting, " must be " + allowed);
    }

    /**
     * The error for a value refused for a reason of its own (an unknown host, a poll scheduler's argument).
     *
     * @param setting its names.
     * @param why     what is wrong with the value.
     * @return an {@link AmException} with {@link AmError#BAD_ARG} naming the setting as given, the value, why, and
     * both names.
     */
    public AmException rejected(final Setting setting, final String why)
    {
        return error(setting, ": " + why);
    }

    private AmException error(final Setting setting, final String why)
    {
        final String value = value(setting);
        final boolean bothNames = null != setting.property() && null != setting.variable();
        return new AmException(AmError.BAD_ARG, givenName(setting) + " = '" + printable(null == value ? "" : value) +
            "'" + why + (bothNames ? " (" + setting.describe() + "; the property wins)" : ""));
    }

    /**
     * @param min smallest value taken.
     * @param max largest value taken.
     * @return {@code a whole number in [min, max]}, or {@code a whole number, min or more} when there is no maximum.
     */
    public static String wholeNumber(final long min, final long max)
    {
        return Long.MAX_VALUE == max ? "a whole number, " + min + " or more" :
            "a whole number in [" + min + ", " + max + "]";
    }

    /**
     * @param text a value from outside, for a message.
     * @return the text with control characters as {@code ?}, cut after {@value #LONGEST_SHOWN} characters.
     */
    public static String printable(final String text)
    {
        final StringBuilder sb = new StringBuilder(Math.min(text.length(), LONGEST_SHOWN));
        for (int i = 0; i < text.length() && i < LONGEST_SHOWN; i++)
        {
            final char c = text.charAt(i);
            sb.append(Character.isISOControl(c) ? '?' : c);
        }
        return text.length() > LONGEST_SHOWN ? sb.append("...").toString() : sb.toString();
    }

    private static String oneOf(final String... allowed)
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < allowed.length; i++)
        {
            sb.append(i == 0 ? "" : i == allowed.length - 1 ? " or " : ", ").append(allowed[i]);
        }
        return sb.toString();
    }

    private String fromProperty(final Setting setting)
    {
        return null == setting.property() ? null : given(properties.apply(setting.property()));
    }

    private String fromVariable(final Setting setting)
    {
        return null == setting.variable() ? null : given(environment.apply(setting.variable()));
    }

    private static String given(final String raw)
    {
        return null == raw || raw.isBlank() ? null : raw.trim();
    }
}
