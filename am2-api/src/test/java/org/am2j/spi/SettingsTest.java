package org.am2j.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsTest
{
    private static final Setting SEALED = Setting.of("shm", "sealed");
    private static final Setting DEPTH = Setting.of("net", "depth");

    private static Settings fromProperty(final Setting setting, final String value)
    {
        return Settings.of(Map.of(setting.property(), value), Map.of());
    }

    private static Settings fromVariable(final Setting setting, final String value)
    {
        return Settings.of(Map.of(), Map.of(setting.variable(), value));
    }

    private static AmException badArg(final Runnable read)
    {
        final AmException ex = assertThrows(AmException.class, read::run);
        assertEquals(AmError.BAD_ARG, ex.error());
        return ex;
    }

    @Test
    void aTransportSettingIsNamedAmTwoJDotTransportDotKeyAndItsVariableInUpperCase()
    {
        assertEquals(new Setting("am2j.shm.boxDepth", "AM2J_SHM_BOXDEPTH"), Setting.of("shm", "boxDepth"));
        assertEquals("am2j.shm.sealed / AM2J_SHM_SEALED", SEALED.toString());
        assertEquals("environment variable AM2J_RANK", Setting.variable("AM2J_RANK").describe());
        assertEquals("system property am2j.x", Setting.property("am2j.x").describe());
        assertThrows(AmException.class, () -> new Setting(null, null));
    }

    @Test
    void thePropertyWinsOverTheVariableWhichWinsOverTheDefault()
    {
        final Settings both = Settings.of(Map.of("am2j.net.depth", "8"), Map.of("AM2J_NET_DEPTH", "16"));
        assertEquals(8, both.intValue(DEPTH, 32, 2, 64));
        assertEquals("am2j.net.depth", both.givenName(DEPTH));

        final Settings variable = fromVariable(DEPTH, "16");
        assertEquals(16, variable.intValue(DEPTH, 32, 2, 64));
        assertEquals("AM2J_NET_DEPTH", variable.givenName(DEPTH));

        final Settings none = Settings.of(Map.of(), Map.of());
        assertEquals(32, none.intValue(DEPTH, 32, 2, 64));
        assertEquals("am2j.net.depth / AM2J_NET_DEPTH", none.givenName(DEPTH));
        assertFalse(none.isSet(DEPTH));
    }

    @Test
    void aBlankValueCountsAsNotSetAndValuesAreTrimmed()
    {
        final Settings blankProperty = Settings.of(Map.of("am2j.net.depth", "  "), Map.of("AM2J_NET_DEPTH", " 16 "));
        assertEquals(16, blankProperty.intValue(DEPTH, 32, 2, 64));
        assertEquals("16", blankProperty.value(DEPTH));
        assertNull(fromVariable(DEPTH, "").value(DEPTH));
        assertTrue(fromVariable(SEALED, "").flag(SEALED, true));
    }

    @Test
    void aFlagIsTrueOrFalseInAnyCase()
    {
        assertTrue(fromVariable(SEALED, "TRUE").flag(SEALED, false));
        assertFalse(fromVariable(SEALED, "False").flag(SEALED, true));
        assertFalse(fromProperty(SEALED, "false").flag(SEALED, true));
        assertTrue(Settings.of(Map.of(), Map.of()).flag(SEALED, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"maybe", "1", "0", "yes", "no", "on", "t", "truee", "true false"})
    void anyOtherFlagIsAnErrorNamingBothNamesAndTheValuesTaken(final String value)
    {
        final AmException ex = badArg(() -> fromVariable(SEALED, value).flag(SEALED, true));

        assertEquals("AM2J_SHM_SEALED = '" + value + "' must be true or false (system property am2j.shm.sealed or " +
            "environment variable AM2J_SHM_SEALED; the property wins)", ex.detail());
    }

    @Test
    void aBadFlagGivenAsThePropertyIsNamedByTheProperty()
    {
        final AmException ex = badArg(() -> fromProperty(SEALED, "maybe").flag(SEALED, true));

        assertTrue(ex.detail().startsWith("am2j.shm.sealed = 'maybe' must be true or false (system property " +
            "am2j.shm.sealed or environment variable AM2J_SHM_SEALED"), ex.getMessage());
    }

    @Test
    void numbersInTheirRangeAreTaken()
    {
        assertEquals(2, fromVariable(DEPTH, "2").intValue(DEPTH, 32, 2, 64));
        assertEquals(64, fromVariable(DEPTH, "64").intValue(DEPTH, 32, 2, 64));
        assertEquals(-5, fromVariable(DEPTH, "-5").longValue(DEPTH, 0, -10, 10));
        assertEquals(Long.MAX_VALUE - 1, fromVariable(DEPTH, Long.toString(Long.MAX_VALUE - 1))
            .longValue(DEPTH, 0, 0, Long.MAX_VALUE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "65", "-2", "x", "3.0", "+8", "0x10", "8 8", "1e1", "99999999999999999999", "9223372036854775808", "--8"})
    void aNumberThatDoesNotParseOrIsOutOfRangeIsAnErrorWithTheRange(final String value)
    {
        final AmException ex = badArg(() -> fromVariable(DEPTH, value).intValue(DEPTH, 32, 2, 64));

        assertEquals("AM2J_NET_DEPTH = '" + value + "' must be a whole number in [2, 64] (system property " +
            "am2j.net.depth or environment variable AM2J_NET_DEPTH; the property wins)", ex.detail());
    }

    @Test
    void aNumberWithoutMaximumSaysOrMore()
    {
        final Setting pid = Setting.variable("AM2J_LAUNCHER_PID");
        final AmException ex = badArg(() -> fromVariable(pid, "0").longValue(pid, 1, 1, Long.MAX_VALUE));

        assertEquals("AM2J_LAUNCHER_PID = '0' must be a whole number, 1 or more", ex.detail());
    }

    @Test
    void aRequiredNumberThatIsMissingIsNamed()
    {
        final Setting rank = Setting.variable("AM2J_RANK");
        final AmException ex = badArg(() -> Settings.of(Map.of(), Map.of()).longValue(rank, 0, 3));

        assertEquals("environment variable AM2J_RANK is missing: it must be a whole number in [0, 3]", ex.detail());
    }

    @Test
    void aChoiceIsOneOfItsValuesInAnyCase()
    {
        final Setting idle = new Setting("am2j.idle", "AM2J_IDLE");
        assertEquals("spin", fromVariable(idle, "SPIN").choice(idle, "adaptive", "adaptive", "spin", "sleep"));
        assertEquals("adaptive", Settings.of(Map.of(), Map.of()).choice(idle, "adaptive", "adaptive", "spin"));

        final AmException ex = badArg(() -> fromProperty(idle, "never").choice(idle, "adaptive", "adaptive", "spin",
            "sleep"));
        assertTrue(ex.detail().startsWith("am2j.idle = 'never' must be adaptive, spin or sleep (system property"),
            ex.getMessage());
    }

    @Test
    void theFirstSetOfSeveralNamesIsRead()
    {
        final Setting own = Setting.of("net", "nicsPerNode");
        final Setting documented = new Setting("am2j.net.nicsPerNode", "AM2J_NICS_PER_NODE");
        final Settings settings = fromVariable(documented, "2");

        assertEquals(documented, settings.firstSet(own, documented));
        assertEquals(own, fromVariable(own, "3").firstSet(own, documented));
        assertEquals(documented, Settings.of(Map.of(), Map.of()).firstSet(own, documented));
    }

    @Test
    void aValueShownInAnErrorHasNoControlCharactersAndIsCut()
    {
        final AmException ex = badArg(() -> fromVariable(DEPTH, "1\n2" + "3".repeat(100)).intValue(DEPTH, 32, 2, 64));

        assertTrue(ex.detail().startsWith("AM2J_NET_DEPTH = '1?2333"), ex.detail());
        assertTrue(ex.detail().contains("...' must be"), ex.detail());
    }

    @Test
    void theSystemSettingsReadSystemPropertiesWhenAsked()
    {
        final Setting setting = Setting.property("am2j.test.settings." + ProcessHandle.current().pid());
        assertFalse(Settings.system().isSet(setting));
        System.setProperty(setting.property(), " 7 ");
        try
        {
            assertEquals(7, Settings.system().intValue(setting, 0, 0, 10));
        }
        finally
        {
            System.clearProperty(setting.property());
        }
    }
}
