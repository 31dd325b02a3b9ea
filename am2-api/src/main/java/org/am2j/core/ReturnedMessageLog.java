package org.am2j.core;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicLong;

import org.am2j.api.Handler;
import org.am2j.api.Message;
import org.am2j.api.Token;

/**
 * The default returned-message handler (handler 0): it counts every returned message and logs the first ones and
 * then every thousandth, so a program that ignores returned messages is told about them without being flooded, and
 * never killed (returned messages are a normal event on a faulty network).
 */
final class ReturnedMessageLog implements Handler
{
    private static final System.Logger LOGGER = System.getLogger("org.am2j");
    private static final long LOGGED_IN_FULL = 10;
    private static final long LOG_EVERY = 1000;

    private final int endpointId;
    private final AtomicLong count = new AtomicLong();

    ReturnedMessageLog(final int endpointId)
    {
        this.endpointId = endpointId;
    }

    @Override
    public void onMessage(final Token token, final Message message)
    {
        final long n = count.incrementAndGet();
        if (n <= LOGGED_IN_FULL || 0 == n % LOG_EVERY)
        {
            LOGGER.log(Level.WARNING, "endpoint " + endpointId + ": returned message #" + n + " " +
                message.returnStatus() + ": " + message.opcode() + " to handler " + message.handlerIndex() +
                " of " + token.sourceName() + " (" + message.argCount() + " args, " + message.dataLength() +
                " bytes); install a handler at index 0 to handle returned messages");
        }
    }

    long count()
    {
        return count.get();
    }
}
