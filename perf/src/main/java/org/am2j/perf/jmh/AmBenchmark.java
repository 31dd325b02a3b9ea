package org.am2j.perf.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every benchmark of this package shares, which JMH takes from the superclass (its annotations are
 * inherited; a benchmark's own annotation overrides the one here): the average time of an operation in ns, 5 warm-up
 * and 5 measured iterations of 1 s, in 2 forks whose JVMs get the options am2j's transports need
 * ({@link JmhRuntime}), state per thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = { JmhRuntime.ADD_EXPORTS, JmhRuntime.JDK_INTERNAL_MISC, JmhRuntime.NATIVE_ACCESS })
public abstract class AmBenchmark
{
}
