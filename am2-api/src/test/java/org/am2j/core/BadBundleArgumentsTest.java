package org.am2j.core;

import static org.am2j.core.BadArguments.COUNT;
import static org.am2j.core.BadArguments.bad;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EventMask;
import org.am2j.core.BadArguments.Case;
import org.am2j.core.BadArguments.Good;

/**
 * Bad arguments to a bundle (event mask, waitSema, moveEndpoint) and to {@link Am#allocateBundle}. Each
 * throws {@link org.am2j.api.AmException} naming the argument, sends nothing and changes nothing
 * ({@link BadArguments#run}); the in-range extremes are accepted.
 */
class BadBundleArgumentsTest extends BadCallTable
{
    static Stream<Case> badCalls()
    {
        return Stream.of(
            // Bundle
            bad("Bundle.eventMask(null)", f -> f.pair.bundleA.eventMask(null), "mask must not be null"),
            bad("Bundle.waitSema() with NOEVENTS", f -> f.pair.bundleA.waitSema(), "event mask NOEVENTS",
                "NOTEMPTY"),
            bad("Bundle.waitSema(0, ms) with NOEVENTS", f -> f.pair.bundleA.waitSema(0, TimeUnit.MILLISECONDS),
                "event mask NOEVENTS", "NOTEMPTY"),
            bad("Bundle.waitSema(-1, ms)", f -> f.pair.bundleA.waitSema(-1, TimeUnit.MILLISECONDS), "timeout = -1",
                "[0, "),
            bad("Bundle.waitSema(1, null)", f -> f.pair.bundleA.waitSema(1, null), "unit must not be null"),
            bad("Bundle.moveEndpoint(null)", f -> f.pair.bundleA.moveEndpoint(null), "endpoint must not be null"),
            bad("Bundle.moveEndpoint(closed endpoint)", f -> f.pair.bundleA.moveEndpoint(closedEndpoint()),
                "endpoint must be an open endpoint"),
            bad("Bundle.moveEndpoint(endpoint not of am2j)", f -> f.pair.bundleA.moveEndpoint(foreignEndpoint()),
                "endpoint must be an open endpoint"),
            // Am
            bad("Am.allocateBundle(null)", f -> Am.allocateBundle(null), "kind must not be null"));
    }

    static Stream<Good> extremes()
    {
        return Stream.of(
            new Good("Bundle.waitSema(0, ms) with nothing waiting returns false", f ->
            {
                f.pair.bundleB.eventMask(EventMask.NOTEMPTY);
                assertFalse(f.pair.bundleB.waitSema(0, TimeUnit.MILLISECONDS));
                f.pair.bundleB.eventMask(EventMask.NOEVENTS);
            }),
            new Good("Bundle.waitSema(Long.MAX_VALUE, ns) (documented: 0 or more) with a message waiting", f ->
            {
                f.a.request(0, COUNT);
                f.pair.bundleB.eventMask(EventMask.NOTEMPTY);
                assertTrue(f.pair.bundleB.waitSema(Long.MAX_VALUE, TimeUnit.NANOSECONDS));
                f.pollUntil(() -> f.counted.get() == 1);
            }),
            new Good("Bundle.moveEndpoint(endpoint already in the bundle) does nothing", f ->
            {
                f.pair.bundleA.moveEndpoint(f.a);
                assertSame(f.pair.bundleA, f.a.bundle());
            }),
            new Good("Bundle.moveEndpoint(endpoint of another bundle)", f ->
            {
                try (Bundle other = Am.allocateBundle(BundleKind.SEQ))
                {
                    final Endpoint moved = other.allocateEndpoint();
                    f.pair.bundleA.moveEndpoint(moved);
                    assertSame(f.pair.bundleA, moved.bundle());
                    assertTrue(other.endpoints().isEmpty());
                }
            }));
    }

    private static Endpoint closedEndpoint()
    {
        final Bundle other = Am.allocateBundle(BundleKind.SEQ);
        final Endpoint endpoint = other.allocateEndpoint();
        other.close();
        return endpoint;
    }

    /** An Endpoint that is not an am2j endpoint. */
    private static Endpoint foreignEndpoint()
    {
        return (Endpoint)Proxy.newProxyInstance(Endpoint.class.getClassLoader(), new Class<?>[] { Endpoint.class },
            (proxy, method, args) -> switch (method.getName())
            {
                case "isClosed" -> false;
                case "toString" -> "a foreign Endpoint";
                case "hashCode" -> 0;
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }
}
