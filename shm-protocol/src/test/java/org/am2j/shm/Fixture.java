package org.am2j.shm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.am2j.api.EndpointName;
import org.am2j.api.Tags;
import org.am2j.idle.CpuShare;
import org.am2j.idle.RunnableProbe;
import org.am2j.spi.EndpointHost;
import org.am2j.spi.InboundMessage;
import org.am2j.spi.MessageSink;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Settings;
import org.am2j.spi.TransportContext;
import org.am2j.spi.TransportCounters;

/**
 * A shared-memory transport opened on a fake process context, with fake endpoint hosts: the transport's own
 * behaviour, in one JVM, without the core.
 */
final class Fixture implements AutoCloseable
{
    final String job = "unit-" + UUID.randomUUID();
    final Map<String, String> settings = new HashMap<>();
    /** The transport's process-wide counters, by name. */
    final Map<String, AtomicCounter> counters = new HashMap<>();
    final ShmTransport transport;
    private final List<ShmQueues> endpoints = new ArrayList<>();
    private int nextId;

    /**
     * @param keyValues settings, key then value; the fixture turns fast boxes off ({@code boxes} 0) unless they are
     *                  given, so that a test of the shared queues reads what it sent there. The CPUs count as never
     *                  oversubscribed, whatever the machine's load: every ring goes out at once.
     */
    Fixture(final String... keyValues)
    {
        this(CpuShare.Mode.SPIN, keyValues);
    }

    /**
     * @param cpus      {@link CpuShare.Mode#SLEEP} for CPUs that count as always oversubscribed (rings wait for a
     *                  flush point), {@link CpuShare.Mode#SPIN} for never.
     * @param keyValues settings, as above.
     */
    Fixture(final CpuShare.Mode cpus, final String... keyValues)
    {
        settings.put("boxes", "0");
        for (int i = 0; i < keyValues.length; i += 2)
        {
            settings.put(keyValues[i], keyValues[i + 1]);
        }
        transport = new ShmTransport(new TransportContext()
        {
            @Override
            public String node()
            {
                return "unit-node";
            }

            @Override
            public long processId()
            {
                return 77;
            }

            @Override
            public long pid()
            {
                return ProcessIdentity.currentPid();
            }

            @Override
            public String job()
            {
                return job;
            }

            @Override
            public Settings settings()
            {
                return new Settings(property -> settings.get(property.substring(property.lastIndexOf('.') + 1)),
                    variable -> null);
            }

            @Override
            public AtomicCounter counter(final String transport, final String name)
            {
                final AtomicCounter counter = TransportContext.privateCounter();
                counters.put(name, counter);
                return counter;
            }
        }, new CpuShare(cpus, RunnableProbe.fixed(RunnableProbe.UNKNOWN, 1), () -> 0L, 1L));
    }

    /** A fake endpoint host: what the core would be. */
    static final class Host implements EndpointHost
    {
        final int id;
        long tag = Tags.fresh();
        AtomicBuffer segment;
        EndpointName name;
        final AtomicLong arrivals = new AtomicLong();
        final long[] counts = new long[4];

        Host(final int id)
        {
            this.id = id;
        }

        @Override
        public int endpointId()
        {
            return id;
        }

        @Override
        public EndpointName name()
        {
            return name;
        }

        @Override
        public long tag()
        {
            return tag;
        }

        @Override
        public AtomicBuffer segment()
        {
            return segment;
        }

        @Override
        public int checkSegment(final long segmentOffset, final int length)
        {
            return org.am2j.spi.SegmentBounds.check(segment, segmentOffset, length);
        }

        @Override
        public void signalArrival()
        {
            arrivals.incrementAndGet();
        }

        @Override
        public TransportCounters counters(final String transport)
        {
            return new TransportCounters()
            {
                @Override
                public void queueFullBackoff()
                {
                    counts[0]++;
                }

                @Override
                public void retransmit()
                {
                    counts[1]++;
                }

                @Override
                public void drop()
                {
                    counts[2]++;
                }

                @Override
                public void unsettled()
                {
                    counts[3]++;
                }
            };
        }

