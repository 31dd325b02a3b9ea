package org.am2j.perf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class PingPongOptionsTest
{
    @Test
    void defaultsAreAMillionRoundTripsAfterWarmUp()
    {
        final PingPongOptions options = PingPongOptions.parse(new String[]{ "--protocol", "shm" });
        assertEquals(Protocol.SHM, options.protocol());
        assertEquals(1_000_000, options.rounds());
        assertEquals(200_000, options.warmup());
        assertEquals(0, options.size());
        assertNull(options.json());
        assertFalse(options.quick());
        assertEquals(1_000_000 / 64, options.osBursts());
        assertEquals(PingPongOptions.MAX_BW_MESSAGES, options.bwMessages());
    }

    @Test
    void quickIsAHundredThousandUnlessRoundsAreGiven()
    {
        final PingPongOptions quick = PingPongOptions.parse(new String[]{ "--quick", "--protocol", "shm" });
        assertEquals(100_000, quick.rounds());
        assertEquals(20_000, quick.warmup());

        final PingPongOptions explicit = PingPongOptions.parse(
            new String[]{ "--rounds", "2000", "--protocol", "shm", "--quick", "--warmup", "0" });
        assertEquals(2_000, explicit.rounds());
        assertEquals(0, explicit.warmup());
        assertEquals(PingPongOptions.MIN_BW_MESSAGES, explicit.bwMessages());
        assertEquals(31, explicit.osBursts());
    }

    @Test
    void everyOptionIsRead()
    {
        final PingPongOptions options = PingPongOptions.parse(new String[]{
            "--protocol", "multi-net", "--size", "8192", "--rounds", "5", "--warmup", "7", "--json", "/tmp/x.json" });
        assertEquals(Protocol.MULTI_NET, options.protocol());
        assertEquals(8192, options.size());
        assertEquals(5, options.rounds());
        assertEquals(7, options.warmup());
        assertEquals(Path.of("/tmp/x.json"), options.json());
        assertEquals(1, options.osBursts());
    }

    @Test
    void pollAndNicBecomeSystemPropertiesOfTheAmRanks()
    {
        final PingPongOptions options = PingPongOptions.parse(new String[]{
            "--protocol", "multi-net", "--poll", "adaptive:8-32", "--nic", "thread" });
        assertEquals("adaptive:8-32", options.poll());
        assertEquals("thread", options.nic());
        assertEquals("adaptive:8-32", options.amProperties(options.protocol()).get("am2j.poll"));
        assertEquals("thread", options.amProperties(options.protocol()).get("am2j.nic"));
        assertEquals("inproc,shm,net", options.amProperties(options.protocol()).get(Protocol.TRANSPORTS_PROPERTY));
        final PingPongOptions plain = PingPongOptions.parse(new String[]{ "--protocol", "shm" });
        assertEquals(null, plain.amProperties(plain.protocol()).get("am2j.poll"));
        assertEquals(null, plain.amProperties(plain.protocol()).get("am2j.nic"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> PingPongOptions.parse(new String[]{ "--protocol", "net", "--nic", "fast" }));
    }

    @Test
    void protocolsMapToTransportsNodesAndRoutes()
    {
        assertEquals("inproc,shm", Protocol.SHM.systemProperties().get(Protocol.TRANSPORTS_PROPERTY));
        assertEquals(1, Protocol.SHM.nodes());
        assertEquals("shm", Protocol.SHM.route());
        assertEquals("inproc,shm,net", Protocol.MULTI_SHM.transports());
        assertEquals("shm", Protocol.MULTI_SHM.route());
        assertEquals(2, Protocol.NET.nodes());
        assertEquals("net", Protocol.NET.route());
        assertEquals(2, Protocol.MULTI_NET.nodes());
        for (final Protocol protocol : Protocol.values())
        {
            assertEquals(protocol, Protocol.byName(protocol.cliName()));
        }
    }

    @Test
    void badArgumentsAreNamed()
    {
        assertMessage("--protocol 'tcp' is not one of shm|multi-shm|net|multi-net", "--protocol", "tcp");
        assertMessage("--size 0 is outside [1, 8192] (medium message bytes)", "--protocol", "shm", "--size", "0");
        assertMessage("--size 8193 is outside [1, 8192] (medium message bytes)", "--protocol", "shm", "--size", "8193");
        assertMessage("--size '1k' is not a number (medium message bytes, 1 to 8192)", "--protocol", "shm", "--size",
            "1k");
        assertMessage("--rounds 0 is outside [1, 100000000] (timed round trips)", "--protocol", "shm", "--rounds", "0");
        assertMessage("--warmup -1 is outside [0, 100000000] (warm-up round trips)", "--protocol", "shm", "--warmup",
            "-1");
        assertMessage("--size needs a value", "--protocol", "shm", "--size");
        assertMessage("--protocol needs a value", "--protocol");
        assertMessage("--json needs a value", "--protocol", "shm", "--json");
        assertMessage("missing --protocol shm|multi-shm|net|multi-net", "--size", "64");
        assertMessage("unknown argument '--bogus'", "--protocol", "shm", "--bogus");
    }

    /** The pair in one JVM: one-node protocols only, then through the in-process transport. */
    @Test
    void ranksPerJvmPutsAOneNodePairInOneJvmAndRefusesTheRest()
    {
        final PingPongOptions oneJvm = PingPongOptions.parse(new String[]{ "--protocol", "shm", "--ranks-per-jvm",
            "2" }, Map.of());
        assertEquals(2, oneJvm.ranksPerJvm());
        assertEquals("inproc", oneJvm.route(Protocol.SHM));
        assertEquals("inproc", oneJvm.route(Protocol.MULTI_SHM));
        final PingPongOptions twoJvms = PingPongOptions.parse(new String[]{ "--protocol", "shm" }, Map.of());
        assertEquals(1, twoJvms.ranksPerJvm());
        assertEquals("shm", twoJvms.route(Protocol.SHM));
        assertEquals(2, PingPongOptions.parse(new String[]{ "--protocol", "multi-shm" },
            Map.of("AM2J_RANKS_PER_JVM", "2")).ranksPerJvm(), "the launcher's variable");
        assertEquals(1, PingPongOptions.parse(new String[]{ "--protocol", "shm", "--ranks-per-jvm", "1" },
            Map.of("AM2J_RANKS_PER_JVM", "2")).ranksPerJvm(), "the option wins");

        assertMessage("--ranks-per-jvm 2 puts the pair in one JVM, which is on one node, but the ranks of --protocol " +
            "net are on two emulated nodes: use --protocol shm or multi-shm (the in-process transport then carries " +
            "the round trips), or one rank per JVM", "--protocol", "net", "--ranks-per-jvm", "2");
        assertMessage("--ranks-per-jvm 3 does not divide the 2 rank(s) of node 0 (-n 2 over --nodes 1): a JVM holds " +
            "ranks of one node only; K may be 1 or 2", "--protocol", "shm", "--ranks-per-jvm", "3");
        assertMessage("--ranks-per-jvm 0 is outside [1, " + org.am2j.spmd.SpmdEnvironment.MAX_SIZE +
            "] (ranks per JVM)", "--protocol", "shm", "--ranks-per-jvm", "0");
        final IllegalArgumentException fromVariable = assertThrows(IllegalArgumentException.class, () ->
            PingPongOptions.parse(new String[]{ "--protocol", "multi-net" }, Map.of("AM2J_RANKS_PER_JVM", "2")));
        assertTrue(fromVariable.getMessage().startsWith("AM2J_RANKS_PER_JVM = 2 puts the pair in one JVM"),
            fromVariable.getMessage());
    }

    @Test
    void usageErrorsExitWithTwoAndPrintTheUsageLine()
    {
        for (final String[] args : new String[][]{
            { "--protocol", "udp" }, { "--protocol", "shm", "--size", "0" }, { "--protocol", "shm", "--size" },
            { "--rounds", "10" }, { "--protocol", "shm", "--size", "9000" },
            { "--protocol", "shm", "--json", "/nonexistent-am2j-dir/pp.json" } })
        {
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            final int status = new PingPong(print(out), print(err)).run(args);
            assertEquals(BenchCommand.USAGE_STATUS, status, String.join(" ", args));
            final String errText = err.toString(StandardCharsets.UTF_8);
            assertTrue(errText.startsWith("am2j pingpong: "), errText);
            assertTrue(errText.contains(PingPongOptions.USAGE), errText);
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void helpPrintsUsageAndExitsWithZero()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, new PingPong(print(out), print(err)).run(new String[]{ "--help" }));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith(PingPongOptions.USAGE));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    private static void assertMessage(final String message, final String... args)
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> PingPongOptions.parse(args));
        assertEquals(message, ex.getMessage());
    }

    private static PrintStream print(final ByteArrayOutputStream bytes)
    {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
