package org.am2j.core.inproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.spi.TransportQueues;
import org.junit.jupiter.api.Test;

/**
 * {@code am2j.inproc.selfOnly}: the in-process transport then routes an endpoint only to itself.
 */
class SelfOnlyTest
{
    @Test
    void byDefaultEveryEndpointOfTheProcessIsReached()
    {
        final InProcessTransport transport = new InProcessTransport(InProcessTestSupport.context(null));
        final TransportQueues a = transport.attach(new InProcessTestSupport.Host(0));
        transport.attach(new InProcessTestSupport.Host(1));
        assertNotNull(a.connect(InProcessTestSupport.name(0), Tags.ALL));
        assertNotNull(a.connect(InProcessTestSupport.name(1), Tags.ALL));
        assertNull(a.connect(new EndpointName("node", InProcessTestSupport.PROCESS_ID + 1, 1, 1, Map.of()), Tags.ALL));
    }

    @Test
    void selfOnlyReachesTheEndpointItselfAndNoOther()
    {
        final InProcessTransport transport = new InProcessTransport(InProcessTestSupport.context("true"));
        final TransportQueues a = transport.attach(new InProcessTestSupport.Host(0));
        final TransportQueues b = transport.attach(new InProcessTestSupport.Host(1));
        assertNotNull(a.connect(InProcessTestSupport.name(0), Tags.ALL));
        assertNull(a.connect(InProcessTestSupport.name(1), Tags.ALL));
        assertNotNull(b.connect(InProcessTestSupport.name(1), Tags.ALL));
        assertNull(b.connect(InProcessTestSupport.name(0), Tags.ALL));
    }

    @Test
    void aValueOtherThanTrueOrFalseIsRefused()
    {
        final AmException error = assertThrows(AmException.class, () -> new InProcessTransport(InProcessTestSupport.context("yes")));
        assertEquals(AmError.BAD_ARG, error.error());
    }
}
