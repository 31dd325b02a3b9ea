package org.am2j.splitc;

import static org.am2j.splitc.Handlers.H_PUT;
import static org.am2j.splitc.Handlers.H_PUT_ACK;

import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.Token;

/**
 * Split-phase scalar puts of one rank and their handlers: a put is a short request with the value
 * ({@link Handlers#H_PUT}); the owner writes it into its segment and acknowledges with a short reply
 * ({@link Handlers#H_PUT_ACK}). A put, or a chunk of a bulk put ({@link BulkStaging}), is complete when its
 * acknowledgement has been handled.
 */
final class Puts
{
    private final GlobalSpace space;
    /** Put messages (scalar puts and chunks of bulk puts) not yet acknowledged. */
    private int pending;

    Puts(final GlobalSpace space)
    {
        this.space = space;
    }

    void install(final Endpoint endpoint)
    {
        endpoint.handler(H_PUT, this::onPut);
        endpoint.handler(H_PUT_ACK, this::onPutAck);
    }

    /**
     * @return put messages (a bulk put counts one per chunk) not yet acknowledged.
     */
    int pending()
    {
        return pending;
    }

    /**
     * Count a message that its owner acknowledges with {@link Handlers#H_PUT_ACK}, sent by another concern (a chunk
     * of a bulk put).
     */
    void sent()
    {
        pending++;
    }

    /**
     * Start a put of a scalar of 4 or 8 bytes (a double as its raw bits).
     */
    void put(final long gp, final long value, final int bytes)
    {
        final int r = space.checkTarget(gp, bytes);
        if (r == space.rank)
        {
            space.writeScalar(GlobalPtr.offset(gp), value, bytes);
            return;
        }
        space.sendScalar(r, H_PUT, GlobalPtr.offset(gp), value, bytes);
        pending++;
    }

    // Handlers: they run inside this rank's polls, in its thread.

    private void onPut(final Token token, final Message msg)
    {
        space.writeScalar(msg);
        token.reply(H_PUT_ACK);
        space.counts.countShort(space.local[msg.arg(0)]);
    }

    private void onPutAck(final Token token, final Message msg)
    {
        pending--;
    }
}
