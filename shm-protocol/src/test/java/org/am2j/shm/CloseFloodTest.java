package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.am2j.spi.ShmDirectories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint freed while 4 peer processes flood it over shared memory: every request of every peer is either
 * delivered at the receiver (its handler ran) or returned to the peer's handler 0 with EBADENDPOINT, never both,
 * never twice, none missing (per peer, sent = delivered + returned), and some of the returned ones were queued at the
 * receiver when it was freed. Real JVMs, started directly with one node and job id; every process is killed and the
 * job's files are removed when the test fails, and a clean run leaves nothing behind.
 * <p>
 * The default build runs one short round; the {@code soak} tag runs many longer ones.
 */
class CloseFloodTest
{
    private static final int PEERS = 4;
    private static final long EXIT_MS = 60_000;
    private static final Pattern PEER_OK = Pattern.compile(
        "peer (\\d+) ok: sent (\\d+) delivered (\\d+) returned (\\d+) \\(by the close (\\d+), at the send (\\d+)\\) " +
        "duplicates (\\d+)");

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();
    private final String unique = "close-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    private String job;
    /** JVM options of every process of the test (settings of the transport). */
    private List<String> options = List.of();

    @AfterEach
    void killEverythingStartedAndRemoveItsFiles() throws Exception
    {
        for (final Process process : started)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        for (final Process process : started)
        {
            process.waitFor(10, TimeUnit.SECONDS);
        }
        // A clean run has removed these already (and asserted it); a failed one may leave them.
        for (final Process process : started)
        {
            Files.deleteIfExists(ShmDirectories.userRoot().resolve("counters").resolve(process.pid() + ".counters"));
        }
        if (null != job)
        {
            deleteTree(LauncherTestSupport.jobDirectory(job));
        }
    }

    private static void deleteTree(final Path root) throws IOException
    {
        if (!Files.exists(root))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
    }

    // soak: the default build frees an endpoint mid-flood through small fast boxes, which holds messages in both the
    // boxes and the shared queue at the close
    @Tag("soak")
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anEndpointFreedWhileFourPeersFloodItReturnsEveryRequestItDidNotDeliver() throws Exception
    {
        round(0, 10_000, 4_000);
    }

    /**
     * The same through fast boxes of 4 packets, which overflow into the shared queue all the time: the close finds
     * messages in the boxes and in the shared queue, and returns each once.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anEndpointFreedWhileFourPeersFloodItsSmallFastBoxesReturnsEveryRequestItDidNotDeliver() throws Exception
    {
        options = List.of("-Dam2j.shm.boxDepth=4");
        round(0, 10_000, 4_000);
    }

    /**
     * Twenty rounds, each with larger floods, the receiver freed after a different share of them.
     */
    @Test
    @Tag("soak")
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void soakManyRoundsOfFreeingAnEndpointMidFlood() throws Exception
    {
        for (int round = 0; round < 20; round++)
        {
            round(round, 100_000, 10_000 + round * 15_000);
            killEverythingStartedAndRemoveItsFiles();
            started.clear();
        }
    }

    private void round(final int round, final int perPeer, final int deliverBeforeClose) throws Exception
    {
        job = "job-" + unique + "-" + round;
        final Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
        final List<String> names = new ArrayList<>();
        final Process receiver = start(roundDir, "receiver", "receiver", roundDir.toString(),
            Integer.toString(PEERS), Integer.toString(deliverBeforeClose));
        names.add("receiver");
        final List<Process> peers = new ArrayList<>();
        for (int i = 0; i < PEERS; i++)
        {
            peers.add(start(roundDir, "peer" + i, "peer", roundDir.toString(), Integer.toString(i),
                Integer.toString(perPeer), Integer.toString(PEERS)));
            names.add("peer" + i);
        }
        awaitExit(receiver, roundDir, "receiver", names);
        for (int i = 0; i < PEERS; i++)
        {
            awaitExit(peers.get(i), roundDir, "peer" + i, names);
        }

        long byClose = 0;
        for (int i = 0; i < PEERS; i++)
        {
            final BitSet delivered = CloseFloodMain.readSet(roundDir.resolve("delivered-" + i));
            final BitSet returned = CloseFloodMain.readSet(roundDir.resolve("returned-" + i));
            final BitSet both = (BitSet)delivered.clone();
            both.and(returned);
            assertTrue(both.isEmpty(), "peer " + i + ": delivered and returned: " + both);
            final BitSet all = (BitSet)delivered.clone();
            all.or(returned);
            assertEquals(perPeer, all.cardinality(), "peer " + i + ": delivered " + delivered.cardinality() +
                " + returned " + returned.cardinality() + " of " + perPeer);
            assertEquals(perPeer, all.nextClearBit(0), "peer " + i + ": first missing");
            final String out = Files.readString(roundDir.resolve("peer" + i + ".out"));
            final Matcher m = PEER_OK.matcher(out);
            assertTrue(m.find(), "peer " + i + " summary" + outputs(roundDir, names));
            assertEquals("0", m.group(7), "peer " + i + ": returned twice");
            byClose += Long.parseLong(m.group(5));
            System.out.println("CloseFloodTest round " + round + ": " + m.group());
        }
        assertTrue(byClose > 0, "no request was queued at the receiver when it was freed" + outputs(roundDir, names));

        final List<Long> pids = new ArrayList<>();
        started.forEach(p -> pids.add(p.pid()));
        LauncherTestSupport.assertNothingLeft(job, pids);
    }

    private Process start(final Path roundDir, final String name, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(options);
        command.add("-Dam2j.node=node-" + unique);
        command.add("-Dam2j.job=" + job);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(CloseFloodMain.class.getName());
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command)
            .redirectOutput(roundDir.resolve(name + ".out").toFile())
            .redirectError(roundDir.resolve(name + ".err").toFile())
            .start();
        started.add(process);
        return process;
    }

    private static void awaitExit(final Process process, final Path roundDir, final String name,
        final List<String> names) throws Exception
    {
        if (!process.waitFor(EXIT_MS, TimeUnit.MILLISECONDS))
        {
            fail(name + " did not exit within " + EXIT_MS + " ms" + outputs(roundDir, names));
        }
        assertEquals(0, process.exitValue(), name + " exit status" + outputs(roundDir, names));
    }

    private static String outputs(final Path roundDir, final List<String> names) throws IOException
    {
        final StringBuilder all = new StringBuilder();
        for (final String name : names)
        {
            final Path out = roundDir.resolve(name + ".out");
            final Path err = roundDir.resolve(name + ".err");
            all.append("\n--- ").append(name).append(" stdout ---\n")
                .append(Files.exists(out) ? Files.readString(out) : "")
                .append("--- ").append(name).append(" stderr ---\n")
                .append(Files.exists(err) ? Files.readString(err) : "");
        }
        return all.toString();
    }
}
