package org.am2j.net;

import java.util.HashMap;
import java.util.Map;

import org.am2j.spi.Settings;
import org.am2j.spi.TransportContext;

/**
 * A transport context for NICs built inside a test: settings from a map (keys without the {@code am2j.net.}
 * prefix), loopback by default.
 */
class TestContext implements TransportContext
{
    final Map<String, String> settings = new HashMap<>();
    private final long processId;

    TestContext(final long processId, final String... keyValues)
    {
        this.processId = processId;
        settings.put("host", "127.0.0.1");
        for (int i = 0; i + 1 < keyValues.length; i += 2)
        {
            settings.put(keyValues[i], keyValues[i + 1]);
        }
    }

    @Override
    public String node()
    {
        return "node-" + processId;
    }

    @Override
    public long processId()
    {
        return processId;
    }

    @Override
    public long pid()
    {
        return ProcessHandle.current().pid();
    }

    @Override
    public String job()
    {
        return "test";
    }

    /**
     * @return the settings of the map as system properties ({@code am2j.net.<key>}), no environment variables.
     */
    @Override
    public Settings settings()
    {
        return new Settings(property -> settings.get(property.substring(property.lastIndexOf('.') + 1)),
            variable -> null);
    }
}
