package org.am2j.core;

import java.util.Map;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.EndpointName;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportQueues;
import org.am2j.spi.TransportProvider;

/**
 * A test transport, {@code fault}, that reaches only names made by {@link #name(ReturnStatus)}: its routes refuse
 * every message with that status, as a network would after its retry limit. It lets tests see every return status
 * through the core's returned-message path without a network.
 */
public final class FaultTransport implements TransportProvider, Transport
{
    /** The transport's name. */
    public static final String NAME = "fault";

    /** The thread whose calls of {@link #beforePoll()} are counted, or null for none. */
    private static volatile Thread counted;
    /** Calls of {@link #beforePoll()} by {@link #counted}: written by that thread only. */
    private static long beforePolls;

    /**
     * Count the calls of {@link #beforePoll()} the calling thread makes from now on, from zero; stop counting with
     * {@link #stopCounting()}.
     */
    static void countBeforePolls()
    {
        beforePolls = 0;
        counted = Thread.currentThread();
    }

    static void stopCounting()
    {
        counted = null;
    }

    /**
     * @return calls of {@link #beforePoll()} made by the counted thread since {@link #countBeforePolls()}.
     */
    static long beforePolls()
    {
        return beforePolls;
    }

    /**
     * @param status every message to the name comes back with.
     * @return a name on another node that only this transport reaches.
     */
    static EndpointName name(final ReturnStatus status)
    {
        return new EndpointName("fault-node", 0x5EED_0000_0000_0000L + status.code(), 1, 0,
            Map.of(NAME, status.name()));
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Transport open(final TransportContext context)
    {
        return this;
    }

    @Override
    public int cost()
    {
        return 50;
    }

    @Override
    public boolean isNetwork()
    {
        return false;
    }

    @Override
    public boolean canReach(final EndpointName name)
    {
        return null != name.address(NAME);
    }

    @Override
    public TransportQueues attach(final EndpointHost host)
    {
        return new IdleTransportQueues()
        {
            @Override
            public Route connect(final EndpointName destination, final long tag)
            {
                return canReach(destination) ? new Refusing(destination) : null;
            }
        };
    }

    @Override
    public AtomicBuffer allocateSegment(final EndpointHost host, final int length)
    {
        return null;
    }

    @Override
    public void beforePoll()
    {
        if (Thread.currentThread() == counted)
        {
            beforePolls++;
        }
    }

    @Override
    public boolean canBlock()
    {
        return false;
    }

    @Override
    public long prepareBlock()
    {
        return 0;
    }

    @Override
    public void block(final long ticket, final long nanos)
    {
    }

    @Override
    public void wakeup()
    {
    }

    @Override
    public void close()
    {
    }

    private static final class Refusing implements Route
    {
        private final EndpointName peer;
        private final int status;

        Refusing(final EndpointName peer)
        {
            this.peer = peer;
            this.status = ReturnStatus.valueOf(peer.address(NAME)).code();
        }

        @Override
        public int send(final OutboundMessage message)
        {
            return status;
        }

        @Override
        public EndpointName peer()
        {
            return peer;
        }

        @Override
        public String transport()
        {
            return NAME;
        }
    }
}