        long drops()
        {
            return counts[2];
        }

        long unsettled()
        {
            return counts[3];
        }

        @Override
        public boolean isClosed()
        {
            return false;
        }
    }

    /** An endpoint: host and shared-memory part, named. */
    final class Ep
    {
        final Host host;
        final ShmQueues shm;

        Ep()
        {
            host = new Host(nextId++);
            shm = (ShmQueues)transport.attach(host);
            host.name = new EndpointName("unit-node", 77, ProcessIdentity.currentPid(), host.id,
                Map.of(ShmTransport.NAME, shm.address()));
            shm.named(host.name);
            shm.tagChanged(host.tag);
            endpoints.add(shm);
        }

        ShmRoute routeTo(final Ep other)
        {
            return (ShmRoute)shm.connect(other.host.name, other.host.tag);
        }

        /**
         * @return a second view of this endpoint's queue block, as a faulty peer that maps it would have.
         */
        QueueBlock queueBlock()
        {
            return QueueBlock.wrap(MappedRegion.open(java.nio.file.Path.of(shm.address())).buffer, "test view");
        }
    }

    Ep endpoint()
    {
        return new Ep();
    }

    /** An endpoint's {@code returnQueued} running on a thread of its own, as the core's free would call it. */
    static final class Closing
    {
        private final CountDownLatch done = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;

        Closing(final Ep ep, final MessageSink returns)
        {
            thread = new Thread(() ->
            {
                try
                {
                    ep.shm.returnQueued(returns);
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
                done.countDown();
            }, "closing " + ep.host.id);
            thread.start();
        }

        /**
         * @return true when the drain returned within {@code millis}.
         */
        boolean returnsWithin(final long millis) throws InterruptedException
        {
            return done.await(millis, TimeUnit.MILLISECONDS);
        }

        /**
         * Wait for the thread; throw what the drain threw.
         */
        void join() throws InterruptedException
        {
            thread.join();
            if (null != failure.get())
            {
                throw new AssertionError("the drain failed", failure.get());
            }
        }
    }

    /**
     * @param name a process-wide counter of the transport, e.g. {@code "peers_died"}.
     * @return its value, 0 when the transport made no such counter.
     */
    long count(final String name)
    {
        final AtomicCounter counter = counters.get(name);
        return null == counter ? 0 : counter.get();
    }

    /** A sink that reads every field, as the core does, and keeps copies. */
    static final class Recorder implements MessageSink
    {
        final List<int[]> headers = new ArrayList<>();
        final List<byte[]> data = new ArrayList<>();
        final List<Object> sources = new ArrayList<>();

        @Override
        public void onMessage(final InboundMessage m)
        {
            final int argCount = Math.min(8, Math.max(0, m.argCount()));
            final int[] h = new int[5 + argCount];
            h[0] = m.opcode();
            h[1] = m.handler();
            h[2] = m.returnStatus();
            h[3] = m.dataLength();
            h[4] = (int)m.segmentOffset();
            for (int i = 0; i < argCount; i++)
            {
                h[5 + i] = m.arg(i);
            }
            headers.add(h);
            final int length = m.dataLength();
            if (null != m.dataBuffer() && length > 0 && m.dataOffset() >= 0 &&
                m.dataOffset() <= m.dataBuffer().capacity() - length)
            {
                final byte[] bytes = new byte[length];
                m.dataBuffer().getBytes(m.dataOffset(), bytes);
                data.add(bytes);
            }
            else
            {
                data.add(null);
            }
            sources.add(m.sourceName());
        }
    }

    @Override
    public void close()
    {
        for (final ShmQueues endpoint : endpoints)
        {
            endpoint.close();
        }
        transport.close();
    }
}
