package org.am2j.net;

import java.util.Map;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bad network setting is reported under the name the user gave it: the environment variable or the system
 * property.
 */
class NetConfigErrorsTest
{
    /** A context whose settings all came from environment variables. */
    private static final class FromEnvironment extends TestContext
    {
        FromEnvironment(final String... keyValues)
        {
            super(1, keyValues);
        }

        @Override
        public Settings settings()
        {
            return new Settings(property -> null, variable -> settings.entrySet().stream()
                .filter(setting -> Setting.of(NetTransport.NAME, setting.getKey()).variable().equals(variable))
                .map(Map.Entry::getValue).findFirst().orElse(null));
        }
    }

    @Test
    void anUnknownHostNamesTheVariableThatGaveIt()
    {
        final AmException ex = assertThrows(AmException.class,
            () -> new NetConfig(new FromEnvironment("host", "no-such-host.invalid")));

        assertEquals(AmError.BAD_ARG, ex.error());
        assertEquals("AM2J_NET_HOST = 'no-such-host.invalid': not a known address (system property am2j.net.host or " +
            "environment variable AM2J_NET_HOST; the property wins)", ex.detail());
    }

    @Test
    void anUnknownHostNamesThePropertyThatGaveIt()
    {
        final AmException ex = assertThrows(AmException.class,
            () -> new NetConfig(new TestContext(1, "host", "no-such-host.invalid")));

        assertTrue(ex.detail().startsWith("am2j.net.host = 'no-such-host.invalid'"), ex.getMessage());
    }

    @Test
    void aBadNumberNamesTheVariableThatGaveIt()
    {
        final AmException ex = assertThrows(AmException.class,
            () -> new NetConfig(new FromEnvironment("depth", "100")));

        assertTrue(ex.detail().startsWith("AM2J_NET_DEPTH = '100' must be a whole number in [2, 64] (system property " +
            "am2j.net.depth or environment variable AM2J_NET_DEPTH"), ex.getMessage());
    }

    @Test
    void aFlagOtherThanTrueOrFalseIsAnErrorNotTakenForTrue()
    {
        final AmException ex = assertThrows(AmException.class,
            () -> new NetConfig(new FromEnvironment("authenticate", "no")));

        assertEquals("AM2J_NET_AUTHENTICATE = 'no' must be true or false (system property am2j.net.authenticate or " +
            "environment variable AM2J_NET_AUTHENTICATE; the property wins)", ex.detail());
        assertEquals(WireMode.OFF, new NetConfig(new FromEnvironment("authenticate", "FALSE")).wire);
    }

    @Test
    void anUnknownNicModeNamesItsSetting()
    {
        final AmException ex = assertThrows(AmException.class, () -> new NetConfig(new FromEnvironment("nic", "fast")));

        assertTrue(ex.detail().startsWith("AM2J_NET_NIC = 'fast' must be inline or thread"), ex.getMessage());
    }

    @Test
    void sharedNicSettingsAreReadUnderTheirDocumentedNamesAndABadOneIsNamed()
    {
        final SharedNicConfig config = SharedNicConfig.of(new Variables(Map.of("AM2J_NICS_PER_NODE", "2",
            "AM2J_NIC_INDEX", "1", "AM2J_NIC_AUTOSTART", "false", "AM2J_NIC_WAIT_MS", "500")));
        assertEquals(2, config.nicsPerNode);
        assertEquals(1, config.nicIndex);
        assertFalse(config.autostart);
        assertEquals(500, config.waitMs);

        final AmException autostart = assertThrows(AmException.class, () -> SharedNicConfig.of(new Variables(
            Map.of("AM2J_NICS_PER_NODE", "2", "AM2J_NIC_AUTOSTART", "maybe"))));
        assertEquals("AM2J_NIC_AUTOSTART = 'maybe' must be true or false (system property am2j.net.nicAutostart or " +
            "environment variable AM2J_NIC_AUTOSTART; the property wins)", autostart.detail());
        final AmException index = assertThrows(AmException.class, () -> SharedNicConfig.of(new Variables(
            Map.of("AM2J_NICS_PER_NODE", "2", "AM2J_NIC_INDEX", "2"))));
        assertTrue(index.detail().startsWith("AM2J_NIC_INDEX = '2' must be a whole number in [0, 1]"),
            index.getMessage());
        final AmException nics = assertThrows(AmException.class, () -> SharedNicConfig.of(new Variables(
            Map.of("AM2J_NICS_PER_NODE", "two"))));
        assertTrue(nics.detail().startsWith("AM2J_NICS_PER_NODE = 'two' must be a whole number in [0, 64]"),
            nics.getMessage());
    }

    /** A context whose settings are the given environment variables. */
    private static final class Variables extends TestContext
    {
        private final Map<String, String> variables;

        Variables(final Map<String, String> variables)
        {
            super(1);
            this.variables = variables;
        }

        @Override
        public Settings settings()
        {
            return Settings.of(Map.of(), variables);
        }
    }

    @Test
    void socketAdviceNamesTheAddressSettingAsGiven()
    {
        assertTrue(new NetConfig(new FromEnvironment()).socketAdvice().contains("check AM2J_NET_HOST"));
        final NetConfig chosen = new NetConfig(new FromEnvironment("host", ""));
        assertTrue(chosen.socketAdvice().contains("set AM2J_NET_HOST (or -Dam2j.net.host)"), chosen.socketAdvice());
    }

    @Test
    void theWireModeAndTheOlderAuthenticateSettingAndWhichWins()
    {
        assertEquals(WireMode.DEFAULT, new NetConfig(new TestContext(1)).wire);
        assertEquals(WireMode.ENCRYPT, new NetConfig(new FromEnvironment("wire", "ENCRYPT")).wire);
        assertEquals(WireMode.AUTHENTICATE, new NetConfig(new FromEnvironment("wire", "authenticate")).wire);
        assertEquals(WireMode.OFF, new NetConfig(new FromEnvironment("wire", "off")).wire);
        // authenticate=false alone means off, authenticate=true the default; wire wins when both are given.
        assertEquals(WireMode.OFF, new NetConfig(new FromEnvironment("authenticate", "false")).wire);
        assertEquals(WireMode.DEFAULT, new NetConfig(new FromEnvironment("authenticate", "true")).wire);
        assertEquals(WireMode.ENCRYPT, new NetConfig(new FromEnvironment("authenticate", "false", "wire", "encrypt")).wire);
        assertEquals("AM2J_NET_AUTHENTICATE=false", new NetConfig(new FromEnvironment("authenticate", "false")).wireSetting);

        final AmException wire = assertThrows(AmException.class,
            () -> new NetConfig(new FromEnvironment("wire", "sealed")));
        assertTrue(wire.detail().startsWith("AM2J_NET_WIRE = 'sealed' must be encrypt, authenticate or off"),
            wire.getMessage());
        // authenticate is checked even when wire wins.
        assertThrows(AmException.class, () -> new NetConfig(new FromEnvironment("authenticate", "no", "wire", "off")));
    }
}
