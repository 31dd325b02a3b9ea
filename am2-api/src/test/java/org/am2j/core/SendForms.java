package org.am2j.core;

import static org.am2j.core.BadArguments.LENGTH;
import static org.am2j.core.BadArguments.SEND_HANDLER_RANGE;
import static org.am2j.core.BadArguments.SRC_BYTES;
import static org.am2j.core.BadArguments.SRC_RANGE;
import static org.am2j.core.BadArguments.TRANSLATION_RANGE;
import static org.am2j.core.BadArguments.UNMAPPED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import org.agrona.DirectBuffer;
import org.am2j.api.Am;
import org.am2j.api.Endpoint;
import org.am2j.api.MessageCategory;
import org.am2j.api.Token;

/**
 * The request and reply overloads of the AM-II interface as data, for the bad-argument tests: each overload
 * ({@link Sender}, {@link Replier}) called with the arguments of an {@link Args}, and the kinds of bad argument
 * ({@link BadSend}) with the overloads they apply to and what the error must name.
 */
final class SendForms
{
    /** The arguments of a request or reply, valid until a bad case changes one. */
    record Args(int destination, int handler, DirectBuffer src, int srcOffset, int length, long segmentOffset)
    {
        Args destination(final int d)
        {
            return new Args(d, handler, src, srcOffset, length, segmentOffset);
        }

        Args handler(final int h)
        {
            return new Args(destination, h, src, srcOffset, length, segmentOffset);
        }

        Args src(final DirectBuffer s)
        {
            return new Args(destination, handler, s, srcOffset, length, segmentOffset);
        }

        Args data(final int offset, final int len)
        {
            return new Args(destination, handler, src, offset, len, segmentOffset);
        }

        Args segmentOffset(final long offset)
        {
            return new Args(destination, handler, src, srcOffset, length, offset);
        }
    }

    /** A request or reply method family: what data it carries. */
    interface Form
    {
        MessageCategory category();

        boolean bulk();

        boolean isReply();

        default boolean hasData()
        {
            return MessageCategory.SHORT != category();
        }

        default boolean isLong()
        {
            return MessageCategory.LONG == category();
        }

        default int maxLength()
        {
            return isLong() ? Am.MAX_LONG : Am.MAX_MEDIUM;
        }
    }

    @FunctionalInterface
    interface Send
    {
        void send(Endpoint endpoint, Args x);
    }

