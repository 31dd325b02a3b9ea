package org.am2j.net;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.fail;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.shm.RankSupport;

/**
 * A process of {@link KilledPeerTest}, started directly (a rank that dies would fail a launcher's job). Arguments:
 * role ({@code survivor}, {@code victim}, {@code other}) and a directory where the processes leave their names.
 * <ul>
 *   <li>victim: maps the survivor, says it is ready, and then never polls again (its inline NIC, started without
 *       a keeper thread, acknowledges nothing) until the test kills it;</li>
 *   <li>other: serves the survivor's requests until the survivor says stop;</li>
 *   <li>survivor: sends requests to the victim, tells the test (which kills the victim with SIGKILL), sends more
 *       once it is dead, and keeps
 *       doing round trips with the other process until every request to the victim has come back to handler 0,
 *       then does more round trips, and prints what came back and how long it took.</li>
 * </ul>
 */
public final class KilledPeerMain
{
    static final int TO_VICTIM = 20;
    private static final int H_PING = 1;
    private static final int H_PONG = 2;

    private KilledPeerMain()
    {
    }

    public static void main(final String[] args)
    {
        RankSupport.main("KilledPeerMain " + args[0], () -> run(args[0], Path.of(args[1])));
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
                    endpoint.map(0, await(dir, "survivor"), tagOf(dir, "survivor"));
                    Files.writeString(dir.resolve("victim.ready"), "ready");
                    Thread.sleep(Long.MAX_VALUE);
                    break;
                case "other":
                    other(bundle, endpoint, dir);
                    break;
                case "survivor":
                    survivor(bundle, endpoint, dir);
                    break;
                default:
                    fail("unknown role " + role);
            }
        }
    }

    private static void other(final Bundle bundle, final Endpoint endpoint, final Path dir) throws Exception
    {
        servePings(bundle, endpoint, dir, H_PING, H_PONG, 60_000);
    }

    /**
     * The third process of the kill tests: answer every ping with a pong until the file {@code stop} appears in
     * {@code dir}, then print how many it served; a returned message or no stop within {@code timeoutMs} fails it.
     */
    static void servePings(
        final Bundle bundle, final Endpoint endpoint, final Path dir, final int ping, final int pong,
        final long timeoutMs) throws Exception
    {
        final long[] served = {0};
        endpoint.handler(0, (token, msg) -> fail("other: returned " + msg.returnStatus()));
        endpoint.handler(ping, (token, msg) ->
        {
            served[0]++;
            token.reply(pong, msg.arg(0));
        });
        final Path stop = dir.resolve("stop");
        final long deadline = RankSupport.deadline(timeoutMs);
        while (!Files.exists(stop))
        {
            check(!RankSupport.expired(deadline), "other: never told to stop");
            for (int i = 0; i < 1000; i++)
            {
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 1000);
                }
            }
        }
        System.out.println("other ok: served " + served[0]);
    }

    private static void survivor(final Bundle bundle, final Endpoint endpoint, final Path dir) throws Exception
    {
        endpoint.map(1, await(dir, "victim"), tagOf(dir, "victim"));
        endpoint.map(2, await(dir, "other"), tagOf(dir, "other"));
        await(dir, "victim.ready");
        final long[] sentAt = new long[TO_VICTIM];
        final long[] returnedAfter = new long[TO_VICTIM];
        final int[] statuses = new int[ReturnStatus.values().length + 1];
        final int[] returned = {0};
        final int[] pongs = {0};
        endpoint.handler(0, (token, msg) ->
        {
            check(msg.isReturned() && msg.argCount() == 1, "survivor: handler 0 got a message that is not returned");
            final int id = msg.arg(0);
            check(id >= 0 && id < TO_VICTIM && 0 == returnedAfter[id], "survivor: returned twice or unknown: " + id);
            returnedAfter[id] = System.nanoTime() - sentAt[id];
            statuses[msg.returnStatus().code()]++;
            returned[0]++;
        });
        endpoint.handler(H_PONG, (token, msg) -> pongs[0]++);
        roundTrips(bundle, endpoint, pongs, 100);

        // Half before the kill (the victim's NIC is frozen: no keeper, no polls, so they are outstanding), half after.
        for (int i = 0; i < TO_VICTIM / 2; i++)
        {
            sentAt[i] = System.nanoTime();
            endpoint.request(1, H_PING, i);
        }
        Files.writeString(dir.resolve("survivor.sent"), "sent");
        await(dir, "victim.killed");
        for (int i = TO_VICTIM / 2; i < TO_VICTIM; i++)
        {
            sentAt[i] = System.nanoTime();
            endpoint.request(1, H_PING, i);
        }
        final long deadline = RankSupport.deadline(30_000);
        int during = 0;
        while (returned[0] < TO_VICTIM)
        {
            check(!RankSupport.expired(deadline), "survivor: only " + returned[0] + " of " + TO_VICTIM +
                " requests to the killed peer came back");
            roundTrips(bundle, endpoint, pongs, 1);
            during++;
        }
        roundTrips(bundle, endpoint, pongs, 200);
        long max = 0;
        for (final long after : returnedAfter)
        {
            max = Math.max(max, after);
        }
        Files.writeString(dir.resolve("stop"), "stop");
        System.out.println("survivor ok: returned=" + returned[0] + " unreachable=" +
            statuses[ReturnStatus.EUNREACHABLE.code()] + " congestion=" + statuses[ReturnStatus.ECONGESTION.code()] +
            " unknown=" + statuses[ReturnStatus.EOUTCOMEUNKNOWN.code()] +
            " maxReturnMs=" + TimeUnit.NANOSECONDS.toMillis(max) + " roundTripsWhileWaiting=" + during +
            " after=200");
    }

    private static void roundTrips(final Bundle bundle, final Endpoint endpoint, final int[] pongs, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int before = pongs[0];
            endpoint.request(2, H_PING, i);
            final long deadline = RankSupport.deadline(10_000);
            while (pongs[0] == before)
            {
                check(!RankSupport.expired(deadline), "survivor: the other process stopped answering");
                if (0 == bundle.poll())
                {
                    RankSupport.idle(bundle, 500);
                }
            }
        }
    }

    static void publish(final Path dir, final String role, final Endpoint endpoint) throws Exception
    {
        final byte[] name = endpoint.name().toBytes();
        final Path temporary = dir.resolve(role + ".tmp");
        Files.write(temporary, ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name).array());
        Files.move(temporary, dir.resolve(role + ".name"), StandardCopyOption.ATOMIC_MOVE);
    }

    static EndpointName await(final Path dir, final String what) throws Exception
    {
        final Path file = dir.resolve(what.contains(".") ? what : what + ".name");
        final long deadline = RankSupport.deadline(30_000);
        while (!Files.exists(file))
        {
            check(!RankSupport.expired(deadline), "no " + file);
            Thread.sleep(5);
        }
        if (what.contains("."))
        {
            return null;
        }
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
        bytes.getLong();
        final byte[] name = new byte[bytes.remaining()];
        bytes.get(name);
        return EndpointName.fromBytes(name);
    }

    static long tagOf(final Path dir, final String role) throws Exception
    {
        return ByteBuffer.wrap(Files.readAllBytes(dir.resolve(role + ".name"))).getLong();
    }
}
