package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.am2j.launch.HelloMain;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A flag of a transport set to something other than {@code true} or {@code false} stops a real program at its first
 * endpoint with an error naming the variable, the property and the values taken, where it was once taken silently
 * for one of them ({@code AM2J_SHM_SEALED=maybe} meant sealed, {@code AM2J_NET_AUTHENTICATE=maybe} meant
 * authenticated).
 */
class SettingErrorsJvmTest
{
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"AM2J_SHM_SEALED,am2j.shm.sealed", "AM2J_NET_AUTHENTICATE,am2j.net.authenticate"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aFlagThatIsNeitherTrueNorFalseStopsTheProgramNamingIt(final String variable, final String property)
        throws Exception
    {
        final String marker = "bad-setting-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(NamespaceJob.JVM_FLAGS);
        command.addAll(List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
            HelloMain.class.getName()));
        final Path output = dir.resolve("hello.out");
        try
        {
            final int status = LauncherJob.run(TimeUnit.SECONDS.toMillis(45), command,
                Map.of(variable, "maybe", LauncherJob.MARKER, marker), output);
            final String text = LauncherJob.read(output);
            assertNotEquals(0, status, "the program ran with " + variable + "=maybe\n" + text);
            assertNotEquals(-1, status, "killed for running too long\n" + text);
            assertTrue(text.contains("BAD_ARG: " + variable + " = 'maybe' must be true or false (system property " +
                property + " or environment variable " + variable + "; the property wins)"), text);
        }
        finally
        {
            assertEquals(List.of(), LauncherJob.killMarked(marker), "processes left running (killed)");
        }
    }
}
