package org.am2j.core.inproc;

import java.util.Map;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.Settings;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportCounters;

/**
 * In-process transports built inside a test: a context (with {@code am2j.inproc.selfOnly} as given) and endpoint
 * hosts that accept every tag.
 */
final class InProcessTestSupport
{
    static final long PROCESS_ID = 42;

    private InProcessTestSupport()
    {
    }

    static EndpointName name(final int endpointId)
    {
        return new EndpointName("node", PROCESS_ID, 1, endpointId, Map.of());
    }

    static TransportContext context(final String selfOnly)
    {
        return new TransportContext()
        {
            @Override
            public String node()
            {
                return "node";
            }

            @Override
            public long processId()
            {
                return PROCESS_ID;
            }

            @Override
            public long pid()
            {
                return 1;
            }

            @Override
            public String job()
            {
                return "job";
            }

            @Override
            public Settings settings()
            {
                return Settings.of(null == selfOnly ? Map.of() : Map.of("am2j.inproc.selfOnly", selfOnly), Map.of());
            }
        };
    }

    static final class Host implements EndpointHost
    {
        private final int id;

        Host(final int id)
        {
            this.id = id;
        }

        @Override
        public int endpointId()
        {
            return id;
        }

        @Override
        public EndpointName name()
        {
            return InProcessTestSupport.name(id);
        }

        @Override
        public long tag()
        {
            return Tags.ALL;
        }

        @Override
        public AtomicBuffer segment()
        {
            return null;
        }

        @Override
        public int checkSegment(final long segmentOffset, final int length)
        {
            return 0;
        }

        @Override
        public void signalArrival()
        {
        }

        @Override
        public TransportCounters counters(final String transport)
        {
            return null;
        }

        @Override
        public boolean isClosed()
        {
            return false;
        }
    }
}
