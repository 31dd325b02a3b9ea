package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.am2j.api.ReturnStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer killed with SIGKILL in the middle of a flood of replied requests ({@link KilledMidFloodMain}), three JVMs
 * on three emulated nodes over the network: the survivor gets every request back that was neither replied nor
 * delivered, with EOUTCOMEUNKNOWN when it had left (it may have run) or EUNREACHABLE when it never left, never
 * ECONGESTION (which would claim the dead peer gave it up), and goes on with a third peer. Checked per id against
 * what the victim wrote down before each reply: a request returned EUNREACHABLE never ran, no request is both
 * replied and returned, none ran twice, and every request is replied, returned, or ran at the victim (delivered
 * before the death).
 */
class KilledMidFloodTest
{
    private static final Pattern SURVIVOR_OK = Pattern.compile(
        "survivor ok: sent=(\\d+) replied=(\\d+) EOUTCOMEUNKNOWN=(\\d+) EUNREACHABLE=(\\d+) ECONGESTION=(\\d+) " +
        "otherStatus=(\\d+) roundTripsWhileWaiting=(\\d+)");

    @TempDir
    Path dir;

    private RoleJvms jvms;

    @BeforeEach
    void jvms()
    {
        jvms = new RoleJvms(KilledMidFloodMain.class, "killed-mid-flood", dir);
    }

