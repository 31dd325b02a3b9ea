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
    private final Progress progress;
    /** Put messages (scalar puts and chunks of bulk puts) not yet acknowledged. */
    private int pending;

    Puts(final GlobalSpace space, final Progress progress)
    {
        this.space = space;
        this.progress = progress;
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

    void putLong(final long gp, final long value)
    {
        final int r = space.checkTarget(gp, 8);
        if (r == space.rank)
        {
            space.segment.putLong(GlobalPtr.offset(gp), value);
            return;
        }
        progress.beforeSend();
        space.endpoint.request(r, H_PUT, space.rank, GlobalPtr.offset(gp), (int)value, (int)(value >>> 32));
        space.counts.countShort(space.local[r]);
        pending++;
    }

    void putInt(final long gp, final int value)
    {
        final int r = space.checkTarget(gp, 4);
        if (r == space.rank)
        {
            space.segment.putInt(GlobalPtr.offset(gp), value);
            return;
        }
        progress.beforeSend();
        space.endpoint.request(r, H_PUT, space.rank, GlobalPtr.offset(gp), value);
        space.counts.countShort(space.local[r]);
        pending++;
    }

    // Handlers: they run inside this rank's polls, in its thread.

    private void onPut(final Token token, final Message msg)
    {
        final int requester = msg.arg(0);
        final int offset = msg.arg(1);
        if (4 == msg.argCount())
        {
            space.segment.putLong(offset, Handlers.join(msg.arg(2), msg.arg(3)));
        }
        else
        {
            space.segment.putInt(offset, msg.arg(2));
        }
        token.reply(H_PUT_ACK);
        space.counts.countShort(space.local[requester]);
    }

    private void onPutAck(final Token token, final Message msg)
    {
        pending--;
    }
}
