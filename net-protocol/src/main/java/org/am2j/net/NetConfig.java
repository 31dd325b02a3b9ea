package org.am2j.net;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Enumeration;
import java.util.Locale;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.HostPort;
import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.TransportContext;

/**
 * Settings of the network transport, read from {@code am2j.net.<key>} system properties or {@code AM2J_NET_<KEY>}
 * environment variables (the NIC mode also from {@code am2j.nic} / {@code AM2J_NIC}, which the launcher's
 * {@code --nic} sets):
 * <ul>
 *   <li>{@code nic}: {@code inline} (default) or {@code thread}, see {@link NicMode}; {@code thread} in a process that
 *       may use only one CPU runs inline instead, with a warning;</li>
 *   <li>{@code host}: the address this process's NIC is reached at (default: the local address of the route to the
 *       job's rendezvous, {@code AM2J_BOOTSTRAP}, so that on a host with several interfaces peers are reached over
 *       the network the job runs on; without a bootstrap address or a route to it, the first non-loopback IPv4
 *       address that is up, else loopback; the launcher sets 127.0.0.1 for ranks of one machine);</li>
 *   <li>{@code bind}: the address the socket binds (default: {@code host});</li>
 *   <li>{@code port}: UDP port (default 0: any free port);</li>
 *   <li>{@code mtu}: largest IP packet on the path; 0 (default) reads the MTU of {@code host}'s interface. Messages
 *       that do not fit one datagram of {@code mtu - 28} bytes are fragmented and reassembled by the NIC;</li>
 *   <li>{@code depth}: network depth, the credits of each channel to a peer: messages in flight, unacknowledged,
 *       per peer and direction, requests and replies counted apart, in [2, 64] (default 32; a first request takes
 *       two, with the announcement of its sender's name);</li>
 *   <li>{@code queueBytes}: bytes of each endpoint's request and reply receive queues and send queues
 *       (default 262144; a power of two, at least 131072);</li>
 *   <li>{@code linkRateMBps}: the NIC's link rate in MB/s ({@link LinkRate}; default 0, none);</li>
 *   <li>{@code timeoutMs}: how long a message may stay unacknowledged, while its peer is heard from, before the NIC
 *       asks the peer to give it up; it comes back to its sender's handler 0 only if the peer answers that it did
 *       (default 10000). A peer that answers "busy" (its receive queue is full) restarts the clock; a silent peer
 *       stops it (its messages stay outstanding until it answers or is known dead);</li>
 *   <li>{@code wire}: what the NIC does to every datagram ({@link WireMode}): {@code encrypt} (the default: AES-GCM
 *       seals what carries messages), {@code authenticate} (a tag on every datagram) or {@code off} (nothing; for
 *       measuring and trusted fabrics only); both ends of a link must agree. {@code authenticate=false} (the older
 *       setting) means {@code off} and {@code authenticate=true} the default, unless {@code wire} is given, which
 *       wins; any other value of {@code authenticate} is an error;</li>
 *   <li>{@code rekeyKiB}: the most KiB one key seals before its direction moves to the next key epoch (default
 *       67108864, 64 GiB: well below AES-GCM's data limit per key);</li>
 *   <li>{@code rtoMinUs}, {@code rtoMaxMs}, {@code rtoInitialMs}: bounds and start of the retransmission timeout
 *       (defaults 2000 us, 200 ms, 10 ms);</li>
 *   <li>{@code ackDelayUs}: longest wait for a reply or request to carry an acknowledgement before the NIC sends an
 *       explicit one (default 200);</li>
 *   <li>{@code maxPeers}: peer NICs one NIC talks to (default 1024); {@code reassembly}: messages being reassembled
 *       from fragments at once per peer (default 8); {@code socketBytes}: socket send and receive buffer sizes
 *       (default 4 MiB); {@code connectedPeers}: how many peers get a send socket connected to them, one file
 *       descriptor each (default 64; 0: none, every datagram leaves from the receiving socket), see {@link UdpWire};</li>
 *   <li>{@code keeperUs}: inline mode: period of the keeper thread that runs the NIC while the host has not called in
 *       for that long (default 1000; 0: no keeper, the NIC moves only inside the host's calls); while the network is
 *       quiet the keeper sleeps up to 16 periods ({@link NicKeeper}).</li>
 * </ul>
 */
