package org.am2j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The one-way phase probe in its own JVM (it must be the first use of am2j there): over shared memory and in-process
 * it completes its round trips and prints four positive medians, the whole round trip no shorter than any phase.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OneWayPhasesTest
{
    @Test
    void measuresThePhasesOfEveryRoundTripOverSharedMemoryAndInProcess() throws Exception
    {
        for (final String transport : List.of("shm", "inproc"))
        {
            // a few thousand round trips: the medians of the second half are there and ordered at any count (each
            // round trip's a-d holds each of its phases), and two threads spinning on a busy machine take long
            final String line = run(transport, "4000");
            final String[] f = line.trim().split(" ");
            assertEquals(9, f.length, line);
            assertEquals(transport, f[0], line);
            assertEquals(List.of("a-b", "b-c", "c-d", "a-d"), List.of(f[1], f[3], f[5], f[7]), line);
            final long ab = Long.parseLong(f[2]);
            final long bc = Long.parseLong(f[4]);
            final long cd = Long.parseLong(f[6]);
            final long ad = Long.parseLong(f[8]);
            assertTrue(ab > 0 && bc > 0 && cd > 0, line);
            assertTrue(ad >= ab && ad >= bc && ad >= cd, "every round trip contains each of its phases: " + line);
        }
    }

    @Test
    void refusesBadArguments() throws Exception
    {
        final Process process = start("udp", "10");
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
    }

    private static String run(final String... args) throws IOException, InterruptedException
    {
        final Process process = start(args);
        try
        {
            assertTrue(process.waitFor(90, TimeUnit.SECONDS), "the probe finishes");
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), out);
            return out.lines().filter(l -> l.startsWith(args[0] + " ")).findFirst().orElse("no result line in: " + out);
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    private static Process start(final String... args) throws IOException
    {
        final List<String> command = new java.util.ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), OneWayPhases.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
