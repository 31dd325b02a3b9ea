package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A shell recipe of the README or {@code docs/}, run as written: the README's program ({@code HelloAm}) compiled into
 * a directory of the test, and the recipe's code block with only the program's directory ({@code /tmp/hello}), am2j's
 * class path ({@code $(bin/am2j classpath)}: the test's class path) and the rendezvous port ({@code 7400}: a free
 * one) replaced.
 */
final class DocsRecipe
{
    /** The program's directory in the recipes. */
    private static final String PROGRAM_DIR = "/tmp/hello";
    /** What the recipes take am2j's class path from: a build of this repository. */
    private static final String CLASS_PATH = "$(bin/am2j classpath)";
    /** The rendezvous port of the recipes. */
    private static final String PORT = "7400";

    private DocsRecipe()
    {
    }

    /**
     * Compile the README's {@code HelloAm} into {@code dir/hello}.
     *
     * @param dir the test's directory.
     * @return the directory of its classes.
     */
    static Path compileHello(final Path dir) throws IOException
    {
        final String readme = read("README.md");
        final Path source = dir.resolve("HelloAm.java");
        Files.writeString(source, codeBlock(readme, readme.indexOf("public final class HelloAm"), "README.md"));
        final Path classes = Files.createDirectories(dir.resolve("hello"));
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-cp", System.getProperty("java.class.path"), "-d",
            classes.toString(), source.toString()), "the README's HelloAm compiles");
        return classes;
    }

    /**
     * @param file    the document, relative to the repository, e.g. {@code docs/commands.md}.
     * @param section a text of it the recipe's code block ({@code ```sh}) follows.
     * @param classes where the program is ({@link #compileHello}).
     * @return the recipe's lines, adapted to this test.
     */
    static List<String> recipe(final String file, final String section, final Path classes) throws IOException
    {
        final String text = read(file);
        final int at = text.indexOf(section);
        assertTrue(at >= 0, file + " has no '" + section + "'");
        final String shell = codeBlock(text, text.indexOf("```sh\n", at), file);
        assertTrue(shell.contains(PROGRAM_DIR) && shell.contains(CLASS_PATH) && shell.contains(":" + PORT),
            "the recipe this test adapts changed:\n" + shell);
        return shell.replace(PROGRAM_DIR, classes.toString())
            .replace(CLASS_PATH, System.getProperty("java.class.path"))
            .replace(":" + PORT, ":" + LauncherJob.freePort()).lines().toList();
    }

    /**
     * @param marker the test's {@link LauncherJob#MARKER}.
     * @return the variables a recipe's shell gets besides the test's own: its {@code java} first on the path, the
     * marker that finds its processes.
     */
    static Map<String, String> environment(final String marker)
    {
        return Map.of("PATH", path(), LauncherJob.MARKER, marker);
    }

    /**
     * @return the path of a recipe's shell: this JVM's {@code java} first.
     */
    static String path()
    {
        return Path.of(System.getProperty("java.home"), "bin") + ":" +
            System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    }

    /**
     * @param lines a recipe's lines.
     * @return the command that runs them in {@code bash}.
     */
    static List<String> bash(final List<String> lines)
    {
        return List.of("bash", "-c", String.join("\n", lines));
    }

    /**
     * Check that every rank of the README's {@code HelloAm} greeted every other and had its replies.
     *
     * @param output   the job's output.
     * @param ranks    of the job.
     * @param prefixed true when each rank's lines are prefixed {@code [R] } (ranks as threads).
     */
    static void checkGreetings(final String output, final int ranks, final boolean prefixed)
    {
        final List<String> lines = output.lines().toList();
        for (int rank = 0; rank < ranks; rank++)
        {
            final String prefix = prefixed ? "[" + rank + "] " : "";
            for (int peer = 0; peer < ranks; peer++)
            {
                final String greeted = prefix + "rank " + rank + " got 'hello from rank " + peer + "'";
                assertEquals(peer == rank ? 0 : 1, lines.stream().filter(greeted::equals).count(),
                    "lines '" + greeted + "'\n" + output);
            }
            final String done = prefix + "rank " + rank + ": " + (ranks - 1) + " peers greeted, " + (ranks - 1) +
                " replies";
            assertEquals(1, lines.stream().filter(done::equals).count(), "lines '" + done + "'\n" + output);
        }
    }

    private static String read(final String file) throws IOException
    {
        return Files.readString(Path.of("..", file), StandardCharsets.UTF_8);
    }

    /**
     * @param text a Markdown text.
     * @param at   an index inside a fenced code block, or at its opening fence.
     * @param file the text's file, for messages.
     * @return the block's text, without its fences.
     */
    private static String codeBlock(final String text, final int at, final String file)
    {
        assertTrue(at >= 0, "no such code block in " + file);
        final int open = text.lastIndexOf("```", text.startsWith("```", at) ? at : at - 1);
        final int start = text.indexOf('\n', open) + 1;
        final int end = text.indexOf("```", start);
        assertTrue(open >= 0 && start > 0 && end > start, "unterminated code block in " + file);
        return text.substring(start, end);
    }
}
