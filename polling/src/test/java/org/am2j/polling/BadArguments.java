package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.function.Executable;

/**
 * Checks that a call throws {@link AmError#BAD_ARG} with a message that says what was wrong.
 */
final class BadArguments
{
    private BadArguments()
    {
    }

    /**
     * @param call      the call that must fail.
     * @param fragments texts the message must contain.
     */
    static void assertBadArg(final Executable call, final String... fragments)
    {
        final AmException ex = assertThrows(AmException.class, call);
        assertEquals(AmError.BAD_ARG, ex.error());
        for (final String fragment : fragments)
        {
            assertTrue(ex.getMessage().contains(fragment), () -> "'" + ex.getMessage() + "' lacks '" + fragment + "'");
        }
    }
}
