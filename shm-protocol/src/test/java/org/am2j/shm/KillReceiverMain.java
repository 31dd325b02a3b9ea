package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkData;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;
import static org.am2j.shm.RankSupport.pattern;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointStatistics;
import org.am2j.api.Message;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.spi.ProcessIdentity;

/**
 * The receiver of {@code KilledSenderTest}, started without a launcher. It writes its endpoint's tag and encoded
 * name to {@code <dir>/receiver.name}, then serves requests (arguments: sender id, sequence number, pattern) and
 * replies to each. Live senders (ids below {@link #FIRST_VICTIM}) must arrive exactly once and in order and end with
 * a "done" message carrying their total; victims (killed senders) must arrive in order with no duplicate, a prefix
 * of what they sent. It stops when {@code <dir>/stop} exists and every live sender is done.
 * Usage: {@code KillReceiverMain dir liveSenders}.
 */
public final class KillReceiverMain
{
    static final int FIRST_VICTIM = 100;
    static final int H_SHORT = 1;
    static final int H_MEDIUM = 2;
    static final int H_REPLY = 3;
    static final int H_DONE = 4;
    static final int H_DONE_REPLY = 5;
    static final int SALT = 0x5555;
    static final int[] MEDIUM_SIZES = { 8192, 1, 4000, 8192, 64 };

    private final Map<Integer, Integer> nextLive = new TreeMap<>();
    private final Map<Integer, Integer> nextVictim = new HashMap<>();
    private final int liveSenders;
    private int liveDone;
    private long victimMessages;
    private long returnedToVictims;
    private long lastLiveNs;
    private long maxLiveGapNs;

    private KillReceiverMain(final int liveSenders)
    {
        this.liveSenders = liveSenders;
    }

    public static void main(final String[] args)
    {
        RankSupport.main("KillReceiverMain", () ->
        {
            final Path dir = Path.of(args[0]);
            final int live = Integer.parseInt(args[1]);
            new KillReceiverMain(live).run(dir);
        });
    }

    static int mediumLength(final int seq)
    {
        return MEDIUM_SIZES[(seq / 2) % MEDIUM_SIZES.length];
    }

    private void run(final Path dir) throws IOException
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            endpoint.handler(0, this::onReturned);
            endpoint.handler(H_SHORT, this::onRequest);
            endpoint.handler(H_MEDIUM, this::onRequest);
            endpoint.handler(H_DONE, this::onDone);
            writeName(dir, endpoint);
            System.out.println("receiver pid=" + ProcessIdentity.currentPid() + " serving");

            final Path stop = dir.resolve("stop");
            final long deadline = RankSupport.deadline(110_000);
            long polls = 0;
            while (true)
            {
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 1000);
                }
                if (0 == (++polls & 255))
                {
                    if (liveDone == liveSenders && Files.exists(stop))
                    {
                        break;
                    }
                    if (RankSupport.expired(deadline))
                    {
                        fail("receiver: not stopped after 110 s; live senders done " + liveDone + " of " +
                            liveSenders + ", live " + nextLive);
                    }
                }
            }
            final EndpointStatistics statistics = endpoint.statistics();
            System.out.println("receiver ok: live " + nextLive + " victims " + nextVictim.size() +
                " victimMessages=" + victimMessages + " returnedToVictims=" + returnedToVictims +
                " drops=" + statistics.get("shm", EndpointStatistics.Counter.DROPS) +
                " maxLiveGapMs=" + maxLiveGapNs / 1_000_000);
        }
    }

    private static void writeName(final Path dir, final Endpoint endpoint) throws IOException
    {
        final Path tmp = dir.resolve("receiver.name.tmp");
        final byte[] name = endpoint.name().toBytes();
        try (OutputStream file = Files.newOutputStream(tmp); DataOutputStream out = new DataOutputStream(file))
        {
            out.writeLong(endpoint.tag());
            out.writeInt(name.length);
            out.write(name);
        }
        Files.move(tmp, dir.resolve("receiver.name"), StandardCopyOption.ATOMIC_MOVE);
    }

    private void onRequest(final Token token, final Message msg)
    {
        check(msg.argCount() >= 2, "receiver: request with " + msg.argCount() + " arguments");
        final int id = msg.arg(0);
        final int seq = msg.arg(1);
        final String what = "receiver: request " + seq + " of sender " + id;
        if (id < FIRST_VICTIM)
        {
            final int expected = nextLive.getOrDefault(id, 0);
            if (seq != expected)
            {
                fail(what + ": expected " + expected + (seq < expected ? " (duplicate or reordered)" :
                    " (lost " + (seq - expected) + ")"));
            }
            nextLive.put(id, seq + 1);
            final long now = System.nanoTime();
            if (0 != lastLiveNs)
            {
                maxLiveGapNs = Math.max(maxLiveGapNs, now - lastLiveNs);
            }
            lastLiveNs = now;
        }
        else
        {
            final int expected = nextVictim.getOrDefault(id, 0);
            if (seq != expected)
            {
                fail(what + " (a victim): expected " + expected + (seq < expected ? " (duplicate or reordered)" :
                    " (a hole of " + (seq - expected) + ")"));
            }
            nextVictim.put(id, seq + 1);
            victimMessages++;
        }
        checkEquals(2 + seq % 3, msg.argCount(), what + ": argument count");
        for (int i = 2; i < msg.argCount(); i++)
        {
            checkEquals(pattern(id, seq, i, SALT), msg.arg(i), what + ": argument " + i);
        }
        final boolean medium = H_MEDIUM == msg.handlerIndex();
        checkEquals(0 == seq % 2 ? H_MEDIUM : H_SHORT, msg.handlerIndex(), what + ": handler");
        final int length = medium ? mediumLength(seq) : 0;
        checkEquals(length, msg.dataLength(), what + ": data length");
        checkData(msg.data(), 0, length, pattern(id, seq, -1, SALT), what);
        token.reply(H_REPLY, id, seq);
    }

    private void onDone(final Token token, final Message msg)
    {
        final int id = msg.arg(0);
        final int total = msg.arg(1);
        checkEquals(total, nextLive.getOrDefault(id, 0), "receiver: requests of live sender " + id + " at its end");
        liveDone++;
        lastLiveNs = 0;
        token.reply(H_DONE_REPLY, id, total);
    }

    private void onReturned(final Token token, final Message msg)
    {
        // A reply to a victim that died may come back; nothing else may.
        if (!msg.isRequest() && msg.argCount() >= 1 && msg.arg(0) >= FIRST_VICTIM)
        {
            returnedToVictims++;
            return;
        }
        fail("receiver: returned message " + msg.returnStatus() + " " + msg.opcode() + " args " + msg.argCount() +
            (msg.argCount() > 0 ? " a0=" + msg.arg(0) : ""));
    }
}
