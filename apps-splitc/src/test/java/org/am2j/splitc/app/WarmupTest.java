package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class WarmupTest
{
    @Test
    void aFixedNumberRunsExactlyThatManyWhateverTheJit()
    {
        final Warmup three = Warmup.parse("3");
        assertFalse(three.auto());
        assertEquals(3, three.runs());
        assertFalse(three.finished(0, false));
        assertFalse(three.finished(2, true), "quiet runs do not end a fixed warm-up early");
        assertTrue(three.finished(3, false));
        assertTrue(Warmup.fixed(0).finished(0, false));
        assertEquals("3", three.toString());
    }

    @Test
    void autoRunsAtLeastOnceAndStopsAtTheFirstQuietRunOrItsMost()
    {
        final Warmup auto = Warmup.parse("auto");
        assertTrue(auto.auto());
        assertEquals(Warmup.DEFAULT_AUTO_MAX, auto.runs());
        assertFalse(auto.finished(0, true), "at least one run");
        assertFalse(auto.finished(1, false));
        assertTrue(auto.finished(1, true));
        assertFalse(auto.finished(Warmup.DEFAULT_AUTO_MAX - 1, false));
        assertTrue(auto.finished(Warmup.DEFAULT_AUTO_MAX, false), "never more than its most");
        assertEquals(Warmup.untilQuiet(7), Warmup.parse("auto:7"));
        assertEquals("auto:7", Warmup.parse("auto:7").toString());
        assertEquals(Warmup.parse("auto:7"), Warmup.parse(Warmup.parse("auto:7").toString()));
    }

    @Test
    void aRunIsQuietWhenItCompiledForAtMostTwoPercentOfItsTimeOrTwoMilliseconds()
    {
        assertTrue(Warmup.quiet(0, 0));
        assertTrue(Warmup.quiet(2, 10), "the floor");
        assertFalse(Warmup.quiet(3, 10));
        assertTrue(Warmup.quiet(20, 1000));
        assertFalse(Warmup.quiet(21, 1000));
        assertFalse(Warmup.quiet(-1, 1000), "a JVM that does not report compile time is never quiet");
    }

    @Test
    void badValuesNameTheOption()
    {
        for (final String bad : List.of("", "-1", "101", "x", "auto:", "auto:0", "auto:101", "auto:-3", "auto:1:2",
            "auto8", "1e2", " 3", "99999999999"))
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> Warmup.parse(bad), bad);
            assertTrue(ex.getMessage().contains("--warmup"), ex.getMessage());
        }
    }
}
