package org.am2j.net;

import static org.am2j.net.KilledPeerMain.await;
import static org.am2j.net.KilledPeerMain.publish;
import static org.am2j.net.KilledPeerMain.tagOf;
import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.fail;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.BitSet;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.shm.RankSupport;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * A process of {@link KilledMidFloodTest}, started directly (a rank that dies would fail a launcher's job).
 * Arguments: role ({@code survivor}, {@code victim}, {@code other}), a directory the processes share, and optionally
 * {@code spmd}: then the process is also a rank of an SPMD job ({@link Spmd#init()}, survivor rank 0, other rank 1,
 * victim rank 2) whose rendezvous is the only way the survivor can learn that the victim died when it runs on
 * another host.
 * <ul>
 *   <li>victim: serves the survivor's requests, writing each request's id to {@code victim.ran} (one write call
 *       each, before it replies, so that what it ran survives its SIGKILL), until the test kills it, or until it
 *       has run {@link #STALL_AFTER} of them, then stops polling;</li>
 *   <li>other: serves the survivor's round trips until the survivor says stop;</li>
 *   <li>survivor: floods the victim with requests, each with a unique id, {@link #WINDOW} unresolved at most, while
 *       it does round trips with the other process; says {@code survivor.flooding} after {@link #FLOODING_AFTER}
 *       replies; once the test has killed the victim it sends {@link #AFTER_KILL} more, whatever the window, waits (still doing round
 *       trips) until every request to the victim is replied or returned, or its NIC knows the victim dead and
 *       has nothing outstanding to it (what the victim took before it died gets neither), does 200 more round
 *       trips, and writes
 *       what happened to each id: {@code survivor.replied} and {@code survivor.returned-STATUS} (bit sets).</li>
 * </ul>
 */
public final class KilledMidFloodMain
{
    static final int WINDOW = 64;
    static final int FLOODING_AFTER = 300;
    static final int AFTER_KILL = 20;
    /**
     * System property: the victim stops polling once it has run this many requests, and says {@code victim.stalled}.
     */
    static final String STALL_AFTER = "kmf.stallAfter";
    private static final int H_REQUEST = 1;
    private static final int H_REPLY = 2;
    private static final int H_PING = 3;
    private static final int H_PONG = 4;

    private KilledMidFloodMain()
    {
    }

    public static void main(final String[] args)
    {
        RankSupport.main("KilledMidFloodMain " + args[0], () ->
        {
            if (args.length > 2 && "spmd".equals(args[2]))
            {
                // the survivor and the other close the job when done; the victim dies with it open
                try (Job job = Spmd.init())
                {
                    System.out.println(args[0] + " is rank " + job.rank() + " of " + job.size());
                    run(args[0], Path.of(args[1]));
                }
            }
            else
            {
                run(args[0], Path.of(args[1]));
            }
        });
    }

    private static void run(final String role, final Path dir) throws Exception
    {
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint endpoint = bundle.allocateEndpoint();
            endpoint.tag(Tags.fresh());
            publish(dir, role, endpoint);
            switch (role)
            {
                case "victim":
                    victim(bundle, endpoint, dir);
                    break;
                case "other":
                    other(bundle, endpoint, dir);
                    break;
                case "survivor":
                    new Survivor(bundle, endpoint, dir).run();
                    break;
                default:
                    fail("unknown role " + role);
            }
        }
    }

    private static void victim(final Bundle bundle, final Endpoint endpoint, final Path dir) throws Exception
    {
        endpoint.map(0, await(dir, "survivor"), tagOf(dir, "survivor"));
        final BitSet ran = new BitSet();
        final ByteBuffer record = ByteBuffer.allocate(Integer.BYTES);
        try (FileChannel log = FileChannel.open(dir.resolve("victim.ran"), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.APPEND))
        {
            endpoint.handler(0, (token, msg) -> fail("victim: returned " + msg.returnStatus()));
            endpoint.handler(H_REQUEST, (token, msg) ->
            {
                final int id = msg.arg(0);
                check(!ran.get(id), "victim: request " + id + " ran twice");
                ran.set(id);
                try
                {
                    // Written to the kernel before the reply leaves: a SIGKILL cannot take it back.
                    log.write(record.clear().putInt(id).flip());
                }
                catch (final java.io.IOException ex)
                {
                    throw new IllegalStateException(ex);
                }
                token.reply(H_REPLY, id);
            });
            Files.writeString(dir.resolve("victim.ready"), "ready");
            final long deadline = RankSupport.deadline(60_000);
            final int stallAfter = Integer.getInteger(STALL_AFTER, Integer.MAX_VALUE);
            while (true)
            {
                check(!RankSupport.expired(deadline), "victim: never killed");
                if (ran.cardinality() >= stallAfter)
                {
                    // Its NIC (a thread of its own) goes on taking and acknowledging requests it never runs.
                    Files.writeString(dir.resolve("victim.stalled"), Integer.toString(ran.cardinality()));
                    while (!RankSupport.expired(deadline))
                    {
                        Thread.sleep(10);
                    }
                }
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 200);
                }
            }
        }
    }

    private static void other(final Bundle bundle, final Endpoint endpoint, final Path dir) throws Exception
    {
        endpoint.map(0, await(dir, "survivor"), tagOf(dir, "survivor"));
        KilledPeerMain.servePings(bundle, endpoint, dir, H_PING, H_PONG, 80_000);
    }

    /** The flooding side. */
    private static final class Survivor
    {
        private final Bundle bundle;
        private final Endpoint endpoint;
        private final Path dir;
        private final BitSet replied = new BitSet();
        private final BitSet[] returned = new BitSet[256];
        private final int[] statuses = new int[256];
        private int sent;
        private int resolved;
        private int pongs;
        private int pings;

        Survivor(final Bundle bundle, final Endpoint endpoint, final Path dir)
        {
            this.bundle = bundle;
            this.endpoint = endpoint;
            this.dir = dir;
        }

        void run() throws Exception
        {
            endpoint.map(1, await(dir, "victim"), tagOf(dir, "victim"));
            endpoint.map(2, await(dir, "other"), tagOf(dir, "other"));
            await(dir, "victim.ready");
            endpoint.handler(0, (token, msg) ->
            {
                check(msg.isReturned() && H_REQUEST == msg.handlerIndex() && 1 == msg.argCount(),
                    "survivor: handler 0 got something else than a returned request to the victim: handler " +
                        msg.handlerIndex() + " status " + msg.returnStatus());
                final int id = msg.arg(0);
                check(id >= 0 && id < sent, "survivor: returned unknown request " + id);
                check(!replied.get(id), "survivor: request " + id + " returned after its reply came");
                final int status = msg.returnStatus().code();
                for (final BitSet set : returned)
                {
                    check(null == set || !set.get(id), "survivor: request " + id + " returned twice");
                }
                if (null == returned[status])
                {
                    returned[status] = new BitSet();
                }
                returned[status].set(id);
                statuses[status]++;
                resolved++;
            });
            endpoint.handler(H_REPLY, (token, msg) ->
            {
                final int id = msg.arg(0);
                check(id >= 0 && id < sent && !replied.get(id), "survivor: reply " + id + " unknown or twice");
                for (final BitSet set : returned)
                {
                    check(null == set || !set.get(id), "survivor: reply to request " + id + " after it returned");
                }
                replied.set(id);
                resolved++;
            });
            endpoint.handler(H_PONG, (token, msg) -> pongs++);

            final Path killed = dir.resolve("victim.killed");
            final long deadline = RankSupport.deadline(60_000);
            boolean flooding = false;
            boolean sawKill = false;
            int afterKill = 0;
            int roundTripsAfterKill = 0;
            long nextLook = 0;
            final long pid = ProcessIdentity.currentPid();
            // Done when every request is resolved, or, since a request the victim ran (or took) before it died gets
            // neither a reply nor a return, when the NIC knows the victim dead and has nothing outstanding.
            while (!sawKill || afterKill < AFTER_KILL || (resolved < sent && !settled(pid)))
            {
                check(!RankSupport.expired(deadline), "survivor: " + (sent - resolved) + " of " + sent +
                    " requests to the victim neither replied nor returned after 60 s; " + counts() + " nic: " +
                    NicCountersOf.giveUps(pid));
                // After the kill the window no longer holds the sends back: the victim's NIC may have acknowledged
                // all of a full window before the process died without running them (they get no outcome), and
                // only a message in flight makes the NIC look for the silent peer's death.
                while (sawKill ? afterKill < AFTER_KILL : sent - resolved < WINDOW)
                {
                    check(Am.OK == endpoint.request(1, H_REQUEST, sent), "survivor: request refused");
                    sent++;
                    afterKill += sawKill ? 1 : 0;
                }
                if (pings == pongs)
                {
                    endpoint.request(2, H_PING, pings++);
                    roundTripsAfterKill += sawKill ? 1 : 0;
                }
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 200);
                }
                final long now = System.nanoTime();
                if (now - nextLook > 0)
                {
                    nextLook = now + 5_000_000L;
                    if (!flooding && replied.cardinality() >= FLOODING_AFTER)
                    {
                        flooding = true;
                        Files.writeString(dir.resolve("survivor.flooding"), Integer.toString(sent));
                    }
                    sawKill = sawKill || Files.exists(killed);
                }
            }
            final int before = pongs;
            final long roundTripDeadline = RankSupport.deadline(20_000);
            while (pongs < before + 200)
            {
                check(!RankSupport.expired(roundTripDeadline), "survivor: the other process stopped answering");
                if (pings == pongs)
                {
                    endpoint.request(2, H_PING, pings++);
                }
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 200);
                }
            }
            Files.write(dir.resolve("survivor.replied"), replied.toByteArray());
            for (int s = 0; s < returned.length; s++)
            {
                if (null != returned[s])
                {
                    Files.write(dir.resolve("survivor.returned-" + ReturnStatus.fromCode(s)),
                        returned[s].toByteArray());
                }
            }
            Files.writeString(dir.resolve("stop"), "stop");
            System.out.println("survivor ok: " + counts() + " roundTripsWhileWaiting=" + roundTripsAfterKill +
                " after=200 nic: " + NicCountersOf.giveUps(ProcessIdentity.currentPid()));
        }

        private long nextSettledLook;

        /**
         * @return true when the NIC has found the victim dead and has no message outstanding but this process's
         *         one ping; looked at every 50 ms.
         */
        private boolean settled(final long pid)
        {
            final long now = System.nanoTime();
            if (now - nextSettledLook < 0)
            {
                return false;
            }
            nextSettledLook = now + 50_000_000L;
            return NicCountersOf.read(pid, NicEvent.PEERS_DIED) > 0 &&
                NicCountersOf.read(pid, NicEvent.OUTSTANDING) <= pings - pongs;
        }

        private String counts()
        {
            final StringBuilder text = new StringBuilder("sent=" + sent + " replied=" + replied.cardinality());
            for (final ReturnStatus status : new ReturnStatus[]{ReturnStatus.EOUTCOMEUNKNOWN,
                ReturnStatus.EUNREACHABLE, ReturnStatus.ECONGESTION})
            {
                text.append(' ').append(status).append('=').append(statuses[status.code()]);
            }
            int other = 0;
            for (int s = 0; s < statuses.length; s++)
            {
                other += statuses[s];
            }
            other -= statuses[ReturnStatus.EOUTCOMEUNKNOWN.code()] + statuses[ReturnStatus.EUNREACHABLE.code()] +
                statuses[ReturnStatus.ECONGESTION.code()];
            return text.append(" otherStatus=").append(other).toString();
        }
    }
}
