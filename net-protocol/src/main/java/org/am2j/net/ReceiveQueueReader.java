package org.am2j.net;

import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

/**
 * The host's side of an endpoint's two receive queues in its network queue block: reads replies first, then
 * requests, and skips a queue already being read further up the thread's stack (a handler that polls while it waits
 * for credit): a ring's read is not re-entrant, and the outer read goes on with that queue. Host thread.
 */
final class ReceiveQueueReader
{
    final OneToOneRingBuffer requests;
    final OneToOneRingBuffer replies;
    private final ControlledMessageHandler requestReader;
    private final ControlledMessageHandler replyReader;
    /** The request queue is being read (or a request taken elsewhere is being handled) on this thread's stack. */
    boolean readingRequests;
    /** The same for the reply queue. */
    boolean readingReplies;

    /**
     * @param requests      the request receive queue.
     * @param requestReader reads a record of it; its flyweight is its own, so a nested read of the other queue does
     *                      not move it.
     * @param replies       the reply receive queue.
     * @param replyReader   reads a record of that one.
     */
    ReceiveQueueReader(final OneToOneRingBuffer requests, final ControlledMessageHandler requestReader,
        final OneToOneRingBuffer replies, final ControlledMessageHandler replyReader)
    {
        this.requests = requests;
        this.requestReader = requestReader;
        this.replies = replies;
        this.replyReader = replyReader;
    }

    /**
     * @param budget      most messages to handle.
     * @param repliesOnly true to leave the request queue alone (a reply waiting for space).
     * @return messages handled.
     */
    int read(final int budget, final boolean repliesOnly)
    {
        int handled = 0;
        if (!readingReplies)
        {
            readingReplies = true;
            try
            {
                handled += replies.controlledRead(replyReader, budget);
            }
            finally
            {
                readingReplies = false;
            }
        }
        if (!repliesOnly && !readingRequests && handled < budget)
        {
            readingRequests = true;
            try
            {
                handled += requests.controlledRead(requestReader, budget - handled);
            }
            finally
            {
                readingRequests = false;
            }
        }
        return handled;
    }

    /**
     * Mark a queue as being read, or no more, while its message is handled outside {@link #read}.
     *
     * @param replyQueue which queue.
     * @param reading    whether it is being read.
     */
    void reading(final boolean replyQueue, final boolean reading)
    {
        if (replyQueue)
        {
            readingReplies = reading;
        }
        else
        {
            readingRequests = reading;
        }
    }

    /**
     * @return true when either queue holds a record.
     */
    boolean pending()
    {
        return pending(requests) || pending(replies);
    }

    private static boolean pending(final OneToOneRingBuffer queue)
    {
        // The NIC commits a record (ordered store) before it reads the host's sleeping flag.
        return queue.producerPosition() != queue.consumerPosition();
    }
}
