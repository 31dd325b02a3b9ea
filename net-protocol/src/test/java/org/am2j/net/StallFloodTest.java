package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.am2j.shm.LauncherTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A peer that stands still for three times the timeout in the middle of a flood (SIGSTOP, then SIGCONT: what a long
 * collection pause, a VM migration or swapping does to a JVM), two ranks on two emulated nodes over the network,
 * both flooding each other with requests that are replied ({@link StallFloodMain}), with the NIC inline and on its
 * own thread. Both ranks check from their own records that every request was replied or returned, none both, none
 * ran twice, and every reply was delivered or returned to its replier.
 */
class StallFloodTest extends LauncherTestSupport
{
    private static final Pattern DURING_STALL = Pattern.compile(
        "rank 0's NIC near the stall's end: (-?\\d+) outstanding, (-?\\d+) returned");

    @TempDir
    Path dir;

    private volatile long stoppedPid;

    @AfterEach
    void resumeWhatWeStopped() throws Exception
    {
        // A stopped rank is resumed before anything kills it, so that it dies like any process.
        final long pid = stoppedPid;
        if (0 != pid)
        {
            signal("CONT", pid);
        }
    }

    @Test
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void aPeerStoppedForThreeTimeoutsMidFloodLosesAndDuplicatesNothing() throws Exception
    {
        stallFlood("inline", 1000, 3000);
    }

    // soak: the same with the NIC on its own thread (the default build stalls the inline NIC)
    @Tag("soak")
    @Test
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void aPeerStoppedForThreeTimeoutsMidFloodLosesAndDuplicatesNothingWithTheNicOnItsThread() throws Exception
    {
        stallFlood("thread", 1000, 3000);
    }

    @Tag("soak")
    @ParameterizedTest(name = "nic {0}")
    @ValueSource(strings = {"inline", "thread"})
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void aPeerStoppedForSixSecondsWithATwoSecondTimeout(final String nic) throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            stallFlood(nic, 2000, 6000);
            Files.deleteIfExists(dir.resolve("stop"));
            for (int r = 0; r < 2; r++)
            {
                Files.deleteIfExists(dir.resolve("rank-" + r + ".pid"));
                Files.deleteIfExists(dir.resolve("rank-" + r + ".flooding"));
            }
        }
    }

    private void stallFlood(final String nic, final long timeoutMs, final long stallMs) throws Exception
    {
        final CompletableFuture<String> control = CompletableFuture.supplyAsync(() -> control(timeoutMs, stallMs));
        final JobResult result;
        try
        {
            result = runJob(60 + 3 * stallMs / 1000, 2, 2, List.of("-Dam2j.transports=inproc,net",
                "-Dam2j.nic=" + nic, "-Dam2j.net.timeoutMs=" + timeoutMs), StallFloodMain.class, dir.toString(),
                Long.toString(30 + 2 * stallMs / 1000));
        }
        finally
        {
            // Whatever happened to the job, the controller ends (it resumes the rank it stopped).
            Files.writeString(dir.resolve("stop"), "stop");
        }
        final String stall;
        try
        {
            stall = control.get(30, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            throw new AssertionError("the controller failed" + result.output(), ex.getCause());
        }
        result.assertSucceeded(2);
        System.out.println(stall);
        for (int r = 0; r < 2; r++)
        {
            final String counts = "[" + r + "] rank " + r + " counts: ";
            final String ok = "[" + r + "] rank " + r + " accounting ok: ";
            final List<String> lines = result.out.lines()
                .filter((line) -> line.startsWith(counts) || line.startsWith(ok)).toList();
            assertEquals(2, lines.size(), "rank " + r + " printed no accounting" + result.output());
            lines.forEach(System.out::println);
        }
        result.out.lines().filter((line) -> line.contains(" nic: ")).forEach(System.out::println);
        assertTrue(stall.startsWith("stopped rank 1"), stall + result.output());
        final Matcher duringStall = DURING_STALL.matcher(stall);
        assertTrue(duringStall.find(), stall);
        assertEquals(0, Long.parseLong(duringStall.group(2)), "rank 0 returned messages to the stopped peer " +
            "while it stood still: " + stall + result.output());
        assertEquals(2, result.out.lines().filter((line) -> line.matches("\\[[01]] rank [01] nic: .*")).count(),
            "no NIC counters" + result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    /**
     * Wait until both ranks flood, stop rank 1 for {@code stallMs}, resume it, let the flood go on for two timeouts
     * and tell the ranks to stop.
     *
     * @return what it did.
     */
    private String control(final long timeoutMs, final long stallMs)
    {
        try
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            final Path stop = dir.resolve("stop");
            while (!(Files.exists(dir.resolve("rank-0.flooding")) && Files.exists(dir.resolve("rank-1.flooding"))))
            {
                if (Files.exists(stop) || System.nanoTime() - deadline > 0)
                {
                    return "never saw both ranks flood";
                }
                Thread.sleep(10);
            }
            final long pid = Long.parseLong(Files.readString(dir.resolve("rank-1.pid")).trim());
            stoppedPid = pid;
            signal("STOP", pid);
            final long stoppedAt = System.nanoTime();
            final long rank0 = Long.parseLong(Files.readString(dir.resolve("rank-0.pid")).trim());
            Thread.sleep(stallMs - Math.min(stallMs / 2, timeoutMs) / 2);
            // Past the timeout nothing to the stopped peer is returned on a guess: it cannot have answered a give-up.
            // (How much is outstanding depends on where rank 1 stopped: it may have acknowledged all it was sent.)
            final long outstanding = NicCountersOf.read(rank0, NicEvent.OUTSTANDING);
            final long returned = NicCountersOf.read(rank0, NicEvent.GIVEN_UP_RETURNED) +
                NicCountersOf.read(rank0, NicEvent.UNREACHABLE) + NicCountersOf.read(rank0, NicEvent.OUTCOME_UNKNOWN);
            Thread.sleep(Math.min(stallMs / 2, timeoutMs) / 2);
            signal("CONT", pid);
            stoppedPid = 0;
            final long stoppedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
            Thread.sleep(2 * timeoutMs);
            Files.writeString(stop, "stop");
            return "stopped rank 1 (pid " + pid + ") for " + stoppedMs + " ms with a " + timeoutMs + " ms timeout; " +
                "rank 0's NIC near the stall's end: " + outstanding + " outstanding, " + returned + " returned";
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
        finally
        {
            final long pid = stoppedPid;
            if (0 != pid)
            {
                try
                {
                    signal("CONT", pid);
                }
                catch (final Exception ignored)
                {
                    // the test's own clean-up tries again
                }
            }
        }
    }

    static void signal(final String signal, final long pid) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS), "kill -" + signal + " " + pid + " hung");
    }
}
