package org.am2j.core;

import org.agrona.DirectBuffer;
import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.MessageCategory;

/**
 * The argument checks every request and reply passes before anything is sent. They throw
 * {@link AmError#BAD_ARG} with the argument's name and allowed range, and allocate nothing when they pass.
 */
final class MessageChecks
{
    private MessageChecks()
    {
    }

    static void check(
        final MessageCategory category, final int handler, final DirectBuffer src, final int srcOffset,
        final int length, final long segmentOffset, final int argCount)
    {
        if (null == category)
        {
            throw new AmException(AmError.BAD_ARG, "category must not be null");
        }
        if (handler < 1 || handler >= Am.NUM_HANDLERS)
        {
            throw new AmException(AmError.BAD_ARG, "handler = " + handler + " is outside [1, " + Am.NUM_HANDLERS +
                ") (handler 0 receives returned messages and cannot be sent to)");
        }
        if (argCount < 0 || argCount > Am.MAX_SHORT)
        {
            throw new AmException(AmError.BAD_ARG, "argCount = " + argCount + " is outside [0, " + Am.MAX_SHORT + "]");
        }
        if (MessageCategory.SHORT != category)
        {
            checkData(category, src, srcOffset, length, segmentOffset);
        }
    }

    private static void checkData(
        final MessageCategory category, final DirectBuffer src, final int srcOffset, final int length,
        final long segmentOffset)
    {
        final int max = MessageCategory.LONG == category ? Am.MAX_LONG : Am.MAX_MEDIUM;
        if (length < 0 || length > max)
        {
            throw new AmException(AmError.BAD_ARG, "length = " + length + " is outside [0, " + max + "] for a " +
                category + " message");
        }
        if (null == src)
        {
            throw new AmException(AmError.BAD_ARG, "src must not be null for a " + category + " message");
        }
        if (srcOffset < 0 || srcOffset > src.capacity() - length)
        {
            throw new AmException(AmError.BAD_ARG, "srcOffset = " + srcOffset + " with length = " + length +
                " is outside the source buffer [0, " + src.capacity() + ")");
        }
        if (MessageCategory.LONG == category && (segmentOffset < 0 || segmentOffset > Am.MAX_SEGMENT_LENGTH - length))
        {
            throw new AmException(AmError.BAD_ARG, "segmentOffset = " + segmentOffset + " is outside [0, " +
                (Am.MAX_SEGMENT_LENGTH - length) + "] for length " + length);
        }
    }
}
