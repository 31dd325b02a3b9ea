package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Without a launcher" recipe, run as the README writes it: its program ({@code HelloAm}, compiled from
 * the README) and its shell lines, in {@code bash}, with only am2j's class path ({@code $(bin/am2j classpath)}: this
 * test's class path), the program's directory ({@code /tmp/hello}) and the port ({@code 7400}: a free one) replaced.
 * Two real JVMs, each rank greeting the other.
 */
class WithoutLauncherTest
{
    private static final String SECTION = "Without a launcher";
    private static final String README_PORT = "7400";
    /** What the README's recipe takes am2j's class path from: a build of this repository. */
    private static final String README_CLASS_PATH = "$(bin/am2j classpath)";
    private static final long JOB_SECONDS = 90;

    @TempDir
    Path dir;

    private String marker;
    private List<String> recipe;

    @BeforeEach
    void compileTheReadmeProgram() throws IOException
    {
        marker = "no-launcher-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        final String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        final String program = codeBlock(readme, readme.indexOf("public final class HelloAm"));
        final Path source = dir.resolve("HelloAm.java");
        Files.writeString(source, program);
        final Path classes = Files.createDirectories(dir.resolve("hello"));
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-cp", System.getProperty("java.class.path"), "-d",
            classes.toString(), source.toString()), "the README's HelloAm compiles");

        final int section = readme.indexOf(SECTION);
        assertTrue(section >= 0, "README.md has no '" + SECTION + "'");
        final String shell = codeBlock(readme, readme.indexOf("```sh\n", section));
        assertTrue(shell.contains("/tmp/hello") && shell.contains(README_CLASS_PATH) &&
            shell.contains(":" + README_PORT), "the recipe this test adapts changed:\n" + shell);
        final String port = Integer.toString(LauncherJob.freePort());
        recipe = shell.replace("/tmp/hello", classes.toString())
            .replace(README_CLASS_PATH, System.getProperty("java.class.path"))
            .replace(":" + README_PORT, ":" + port).lines().toList();
    }

    @Test
    @Timeout(value = JOB_SECONDS + 30, unit = TimeUnit.SECONDS)
    void theReadmeRecipeRunsTwoRanksThatGreetEachOther() throws Exception
    {
        final Path output = dir.resolve("recipe.out");
        try
        {
            final int status = LauncherJob.run(TimeUnit.SECONDS.toMillis(JOB_SECONDS), bash(recipe), environment(),
                output);
            final String text = LauncherJob.read(output);
            assertEquals(0, status, "the recipe ended with " + status + " (-1: killed for running too long)\n" + text);
            checkGreetings(text);
        }
        finally
        {
            assertEquals(List.of(), LauncherJob.killMarked(marker), "ranks left running (killed)");
        }
    }

    /**
     * Rank 0 started alone, as the recipe's first rank line starts it, says which rank it waits for; rank 1, started
     * once it has, joins it.
     */
    @Test
    @Timeout(value = JOB_SECONDS + 30, unit = TimeUnit.SECONDS)
    void rankZeroSaysWhichRanksItWaitsFor() throws Exception
    {
        final List<String> setUp = recipe.stream().filter(line -> !line.startsWith("AM2J_RANK=") &&
            !line.equals("wait")).toList();
        final List<String> ranks = recipe.stream().filter(line -> line.startsWith("AM2J_RANK=")).toList();
        assertEquals(2, ranks.size(), recipe.toString());
        final Path output0 = dir.resolve("rank0.out");
        final Path output1 = dir.resolve("rank1.out");
        Process rank0 = null;
        Process rank1 = null;
        try
        {
            rank0 = LauncherJob.start(bash(withLine(setUp, ranks.get(0).replaceAll("\\s*&$", ""))), environment(),
                output0);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOB_SECONDS / 2);
            while (!LauncherJob.read(output0).contains("waiting for ranks [1] of job '") && rank0.isAlive() &&
                System.nanoTime() - deadline < 0)
            {
                Thread.sleep(100);
            }
            final String waiting = LauncherJob.read(output0);
            assertTrue(waiting.contains("am2j rendezvous: waiting for ranks [1] of job '"),
                "rank 0 did not say which rank it waits for\n" + waiting);

            rank1 = LauncherJob.start(bash(withLine(setUp, ranks.get(1))), environment(), output1);
            assertTrue(rank1.waitFor(JOB_SECONDS, TimeUnit.SECONDS), "rank 1 still runs");
            assertTrue(rank0.waitFor(JOB_SECONDS, TimeUnit.SECONDS), "rank 0 still runs");
            final String text = LauncherJob.read(output0) + LauncherJob.read(output1);
            assertEquals(0, rank0.exitValue(), text);
            assertEquals(0, rank1.exitValue(), text);
            checkGreetings(text);
        }
        finally
        {
            LauncherJob.kill(rank0);
            LauncherJob.kill(rank1);
            assertEquals(List.of(), LauncherJob.killMarked(marker), "ranks left running (killed)");
        }
    }

    private static void checkGreetings(final String output)
    {
        for (int rank = 0; rank < 2; rank++)
        {
            assertTrue(output.contains("rank " + rank + " got 'hello from rank " + (1 - rank) + "'"), output);
            assertTrue(output.contains("rank " + rank + ": 1 peers greeted, 1 replies"), output);
        }
    }

    /**
     * @return the variables the recipe's shell gets besides the test's own: its {@code java} first on the path, the
     * marker that finds its processes.
     */
    private Map<String, String> environment()
    {
        final String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
        return Map.of("PATH", javaBin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
            LauncherJob.MARKER, marker);
    }

    private static List<String> withLine(final List<String> lines, final String line)
    {
        final List<String> all = new ArrayList<>(lines);
        all.add(line);
        return all;
    }

    private static List<String> bash(final List<String> lines)
    {
        return List.of("bash", "-c", String.join("\n", lines));
    }

    /**
     * @param text a Markdown text.
     * @param at   an index inside a fenced code block, or at its opening fence.
     * @return the block's text, without its fences.
     */
    private static String codeBlock(final String text, final int at)
    {
        assertTrue(at >= 0, "no such code block in README.md");
        final int open = text.lastIndexOf("```", text.startsWith("```", at) ? at : at - 1);
        final int start = text.indexOf('\n', open) + 1;
        final int end = text.indexOf("```", start);
        assertTrue(open >= 0 && start > 0 && end > start, "unterminated code block in README.md");
        return text.substring(start, end);
    }
}
