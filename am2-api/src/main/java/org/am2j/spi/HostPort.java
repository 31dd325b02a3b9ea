package org.am2j.spi;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Socket addresses written {@code host:port}, as settings ({@code AM2J_BOOTSTRAP}), endpoint names and doorbells carry
 * them: the host a name or an IPv4 address, or an IPv6 address in brackets ({@code [::1]:7400},
 * {@code [fe80::1%eth0]:7400}); the port 1 to 65535 in decimal digits. Nothing else is taken: no spaces, no port 0, no
 * IPv6 address without brackets (its last group would be read as the port).
 */
public final class HostPort
{
    /** What {@link #parse} takes, for messages. */
    public static final String FORMAT = "host:port or [ipv6-address]:port with port 1 to 65535";

    private HostPort()
    {
    }

    /**
     * @param text {@code host:port} or {@code [ipv6-address]:port}.
     * @return the address, unresolved (the host is looked up when it is used).
     * @throws AmException {@link AmError#BAD_ARG} saying what is wrong with the text and what is taken.
     */
    public static InetSocketAddress parse(final String text)
    {
        return parse("address", text);
    }

    /**
     * @param name what the text is, for the message (e.g. {@code AM2J_BOOTSTRAP}).
     * @param text {@code host:port} or {@code [ipv6-address]:port}.
     * @return the address, unresolved (the host is looked up when it is used).
     * @throws AmException {@link AmError#BAD_ARG} naming {@code name}, the text, what is wrong with it and what is
     *                     taken.
     */
    public static InetSocketAddress parse(final String name, final String text)
    {
        AmException.checkNotNull(name, text);
        final String problem = problem(text);
        if (null != problem)
        {
            throw new AmException(AmError.BAD_ARG, name + " = '" + Settings.printable(text) + "' is not " + FORMAT +
                ": " + problem);
        }
        return InetSocketAddress.createUnresolved(host(text), port(text));
    }

    /**
     * For addresses other processes published (an endpoint name, a doorbell), where a malformed one is the peer's
     * fault and must not fail this process.
     *
     * @param text {@code host:port} or {@code [ipv6-address]:port}, or {@code null}.
     * @return the address, unresolved, or {@code null} when the text is not one.
     */
    public static InetSocketAddress tryParse(final String text)
    {
        return null == text || null != problem(text) ? null : InetSocketAddress.createUnresolved(host(text), port(text));
    }

    /**
     * @param address an address, resolved or not.
     * @return the address with its host looked up, or {@code null} when the host is not known.
     */
    public static InetSocketAddress resolve(final InetSocketAddress address)
    {
        if (!address.isUnresolved())
        {
            return address;
        }
        final InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
        return resolved.isUnresolved() ? null : resolved;
    }

    /**
     * @param address a resolved address.
     * @return it as {@code host:port} with the host's numeric address, an IPv6 one in brackets: what
     * {@link #parse} reads back.
     */
    public static String format(final InetSocketAddress address)
    {
        final InetAddress host = address.getAddress();
        final String text = null == host ? address.getHostString() : host.getHostAddress();
        return (text.indexOf(':') >= 0 ? "[" + text + "]" : text) + ":" + address.getPort();
    }

    /**
     * @return what is wrong with the text, or {@code null} when it is a valid address.
     */
    private static String problem(final String text)
    {
        final int colon = split(text);
        if (colon < 0)
        {
            if (!text.startsWith("["))
            {
                return "no port (add :port)";
            }
            final int close = text.indexOf(']');
            return close < 0 ? "no closing bracket after the IPv6 address" : close == text.length() - 1 ?
                "no port after the brackets (add :port)" : "':port' must follow the closing bracket";
        }
        final String host = text.substring(0, colon);
        final String port = text.substring(colon + 1);
        if (host.isEmpty())
        {
            return "no host before the colon";
        }
        final String hostProblem = host.startsWith("[") ? bracketed(host) : plain(host);
        if (null != hostProblem)
        {
            return hostProblem;
        }
        if (port.isEmpty())
        {
            return "no port after the colon";
        }
        if (port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9'))
        {
            return "the port '" + Settings.printable(port) + "' is not a number from 1 to 65535";
        }
        final int value = Integer.parseInt(port);
        return value < 1 || value > 65535 ? "the port " + value + " is outside 1 to 65535" : null;
    }

    /**
     * @return the index of the colon between host and port: after the closing bracket of an IPv6 address, else the
     * last one; -1 when there is none.
     */
    private static int split(final String text)
    {
        if (text.startsWith("["))
        {
            final int close = text.indexOf(']');
            return close > 0 && close + 1 < text.length() && text.charAt(close + 1) == ':' ? close + 1 : -1;
        }
        return text.lastIndexOf(':');
    }

    private static String bracketed(final String host)
    {
        if (host.length() < 3)
        {
            return "empty brackets";
        }
        final String address = host.substring(1, host.length() - 1);
        if (address.indexOf(':') < 0)
        {
            return "brackets hold an IPv6 address only, '" + Settings.printable(address) + "' is none";
        }
        for (int i = 0; i < address.length(); i++)
        {
            final char c = address.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == ':' || c == '.' || c == '%' || c == '-' || c == '_'))
            {
                return "the IPv6 address holds the character '" + Settings.printable(String.valueOf(c)) + "'";
            }
        }
        return null;
    }

    private static String plain(final String host)
    {
        if (host.indexOf(':') >= 0)
        {
            return "an IPv6 address must be in brackets, e.g. [::1]:7400";
        }
        for (int i = 0; i < host.length(); i++)
        {
            final char c = host.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c) || c == '/' || c == '[' || c == ']' ||
                c == '@' || c == '#')
            {
                return "the host holds the character '" + Settings.printable(String.valueOf(c)) + "'";
            }
        }
        return null;
    }

    private static int port(final String text)
    {
        return Integer.parseInt(text.substring(split(text) + 1));
    }

    private static String host(final String text)
    {
        final String host = text.substring(0, split(text));
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }
}
