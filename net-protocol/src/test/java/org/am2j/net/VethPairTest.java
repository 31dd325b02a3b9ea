package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The harness of the tests over two emulated hosts ({@link VethPair}): each host has its own host name, its own
 * {@code /dev/shm} and a veth end with MTU 1500; the loss table drops a share of the UDP datagrams arriving at its
 * host; closing removes the namespaces and the processes in them; a new pair removes the namespaces a dead JVM left.
 * Skipped, with the reason, where namespaces cannot be made.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VethPairTest
{
    @BeforeEach
    void namespacesCanBeMade()
    {
        final String reason = VethPair.unavailableReason();
        System.out.println("VethPairTest: " + (null == reason ? "network namespaces can be made, the test runs" :
            "skipped: " + reason));
        assumeTrue(null == reason, reason);
    }

    @Test
    void eachHostHasItsOwnHostNameSharedMemoryAndA1500ByteVethEnd() throws Exception
    {
        final String probe = "am2j-veth-probe-" + ProcessHandle.current().pid();
        final NamespaceHost a;
        final NamespaceHost b;
        try (VethPair pair = VethPair.create())
        {
            a = pair.a();
            b = pair.b();
            final String machine = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            for (final NamespaceHost host : List.of(a, b))
            {
                assertEquals(host.hostName(), host.run(10_000, "hostname").orThrow().output.trim(), host.toString());
                assertNotEquals(machine, host.hostName());
                assertEquals(Integer.toString(VethPair.MTU),
                    host.run(10_000, "cat", "/sys/class/net/" + NamespaceHost.INTERFACE + "/mtu").orThrow().output.trim());
                assertTrue(host.run(10_000, "ip", "-4", "addr", "show", NamespaceHost.INTERFACE).orThrow().output
                    .contains("inet " + host.address() + "/" + VethPair.PREFIX), host.toString());
                assertEquals("tmpfs", host.run(10_000, "stat", "-f", "-c", "%T", "/dev/shm").orThrow().output.trim());
            }
            assertNotEquals(a.hostName(), b.hostName());
            a.run(10_000, "sh", "-c", "echo x > /dev/shm/" + probe).orThrow();
            assertTrue(a.run(10_000, "test", "-e", "/dev/shm/" + probe).succeeded(), "A sees its own file");
            assertFalse(b.run(10_000, "test", "-e", "/dev/shm/" + probe).succeeded(), "B sees A's /dev/shm");
            assertFalse(Files.exists(Path.of("/dev/shm", probe)), "the machine sees A's /dev/shm");
        }
        assertFalse(Files.exists(Path.of("/dev/shm", probe)));
    }

    @Test
    void theLossTableDropsAShareOfTheUdpDatagramsArrivingAtItsHost()
    {
        assumeTrue(null != VethPair.locate("bash"), "needs bash for /dev/udp");
        try (VethPair pair = VethPair.create())
        {
            pair.dropUdp(pair.b(), 5);
            assertEquals(0, pair.droppedUdp(pair.b()));
            // 1000 datagrams from A to a port of B where nothing listens (B answers with ICMP, which is not UDP).
            pair.a().run(30_000, "bash", "-c", "for i in $(seq 1000); do echo x > /dev/udp/" + VethPair.ADDRESS_B +
                "/9; done").orThrow();
            final long dropped = pair.droppedUdp(pair.b());
            // 5% of 1000: 50 expected; outside [10, 150] with probability below 1e-9.
            assertTrue(dropped >= 10 && dropped <= 150, "dropped " + dropped + " of 1000 at 5%");
        }
    }

    @Test
    void closingRemovesTheNamespacesAndKillsWhatRunsInThem() throws Exception
    {
        final VethPair pair = VethPair.create();
        final Process sleeper = pair.a().start(List.of("sleep", "600"), java.util.Map.of("PATH", "/usr/bin:/bin"),
            Path.of("/dev/null"), Path.of("/dev/null"));
        assertEquals(2, pair.namespacesLeft().size(), "both namespaces exist");
        pair.close();
        assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS), "the process in A was killed");
        assertEquals(List.of(), pair.namespacesLeft());
    }

    @Test
    void aNewPairRemovesTheNamespacesOfAJvmThatIsGone() throws Exception
    {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        final String leftover = "am2jt-" + gone.pid() + "-1-a";
        SystemCommand.run(VethPair.program("ip"), "netns", "add", leftover).orThrow();
        try
        {
            VethPair.sweepLeftovers();
            assertFalse(SystemCommand.run(VethPair.program("ip"), "netns", "list").output.contains(leftover));
        }
        finally
        {
            SystemCommand.run(VethPair.program("ip"), "netns", "del", leftover);
        }
    }
}