    /** One public request method (one overload). */
    record Sender(String name, MessageCategory category, boolean bulk, Send send) implements Form
    {
        @Override
        public boolean isReply()
        {
            return false;
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    @FunctionalInterface
    interface Reply
    {
        void reply(Token token, Args x);
    }

    /** One public reply method (one overload). */
    record Replier(String name, MessageCategory category, Reply reply) implements Form
    {
        @Override
        public boolean bulk()
        {
            return false;
        }

        @Override
        public boolean isReply()
        {
            return true;
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    /** A kind of bad request or reply argument. */
    record BadSend(
        String name, Predicate<Form> appliesTo, UnaryOperator<Args> change, Function<Form, List<String>> fragments)
    {
    }

    /**
     * @return every request overload: request, requestMedium, requestLong and requestLongAsync with 0 to 8 arguments,
     * requestN for each category, requestBulk.
     */
    static List<Sender> senders()
    {
        final List<Sender> senders = new ArrayList<>();
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("request/" + n, MessageCategory.SHORT, false, (ep, x) -> request(ep, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("requestMedium/" + n, MessageCategory.MEDIUM, false,
                (ep, x) -> requestMedium(ep, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("requestLong/" + n, MessageCategory.LONG, false, (ep, x) -> requestLong(ep, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            senders.add(new Sender("requestLongAsync/" + n, MessageCategory.LONG, false,
                (ep, x) -> requestLongAsync(ep, n, x)));
        }
        for (final MessageCategory category : MessageCategory.values())
        {
            senders.add(new Sender("requestN(" + category + ")", category, false,
                (ep, x) -> requestN(ep, category, false, Am.MAX_SHORT, x)));
        }
        senders.add(new Sender("requestN(LONG, async)", MessageCategory.LONG, false,
            (ep, x) -> requestN(ep, MessageCategory.LONG, true, Am.MAX_SHORT, x)));
        senders.add(new Sender("requestBulk", MessageCategory.LONG, true, (ep, x) ->
            ep.requestBulk(x.destination(), x.handler(), x.src(), x.srcOffset(), x.length(), x.segmentOffset(), 1, 2)));
        return senders;
    }

    /**
     * @return every reply overload: reply, replyMedium and replyLong with 0 to 8 arguments, replyN for each category.
     */
    static List<Replier> repliers()
    {
        final List<Replier> repliers = new ArrayList<>();
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            repliers.add(new Replier("reply/" + n, MessageCategory.SHORT, (t, x) -> reply(t, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            repliers.add(new Replier("replyMedium/" + n, MessageCategory.MEDIUM, (t, x) -> replyMedium(t, n, x)));
        }
        for (int k = 0; k <= Am.MAX_SHORT; k++)
        {
            final int n = k;
            repliers.add(new Replier("replyLong/" + n, MessageCategory.LONG, (t, x) -> replyLong(t, n, x)));
        }
        for (final MessageCategory category : MessageCategory.values())
        {
            repliers.add(new Replier("replyN(" + category + ")", category,
                (t, x) -> replyN(t, category, Am.MAX_SHORT, x)));
        }
        return repliers;
    }

    /**
     * @return every kind of bad request or reply argument, each with the forms it applies to.
     */
    static List<BadSend> badSends()
    {
        final Predicate<Form> all = form -> true;
        final Predicate<Form> requests = form -> !form.isReply();
        final Predicate<Form> data = Form::hasData;
        final Predicate<Form> boundedData = form -> form.hasData() && !form.bulk();
        return List.of(
            new BadSend("destination -1", requests, x -> x.destination(-1),
                form -> List.of("destination index = -1", TRANSLATION_RANGE)),
            new BadSend("destination 256 (the table size)", requests, x -> x.destination(Am.DEFAULT_TRANSLATIONS),
                form -> List.of("destination index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE)),
            new BadSend("destination MIN_VALUE", requests, x -> x.destination(Integer.MIN_VALUE),
                form -> List.of("destination index = " + Integer.MIN_VALUE, TRANSLATION_RANGE)),
            new BadSend("unmapped destination", requests, x -> x.destination(UNMAPPED),
                form -> List.of("destination index = " + UNMAPPED + " is not mapped")),
            new BadSend("handler 0 (returned messages)", all, x -> x.handler(0),
                form -> List.of("handler = 0", SEND_HANDLER_RANGE)),
            new BadSend("handler -1", all, x -> x.handler(-1), form -> List.of("handler = -1", SEND_HANDLER_RANGE)),
            new BadSend("handler 256", all, x -> x.handler(Am.NUM_HANDLERS),
                form -> List.of("handler = " + Am.NUM_HANDLERS, SEND_HANDLER_RANGE)),
            new BadSend("length -1", data, x -> x.data(0, -1),
                form -> form.bulk() ? List.of("length = -1") : List.of("length = -1", "[0, " + form.maxLength() + "]")),
            new BadSend("length MAX + 1", boundedData, x -> x.data(0, Am.MAX_MEDIUM + 1),
                form -> List.of("length = " + (form.maxLength() + 1), "[0, " + form.maxLength() + "]")),
            new BadSend("null src", data, x -> x.src(null), form -> List.of("src must not be null")),
            new BadSend("srcOffset -1", data, x -> x.data(-1, LENGTH),
                form -> List.of("srcOffset = -1", "length = " + LENGTH, SRC_RANGE)),
            new BadSend("srcOffset + length past the end of src", data, x -> x.data(SRC_BYTES - 8, LENGTH),
                form -> List.of("srcOffset = " + (SRC_BYTES - 8), "length = " + LENGTH, SRC_RANGE)),
            new BadSend("length past the end of src", data, x -> x.data(0, SRC_BYTES + 1),
                form -> List.of("srcOffset = 0", "length = " + (SRC_BYTES + 1), SRC_RANGE)),
            new BadSend("segmentOffset -1", Form::isLong, x -> x.segmentOffset(-1),
                form -> List.of("segmentOffset = -1", "[0, " + (Am.MAX_SEGMENT_LENGTH - LENGTH) + "]")),
            new BadSend("segmentOffset past MAX_SEGMENT_LENGTH", Form::isLong,
                x -> x.segmentOffset(Am.MAX_SEGMENT_LENGTH),
                form -> List.of("segmentOffset = " + Am.MAX_SEGMENT_LENGTH,
                    "[0, " + (Am.MAX_SEGMENT_LENGTH - LENGTH) + "]")));
    }

    // ================================================================================================================
    // Every overload called with the arguments of an Args
    // ================================================================================================================

    static void request(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        switch (n)
        {
            case 0 -> ep.request(d, h);
            case 1 -> ep.request(d, h, 1);
            case 2 -> ep.request(d, h, 1, 2);
            case 3 -> ep.request(d, h, 1, 2, 3);
            case 4 -> ep.request(d, h, 1, 2, 3, 4);
            case 5 -> ep.request(d, h, 1, 2, 3, 4, 5);
            case 6 -> ep.request(d, h, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.request(d, h, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.request(d, h, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void requestMedium(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        switch (n)
        {
            case 0 -> ep.requestMedium(d, h, s, o, l);
            case 1 -> ep.requestMedium(d, h, s, o, l, 1);
            case 2 -> ep.requestMedium(d, h, s, o, l, 1, 2);
            case 3 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3);
            case 4 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4);
            case 5 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5);
            case 6 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.requestMedium(d, h, s, o, l, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void requestLong(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        final long g = x.segmentOffset();
        switch (n)
        {
            case 0 -> ep.requestLong(d, h, s, o, l, g);
            case 1 -> ep.requestLong(d, h, s, o, l, g, 1);
            case 2 -> ep.requestLong(d, h, s, o, l, g, 1, 2);
            case 3 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3);
            case 4 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4);
            case 5 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5);
            case 6 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.requestLong(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void requestLongAsync(final Endpoint ep, final int n, final Args x)
    {
        final int d = x.destination();
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        final long g = x.segmentOffset();
        final int result = switch (n)
        {
            case 0 -> ep.requestLongAsync(d, h, s, o, l, g);
            case 1 -> ep.requestLongAsync(d, h, s, o, l, g, 1);
            case 2 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2);
            case 3 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3);
            case 4 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4);
            case 5 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5);
            case 6 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6);
            case 7 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> ep.requestLongAsync(d, h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        };
        assertEquals(Am.OK, result, "an async request to an empty queue");
    }

    static void requestN(
        final Endpoint ep, final MessageCategory category, final boolean async, final int argCount, final Args x)
    {
        ep.requestN(x.destination(), category, x.handler(), x.src(), x.srcOffset(), x.length(), x.segmentOffset(),
            async, argCount, 1, 2, 3, 4, 5, 6, 7, 8);
    }

    static void reply(final Token t, final int n, final Args x)
    {
        final int h = x.handler();
        switch (n)
        {
            case 0 -> t.reply(h);
            case 1 -> t.reply(h, 1);
            case 2 -> t.reply(h, 1, 2);
            case 3 -> t.reply(h, 1, 2, 3);
            case 4 -> t.reply(h, 1, 2, 3, 4);
            case 5 -> t.reply(h, 1, 2, 3, 4, 5);
            case 6 -> t.reply(h, 1, 2, 3, 4, 5, 6);
            case 7 -> t.reply(h, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> t.reply(h, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void replyMedium(final Token t, final int n, final Args x)
    {
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        switch (n)
        {
            case 0 -> t.replyMedium(h, s, o, l);
            case 1 -> t.replyMedium(h, s, o, l, 1);
            case 2 -> t.replyMedium(h, s, o, l, 1, 2);
            case 3 -> t.replyMedium(h, s, o, l, 1, 2, 3);
            case 4 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4);
            case 5 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5);
            case 6 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5, 6);
            case 7 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> t.replyMedium(h, s, o, l, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void replyLong(final Token t, final int n, final Args x)
    {
        final int h = x.handler();
        final DirectBuffer s = x.src();
        final int o = x.srcOffset();
        final int l = x.length();
        final long g = x.segmentOffset();
        switch (n)
        {
            case 0 -> t.replyLong(h, s, o, l, g);
            case 1 -> t.replyLong(h, s, o, l, g, 1);
            case 2 -> t.replyLong(h, s, o, l, g, 1, 2);
            case 3 -> t.replyLong(h, s, o, l, g, 1, 2, 3);
            case 4 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4);
            case 5 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5);
            case 6 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5, 6);
            case 7 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7);
            case 8 -> t.replyLong(h, s, o, l, g, 1, 2, 3, 4, 5, 6, 7, 8);
            default -> throw new IllegalArgumentException("no overload with " + n + " arguments");
        }
    }

    static void replyN(final Token t, final MessageCategory category, final int argCount, final Args x)
    {
        t.replyN(category, x.handler(), x.src(), x.srcOffset(), x.length(), x.segmentOffset(), argCount,
            1, 2, 3, 4, 5, 6, 7, 8);
    }

    private SendForms()
    {
    }
}
