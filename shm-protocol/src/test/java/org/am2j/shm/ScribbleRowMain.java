package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.EndpointStatistics.Counter;
import org.am2j.api.ReturnStatus;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code ScribbleRowTest}, two ranks: one fault of issue table's rows, made by a thread of rank 1
 * (the attacker) over live queue blocks while rank 1 floods rank 0 with numbered requests (short, and every fourth a
 * medium one), at most {@link #WINDOW} outstanding; rank 0 answers each. Per request number, rank 0 counts how often
 * its handler ran and whether its reply came back to it; rank 1 counts replies and returns. Then, with the attacks
 * stopped (for the packet-state row, only after rank 0 has freed its endpoint), a second flood must be answered in
 * full; rank 0 frees its endpoint, which must return; rank 1 frees its own. Checked per request: no handler ran twice,
 * none was both served and returned (but as outcome-unknown), none was returned or answered twice, no reply to the
 * live requester came back to the replier, and the requests with no outcome at all are no more than the messages the
 * two endpoints counted as spoiled (drops) or unsettled at close.
 * <p>
 * Arguments: the row ({@link Row}), flood milliseconds, microseconds between attacks.
 */
public final class ScribbleRowMain
{
    /** The faults, one per row. */
    enum Row
    {
        /** Fast-box words of rank 0's block overwritten: released word, ring stamps and packets, heads, counts. */
        BOX_WORDS,
        /** CLOSED written over the state word of both queue blocks. */
        STATE_CLOSED,
        /** Random bytes over the headers of both queue blocks. */
        HEADER_GARBAGE,
        /** Packet state words and box stamps of rank 0's queues scribbled, also while rank 0 frees its endpoint. */
        PACKET_STATES,
        /** Rank 0's whole queue block zeroed, now and then. */
        ZEROED
    }

    static final int H_REQUEST = 5;
    static final int H_REPLY = 6;
    static final int H_DONE = 7;
    static final int H_DONE_REPLY = 8;
    static final int WINDOW = 16;
    static final int MAX_REQUESTS = 1 << 19;
    static final int PHASE2 = 500;
    static final int WARM_UP = 200;
    /** How long a rank's endpoint free may take before the rank fails: a wedged close, not a slow one. */
    static final long CLOSE_BOUND_MS = 30_000;
    /** How long the window may stay full with nothing coming back before its requests are left to the final count. */
    static final long STALL_MS = 2_000;

    // Rank 0's counts (handlers run on the polling thread).
    private static final byte[] RUNS = new byte[MAX_REQUESTS];
    private static final byte[] REPLY_RETURNED = new byte[MAX_REQUESTS];
    private static boolean done;
    /** Requests rank 0 got whose check argument does not match their number. */
    private static long mangled;

    // Rank 1's counts.
    private static final byte[] REPLIED = new byte[MAX_REQUESTS];
    private static final byte[] RETURNED = new byte[MAX_REQUESTS];
    private static final byte[] RETURN_STATUS = new byte[MAX_REQUESTS];
    private static long outcomes;
    private static boolean doneReplied;

    public static void main(final String[] args)
    {
        final Row row = Row.valueOf(args[0]);
        final long floodMs = Long.parseLong(args[1]);
        final long pauseMicros = Long.parseLong(args[2]);
        RankSupport.main("ScribbleRowMain", () ->
        {
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                final Endpoint endpoint = RankSupport.twoRankEndpoint("ScribbleRowMain", job, bundle);
                install(endpoint);
                Peers.mapAll(job, endpoint);
                job.barrier();
                if (0 == job.rank())
                {
                    rankZero(job, bundle, endpoint);
                }
                else
                {
                    rankOne(job, bundle, endpoint, row, floodMs, pauseMicros);
                }
            }
        });
    }

    private static void install(final Endpoint endpoint)
    {
        endpoint.handler(H_REQUEST, (token, msg) ->
        {
            final int i = msg.arg(0);
            if (msg.argCount() < 2 || checkArgument(i) != msg.arg(1) || i < 0 || i >= MAX_REQUESTS)
            {
                // Not a request as sent: a packet a faulty writer tore while its sender was writing it (the zeroing
                // races with the sender's stores), which no check of the protocol's can tell from a message.
                mangled++;
                return;
            }
            if (RUNS[i] < Byte.MAX_VALUE)
            {
                RUNS[i]++;
            }
            token.reply(H_REPLY, i);
        });
        endpoint.handler(H_DONE, (token, msg) ->
        {
            done = true;
            token.reply(H_DONE_REPLY);
        });
        endpoint.handler(H_REPLY, (token, msg) ->
        {
            final int i = msg.arg(0);
            if (REPLIED[i] < Byte.MAX_VALUE)
            {
                REPLIED[i]++;
            }
            outcomes++;
        });
        endpoint.handler(H_DONE_REPLY, (token, msg) -> doneReplied = true);
        endpoint.handler(0, (token, msg) ->
        {
            if (!msg.opcode().isRequest())
            {
                if (H_REPLY == msg.handlerIndex() && REPLY_RETURNED[msg.arg(0)] < Byte.MAX_VALUE)
                {
                    REPLY_RETURNED[msg.arg(0)]++;
                }
            }
            else if (H_REQUEST == msg.handlerIndex())
            {
                final int i = msg.arg(0);
                if (RETURNED[i] < Byte.MAX_VALUE)
                {
                    RETURNED[i]++;
                }
                RETURN_STATUS[i] = (byte)msg.returnStatus().code();
                outcomes++;
            }
        });
    }

    private static void rankZero(final Job job, final Bundle bundle, final Endpoint endpoint)
    {
        RankSupport.pollUntil(bundle, () -> done, RankSupport.deadline(240_000), () -> "rank 0: no end");
        final long closeMs = closeWithin(endpoint, "rank 0");
        System.out.println("rank 0 freed its endpoint in " + closeMs + " ms");
        job.barrier();
        final EndpointStatistics statistics = endpoint.statistics();
        System.out.println("rank 0: drops " + statistics.total(Counter.DROPS) + ", unsettled " +
            unsettled(statistics) + ", mangled requests " + mangled);
        final ByteBuffer summary = ByteBuffer.allocate(24)
            .putLong(statistics.total(Counter.DROPS)).putLong(unsettled(statistics)).putLong(mangled);
        gather(job, summary.array());
        gather(job, RUNS);
        gather(job, REPLY_RETURNED);
        job.barrier();
    }

    private static void rankOne(
        final Job job, final Bundle bundle, final Endpoint endpoint, final Row row, final long floodMs,
        final long pauseMicros) throws InterruptedException
    {
        final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final UnsafeBuffer peer = MappedRegion.open(
            Path.of(endpoint.translationName(0).address(ShmTransport.NAME))).buffer;
        final UnsafeBuffer own = MappedRegion.open(Path.of(endpoint.name().address(ShmTransport.NAME))).buffer;

        // Warm up: the box is bound and the routes back are resolved before any fault.
        int next = 0;
        for (; next < WARM_UP; next++)
        {
            send(endpoint, data, next);
            final long sentSoFar = next + 1;
            RankSupport.pollUntil(bundle, () -> outcomes >= sentSoFar, RankSupport.deadline(20_000),
                () -> "rank 1: warm-up request not answered");
        }
        checkEquals(WARM_UP, countOf(REPLIED, 0, WARM_UP), "rank 1: warm-up replies");

        final AtomicBoolean attacking = new AtomicBoolean(true);
        final AtomicLong attacks = new AtomicLong();
        final QueueBlock victim = QueueBlock.wrap(peer, "rank 0's queue block");
        final long ownerTag = victim.tag();
        final Thread attacker = new Thread(() ->
        {
            final ThreadLocalRandom random = ThreadLocalRandom.current();
            while (attacking.get())
            {
                attack(row, victim, own, random, attacks.get());
                attacks.incrementAndGet();
                final long until = System.nanoTime() + pauseMicros * 1000;
                while (attacking.get() && System.nanoTime() - until < 0)
                {
                    Thread.onSpinWait();
                }
            }
        }, "attacker");
        attacker.setDaemon(true);
        attacker.start();

        next = flood(bundle, endpoint, data, next, RankSupport.deadline(floodMs), MAX_REQUESTS - PHASE2);
        if (Row.PACKET_STATES != row)
        {
            stop(attacking, attacker);
        }
        final int phase1 = next;
        awaitOutcomes(bundle, phase1);
        System.out.println("rank 1 phase 1: sent " + phase1 + ", attacks " + attacks.get() + ", outcomes " + outcomes);

        if (Row.PACKET_STATES != row)
        {
            // No more faults. A forged tag copy refuses requests (EBADTAG) until its owner writes its header back,
            // within 1024 of its polls (docs/shm-protocol.md, "The header"); from then on the pair works again,
            // every request answered.
            RankSupport.pollUntil(bundle, () -> victim.tag() == ownerTag, RankSupport.deadline(20_000),
                () -> "rank 1: rank 0 did not write its header's tag copy back");
            final long repliesBefore = countOf(REPLIED, 0, phase1);
            next = flood(bundle, endpoint, data, next, Long.MAX_VALUE, phase1 + PHASE2);
            awaitOutcomes(bundle, next);
            checkEquals(PHASE2, countOf(REPLIED, phase1, next), "rank 1 phase 2: replies (" +
                returnsByStatus(phase1, next) + ")");
            checkEquals(repliesBefore, countOf(REPLIED, 0, phase1), "rank 1: phase 1 replies during phase 2 (" +
                answeredTwice(0, phase1) + ")");
            System.out.println("rank 1 phase 2: " + PHASE2 + " replies of " + PHASE2 + " requests");
        }

        // The end: rank 0 frees its endpoint on the first end request it gets (asked again until it answers);
        // what it returns comes here meanwhile.
        final long deadline = RankSupport.deadline(60_000);
        long nextEnd = 0;
        while (!doneReplied)
        {
            if (System.nanoTime() - nextEnd > 0)
            {
                checkEquals(Am.OK, endpoint.request(0, H_DONE), "rank 1: end request");
                nextEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            }
            bundle.poll();
            if (RankSupport.expired(deadline))
            {
                throw fail("rank 1: rank 0 does not answer the end request");
            }
        }
        awaitQuiet(bundle, next, 3_000);
        stop(attacking, attacker);
        awaitQuiet(bundle, next, 1_000);
        final long closeMs = closeWithin(endpoint, "rank 1");
        System.out.println("rank 1 freed its endpoint in " + closeMs + " ms");
        job.barrier();

        final EndpointStatistics statistics = endpoint.statistics();
        final ByteBuffer zero = ByteBuffer.wrap(gather(job, new byte[0])[0]);
        // A mangled request stands for one sent whose number is lost with it.
        final long counted = zero.getLong() + zero.getLong() + zero.getLong() + statistics.total(Counter.DROPS) +
            unsettled(statistics);
        final byte[] runs = gather(job, new byte[0])[0];
        final byte[] replyReturned = gather(job, new byte[0])[0];
        job.barrier();
        account(next, runs, replyReturned, counted);
    }

    private static void account(final int sent, final byte[] runs, final byte[] replyReturned, final long counted)
    {
        final List<String> problems = new ArrayList<>();
        long twice = 0;
        long servedAndReturned = 0;
        long answeredTwice = 0;
        long repliesRejected = 0;
        long missing = 0;
        long returned = 0;
        for (int i = 0; i < sent; i++)
        {
            if (runs[i] > 1)
            {
                twice++;
                note(problems, "request " + i + " ran " + runs[i] + " times");
            }
            if (runs[i] > 0 && RETURNED[i] > 0 && ReturnStatus.EOUTCOMEUNKNOWN.code() != RETURN_STATUS[i])
            {
                servedAndReturned++;
                note(problems, "request " + i + " ran and came back " + ReturnStatus.fromCode(RETURN_STATUS[i]));
            }
            if (REPLIED[i] + RETURNED[i] > 1)
            {
                answeredTwice++;
                note(problems, "request " + i + ": " + REPLIED[i] + " replies, " + RETURNED[i] + " returns");
            }
            if (replyReturned[i] > 0)
            {
                repliesRejected++;
                note(problems, "the reply to request " + i + " came back to rank 0");
            }
            if (0 == REPLIED[i] && 0 == RETURNED[i])
            {
                missing++;
                note(problems, "request " + i + " has no outcome (ran " + runs[i] + " times)");
            }
            returned += RETURNED[i] > 0 ? 1 : 0;
        }
        System.out.println("rank 1 accounts: sent " + sent + ", replied " + countOf(REPLIED, 0, sent) +
            ", returned " + returned + ", without an outcome " + missing + ", counted (drops, unsettled, mangled) " +
            counted + "; ran twice " + twice + ", served and returned " + servedAndReturned + ", answered twice " +
            answeredTwice + ", replies come back to the replier " + repliesRejected);
        problems.forEach(System.out::println);
        check(0 == twice, "rank 1: a handler ran twice");
        check(0 == servedAndReturned, "rank 1: a request was both served and returned");
        check(0 == answeredTwice, "rank 1: a request was answered twice");
        check(0 == repliesRejected, "rank 1: a reply to the live requester came back to the replier");
        check(missing <= counted, "rank 1: " + missing + " requests without an outcome, only " + counted +
            " counted");
        System.out.println("rank 1 ok");
    }

    /**
     * @return the requests in [from, to) with more than one outcome (replies, returns and the status), at most ten,
     * for a failure's message.
     */
    private static String answeredTwice(final int from, final int to)
    {
        final StringBuilder found = new StringBuilder("answered more than once:");
        int listed = 0;
        for (int i = from; i < to && listed < 10; i++)
        {
            if (REPLIED[i] + RETURNED[i] > 1)
            {
                found.append(' ').append(i).append(": ").append(REPLIED[i]).append(" replies, ").append(RETURNED[i])
                    .append(" returns").append(RETURNED[i] > 0 ? " " + ReturnStatus.fromCode(RETURN_STATUS[i]) : "")
                    .append(';');
                listed++;
            }
        }
        return 0 == listed ? "none answered more than once" : found.toString();
    }

    /**
     * @return the requests in [from, to) that came back, by status, for a failure's message.
     */
    private static String returnsByStatus(final int from, final int to)
    {
        final java.util.Map<ReturnStatus, Integer> counts = new java.util.TreeMap<>();
        for (int i = from; i < to; i++)
        {
            if (RETURNED[i] > 0)
            {
                counts.merge(ReturnStatus.fromCode(RETURN_STATUS[i]), 1, Integer::sum);
            }
        }
        return "returned " + counts;
    }

    private static void note(final List<String> problems, final String problem)
    {
        if (problems.size() < 20)
        {
            problems.add("  " + problem);
        }
    }

    /**
     * Send requests from {@code next} on, at most {@link #WINDOW} without an outcome, until the deadline or
     * {@code end}. A window that stays full for {@link #STALL_MS} is left to the final count (its requests may
     * still come back) and the flood goes on.
     *
     * @return the next request number.
     */
    private static int flood(
        final Bundle bundle, final Endpoint endpoint, final UnsafeBuffer data, final int first, final long deadline,
        final int end)
    {
        int next = first;
        long abandoned = 0;
        long lastOutcomes = outcomes;
        long lastProgress = System.nanoTime();
        while (next < end && (Long.MAX_VALUE == deadline || !RankSupport.expired(deadline)))
        {
            if (next - outcomes - abandoned < WINDOW)
            {
                send(endpoint, data, next++);
            }
            bundle.poll();
            if (outcomes != lastOutcomes)
            {
                lastOutcomes = outcomes;
                lastProgress = System.nanoTime();
            }
            else if (System.nanoTime() - lastProgress > TimeUnit.MILLISECONDS.toNanos(STALL_MS))
            {
                abandoned = next - outcomes;
                lastProgress = System.nanoTime();
            }
        }
        return next;
    }

    /**
     * Poll until every request below {@code sent} has an outcome, or none has come for 3 s (at most 60 s).
     */
    private static void awaitOutcomes(final Bundle bundle, final int sent)
    {
        RankSupport.awaitQuiet(bundle, () -> outcomes, sent, 3_000, 60_000, "rank 1: outcomes keep coming");
    }

    private static void awaitQuiet(final Bundle bundle, final int sent, final long quietMs)
    {
        RankSupport.awaitQuiet(bundle, () -> outcomes, Long.MAX_VALUE, quietMs, 60_000,
            "rank 1: outcomes keep coming");
    }

    private static void send(final Endpoint endpoint, final UnsafeBuffer data, final int i)
    {
        final int status = 0 != (i & 3) ? endpoint.request(0, H_REQUEST, i, checkArgument(i)) :
            endpoint.requestMedium(0, H_REQUEST, data, 0, 64, i, checkArgument(i));
        checkEquals(Am.OK, status, "rank 1: request " + i);
    }

    /**
     * @return the second argument of request {@code i}: its number scrambled, so a request whose arguments were
     * overwritten is told from one that was sent.
     */
    private static int checkArgument(final int i)
    {
        return RankSupport.pattern(i, 0, 0, 0x5C21);
    }

    private static void stop(final AtomicBoolean attacking, final Thread attacker) throws InterruptedException
    {
        attacking.set(false);
        attacker.join();
    }

    /**
     * Free the endpoint; fail the rank when that has not returned within {@link #CLOSE_BOUND_MS}.
     *
     * @return milliseconds it took.
     */
    private static long closeWithin(final Endpoint endpoint, final String who)
    {
        final Thread watchdog = new Thread(() ->
        {
            try
            {
                Thread.sleep(CLOSE_BOUND_MS);
                System.out.flush();
                System.err.println("FAIL ScribbleRowMain (pid " + ProcessIdentity.currentPid() + "): " + who +
                    ": freeing the endpoint did not return within " + CLOSE_BOUND_MS + " ms");
                System.err.flush();
                Runtime.getRuntime().halt(1);
            }
            catch (final InterruptedException ex)
            {
                // freed in time
            }
        }, "close watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        final long start = System.nanoTime();
        endpoint.close();
        watchdog.interrupt();
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static long unsettled(final EndpointStatistics statistics)
    {
        for (final Counter counter : Counter.values())
        {
            if ("UNSETTLED".equals(counter.name()))
            {
                return statistics.total(counter);
            }
        }
        return 0;
    }

    private static long countOf(final byte[] counts, final int from, final int to)
    {
        long n = 0;
        for (int i = from; i < to; i++)
        {
            n += counts[i] > 0 ? 1 : 0;
        }
        return n;
    }

    /**
     * All-gather a contribution of any length in pieces the rendezvous takes: rank 0's comes back whole, rank 1's is
     * empty.
     */
    private static byte[][] gather(final Job job, final byte[] mine)
    {
        final int piece = 60 * 1024;
        final byte[][] lengths = job.allGather(ByteBuffer.allocate(4).putInt(mine.length).array());
        final int[] length = new int[lengths.length];
        int most = 0;
        for (int r = 0; r < lengths.length; r++)
        {
            length[r] = ByteBuffer.wrap(lengths[r]).getInt();
            most = Math.max(most, length[r]);
        }
        final byte[][] all = new byte[lengths.length][];
        for (int r = 0; r < all.length; r++)
        {
            all[r] = new byte[length[r]];
        }
        for (int at = 0; at < most; at += piece)
        {
            final int n = Math.max(0, Math.min(piece, mine.length - at));
            final byte[] part = new byte[n];
            System.arraycopy(mine, Math.min(at, mine.length), part, 0, n);
            final byte[][] parts = job.allGather(part);
            for (int r = 0; r < all.length; r++)
            {
                if (at < length[r])
                {
                    System.arraycopy(parts[r], 0, all[r], at, parts[r].length);
                }
            }
        }
        return all;
    }

    /**
     * One attack of the row's kind.
     *
     * @param victim rank 0's queue block.
     * @param own    rank 1's queue block (the requester's: its header is scribbled in the header rows).
     * @param count  attacks made so far.
     */
    private static void attack(
        final Row row, final QueueBlock victim, final UnsafeBuffer own, final ThreadLocalRandom random,
        final long count)
    {
        switch (row)
        {
            case STATE_CLOSED:
                victim.buffer.putIntVolatile(QueueBlockDescriptor.STATE_OFFSET, QueueBlockDescriptor.STATE_CLOSED);
                own.putIntVolatile(QueueBlockDescriptor.STATE_OFFSET, QueueBlockDescriptor.STATE_CLOSED);
                break;
            case HEADER_GARBAGE:
                scribbleHeader(victim.buffer, random);
                scribbleHeader(own, random);
                break;
            case BOX_WORDS:
                attackBox(victim.boxes, random);
                break;
            case PACKET_STATES:
                attackStates(0 == (count & 1) ? victim.requests : victim.replies, victim.boxes, random);
                break;
            case ZEROED:
                victim.buffer.setMemory(0, victim.buffer.capacity(), (byte)0);
                break;
            default:
                throw new IllegalStateException(row.toString());
        }
    }

    private static void scribbleHeader(final UnsafeBuffer header, final ThreadLocalRandom random)
    {
        final byte[] garbage = new byte[QueueBlockDescriptor.SLOTS_TABLE_OFFSET];
        random.nextBytes(garbage);
        header.putBytes(0, garbage);
    }

    /**
     * A word of a box this process owns in rank 0's block: its released word, a ring packet's stamp or whole
     * packet, the ring's head or shared-consumed count.
     */
    private static void attackBox(final FastBoxTable boxes, final ThreadLocalRandom random)
    {
        final int box = ownBox(boxes);
        if (box < 0)
        {
            return;
        }
        final int ring = random.nextInt(2);
        final UnsafeBuffer buffer = boxes.buffer;
        final int head = boxes.headOffset(box, ring);
        final int packet = boxes.packetOffset(boxes.ringOffset(box, ring),
            buffer.getLongVolatile(head) + random.nextInt(boxes.depth));
        switch (random.nextInt(6))
        {
            case 0:
                final int released = boxes.ringOffset(box, 0) - FastBoxDescriptor.RINGS_OFFSET +
                    FastBoxDescriptor.RELEASED_OFFSET;
                buffer.putIntVolatile(released, 1 + random.nextInt(Integer.MAX_VALUE));
                break;
            case 1:
                buffer.putLongVolatile(packet + PacketDescriptor.STATE_OFFSET, random.nextLong());
                break;
            case 2:
                buffer.putLongVolatile(packet + PacketDescriptor.STATE_OFFSET, 0);
                break;
            case 3:
                final byte[] garbage = new byte[PacketDescriptor.LENGTH];
                random.nextBytes(garbage);
                buffer.putBytes(packet, garbage);
                break;
            case 4:
                buffer.putLongVolatile(head, random.nextBoolean() ? 0 : random.nextLong());
                break;
            default:
                buffer.putLongVolatile(boxes.consumedOffset(box, ring), random.nextBoolean() ? 0 : random.nextLong());
                break;
        }
    }

    /**
     * @return the box of rank 0's table this process claimed, or -1.
     */
    private static int ownBox(final FastBoxTable boxes)
    {
        for (int box = 0; box < boxes.boxes; box++)
        {
            if (FastBoxDescriptor.ownerPid(boxes.owner(box)) == ProcessIdentity.currentPid())
            {
                return box;
            }
        }
        return -1;
    }

    /**
     * Garbage or a flipped bit in the state word of a packet near the head of one of rank 0's queues, or in a stamp
     * of one of its box rings.
     */
    private static void attackStates(
        final PacketQueue queue, final FastBoxTable boxes, final ThreadLocalRandom random)
    {
        final UnsafeBuffer buffer = queue.buffer;
        final int packet;
        if (random.nextBoolean() && boxes.boxes > 0)
        {
            final int box = random.nextInt(boxes.boxes);
            final int ring = random.nextInt(2);
            packet = boxes.packetOffset(boxes.ringOffset(box, ring),
                buffer.getLongVolatile(boxes.headOffset(box, ring)) + random.nextInt(4));
        }
        else
        {
            packet = queue.packetOffset(buffer.getLongVolatile(queue.headOffset) + random.nextInt(4));
        }
        final long state = buffer.getLongVolatile(packet + PacketDescriptor.STATE_OFFSET);
        buffer.putLongVolatile(packet + PacketDescriptor.STATE_OFFSET,
            random.nextBoolean() ? random.nextLong() : state ^ (1L << random.nextInt(64)));
    }
}
