package org.am2j.perf;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.am2j.spmd.Job;
import org.am2j.spmd.RendezvousConfig;
import org.am2j.spmd.Spmd;
import org.am2j.splitc.app.AppMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Users' scripts read the JSON reports of {@code bin/am2j pingpong}, {@code logp}, {@code scale} and {@code app} by
 * their field names: every report made here must hold exactly the fields, at the same places and of the same JSON
 * kinds, listed in {@code src/test/resources/json-fields/COMMAND.txt}. A line there is a field's path (members joined
 * by {@code .}, {@code []} for the elements of an array) and the kind of its value (object, array, string, integer,
 * decimal, boolean, null). Each report is the fullest its command writes: every optional part present.
 * ({@code bin/am2j apps-matrix} writes no JSON: it reads the reports of {@code app}.)
 */
@Timeout(120)
class JsonFieldNamesTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void pingpongOverSharedMemoryWithMediumRoundTripsAndInterleavedBlocks() throws Exception
    {
        assertFields("pingpong-shm", PingPongReportTest.fullestSharedMemoryReport().json());
    }

    @Test
    void pingpongOverTheNetworkWithUdpLimitsAndInterleavedUdpBlocks() throws Exception
    {
        assertFields("pingpong-net", PingPongReportTest.fullestNetworkReport().json());
    }

    @Test
    void pingpongOfTwoProtocolsWithItsSingleProtocolReference() throws Exception
    {
        assertFields("pingpong-multi", PingPongReportTest.multiProtocolReport().json());
    }

    @Test
    void logpWithWarmUpsAndInterleavedLimits() throws Exception
    {
        assertFields("logp", LogPReportTest.fullestReport().json());
    }

    @Test
    void scaleWithEveryPart() throws Exception
    {
        assertFields("scale", ScaleReportTest.fullestReport().json());
    }

    /** Each application on one rank in this JVM, with a warm-up run: its parameters, checks and facts differ. */
    @ParameterizedTest(name = "app {0}")
    @ValueSource(strings = { "fft3d", "con", "em3d" })
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void app(final String app) throws Exception
    {
        final Path json = dir.resolve(app + ".json");
        final int status;
        try (Job job = Spmd.init(Map.of(), new RendezvousConfig()))
        {
            status = AppMain.run(job, new String[]{ app, "--preset", "small", "--warmup", "1", "--json",
                json.toString() }, new PrintStream(OutputStream.nullOutputStream()));
        }
        assertEquals(0, status);
        assertFields("app-" + app, Files.readString(json, StandardCharsets.UTF_8));
    }

    private static void assertFields(final String command, final String text) throws IOException
    {
        final JsonNode json = JSON.readTree(text);
        final JsonNode machine = json.get("machine");
        if (null != machine)
        {
            // whether the ranks were pinned depends on this machine (taskset, CPUs): an array of CPUs or null
            ((ObjectNode)machine).putNull("pinned_cpus");
        }
        final SortedSet<String> fields = new TreeSet<>();
        collect(json, "", fields);
        assertEquals(String.join("\n", expected(command)), String.join("\n", fields),
            "the fields of " + command + "'s JSON: " + text);
    }

    private static List<String> expected(final String command) throws IOException
    {
        try (InputStream in = JsonFieldNamesTest.class.getResourceAsStream("/json-fields/" + command + ".txt"))
        {
            assertNotNull(in, "json-fields/" + command + ".txt");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private static void collect(final JsonNode node, final String path, final SortedSet<String> fields)
    {
        if (!path.isEmpty())
        {
            fields.add(path + " " + kind(node));
        }
        if (node.isObject())
        {
            node.properties().forEach(member ->
                collect(member.getValue(), (path.isEmpty() ? "" : path + ".") + member.getKey(), fields));
        }
        else if (node.isArray())
        {
            node.forEach(element -> collect(element, path + "[]", fields));
        }
    }

    private static String kind(final JsonNode node)
    {
        return node.isObject() ? "object" : node.isArray() ? "array" : node.isTextual() ? "string" :
            node.isIntegralNumber() ? "integer" : node.isNumber() ? "decimal" : node.isBoolean() ? "boolean" :
            node.isNull() ? "null" : node.getNodeType().toString();
    }
}