    @AfterEach
    void killEverything()
    {
        jvms.close();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aPeerKilledMidFloodReturnsWhatItMayHaveReceivedAsOutcomeUnknown() throws Exception
    {
        killMidFlood("inline");
    }

    @Tag("soak")
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aPeerKilledMidFloodInEitherNicModeFiveTimes() throws Exception
    {
        for (int round = 0; round < 5; round++)
        {
            for (final String nic : List.of("inline", "thread"))
            {
                try (var files = Files.list(dir))
                {
                    for (final Path file : files.toList())
                    {
                        Files.delete(file);
                    }
                }
                killMidFlood(nic);
                killEverything();
            }
        }
    }

    @Tag("soak")
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aPeerKilledWithAWindowItsNicAcknowledgedButItNeverRanStillSettles() throws Exception
    {
        // The victim stops running requests while its NIC thread goes on acknowledging them: the survivor's window
        // fills with requests that are delivered but will never run, and nothing to the victim is in flight when it
        // dies. What the survivor sends after the death is in flight, so its NIC finds the death and returns it.
        final String out = killMidFlood("thread", "-D" + KilledMidFloodMain.STALL_AFTER + "=" +
            (KilledMidFloodMain.FLOODING_AFTER + 10));
        final Matcher ok = SURVIVOR_OK.matcher(out);
        assertTrue(ok.find(), out);
        final int sent = Integer.parseInt(ok.group(1));
        final int returned = Integer.parseInt(ok.group(3)) + Integer.parseInt(ok.group(4));
        // Those sent after the death come back; so would any of the window the victim's NIC had not taken yet (on a
        // loaded machine), which then were in flight when it died.
        assertTrue(returned >= KilledMidFloodMain.AFTER_KILL, "every request sent after the death comes back: " + out);
        final int ranBeforeTheStall = Integer.parseInt(Files.readString(dir.resolve("victim.stalled")).trim());
        assertEquals(ranBeforeTheStall + KilledMidFloodMain.WINDOW + KilledMidFloodMain.AFTER_KILL, sent,
            "a full window was acknowledged and not run: " + out);
    }

    private String killMidFlood(final String nic, final String... victimOptions) throws Exception
    {
        final List<String> victimArguments = new ArrayList<>(List.of("-Dam2j.net.timeoutMs=1000", "-Dam2j.nic=" + nic));
        victimArguments.addAll(List.of(victimOptions));
        final Process victim = jvms.start("victim", victimArguments.toArray(String[]::new));
        final Process other = jvms.start("other", "-Dam2j.net.timeoutMs=1000", "-Dam2j.nic=" + nic);
        final Process survivor = jvms.start("survivor", "-Dam2j.net.timeoutMs=1000", "-Dam2j.nic=" + nic);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        final Path killWhen = dir.resolve(0 == victimOptions.length ? "survivor.flooding" : "victim.stalled");
        while (!Files.exists(killWhen))
        {
            assertTrue(survivor.isAlive() && victim.isAlive() && System.nanoTime() < deadline,
                "the survivor never flooded" + jvms.output("survivor") + jvms.output("victim"));
            Thread.sleep(5);
        }
        if (0 != victimOptions.length)
        {
            // Until the survivor's window is full of requests the victim's NIC took: no reply frees any more room.
            Thread.sleep(1000);
        }
        victim.destroyForcibly();
        assertTrue(victim.waitFor(10, TimeUnit.SECONDS));
        Files.writeString(dir.resolve("victim.killed"), "killed");
        assertTrue(survivor.waitFor(60, TimeUnit.SECONDS), "survivor did not finish" + jvms.output("survivor"));
        assertEquals(0, survivor.exitValue(), jvms.output("survivor"));
        assertTrue(other.waitFor(30, TimeUnit.SECONDS), "other did not finish" + jvms.output("other"));
        assertEquals(0, other.exitValue(), jvms.output("other"));

        final String out = Files.readString(dir.resolve("survivor.out"));
        checkAccounting(dir, "nic " + nic, out, this::survivorOutput);
        return out;
    }

    private String survivorOutput()
    {
        try
        {
            return jvms.output("survivor");
        }
        catch (final Exception ex)
        {
            return "(no survivor output: " + ex + ")";
        }
    }

    /**
     * Check the survivor's and the victim's records of a kill mid-flood (the files {@link KilledMidFloodMain} writes
     * in {@code dir}): nothing both replied and returned, nothing twice, nothing missing but what the victim took
     * and died before running, no ECONGESTION from a dead peer, and the survivor went on with the third process.
     *
     * @param dir         the processes' directory.
     * @param label       for the printed summary.
     * @param out         the survivor's standard output.
     * @param diagnostics what to add to a failure message.
     */
    static void checkAccounting(
        final Path dir, final String label, final String out, final Supplier<String> diagnostics) throws Exception
    {
        final Matcher ok = SURVIVOR_OK.matcher(out);
        assertTrue(ok.find(), diagnostics.get());
        System.out.println(label + ": " + out.trim());
        final int sent = Integer.parseInt(ok.group(1));
        final BitSet replied = bits(dir, "survivor.replied");
        final BitSet unknown = bits(dir, "survivor.returned-" + ReturnStatus.EOUTCOMEUNKNOWN);
        final BitSet unreachable = bits(dir, "survivor.returned-" + ReturnStatus.EUNREACHABLE);
        assertEquals(0, Integer.parseInt(ok.group(5)), "ECONGESTION from a dead peer" + diagnostics.get());
        assertEquals(0, Integer.parseInt(ok.group(6)), "an unexpected status" + diagnostics.get());
        assertTrue(unknown.cardinality() + unreachable.cardinality() > 0,
            "nothing came back" + diagnostics.get());
        // The survivor went on with the third peer: it fails unless 200 round trips with it followed the death.
        assertTrue(out.contains(" after=200 "), diagnostics.get());

        final BitSet ran = new BitSet();
        final ByteBuffer log = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("victim.ran")));
        final List<Integer> twice = new ArrayList<>();
        while (log.remaining() >= Integer.BYTES)
        {
            final int id = log.getInt();
            if (ran.get(id))
            {
                twice.add(id);
            }
            ran.set(id);
        }
        assertTrue(twice.isEmpty(), "ran twice at the victim: " + twice);
        final BitSet returned = (BitSet)unknown.clone();
        returned.or(unreachable);
        assertEquals(new BitSet(), and(replied, returned), "replied and returned");
        assertEquals(new BitSet(), and(unknown, unreachable), "returned twice");
        assertEquals(new BitSet(), and(unreachable, ran), "returned EUNREACHABLE (never left) yet ran at the victim");
        final BitSet repliedNotRan = (BitSet)replied.clone();
        repliedNotRan.andNot(ran);
        assertEquals(new BitSet(), repliedNotRan, "replied without running at the victim");
        // Nothing missing: every request was replied, or returned, or ran at the victim before it died (delivered,
        // its reply lost with the process).
        final BitSet missing = new BitSet();
        missing.set(0, sent);
        missing.andNot(replied);
        missing.andNot(returned);
        missing.andNot(ran);
        // A request the victim's NIC acknowledged into its receive queue and that the process died before running
        // was delivered too, but only the dead process knew it: at most a window of them.
        assertTrue(missing.cardinality() <= KilledMidFloodMain.WINDOW, missing.cardinality() + " requests neither " +
            "replied, returned nor run: " + missing);
        final BitSet delivered = new BitSet();
        delivered.set(0, sent);
        delivered.andNot(returned);
        System.out.println(label + ": sent " + sent + " = delivered " + delivered.cardinality() + " (replied " +
            replied.cardinality() + ", ran without a reply " + (delivered.cardinality() - replied.cardinality() -
            missing.cardinality()) + ", acknowledged but not run " + missing.cardinality() + ") + returned " +
            returned.cardinality() + " (EOUTCOMEUNKNOWN " + unknown.cardinality() + ", of which ran at the victim " +
            and(unknown, ran).cardinality() + "; EUNREACHABLE " + unreachable.cardinality() + ")");
    }

    private static BitSet bits(final Path dir, final String file) throws Exception
    {
        final Path path = dir.resolve(file);
        return Files.exists(path) ? BitSet.valueOf(Files.readAllBytes(path)) : new BitSet();
    }

    private static BitSet and(final BitSet a, final BitSet b)
    {
        final BitSet both = (BitSet)a.clone();
        both.and(b);
        return both;
    }
}
