package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Without a launcher" recipe, run as the README writes it ({@link DocsRecipe}). Two real JVMs, each rank
 * greeting the other.
 */
class WithoutLauncherTest
{
    private static final long JOB_SECONDS = 90;

    @TempDir
    Path dir;

    private String marker;
    private List<String> recipe;

    @BeforeEach
    void compileTheReadmeProgram() throws IOException
    {
        marker = "no-launcher-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        recipe = DocsRecipe.recipe("README.md", "Without a launcher", DocsRecipe.compileHello(dir));
    }

    @Test
    @Timeout(value = JOB_SECONDS + 30, unit = TimeUnit.SECONDS)
    void theReadmeRecipeRunsTwoRanksThatGreetEachOther() throws Exception
    {
        final Path output = dir.resolve("recipe.out");
        try
        {
            final int status = LauncherJob.run(TimeUnit.SECONDS.toMillis(JOB_SECONDS), DocsRecipe.bash(recipe),
                DocsRecipe.environment(marker), output);
            final String text = LauncherJob.read(output);
            assertEquals(0, status, "the recipe ended with " + status + " (-1: killed for running too long)\n" + text);
            DocsRecipe.checkGreetings(text, 2, false);
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
            rank0 = LauncherJob.start(DocsRecipe.bash(withLine(setUp, ranks.get(0).replaceAll("\\s*&$", ""))),
                DocsRecipe.environment(marker), output0);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOB_SECONDS / 2);
            while (!LauncherJob.read(output0).contains("waiting for ranks [1] of job '") && rank0.isAlive() &&
                System.nanoTime() - deadline < 0)
            {
                Thread.sleep(100);
            }
            final String waiting = LauncherJob.read(output0);
            assertTrue(waiting.contains("am2j rendezvous: waiting for ranks [1] of job '"),
                "rank 0 did not say which rank it waits for\n" + waiting);

            rank1 = LauncherJob.start(DocsRecipe.bash(withLine(setUp, ranks.get(1))), DocsRecipe.environment(marker),
                output1);
            assertTrue(rank1.waitFor(JOB_SECONDS, TimeUnit.SECONDS), "rank 1 still runs");
            assertTrue(rank0.waitFor(JOB_SECONDS, TimeUnit.SECONDS), "rank 0 still runs");
            final String text = LauncherJob.read(output0) + LauncherJob.read(output1);
            assertEquals(0, rank0.exitValue(), text);
            assertEquals(0, rank1.exitValue(), text);
            DocsRecipe.checkGreetings(text, 2, false);
        }
        finally
        {
            LauncherJob.kill(rank0);
            LauncherJob.kill(rank1);
            assertEquals(List.of(), LauncherJob.killMarked(marker), "ranks left running (killed)");
        }
    }

    private static List<String> withLine(final List<String> lines, final String line)
    {
        final List<String> all = new ArrayList<>(lines);
        all.add(line);
        return all;
    }
}
