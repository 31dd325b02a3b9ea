package org.am2j.core.inproc;

import org.am2j.api.EndpointName;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.MessageSink;
import org.am2j.spi.ReceiveQueues;
import org.am2j.spi.Route;
import org.am2j.spi.TransportQueues;

/**
 * An endpoint's in-process receive side: a request queue and a reply queue (returned messages travel with replies,
 * so request floods never hold them up), and the sleeping flag senders check to wake the owner.
 * <p>
 * Most endpoints of a multi-process program never receive an in-process message. Until the first sender sets
 * {@link #hasSenders}, a poll returns at once without reading the queues, and a SEQ bundle's poll loop leaves them
 * out altogether (their {@link ReceiveQueues#inUse()} is false until then).
 */
final class InProcessQueues implements TransportQueues, InProcessRing.RecordReader
{
    private final InProcessTransport transport;
    private final EndpointHost host;
    private final InProcessRing requests;
    private final InProcessRing replies;
    private final InProcessRoute inboundRoute;
    /**
     * The flyweights of the two rings: a nested poll of the reply ring (a reply waiting for space) must not move the
     * flyweight of the request being handled.
     */
    private final InProcessInbound requestInbound;
    private final InProcessInbound replyInbound;
    private volatile boolean sleeping;
    private volatile boolean closed;

    /**
     * Set for good by the first sender, before it claims queue space ({@link #senderArrived()}); a poll reads the
     * queues only once it is set. A poller that sees a message in a queue, or its claimed space (waitSema's
     * {@link #hasPending()}), also sees the flag, which was set before; one that polls while a first message is
     * being sent may miss it and finds it at the next poll.
     */
    private volatile boolean hasSenders;
    /** True while {@link #returnQueued} reads the queues (on the freeing thread, which no poll runs beside). */
    private boolean draining;
    private boolean readingRequests;
    private boolean readingReplies;

    /** The rings as a SEQ bundle's poll loop sees them. */
    private final ReceiveQueues receiveQueues = new ReceiveQueues()
    {
        @Override
        public boolean idle(final boolean repliesOnly)
        {
            // Nothing committed at the head of either ring: a load of each head and of the word the next record's
            // length is written to, lines no one writes while the rings stay empty.
            return !replies.hasCommitted() && (repliesOnly || !requests.hasCommitted());
        }

        @Override
        public int receive(final MessageSink sink, final int budget, final boolean repliesOnly)
        {
            return poll(sink, budget, repliesOnly);
        }

        @Override
        public boolean inUse()
        {
            return hasSenders;
        }
    };

