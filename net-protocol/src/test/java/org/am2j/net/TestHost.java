package org.am2j.net;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.TransportCounters;

/**
 * The core's side of an endpoint, as far as the network transport sees it, for tests that drive the transport
 * without the core.
 */
final class TestHost implements EndpointHost
{
    final int id;
    volatile long tag;
    volatile AtomicBuffer segment;
    volatile EndpointName name;
    final AtomicInteger arrivals = new AtomicInteger();
    final AtomicInteger retransmits = new AtomicInteger();
    NetQueues endpoint;
    NetTransport transport;

    TestHost(final int id, final long tag)
    {
        this.id = id;
        this.tag = tag;
    }

    /**
     * Attach to a transport and name the endpoint, as the core does.
     */
    static TestHost attach(final NetTransport transport, final long processId, final int id, final long tag)
    {
        final TestHost host = new TestHost(id, tag);
        host.transport = transport;
        host.endpoint = (NetQueues)transport.attach(host);
        host.name = new EndpointName("node-" + processId, processId, 1, id,
            Map.of(NetTransport.NAME, host.endpoint.address()));
        host.endpoint.named(host.name);
        return host;
    }

    void segment(final int bytes)
    {
        segment = new UnsafeBuffer(new byte[bytes]);
        endpoint.segmentChanged(segment);
    }

    @Override
    public int endpointId()
    {
        return id;
    }

    @Override
    public EndpointName name()
    {
        return name;
    }

    @Override
    public long tag()
    {
        return tag;
    }

    @Override
    public AtomicBuffer segment()
    {
        return segment;
    }

    @Override
    public int checkSegment(final long segmentOffset, final int length)
    {
        return org.am2j.spi.SegmentBounds.check(segment, segmentOffset, length);
    }

    @Override
    public void signalArrival()
    {
        arrivals.incrementAndGet();
        // As the core does: wake the process's blocker (here the NIC's selector).
        if (null != transport)
        {
            transport.wakeup();
        }
    }

    @Override
    public TransportCounters counters(final String transport)
    {
        return new TransportCounters()
        {
            @Override
            public void queueFullBackoff()
            {
            }

            @Override
            public void retransmit()
            {
                retransmits.incrementAndGet();
            }

            @Override
            public void drop()
            {
            }
        };
    }

    @Override
    public boolean isClosed()
    {
        return false;
    }
}
