package org.am2j.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostPortTest
{
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "node01:7400|node01|7400",
        "127.0.0.1:1|127.0.0.1|1",
        "localhost:65535|localhost|65535",
        "[::1]:4001|::1|4001",
        "[fe80::1%eth0]:7400|fe80::1%eth0|7400",
        "[::ffff:10.0.0.1]:80|::ffff:10.0.0.1|80",
        "my-host.example.org:00080|my-host.example.org|80" })
    void parsesHostsNamesAndBracketedIpv6(final String text, final String host, final int port)
    {
        final InetSocketAddress address = HostPort.parse("AM2J_BOOTSTRAP", text);

        assertTrue(address.isUnresolved(), "not looked up while parsing");
        assertEquals(host, address.getHostString());
        assertEquals(port, address.getPort());
        assertEquals(address, HostPort.tryParse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "localhost|no port (add :port)",
        "localhost:|no port after the colon",
        ":4000|no host before the colon",
        "localhost:0|the port 0 is outside 1 to 65535",
        "localhost:65536|the port 65536 is outside 1 to 65535",
        "localhost:123456|the port '123456' is not a number from 1 to 65535",
        "localhost:http|the port 'http' is not a number from 1 to 65535",
        "localhost:-1|the port '-1' is not a number from 1 to 65535",
        "localhost:+80|the port '+80' is not a number from 1 to 65535",
        "'localhost: 80'|the port ' 80' is not a number from 1 to 65535",
        "::1:4000|an IPv6 address must be in brackets, e.g. [::1]:7400",
        "fe80::1|an IPv6 address must be in brackets, e.g. [::1]:7400",
        "[::1|no closing bracket after the IPv6 address",
        "[::1:4000|no closing bracket after the IPv6 address",
        "[::1]|no port after the brackets (add :port)",
        "[::1]4000|':port' must follow the closing bracket",
        "[::1]:|no port after the colon",
        "[]:4000|empty brackets",
        "[node01]:4000|brackets hold an IPv6 address only, 'node01' is none",
        "[::1 ]:4000|the IPv6 address holds the character ' '",
        "'my host:4000'|the host holds the character ' '",
        "host/24:4000|the host holds the character '/'",
        "user@host:4000|the host holds the character '@'",
        "a]b:4000|the host holds the character ']'" })
    void eachMalformedAddressIsAnErrorSayingWhatIsWrongAndWhatIsTaken(final String text, final String problem)
    {
        final AmException ex = assertThrows(AmException.class, () -> HostPort.parse("AM2J_BOOTSTRAP", text));

        assertEquals(AmError.BAD_ARG, ex.error());
        assertEquals("AM2J_BOOTSTRAP = '" + text + "' is not host:port or [ipv6-address]:port with port 1 to 65535: " +
            problem, ex.detail());
        assertNull(HostPort.tryParse(text), "a peer's malformed address is no address");
    }

    @Test
    void emptyAndNullAreNoAddress()
    {
        assertThrows(AmException.class, () -> HostPort.parse(""));
        assertNull(HostPort.tryParse(""));
        assertNull(HostPort.tryParse(null));
        assertThrows(AmException.class, () -> HostPort.parse(null));
    }

    @Test
    void formatWritesWhatParseReadsBack()
    {
        final InetSocketAddress v4 = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7400);
        assertEquals("127.0.0.1:7400", HostPort.format(v4));
        assertEquals(v4, HostPort.resolve(HostPort.parse(HostPort.format(v4))));

        final InetSocketAddress v6 = new InetSocketAddress("::1", 7401);
        assertEquals("[0:0:0:0:0:0:0:1]:7401", HostPort.format(v6));
        assertEquals(v6, HostPort.resolve(HostPort.parse(HostPort.format(v6))));
    }

    @Test
    void resolveLooksTheHostUpOrSaysItCannot()
    {
        assertEquals(new InetSocketAddress(InetAddress.getLoopbackAddress(), 4000),
            HostPort.resolve(HostPort.parse("127.0.0.1:4000")));
        assertNull(HostPort.resolve(HostPort.parse("no-such-host.invalid:4000")));
    }
}
