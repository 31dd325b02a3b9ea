package org.am2j.net;

import java.util.HashMap;
import java.util.Map;

import org.am2j.spi.TransportContext;

/**
 * A transport context for NICs built inside a test: settings from a map (keys without the {@code am2j.net.}
 * prefix), loopback by default.
 */
class TestContext implements TransportContext
{
    private final Map<String, String> settings = new HashMap<>();
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

    @Override
    public String property(final String transport, final String key, final String defaultValue)
    {
        return settings.getOrDefault(key, defaultValue);
    }
}
