package org.am2j.perf.jmh;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof org.am2j.perf.jmh.CpuTimeProfiler}) that reports the CPU time the benchmark JVM used
 * per operation, next to JMH's wall-clock score. On a machine shared with other work, the wall-clock time of an
 * operation grows by the time the benchmark thread waits for a processor; the CPU time does not, so A/B comparisons
 * of a single-threaded benchmark under load are read from {@code cpu.ns/op}. It counts every thread of the forked
 * JVM (after warm-up, the compiler and collector threads add next to nothing to a benchmark that allocates nothing),
 * and it still includes what a loaded machine does to the caches.
 * <ul>
 *   <li>{@code cpu.ns/op}: process CPU time of the iteration over its operations;</li>
 *   <li>{@code cpu.share}: process CPU time over wall-clock time: about 1 per benchmark thread on an idle machine,
 *       less while the benchmark waits for a processor.</li>
 * </ul>
 */
public final class CpuTimeProfiler implements InternalProfiler
{
    private final com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
    private long cpuStart;
    private long wallStart;

    @Override
    public String getDescription()
    {
        return "process CPU time per operation and CPU share of the iteration";
    }

    @Override
    public void beforeIteration(final BenchmarkParams benchmarkParams, final IterationParams iterationParams)
    {
        wallStart = System.nanoTime();
        cpuStart = os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(
        final BenchmarkParams benchmarkParams, final IterationParams iterationParams, final IterationResult result)
    {
        final long cpu = os.getProcessCpuTime() - cpuStart;
        final long wall = System.nanoTime() - wallStart;
        final long ops = result.getMetadata().getAllOps();
        return List.of(
            new ScalarResult("cpu.ns/op", ops > 0 ? (double)cpu / ops : Double.NaN, "ns/op", AggregationPolicy.AVG),
            new ScalarResult("cpu.share", wall > 0 ? (double)cpu / wall : Double.NaN, "", AggregationPolicy.AVG));
    }
}
