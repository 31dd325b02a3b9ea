package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shared-memory transport's settings, {@code am2j.shm.<key>} / {@code AM2J_SHM_<KEY>}: each value that does not
 * parse is an error naming both names and what the setting takes, never a value taken for another.
 */
class ShmConfigTest
{
    private static ShmConfig fromEnvironment(final String variable, final String value)
    {
        return ShmConfig.from(Settings.of(Map.of(), Map.of(variable, value)));
    }

    @Test
    void sealedIsTrueUnlessSetFalse()
    {
        assertTrue(ShmConfig.from(Settings.of(Map.of(), Map.of())).sealed);
        assertFalse(fromEnvironment("AM2J_SHM_SEALED", "false").sealed);
        assertFalse(fromEnvironment("AM2J_SHM_SEALED", " FALSE ").sealed);
        assertTrue(fromEnvironment("AM2J_SHM_SEALED", "true").sealed);
        assertFalse(ShmConfig.from(Settings.of(Map.of("am2j.shm.sealed", "false"), Map.of("AM2J_SHM_SEALED", "true")))
            .sealed, "the property wins");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "AM2J_SHM_SEALED|maybe|true or false",
        "AM2J_SHM_SEALED|0|true or false",
        "AM2J_SHM_SEALED|no|true or false",
        "AM2J_SHM_BOXES|65|a whole number in [0, 64]",
        "AM2J_SHM_BOXES|eight|a whole number in [0, 64]",
        "AM2J_SHM_BOXDEPTH|6|a power of two in [2, 4096]",
        "AM2J_SHM_BOXDEPTH|8192|a whole number in [2, 4096]",
        "AM2J_SHM_REQUESTDEPTH|100|a power of two in [2, 65536]",
        "AM2J_SHM_REPLYDEPTH|1|a whole number in [2, 65536]",
        "AM2J_SHM_BULKDEPTH|512|in [1, 4096] and at most the packet depths (256, 256)",
        "AM2J_SHM_SLOTS|0|a whole number in [1, 4096]",
        "AM2J_SHM_LIVENESSMS|1s|a whole number in [1, 3600000]" })
    void aValueThatDoesNotParseIsAnErrorNamingBothNames(final String variable, final String value,
        final String allowed)
    {
        final AmException ex = assertThrows(AmException.class, () -> fromEnvironment(variable, value));

        assertEquals(AmError.BAD_ARG, ex.error());
        final String property = ShmTransport.NAME + "." + variable.substring("AM2J_SHM_".length()).toLowerCase();
        assertTrue(ex.detail().startsWith(variable + " = '" + value + "' must be " + allowed + " (system property am2j."),
            ex.detail());
        assertTrue(ex.detail().toLowerCase().contains("am2j." + property + " or environment variable " +
            variable.toLowerCase() + "; the property wins)"), ex.detail());
    }
}
