package org.am2j.splitc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every primitive of the Split-C layer between rank JVMs started by the launcher ({@link PrimitivesMain}), on each
 * node count of {@link LauncherTestSupport#NODE_COUNTS}, with 2, 3 and 4 ranks and with 8 ranks on this machine's 2
 * cores; and a returned message failing loudly. Each job must leave nothing in shared memory.
 */
class SplitCPrimitivesTest extends LauncherTestSupport
{
    private static final List<String> CHECKS = List.of(
        "gets", "puts", "stores", "bulk 8192", "bulk 4096", "bulk 24", "collectives", "flood", "counts");

    static Stream<Arguments> ranksAndNodes()
    {
        return IntStream.of(NODE_COUNTS).boxed()
            .flatMap(nodes -> IntStream.of(2, 3, 4, 8).filter(ranks -> ranks >= nodes)
                .mapToObj(ranks -> Arguments.of(ranks, nodes)));
    }

    static IntStream nodeCounts()
    {
        return IntStream.of(NODE_COUNTS).filter(nodes -> nodes <= 2);
    }

    /** The default build's job: 3 ranks on 2 nodes, so every primitive crosses shared memory and the network. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyPrimitiveBetweenRankJvmsOverBothProtocols() throws Exception
    {
        everyPrimitiveBetweenRankJvms(3, 2);
    }

    /** Every rank and node count: minutes on 2 CPUs, so in the soak profile. */
    @Tag("soak")
    @ParameterizedTest(name = "{0} ranks on {1} node(s)")
    @MethodSource("ranksAndNodes")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyPrimitiveOnEveryRankAndNodeCount(final int ranks, final int nodes) throws Exception
    {
        everyPrimitiveBetweenRankJvms(ranks, nodes);
    }

    private void everyPrimitiveBetweenRankJvms(final int ranks, final int nodes) throws Exception
    {
        final JobResult result = runJob(100, ranks, nodes, List.of(), PrimitivesMain.class, "all");

        result.assertSucceeded(ranks);
        for (int r = 0; r < ranks; r++)
        {
            for (final String check : CHECKS)
            {
                final String ok = "[" + r + "] ok " + check;
                assertEquals(1, result.out.lines().filter(ok::equals).count(), "missing '" + ok + "'" + result.output());
            }
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }

    @ParameterizedTest(name = "on {0} node(s)")
    @MethodSource("nodeCounts")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aReturnedMessageFailsTheCallWithItsStatus(final int nodes) throws Exception
    {
        final JobResult result = runJob(50, 2, nodes, List.of(), PrimitivesMain.class, "returned");

        result.assertSucceeded(2);
        assertEquals(1, result.out.lines().filter(l -> l.startsWith("[0] returned: rank 0: a REQUEST_SHORT message " +
            "for handler 68 (put) came back undelivered with status EBADTAG")).count(), result.output());
        assertEquals(2, result.out.lines().filter(l -> l.endsWith("] ok returned")).count(), result.output());
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
