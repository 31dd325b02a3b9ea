package org.am2j.perf;

import java.nio.ByteBuffer;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.EventMask;
import org.am2j.api.Message;
import org.am2j.api.Token;

/**
 * The AM-II side of the ping-pong benchmark on one endpoint of a SEQ bundle, for either rank of a pair: the
 * initiator's timed loops and the responder's handlers. Only the public API is used, as an application would.
 * <p>
 * Handler table (the same on both ranks; installed by the constructor, which must run before the peer sends):
 * <table>
 * <caption>Handlers</caption>
 * <tr><th>index</th><th>runs on</th><th>does</th></tr>
 * <tr><td>{@value #ECHO}</td><td>responder</td><td>short reply to {@value #ECHO_REPLY} with argument 0</td></tr>
 * <tr><td>{@value #ECHO_REPLY}</td><td>initiator</td><td>counts the reply</td></tr>
 * <tr><td>{@value #MEDIUM_ECHO}</td><td>responder</td><td>checksums every byte of the data (read in place, where the
 * transport delivered it) against the pattern of the round in argument 0 ({@link MediumPattern}), then a medium
 * reply to {@value #MEDIUM_REPLY} with the data it got</td></tr>
 * <tr><td>{@value #MEDIUM_REPLY}</td><td>initiator</td><td>counts the reply, checks its length and the checksum of
 * every byte against its round's pattern</td></tr>
 * <tr><td>{@value #SINK}</td><td>responder</td><td>copies the data into a receive buffer at the offset of argument 0
 * (the data must be the chunk of a transfer of argument 2 bytes that starts there: up to {@value #BW_BYTES} bytes);
 * at the last message of a run (argument 1 messages counted) replies to {@value #SINK_REPLY} with the count</td></tr>
 * <tr><td>{@value #SINK_REPLY}</td><td>initiator</td><td>ends a bandwidth run</td></tr>
 * <tr><td>{@value #DONE}</td><td>responder</td><td>replies to {@value #DONE_REPLY} and ends {@link #serve()}</td></tr>
 * <tr><td>{@value #DONE_REPLY}</td><td>initiator</td><td>ends {@link #finish()}</td></tr>
 * <tr><td>0</td><td>either</td><td>counts returned messages: a phase with one fails</td></tr>
 * </table>
 * Waiting is a busy loop on {@link Bundle#poll()} that calls {@link Thread#onSpinWait()} after a poll that found
 * nothing, like the spin of {@link CacheLinePingPong}. The loops allocate nothing.
 */
final class AmMessaging
{
    /** Request: short echo. */
    static final int ECHO = 1;
    /** Reply of {@link #ECHO}. */
    static final int ECHO_REPLY = 2;
    /** Request: medium echo. */
    static final int MEDIUM_ECHO = 3;
    /** Reply of {@link #MEDIUM_ECHO}. */
    static final int MEDIUM_REPLY = 4;
    /** Request: 8 KiB medium message copied out at the receiver. */
    static final int SINK = 5;
    /** Reply at the end of a bandwidth run. */
    static final int SINK_REPLY = 6;
    /** Request: the phase is over. */
    static final int DONE = 7;
    /** Reply of {@link #DONE}. */
    static final int DONE_REPLY = 8;
    /** Bytes of each message of a bandwidth run, and the chunk of a transfer. */
    static final int BW_BYTES = Am.MAX_MEDIUM;
    /** Bytes of the send and receive buffers: the longest transfer. */
    static final int TRANSFER_BUFFER_BYTES = 1 << 20;
    /** Pause before each round trip to a sleeping responder: long enough for it to be asleep in its futex. */
    static final long SLEEPER_GAP_NS = 200_000;

