package org.am2j.perf;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.am2j.api.Bundle;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.EventMask;
import org.am2j.spmd.Job;

/**
 * What the rank programs of {@code am2j scale} share: the exchange of endpoint names and a wait that sleeps.
 */
final class ScaleRank
{
    private ScaleRank()
    {
    }

    /**
     * All-gather (tag, name) of every rank's endpoint.
     *
     * @return the names, by rank; {@code tags[r]} gets rank r's tag.
     */
    static EndpointName[] exchangeNames(final Job job, final Endpoint endpoint, final long[] tags)
    {
        final byte[] name = endpoint.name().toBytes();
        final byte[][] all = job.allGather(ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name)
            .array());
        final EndpointName[] names = new EndpointName[all.length];
        for (int q = 0; q < all.length; q++)
        {
            final ByteBuffer buffer = ByteBuffer.wrap(all[q]);
            tags[q] = buffer.getLong();
            final byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            names[q] = EndpointName.fromBytes(bytes);
        }
        return names;
    }

    /**
     * Poll once; when nothing was handled, sleep until a message arrives or a millisecond passes.
     *
     * @throws IllegalStateException after the deadline ({@link System#nanoTime()}).
     */
    static void pollOrSleep(final Bundle bundle, final long deadlineNs, final String what)
    {
        if (0 == bundle.poll())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            bundle.eventMask(EventMask.NOTEMPTY);
            if (!bundle.waitSema(1, TimeUnit.MILLISECONDS))
            {
                bundle.eventMask(EventMask.NOEVENTS);
            }
        }
    }

    /**
     * @return a deadline that many seconds from now.
     */
    static long deadline(final long seconds)
    {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    }
}
