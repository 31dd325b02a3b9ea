package org.am2j.spmd;

import java.util.concurrent.TimeUnit;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * This process's membership of an SPMD job: its rank, the job's size, the node it runs on, and the bootstrap
 * collectives every rank calls in the same order (a barrier and an all-gather of small byte arrays, e.g. endpoint
 * names). Obtain one with {@link Spmd#init()}; close it when the rank is done.
 * <p>
 * The collectives are meant for setting a job up, not for the job's own traffic (that is what AM-II endpoints are
 * for): they go through a TCP rendezvous. When another rank dies or leaves, or a collective times out, the collective
 * and every later one throw {@link AmException} with {@link AmError#RESOURCE}, naming the rank to blame. A job of one
 * rank needs no rendezvous: its collectives return at once.
 * <p>
 * Thread-safe: the collectives of one job are serialised.
 */
public final class Job implements AutoCloseable
{
    private final SpmdEnvironment environment;
    private final int node;
    private final int nodes;
    private final RendezvousClient client;
    private final RendezvousServer server;
    private final long lingerTimeoutMs;
    private boolean closed;

    /**
     * @param environment     where this process sits in its job.
     * @param node            index of this rank's node.
     * @param nodes           number of nodes.
     * @param client          the connection to the rendezvous, or {@code null} for a job of one rank without one.
     * @param server          the rendezvous server this process hosts, or {@code null}.
     * @param lingerTimeoutMs how long {@link #close()} waits for the other ranks to leave a hosted server.
     */
    Job(
        final SpmdEnvironment environment,
        final int node,
        final int nodes,
        final RendezvousClient client,
        final RendezvousServer server,
        final long lingerTimeoutMs)
    {
        this.environment = environment;
        this.node = node;
        this.nodes = nodes;
        this.client = client;
        this.server = server;
        this.lingerTimeoutMs = lingerTimeoutMs;
    }

    /**
     * @return rank of this process, 0 to {@link #size()} - 1.
     */
    public int rank()
    {
        return environment.rank();
    }

    /**
     * @return number of ranks.
     */
    public int size()
    {
        return environment.size();
    }

    /**
     * @return index of this rank's node, 0 to {@link #nodes()} - 1; ranks with equal indices share memory.
     */
    public int node()
    {
        return node;
    }

    /**
     * @return number of nodes the job runs on.
     */
    public int nodes()
    {
        return nodes;
    }

    /**
     * @return identity of this rank's node, as endpoint names record it.
     */
    public String nodeId()
    {
        return environment.nodeId();
    }

    /**
     * @return the job id, safe to use in a file name.
     */
    public String jobId()
    {
        return environment.jobId();
    }

    /**
     * @return the launcher that started this process.
     */
    public LauncherKind launcher()
    {
        return environment.launcher();
    }

    /**
     * Wait until every rank has entered this barrier.
     *
     * @throws AmException {@link AmError#RESOURCE} when the job has failed (naming the rank) or the barrier timed
     *                     out; {@link AmError#NOT_INIT} when the job is closed.
     */
    public synchronized void barrier()
    {
        checkOpen("barrier");
        if (null != client)
        {
            client.barrier();
        }
    }

    /**
     * Give a contribution and receive the contributions of every rank.
     *
     * @param mine this rank's contribution, 0 to {@link RendezvousDescriptor#MAX_CONTRIBUTION} bytes.
     * @return the contributions in rank order; {@code result[rank()]} is a copy of {@code mine}.
     * @throws AmException {@link AmError#BAD_ARG} when {@code mine} is null or longer than
     *                     {@link RendezvousDescriptor#MAX_CONTRIBUTION} bytes; {@link AmError#RESOURCE} when the job
     *                     has failed or the all-gather timed out; {@link AmError#NOT_INIT} when the job is closed.
     */
    public synchronized byte[][] allGather(final byte[] mine)
    {
        RendezvousClient.checkContribution(mine);
        checkOpen("allGather");
        if (null == client)
        {
            return new byte[][]{ mine.clone() };
        }
        return client.allGather(mine);
    }

    /**
     * Leave the job. A rank 0 that hosts the rendezvous (under an external launcher) first waits, at most the linger
     * timeout, for the other ranks to leave. Later collectives of the other ranks fail, naming this rank. Closing
     * twice is harmless.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (null != client)
        {
            client.close();
        }
        if (null != server)
        {
            try
            {
                server.awaitDeparture(lingerTimeoutMs, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            finally
            {
                server.close();
            }
        }
    }

    /**
     * @return true once {@link #close()} has been called.
     */
    public synchronized boolean isClosed()
    {
        return closed;
    }

    private void checkOpen(final String call)
    {
        if (closed)
        {
            throw new AmException(AmError.NOT_INIT, call + " on closed job '" + jobId() + "' (rank " + rank() + ")");
        }
    }

    @Override
    public String toString()
    {
        return "Job{" + jobId() + ", rank " + rank() + " of " + size() + ", node " + node + " of " + nodes +
            " (" + nodeId() + "), " + launcher() + '}';
    }
}
