package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Rank pairs served by shared NIC processes ({@code --nics-per-node 1}), with real JVMs: the launcher starts one NIC
 * process per emulated node, and none is left when the pair ends, whether it measured or failed. No assertion about
 * speed.
 */
class SharedNicPairTest
{
    private static final Pattern NIC_STARTED = Pattern.compile("\\[nic ([01])\\.0\\] am2j NIC 0 pid ([0-9]+) at ");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    @Timeout(300)
    void aPairOnSharedNicsMeasuresAndLeavesNoNicProcess() throws Exception
    {
        assumeTrue(TransportCheck.available().contains("net"), "net-protocol is not on the class path");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final RankPairs pairs = new RankPairs("am2j logp", print(out), print(err));
        final Results results = pairs.measure("poll cost net", NetPollRank.class.getName(),
            (line, file) -> new RankConfig(Protocol.NET.route(), 1_000, 1_000, 0, 0, 0, 0, 5, EpochGuard.NO_PROBE,
                line, file),
            // a pair time limit of about 200 s (RankPairs.pairTimeoutSeconds): the machine-state probes of a busy
            // machine, not the 5,000 polls, take the time
            NetPollCost.properties(NetPollCost.NETWORK), Protocol.NET.nodes(), 1, 1, 4_000_000);
        assertNotNull(results, output());
        assertTrue(results.getDouble("poll_empty_ns") > 0, output());
        assertEquals(5, results.getLong("poll_blocks"));
        assertTrue(results.getString("poll_scheduler").contains("every"), results.getString("poll_scheduler"));

        final List<Long> nics = nicPids();
        assertEquals(2, nics.size(), "one NIC process per emulated node" + output());
        for (final long pid : nics)
        {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                "NIC process " + pid + " left running");
        }
        assertNoProcessLeft();
    }

    @Test
    @Timeout(180)
    void aFailingPairStopsItsNicProcesses() throws Exception
    {
        assumeTrue(TransportCheck.available().contains("net"), "net-protocol is not on the class path");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs are needed for two spinning JVMs");
        final Path line = CacheLinePingPong.createFile();
        try
        {
            // no transport is named "bogus": both ranks fail at the route check, after their NIC served them
            final RankConfig config = new RankConfig("bogus", 1_000, 0, 0, 1, 0, PingPongOptions.MIN_BW_MESSAGES, 1,
                EpochGuard.NO_PROBE, line, dir.resolve("never.results"));
            final int status = new RankPairs("am2j pingpong", print(out), print(err)).runPair("failing",
                AmPingPongRank.class.getName(), config.toArgs(), Protocol.NET.systemProperties(), 2, 1, 1, 90);
            assertTrue(status != 0, "status " + status);
            assertTrue(output().contains("[nic 0.0]") || output().contains("am2j run: "), output());
            assertNoProcessLeft();
            assertFalse(Files.exists(dir.resolve("never.results")));
        }
        finally
        {
            Files.deleteIfExists(line);
        }
    }

    private List<Long> nicPids()
    {
        final List<Long> pids = new ArrayList<>();
        final Matcher matcher = NIC_STARTED.matcher(out.toString(StandardCharsets.UTF_8) +
            err.toString(StandardCharsets.UTF_8));
        while (matcher.find())
        {
            pids.add(Long.parseLong(matcher.group(2)));
        }
        return pids;
    }

    private static void assertNoProcessLeft()
    {
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(),
            "rank or NIC JVMs left running");
    }

    private String output()
    {
        return "\n--- stdout ---\n" + out.toString(StandardCharsets.UTF_8) + "--- stderr ---\n" +
            err.toString(StandardCharsets.UTF_8);
    }

    private static PrintStream print(final ByteArrayOutputStream bytes)
    {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
