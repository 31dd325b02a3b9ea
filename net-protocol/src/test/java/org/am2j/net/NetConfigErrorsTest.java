package org.am2j.net;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        public String settingName(final String transport, final String key)
        {
            return org.am2j.spi.TransportContext.environmentName(transport, key);
        }
    }

    @Test
    void anUnknownHostNamesTheVariableThatGaveIt()
    {
        final AmException ex = assertThrows(AmException.class,
            () -> new NetConfig(new FromEnvironment("host", "no-such-host.invalid")));

        assertEquals(AmError.BAD_ARG, ex.error());
        assertTrue(ex.detail().startsWith("AM2J_NET_HOST = 'no-such-host.invalid' is not a known address"),
            ex.getMessage());
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

        assertTrue(ex.detail().startsWith("AM2J_NET_DEPTH = 100 must be in [2, 64]"), ex.getMessage());
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
        final AmException authenticate = assertThrows(AmException.class,
            () -> new NetConfig(new FromEnvironment("authenticate", "no")));
        assertTrue(authenticate.detail().startsWith("AM2J_NET_AUTHENTICATE = 'no' must be true or false"),
            authenticate.getMessage());
    }
}
