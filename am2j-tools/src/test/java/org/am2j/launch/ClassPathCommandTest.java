package org.am2j.launch;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code am2j classpath}: its usage, and, in real JVMs, a class path given relative or as a wildcard printed absolute
 * and whole, on which a rank program then runs from anywhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClassPathCommandTest
{
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final long WAIT_S = 40;

    @TempDir
    Path dir;

    @Test
    void helpPrintsTheUsageAndAnyOtherArgumentIsAUsageError()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertEquals(0, ClassPathCommand.run(new String[]{ "--help" }, outStream, errStream));
        assertEquals(ClassPathCommand.USAGE + "\n", out.toString(StandardCharsets.UTF_8));

        assertEquals(ClassPathCommand.USAGE_STATUS, ClassPathCommand.run(new String[]{ "--json" }, outStream, errStream));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(
            "am2j classpath: unexpected argument \"--json\"\n" + ClassPathCommand.USAGE), err.toString());
    }

    @Test
    void aRelativeClassPathIsPrintedAbsoluteAndARankProgramRunsOnItFromAnotherDirectory() throws Exception
    {
        final List<String> entries = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.isEmpty())
            .map(entry -> Path.of(entry).toAbsolutePath().normalize())
            .map(entry -> dir.relativize(entry).toString())
            .collect(Collectors.toList());

        final String printed = runJava(dir, List.of("-cp", String.join(File.pathSeparator, entries),
            ClassPathCommand.class.getName()));

        final List<String> expected = entries.stream()
            .map(entry -> dir.resolve(entry).normalize().toString())
            .collect(Collectors.toList());
        assertEquals(String.join(File.pathSeparator, expected) + "\n", printed);

        final Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        final List<String> rank = new ArrayList<>(RankCommand.JVM_FLAGS);
        rank.addAll(List.of("-cp", printed.trim(), HelloMain.class.getName()));
        assertEquals("rank 0 of 1 on node 0\n", runJava(elsewhere, rank));
    }

    @Test
    void aWildcardEntryIsPrintedAsTheJarsItStandsFor() throws Exception
    {
        final Path lib = Files.createDirectory(dir.resolve("lib"));
        final Path jar = lib.resolve("classpath-command.jar");
        final String entry = ClassPathCommand.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file))
        {
            out.putNextEntry(new JarEntry(entry));
            try (var in = ClassPathCommand.class.getClassLoader().getResourceAsStream(entry))
            {
                in.transferTo(out);
            }
            out.closeEntry();
        }

        assertEquals(jar + "\n", runJava(dir, List.of("-cp", "lib" + File.separator + "*",
            ClassPathCommand.class.getName())));
    }

    /**
     * Run a JVM in a directory, without the variables of any launcher, and return its standard output once it has
     * exited with 0.
     */
    private static String runJava(final Path workingDirectory, final List<String> args)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(JAVA);
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command)
            .directory(workingDirectory.toFile())
            .redirectError(workingDirectory.resolve("java.err").toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("AM2J_") || name.startsWith("SLURM_") ||
            name.startsWith("OMPI_") || name.startsWith("PMI_"));
        final Process process = builder.start();
        try
        {
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(WAIT_S, TimeUnit.SECONDS), "still running: " + command);
            final String err = Files.readString(workingDirectory.resolve("java.err"));
            assertEquals(0, process.exitValue(), command + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err);
            return out;
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}
