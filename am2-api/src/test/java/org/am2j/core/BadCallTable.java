package org.am2j.core;

import static org.am2j.core.BadArguments.accept;
import static org.am2j.core.BadArguments.run;

import org.am2j.core.BadArguments.Case;
import org.am2j.core.BadArguments.Good;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad calls of one area of the API and the in-range extremes of the same calls, as two tables a subclass gives:
 * {@code static Stream<Case> badCalls()} and {@code static Stream<Good> extremes()}.
 */
@Timeout(60)
abstract class BadCallTable
{
    @ParameterizedTest(name = "{0}")
    @MethodSource("badCalls")
    void aBadArgumentThrowsNamingItAndChangesNothing(final Case c)
    {
        run(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extremes")
    void anInRangeExtremeIsAccepted(final Good c)
    {
        accept(c);
    }
}
