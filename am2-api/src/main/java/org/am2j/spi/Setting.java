package org.am2j.spi;

import java.util.Locale;

import org.am2j.api.AmException;

/**
 * The names of one setting of am2j: a system property, an environment variable, or both, the property winning when
 * both are set ({@link Settings} reads it). A setting that only a launcher sets has no property.
 *
 * @param property the system property, e.g. {@code am2j.shm.sealed}, or {@code null} when there is none.
 * @param variable the environment variable, e.g. {@code AM2J_SHM_SEALED}, or {@code null} when there is none.
 */
public record Setting(String property, String variable)
{
    /**
     * @param property the system property, or {@code null} when there is none.
     * @param variable the environment variable, or {@code null} when there is none.
     * @throws AmException {@link org.am2j.api.AmError#BAD_ARG} when both are {@code null}.
     */
    public Setting
    {
        if (null == property)
        {
            AmException.checkNotNull("property or variable", variable);
        }
    }

    /**
     * A transport's setting: the system property {@code am2j.<transport>.<key>}, the environment variable
     * {@code AM2J_<TRANSPORT>_<KEY>} (upper case, dots as underscores).
     *
     * @param transport the transport's name, e.g. {@code shm}.
     * @param key       the setting's key, e.g. {@code boxDepth}.
     * @return the setting, e.g. {@code am2j.shm.boxDepth} / {@code AM2J_SHM_BOXDEPTH}.
     */
    public static Setting of(final String transport, final String key)
    {
        return new Setting("am2j." + transport + "." + key,
            ("AM2J_" + transport + "_" + key).toUpperCase(Locale.ROOT).replace('.', '_'));
    }

    /**
     * @param variable an environment variable that has no system property (one a launcher sets).
     * @return the setting.
     */
    public static Setting variable(final String variable)
    {
        return new Setting(null, AmException.checkNotNull("variable", variable));
    }

    /**
     * @param property a system property that has no environment variable.
     * @return the setting.
     */
    public static Setting property(final String property)
    {
        return new Setting(AmException.checkNotNull("property", property), null);
    }

    /**
     * @return both names for a message: {@code system property P or environment variable V}, or the one there is.
     */
    public String describe()
    {
        if (null == variable)
        {
            return "system property " + property;
        }
        return null == property ? "environment variable " + variable :
            "system property " + property + " or environment variable " + variable;
    }

    @Override
    public String toString()
    {
        return null == property ? variable : null == variable ? property : property + " / " + variable;
    }
}
