package org.am2j.net;

import java.util.ArrayList;
import java.util.List;

import org.am2j.spi.InboundMessage;
import org.am2j.spi.MessageSink;
import org.am2j.spi.Route;

/**
 * A copy of a received message, and a sink that keeps them.
 */
final class Received
{
    final int opcode;
    final int returnStatus;
    final int handler;
    final long tag;
    final int[] args;
    final byte[] data;
    final long segmentOffset;
    final Route replyRoute;

    Received(final InboundMessage message)
    {
        opcode = message.opcode();
        returnStatus = message.returnStatus();
        handler = message.handler();
        tag = message.tag();
        args = new int[message.argCount()];
        for (int i = 0; i < args.length; i++)
        {
            args[i] = message.arg(i);
        }
        data = new byte[Math.max(0, message.dataLength())];
        if (data.length > 0)
        {
            message.dataBuffer().getBytes(message.dataOffset(), data);
        }
        segmentOffset = message.segmentOffset();
        replyRoute = message.replyRoute();
    }

    /** A sink that copies every message into a list. */
    static final class Sink implements MessageSink
    {
        final List<Received> messages = new ArrayList<>();

        @Override
        public void onMessage(final InboundMessage message)
        {
            messages.add(new Received(message));
        }
    }
}
