package org.am2j.spmd;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * The rendezvous server of one SPMD job: every rank connects to it over TCP, says hello, and then runs the job's
 * collectives (barrier, all-gather) through it in lock-step. The frames are those of {@link RendezvousDescriptor}.
 * <p>
 * am2j's launcher runs the server in its own process; under an external launcher rank 0 runs it (see {@link Spmd}).
 * <p>
 * <b>Threading.</b> One daemon thread owns a selector, every connection and all job state; the public methods only
 * read volatile fields or a latch, and {@link #close()} stops the thread.
 * <p>
 * <b>Structure.</b> This class listens, accepts and runs the selector loop; {@link RendezvousConnection} does the
 * framing of each connection and {@link RendezvousJob} the protocol's state machine (joining, collectives, failure).
 * <p>
 * <b>Failure.</b> When a rank disconnects without saying goodbye, sends a bad frame, or the job outlives a timeout,
 * every rank connected is told why and every later collective is answered with it, so no rank hangs (see
 * {@link RendezvousJob}).
 * <p>
 * <b>Bad input.</b> A frame with a wrong magic, version, type, rank or collective number, or a length above the bound
 * of its type, closes that connection with a logged reason; payloads are allocated only after their length has been
 * checked against that bound, so memory stays within size x {@link RendezvousDescriptor#MAX_CONTRIBUTION} plus one
 * frame per connection. At most {@value #MAX_UNJOINED} connections may wait to say hello, each for at most the
 * connect timeout.
 */
public final class RendezvousServer implements AutoCloseable
{
    /** Most connections that may be open without having said hello. */
    static final int MAX_UNJOINED = RendezvousJob.MAX_UNJOINED;

    private static final long SELECT_TIMEOUT_MS = 100;

    private final int size;
    private final String jobId;
    private final Consumer<String> log;
    private final ServerSocketChannel acceptor;
    private final Selector selector;
    private final InetSocketAddress address;
    private final Thread thread;
    private final RendezvousJob job;
    private volatile boolean running = true;

    private RendezvousServer(
        final int size,
        final String jobId,
        final RendezvousConfig config,
        final ServerSocketChannel acceptor,
        final Selector selector,
        final InetSocketAddress address)
    {
        this.size = size;
        this.jobId = jobId;
        this.log = config.log();
        this.acceptor = acceptor;
        this.selector = selector;
        this.address = address;
        this.job = new RendezvousJob(size, jobId, config, System.nanoTime());
        this.thread = new Thread(this::run, "am2j-rendezvous-" + jobId);
        this.thread.setDaemon(true);
    }

    /**
     * Listen for the ranks of a job and start serving them.
     *
     * @param bindAddress where to listen; port 0 picks a free port (see {@link #address()}).
     * @param size        number of ranks in the job, 1 to {@link SpmdEnvironment#MAX_SIZE}.
     * @param jobId       id every rank must present in its hello.
     * @param config      timeouts and log.
     * @return the running server.
     * @throws AmException {@link AmError#BAD_ARG} for a bad argument, {@link AmError#RESOURCE} when the address
     *                     cannot be bound.
     */
    public static RendezvousServer start(
        final InetSocketAddress bindAddress, final int size, final String jobId, final RendezvousConfig config)
    {
        AmException.checkNotNull("bindAddress", bindAddress);
        AmException.checkRange("size", size, 1, SpmdEnvironment.MAX_SIZE + 1L);
        AmException.checkNotNull("jobId", jobId);
        AmException.checkNotNull("config", config);
        Selector selector = null;
        ServerSocketChannel acceptor = null;
        try
        {
            selector = Selector.open();
            acceptor = ServerSocketChannel.open();
            acceptor.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            acceptor.bind(bindAddress, Math.min(size, 1024) + 16);
            acceptor.configureBlocking(false);
            acceptor.register(selector, SelectionKey.OP_ACCEPT);
            final InetSocketAddress bound = (InetSocketAddress)acceptor.getLocalAddress();
            final RendezvousServer server = new RendezvousServer(size, jobId, config, acceptor, selector, bound);
            server.thread.start();
            return server;
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(acceptor);
            CloseHelper.quietClose(selector);
            throw new AmException(AmError.RESOURCE, "cannot listen on " + bindAddress + " for the rendezvous of job '" +
                jobId + "': " + ex.getMessage(), ex);
        }
    }

    /**
     * @return the address the server listens on, with the actual port.
     */
    public InetSocketAddress address()
    {
        return address;
    }

    /**
     * @return true once every rank has joined the job (said hello); a rank cannot have returned from
     * {@link Spmd#init()} before.
     */
    public boolean everyRankJoined()
    {
        return job.everyRankJoined();
    }

    /**
     * Wait until every rank has left the job, by saying goodbye or by disconnecting.
     *
     * @param timeout longest wait.
     * @param unit    of the timeout.
     * @return true when every rank has left, false when the time ran out first.
     * @throws InterruptedException when the waiting thread is interrupted.
     */
    public boolean awaitDeparture(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return job.departures().await(timeout, unit);
    }

    /**
     * Stop serving and close every connection. Ranks still connected see the connection close. Closing twice is
     * harmless.
     */
    @Override
    public void close()
    {
        running = false;
        selector.wakeup();
        if (Thread.currentThread() != thread)
        {
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run()
    {
        try
        {
            while (running)
            {
                selector.select(SELECT_TIMEOUT_MS);
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext())
                {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    handle(key);
                }
                job.checkTimeouts(System.nanoTime());
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            job.fail(-1, "the rendezvous server of job '" + jobId + "' stopped: " + ex, true);
        }
        finally
        {
            job.closeAll();
            CloseHelper.quietClose(acceptor);
            CloseHelper.quietClose(selector);
        }
    }

    private void handle(final SelectionKey key)
    {
        if (!key.isValid())
        {
            return;
        }
        if (key.isAcceptable())
        {
            accept();
            return;
        }
        final RendezvousConnection peer = (RendezvousConnection)key.attachment();
        try
        {
            if (key.isReadable())
            {
                peer.read();
            }
            if (peer.open && key.isValid() && key.isWritable())
            {
                peer.flush();
            }
        }
        catch (final CancelledKeyException ex)
        {
            job.onDisconnected(peer, "its selection key was cancelled");
        }
        catch (final IOException ex)
        {
            job.onDisconnected(peer, "I/O error: " + ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            job.onBadFrame(peer, "unexpected " + ex);
        }
    }

    private void accept()
    {
        while (true)
        {
            final SocketChannel channel;
            try
            {
                channel = acceptor.accept();
            }
            catch (final IOException ex)
            {
                log.accept("cannot accept a connection: " + ex.getMessage());
                return;
            }
            if (null == channel)
            {
                return;
            }
            final String remote = remoteAddress(channel);
            if (!job.canAccept())
            {
                log.accept("refused the connection from " + remote + ": " + MAX_UNJOINED +
                    " connections have not said hello yet");
                CloseHelper.quietClose(channel);
                continue;
            }
            try
            {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                final RendezvousConnection peer = new RendezvousConnection(channel, remote, System.nanoTime(), job);
                peer.key(channel.register(selector, SelectionKey.OP_READ, peer));
                job.accepted(peer);
            }
            catch (final IOException ex)
            {
                log.accept("cannot set up the connection from " + remote + ": " + ex.getMessage());
                CloseHelper.quietClose(channel);
            }
        }
    }

    private static String remoteAddress(final SocketChannel channel)
    {
        try
        {
            return String.valueOf(channel.getRemoteAddress());
        }
        catch (final IOException ex)
        {
            return "an unknown address";
        }
    }
}