final class NetConfig
{
    /** The rendezvous address of an SPMD job, {@code host:port}: the default host is the one that routes to it. */
    static final String BOOTSTRAP_VARIABLE = "AM2J_BOOTSTRAP";
    /** The NIC mode's setting besides {@code am2j.net.nic}, which the launcher's {@code --nic} sets. */
    static final Setting NIC_SETTING = new Setting("am2j.nic", "AM2J_NIC");
    /** The wire mode ({@link WireMode}). */
    static final Setting WIRE = Setting.of(NetTransport.NAME, "wire");
    /** The older setting of the wire mode: {@code false} is {@link WireMode#OFF}. */
    static final Setting AUTHENTICATE = Setting.of(NetTransport.NAME, "authenticate");
    /** IPv4 and UDP headers: what an MTU leaves for a datagram. */
    static final int IP_UDP_HEADERS = 28;
    /** Smallest MTU accepted: IPv4's minimum reassembly size. */
    static final int MIN_MTU = 576;
    /**
     * Smallest queue: an Agrona ring takes records of at most an eighth of its capacity, and the largest record is a
     * whole message body with its queue header (8 + 64 + 8192 bytes).
     */
    static final int MIN_QUEUE_BYTES = 131072;
    /** Largest datagram the NIC ever sends: a whole message with its header. */
    static final int MAX_DATAGRAM =
        WireDescriptor.HEADER_LENGTH + MessageDescriptor.MAX_BODY_LENGTH + WireDescriptor.TAG_LENGTH;

    final NicMode mode;
    final NicMode requestedMode;
    final InetAddress host;
    final InetAddress bind;
    /** The name the user gave the host setting under, or {@code null} for the default. */
    final String hostSetting;
    /** The name the user gave the bind setting under, or {@code null} for the default. */
    final String bindSetting;
    final String portSetting;
    final int port;
    final int datagramLimit;
    final int depth;
    final int queueBytes;
    final long timeoutNanos;
    final long rtoMinNanos;
    final long rtoMaxNanos;
    final long rtoInitialNanos;
    final long ackDelayNanos;
    final int maxPeers;
    final int reassemblySlots;
    final int socketBytes;
    final int connectedPeers;
    final long keeperNanos;
    /** The NIC's link rate in MB/s ({@link LinkRate}), 0 for none. */
    final int linkRateMBps;
    /** What the NIC does to every datagram ({@link WireMode}). */
    final WireMode wire;
    /** The setting the wire mode came from, as the user gave it, for messages. */
    final String wireSetting;
    /** The most bytes one key seals before its direction moves to the next key epoch. */
    final long rekeyBytes;
    /** This process's node identity (for the liveness check of peers on this machine), or null when unknown. */
    final String node;

    NetConfig(final TransportContext context)
    {
        this(context, Runtime.getRuntime().availableProcessors());
    }

