package org.am2j.shm;

import static org.am2j.shm.RankSupport.check;
import static org.am2j.shm.RankSupport.checkEquals;
import static org.am2j.shm.RankSupport.fail;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Message;
import org.am2j.api.Opcode;
import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.api.Token;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Rank program of {@code ReturnedTest}, two ranks. Rank 1 sends rank 0 messages it must refuse and checks that each
 * comes back to its handler 0 with the right status, opcode, handler index and arguments (and, for a medium message,
 * its data), and that rank 0's handlers never ran for them:
 * <ol>
 *   <li>short, medium and long requests through a second translation of rank 0 with a wrong tag: EBADTAG;</li>
 *   <li>a request to a handler index rank 0 never installed: EBADHANDLER;</li>
 *   <li>a long request that ends past rank 0's shared-memory segment (refused by the sender): EBADLENGTH; one that
 *       starts at its end: EBADSEGOFF; after rank 0 switched to a private segment, one that ends past that one
 *       (refused by the receiver): EBADLENGTH;</li>
 *   <li>after rank 0 freed its endpoint: EBADENDPOINT.</li>
 * </ol>
 */
public final class ReturnedMain
{
    static final int H_COUNTED = 5;
    static final int H_DONE = 9;
    static final int H_DONE_REPLY = 10;
    static final int H_NEVER_INSTALLED = 77;
    static final int WRONG_TAG_INDEX = 2;
    static final int SEGMENT = 4096;

    private static int counted;
    private static int done;
    private static int doneReplies;
    private static ReturnStatus lastStatus;
    private static Opcode lastOpcode;
    private static int lastHandler;
    private static int[] lastArgs;
    private static int lastLength;
    private static boolean lastDataOk;
    private static int returnedCount;
    private static int expectedDataSeed;

