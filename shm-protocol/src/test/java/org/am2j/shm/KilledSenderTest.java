package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.am2j.spi.ShmDirectories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Senders killed with SIGKILL while one or two live senders keep sending to the same receiver: the receiver keeps
 * serving the live ones, nothing of theirs is lost, duplicated or reordered, and none of them waits much longer than
 * the liveness timeout for a reply. Victims are flooding senders killed at random points (20 in a row), senders
 * frozen inside each step of a send (the queue left as a SIGKILL there leaves it), and requesters killed with their
 * reply queue full. Processes are started directly (a dying rank would fail a launcher's job), all with one node and
 * job id so they share a job directory, and a liveness timeout of 200 ms. Afterwards only files of killed processes
 * may be left, and the next process of the job removes them.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class KilledSenderTest
{
    private static final long WAIT_MS = 20_000;
    private static final long SEED = 20261122L;
    /**
     * Longest the receiver may stop serving the live senders: the 200 ms liveness timeout, plus the time a victim
     * that stopped polling lives on before it is killed, plus scheduling on a 2-vCPU machine with JVMs starting.
     */
    private static final long MAX_GAP_MS = 2_000;
    private static final Pattern RECEIVER_OK = Pattern.compile(
        "receiver ok: live \\{(.*)} victims (\\d+) victimMessages=(\\d+) returnedToVictims=(\\d+) drops=(\\d+) " +
        "maxLiveGapMs=(\\d+)");
    private static final Pattern SENDER_OK = Pattern.compile(
        "sender (\\d+) ok: sent (\\d+), replies (\\d+), maxRttMs=(\\d+),");

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();
    private final String unique = "kill-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    private final String job = "job-" + unique;
    private List<String> jvmOptions = List.of();
    private List<String> victimOptions = List.of();

    @AfterEach
    void killEverythingStarted() throws InterruptedException
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
    }

    private Process start(final String name, final Class<?> main, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC"));
        if (name.startsWith("victim") || name.startsWith("sweeper"))
        {
            // Short-lived: start quickly, leave the 2 vCPUs to the receiver and the live senders.
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.add("-Dam2j.node=node-" + unique);
        command.add("-Dam2j.job=" + job);
        command.add("-Dam2j.shm.livenessMs=200");
        command.addAll(jvmOptions);
        command.addAll(victimOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile())
            .start();
        started.add(process);
        return process;
    }

    private String output(final String name) throws IOException
    {
        final Path out = dir.resolve(name + ".out");
        final Path err = dir.resolve(name + ".err");
        return "\n--- " + name + " stdout ---\n" + (Files.exists(out) ? Files.readString(out) : "") +
            "--- " + name + " stderr ---\n" + (Files.exists(err) ? Files.readString(err) : "");
    }

    private String outputs(final List<String> names) throws IOException
    {
        final StringBuilder all = new StringBuilder();
        for (final String name : names)
        {
            all.append(output(name));
        }
        return all.toString();
    }

    private void awaitFile(final Path file, final Process process, final String name, final List<String> names)
        throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!Files.exists(file))
        {
            if (!process.isAlive())
            {
                fail(name + " exited with " + process.exitValue() + " before writing " + file + outputs(names));
            }
            if (System.nanoTime() > deadline)
            {
                fail(name + " wrote no " + file + " within " + WAIT_MS + " ms" + outputs(names));
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    private void awaitExit(
        final Process process, final String name, final int status, final long millis, final List<String> names)
        throws Exception
    {
        if (!process.waitFor(millis, TimeUnit.MILLISECONDS))
        {
            fail(name + " did not exit within " + millis + " ms" + outputs(names));
        }
        assertEquals(status, process.exitValue(), name + " exit status" + outputs(names));
    }

    /** How one victim is run and killed. */
    private static final class Victim
    {
        final String mode;
        final boolean early;
        final List<String> jvmOptions;

        Victim(final String mode, final boolean early)
        {
            this(mode, early, List.of());
        }

        Victim(final String mode, final boolean early, final List<String> jvmOptions)
        {
            this.mode = mode;
            this.early = early;
            this.jvmOptions = jvmOptions;
        }
    }

    /**
     * Start a receiver and the live senders, then run the victims one after the other, each killed with SIGKILL;
     * stop the live senders, then the receiver, and check what they saw and what is left in shared memory.
     *
     * @return the receiver's number of dropped packets.
     */
    private long run(final List<Victim> victims, final List<String> jvmOptions, final int liveSenders)
        throws Exception
    {
        this.jvmOptions = jvmOptions;
        final long begin = System.nanoTime();
        final List<String> names = new ArrayList<>();
        final Process receiver = start("receiver", KillReceiverMain.class, dir.toString(),
            Integer.toString(liveSenders));
        names.add("receiver");
        awaitFile(dir.resolve("receiver.name"), receiver, "receiver", names);

        final List<Process> live = new ArrayList<>();
        for (int i = 0; i < liveSenders; i++)
        {
            live.add(start("live" + i, KillSenderMain.class, dir.toString(), Integer.toString(i), "live"));
            names.add("live" + i);
        }

        final Random random = new Random(SEED);
        final Set<Long> victimPids = new HashSet<>();
        final StringBuilder kills = new StringBuilder();
        for (int v = 0; v < victims.size(); v++)
        {
            final Victim victim = victims.get(v);
            final int id = KillReceiverMain.FIRST_VICTIM + v;
            final String name = "victim" + v;
            victimOptions = victim.jvmOptions;
            final Process process = start(name, KillSenderMain.class, dir.toString(), Integer.toString(id),
                victim.mode);
            victimOptions = List.of();
            names.add(name);
            victimPids.add(process.pid());
            final int delay;
            if (victim.early)
            {
                // Anywhere from JVM start-up to the first messages.
                delay = random.nextInt(400);
                TimeUnit.MILLISECONDS.sleep(delay);
                kills.append(' ').append(victim.mode).append('@').append(delay).append("ms-after-start");
            }
            else
            {
                awaitFile(dir.resolve(id + ".ready"), process, name, names);
                delay = random.nextInt(150);
                TimeUnit.MILLISECONDS.sleep(delay);
                kills.append(' ').append(victim.mode).append('@').append(delay).append("ms-after-ready");
            }
            assertTrue(process.isAlive(), name + " ended by itself" + outputs(names));
            process.destroyForcibly();
            assertTrue(process.waitFor(WAIT_MS, TimeUnit.MILLISECONDS), name + " survived SIGKILL");
            assertEquals(128 + 9, process.exitValue(), name + " exit status");
            assertTrue(receiver.isAlive(), "the receiver died after victim " + v + outputs(names));
            for (int i = 0; i < liveSenders; i++)
            {
                assertTrue(live.get(i).isAlive(), "live sender " + i + " died after victim " + v + outputs(names));
            }
        }
        System.out.println("KilledSenderTest kills:" + kills);

        Files.createFile(dir.resolve("stop-sending"));
        for (int i = 0; i < liveSenders; i++)
        {
            awaitExit(live.get(i), "live" + i, 0, 30_000, names);
        }
        Files.createFile(dir.resolve("stop"));
        awaitExit(receiver, "receiver", 0, 30_000, names);

        final String receiverOut = Files.readString(dir.resolve("receiver.out"), StandardCharsets.UTF_8);
        final Matcher r = RECEIVER_OK.matcher(receiverOut);
        assertTrue(r.find(), "receiver summary" + output("receiver"));
        for (int i = 0; i < liveSenders; i++)
        {
            final String out = Files.readString(dir.resolve("live" + i + ".out"), StandardCharsets.UTF_8);
            final Matcher s = SENDER_OK.matcher(out);
            assertTrue(s.find(), "live sender " + i + " summary" + output("live" + i));
            assertEquals(s.group(2), s.group(3), "replies of live sender " + i);
            assertTrue(Long.parseLong(s.group(2)) > 0, "live sender " + i + " sent nothing");
            assertTrue(r.group(1).contains(i + "=" + s.group(2)), "receiver saw " + r.group(1) + " of live sender " +
                i + ", which sent " + s.group(2));
            final long maxRttMs = Long.parseLong(s.group(4));
            System.out.println("KilledSenderTest: live sender " + i + " sent " + s.group(2) + ", longest wait for a " +
                "reply " + maxRttMs + " ms");
            assertTrue(maxRttMs < MAX_GAP_MS, "live sender " + i + " waited " + maxRttMs + " ms for a reply");
        }
        final long maxGapMs = Long.parseLong(r.group(6));
        System.out.println("KilledSenderTest: " + r.group() + "; " + (System.nanoTime() - begin) / 1_000_000 +
            " ms so far");
        assertTrue(maxGapMs < MAX_GAP_MS, "the receiver stopped serving the live senders for " + maxGapMs + " ms");

        // Only what killed processes left may remain; the next process of the job removes it.
        final Set<Long> allPids = new HashSet<>(victimPids);
        started.forEach(p -> allPids.add(p.pid()));
        final TreeSet<String> left = LauncherTestSupport.filesOf(job);
        for (final String file : left)
        {
            final long pid = Long.parseLong(file.substring(0, file.indexOf('-')));
            assertTrue(victimPids.contains(pid), "file " + file + " left by a process that was not killed");
        }
        System.out.println("KilledSenderTest: files of killed victims before the sweep: " + left);
        final Process sweeper = start("sweeper", KillSenderMain.class, dir.toString(), "0", "sweep");
        awaitExit(sweeper, "sweeper", 0, 30_000, List.of("sweeper"));
        allPids.add(sweeper.pid());
        LauncherTestSupport.assertNothingLeft(job, new ArrayList<>(allPids));
        assertTrue(!Files.exists(ShmDirectories.userRoot().resolve(job)), "job directory left");
        return Long.parseLong(r.group(5));
    }

    /**
     * Twenty flooding senders killed at random points: a quarter anywhere from JVM start-up on, the others some time
     * into their flood.
     */
    // a flood with kills at random points: soak (the default build kills senders at fixed points below)
    @Tag("soak")
    @Test
    void floodingSendersKilledAtRandomPointsLoseNothingOfTheLiveOnes() throws Exception
    {
        final List<Victim> victims = new ArrayList<>();
        for (int v = 0; v < 20; v++)
        {
            victims.add(new Victim("victim", 0 == v % 4));
        }
        final long drops = run(victims, List.of(), 2);
        System.out.println("KilledSenderTest random kills: " + drops + " packets skipped");
    }

    /**
     * Flooding senders killed at random points while most of their sends go into their fast box: boxes of 4 packets
     * overflowing into the shared queue, and a cap of 3 boxes for the 2 live senders and one victim at a time, so a
     * dead victim's box must be let go before the next victim can have one. The live senders lose nothing.
     */
    private long boxVictims(final int count) throws Exception
    {
        final List<Victim> victims = new ArrayList<>();
        for (int v = 0; v < count; v++)
        {
            victims.add(new Victim("victim", 0 == v % 4));
        }
        final long drops = run(victims, List.of("-Dam2j.shm.boxes=3", "-Dam2j.shm.boxDepth=4"), 2);
        System.out.println("KilledSenderTest box victims: " + drops + " packets skipped");
        return drops;
    }

    @Test
    void boxSendersKilledAtRandomPointsLoseNothingOfTheLiveOnes() throws Exception
    {
        boxVictims(3);
    }

    // twenty box senders killed at random points: soak
    @Tag("soak")
    @Test
    void twentyBoxSendersKilledAtRandomPointsLoseNothingOfTheLiveOnes() throws Exception
    {
        boxVictims(20);
    }

    /**
     * Senders killed inside each step of a send, with small queues (request depth 8, bulk depth 2): after a packet
     * assignment, after the packet claim, holding only a bulk block, with a ready bulk block and a claimed packet.
     * Each packet left behind is skipped (a counted drop) after the liveness timeout; leaked bulk blocks are
     * reclaimed; the live senders' messages are neither lost nor reordered.
     */
    // a job per send step: soak (the default build kills one sender between assignment and claim)
    @Tag("soak")
    @Test
    void sendersKilledInsideEachSendStepHoldNothingUp() throws Exception
    {
        final List<Victim> victims = new ArrayList<>();
        final List<String> steps = List.of("stuck-assigned", "stuck-claimed", "stuck-bulk", "stuck-bulk-ready");
        for (int round = 0; round < 3; round++)
        {
            for (final String step : steps)
            {
                victims.add(new Victim(step, false));
            }
        }
        // Fast boxes off: the live senders' messages must queue behind the victims' packets in the shared queue.
        final long drops = run(victims, List.of("-Dam2j.shm.requestDepth=8", "-Dam2j.shm.bulkDepth=2",
            "-Dam2j.shm.boxes=0"), 2);
        assertTrue(drops >= 9, "the receiver skipped " + drops + " packets; the 9 victims that held one leave 9");
    }

    /**
     * A sender killed after its packet assignment (tail CAS) and before its claim, with one live sender, request
     * depth 4 and as many bulk blocks: the live sender's next messages fill the rest of the lap, and the one after
     * them must not take the dead sender's packet, which is still free from the previous lap, and so be delivered
     * ahead of them. The receiver waits out the liveness timeout, skips the packet, and delivers in order.
     */
    @Test
    void senderKilledBetweenAssignmentAndClaimDoesNotReorderTheOthers() throws Exception
    {
        final List<Victim> victims = new ArrayList<>();
        for (int v = 0; v < 3; v++)
        {
            victims.add(new Victim("stuck-assigned", false));
        }
        // Fast boxes off: the live sender's messages must queue behind the victims' packets in the shared queue.
        final long drops = run(victims, List.of("-Dam2j.shm.requestDepth=4", "-Dam2j.shm.bulkDepth=4",
            "-Dam2j.shm.boxes=0"), 1);
        assertTrue(drops >= 3, "the receiver skipped " + drops + " packets; the 3 victims leave 3");
    }

    /**
     * Senders killed with requests still queued at the receiver and their own reply queue full (reply depth 4, they
     * never poll): the receiver's replies to them cannot be delivered. Each one must not hold the receiver up for a
     * liveness timeout of its own: once the requester is known dead, the rest are returned (or dropped) at once, and
     * the live sender is served again within about one timeout.
     */
    @Test
    void killedRequesterWithAFullReplyQueueDoesNotStallTheReceiver() throws Exception
    {
        final List<Victim> victims = new ArrayList<>();
        for (int v = 0; v < 2; v++)
        {
            victims.add(new Victim("stuck-replies", false,
                List.of("-Dam2j.shm.replyDepth=4", "-Dam2j.shm.bulkDepth=4")));
        }
        run(victims, List.of(), 1);
    }
}
