package org.am2j.core;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Maven artifact that brings each transport and poll scheduler am2j ships, so that an error about one missing
 * from the class path can say what to add. Transports and schedulers are found with {@link java.util.ServiceLoader};
 * a name this table does not know is a third party's and gets no hint.
 */
final class ModuleArtifacts
{
    /** The one dependency that brings the whole library (API, both protocols, the schedulers). */
    static final String ALL = "org.am2j:am2j-all";

    private static final String POLLING = "org.am2j:polling";
    private static final Map<String, String> TRANSPORTS = new LinkedHashMap<>();
    private static final Map<String, String> SCHEDULERS = new LinkedHashMap<>();

    static
    {
        TRANSPORTS.put("shm", "org.am2j:shm-protocol");
        TRANSPORTS.put("net", "org.am2j:net-protocol");
        SCHEDULERS.put("follow", POLLING);
        SCHEDULERS.put("fractional", POLLING);
        SCHEDULERS.put("adaptive", POLLING);
        SCHEDULERS.put("calibrated", POLLING);
    }

    private ModuleArtifacts()
    {
    }

    /**
     * @param transport a transport's name.
     * @return the artifact that brings it, or null when am2j does not ship it.
     */
    static String ofTransport(final String transport)
    {
        return TRANSPORTS.get(transport);
    }

    /**
     * @param present the names of the transports on the class path.
     * @return {@code "; not on the class path: shm (org.am2j:shm-protocol), ...: add them, or org.am2j:am2j-all"} for
     * the transports am2j ships that are missing, or the empty string when none is.
     */
    static String missingTransportsHint(final Collection<String> present)
    {
        final StringBuilder missing = new StringBuilder();
        for (final Map.Entry<String, String> transport : TRANSPORTS.entrySet())
        {
            if (!present.contains(transport.getKey()))
            {
                missing.append(missing.length() == 0 ? "" : ", ")
                    .append(transport.getKey()).append(" (").append(transport.getValue()).append(')');
            }
        }
        return missing.length() == 0 ? "" :
            "; not on the class path: " + missing + ": add the artifact, or " + ALL + " for the whole library";
    }

    /**
     * @param scheduler a poll scheduler's name that no provider on the class path has.
     * @return {@code "; 'follow' comes with org.am2j:polling: add it, or org.am2j:am2j-all"}, or the empty string for a
     * name am2j does not ship.
     */
    static String missingSchedulerHint(final String scheduler)
    {
        final String artifact = SCHEDULERS.get(scheduler);
        return null == artifact ? "" :
            "; '" + scheduler + "' comes with " + artifact + ": add it to the class path, or " + ALL + " for the " +
            "whole library";
    }
}
