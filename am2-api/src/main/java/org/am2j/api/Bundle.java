package org.am2j.api;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A bundle of endpoints (AM_AllocateBundle): the unit of polling and of thread-safety. Allocate one with
 * {@link Am#allocateBundle(BundleKind)}.
 * <p>
 * {@link #poll()} runs the handlers of messages waiting in any of the bundle's endpoints. With
 * {@link EventMask#NOTEMPTY} set, {@link #waitSema()} sleeps without using the CPU until a message arrives.
 */
public interface Bundle extends AutoCloseable
{
    /**
     * @return SEQ or PAR.
     */
    BundleKind kind();

    /**
     * Allocate an endpoint in this bundle (AM_AllocateEndpoint), served by every transport present.
     *
     * @return the endpoint, with tag {@link Tags#NONE}, an empty translation table and the default handler 0.
     * @throws AmException {@link AmError#RESOURCE} when a transport cannot create its part of the endpoint.
     */
    Endpoint allocateEndpoint();

    /**
     * Move an endpoint of another bundle into this one (AM_MoveEndpoint).
     *
     * @param endpoint an open endpoint, not in use by a handler.
     */
    void moveEndpoint(Endpoint endpoint);

    /**
     * @return the open endpoints of this bundle, in allocation order (a snapshot).
     */
    List<Endpoint> endpoints();

    /**
     * Poll every endpoint of the bundle and run the handlers of the messages found (AM_Poll). Must not be called from
     * inside a handler.
     *
     * @return number of messages handled, 0 when none was waiting.
     */
    int poll();

    /**
     * @param mask the events {@link #waitSema()} waits for (AM_SetEventMask).
     */
    void eventMask(EventMask mask);

    /**
     * @return the current event mask (AM_GetEventMask).
     */
    EventMask eventMask();

    /**
     * Sleep until an event of the mask happens (AM_WaitSema): with {@link EventMask#NOTEMPTY}, until a message waits in
     * an endpoint of the bundle. Uses no CPU while sleeping. The mask is one-shot: it is reset to
     * {@link EventMask#NOEVENTS} when the call returns. The message is not handled: call {@link #poll()}.
     *
     * @throws AmException {@link AmError#BAD_ARG} when the mask is {@link EventMask#NOEVENTS}.
     */
    void waitSema();

    /**
     * {@link #waitSema()} with a time limit.
     *
     * @param timeout longest wait, 0 or more.
     * @param unit    of the timeout.
     * @return true when the event happened, false when the time ran out (the mask is then left set).
     */
    boolean waitSema(long timeout, TimeUnit unit);

    /**
     * Free the bundle and all its endpoints (AM_FreeBundle), each as {@link Endpoint#close()} does, returning the
     * messages queued for them. Closing twice is harmless.
     */
    @Override
    void close();

    /**
     * @return true once the bundle is closed.
     */
    boolean isClosed();
}
