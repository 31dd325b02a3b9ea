package org.am2j.core.inproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportCounters;
import org.am2j.spi.TransportEndpoint;
import org.junit.jupiter.api.Test;

/**
 * {@code am2j.inproc.selfOnly}: the in-process transport then routes an endpoint only to itself.
 */
class SelfOnlyTest
{
    private static final long PROCESS_ID = 42;

    @Test
    void byDefaultEveryEndpointOfTheProcessIsReached()
    {
        final InProcessTransport transport = new InProcessTransport(context(null));
        final TransportEndpoint a = transport.attach(new Host(0));
        transport.attach(new Host(1));
        assertNotNull(a.connect(name(0), Tags.ALL));
        assertNotNull(a.connect(name(1), Tags.ALL));
        assertNull(a.connect(new EndpointName("node", PROCESS_ID + 1, 1, 1, Map.of()), Tags.ALL));
    }

    @Test
    void selfOnlyReachesTheEndpointItselfAndNoOther()
    {
        final InProcessTransport transport = new InProcessTransport(context("true"));
        final TransportEndpoint a = transport.attach(new Host(0));
        final TransportEndpoint b = transport.attach(new Host(1));
        assertNotNull(a.connect(name(0), Tags.ALL));
        assertNull(a.connect(name(1), Tags.ALL));
        assertNotNull(b.connect(name(1), Tags.ALL));
        assertNull(b.connect(name(0), Tags.ALL));
    }

    @Test
    void aValueOtherThanTrueOrFalseIsRefused()
    {
        final AmException error = assertThrows(AmException.class, () -> new InProcessTransport(context("yes")));
        assertEquals(AmError.BAD_ARG, error.error());
    }

    private static EndpointName name(final int endpointId)
    {
        return new EndpointName("node", PROCESS_ID, 1, endpointId, Map.of());
    }

    private static TransportContext context(final String selfOnly)
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
            public String property(final String transport, final String key, final String defaultValue)
            {
                return "selfOnly".equals(key) && null != selfOnly ? selfOnly : defaultValue;
            }
        };
    }

    private static final class Host implements EndpointHost
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
            return SelfOnlyTest.name(id);
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
