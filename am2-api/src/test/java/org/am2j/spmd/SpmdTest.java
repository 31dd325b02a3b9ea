package org.am2j.spmd;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpmdTest
{
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final String nodeProperty = System.getProperty(Spmd.NODE_PROPERTY);
    private final String jobProperty = System.getProperty(Spmd.JOB_PROPERTY);

    @AfterEach
    void tearDown()
    {
        executor.shutdownNow();
        restore(Spmd.NODE_PROPERTY, nodeProperty);
        restore(Spmd.JOB_PROPERTY, jobProperty);
    }

    private static void restore(final String name, final String value)
    {
        if (null == value)
        {
            System.clearProperty(name);
        }
        else
        {
            System.setProperty(name, value);
        }
    }

    private static RendezvousConfig config()
    {
        return new RendezvousConfig().connectTimeoutMs(10_000).collectiveTimeoutMs(20_000).lingerTimeoutMs(10_000);
    }

    @Test
    void withoutLauncherTheJobIsOneRankWithoutRendezvous()
    {
        final Job job = Spmd.init(Map.of(), config());

        assertEquals(LauncherKind.NONE, job.launcher());
        assertEquals(0, job.rank());
        assertEquals(1, job.size());
        assertEquals(0, job.node());
        assertEquals(1, job.nodes());
        job.barrier();
        final byte[] mine = { 1, 2, 3 };
        final byte[][] all = job.allGather(mine);
        assertEquals(1, all.length);
        assertArrayEquals(mine, all[0]);
        assertNotSame(mine, all[0]);
        assertEquals(AmError.BAD_ARG, assertThrows(
            AmException.class, () -> job.allGather(new byte[RendezvousDescriptor.MAX_CONTRIBUTION + 1])).error());

        job.close();
        job.close();
        assertTrue(job.isClosed());
        assertEquals(AmError.NOT_INIT, assertThrows(AmException.class, job::barrier).error());
    }

    @Test
    void underAnExternalLauncherRankZeroHostsTheRendezvousAndNodesAreDerived() throws Exception
    {
        final int port = freePort();
        final String[] nodeIds = { "hostA", "hostA", "hostB", "hostB" };
        final List<Future<String>> ranks = new ArrayList<>();
        for (int r = 0; r < 4; r++)
        {
            final Map<String, String> env = new HashMap<>();
            env.put("OMPI_COMM_WORLD_RANK", Integer.toString(r));
            env.put("OMPI_COMM_WORLD_SIZE", "4");
            env.put("AM2J_BOOTSTRAP", "127.0.0.1:" + port);
            env.put("AM2J_NODE_ID", nodeIds[r]);
            ranks.add(executor.submit(() ->
            {
                try (Job job = Spmd.init(env, config()))
                {
                    final byte[][] all = job.allGather(new byte[]{ (byte)job.rank() });
                    for (int i = 0; i < all.length; i++)
                    {
                        assertArrayEquals(new byte[]{ (byte)i }, all[i]);
                    }
                    job.barrier();
                    return job.launcher() + " rank " + job.rank() + " of " + job.size() + " on node " + job.node() +
                        " of " + job.nodes() + " (" + job.nodeId() + ") job " + job.jobId();
                }
            }));
        }

        for (int r = 0; r < 4; r++)
        {
            final String expected = "OPEN_MPI rank " + r + " of 4 on node " + r / 2 + " of 2 (" + nodeIds[r] +
                ") job boot-127.0.0.1-" + port;
            assertEquals(expected, ranks.get(r).get(20, TimeUnit.SECONDS));
        }
        if (null == nodeProperty)
        {
            assertTrue(List.of(nodeIds).contains(System.getProperty(Spmd.NODE_PROPERTY)));
        }
        if (null == jobProperty)
        {
            assertEquals("boot-127.0.0.1-" + port, System.getProperty(Spmd.JOB_PROPERTY));
        }
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }
}