    InProcessQueues(final InProcessTransport transport, final EndpointHost host, final int ringBytes)
    {
        this.transport = transport;
        this.host = host;
        this.requests = new InProcessRing(ringBytes);
        this.replies = new InProcessRing(ringBytes);
        this.inboundRoute = new InProcessRoute(this);
        this.requestInbound = new InProcessInbound(transport, this, requests);
        this.replyInbound = new InProcessInbound(transport, this, replies);
    }

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
        return transport.connect(host.endpointId(), destination);
    }

    @Override
    public ReceiveQueues receiveQueues()
    {
        return receiveQueues;
    }

    @Override
    public int poll(final MessageSink sink, final int budget, final boolean repliesOnly)
    {
        // Closed: returnQueued() is the queues' reader now (a poll here is one made by a returned message waiting
        // for space, from inside it).
        if (!hasSenders || closed)
        {
            return 0;
        }
        int handled = 0;
        // A queue already being read further up this thread's stack is skipped: the ring's read is not re-entrant,
        // and the outer read will go on with it. The sink travels with the read (no field holds it: a reference
        // store per poll would cost a garbage collector barrier).
        if (!readingReplies)
        {
            readingReplies = true;
            try
            {
                handled += replies.read(this, replyInbound, sink, budget);
            }
            finally
            {
                readingReplies = false;
            }
        }
        if (!repliesOnly && !readingRequests)
        {
            readingRequests = true;
            try
            {
                handled += requests.read(this, requestInbound, sink, budget);
            }
            finally
            {
                readingRequests = false;
            }
        }
        return handled;
    }

    /**
     * One committed record of a ring, handed over by its {@link InProcessRing#read}.
     */
    @Override
    public void deliver(
        final InProcessInbound inbound, final MessageSink sink, final int msgTypeId, final int index, final int length)
    {
        // Once closed, only returnQueued() hands messages over: a poll that was already reading when the endpoint
        // was closed without it (at process exit, from the shutdown thread) drops the rest, as it always did.
        if (InProcessRecordDescriptor.MESSAGE_TYPE == msgTypeId && length >= InProcessRecordDescriptor.HEADER_LENGTH &&
            (!closed || draining))
        {
            sink.onMessage(inbound.wrap(index, length));
        }
    }

    @Override
    public boolean hasPending()
    {
        return pending(requests) || pending(replies);
    }

    private static boolean pending(final InProcessRing queue)
    {
        // The producer position is advanced by the sender's claim CAS before it reads our sleeping flag.
        return queue.producerPosition() != queue.consumerPosition();
    }

    @Override
    public void sleeping(final boolean sleeping)
    {
        // Volatile store, then the caller's volatile reads of the queue positions: the Dekker pair with the
        // sender's tail CAS then sleeping-flag read.
        this.sleeping = sleeping;
    }

    @Override
    public void tagChanged(final long tag)
    {
    }

    /**
     * Refuse, then hand over what is queued. The proof that nothing slips in after the drain is a Dekker pair with
     * {@link InProcessRoute#send}: there a sender claims its record (a CAS of the queue's tail, a full fence) and
     * then reads {@link #closed}; here the volatile store of {@link #closed} comes before the volatile read of each
     * queue's producer position. So either the sender sees {@code closed} and aborts its claim (the record becomes
     * padding, and the message goes back to its sender at once as refused), or its claim lies below the producer
     * position read here and the drain waits until its record is committed and consumed. A sender that checked
     * {@code closed} before claiming and found it false is one of the two cases as well, since it checks again after
     * its claim. In-process senders are threads of this process and finish a claimed record in a bounded number of
     * steps (a failing fill aborts it), so the wait needs no timeout.
     */
    @Override
    public int returnQueued(final MessageSink returns)
    {
        closed = true;
        draining = true;
        try
        {
            return drain(replies, replyInbound, returns) + drain(requests, requestInbound, returns);
        }
        finally
        {
            draining = false;
        }
    }

    private int drain(final InProcessRing queue, final InProcessInbound inbound, final MessageSink returns)
    {
        // Read after the volatile store of closed: every claim below this position was made by a sender that will
        // commit it (or abort it, which the read skips as padding); every claim above it aborts.
        final long end = queue.producerPosition();
        int handed = 0;
        int attempt = 0;
        while (queue.consumerPosition() < end)
        {
            final int read = queue.read(this, inbound, returns, Integer.MAX_VALUE);
            handed += read;
            if (0 == read)
            {
                // A record claimed and not yet committed: its sender is between its claim and its commit.
                attempt = idle(attempt);
            }
        }
        return handed;
    }

    private static int idle(final int attempt)
    {
        if (attempt < 256)
        {
            Thread.onSpinWait();
        }
        else
        {
            Thread.yield();
        }
        return attempt + 1;
    }

    @Override
    public void close()
    {
        closed = true;
        transport.unregister(host.endpointId(), this);
    }

    /**
     * A sender is about to claim space in a queue of this endpoint: from now on polls read the queues.
     */
    void senderArrived()
    {
        if (!hasSenders)
        {
            // Volatile store, once, before the sender's claim CAS: whoever sees the claimed space or the message sees
            // the flag.
            hasSenders = true;
            // The owner's poll loop takes these rings in from its next turn (a poll already under way may miss this
            // first message and finds it at the next one).
            host.receiveQueuesChanged();
        }
    }

    boolean isSleeping()
    {
        return sleeping;
    }

    boolean isClosed()
    {
        return closed;
    }

    EndpointHost host()
    {
        return host;
    }

    InProcessRing requestQueue()
    {
        return requests;
    }

    InProcessRing replyQueue()
    {
        return replies;
    }

    Route inboundRoute()
    {
        return inboundRoute;
    }

    @Override
    public String toString()
    {
        return "inproc endpoint " + host.endpointId();
    }
}
