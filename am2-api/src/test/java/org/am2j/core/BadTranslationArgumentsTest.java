package org.am2j.core;

import static org.am2j.core.BadArguments.COUNT;
import static org.am2j.core.BadArguments.TRANSLATION_RANGE;
import static org.am2j.core.BadArguments.UNMAPPED;
import static org.am2j.core.BadArguments.bad;
import static org.am2j.core.BadArguments.failing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;

import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.EndpointName;
import org.am2j.core.BadArguments.Case;
import org.am2j.core.BadArguments.Fixture;
import org.am2j.core.BadArguments.Good;

/**
 * Bad arguments to an endpoint's translation table: map, mapAny, unmap, the translation queries, numTranslations and
 * expectedResources. Each throws {@link org.am2j.api.AmException} naming the argument and its range, sends nothing
 * and changes nothing ({@link BadArguments#run}); the in-range extremes are accepted.
 */
class BadTranslationArgumentsTest extends BadCallTable
{
    static Stream<Case> badCalls()
    {
        return Stream.of(
            // map
            bad("map(-1, ..)", f -> f.a.map(-1, f.b.name(), f.b.tag()), "translation index = -1", TRANSLATION_RANGE),
            bad("map(256, ..) = table size", f -> f.a.map(Am.DEFAULT_TRANSLATIONS, f.b.name(), f.b.tag()),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("map(MIN_VALUE, ..)", f -> f.a.map(Integer.MIN_VALUE, f.b.name(), f.b.tag()),
                "translation index = " + Integer.MIN_VALUE, TRANSLATION_RANGE),
            bad("map(.., null name, ..)", f -> f.a.map(5, null, f.b.tag()), "name must not be null"),
            bad("map(.., unreachable name, ..)", f -> f.a.map(5, unreachable(f), f.b.tag()), "no transport reaches"),
            failing("map(index in use, ..)", f -> { }, f -> f.a.map(0, f.b.name(), f.b.tag()), AmError.RESOURCE,
                "translation index = 0 is already mapped"),
            // mapAny
            bad("mapAny(null name, ..)", f -> f.a.mapAny(null, f.b.tag()), "name must not be null"),
            bad("mapAny(unreachable name, ..)", f -> f.a.mapAny(unreachable(f), f.b.tag()), "no transport reaches"),
            failing("mapAny(..) with a full table", f -> f.a.numTranslations(1), f -> f.a.mapAny(f.b.name(), 1),
                AmError.RESOURCE, "translation table full", "numTranslations", "" + Am.MAX_TRANSLATIONS),
            // unmap, isMapped, translation queries
            bad("unmap(-1)", f -> f.a.unmap(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("unmap(256)", f -> f.a.unmap(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("unmap(unmapped)", f -> f.a.unmap(UNMAPPED), "translation index = " + UNMAPPED + " is not mapped"),
            bad("isMapped(-1)", f -> f.a.isMapped(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("isMapped(256)", f -> f.a.isMapped(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationTag(-1)", f -> f.a.translationTag(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("translationTag(256)", f -> f.a.translationTag(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationTag(unmapped)", f -> f.a.translationTag(UNMAPPED),
                "translation index = " + UNMAPPED + " is not mapped"),
            bad("translationName(-1)", f -> f.a.translationName(-1), "translation index = -1", TRANSLATION_RANGE),
            bad("translationName(256)", f -> f.a.translationName(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationName(unmapped)", f -> f.a.translationName(UNMAPPED),
                "translation index = " + UNMAPPED + " is not mapped"),
            bad("translationTransport(-1)", f -> f.a.translationTransport(-1), "translation index = -1",
                TRANSLATION_RANGE),
            bad("translationTransport(256)", f -> f.a.translationTransport(Am.DEFAULT_TRANSLATIONS),
                "translation index = " + Am.DEFAULT_TRANSLATIONS, TRANSLATION_RANGE),
            bad("translationTransport(unmapped)", f -> f.a.translationTransport(UNMAPPED),
                "translation index = " + UNMAPPED + " is not mapped"),
            // numTranslations(int), expectedResources
            bad("numTranslations(0)", f -> f.a.numTranslations(0), "numTranslations = 0",
                "[1, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("numTranslations(-1)", f -> f.a.numTranslations(-1), "numTranslations = -1",
                "[1, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("numTranslations(MAX + 1)", f -> f.a.numTranslations(Am.MAX_TRANSLATIONS + 1),
                "numTranslations = " + (Am.MAX_TRANSLATIONS + 1), "[1, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            failing("numTranslations(n) below a mapped index", f -> f.a.map(200, f.b.name(), f.b.tag()),
                f -> f.a.numTranslations(100), AmError.RESOURCE, "numTranslations = 100", "mapped index 200"),
            bad("expectedResources(-1, 0)", f -> f.a.expectedResources(-1, 0), "endpoints = -1",
                "[0, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("expectedResources(MAX + 1, 0)", f -> f.a.expectedResources(Am.MAX_TRANSLATIONS + 1, 0),
                "endpoints = " + (Am.MAX_TRANSLATIONS + 1), "[0, " + (Am.MAX_TRANSLATIONS + 1) + ")"),
            bad("expectedResources(0, -1)", f -> f.a.expectedResources(0, -1), "outstandingRequests = -1", "[0, "));
    }

    static Stream<Good> extremes()
    {
        return Stream.of(
            new Good("map(255, ..) and its queries", f ->
            {
                f.a.map(Am.DEFAULT_TRANSLATIONS - 1, f.b.name(), f.b.tag());
                assertTrue(f.a.isMapped(Am.DEFAULT_TRANSLATIONS - 1));
                assertEquals(f.b.tag(), f.a.translationTag(Am.DEFAULT_TRANSLATIONS - 1));
                assertEquals(f.b.name(), f.a.translationName(Am.DEFAULT_TRANSLATIONS - 1));
                assertEquals("inproc", f.a.translationTransport(Am.DEFAULT_TRANSLATIONS - 1));
                f.a.unmap(Am.DEFAULT_TRANSLATIONS - 1);
            }),
            new Good("numTranslations(MAX_TRANSLATIONS), map and send through the last index", f ->
            {
                f.a.numTranslations(Am.MAX_TRANSLATIONS);
                f.a.map(Am.MAX_TRANSLATIONS - 1, f.b.name(), f.b.tag());
                f.a.request(Am.MAX_TRANSLATIONS - 1, COUNT);
                f.pollUntil(() -> f.counted.get() == 1);
            }),
            new Good("numTranslations(1) keeps index 0", f ->
            {
                f.a.numTranslations(1);
                assertEquals(1, f.a.numTranslations());
                assertTrue(f.a.isMapped(0));
            }),
            new Good("expectedResources(MAX_TRANSLATIONS, 0)", f -> f.a.expectedResources(Am.MAX_TRANSLATIONS, 0)),
            new Good("expectedResources(0, Integer.MAX_VALUE) (documented: 0 or more)",
                f -> f.a.expectedResources(0, Integer.MAX_VALUE)));
    }

    /** A name in another process: no transport of this test JVM reaches it. */
    private static EndpointName unreachable(final Fixture f)
    {
        return new EndpointName("elsewhere", f.a.name().processId() + 1, 1, 0, Map.of());
    }
}
