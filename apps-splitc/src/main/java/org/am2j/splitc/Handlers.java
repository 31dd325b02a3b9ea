package org.am2j.splitc;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.am2j.api.Message;
import org.am2j.api.Token;

/**
 * The AM-II handler indices of the Split-C layer, their names for diagnostics, and the handler of returned messages
 * (index 0). Each concern registers its own handlers on the endpoint: {@link Gets}, {@link Puts}, {@link Stores},
 * {@link BulkStaging}, {@link Collectives}.
 */
final class Handlers
{
    /** Handler of a scalar get: (requester, slot, offset, bytes). */
    static final int H_GET = 64;
    /** Reply to a scalar get: (slot, low word, high word). */
    static final int H_GET_REPLY = 65;
    /** Handler of one chunk of a bulk get: (requester, slot, offset, bytes, first element of the chunk). */
    static final int H_GET_BULK = 66;
    /** Medium reply with one chunk of a bulk get: (slot, first element of the chunk). */
    static final int H_GET_BULK_REPLY = 67;
    /** Handler of a scalar put: (requester, offset, low word[, high word]). */
    static final int H_PUT = 68;
    /** Handler of a long request holding one chunk of a bulk put: (requester). */
    static final int H_PUT_BULK = 69;
    /** Reply acknowledging a put or a chunk of a bulk put. */
    static final int H_PUT_ACK = 70;
    /** Handler of a scalar store: (requester, offset, low word[, high word]). */
    static final int H_STORE = 71;
    /** Handler of a long request holding one chunk of a bulk store: (requester). */
    static final int H_STORE_BULK = 72;
    /** Handler at the collective root of a contribution: (contributor, epoch, operation, low word, high word). */
    static final int H_COLLECTIVE = 73;
    /** Handler of a collective's result: (epoch, low word, high word). */
    static final int H_COLLECTIVE_RESULT = 74;
    /** Handler of the bytes a rank stored to this one since the last allStoreSync: (sender, low word, high word). */
    static final int H_STORE_COUNT = 75;

    /** What each handler does, from {@link #H_GET} to {@link #H_STORE_COUNT}, for diagnostics. */
    private static final String[] NAMES = {
        "get", "get reply", "bulk get", "bulk get reply", "put", "bulk put", "put acknowledgement", "store",
        "bulk store", "collective contribution", "collective result", "store count" };

    private Handlers()
    {
    }

    /**
     * @param low  low word of a value carried in two arguments.
     * @param high high word.
     * @return the value.
     */
    static long join(final int low, final int high)
    {
        return ((long)high << 32) | (low & 0xFFFF_FFFFL);
    }

    /**
     * Handler 0: a message of this layer came back undelivered. It makes the layer unusable with a
     * {@link SplitCException} carrying the message's status, thrown out of the poll that ran it.
     *
     * @param progress the layer's progress, which records the failure.
     * @param token    the returned message's token.
     * @param msg      the returned message.
     */
    static void onReturned(final Progress progress, final Token token, final Message msg)
    {
        final String arguments = IntStream.range(0, msg.argCount()).mapToObj(i -> Integer.toString(msg.arg(i)))
            .collect(Collectors.joining(", ", "[", "]"));
        throw progress.fail(new SplitCException("rank " + progress.rank() + ": a " + msg.opcode() +
            " message for handler " + msg.handlerIndex() + " (" + name(msg.handlerIndex()) +
            ") came back undelivered with status " + msg.returnStatus() + ", arguments " + arguments,
            msg.returnStatus()));
    }

    /**
     * @param handler a handler index.
     * @return what it does, for diagnostics.
     */
    static String name(final int handler)
    {
        return handler >= H_GET && handler <= H_STORE_COUNT ? NAMES[handler - H_GET] : "not a Split-C handler";
    }
}
