package org.am2j.core;

/**
 * Freeing an endpoint (AM_FreeEndpoint): every transport refuses new messages, what is queued goes back to where it
 * came from, then the transports and the counters are released.
 */
final class Closing
{
    /**
     * Most passes over a transport's queues while an endpoint is freed: each pass after the first follows a handler 0
     * that threw (and consumed its message), so the bound only stops a transport that keeps failing by itself.
     */
    private static final int RETURN_PASSES = 1 << 16;

    /** Handler 0 failures logged while an endpoint is freed; the rest are counted in one line. */
    private static final int RETURN_FAILURES_LOGGED = 8;

    private final EndpointCore endpoint;
    private final AmRuntime runtime;

    Closing(final EndpointCore endpoint, final AmRuntime runtime)
    {
        this.endpoint = endpoint;
        this.runtime = runtime;
    }

    /**
     * Have every transport refuse new messages, then send back what is queued: requests to their senders' handler 0
     * with EBADENDPOINT, replies to their repliers' with EREPLYREJECTED (see
     * {@link org.am2j.spi.TransportQueues#returnQueued}). A PAR bundle's endpoint is read by one thread at a time:
     * the poll ownership is taken first, waiting for a thread that holds it to finish its poll, and kept until the
     * end, so no poll of another thread delivers a message that this hands back, or the other way round.
     */
    void returnQueued()
    {
        final DispatchContext context = DispatchContext.current();
        final Poller poller = endpoint.poller;
        final boolean owned = !endpoint.bundle.isSeq() && poller.own();
        try
        {
            for (final Dispatcher dispatcher : endpoint.dispatchers)
            {
                returnQueued(dispatcher, context);
            }
        }
        finally
        {
            if (owned)
            {
                poller.disown();
            }
        }
    }

    private void returnQueued(final Dispatcher dispatcher, final DispatchContext context)
    {
        // A handler 0 that throws (run for the endpoint's own returned messages) stops one pass, not the freeing:
        // the transport goes on from where it stopped, and the failure is logged.
        int failures = 0;
        try
        {
            for (int pass = 0; pass < RETURN_PASSES; pass++)
            {
                try
                {
                    dispatcher.returnQueued(context);
                    return;
                }
                catch (final RuntimeException ex)
                {
                    if (++failures <= RETURN_FAILURES_LOGGED)
                    {
                        runtime.log("returning the messages queued for endpoint " + endpoint.endpointId + " in " +
                            dispatcher.transportQueues, ex);
                    }
                }
            }
        }
        finally
        {
            if (failures > RETURN_FAILURES_LOGGED)
            {
                runtime.log("returning the messages queued for endpoint " + endpoint.endpointId + " in " +
                    dispatcher.transportQueues + ": " + failures + " failures in all", null);
            }
        }
    }

    /**
     * Close every transport's part of the endpoint, logging (not throwing) what fails.
     *
     * @param dispatchers the endpoint's dispatchers; null entries (a transport that did not attach) are skipped.
     */
    void releaseTransports(final Dispatcher[] dispatchers)
    {
        for (final Dispatcher dispatcher : dispatchers)
        {
            if (null != dispatcher)
            {
                try
                {
                    dispatcher.transportQueues.close();
                }
                catch (final RuntimeException ex)
                {
                    runtime.log("closing the " + dispatcher.transportQueues + " part of endpoint " +
                        endpoint.endpointId, ex);
                }
            }
        }
    }
}
