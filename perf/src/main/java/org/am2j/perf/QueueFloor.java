package org.am2j.perf;

import java.util.Arrays;
import java.util.Locale;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The floor of the shared-memory protocol's cache traffic: two threads of one JVM ping-pong short messages through
 * a request queue and a reply queue laid out like a queue block's (a tail on its own lines, 64-byte packets with a
 * lap-stamped state word, a claim word per packet beside them), with nothing of the AM layer around them. Run with
 * the JVM confined to two CPUs ({@code perf/scripts/queue-floor.sh}), so that the two spinning threads take one each.
 * <p>
 * Variants, each a send's steps (the receive is the same for all: spin on the head packet's state, read the
 * message, store the state free for the next lap):
 * <ul>
 *   <li>{@code line}: no queue, the limit's pattern: each side stores a counter on its own line and spins on the
 *       other's;</li>
 *   <li>{@code plain}: a plain tail store, the fill and a release store of READY (one sender only: no CAS);</li>
 *   <li>{@code tail-cas}: the packet assignment by a tail CAS, then the fill and READY;</li>
 *   <li>{@code packet-claim}: tail CAS, then the claim by a CAS of the packet's state word (queue block layout 1);</li>
 *   <li>{@code claim-word}: tail CAS, then the claim by a CAS of the packet's claim word, on lines only senders write
 *       (layout 2, the shm protocol today);</li>
 *   <li>{@code fused-am}: {@code claim-word} with a minimal AM-II layer fused into it ({@link FusedAmFloor}): the
 *       floor of the whole message path, dispatch included.</li>
 * </ul>
 * What each side writes is kept on its own padded lines, on the heap as in the buffers: a sender's and the
 * receiver's fields sharing a line would add their own traffic to the measurement.
 * <p>
 * Prints one line per variant: {@code VARIANT p50 NS p99 NS}.
 */
public final class QueueFloor
{
    static final String[] VARIANTS = { "line", "plain", "tail-cas", "packet-claim", "claim-word", "fused-am" };
    private static final int PLAIN = 1;
    private static final int PACKET_CLAIM = 3;
    private static final int CLAIM_WORD = 4;
    /** Spins after which a waiting side yields: never on a quiet machine, but two spinners sharing one CPU go on. */
    static final int SPINS_BEFORE_YIELD = 1024;

    private static final int DEPTH = 256;
    private static final int PACKET = 64;
    private static final int TAIL = 0;
    private static final int PACKETS = 256;
    private static final int CLAIMS = PACKETS + DEPTH * PACKET;
    private static final long READY = 2;
    private static final long CLAIMED = 1;
    /** Index of the padded slot in the per-side state arrays (16 longs either side of it). */
    private static final int SLOT = 16;

    private QueueFloor()
    {
    }

    /** One queue: a buffer shared by both threads, the receiver's head and the sender's nothing on padded lines. */
    static final class Queue
    {
        /** Offset in a packet of its header word (the AM layer's opcode, handler and argument count). */
        static final int HEADER_OFFSET = 8;
        /** Offset in a packet of its tag. */
        static final int TAG_OFFSET = 24;
        /** Offset in a packet of its first argument. */
        static final int ARGS_OFFSET = 32;

        final UnsafeBuffer buffer = new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(CLAIMS + DEPTH * Long.BYTES, 4096));
        final long[] receiver = new long[2 * SLOT + 1];
        /** Index of the variant in {@link #VARIANTS}. */
        final int variant;

        Queue(final String variant)
        {
            this.variant = Arrays.asList(VARIANTS).indexOf(variant);
            if (this.variant < PLAIN || this.variant > CLAIM_WORD)
            {
                throw new IllegalArgumentException("a queue's send steps are plain, tail-cas, packet-claim or " +
                    "claim-word, not '" + variant + "'");
            }
        }

        static long free(final long sequence)
        {
            return (sequence / DEPTH) << 2;
        }

        static long ready(final long sequence)
        {
            return free(sequence) | READY;
        }

        static int packet(final long sequence)
        {
            return PACKETS + (int)(sequence & (DEPTH - 1)) * PACKET;
        }

        void send(final int value)
        {
            send(0x0102_0304, 42L, value);
        }

        /**
         * Send one message with the variant's steps.
         *
         * @param header the packet's header word.
         * @param tag    the packet's tag.
         * @param value  its first argument.
         */
        void send(final int header, final long tag, final int value)
        {
            final long tail;
            if (PLAIN == variant)
            {
                tail = buffer.getLong(TAIL);
                buffer.putLong(TAIL, tail + 1);
            }
            else
            {
                tail = assign();
                if (PACKET_CLAIM == variant)
                {
                    check(buffer.compareAndSetLong(packet(tail), free(tail), free(tail) | CLAIMED));
                }
                else if (CLAIM_WORD == variant)
                {
                    final int claim = CLAIMS + (int)(tail & (DEPTH - 1)) * Long.BYTES;
                    final long current = buffer.getLongVolatile(claim);
                    check(current != ready(tail) && buffer.compareAndSetLong(claim, current, ready(tail)));
                }
            }
            final int packet = packet(tail);
            buffer.putInt(packet + HEADER_OFFSET, header);
            buffer.putInt(packet + 12, 7);
            buffer.putLong(packet + TAG_OFFSET, tag);
            buffer.putInt(packet + ARGS_OFFSET, value);
            buffer.putLongRelease(packet, ready(tail));
        }

