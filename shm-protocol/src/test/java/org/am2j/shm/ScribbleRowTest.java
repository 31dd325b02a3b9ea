package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that writes over live shared memory, one kind of fault per test, between two real JVMs (see
 * {@link ScribbleRowMain}): per request, no handler runs twice, none is both served and returned, a reply to the live
 * requester is delivered, the requests with no outcome are no more than those counted as spoiled or unsettled, the
 * pair works again once the faults stop, and freeing each endpoint returns.
 * <p>
 * The default build runs the row of the state words; the other rows are soak: their faults keep a test in the default
 * build (scribbled packets and headers between two JVMs in {@link PacketScribbleTest} and {@link HeaderScribbleTest},
 * fast-box words and a zeroed box in one JVM in {@code FastBoxScribbleTest}).
 */
class ScribbleRowTest extends LauncherTestSupport
{
    private static final List<String> FAST_LIVENESS = List.of("-Dam2j.shm.livenessMs=50");

    @Tag("soak")
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void overwrittenFastBoxWords() throws Exception
    {
        run(ScribbleRowMain.Row.BOX_WORDS, 3_000, 200);
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void closedWrittenOverTheStateWords() throws Exception
    {
        run(ScribbleRowMain.Row.STATE_CLOSED, 3_000, 20);
    }

    @Tag("soak")
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void garbageOverTheHeaders() throws Exception
    {
        run(ScribbleRowMain.Row.HEADER_GARBAGE, 3_000, 200);
    }

    @Tag("soak")
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void scribbledPacketStates() throws Exception
    {
        run(ScribbleRowMain.Row.PACKET_STATES, 3_000, 100);
    }

    @Tag("soak")
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void zeroedQueueBlock() throws Exception
    {
        run(ScribbleRowMain.Row.ZEROED, 3_000, 500_000);
    }

    private void run(final ScribbleRowMain.Row row, final long floodMs, final long pauseMicros) throws Exception
    {
        final JobResult result = runJob(140, 2, FAST_LIVENESS, ScribbleRowMain.class, row.name(),
            String.valueOf(floodMs), String.valueOf(pauseMicros));
        result.out.lines().filter(line -> line.startsWith("[1] rank 1") || line.startsWith("[0] rank 0") ||
            line.startsWith("[1]   ")).forEach(System.out::println);
        result.assertSucceeded(2);
        assertTrue(result.out.contains("[1] rank 1 ok\n"), result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
