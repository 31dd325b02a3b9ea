package org.am2j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.am2j.spmd.Job;
import org.am2j.spmd.RendezvousConfig;
import org.am2j.spmd.Spmd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The API example of README.md, kept compiling and correct.
 */
class ReadmeExampleTest
{
    @Test
    @Timeout(10)
    void theReadmeExampleComputes42()
    {
        final int[] sum = { -1 };
        // README example begins
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            Endpoint server = bundle.allocateEndpoint();
            Endpoint client = bundle.allocateEndpoint();
            server.tag(Tags.fresh());                        // senders must present this tag
            client.tag(Tags.fresh());
            client.map(0, server.name(), server.tag());      // translation table: index 0 -> server

            server.handler(1, (token, msg) -> token.reply(2, msg.arg(0) + msg.arg(1)));
            client.handler(2, (token, msg) -> sum[0] = msg.arg(0));
            client.handler(0, (token, msg) -> System.err.println("returned: " + msg.returnStatus()));

            client.request(0, 1, 40, 2);                     // short request to handler 1, two arguments
            while (sum[0] < 0)
            {
                bundle.poll();                               // handlers run inside poll()
            }
            System.out.println("40 + 2 = " + sum[0]);
        }
        // README example ends
        assertEquals(42, sum[0]);
    }

    /**
     * The README's SPMD program, each rank a thread of this JVM joined through the rendezvous as under Open MPI's
     * mpirun (the README's program calls {@code Spmd.init()}, which reads the same variables from the environment).
     */
    @Test
    @Timeout(60)
    void theReadmeSpmdProgramGreetsEveryOtherRank() throws Exception
    {
        final int ranks = 3;
        final int port;
        try (ServerSocket probe = new ServerSocket(0))
        {
            port = probe.getLocalPort();
        }
        final List<String> lines = new CopyOnWriteArrayList<>();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < ranks; r++)
        {
            final Map<String, String> env = Map.of(
                "OMPI_COMM_WORLD_RANK", Integer.toString(r),
                "OMPI_COMM_WORLD_SIZE", Integer.toString(ranks),
                "AM2J_BOOTSTRAP", "127.0.0.1:" + port,
                "AM2J_NODE_ID", "readme-" + ProcessHandle.current().pid(),
                "AM2J_JOB", "readme-" + ProcessHandle.current().pid());
            final Thread thread = new Thread(() ->
            {
                try (Job job = Spmd.init(env, new RendezvousConfig()))
                {
                    ReadmeSpmdExample.rank(job, lines::add);
                }
                catch (final Throwable ex)
                {
                    failures.add(ex);
                }
            }, "rank-" + r);
            threads.add(thread);
            thread.start();
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals(List.of(), failures);
        for (int r = 0; r < ranks; r++)
        {
            for (int from = 0; from < ranks; from++)
            {
                if (from != r)
                {
                    assertTrue(lines.contains("rank " + r + " got 'hello from rank " + from + "'"), lines.toString());
                }
            }
            assertTrue(lines.contains("rank " + r + ": " + (ranks - 1) + " peers greeted, " + (ranks - 1) +
                " replies"), lines.toString());
        }
        assertEquals(ranks * (ranks - 1) + ranks, lines.size(), lines.toString());
    }

    @Test
    void theReadmeShowsTheProgramsThisTestRuns() throws Exception
    {
        final String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        final String spmd = Files.readString(
            Path.of("src", "test", "java", "org", "am2j", "api", "ReadmeSpmdExample.java"), StandardCharsets.UTF_8);
        final String program = between(spmd, "    // README SPMD example begins\n", "    // README SPMD example ends");
        assertTrue(readme.contains("public final class HelloAm\n{\n" + program + "}\n```"),
            "README.md's SPMD program differs from ReadmeSpmdExample's");

        final String test = Files.readString(
            Path.of("src", "test", "java", "org", "am2j", "api", "ReadmeExampleTest.java"), StandardCharsets.UTF_8);
        final String example = between(test, "        // README example begins\n", "        // README example ends")
            .replace("\n        ", "\n").substring("        ".length());
        assertTrue(readme.contains(example), "README.md's first example differs from this test's");
    }

    private static String between(final String text, final String begin, final String end)
    {
        final int from = text.indexOf(begin);
        final int to = text.indexOf(end, from);
        assertTrue(from >= 0 && to > from, begin.strip());
        return text.substring(from + begin.length(), to);
    }
}