        private long assign()
        {
            long tail;
            do
            {
                tail = buffer.getLongVolatile(TAIL);
                check(buffer.getLongVolatile(packet(tail)) == free(tail));
            }
            while (!buffer.compareAndSetLong(TAIL, tail, tail + 1));
            return tail;
        }

        /**
         * @return the value of the message at the head, or -1 when there is none.
         */
        int poll()
        {
            final int packet = readyPacket();
            if (packet < 0)
            {
                return -1;
            }
            final int value = buffer.getInt(packet + ARGS_OFFSET) + buffer.getInt(packet + HEADER_OFFSET) - 0x0102_0304;
            free(packet);
            return value;
        }

        /**
         * @return the offset of the packet at the head when it is ready, else -1.
         */
        int readyPacket()
        {
            final long head = receiver[SLOT];
            final int packet = packet(head);
            return buffer.getLongVolatile(packet) == ready(head) ? packet : -1;
        }

        /**
         * Free the packet at the head for the next lap and advance the head.
         *
         * @param packet the head's packet, as {@link #readyPacket()} gave it.
         */
        void free(final int packet)
        {
            final long head = receiver[SLOT];
            buffer.putLongRelease(packet, free(head + DEPTH));
            receiver[SLOT] = head + 1;
        }

        private static void check(final boolean condition)
        {
            if (!condition)
            {
                throw new IllegalStateException("queue state not as the ping-pong leaves it");
            }
        }
    }

    /**
     * @param args {@code VARIANT ROUNDS}.
     * @throws InterruptedException when interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        if (args.length != 2 || !Arrays.asList(VARIANTS).contains(args[0]))
        {
            System.err.println("usage: QueueFloor " + String.join("|", VARIANTS) + " ROUNDS");
            System.exit(2);
        }
        final long[] rtt = measure(args[0], Integer.parseInt(args[1]));
        System.out.println(String.format(Locale.ROOT, "%s p50 %d p99 %d",
            args[0], percentile(rtt, 50), percentile(rtt, 99)));
    }

    /**
     * @param variant one of {@link #VARIANTS}.
     * @param rounds  round trips; the first fifth are warm-up and not returned.
     * @return the timed round trips in ns, sorted.
     * @throws InterruptedException when interrupted.
     */
    static long[] measure(final String variant, final int rounds) throws InterruptedException
    {
        final long[] rtt = new long[rounds];
        if ("line".equals(variant))
        {
            lines(rounds, rtt);
        }
        else if ("fused-am".equals(variant))
        {
            FusedAmFloor.roundTrips(rounds, rtt);
        }
        else
        {
            queues(variant, rounds, rtt);
        }
        final long[] timed = Arrays.copyOfRange(rtt, rounds / 5, rounds);
        Arrays.sort(timed);
        return timed;
    }

    private static void lines(final int rounds, final long[] rtt) throws InterruptedException
    {
        final UnsafeBuffer lines = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 4096));
        final Thread responder = new Thread(() ->
        {
            for (long i = 1; i <= rounds; i++)
            {
                int spins = 0;
                while (lines.getLongVolatile(0) != i)
                {
                    spin(++spins);
                }
                lines.putLongRelease(128, i);
            }
        });
        responder.setDaemon(true);
        responder.start();
        for (int i = 1; i <= rounds; i++)
        {
            final long start = System.nanoTime();
            lines.putLongRelease(0, i);
            int spins = 0;
            while (lines.getLongVolatile(128) != i)
            {
                spin(++spins);
                if (0 == (++spins & 0xFFFF) && !responder.isAlive())
                {
                    throw new IllegalStateException("line: the responder stopped after " + i + " round trips");
                }
            }
            rtt[i - 1] = System.nanoTime() - start;
        }
        responder.join();
    }

    private static void queues(final String variant, final int rounds, final long[] rtt) throws InterruptedException
    {
        final Queue requests = new Queue(variant);
        final Queue replies = new Queue(variant);
        final Thread responder = new Thread(() ->
        {
            for (int i = 0; i < rounds; i++)
            {
                int value;
                int spins = 0;
                while ((value = requests.poll()) < 0)
                {
                    spin(++spins);
                }
                replies.send(value);
            }
        });
        responder.setDaemon(true);
        responder.start();
        for (int i = 0; i < rounds; i++)
        {
            final long start = System.nanoTime();
            requests.send(i);
            int spins = 0;
            while (replies.poll() < 0)
            {
                spin(++spins);
                if (0 == (++spins & 0xFFFF) && !responder.isAlive())
                {
                    throw new IllegalStateException(variant + ": the responder stopped after " + i + " round trips");
                }
            }
            rtt[i] = System.nanoTime() - start;
        }
        responder.join();
    }

    static void spin(final int spins)
    {
        if (0 == spins % SPINS_BEFORE_YIELD)
        {
            Thread.yield();
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    static long percentile(final long[] sorted, final int percent)
    {
        return sorted[(int)Math.min(sorted.length - 1, (long)sorted.length * percent / 100)];
    }
}