    public static void main(final String[] args)
    {
        RankSupport.main("ReturnedMain", () ->
        {
            try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" +
                    job.rank());
                check(2 == job.size(), "ReturnedMain needs 2 ranks");
                final Endpoint endpoint = bundle.allocateEndpoint();
                endpoint.tag(Tags.fresh());
                if (0 == job.rank())
                {
                    rankZero(job, bundle, endpoint);
                }
                else
                {
                    rankOne(job, bundle, endpoint);
                }
            }
        });
    }

    private static void rankZero(final Job job, final Bundle bundle, final Endpoint endpoint)
    {
        endpoint.handler(0, (token, msg) -> fail("rank 0: returned message " + msg.returnStatus()));
        endpoint.handler(H_COUNTED, (token, msg) -> counted++);
        endpoint.handler(H_DONE, (token, msg) ->
        {
            done++;
            token.reply(H_DONE_REPLY, counted);
        });
        endpoint.allocateSegment(SEGMENT);
        Peers.mapAll(job, endpoint);
        job.barrier();                                          // B1: rank 1 starts

        awaitCount(bundle, () -> done >= 1, "rank 0: done 1");
        checkEquals(1, counted, "rank 0: runs of handler " + H_COUNTED + " (only the one good request)");

        endpoint.segment(new UnsafeBuffer(ByteBuffer.allocateDirect(SEGMENT)));
        job.barrier();                                          // B2: rank 0 has a private segment
        awaitCount(bundle, () -> done >= 2, "rank 0: done 2");
        checkEquals(1, counted, "rank 0: runs of handler " + H_COUNTED);

        endpoint.close();
        System.out.println("rank 0 closed its endpoint");
        job.barrier();                                          // B3: rank 0's endpoint is freed
        job.barrier();                                          // B4: rank 1 has seen EBADENDPOINT
        System.out.println("rank 0 ok");
    }

    private static void rankOne(final Job job, final Bundle bundle, final Endpoint endpoint)
    {
        endpoint.handler(0, ReturnedMain::onReturned);
        endpoint.handler(H_DONE_REPLY, (token, msg) -> doneReplies++);
        Peers.mapAll(job, endpoint);
        final long wrongTag = endpoint.translationTag(0) ^ 0x5A5A_5A5A_0000_0001L;
        check(Tags.NONE != wrongTag && Tags.ALL != wrongTag, "wrong tag is special");
        endpoint.map(WRONG_TAG_INDEX, endpoint.translationName(0), wrongTag);
        checkEquals(0, "shm".equals(endpoint.translationTransport(WRONG_TAG_INDEX)) ? 0 : 1,
            "transport of the wrong-tag translation");
        final UnsafeBuffer data = new UnsafeBuffer(ByteBuffer.allocateDirect(Am.MAX_MEDIUM));
        job.barrier();                                          // B1

        // Wrong tag, every category: EBADTAG, and handler 5 at rank 0 never runs.
        expectReturned(bundle, endpoint, () -> endpoint.request(WRONG_TAG_INDEX, H_COUNTED, 11, 12, 13),
            ReturnStatus.EBADTAG, Opcode.REQUEST_SHORT, H_COUNTED, new int[] { 11, 12, 13 }, 0, 0);
        RankSupport.fill(data, 0, 300, 4242);
        expectReturned(bundle, endpoint, () -> endpoint.requestMedium(WRONG_TAG_INDEX, H_COUNTED, data, 0, 300, 21),
            ReturnStatus.EBADTAG, Opcode.REQUEST_MEDIUM, H_COUNTED, new int[] { 21 }, 300, 4242);
        expectReturned(bundle, endpoint,
            () -> endpoint.requestLong(WRONG_TAG_INDEX, H_COUNTED, data, 0, 100, 0, 31, 32),
            ReturnStatus.EBADTAG, Opcode.REQUEST_LONG, H_COUNTED, new int[] { 31, 32 }, 100, 4242);

        // A handler rank 0 never installed: EBADHANDLER.
        expectReturned(bundle, endpoint, () -> endpoint.request(0, H_NEVER_INSTALLED, 41),
            ReturnStatus.EBADHANDLER, Opcode.REQUEST_SHORT, H_NEVER_INSTALLED, new int[] { 41 }, 0, 0);
        RankSupport.fill(data, 0, Am.MAX_MEDIUM, 4343);
        expectReturned(bundle, endpoint, () -> endpoint.requestMedium(0, H_NEVER_INSTALLED, data, 0, 1000, 42, 43),
            ReturnStatus.EBADHANDLER, Opcode.REQUEST_MEDIUM, H_NEVER_INSTALLED, new int[] { 42, 43 }, 1000, 4343);

        // Ending past rank 0's shared-memory segment (the sender sees it): EBADLENGTH; starting at its end: EBADSEGOFF.
        expectReturned(bundle, endpoint,
            () -> endpoint.requestLong(0, H_COUNTED, data, 0, 100, SEGMENT - 99, 51),
            ReturnStatus.EBADLENGTH, Opcode.REQUEST_LONG, H_COUNTED, new int[] { 51 }, 100, 4343);
        expectReturned(bundle, endpoint,
            () -> endpoint.requestLong(0, H_COUNTED, data, 0, 100, SEGMENT, 52),
            ReturnStatus.EBADSEGOFF, Opcode.REQUEST_LONG, H_COUNTED, new int[] { 52 }, 100, 4343);

        // One good request (handler 5 runs exactly once), then "done" to have rank 0 check its count.
        RankSupport.fill(data, 0, 100, 4444);
        checkEquals(Am.OK, endpoint.requestLong(0, H_COUNTED, data, 0, 100, SEGMENT - 100, 61), "good request");
        checkEquals(Am.OK, endpoint.request(0, H_DONE), "done 1");
        awaitCount(bundle, () -> doneReplies >= 1, "rank 1: reply to done 1");
        job.barrier();                                          // B2

        // Ending past rank 0's private segment (the receiver sees it): EBADLENGTH.
        expectReturned(bundle, endpoint,
            () -> endpoint.requestLong(0, H_COUNTED, data, 0, 100, SEGMENT - 99, 71),
            ReturnStatus.EBADLENGTH, Opcode.REQUEST_LONG, H_COUNTED, new int[] { 71 }, 0, 0);
        checkEquals(Am.OK, endpoint.request(0, H_DONE), "done 2");
        awaitCount(bundle, () -> doneReplies >= 2, "rank 1: reply to done 2");
        job.barrier();                                          // B3

        // Rank 0 freed its endpoint: EBADENDPOINT, for every category.
        expectReturned(bundle, endpoint, () -> endpoint.request(0, H_COUNTED, 81),
            ReturnStatus.EBADENDPOINT, Opcode.REQUEST_SHORT, H_COUNTED, new int[] { 81 }, 0, 0);
        RankSupport.fill(data, 0, 500, 4545);
        expectReturned(bundle, endpoint, () -> endpoint.requestMedium(0, H_COUNTED, data, 0, 500, 82),
            ReturnStatus.EBADENDPOINT, Opcode.REQUEST_MEDIUM, H_COUNTED, new int[] { 82 }, 500, 4545);
        expectReturned(bundle, endpoint, () -> endpoint.requestLong(0, H_COUNTED, data, 0, 10, 0, 83),
            ReturnStatus.EBADENDPOINT, Opcode.REQUEST_LONG, H_COUNTED, new int[] { 83 }, 10, 4545);
        checkEquals(11, returnedCount, "returned messages");
        checkEquals(11, sumReturned(endpoint), "returned counters");
        System.out.println("rank 1 ok: " + returnedCount + " returned messages");
        job.barrier();                                          // B4
    }

    private static long sumReturned(final Endpoint endpoint)
    {
        long sum = 0;
        for (final ReturnStatus status : ReturnStatus.values())
        {
            sum += endpoint.statistics().returned(status);
        }
        return sum;
    }

    private static void onReturned(final Token token, final Message msg)
    {
        returnedCount++;
        lastStatus = msg.returnStatus();
        lastOpcode = msg.opcode();
        lastHandler = msg.handlerIndex();
        check(msg.isReturned(), "handler 0 got a message that is not returned");
        lastArgs = new int[msg.argCount()];
        for (int i = 0; i < lastArgs.length; i++)
        {
            lastArgs[i] = msg.arg(i);
        }
        lastLength = msg.dataLength();
        lastDataOk = 0 == msg.dataLength() ||
            (null != msg.data() && RankSupport.mismatch(msg.data(), 0, msg.dataLength(), expectedDataSeed) < 0);
    }

    private interface Send
    {
        int send();
    }

    private static void expectReturned(
        final Bundle bundle, final Endpoint endpoint, final Send send, final ReturnStatus status,
        final Opcode opcode, final int handler, final int[] args, final int length, final int dataSeed)
    {
        final int before = returnedCount;
        final long countedBefore = endpoint.statistics().returned(status);
        expectedDataSeed = dataSeed;
        final String what = "rank 1: " + opcode + " to handler " + handler + " expecting " + status;
        checkEquals(Am.OK, send.send(), what + ": request returned");
        awaitCount(bundle, () -> returnedCount > before, what);
        checkEquals(before + 1, returnedCount, what + ": returned messages");
        check(status == lastStatus, what + ": came back with " + lastStatus);
        check(opcode == lastOpcode, what + ": came back as " + lastOpcode);
        checkEquals(handler, lastHandler, what + ": handler index");
        check(java.util.Arrays.equals(args, lastArgs), what + ": arguments " + java.util.Arrays.toString(lastArgs) +
            ", expected " + java.util.Arrays.toString(args));
        checkEquals(length, lastLength, what + ": returned data length");
        check(lastDataOk, what + ": returned data differs from what was sent");
        checkEquals(countedBefore + 1, endpoint.statistics().returned(status), what + ": returned(" + status + ")");
        System.out.println(what + ": ok (" + lastLength + " data bytes)");
    }

    private interface Condition
    {
        boolean done();
    }

    private static void awaitCount(final Bundle bundle, final Condition condition, final String what)
    {
        final long deadline = RankSupport.deadline(20_000);
        while (!condition.done())
        {
            if (0 == bundle.poll())
            {
                if (RankSupport.expired(deadline))
                {
                    fail(what + ": nothing after 20 s");
                }
                RankSupport.idle(bundle, 1000);
            }
        }
    }
}
