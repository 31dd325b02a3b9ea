package org.am2j.perf.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics.Counter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.am2j.api.EndpointStatistics.Counter.REPLIES_RECEIVED;
import static org.am2j.api.EndpointStatistics.Counter.REPLIES_SENT;
import static org.am2j.api.EndpointStatistics.Counter.REQUESTS_RECEIVED;
import static org.am2j.api.EndpointStatistics.Counter.REQUESTS_SENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MessagingBenchmark} over a transport's route goes through that transport as between two processes: after
 * a run of its three benchmarks in a JVM of their own (am2j reads its transports once per process), the endpoints'
 * counters of that transport hold every message, and the in-process transport's none.
 */
class MessagingBenchmarkRouteTest
{
    private static final int ROUNDS = 1_000;
    private static final String[] TRANSPORTS = { "inproc", "shm", "net" };

    @ParameterizedTest
    @ValueSource(strings = { "shm" })
    @Timeout(120)
    void everyMessageCrossesTheRoutesTransport(final String route) throws IOException, InterruptedException
    {
        final Map<String, Long> counts = run(route);
        final long requests = ROUNDS + ROUNDS + (long)ROUNDS * MessagingBenchmark.BURST;
        assertEquals(requests, counts.get("client " + route + " " + REQUESTS_SENT), counts::toString);
        assertEquals(requests, counts.get("server " + route + " " + REQUESTS_RECEIVED), counts::toString);
        assertEquals(ROUNDS, counts.get("server " + route + " " + REPLIES_SENT), counts::toString);
        assertEquals(ROUNDS, counts.get("client " + route + " " + REPLIES_RECEIVED), counts::toString);
        for (final String side : new String[]{ "client", "server" })
        {
            for (final Counter counter : List.of(REQUESTS_SENT, REQUESTS_RECEIVED, REPLIES_SENT, REPLIES_RECEIVED))
            {
                assertEquals(0, counts.get(side + " inproc " + counter), counts::toString);
            }
        }
    }

    /**
     * Run the benchmark's three benchmarks {@value #ROUNDS} times each in another JVM and read its counters.
     */
    private static Map<String, Long> run(final String route) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            JmhRuntime.ADD_EXPORTS, JmhRuntime.JDK_INTERNAL_MISC, JmhRuntime.NATIVE_ACCESS,
            "-cp", System.getProperty("java.class.path"), MessagingBenchmarkRouteTest.class.getName(), route)
            .redirectErrorStream(true).start();
        try
        {
            // its few lines fit in the pipe: read once it has exited, so that a hung JVM fails the test here
            assertTrue(process.waitFor(90, TimeUnit.SECONDS), "the benchmark's JVM ended");
            final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), out);
            final Map<String, Long> counts = new HashMap<>();
            out.lines().map(line -> line.split(" ")).filter(words -> 4 == words.length)
                .forEach(words -> counts.put(words[0] + " " + words[1] + " " + words[2], Long.parseLong(words[3])));
            assertEquals(2 * TRANSPORTS.length * Counter.values().length, counts.size(), out);
            return counts;
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    /**
     * The other JVM: set the benchmark up for the route, run each benchmark {@value #ROUNDS} times, tear it down
     * (which fails when a message came back) and print every counter of both endpoints as
     * {@code SIDE TRANSPORT COUNTER VALUE}.
     *
     * @param args the route.
     */
    public static void main(final String[] args)
    {
        final MessagingBenchmark benchmark = new MessagingBenchmark();
        benchmark.route = args[0];
        benchmark.setUp();
        for (int i = 0; i < ROUNDS; i++)
        {
            benchmark.roundTrip();
            benchmark.oneWay();
            benchmark.burst();
        }
        benchmark.tearDown();
        print("client", benchmark.client);
        print("server", benchmark.server);
    }

    private static void print(final String side, final Endpoint endpoint)
    {
        for (final String transport : TRANSPORTS)
        {
            for (final Counter counter : Counter.values())
            {
                System.out.println(side + " " + transport + " " + counter + " " +
                    endpoint.statistics().get(transport, counter));
            }
        }
    }
}
