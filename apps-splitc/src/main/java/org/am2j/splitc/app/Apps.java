package org.am2j.splitc.app;

import java.util.ArrayList;
import java.util.List;

import org.am2j.splitc.con.Con;
import org.am2j.splitc.em3d.Em3d;
import org.am2j.splitc.fft.Fft3d;

/**
 * The applications {@code bin/am2j app} runs, by name.
 */
public final class Apps
{
    private Apps()
    {
    }

    /**
     * @return every application, in the order of the usage text.
     */
    public static List<SplitCApp> all()
    {
        final List<SplitCApp> apps = new ArrayList<>();
        apps.add(new Fft3d());
        apps.add(new Con());
        apps.add(new Em3d());
        return apps;
    }

    /**
     * @param name on the command line.
     * @return the application.
     * @throws IllegalArgumentException naming the known ones when there is none of that name.
     */
    public static SplitCApp byName(final String name)
    {
        final List<String> names = new ArrayList<>();
        for (final SplitCApp app : all())
        {
            if (app.name().equals(name))
            {
                return app;
            }
            names.add(app.name());
        }
        throw new IllegalArgumentException("unknown application '" + name + "'; known: " + String.join(", ", names));
    }
}