    private final Bundle bundle;
    private final Endpoint endpoint;
    private final int peer;
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(TRANSFER_BUFFER_BYTES));
    private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(TRANSFER_BUFFER_BYTES));

    // initiator
    private long replies;
    private long mediumReplies;
    private int expectedMediumLength;
    private long badMediumReplies;
    private long badMediumRequests;
    /** The medium round trip under way: its data is this round's {@link MediumPattern}. */
    private int mediumRound;
    private long sinkReplies;
    private int sinkCount;
    private boolean doneReplied;

    // responder
    private boolean done;
    private int sunk;
    private long badSinkLengths;

    // both
    private final MediumPattern pattern = new MediumPattern();
    private long returned;
    private String firstReturned;

    /**
     * Install the handlers.
     *
     * @param bundle   the SEQ bundle of the endpoint, polled by the calling thread.
     * @param endpoint with a tag set.
     * @param peer     translation index of the other rank's endpoint (mapped before the first request).
     */
    AmMessaging(final Bundle bundle, final Endpoint endpoint, final int peer)
    {
        this.bundle = bundle;
        this.endpoint = endpoint;
        this.peer = peer;
        for (int i = 0; i < TRANSFER_BUFFER_BYTES; i++)
        {
            sendBuffer.putByte(i, (byte)(i * 31 + 7));
        }
        receiveBuffer.setMemory(0, TRANSFER_BUFFER_BYTES, (byte)0);
        endpoint.handler(0, this::onReturned);
        endpoint.handler(ECHO, (token, msg) -> token.reply(ECHO_REPLY, msg.arg(0)));
        endpoint.handler(ECHO_REPLY, (token, msg) -> replies++);
        endpoint.handler(MEDIUM_ECHO, this::onMediumEcho);
        endpoint.handler(MEDIUM_REPLY, this::onMediumReply);
        endpoint.handler(SINK, this::onSink);
        endpoint.handler(SINK_REPLY, (token, msg) ->
        {
            sinkCount = msg.arg(0);
            sinkReplies++;
        });
        endpoint.handler(DONE, (token, msg) ->
        {
            token.reply(DONE_REPLY);
            done = true;
        });
        endpoint.handler(DONE_REPLY, (token, msg) -> doneReplied = true);
    }

    private void onReturned(final Token token, final Message msg)
    {
        if (0 == returned++)
        {
            firstReturned = msg.opcode() + " to handler " + msg.handlerIndex() + " came back with " +
                msg.returnStatus();
        }
    }

    private void onMediumEcho(final Token token, final Message msg)
    {
        // Every byte is read, as a real handler would: the figures include what reading the payload costs.
        if (!pattern.matches(msg.data(), msg.dataLength(), msg.arg(0)))
        {
            badMediumRequests++;
        }
        token.replyMedium(MEDIUM_REPLY, msg.data(), 0, msg.dataLength());
    }

    private void onMediumReply(final Token token, final Message msg)
    {
        if (msg.dataLength() != expectedMediumLength || !pattern.matches(msg.data(), msg.dataLength(), mediumRound))
        {
            badMediumReplies++;
        }
        mediumReplies++;
    }

    private void onSink(final Token token, final Message msg)
    {
        final int length = msg.dataLength();
        final int offset = msg.arg(0);
        final int transfer = msg.arg(2);
        if (offset < 0 || transfer > TRANSFER_BUFFER_BYTES || offset >= transfer ||
            length != Math.min(BW_BYTES, transfer - offset))
        {
            badSinkLengths++;
        }
        else
        {
            receiveBuffer.putBytes(offset, msg.data(), 0, length);
        }
        if (++sunk == msg.arg(1))
        {
            token.reply(SINK_REPLY, sunk);
            sunk = 0;
        }
    }

    private void idle()
    {
        if (bundle.poll() == 0)
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Responder: run handlers until the initiator's {@link #DONE} request.
     *
     * @throws IllegalStateException when a message came back or a bandwidth message had the wrong length.
     */
    void serve()
    {
        done = false;
        while (!done)
        {
            idle();
        }
        check();
        if (badMediumRequests != 0)
        {
            throw new IllegalStateException(badMediumRequests + " medium requests did not carry the send pattern");
        }
        if (badSinkLengths != 0)
        {
            throw new IllegalStateException(badSinkLengths + " bandwidth messages did not have the length or offset " +
                "of their transfer's chunk");
        }
    }

    /**
     * Responder: like {@link #serve()}, but sleeping in {@link Bundle#waitSema()} (no busy CPU) whenever no message
     * is waiting, so every request of {@link #roundTripsToASleeper(int, Histogram)} has to wake it.
     */
    void serveAsleep()
    {
        done = false;
        while (!done)
        {
            if (bundle.poll() == 0)
            {
                bundle.eventMask(EventMask.NOTEMPTY);
                bundle.waitSema();
            }
        }
        check();
    }

    /**
     * Initiator: short round trips to a responder in {@link #serveAsleep()}, each started
     * {@value #SLEEPER_GAP_NS} ns after the last reply so that the responder is asleep when the request arrives. The
     * round trip then includes the sender's wake-up (doorbell and futex) and the responder's return from its sleep.
     *
     * @param n         round trips.
     * @param histogram receives each round trip's time in ns.
     */
    void roundTripsToASleeper(final int n, final Histogram histogram)
    {
        for (int i = 0; i < n; i++)
        {
            final long resume = System.nanoTime() + SLEEPER_GAP_NS;
            while (System.nanoTime() < resume)
            {
                idle();
            }
            final long expected = replies + 1;
            final long start = System.nanoTime();
            endpoint.request(peer, ECHO, i);
            while (replies != expected)
            {
                idle();
            }
            LatencySummary.record(histogram, System.nanoTime() - start);
        }
    }

    /**
     * Initiator: short request/reply round trips, each timed.
     *
     * @param n         round trips.
     * @param histogram receives each round trip's time in ns.
     */
    void shortRoundTrips(final int n, final Histogram histogram)
    {
        for (int i = 0; i < n; i++)
        {
            final long expected = replies + 1;
            final long start = System.nanoTime();
            endpoint.request(peer, ECHO, i);
            while (replies != expected)
            {
                idle();
            }
            LatencySummary.record(histogram, System.nanoTime() - start);
        }
    }

    /**
     * Initiator: medium request/reply round trips (the reply echoes the data), each timed; before each, untimed, the
     * round's pattern is written into the send buffer.
     *
     * @param n         round trips.
     * @param size      data bytes of the request and of the reply, 0 to {@link Am#MAX_MEDIUM}.
     * @param histogram receives each round trip's time in ns.
     */
    void mediumRoundTrips(final int n, final int size, final Histogram histogram)
    {
        expectedMediumLength = size;
        for (int i = 0; i < n; i++)
        {
            final long expected = mediumReplies + 1;
            MediumPattern.fill(sendBuffer, size, ++mediumRound);
            final long start = System.nanoTime();
            endpoint.requestMedium(peer, MEDIUM_ECHO, sendBuffer, 0, size, mediumRound);
            while (mediumReplies != expected)
            {
                idle();
            }
            LatencySummary.record(histogram, System.nanoTime() - start);
        }
        if (badMediumReplies != 0)
        {
            throw new IllegalStateException(badMediumReplies + " medium replies did not echo the " + size +
                " bytes sent");
        }
    }

    /**
     * Initiator: bursts of short requests sent back to back, only the sending timed; the replies are taken between
     * bursts, untimed.
     *
     * @param bursts    number of bursts.
     * @param burst     requests in each.
     * @param histogram receives the time of each whole burst in ns.
     * @return total nanoseconds spent in the {@code request} calls of all bursts.
     */
    long sendBursts(final int bursts, final int burst, final Histogram histogram)
    {
        long total = 0;
        for (int b = 0; b < bursts; b++)
        {
            final long expected = replies + burst;
            final long start = System.nanoTime();
            for (int i = 0; i < burst; i++)
            {
                endpoint.request(peer, ECHO, i);
            }
            final long elapsed = System.nanoTime() - start;
            total += elapsed;
            LatencySummary.record(histogram, elapsed);
            while (replies != expected)
            {
                idle();
            }
        }
        return total;
    }

    /**
     * Initiator: one bandwidth run: messages of {@value #BW_BYTES} bytes sent as fast as the destination queue takes
     * them (copied in from a send buffer), copied out at the receiver, and one reply at the end.
     *
     * @param messages in the run.
     * @return bytes per nanosecond (GB/s) from the first send to the reply.
     * @throws IllegalStateException when the receiver did not count every message.
     */
    double bandwidthGbps(final int messages)
    {
        return (double)messages * BW_BYTES / sink(messages, BW_BYTES, 0);
    }

    /**
     * Initiator: one transfer of the LogP harness's G (the paper's bulk benchmark): {@code bytes} of the send buffer
     * cut into chunks of {@value #BW_BYTES} bytes (the last one shorter) and pipelined as medium requests, each
     * copied in from the send buffer at the sender and out into the receive buffer at the same offset at the
     * receiver, which replies once it has the last chunk.
     *
     * @param bytes of the transfer, 1 to {@value #TRANSFER_BUFFER_BYTES}.
     * @return nanoseconds from the first send to the receiver's reply.
     * @throws IllegalStateException when the receiver did not count every chunk.
     */
    long transferNs(final int bytes)
    {
        if (bytes < 1 || bytes > TRANSFER_BUFFER_BYTES)
        {
            throw new IllegalArgumentException("a transfer has 1 to " + TRANSFER_BUFFER_BYTES + " bytes, not " + bytes);
        }
        return sink((bytes + BW_BYTES - 1) / BW_BYTES, bytes, BW_BYTES);
    }

    /**
     * Send {@code messages} medium requests to {@link #SINK}, the i-th of {@code min(BW_BYTES, transfer - i * step)}
     * bytes from offset {@code i * step}, and wait for the reply to the last.
     *
     * @return nanoseconds from the first send to the reply.
     */
    private long sink(final int messages, final int transfer, final int step)
    {
        final long before = sinkReplies;
        final long start = System.nanoTime();
        for (int i = 0, offset = 0; i < messages; i++, offset += step)
        {
            endpoint.requestMedium(peer, SINK, sendBuffer, offset, Math.min(BW_BYTES, transfer - offset), offset,
                messages, transfer);
        }
        while (sinkReplies == before)
        {
            idle();
        }
        final long elapsed = System.nanoTime() - start;
        if (sinkCount != messages)
        {
            throw new IllegalStateException("the receiver counted " + sinkCount + " of " + messages +
                " bandwidth messages");
        }
        return elapsed;
    }

    /**
     * Initiator: one burst of the LogP signature (Culler et al.): {@code burst} short requests, each sent as the
     * paper's send does (a poll of the bundle, which runs the handlers of the replies that have come back, then the
     * request) and each followed by {@code delayNs} of computation (a spin on the clock that does not poll); only
     * the burst is timed, then the replies still out are taken, untimed.
     *
     * @param burst   requests in the burst, at least 1.
     * @param delayNs computation after each request, 0 for none.
     * @return nanoseconds from before the first poll to after the last delay.
     */
    long signatureBurst(final int burst, final long delayNs)
    {
        final long expected = replies + burst;
        final long start = System.nanoTime();
        for (int i = 0; i < burst; i++)
        {
            bundle.poll();
            endpoint.request(peer, ECHO, i);
            if (delayNs > 0)
            {
                spin(delayNs);
            }
        }
        final long elapsed = System.nanoTime() - start;
        while (replies != expected)
        {
            idle();
        }
        return elapsed;
    }

    /**
     * The computed delay of the signature: spin on {@link System#nanoTime()} (nothing else: no poll, no spin-wait
     * hint) until {@code ns} have passed.
     *
     * @param ns how long.
     * @return the clock when it ended.
     */
    static long spin(final long ns)
    {
        final long end = System.nanoTime() + ns;
        long now;
        do
        {
            now = System.nanoTime();
        }
        while (now < end);
        return now;
    }

    /**
     * Initiator: end the phase: a {@link #DONE} request and its reply.
     *
     * @throws IllegalStateException when a message came back.
     */
    void finish()
    {
        doneReplied = false;
        endpoint.request(peer, DONE);
        while (!doneReplied)
        {
            idle();
        }
        check();
    }

    /**
     * Time polls of the bundle while nothing is sent to it: the peer must be idle, not serving.
     *
     * @param polls calls of {@link Bundle#poll()} to time.
     * @return their time, ns.
     * @throws IllegalStateException when a poll handled a message: the polls were not empty.
     */
    long emptyPollsNs(final int polls)
    {
        int handled = 0;
        final long start = System.nanoTime();
        for (int i = 0; i < polls; i++)
        {
            handled += bundle.poll();
        }
        final long ns = System.nanoTime() - start;
        if (0 != handled)
        {
            throw new IllegalStateException(polls + " polls of an idle pair handled " + handled + " messages");
        }
        return ns;
    }

    /**
     * @return the bundle as it describes itself, its poll scheduler's state included ({@code Bundle[SEQ, 1
     * endpoints, poll calibrated[ratio 38.2 measured, 31..122, rate 1/122]]}).
     */
    String describeBundle()
    {
        return bundle.toString();
    }

    /**
     * @return the endpoint's queue-full back-offs so far, over every transport.
     */
    long queueFullBackoffs()
    {
        return endpoint.statistics().total(EndpointStatistics.Counter.QUEUE_FULL_BACKOFFS);
    }

    private void check()
    {
        if (returned != 0)
        {
            throw new IllegalStateException(returned + " messages came back; the first: " + firstReturned);
        }
    }
}
