package org.am2j.shm;

import static org.am2j.shm.RankSupport.checkEquals;

import java.util.function.IntConsumer;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.Endpoint;

/**
 * What a rank of a two-rank request/reply program counts, and the handlers that count it: rank 0 answers each request
 * on the request handler with a reply carrying its first argument; a request on the end handler ends rank 0's loop;
 * handler 0 counts the messages returned to their sender. The handlers run on the thread that polls, which is the one
 * that reads the counts: plain fields do.
 */
final class RequestReplyCounts
{
    /** Requests rank 0 answered. */
    long handled;
    /** Replies that came back to rank 1. */
    long replies;
    /** Requests (not the end request) returned to their sender. */
    long returnedRequests;
    /** Replies returned to their sender. */
    long returnedReplies;
    /** Rank 0 got the end request. */
    boolean done;
    /** The end request came back to its sender. */
    boolean doneReturned;

    private final int requestHandler;
    private final int replyHandler;
    private final int endHandler;

    RequestReplyCounts(final int requestHandler, final int replyHandler, final int endHandler)
    {
        this.requestHandler = requestHandler;
        this.replyHandler = replyHandler;
        this.endHandler = endHandler;
    }

    /**
     * Install the request handler (counts and replies), the reply handler and the end handler.
     */
    void installRequestReply(final Endpoint endpoint)
    {
        endpoint.handler(requestHandler, (token, msg) ->
        {
            handled++;
            token.reply(replyHandler, msg.arg(0));
        });
        endpoint.handler(replyHandler, (token, msg) -> replies++);
        endpoint.handler(endHandler, (token, msg) -> done = true);
    }

    /**
     * Install handler 0 so that it counts what is returned: replies, requests, and the end request apart.
     */
    void installReturnCount(final Endpoint endpoint)
    {
        endpoint.handler(0, (token, msg) ->
        {
            if (!msg.opcode().isRequest())
            {
                returnedReplies++;
            }
            else if (endHandler == msg.handlerIndex())
            {
                doneReturned = true;
            }
            else
            {
                returnedRequests++;
            }
        });
    }

    /**
     * Rank 0: poll until the end request has come; fail the rank when it has not within {@code timeoutMillis}.
     */
    void serveUntilDone(final Bundle bundle, final long timeoutMillis)
    {
        RankSupport.pollUntil(bundle, () -> done, RankSupport.deadline(timeoutMillis),
            () -> "rank 0: handled " + handled + ", no end");
    }

    /**
     * Rank 1, once no more faults are made: send {@code count} requests ({@code send} takes the index of each, from
     * {@code first} on), polling after each, then poll until every one is answered and print
     * {@code rank 1 phase 2: <count> replies of <count> requests}. A request returned meanwhile fails the rank
     * ({@code returnedWhat} names the check), and so do answers still missing after 30 s ({@code missingWhy} says
     * what that means).
     */
    void sendAndAwaitAllAnswered(
        final Bundle bundle,
        final IntConsumer send,
        final int first,
        final int count,
        final String returnedWhat,
        final String missingWhy)
    {
        final long repliesBefore = replies;
        final long returnedBefore = returnedRequests;
        for (int i = 0; i < count; i++)
        {
            send.accept(first + i);
            bundle.poll();
        }
        // Each poll round first checks that no request came back.
        RankSupport.pollUntil(bundle, () ->
            {
                if (replies - repliesBefore >= count)
                {
                    return true;
                }
                checkEquals(returnedBefore, returnedRequests, returnedWhat);
                return false;
            },
            RankSupport.deadline(30_000),
            () -> "rank 1 phase 2: " + (replies - repliesBefore) + " of " + count + " replies: " + missingWhy);
        System.out.println("rank 1 phase 2: " + count + " replies of " + count + " requests");
    }

    /**
     * Rank 1: send the end request to rank 0 until it is not returned: after each send, poll until it comes back or
     * 2 s have passed; one still not returned then was taken.
     */
    void sendEndUntilTaken(final Bundle bundle, final Endpoint endpoint)
    {
        do
        {
            doneReturned = false;
            checkEquals(Am.OK, endpoint.request(0, endHandler), "rank 1: done");
            final long deadline = RankSupport.deadline(2_000);
            while (!doneReturned && !RankSupport.expired(deadline))
            {
                bundle.poll();
            }
        }
        while (doneReturned);
    }
}
