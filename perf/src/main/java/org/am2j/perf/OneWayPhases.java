package org.am2j.perf;

import java.util.Locale;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;

/**
 * Where a round trip's time goes, one direction at a time: an initiator thread and a responder thread of this JVM,
 * each with its own SEQ bundle and endpoint, make short request/reply round trips over one transport (by default
 * {@code shm}, the responder's queue block, as between two processes), and {@link System#nanoTime()} is read at four
 * points of each:
 * <pre>
 *   a: before the initiator's request()      b: first thing in the responder's request handler
 *   c: after the handler's reply() returned  d: first thing in the initiator's reply handler
 * </pre>
 * a to b is the request (send, transfer, detection, dispatch), b to c the reply call (a send), c to d the reply's
 * transfer, detection and dispatch; the reply's packet is ready before c is stamped (its ready store is inside
 * {@code reply()}), so c to d leaves out the last steps of the reply call that a to b includes of the request. Each phase includes one clock read (about 20 ns on this project's machine); the
 * clock is the same on every CPU (a constant TSC), so differences between the threads' stamps are meaningful. Run
 * it with the JVM confined to two CPUs ({@code perf/scripts/one-way-phases.sh}).
 * <p>
 * Prints one line: {@code TRANSPORT a-b NS b-c NS c-d NS a-d NS}, medians of the round trips after the first half.
 */
public final class OneWayPhases
{
    private static final int REQUEST = 1;
    private static final int REPLY = 2;

    private final long[] a;
    private final long[] b;
    private final long[] c;
    private final long[] d;
    private long replies;
    private volatile boolean stop;

    private OneWayPhases(final int rounds)
    {
        a = new long[rounds];
        b = new long[rounds];
        c = new long[rounds];
        d = new long[rounds];
    }

    /**
     * @param transport the transport between the two endpoints besides {@code inproc}: {@code shm}, or an empty
     *                  string for the in-process transport. Must be the first use of am2j in this JVM.
     * @param rounds    round trips, at least 2.
     * @return the medians of the phases a-b, b-c, c-d and a-d over the second half of the round trips, in ns.
     * @throws InterruptedException when interrupted while waiting for the responder to stop.
     */
    static long[] measure(final String transport, final int rounds) throws InterruptedException
    {
        if (rounds < 2)
        {
            throw new IllegalArgumentException("rounds must be at least 2, got " + rounds);
        }
        System.setProperty("am2j.transports", transport.isEmpty() ? "inproc" : "inproc," + transport);
        System.setProperty("am2j.inproc.selfOnly", Boolean.toString(!transport.isEmpty()));
        if (null == System.getProperty("am2j.job"))
        {
            System.setProperty("am2j.job", "one-way-" + ProcessHandle.current().pid());
        }
        final OneWayPhases phases = new OneWayPhases(rounds);
        try (Bundle responderBundle = Am.allocateBundle(BundleKind.SEQ);
            Bundle initiatorBundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint responder = responderBundle.allocateEndpoint();
            final Endpoint initiator = initiatorBundle.allocateEndpoint();
            responder.tag(Tags.fresh());
            initiator.tag(Tags.fresh());
            responder.handler(REQUEST, (token, msg) ->
            {
                final int i = msg.arg(0);
                phases.b[i] = System.nanoTime();
                token.reply(REPLY, i);
                phases.c[i] = System.nanoTime();
            });
            initiator.handler(REPLY, (token, msg) ->
            {
                phases.d[msg.arg(0)] = System.nanoTime();
                phases.replies++;
            });
            initiator.map(0, responder.name(), responder.tag());
            final String route = initiator.translationTransport(0);
            if (!(transport.isEmpty() ? "inproc" : transport).equals(route))
            {
                throw new IllegalStateException("the initiator reaches the responder over '" + route + "'");
            }
            final Thread serving = new Thread(() -> phases.serve(responderBundle), "one-way-responder");
            serving.setDaemon(true);
            serving.start();
            try
            {
                phases.initiate(initiator, initiatorBundle, rounds, serving);
            }
            finally
            {
                phases.stop = true;
                serving.join(10_000);
            }
        }
        return phases.medians(rounds / 2, rounds);
    }

    private void serve(final Bundle bundle)
    {
        while (!stop)
        {
            if (0 == bundle.poll())
            {
                Thread.onSpinWait();
            }
        }
    }

    private void initiate(final Endpoint initiator, final Bundle bundle, final int rounds, final Thread serving)
    {
        for (int i = 0; i < rounds; i++)
        {
            final long expected = replies + 1;
            a[i] = System.nanoTime();
            initiator.request(0, REQUEST, i);
            int idle = 0;
            while (replies != expected)
            {
                if (0 == bundle.poll())
                {
                    Thread.onSpinWait();
                    if (0 == (++idle & 0xFFFFF) && !serving.isAlive())
                    {
                        throw new IllegalStateException("the responder stopped after " + i + " round trips");
                    }
                }
            }
        }
    }

    private long[] medians(final int from, final int to)
    {
        final int n = to - from;
        final long[] ab = new long[n];
        final long[] bc = new long[n];
        final long[] cd = new long[n];
        final long[] ad = new long[n];
        for (int i = from; i < to; i++)
        {
            ab[i - from] = b[i] - a[i];
            bc[i - from] = c[i] - b[i];
            cd[i - from] = d[i] - c[i];
            ad[i - from] = d[i] - a[i];
        }
        return new long[] { median(ab), median(bc), median(cd), median(ad) };
    }

    private static long median(final long[] values)
    {
        return Math.round(Medians.of(values));
    }

    /**
     * @param args {@code TRANSPORT ROUNDS}: {@code shm} or {@code inproc}, and the round trips.
     * @throws InterruptedException when interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        if (args.length != 2 || !("shm".equals(args[0]) || "inproc".equals(args[0])))
        {
            System.err.println("usage: OneWayPhases shm|inproc ROUNDS");
            System.exit(2);
        }
        final long[] m = measure("inproc".equals(args[0]) ? "" : args[0], Integer.parseInt(args[1]));
        System.out.println(String.format(Locale.ROOT, "%s a-b %d b-c %d c-d %d a-d %d", args[0], m[0], m[1], m[2],
            m[3]));
        System.exit(0);
    }
}
