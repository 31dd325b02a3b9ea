package org.am2j.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import org.am2j.splitc.app.ReportJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code am2j scale} end to end with real rank JVMs (started and destroyed by the launcher in this process, also when
 * the test times out: the interrupt reaches its wait): the hello part with a JVM per rank and with two ranks per JVM.
 * No assertion about speed.
 */
class ScaleJobTest
{
    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void helloRunsOncePerRanksPerJvmThatDividesTheNodes() throws Exception
    {
        final Path json = dir.resolve("scale.json");
        final Path md = dir.resolve("scale.md");
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = new Scale(new PrintStream(new ByteArrayOutputStream(), true),
            new PrintStream(err, true, StandardCharsets.UTF_8)).run(new String[] {"--parts", "hello",
            "--hello-ranks", "4", "--nodes", "2", "--ranks-per-jvm", "1,2,3", "--timeout", "120",
            "--json", json.toString(), "--md", md.toString()});
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));

        final JsonNode report = ReportJson.read(Files.readString(json));
        assertEquals(2, report.get("hello").size(), report.toString());
        for (int i = 0; i < 2; i++)
        {
            final JsonNode hello = report.get("hello").get(i);
            final int perJvm = i + 1;
            assertEquals(perJvm, hello.get("ranks_per_jvm").asInt(), hello.toString());
            assertEquals(4 / perJvm, hello.get("jvms").asInt(), hello.toString());
            assertTrue(hello.get("command").asText().contains(" --ranks-per-jvm " + perJvm + " "), hello.toString());
            if (Files.isReadable(Path.of("/proc/self/smaps_rollup")))
            {
                // each JVM's PSS is at most its RSS, so the sum over the JVMs per rank is at most the largest RSS
                // times the JVMs per rank
                final double pss = hello.get("pss_kb_per_rank").asDouble();
                assertTrue(pss > 0 && pss <= hello.get("rss_kb_max").asDouble() * (4 / perJvm) / 4.0 + 1024,
                    hello.toString());
            }
        }
        assertEquals("hello -n 4 --nodes 2 --ranks-per-jvm 3: 3 does not divide the 2 rank(s) of node 0",
            report.at("/skipped/0").asText());
        assertTrue(Files.readString(md).contains("| 4 | 2 | 2 |"), Files.readString(md));
    }
}
