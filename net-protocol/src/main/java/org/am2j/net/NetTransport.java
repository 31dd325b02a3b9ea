package org.am2j.net;

import org.agrona.concurrent.AgentRunner;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.am2j.idle.CpuShare;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportQueues;

/**
 * The network transport {@code net}: one emulated NIC per process ({@link NicAgent}) over a UDP socket, serving
 * every endpoint of the process. Reaches any endpoint whose name has a {@code net} address; the core prefers
 * cheaper transports (in-process, shared memory) where they reach.
 */
public final class NetTransport extends NetworkTransport
{
    /** The transport's name. */
    public static final String NAME = "net";

    /**
     * @return the wire mode the NICs of this process run ({@code encrypt}, {@code authenticate} or {@code off}), from
     *         {@code am2j.net.wire} / {@code AM2J_NET_WIRE} and the older {@code am2j.net.authenticate} /
     *         {@code AM2J_NET_AUTHENTICATE}, as a report records it.
     * @throws org.am2j.api.AmException when a setting has a value it cannot have.
     */
    public static String wireMode()
    {
        return NetConfig.wireMode(org.am2j.spi.Settings.system()).text;
    }

    private static final System.Logger LOGGER = System.getLogger("org.am2j.net");

    private final NetConfig config;
    private final NicAgent nic;
    private final AgentRunner runner;
    private final NicKeeper keeper;

    NetTransport(final TransportContext context)
    {
        this(new NetConfig(context), context.processId(), new NicCounters(context));
    }

    private NetTransport(final NetConfig config, final long nicId, final NicCounters counters)
    {
        this(config, openWire(config), nicId, counters);
    }

    static UdpWire openWire(final NetConfig config)
    {
        try
        {
            return new UdpWire(config.bind, config.host, config.port, config.socketBytes, config.connectedPeers);
        }
        catch (final AmException ex)
        {
            throw new AmException(ex.error(), ex.detail() + "; " + config.socketAdvice(), ex.getCause());
        }
    }

    NetTransport(final NetConfig config, final Wire wire, final long nicId)
    {
        this(config, wire, nicId, new NicCounters());
    }

    private NetTransport(final NetConfig config, final Wire wire, final long nicId, final NicCounters counters)
    {
        this.config = config;
        if (config.mode != config.requestedMode)
        {
            LOGGER.log(System.Logger.Level.WARNING, "am2j net: --nic thread needs a second CPU for the NIC's thread; " +
                "this process may use one: the NIC runs inline");
        }
        this.nic = new NicAgent(config, wire, nicId, counters, new ProcessLiveness(config.node));
        if (config.mode == NicMode.THREAD)
        {
            this.runner = new AgentRunner(new NicIdleStrategy(nic),
                (error) -> LOGGER.log(System.Logger.Level.ERROR, "am2j net: NIC agent error", error), null, nic);
            AgentRunner.startOnThread(runner, (task) ->
            {
                final Thread thread = new Thread(task, "am2j-nic");
                thread.setDaemon(true);
                return thread;
            });
        }
        else
        {
            this.runner = null;
        }
        if (config.mode == NicMode.INLINE && config.keeperNanos > 0)
        {
            this.keeper = new NicKeeper(nic, config.keeperNanos, CpuShare.process());
            keeper.start();
        }
        else
        {
            this.keeper = null;
        }
        LOGGER.log(System.Logger.Level.DEBUG, () -> "am2j " + config + " at " + nic.address);
    }

    /**
     * Tell the NIC that a process it may talk to is gone (its launcher reaped it, or its rendezvous connection was
     * lost). Messages sent to it and not resolved come back to their senders' handler 0 with
     * {@link org.am2j.api.ReturnStatus#EOUTCOMEUNKNOWN} (they may have run there), later ones with
     * {@link org.am2j.api.ReturnStatus#EUNREACHABLE}. Without such a declaration the NIC returns nothing to a silent
     * peer unless it was on this machine and its pid no longer runs: silence may be a stall.
     *
     * @param processId the dead process's {@link EndpointName#processId()}.
     */
    public void declareDead(final long processId)
    {
        nic.declareDead(processId);
    }

    @Override
    public void processGone(final long processId)
    {
        declareDead(processId);
    }

    @Override
    public TransportQueues attach(final EndpointHost host)
    {
        return new NetQueues(this, host, config.queueBytes);
    }

    /**
     * @return true in inline mode: {@code waitSema()} sleeps in the NIC's selector. In thread mode the agent
     * thread wakes sleepers itself, and the core sleeps some other way.
     */
    @Override
    public boolean canBlock()
    {
        return config.mode == NicMode.INLINE;
    }

    /**
     * @return in inline mode {@code udp:host:port} of the NIC's socket: a one-byte datagram sent there by another
     * transport's sender wakes a thread asleep in the NIC's selector; null in thread mode.
     */
    @Override
    public String wakeAddress()
    {
        return config.mode == NicMode.INLINE ? "udp:" + nic.address : null;
    }

    /**
     * Inline mode: the NIC's held direct sends go out, whoever holds them.
     */
    @Override
    public void beforeSleep()
    {
        nic.directSends.flushHeld();
    }

    @Override
    public long prepareBlock()
    {
        return nic.prepareBlock();
    }

    @Override
    public void block(final long ticket, final long nanos)
    {
        nic.block(ticket, nanos);
    }

    @Override
    public void wakeup()
    {
        nic.wakeup();
    }

    @Override
    public void close()
    {
        if (null != keeper)
        {
            keeper.close();
        }
        if (null != runner)
        {
            runner.close();
        }
        else
        {
            nic.onClose();
        }
    }

    NicAgent nic()
    {
        return nic;
    }

    NetConfig config()
    {
        return config;
    }

    @Override
    public String toString()
    {
        return config + " " + nic;
    }
}
