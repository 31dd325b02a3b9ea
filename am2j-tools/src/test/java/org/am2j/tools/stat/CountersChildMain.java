package org.am2j.tools.stat;

import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.EndpointCounters;
import org.am2j.core.stats.ProtocolCounters;

/**
 * A child process for cross-process tests: creates counters in the directory given as its argument, counts one
 * request, prints {@code READY <pid>}, then keeps counting requests until it is killed. It exits by itself after a
 * minute so that no orphan outlives a test run.
 */
public final class CountersChildMain
{
    /** Endpoint id of the child's counters. */
    static final int ENDPOINT_ID = 7;

    /** Transport name of the child's counters. */
    static final String TRANSPORT = "inproc";

    private static final long LIFETIME_NS = TimeUnit.SECONDS.toNanos(60);

    private CountersChildMain()
    {
    }

    /**
     * @param args the counters directory.
     * @throws InterruptedException never in practice.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final long deadline = System.nanoTime() + LIFETIME_NS;
        try (CountersFile file = CountersFile.create(Paths.get(args[0]), 64);
            EndpointCounters endpoint = new EndpointCounters(file, ENDPOINT_ID, "child"))
        {
            final ProtocolCounters counters = endpoint.transport(TRANSPORT);
            endpoint.singleWriter(true);
            counters.onRequestSent();
            // A single writer's counts reach the file when published, as a SEQ bundle's poll publishes them.
            counters.publish();
            System.out.println("READY " + ProcessHandle.current().pid());
            System.out.flush();

            while (System.nanoTime() - deadline < 0)
            {
                counters.onRequestSent();
                counters.publish();
                Thread.sleep(1);
            }
        }
    }
}
