package org.am2j.spmd;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.core.AmRuntime;
import org.am2j.core.JvmFlags;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.RankScope;

/**
 * Entry point of SPMD rank programs: {@code try (Job job = Spmd.init()) { ... }}.
 * <p>
 * {@link #init()} reads the process environment ({@link SpmdEnvironment}) and joins the job's rendezvous:
 * <ul>
 * <li>under am2j's launcher ({@code bin/am2j run}) the launcher runs the rendezvous server and every rank connects to
 * {@code AM2J_BOOTSTRAP};</li>
 * <li>under an external launcher (SLURM, Open MPI, PMI), and without a launcher when each process was given
 * {@code AM2J_RANK}, {@code AM2J_SIZE} and {@code AM2J_BOOTSTRAP} by hand, rank 0 runs the server in-process,
 * listening on all interfaces at the port of {@code AM2J_BOOTSTRAP}, which must therefore name rank 0's host; after
 * joining, the ranks all-gather their node identities (the shared-memory domain of each,
 * {@link org.am2j.spi.NodeIdentity}) and number the nodes in order of their lowest rank;</li>
 * <li>with none of these variables the process is rank 0 of a one-rank job and no rendezvous is used.</li>
 * </ul>
 * The call returns once every rank has joined. When rank 0 serves the rendezvous it also sets the system properties
 * {@value #NODE_PROPERTY} and {@value #JOB_PROPERTY} to the job's node identity and job id, unless they are set
 * already, so that endpoints allocated afterwards name the same node and job as the {@link Job} (am2j's launcher
 * passes the job id on the command line; the node identity is the shared-memory domain's,
 * {@link org.am2j.spi.NodeIdentity}, for the job and its endpoints alike). Under any launcher it sets
 * {@value #RANK_PROPERTY} to the rank, unless set already: endpoints allocated afterwards record it in the counters
 * {@code bin/am2j stat} shows. A rank held as a thread of a JVM with others ({@link RankScope}) sets no property: its
 * endpoints record the rank of their thread's scope.
 */
public final class Spmd
{
    /** System property the endpoint core reads for the node identity of endpoint names. */
    public static final String NODE_PROPERTY = "am2j.node";
    /** System property the endpoint core reads for the job id. */
    public static final String JOB_PROPERTY = "am2j.job";
    /** System property the endpoint core reads for the rank its endpoints belong to ({@code bin/am2j stat}). */
    public static final String RANK_PROPERTY = "am2j.rank";

    private Spmd()
    {
    }

    /**
     * Join the job this process was started in, as its environment ({@link System#getenv()}) describes, with the
     * timeouts of {@link RendezvousConfig#RendezvousConfig()}. In a JVM that holds several ranks as threads the
     * environment is that of the rank the calling thread works for ({@link RankScope}).
     *
     * @return this process's membership of the job.
     * @throws AmException {@link AmError#BAD_ARG} when the environment is malformed; {@link AmError#RESOURCE} when
     *                     the rendezvous cannot be reached or the job fails while joining.
     */
    public static Job init()
    {
        return init(RankScope.environment(), new RendezvousConfig());
    }

    /**
     * Join the job an environment describes.
     *
     * @param env    environment variables, as {@link SpmdEnvironment} reads them.
     * @param config timeouts and log of the rendezvous.
     * @return this process's membership of the job.
     * @throws AmException {@link AmError#BAD_ARG} when the environment is malformed; {@link AmError#RESOURCE} when
     *                     the rendezvous cannot be reached or the job fails while joining; {@link AmError#NOT_INIT}
     *                     when the JVM lacks the flags am2j needs ({@link JvmFlags}).
     */
    public static Job init(final Map<String, String> env, final RendezvousConfig config)
    {
        AmException.checkNotNull("config", config);
        JvmFlags.check();
        final SpmdEnvironment environment = SpmdEnvironment.parse(env);
        final InetSocketAddress bootstrap = environment.bootstrap();
        if (null == bootstrap)
        {
            return new Job(environment, 0, 1, null, null, config.lingerTimeoutMs());
        }

        if (environment.launcher().rankZeroServes())
        {
            System.getProperties().putIfAbsent(NODE_PROPERTY, environment.nodeId());
            System.getProperties().putIfAbsent(JOB_PROPERTY, environment.jobId());
        }
        if (null == RankScope.current())
        {
            // A rank held as a thread has its rank counted from its scope: the property is the whole JVM's.
            System.getProperties().putIfAbsent(RANK_PROPERTY, Integer.toString(environment.rank()));
        }
        RendezvousServer server = null;
        RendezvousClient client = null;
        try
        {
            if (environment.launcher().rankZeroServes() && environment.rank() == 0)
            {
                server = RendezvousServer.start(
                    new InetSocketAddress(bootstrap.getPort()), environment.size(), environment.jobId(), config);
            }
            final int hostRank = environment.launcher().rankZeroServes() ? 0 : -1;
            client = RendezvousClient.connect(bootstrap, environment.rank(), environment.size(),
                environment.jobId(), config, hostRank, Spmd::rankLost);
            int node = environment.node();
            int nodes = environment.nodes();
            if (node == SpmdEnvironment.UNKNOWN_NODE)
            {
                final byte[][] nodeIds = client.allGather(environment.nodeId().getBytes(StandardCharsets.UTF_8));
                final int[] indices = nodeIndices(nodeIds);
                node = indices[environment.rank()];
                nodes = Arrays.stream(indices).max().orElse(-1) + 1;
            }
            final RankScope scope = RankScope.current();
            if (null != scope)
            {
                scope.markJoined();
            }
            return new Job(environment, node, nodes, client, server, config.lingerTimeoutMs());
        }
        catch (final RuntimeException ex)
        {
            if (null != client)
            {
                client.close();
            }
            if (null != server)
            {
                server.close();
            }
            throw ex;
        }
    }

    /**
     * A rank of this job is gone: its process is treated as dead by every transport, so that what was sent to it stops
     * waiting for an answer that cannot come.
     */
    private static void rankLost(final int rank, final long processId)
    {
        if (processId == ProcessIdentity.currentProcessId())
        {
            // A sibling rank of this JVM (ranks as threads): this process lives, and its ranks' supervisor, not the
            // transports, answers for the sibling's end.
            return;
        }
        System.getLogger("org.am2j").log(System.Logger.Level.WARNING, "rank " + rank + " of this job was lost (its " +
            "rendezvous connection closed without leaving the job): its process is treated as dead, and messages " +
            "sent to it come back to handler 0, EOUTCOMEUNKNOWN where they may have run there");
        AmRuntime.processGone(processId);
    }

    /**
     * Number the nodes of a job in order of their lowest rank.
     *
     * @param nodeIds node identity of each rank, UTF-8, in rank order.
     * @return node index of each rank: rank 0's node is 0, the next node identity met is 1, and so on.
     */
    static int[] nodeIndices(final byte[][] nodeIds)
    {
        final Map<String, Integer> indexByNode = new HashMap<>();
        final int[] indices = new int[nodeIds.length];
        for (int r = 0; r < nodeIds.length; r++)
        {
            // the map's size before the new node is added: nodes are numbered in order of first appearance
            indices[r] = indexByNode.computeIfAbsent(
                new String(nodeIds[r], StandardCharsets.UTF_8), nodeId -> indexByNode.size());
        }
        return indices;
    }
}