    /**
     * @param context    of the process.
     * @param processors CPUs this process may run on.
     */
    NetConfig(final TransportContext context, final int processors)
    {
        final Settings settings = context.settings();
        final String nic = settings.choice(settings.firstSet(Setting.of(NetTransport.NAME, "nic"), NIC_SETTING),
            "inline", "inline", "thread");
        this.requestedMode = NicMode.valueOf(nic.toUpperCase(Locale.ROOT));
        // The NIC's own thread needs a processor of its own: on one CPU (a rank pinned with taskset) it would only
        // run when the host's polling thread gives the CPU up, and every message would wait for a time slice.
        this.mode = NicMode.THREAD == requestedMode && processors < 2 ? NicMode.INLINE : requestedMode;
        final Setting hostName = Setting.of(NetTransport.NAME, "host");
        this.hostSetting = settings.isSet(hostName) ? settings.givenName(hostName) : null;
        this.host = null == hostSetting ? defaultHost(settings.value(Setting.variable(BOOTSTRAP_VARIABLE))) :
            address(settings, hostName);
        final Setting bindName = Setting.of(NetTransport.NAME, "bind");
        this.bindSetting = settings.isSet(bindName) ? settings.givenName(bindName) : null;
        this.bind = null == bindSetting ? host : address(settings, bindName);
        this.portSetting = settings.givenName(Setting.of(NetTransport.NAME, "port"));
        this.port = settings.intValue(Setting.of(NetTransport.NAME, "port"), 0, 0, 65535);
        final Setting mtuName = Setting.of(NetTransport.NAME, "mtu");
        final int mtu = settings.intValue(mtuName, 0, 0, 65536 + IP_UDP_HEADERS);
        if (0 != mtu && mtu < MIN_MTU)
        {
            throw settings.invalid(mtuName, "0 (the interface's) or a whole number in [" + MIN_MTU + ", " +
                (65536 + IP_UDP_HEADERS) + "]");
        }
        final int pathMtu = 0 != mtu ? mtu : interfaceMtu(host);
        this.datagramLimit = Math.min(MAX_DATAGRAM, Math.min(65507, pathMtu - IP_UDP_HEADERS));
        this.depth = settings.intValue(Setting.of(NetTransport.NAME, "depth"), 32, 2, 64);
        final Setting queueName = Setting.of(NetTransport.NAME, "queueBytes");
        this.queueBytes = settings.intValue(queueName, 262144, MIN_QUEUE_BYTES, 1 << 28);
        if (Integer.bitCount(queueBytes) != 1)
        {
            throw settings.invalid(queueName, "a power of two in [" + MIN_QUEUE_BYTES + ", " + (1 << 28) + "]");
        }
        this.timeoutNanos = settings.intValue(Setting.of(NetTransport.NAME, "timeoutMs"), 10_000, 10, 3_600_000) * 1_000_000L;
        this.node = context.node();
        this.wire = wireMode(settings);
        this.wireSetting = settings.isSet(WIRE) ? settings.givenName(WIRE) + "=" + settings.value(WIRE) :
            settings.isSet(AUTHENTICATE) ? settings.givenName(AUTHENTICATE) + "=" + settings.value(AUTHENTICATE) :
            "the default";
        this.rekeyBytes = settings.longValue(Setting.of(NetTransport.NAME, "rekeyKiB"), 64L << 20, 16, 1L << 40) * 1024L;
        this.rtoMinNanos = settings.intValue(Setting.of(NetTransport.NAME, "rtoMinUs"), 2000, 10, 10_000_000) * 1_000L;
        this.rtoMaxNanos = settings.intValue(Setting.of(NetTransport.NAME, "rtoMaxMs"), 200, 1, 600_000) * 1_000_000L;
        this.rtoInitialNanos = settings.intValue(Setting.of(NetTransport.NAME, "rtoInitialMs"), 10, 1, 600_000) * 1_000_000L;
        if (rtoMinNanos > rtoMaxNanos)
        {
            throw new AmException(AmError.BAD_ARG, settings.givenName(Setting.of(NetTransport.NAME, "rtoMinUs")) +
                " must not exceed " + settings.givenName(Setting.of(NetTransport.NAME, "rtoMaxMs")));
        }
        this.ackDelayNanos = settings.intValue(Setting.of(NetTransport.NAME, "ackDelayUs"), 200, 0, 1_000_000) * 1_000L;
        this.maxPeers = settings.intValue(Setting.of(NetTransport.NAME, "maxPeers"), 1024, 1, 1 << 20);
        this.reassemblySlots = settings.intValue(Setting.of(NetTransport.NAME, "reassembly"), 8, 1, 64);
        this.socketBytes = settings.intValue(Setting.of(NetTransport.NAME, "socketBytes"), 4 << 20, 65536, 1 << 30);
        this.connectedPeers = settings.intValue(Setting.of(NetTransport.NAME, "connectedPeers"), 64, 0, 1 << 16);
        this.keeperNanos = settings.intValue(Setting.of(NetTransport.NAME, "keeperUs"), 1000, 0, 1_000_000) * 1_000L;
        this.linkRateMBps = settings.intValue(Setting.of(NetTransport.NAME, "linkRateMBps"), 0, 0, 1_000_000);
    }

    /**
     * The wire mode of the {@code wire} setting and the older {@code authenticate}: {@code wire} wins when given;
     * {@code authenticate=false} alone means {@link WireMode#OFF}, {@code true} the default.
     *
     * @param settings of the process.
     * @return the mode.
     * @throws AmException {@link AmError#BAD_ARG} when either has a value it cannot have ({@code authenticate} is
     *                     checked even when {@code wire} wins).
     */
    static WireMode wireMode(final Settings settings)
    {
        final boolean authenticate = settings.flag(AUTHENTICATE, true);
        final String mode = settings.choice(WIRE, null, WireMode.ENCRYPT.text, WireMode.AUTHENTICATE.text,
            WireMode.OFF.text);
        return null != mode ? WireMode.named(mode) : authenticate ? WireMode.DEFAULT : WireMode.OFF;
    }

