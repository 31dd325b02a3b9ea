package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer killed with SIGKILL while requests to it are outstanding: once it has been silent for the configured timeout
 * (1 s here) the survivor's NIC finds its pid gone (it ran on this machine), and the requests come back to the
 * survivor's handler 0 with EOUTCOMEUNKNOWN (sent: they may have run) or EUNREACHABLE (never sent), and the survivor
 * goes on talking to another peer all the while. Three JVMs on three emulated nodes, network only, started directly.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class KilledPeerTest
{
    private static final long TIMEOUT_MS = 1000;
    /** Scheduling slack on a loaded 2-vCPU machine, beyond the timeout and the timer tick. */
    private static final long SLACK_MS = 2500;
    private static final Pattern SURVIVOR_OK = Pattern.compile(
        "survivor ok: returned=(\\d+) unreachable=(\\d+) congestion=(\\d+) unknown=(\\d+) maxReturnMs=(\\d+) " +
        "roundTripsWhileWaiting=(\\d+)");

    @TempDir
    Path dir;

    private RoleJvms jvms;

    @BeforeEach
    void jvms()
    {
        jvms = new RoleJvms(KilledPeerMain.class, "killed-peer", dir);
    }

    @AfterEach
    void killEverything()
    {
        jvms.close();
    }

    @Test
    void requestsToAKilledPeerComeBackAndTheSurvivorGoesOn() throws Exception
    {
        // The victim's NIC stands still (no keeper thread): requests sent to it before the kill stay outstanding.
        final Process victim = jvms.start("victim", "-Dam2j.net.timeoutMs=" + TIMEOUT_MS, "-Dam2j.net.keeperUs=0");
        // The other peer only replies to the survivor, which stays alive: its NIC keeps the default timeout, since
        // with the short one a survivor that starts slowly on a loaded machine had the other's replies given up.
        final Process other = jvms.start("other");
        final Process survivor = jvms.start("survivor", "-Dam2j.net.timeoutMs=" + TIMEOUT_MS);
        final Path sent = dir.resolve("survivor.sent");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(sent))
        {
            assertTrue(survivor.isAlive() && System.nanoTime() < deadline, "the survivor never sent" +
                jvms.output("survivor") + jvms.output("victim"));
            Thread.sleep(5);
        }
        victim.destroyForcibly();
        assertTrue(victim.waitFor(10, TimeUnit.SECONDS));
        Files.writeString(dir.resolve("victim.killed"), "killed");
        assertTrue(survivor.waitFor(60, TimeUnit.SECONDS), "survivor did not finish" + jvms.output("survivor"));
        assertEquals(0, survivor.exitValue(), jvms.output("survivor"));
        assertTrue(other.waitFor(30, TimeUnit.SECONDS), "other did not finish" + jvms.output("other"));
        assertEquals(0, other.exitValue(), jvms.output("other"));

        final Matcher ok = SURVIVOR_OK.matcher(Files.readString(dir.resolve("survivor.out")));
        assertTrue(ok.find(), jvms.output("survivor"));
        System.out.println(ok.group());
        assertEquals(KilledPeerMain.TO_VICTIM, Integer.parseInt(ok.group(1)));
        // Sent before the peer was known dead: they may have run there (outcome unknown); sent after: never left
        // (unreachable). Never "congestion", which would claim the dead peer gave them up.
        assertEquals(0, Integer.parseInt(ok.group(3)), jvms.output("survivor"));
        assertEquals(KilledPeerMain.TO_VICTIM, Integer.parseInt(ok.group(2)) + Integer.parseInt(ok.group(4)),
            "every one came back EOUTCOMEUNKNOWN or EUNREACHABLE" + jvms.output("survivor"));
        final long maxReturnMs = Long.parseLong(ok.group(5));
        // Known dead once silent for a timeout and its pid is gone: within two timeouts of the kill.
        assertTrue(maxReturnMs <= 2 * TIMEOUT_MS + SLACK_MS,
            "returned after " + maxReturnMs + " ms with a " + TIMEOUT_MS + " ms timeout" + jvms.output("survivor"));
        assertTrue(Integer.parseInt(ok.group(6)) > 0, "the survivor talked to the other peer while it waited");
    }
}
