package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.status.CountersReader;
import org.am2j.api.Am;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.core.stats.CountersFile;
import org.am2j.core.stats.CountersFileReader;
import org.am2j.core.stats.ProtocolCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A SEQ bundle counts in plain fields and publishes to the counters file never per message: at least once in
 * {@link ProtocolCounters#PUBLISH_INTERVAL} polls and sends, and after {@link ProtocolCounters#IDLE_POLLS} empty polls
 * that follow a busy one; a PAR bundle's counts are in the file at once.
 * What the owner reads through {@link Endpoint#statistics()} is exact for messages and bytes (polls of the loop are
 * counted when published); what {@code bin/am2j stat} reads lags the polls and sends made by less than the bound.
 */
@Timeout(60)
class StatisticsPublicationTest
{
    private static final int INTERVAL = ProtocolCounters.PUBLISH_INTERVAL;
    private static final int IDLE = ProtocolCounters.IDLE_POLLS;
    private static final int H_COUNT = 1;

    @Test
    void aBundleThatWentIdleIsPublishedAfterItsIdlePollsAndEmptyPollsWithinTheBound()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ);
            CountersFileReader reader = CountersFileReader.open(countersFile()))
        {
            final AtomicInteger received = new AtomicInteger();
            pair.b.handler(H_COUNT, (token, msg) -> received.incrementAndGet());
            final CountersReader file = reader.countersReader();
            final int receivedId = counterId(pair.b, Counter.REQUESTS_RECEIVED);
            final int pollsId = counterId(pair.b, Counter.POLLS);

            pair.a.request(0, H_COUNT);
            assertEquals(1, pair.a.statistics().get(AmRuntime.IN_PROCESS, Counter.REQUESTS_SENT),
                "the owner sees its own counts at once");
            int polls = 0;
            while (0 == received.get() && polls < 1000)
            {
                pair.bundleB.poll();
                polls++;
            }
            assertEquals(1, received.get());
            assertEquals(0, file.getCounterValue(receivedId), "the poll that handled the request did not publish");
            for (int i = 1; i < IDLE; i++)
            {
                assertEquals(0, pair.bundleB.poll());
                assertEquals(0, file.getCounterValue(receivedId), "not yet idle after " + i + " empty polls");
            }
            assertEquals(0, pair.bundleB.poll());
            polls += IDLE;
            assertEquals(1, file.getCounterValue(receivedId), "published once the bundle went idle");
            // The in-process rings joined b's poll loop when a's request was sent: every poll since looked at them.
            assertEquals(polls, file.getCounterValue(pollsId), "and the polls made until then");

            long publications = 0;
            long lastSeen = file.getCounterValue(pollsId);
            long largestLag = 0;
            for (int i = 1; i <= 3 * INTERVAL + 7; i++)
            {
                assertEquals(0, pair.bundleB.poll());
                final long made = polls + i;
                final long published = file.getCounterValue(pollsId);
                assertTrue(published <= made, published + " published polls > " + made + " made");
                assertTrue(made - published < INTERVAL,
                    "after empty poll " + i + ": " + made + " polls made, " + published + " published");
                largestLag = Math.max(largestLag, made - published);
                if (published != lastSeen)
                {
                    publications++;
                    lastSeen = published;
                }
            }
            assertTrue(publications >= 3, publications + " publications in " + (3 * INTERVAL + 7) + " empty polls");
            assertEquals(INTERVAL - 1, largestLag, "empty polls are published once in " + INTERVAL);
        }
    }

    /**
     * A ping-pong between two SEQ bundles never goes idle: its counts are published within the interval, not per
     * message, and what {@code bin/am2j stat} shows of the busy endpoint lags its messages by less than the interval.
     */
    @Test
    void aBusyEndpointIsPublishedWithinTheIntervalNotPerMessage()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ);
            CountersFileReader reader = CountersFileReader.open(countersFile()))
        {
            final AtomicInteger received = new AtomicInteger();
            pair.b.handler(H_COUNT, (token, msg) -> received.incrementAndGet());
            final CountersReader file = reader.countersReader();
            final int receivedId = counterId(pair.b, Counter.REQUESTS_RECEIVED);
            final String label = "ep " + ((EndpointCore)pair.b).endpointId() + " [" + AmRuntime.IN_PROCESS + "] " +
                "requests received";
            long publications = 0;
            long lastSeen = 0;
            boolean lagged = false;
            final int messages = 3 * INTERVAL;
            for (int i = 1; i <= messages; i++)
            {
                pair.a.request(0, H_COUNT);
                while (received.get() < i)
                {
                    pair.bundleB.poll();
                }
                final long published = file.getCounterValue(receivedId);
                assertTrue(published <= i && i - published < INTERVAL,
                    "after message " + i + ": " + published + " published");
                lagged |= published < i;
                if (published != lastSeen)
                {
                    publications++;
                    lastSeen = published;
                }
                if (i == messages - INTERVAL / 2)
                {
                    final long shown = statValue(label);
                    assertTrue(shown <= i && i - shown < INTERVAL, "bin/am2j stat shows " + shown + " after " + i);
                }
            }
            assertTrue(lagged, "a busy bundle is not published per message");
            assertTrue(publications >= 2 && publications < messages / 64,
                publications + " publications in " + messages + " messages");
        }
    }

    @Test
    void inProcessRingsArePolledOnlyOnceTheyHaveASender()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            final AtomicInteger received = new AtomicInteger();
            pair.b.handler(H_COUNT, (token, msg) -> received.incrementAndGet());
            for (int i = 0; i < 2 * INTERVAL; i++)
            {
                assertEquals(0, pair.bundleB.poll());
            }
            pair.bundleB.eventMask(org.am2j.api.EventMask.NOTEMPTY);
            assertFalse(pair.bundleB.waitSema(1, java.util.concurrent.TimeUnit.MILLISECONDS));
            assertEquals(0, pair.b.statistics().get(AmRuntime.IN_PROCESS, Counter.POLLS),
                "rings no sender has written to are not polled");

            pair.a.request(0, H_COUNT);
            long polls = 0;
            while (0 == received.get() && polls < 1000)
            {
                pair.bundleB.poll();
                polls++;
            }
            assertEquals(1, received.get(), "the first in-process message is delivered");
            for (int i = 0; i < IDLE; i++)
            {
                pair.bundleB.poll();
            }
            polls += IDLE;
            assertEquals(polls, pair.b.statistics().get(AmRuntime.IN_PROCESS, Counter.POLLS),
                "from the first sender on, every poll looks at the rings");
        }
    }

    @Test
    void aSenderThatNeverPollsIsPublishedWithinTheBound()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ);
            CountersFileReader reader = CountersFileReader.open(countersFile()))
        {
            pair.b.handler(H_COUNT, (token, msg) -> { });
            final CountersReader file = reader.countersReader();
            final int sentId = counterId(pair.a, Counter.REQUESTS_SENT);
            boolean lagged = false;
            for (int i = 1; i <= 2 * INTERVAL + 3; i++)
            {
                pair.a.request(0, H_COUNT);
                final long published = file.getCounterValue(sentId);
                assertTrue(published <= i && i - published < INTERVAL,
                    "after request " + i + ": " + published + " published");
                lagged |= published < i;
                if (0 == i % 256)
                {
                    while (0 != pair.bundleB.poll())
                    {
                        Thread.onSpinWait();
                    }
                }
            }
            assertTrue(lagged, "a SEQ bundle's sends are counted in plain fields and published now and then");
            assertEquals(2L * INTERVAL + 3, pair.a.statistics().get(AmRuntime.IN_PROCESS, Counter.REQUESTS_SENT));
        }
    }

    @Test
    void parBundlesCountInTheFileAtOnce()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.PAR);
            CountersFileReader reader = CountersFileReader.open(countersFile()))
        {
            pair.b.handler(H_COUNT, (token, msg) -> { });
            final CountersReader file = reader.countersReader();
            final int sentId = counterId(pair.a, Counter.REQUESTS_SENT);
            for (int i = 1; i <= 100; i++)
            {
                pair.a.request(0, H_COUNT);
                assertEquals(i, file.getCounterValue(sentId));
            }
        }
    }

    @Test
    void waitSemaAndFreeingPublishFirst()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ);
            CountersFileReader reader = CountersFileReader.open(countersFile()))
        {
            pair.b.handler(H_COUNT, (token, msg) -> { });
            final CountersReader file = reader.countersReader();
            final int sentId = counterId(pair.a, Counter.REQUESTS_SENT);
            pair.a.request(0, H_COUNT);
            assertEquals(0, file.getCounterValue(sentId), "not published yet");

            pair.bundleA.eventMask(org.am2j.api.EventMask.NOTEMPTY);
            pair.bundleA.waitSema(1, java.util.concurrent.TimeUnit.MILLISECONDS);
            assertEquals(1, file.getCounterValue(sentId), "published before sleeping");

            pair.a.request(0, H_COUNT);
            final long[] atClose = new long[1];
            pair.a.close();
            atClose[0] = pair.a.statistics().get(AmRuntime.IN_PROCESS, Counter.REQUESTS_SENT);
            assertEquals(2, atClose[0], "the values at close include the unpublished counts");
        }
    }

    /**
     * What {@code bin/am2j stat --pid PID --once} prints for a SEQ endpoint that polls an idle queue lags the polls
     * it made by less than the publication bound, at the points where the lag is largest (just before a
     * publication) and elsewhere.
     */
    @Test
    void statLagsByLessThanTheBound()
    {
        try (Pair pair = Pair.inTwoBundles(BundleKind.SEQ))
        {
            final AtomicInteger received = new AtomicInteger();
            pair.b.handler(H_COUNT, (token, msg) -> received.incrementAndGet());
            pair.a.request(0, H_COUNT);
            long polls = 0;
            while (0 == received.get())
            {
                pair.bundleB.poll();
                polls++;
            }
            for (int i = 0; i < IDLE; i++)
            {
                pair.bundleB.poll();
            }
            polls += IDLE;
            final String label = "ep " + ((EndpointCore)pair.b).endpointId() + " [" + AmRuntime.IN_PROCESS + "] polls";
            assertEquals(polls, statValue(label), "a bundle that stopped after a message is published once idle");

            long largestLag = 0;
            for (int i = 1; i <= 2 * INTERVAL; i++)
            {
                pair.bundleB.poll();
                if (i % (INTERVAL / 4) == 0 || i % INTERVAL == INTERVAL - 1 || i % INTERVAL == 0)
                {
                    final long made = polls + i;
                    final long shown = statValue(label);
                    assertTrue(shown <= made && made - shown < INTERVAL,
                        "bin/am2j stat shows " + shown + " polls after " + made);
                    largestLag = Math.max(largestLag, made - shown);
                }
            }
            assertEquals(INTERVAL - 1, largestLag, "just before a publication stat lags by the bound less one");
        }
    }

    /**
     * @return the value of the counter with that label as another process reads the counters file
     * ({@code bin/am2j stat}'s reader).
     */
    private static long statValue(final String label)
    {
        try (CountersFileReader reader = CountersFileReader.open(
            CountersFile.fileFor(CountersFile.defaultDirectory(), ProcessHandle.current().pid())))
        {
            return reader.snapshot().stream().filter((c) -> label.equals(c.label())).findFirst()
                .orElseThrow(() -> new AssertionError("no counter \"" + label + "\" in " + reader.snapshot()))
                .value();
        }
    }

    private static Path countersFile()
    {
        Am.allocateBundle(BundleKind.SEQ).close();
        return CountersFile.fileFor(CountersFile.defaultDirectory(), ProcessHandle.current().pid());
    }

    private static int counterId(final Endpoint endpoint, final Counter counter)
    {
        return ((EndpointCore)endpoint).counters.transport(AmRuntime.IN_PROCESS).counterId(counter);
    }
}
