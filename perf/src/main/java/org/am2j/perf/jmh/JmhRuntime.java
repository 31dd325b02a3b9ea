package org.am2j.perf.jmh;

import java.util.List;
import java.util.stream.Stream;

import org.am2j.core.AmRuntime;

/**
 * Starts am2j in a benchmark's forked JVM with the transports the benchmark is about. The process-wide runtime reads
 * its settings once, when it is first used, so they are set here, before that; a JVM whose runtime already runs with
 * other transports (a benchmark run with {@code -f 0} after another one) is refused rather than measured.
 */
final class JmhRuntime
{
    /** The JVM flags am2j needs (DESIGN.md section 10), for {@code @Fork(jvmArgsAppend = ...)}. */
    static final String ADD_EXPORTS = "--add-exports";
    /** Argument of {@link #ADD_EXPORTS}. */
    static final String JDK_INTERNAL_MISC = "java.base/jdk.internal.misc=ALL-UNNAMED";
    /** JNA's native access on JDK 24+; JDK 17 accepts it too. */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private JmhRuntime()
    {
    }

    /**
     * Set the settings and start the runtime.
     *
     * @param transports the transports besides {@code inproc}, comma separated, as {@code am2j.transports}; empty
     *                   for in-process only.
     * @param selfOnly   true when two endpoints of this JVM must reach each other through the next cheapest
     *                   transport rather than in-process ({@code am2j.inproc.selfOnly}).
     * @return the runtime.
     * @throws IllegalStateException when the runtime already runs with other transports.
     */
    static AmRuntime start(final String transports, final boolean selfOnly)
    {
        System.setProperty("am2j.transports", transports.isEmpty() ? "inproc" : transports);
        System.setProperty("am2j.inproc.selfOnly", Boolean.toString(selfOnly));
        // One job directory per benchmark JVM, and the network endpoints on loopback: nothing leaves the machine.
        System.setProperty("am2j.job", "jmh-" + ProcessHandle.current().pid());
        if (null == System.getProperty("am2j.net.host"))
        {
            System.setProperty("am2j.net.host", "127.0.0.1");
        }
        final AmRuntime runtime = AmRuntime.instance();
        final List<String> expected = expected(transports);
        if (!runtime.transportNames().equals(expected))
        {
            throw new IllegalStateException("am2j already runs in this JVM with transports " +
                runtime.transportNames() + ", the benchmark needs " + expected + ": run it forked (-f 1 or more)");
        }
        return runtime;
    }

    /**
     * Start the runtime for a benchmark whose two endpoints of this JVM must reach each other over one route.
     *
     * @param route    {@code inproc}, or a transport's name ({@code shm}, {@code net}): that transport is started
     *                 beside {@code inproc}, which then routes an endpoint only to itself.
     * @param accepted the routes the benchmark takes, for the message when {@code route} is not one of them.
     * @return the runtime.
     * @throws IllegalArgumentException when the route is not accepted.
     */
    static AmRuntime startRoute(final String route, final List<String> accepted)
    {
        if (!accepted.contains(route))
        {
            throw new IllegalArgumentException("route must be one of " + accepted + ", got '" + route + "'");
        }
        return AmRuntime.IN_PROCESS.equals(route) ? start("", false) : start(route, true);
    }

    private static List<String> expected(final String transports)
    {
        final List<String> names = new java.util.ArrayList<>(List.of(AmRuntime.IN_PROCESS));
        Stream.of(transports.split(",")).map(String::trim)
            .filter(name -> !name.isEmpty() && !AmRuntime.IN_PROCESS.equals(name)).forEach(names::add);
        return names;
    }
}
