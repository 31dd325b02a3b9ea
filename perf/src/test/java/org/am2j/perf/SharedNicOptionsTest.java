package org.am2j.perf;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --nics-per-node K} of {@code am2j pingpong} and {@code am2j logp}: parsed and checked, named in the results,
 * and handed to the launcher only for the pairs that reach each other through a NIC.
 */
@Timeout(30)
class SharedNicOptionsTest
{
    @Test
    void pingPongKeepsTheInProcessNicByDefault()
    {
        final PingPongOptions options = PingPongOptions.parse(new String[]{ "--protocol", "net" });
        assertEquals(0, options.nicsPerNode());
        assertEquals(PingPongOptions.IN_PROCESS_NIC, PingPongOptions.nicKind(options.nicsPerNode()));
    }

    @Test
    void pingPongReadsNicsPerNodeOverTheNetwork()
    {
        final PingPongOptions net = PingPongOptions.parse(new String[]{ "--nics-per-node", "1", "--protocol", "net" });
        assertEquals(1, net.nicsPerNode());
        assertEquals(PingPongOptions.SHARED_NIC, PingPongOptions.nicKind(net.nicsPerNode()));
        final PingPongOptions multi = PingPongOptions.parse(
            new String[]{ "--protocol", "multi-net", "--nics-per-node", "3", "--quick" });
        assertEquals(3, multi.nicsPerNode());
        assertTrue(multi.quick());
        assertEquals(0, PingPongOptions.parse(
            new String[]{ "--protocol", "shm", "--nics-per-node", "0" }).nicsPerNode());
    }

    @Test
    void pingPongRefusesSharedNicsWhereNoNicCarriesTheMessages()
    {
        for (final String protocol : new String[]{ "shm", "multi-shm" })
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> PingPongOptions.parse(new String[]{ "--protocol", protocol, "--nics-per-node", "1" }));
            assertTrue(ex.getMessage().contains("needs a network protocol"), ex.getMessage());
        }
    }

    @Test
    void badCountsAreRefusedWithTheirRange()
    {
        for (final String bad : new String[]{ "-1", "65", "one", "" })
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> PingPongOptions.parse(new String[]{ "--protocol", "net", "--nics-per-node", bad }));
            assertTrue(ex.getMessage().startsWith("--nics-per-node"), ex.getMessage());
            final IllegalArgumentException logp = assertThrows(IllegalArgumentException.class,
                () -> LogPOptions.parse(new String[]{ "--nics-per-node", bad }));
            assertTrue(logp.getMessage().startsWith("--nics-per-node"), logp.getMessage());
        }
        assertThrows(IllegalArgumentException.class,
            () -> PingPongOptions.parse(new String[]{ "--protocol", "net", "--nics-per-node" }));
    }

    @Test
    void logPSharesTheNicOfTheNetworkConfigurationsOnly()
    {
        assertEquals(0, LogPOptions.parse(new String[0]).nicsPerNode());
        final LogPOptions options = LogPOptions.parse(new String[]{ "--quick", "--nics-per-node", "2" });
        assertEquals(2, options.nicsPerNode());
        assertTrue(options.quick());
        assertEquals(2, options.nicsPerNode(Protocol.NET));
        assertEquals(2, options.nicsPerNode(Protocol.MULTI_NET));
        assertEquals(0, options.nicsPerNode(Protocol.SHM));
        assertEquals(0, options.nicsPerNode(Protocol.MULTI_SHM));
    }

    @Test
    void theLauncherIsAskedForNicProcessesOnlyWhenSharedNicsAre()
    {
        final List<String> shared = RankPairs.launchArgs("Main", List.of("--a", "b"),
            Map.of("am2j.transports", "inproc,net"), 2, 1, 1, 130, "cp");
        assertEquals(List.of("-n", "2", "--nodes", "2", "--nics-per-node", "1", "--ranks-per-jvm", "1", "--pin",
            "--timeout", "130",
            "--jvm-opt", "-Dam2j.transports=inproc,net", "--cp", "cp", "--", "Main", "--a", "b"), shared);
        final List<String> inProcess = RankPairs.launchArgs("Main", List.of(), Map.of(), 1, 0, 2, 120, "cp");
        assertEquals(List.of("-n", "2", "--nodes", "1", "--ranks-per-jvm", "2", "--pin", "--timeout", "120", "--cp",
            "cp", "--", "Main"),
            inProcess);
        assertFalse(inProcess.contains("--nics-per-node"));
    }

    @Test
    void thePollCostPairsPollTheNetworkEveryTimeOrUnderTheCalibratedScheduler()
    {
        assertEquals("every", NetPollCost.properties(NetPollCost.NETWORK).get("am2j.poll"));
        assertEquals(Protocol.NET.systemProperties().get("am2j.transports"),
            NetPollCost.properties(NetPollCost.NETWORK).get("am2j.transports"));
        assertEquals("calibrated", NetPollCost.properties(NetPollCost.CALIBRATED).get("am2j.poll"));
        assertEquals(Protocol.MULTI_NET.systemProperties().get("am2j.transports"),
            NetPollCost.properties(NetPollCost.CALIBRATED).get("am2j.transports"));
    }

    @Test
    void theRatioIsReadFromTheSchedulersDescription()
    {
        assertEquals(38.2, NetPollRank.ratio(
            "Bundle[SEQ, 1 endpoints, poll calibrated[ratio 38.2 measured, 31..122, rate 1/122]]"));
        assertEquals(240.0, NetPollRank.ratio("calibrated[ratio 240 measured, 192..768, rate 1/200]"));
        assertEquals(20.0, NetPollRank.ratio("follow[quiet 1/2000 from ratio 20, network quiet]"));
        // a network poll cheaper than a local one (a shared NIC's queue beside many shared-memory peers)
        assertEquals(-0.2, NetPollRank.ratio("calibrated[ratio -0.2 measured, 2..2, rate 1/2]"));
        assertTrue(Double.isNaN(NetPollRank.ratio("calibrated[ratio pending, paper's 8..32, rate 1/32]")));
        assertTrue(Double.isNaN(NetPollRank.ratio("Bundle[SEQ, 1 endpoints, poll every]")));
    }
}
