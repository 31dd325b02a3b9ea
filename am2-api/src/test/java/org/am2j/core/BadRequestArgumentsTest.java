package org.am2j.core;

import static org.am2j.core.BadArguments.ARG_COUNT_RANGE;
import static org.am2j.core.BadArguments.COUNT;
import static org.am2j.core.BadArguments.LENGTH;
import static org.am2j.core.BadArguments.PROBE;
import static org.am2j.core.BadArguments.PROBED;
import static org.am2j.core.BadArguments.SEGMENT_BYTES;
import static org.am2j.core.BadArguments.SRC_BYTES;
import static org.am2j.core.BadArguments.accept;
import static org.am2j.core.BadArguments.bad;
import static org.am2j.core.BadArguments.catching;
import static org.am2j.core.BadArguments.run;
import static org.am2j.core.SendForms.badSends;
import static org.am2j.core.SendForms.requestN;
import static org.am2j.core.SendForms.senders;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.MessageCategory;
import org.am2j.core.BadArguments.Case;
import org.am2j.core.BadArguments.Fixture;
import org.am2j.core.BadArguments.Good;
import org.am2j.core.SendForms.BadSend;
import org.am2j.core.SendForms.Sender;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad arguments to every request overload ({@link SendForms#senders()}) with every kind of bad argument that applies
 * to it ({@link SendForms#badSends()}): each throws {@link org.am2j.api.AmException} naming the argument and its
 * range, sends nothing and changes nothing. A short message ignores its data arguments; the in-range extremes of a
 * send are accepted.
 */
@Timeout(60)
class BadRequestArgumentsTest
{
    static Stream<Case> badRequests()
    {
        final List<Case> cases = new ArrayList<>();
        for (final Sender sender : senders())
        {
            for (final BadSend kind : badSends())
            {
                if (kind.appliesTo().test(sender))
                {
                    cases.add(bad(sender + ": " + kind.name(),
                        f -> sender.send().send(f.a, kind.change().apply(f.valid())),
                        kind.fragments().apply(sender).toArray(new String[0])));
                }
            }
        }
        for (final MessageCategory category : MessageCategory.values())
        {
            cases.add(bad("requestN(" + category + "): argCount -1",
                f -> requestN(f.a, category, false, -1, f.valid()), "argCount = -1", ARG_COUNT_RANGE));
            cases.add(bad("requestN(" + category + "): argCount 9",
                f -> requestN(f.a, category, false, Am.MAX_SHORT + 1, f.valid()),
                "argCount = " + (Am.MAX_SHORT + 1), ARG_COUNT_RANGE));
        }
        cases.add(bad("requestN: null category", f -> requestN(f.a, null, false, 1, f.valid()),
            "category must not be null"));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void aBadRequestThrowsNamingTheArgumentAndSendsNothing(final Case c)
    {
        run(c);
    }

    /**
     * A short message carries no data: whatever src, srcOffset and length are passed to the general form are
     * ignored, for requests (documented on {@link Endpoint#requestN}) and for replies alike.
     */
    static Stream<Arguments> shortMessagesIgnoreData()
    {
        final UnsafeBuffer src = new UnsafeBuffer(new byte[SRC_BYTES]);
        final List<Arguments> cases = new ArrayList<>();
        for (final String form : List.of("requestN(SHORT)", "replyN(SHORT)"))
        {
            cases.add(Arguments.of(form, "null src, length 100", null, 0, 100));
            cases.add(Arguments.of(form, "src, length 16", src, 0, LENGTH));
            cases.add(Arguments.of(form, "src, length -1", src, 0, -1));
            cases.add(Arguments.of(form, "src, srcOffset -1, length 16", src, -1, LENGTH));
            cases.add(Arguments.of(form, "src, length 100000", src, 0, 100_000));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("shortMessagesIgnoreData")
    void aShortMessageIgnoresItsDataArguments(
        final String form, final String what, final DirectBuffer src, final int srcOffset, final int length)
    {
        try (Fixture f = Fixture.twoBundles())
        {
            final AtomicInteger dataLength = new AtomicInteger(-1);
            final AtomicInteger arg = new AtomicInteger();
            if (form.startsWith("request"))
            {
                f.b.handler(COUNT, (token, msg) ->
                {
                    dataLength.set(msg.dataLength());
                    arg.set(msg.arg(0));
                });
                assertDoesNotThrow(() ->
                    f.a.requestN(0, MessageCategory.SHORT, COUNT, src, srcOffset, length, -1, false,
                        1, 77, 0, 0, 0, 0, 0, 0, 0));
                f.pollUntil(() -> dataLength.get() >= 0);
            }
            else
            {
                final AtomicReference<Throwable> thrown = new AtomicReference<>();
                f.a.handler(PROBED + 1, (token, msg) ->
                {
                    dataLength.set(msg.dataLength());
                    arg.set(msg.arg(0));
                });
                f.probe = (token, msg) -> thrown.set(catching(() ->
                    token.replyN(MessageCategory.SHORT, PROBED + 1, src, srcOffset, length, -1,
                        1, 77, 0, 0, 0, 0, 0, 0, 0)));
                f.a.request(0, PROBE);
                // Poll until the reply arrives, or fails, or comes back: a bounded number of polls, no sleeping.
                for (int i = 0; i < 100 && null == thrown.get() && dataLength.get() < 0 && 0 == f.returnedToB.get();
                    i++)
                {
                    f.settle();
                }
                assertNull(thrown.get(), () -> "a short reply failed on the data arguments it should ignore: " +
                    thrown.get());
                assertEquals(0, f.returnedToB.get(), "the short reply came back to its sender (returned message)");
                f.pollUntil(() -> dataLength.get() >= 0);
            }
            assertEquals(0, dataLength.get(), "a short message carried data");
            assertEquals(77, arg.get());
            f.assertRoundTrip();
        }
    }

    static Stream<Good> extremes()
    {
        return Stream.of(
            new Good("request(.., handler 255, 8 args)", f ->
            {
                final AtomicInteger last = new AtomicInteger();
                f.b.handler(Am.NUM_HANDLERS - 1, (token, msg) -> last.set(msg.arg(Am.MAX_SHORT - 1)));
                f.a.request(0, Am.NUM_HANDLERS - 1, 1, 2, 3, 4, 5, 6, 7, 8);
                f.pollUntil(() -> last.get() == 8);
            }),
            new Good("requestMedium of MAX_MEDIUM bytes ending at the end of src", f ->
            {
                final UnsafeBuffer big = new UnsafeBuffer(new byte[Am.MAX_MEDIUM + 8]);
                final AtomicInteger length = new AtomicInteger();
                f.b.handler(COUNT, (token, msg) -> length.set(msg.dataLength()));
                f.a.requestMedium(0, COUNT, big, 8, Am.MAX_MEDIUM);
                f.pollUntil(() -> length.get() == Am.MAX_MEDIUM);
            }),
            new Good("requestMedium of 0 bytes", f ->
            {
                f.a.requestMedium(0, COUNT, f.src, SRC_BYTES, 0);
                f.pollUntil(() -> f.counted.get() == 1);
            }),
            new Good("requestLong of MAX_LONG bytes at the end of the segment", f ->
            {
                final UnsafeBuffer big = new UnsafeBuffer(new byte[Am.MAX_LONG]);
                final AtomicInteger length = new AtomicInteger();
                f.b.handler(COUNT, (token, msg) -> length.set(msg.dataLength()));
                f.a.requestLong(0, COUNT, big, 0, Am.MAX_LONG, SEGMENT_BYTES - Am.MAX_LONG);
                f.pollUntil(() -> length.get() == Am.MAX_LONG);
            }),
            new Good("requestBulk of 20000 bytes: three chunks", f ->
            {
                final UnsafeBuffer big = new UnsafeBuffer(new byte[20_000]);
                assertEquals(3, f.a.requestBulk(0, COUNT, big, 0, 20_000, 0, 1, 2));
                f.pollUntil(() -> f.counted.get() == 3);
            }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extremes")
    void anInRangeExtremeIsAccepted(final Good c)
    {
        accept(c);
    }
}