    /**
     * @return bytes of a message body one datagram carries after the wire header.
     */
    int fragmentBytes()
    {
        return datagramLimit - WireDescriptor.HEADER_LENGTH - WireDescriptor.TAG_LENGTH;
    }

    private static InetAddress address(final Settings settings, final Setting setting)
    {
        try
        {
            return InetAddress.getByName(settings.value(setting));
        }
        catch (final UnknownHostException ex)
        {
            throw settings.rejected(setting, "not a known address");
        }
    }

    /**
     * @return what to change when the NIC's socket cannot be opened, naming the settings as the user gave them.
     */
    String socketAdvice()
    {
        final String given = null != bindSetting ? bindSetting : hostSetting;
        if (null != given)
        {
            return "check " + given + " (an address of this host) and " + portSetting;
        }
        return "the address " + host.getHostAddress() + " was chosen as the route to " + BOOTSTRAP_VARIABLE +
            " or the first interface up; set AM2J_NET_HOST (or -Dam2j.net.host) to an address of this host, and check " +
            portSetting;
    }

    /**
     * @param bootstrap the job's rendezvous address, {@code host:port} or {@code [ipv6]:port}, or {@code null}.
     * @return the local IPv4 address of the route to the rendezvous host; without one, the first non-loopback IPv4
     * address that is up, else loopback.
     */
    static InetAddress defaultHost(final String bootstrap)
    {
        final InetAddress routed = null != bootstrap ? localAddressTowards(bootstrap) : null;
        return null != routed ? routed : firstInterfaceAddress();
    }

    /**
     * Ask the kernel which local address a datagram to the rendezvous would leave from: connecting a UDP socket
     * chooses the route and source address without sending anything.
     *
     * @param bootstrap {@code host:port} or {@code [ipv6]:port}.
     * @return that local address when it is a specific IPv4 address, else {@code null}.
     */
    static InetAddress localAddressTowards(final String bootstrap)
    {
        final InetSocketAddress address = HostPort.tryParse(bootstrap);
        if (null == address)
        {
            return null;
        }
        try (DatagramSocket probe = new DatagramSocket())
        {
            probe.connect(new InetSocketAddress(InetAddress.getByName(address.getHostString()), address.getPort()));
            final InetAddress local = probe.getLocalAddress();
            return local instanceof Inet4Address && !local.isAnyLocalAddress() ? local : null;
        }
        catch (final IOException | RuntimeException ex)
        {
            // an unknown host or no route: the caller falls back to the first interface
            return null;
        }
    }

    private static InetAddress firstInterfaceAddress()
    {
        try
        {
            final Enumeration<NetworkInterface> interfaces = NetworkInterface.getNetworkInterfaces();
            while (null != interfaces && interfaces.hasMoreElements())
            {
                final NetworkInterface candidate = interfaces.nextElement();
                if (!candidate.isUp() || candidate.isLoopback())
                {
                    continue;
                }
                final Enumeration<InetAddress> addresses = candidate.getInetAddresses();
                while (addresses.hasMoreElements())
                {
                    final InetAddress address = addresses.nextElement();
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress())
                    {
                        return address;
                    }
                }
            }
        }
        catch (final SocketException ex)
        {
            // fall through to loopback: a machine without interfaces can still talk to itself
        }
        return InetAddress.getLoopbackAddress();
    }

    private static int interfaceMtu(final InetAddress host)
    {
        try
        {
            final NetworkInterface networkInterface = NetworkInterface.getByInetAddress(host);
            if (null != networkInterface && networkInterface.getMTU() > 0)
            {
                return Math.max(MIN_MTU, networkInterface.getMTU());
            }
        }
        catch (final SocketException ex)
        {
            // fall through: assume the Ethernet MTU, which every path carries
        }
        return 1500;
    }

    @Override
    public String toString()
    {
        return "net[nic " + mode.name().toLowerCase() + ", host " + host.getHostAddress() + ", datagrams <= " +
            datagramLimit + " bytes, depth " + depth + ", timeout " + timeoutNanos / 1_000_000 + " ms]";
    }
}
