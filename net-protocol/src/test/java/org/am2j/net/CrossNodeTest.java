package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.am2j.shm.LauncherTestSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every message kind and size between every pair of ranks of jobs spread over emulated nodes, contents checked at
 * both ends ({@link CrossNodeMain}): over the network alone, and with shared memory open too, where same-node pairs
 * must use shared memory only and other pairs the network only (translation transports and per-transport counters).
 */
class CrossNodeTest extends LauncherTestSupport
{
    private void crossNode(final int ranks, final int nodes, final String mode, final List<String> jvmOptions)
        throws Exception
    {
        final int rounds = 1;
        final JobResult result = runJob(100, ranks, nodes, jvmOptions, CrossNodeMain.class, Integer.toString(rounds),
            mode);
        result.assertSucceeded(ranks);
        for (int r = 0; r < ranks; r++)
        {
            final String prefix = "[" + r + "] rank " + r + " ok: handled " + (ranks - 1) * rounds * CrossNodeMain.MESSAGES +
                " requests;";
            assertEquals(1, result.out.lines().filter((line) -> line.startsWith(prefix)).count(),
                "missing '" + prefix + "'" + result.output());
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twoNodesOverTheNetworkAlone() throws Exception
    {
        crossNode(2, 2, "net", List.of("-Dam2j.transports=inproc,net"));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fourRanksOnTwoNodesWithBothProtocols() throws Exception
    {
        crossNode(4, 2, "multi", List.of());
    }

    // three nodes, NIC threads, fragments: soak (fragments and NIC threads have unit tests)
    @Tag("soak")
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void threeNodesWithTheNicOnItsOwnThreadAndA1500ByteMtu() throws Exception
    {
        crossNode(3, 3, "net", List.of("-Dam2j.transports=inproc,net", "-Dam2j.nic=thread", "-Dam2j.net.mtu=1500"));
    }
}
