package org.am2j.launch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The JVM options the launcher gives rank JVMs when a job has more ranks than the machine has CPUs, as when the
 * paper's 32-processor clump runs on a laptop: each rank JVM compiles the same code, and on a shared CPU that
 * compilation is the ranks' own time. 32 ranks of EM3D/good (paper inputs, 4 iterations) on 2 CPUs took 101-121 s
 * with the JVM's defaults and 44-45 s with these options; the full 47 iterations took 408 s and 370 s, CON/comm
 * 247 s and 173 s, CON/comp 21.8 s and 9.1 s.
 * <ul>
 * <li>{@value #C1_ONLY}: compile with C1 only; C2's optimised code is faster once made, but 32 JVMs making it cost
 * 12 CPU-seconds each;</li>
 * <li>{@value #SERIAL_GC}: one collector thread per JVM instead of one per CPU per JVM.</li>
 * </ul>
 * A rank's own {@code --jvm-opt} wins: options the launcher adds come first (a later {@code -XX:TieredStopAtLevel}
 * overrides), and no collector is added when the user names one ({@code -XX:+Use...GC}), since the JVM refuses two.
 */
final class OversubscribedJvm
{
    /** C1 only. */
    static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    /** The serial collector. */
    static final String SERIAL_GC = "-XX:+UseSerialGC";

    private OversubscribedJvm()
    {
    }

    /**
     * @param ranks       of the job on this machine.
     * @param processors  CPUs of this machine available to the launcher.
     * @param userOptions the {@code --jvm-opt} options of the launch.
     * @return the options to put before the user's; empty when every rank can have a CPU.
     */
    static List<String> options(final int ranks, final int processors, final List<String> userOptions)
    {
        if (ranks <= processors)
        {
            return Collections.emptyList();
        }
        final List<String> options = new ArrayList<>(2);
        if (userOptions.stream().noneMatch(o -> o.startsWith("-XX:TieredStopAtLevel") ||
            o.equals("-XX:-TieredCompilation") || o.equals("-XX:+TieredCompilation")))
        {
            options.add(C1_ONLY);
        }
        if (userOptions.stream().noneMatch(o -> o.startsWith("-XX:+Use") && o.endsWith("GC")))
        {
            options.add(SERIAL_GC);
        }
        return options;
    }
}
