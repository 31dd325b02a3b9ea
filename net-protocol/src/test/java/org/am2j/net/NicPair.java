package org.am2j.net;

import java.util.function.BooleanSupplier;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;

/**
 * Two NICs in one JVM, as two processes would have, each with one endpoint, talking over UDP loopback; the test
 * drives their endpoints as the core would.
 */
final class NicPair implements AutoCloseable
{
    static final long TAG_A = 0x1111L;
    static final long TAG_B = 0x2222L;

    final NetTransport a;
    final NetTransport b;
    final TestHost hostA;
    final TestHost hostB;
    final Received.Sink sinkA = new Received.Sink();
    final Received.Sink sinkB = new Received.Sink();
    final Route aToB;
    final Route bToA;

    NicPair(final String... settings)
    {
        this(null, settings);
    }

    NicPair(final java.util.function.UnaryOperator<Wire> wrap, final String... settings)
    {
        this(wrap, true, settings);
    }

    /**
     * @return a pair where only A maps B ({@link #bToA} is null): B learns of A from A's first datagram.
     */
    static NicPair oneWay(final String... settings)
    {
        return new NicPair(null, false, settings);
    }

    /**
     * @return a pair whose NICs have settings of their own (a test of two ends that disagree).
     */
    static NicPair eachWith(final String[] settingsA, final String[] settingsB)
    {
        return new NicPair(null, true, settingsA, settingsB);
    }

    private NicPair(final java.util.function.UnaryOperator<Wire> wrap, final boolean mapBack, final String... settings)
    {
        this(wrap, mapBack, settings, settings);
    }

    private NicPair(final java.util.function.UnaryOperator<Wire> wrap, final boolean mapBack, final String[] settingsA,
        final String[] settingsB)
    {
        final NetConfig configA = new NetConfig(new TestContext(1, settingsA));
        final NetConfig configB = new NetConfig(new TestContext(2, settingsB));
        final Wire wireA = new UdpWire(configA.bind, configA.host, 0, configA.socketBytes, configA.connectedPeers);
        final Wire wireB = new UdpWire(configB.bind, configB.host, 0, configB.socketBytes, configB.connectedPeers);
        a = new NetTransport(configA, null == wrap ? wireA : wrap.apply(wireA), 1);
        b = new NetTransport(configB, null == wrap ? wireB : wrap.apply(wireB), 2);
        // Whatever the machine's load: a direct send goes out at once unless a test scripts oversubscribed CPUs.
        a.nic().directSends.cpuShare(cpus(false));
        b.nic().directSends.cpuShare(cpus(false));
        hostA = TestHost.attach(a, 1, 7, TAG_A);
        hostB = TestHost.attach(b, 2, 9, TAG_B);
        aToB = hostA.endpoint.connect(hostB.name, TAG_B);
        bToA = mapBack ? hostB.endpoint.connect(hostA.name, TAG_A) : null;
    }

    /**
     * @param oversubscribed the answer it always gives.
     * @return a scripted answer to whether the CPUs are oversubscribed.
     */
    static org.am2j.idle.CpuShare cpus(final boolean oversubscribed)
    {
        return new org.am2j.idle.CpuShare(oversubscribed ? org.am2j.idle.CpuShare.Mode.SLEEP :
            org.am2j.idle.CpuShare.Mode.SPIN, org.am2j.idle.RunnableProbe.fixed(0, 2), System::nanoTime, 1);
    }

    /**
     * Poll both endpoints until the condition holds.
     *
     * @return true when it held before the time ran out.
     */
    boolean pumpUntil(final BooleanSupplier condition, final long timeoutMillis)
    {
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            pump();
        }
        return true;
    }

    /**
     * Make the sessions between the two NICs (the handshake a first message would start), polling both sides: for
     * tests that then drive one side only.
     */
    void handshake()
    {
        final Peer peer = a.nic().peer(2);
        a.nic().handshake(peer);
        if (!pumpUntil(() -> null != peer.session && peer.session.anchored, 10_000))
        {
            throw new AssertionError("no session between the NICs: " + a.nic().counters() + " " + b.nic().counters());
        }
    }

    void pump()
    {
        hostA.endpoint.poll(sinkA, 16, false);
        hostB.endpoint.poll(sinkB, 16, false);
    }

    static OutboundMessage shortMessage(final Opcode opcode, final int handler, final long tag, final int... args)
    {
        final int[] a = java.util.Arrays.copyOf(args, 8);
        return new OutboundMessage().header(opcode.code(), 0, handler, tag)
            .args(args.length, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    }

    static OutboundMessage dataMessage(final Opcode opcode, final int handler, final long tag, final byte[] data,
        final long segmentOffset, final int... args)
    {
        return shortMessage(opcode, handler, tag, args).data(new UnsafeBuffer(data), 0, data.length, segmentOffset);
    }

    /**
     * Send, polling both sides while the window is full.
     */
    int sendPumping(final Route route, final OutboundMessage message)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (true)
        {
            final int result = route.send(message);
            if (result != Route.FULL || System.nanoTime() - deadline > 0)
            {
                return result;
            }
            pump();
        }
    }

    /**
     * Send, polling only the sender's endpoint while the window is full (the receiver's host stays away).
     */
    int sendPumpingOnly(final Route route, final TestHost sender, final OutboundMessage message)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (true)
        {
            final int result = route.send(message);
            if (result != Route.FULL || System.nanoTime() - deadline > 0)
            {
                return result;
            }
            sender.endpoint.poll(sender == hostA ? sinkA : sinkB, 16, false);
        }
    }

    @Override
    public void close()
    {
        hostA.endpoint.close();
        hostB.endpoint.close();
        a.close();
        b.close();
    }
}
