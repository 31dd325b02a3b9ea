package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process whose runtime cannot start, because its network transport's UDP port is taken, leaves nothing behind
 * when it exits normally: not the counters file, opened before the transports, nor the files of the shared-memory
 * transport, opened before the network one (the child's class path puts shm-protocol first, so that its provider is
 * found first). A runtime that failed used to keep both, and a second attempt in the same process then found its
 * own counters file in use.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedStartTest
{
    @TempDir
    Path dir;

    @Test
    void aRuntimeThatCannotOpenItsTransportsLeavesNoFiles() throws Exception
    {
        final Path shm = dir.resolve("shm");
        final Path counters = dir.resolve("counters");
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            final List<String> command = new ArrayList<>(List.of(java,
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-Dam2j.transports=inproc,shm,net",
                "-Dam2j.net.port=" + taken.getLocalPort(), "-Dam2j.shm.dir=" + shm, "-Dam2j.counters.dir=" + counters,
                "-Dam2j.job=failed-start-" + ProcessHandle.current().pid(),
                "-cp", shmFirst(System.getProperty("java.class.path")), FailedStartMain.class.getName()));
            final ProcessBuilder builder = new ProcessBuilder(command);
            // the address as an environment variable, the port as a system property: the error names each as given
            builder.environment().put("AM2J_NET_HOST", "127.0.0.1");
            final Process process = builder
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile())
                .start();
            try
            {
                assertTrue(process.waitFor(45, TimeUnit.SECONDS), "the process did not exit" + output());
            }
            finally
            {
                process.destroyForcibly();
            }
            assertEquals(0, process.exitValue(), output());
        }

        final List<String> lines = Files.readAllLines(dir.resolve("out"));
        assertEquals(2, lines.size(), output());
        for (final String line : lines)
        {
            assertTrue(line.startsWith("failed: RESOURCE: ") && line.contains("am2j net: cannot open a UDP socket"),
                output());
            assertTrue(line.contains("check AM2J_NET_HOST (an address of this host) and am2j.net.port"), output());
        }
        assertTrue(!Files.readString(dir.resolve("err")).contains("no counters file"),
            "the second attempt found the first one's counters file still open" + output());
        // A configured shm directory outside the user root is made at open and not removed at close: it being there
        // says the shm transport opened (before net, which failed), so closing it was tested.
        assertTrue(Files.isDirectory(shm), "the shm transport never opened" + output());
        assertEquals(List.of(), files(shm), "left in the shm directory" + output());
        assertEquals(List.of(), files(counters), "left in the counters directory" + output());
    }

    private static String shmFirst(final String classPath)
    {
        final List<String> entries = Arrays.asList(classPath.split(File.pathSeparator));
        return Stream.concat(entries.stream().filter(entry -> entry.contains("shm-protocol")),
            entries.stream().filter(entry -> !entry.contains("shm-protocol")))
            .collect(Collectors.joining(File.pathSeparator));
    }

    private static List<String> files(final Path directory) throws Exception
    {
        if (!Files.exists(directory))
        {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(directory))
        {
            return walk.filter(Files::isRegularFile).map(Path::toString).sorted().collect(Collectors.toList());
        }
    }

    private String output() throws Exception
    {
        return "\n--- stdout ---\n" + Files.readString(dir.resolve("out")) +
            "--- stderr ---\n" + Files.readString(dir.resolve("err"));
    }
}
