package org.am2j.polling;

import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.AtomicBuffer;
import org.am2j.api.EndpointName;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.MessageSink;
import org.am2j.spi.Route;
import org.am2j.spi.Transport;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportQueues;
import org.am2j.spi.TransportProvider;

/**
 * A test network transport, {@code countingnet}, that reaches nothing: each endpoint's poll counts itself, checks
 * the budget the core gives it and says it handled {@link #FOUND_PER_POLL} messages, so a test sees exactly when the
 * core polls the network and what it tells the scheduler.
 */
public final class CountingNetworkTransport implements TransportProvider, Transport
{
    /** The transport's name. */
    public static final String NAME = "countingnet";
    /** What every poll of an endpoint reports as handled. */
    static final int FOUND_PER_POLL = 2;

    /** Polls of every endpoint of this transport so far. */
    static final AtomicLong POLLS = new AtomicLong();
    /** Polls that were given a budget other than {@link #expectedBudget}. */
    static final AtomicLong WRONG_BUDGETS = new AtomicLong();
    /** The network budget the scripted scheduler hands out. */
    static volatile int expectedBudget;

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
        return 100;
    }

    @Override
    public boolean isNetwork()
    {
        return true;
    }

    @Override
    public boolean canReach(final EndpointName name)
    {
        return false;
    }

    @Override
    public TransportQueues attach(final EndpointHost host)
    {
        return new TransportQueues()
        {
            @Override
            public String address()
            {
                return null;
            }

            @Override
            public void named(final EndpointName name)
            {
            }

            @Override
            public Route connect(final EndpointName destination, final long tag)
            {
                return null;
            }

            @Override
            public int poll(final MessageSink sink, final int budget, final boolean repliesOnly)
            {
                POLLS.incrementAndGet();
                if (budget != expectedBudget)
                {
                    WRONG_BUDGETS.incrementAndGet();
                }
                return FOUND_PER_POLL;
            }

            @Override
            public boolean hasPending()
            {
                return false;
            }

            @Override
            public void sleeping(final boolean sleeping)
            {
            }

            @Override
            public void tagChanged(final long tag)
            {
            }

            @Override
            public void close()
            {
            }
        };
    }

    @Override
    public AtomicBuffer allocateSegment(final EndpointHost host, final int length)
    {
        return null;
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
}
