package org.am2j.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM without am2j's flags gets a message naming them and where they go, not Agrona's IllegalAccessError.
 */
class JvmFlagsTest
{
    @TempDir
    Path dir;

    @Test
    void theTestJvmHasTheExport()
    {
        assertFalse(JvmFlags.missing(JvmFlags.class.getModule()).contains(JvmFlags.ADD_EXPORTS));
        JvmFlags.check();
    }

    @Test
    void theMessageNamesEachMissingFlagAndWhereItGoes()
    {
        final String both = JvmFlags.message(List.of(JvmFlags.ADD_EXPORTS, JvmFlags.NATIVE_ACCESS));
        assertTrue(both.contains("without --add-exports java.base/jdk.internal.misc=ALL-UNNAMED " +
            "--enable-native-access=ALL-UNNAMED"), both);
        assertTrue(both.contains("java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED " +
            "--enable-native-access=ALL-UNNAMED -cp ... MAINCLASS") && both.contains("JDK_JAVA_OPTIONS"), both);
        final String one = JvmFlags.message(List.of(JvmFlags.ADD_EXPORTS));
        assertFalse(one.contains("native"), one);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aJvmStartedWithoutTheFlagsIsToldWhichAndWhere() throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final ProcessBuilder builder = new ProcessBuilder(java, "-Dam2j.counters.dir=" + dir.resolve("counters"),
            "-cp", System.getProperty("java.class.path"), NoJvmFlagsMain.class.getName())
            .redirectOutput(dir.resolve("out").toFile())
            .redirectError(dir.resolve("err").toFile());
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        final Process process = builder.start();
        try
        {
            assertTrue(process.waitFor(45, TimeUnit.SECONDS), "did not exit");
        }
        finally
        {
            process.destroyForcibly();
        }
        final String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
        final String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
        final List<String> lines = out.lines().toList();
        assertEquals(2, lines.size(), out + err);
        assertTrue(lines.get(0).startsWith("Spmd.init refused: NOT_INIT: this JVM was started without " +
            "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"), out + err);
        assertTrue(lines.get(1).startsWith("Am.allocateBundle refused: NOT_INIT: this JVM was started without " +
            "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"), out + err);
        assertFalse(err.contains("IllegalAccessError"), err);
        assertEquals(0, process.exitValue(), out + err);
    }
}
