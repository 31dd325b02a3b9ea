package org.am2j.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.Endpoint;
import org.am2j.api.EventMask;
import org.am2j.api.Tags;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.ShmDirectories;
import org.am2j.spmd.Job;

/**
 * Helpers for the rank programs of the multi-JVM tests: deterministic patterns, checks that end the rank with status
 * 1 and a message, bounded waits.
 */
public final class RankSupport
{
    /** A check failed in a rank program: thrown out of handlers and polls, caught by {@link #main}. */
    public static final class RankFailure extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        RankFailure(final String message)
        {
            super(message);
        }
    }

    /** The body of a rank program. */
    public interface Body
    {
        void run() throws Exception;
    }

    private RankSupport()
    {
    }

    /**
     * Run a rank program: any failure prints {@code FAIL <program>: <message>} and exits with status 1.
     */
    public static void main(final String program, final Body body)
    {
        try
        {
            body.run();
        }
        catch (final Throwable t)
        {
            System.out.flush();
            System.err.println("FAIL " + program + " (pid " + ProcessIdentity.currentPid() + "): " + t);
            t.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
    }

    public static RankFailure fail(final String message)
    {
        throw new RankFailure(message);
    }

    public static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            fail(message);
        }
    }

    public static void checkEquals(final long expected, final long actual, final String what)
    {
        if (expected != actual)
        {
            fail(what + ": expected " + expected + ", got " + actual);
        }
    }

    /**
     * @return a well-mixed deterministic int for (a, b, c, salt).
     */
    public static int pattern(final int a, final int b, final int c, final int salt)
    {
        int h = a * 0x9E3779B9 + b * 0x85EBCA6B + c * 0xC2B2AE35 + salt * 0x27D4EB2F;
        h ^= h >>> 16;
        h *= 0x7FEB352D;
        h ^= h >>> 15;
        h *= 0x846CA68B;
        h ^= h >>> 16;
        return h;
    }

    public static byte dataByte(final int seed, final int index)
    {
        return (byte)(seed + index * 31 + (index >>> 8) * 7);
    }

    public static void fill(final MutableDirectBuffer buffer, final int offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(offset + i, dataByte(seed, i));
        }
    }

    /**
     * @return -1 when the bytes match the pattern, else the first index that differs.
     */
    public static int mismatch(final DirectBuffer buffer, final int offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != dataByte(seed, i))
            {
                return i;
            }
        }
        return -1;
    }

    public static void checkData(
        final DirectBuffer buffer, final int offset, final int length, final int seed, final String what)
    {
        if (length > 0 && null == buffer)
        {
            fail(what + ": no data buffer for " + length + " bytes");
        }
        if (null != buffer && buffer.capacity() < offset + length)
        {
            fail(what + ": data buffer of capacity " + buffer.capacity() + " for " + length + " bytes at " + offset);
        }
        final int at = mismatch(buffer, offset, length, seed);
        if (at >= 0)
        {
            fail(what + ": byte " + at + " of " + length + " is " + buffer.getByte(offset + at) + ", expected " +
                dataByte(seed, at));
        }
    }

    /**
     * Wait for a message without burning the CPU the other ranks of this 2-vCPU machine need.
     */
    public static void idle(final Bundle bundle, final long micros)
    {
        bundle.eventMask(EventMask.NOTEMPTY);
        if (!bundle.waitSema(micros, TimeUnit.MICROSECONDS))
        {
            bundle.eventMask(EventMask.NOEVENTS);
        }
    }

    public static long deadline(final long millis)
    {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    public static boolean expired(final long deadlineNs)
    {
        return System.nanoTime() - deadlineNs > 0;
    }

    /**
     * Start a rank of a two-rank program: print its line ({@code job= pid= rank=}, which the launching test reads),
     * check that the job has two ranks, and allocate an endpoint with a fresh tag.
     */
    public static Endpoint twoRankEndpoint(final String program, final Job job, final Bundle bundle)
    {
        System.out.println("job=" + job.jobId() + " pid=" + ProcessIdentity.currentPid() + " rank=" + job.rank());
        check(2 == job.size(), program + " needs 2 ranks");
        final Endpoint endpoint = bundle.allocateEndpoint();
        endpoint.tag(Tags.fresh());
        return endpoint;
    }

    /**
     * Poll until the condition holds; fail with the message the supplier makes once a poll finds nothing past the
     * deadline.
     */
    public static void pollUntil(
        final Bundle bundle, final BooleanSupplier condition, final long deadlineNs, final Supplier<String> failure)
    {
        while (!condition.getAsBoolean())
        {
            if (0 == bundle.poll() && expired(deadlineNs))
            {
                throw fail(failure.get());
            }
        }
    }

    /**
     * Poll until {@code seen} reaches {@code expected}, or until it has not moved for {@code quietMillis} and a poll
     * finds nothing; fail with the message when neither happens within {@code timeoutMillis}.
     */
    public static void awaitQuiet(
        final Bundle bundle,
        final LongSupplier seen,
        final long expected,
        final long quietMillis,
        final long timeoutMillis,
        final String failure)
    {
        final long quietNs = TimeUnit.MILLISECONDS.toNanos(quietMillis);
        long last = -1;
        long quietSince = System.nanoTime();
        final long deadline = deadline(timeoutMillis);
        while (seen.getAsLong() < expected)
        {
            final long now = seen.getAsLong();
            if (now != last)
            {
                last = now;
                quietSince = System.nanoTime();
            }
            if (0 == bundle.poll() && System.nanoTime() - quietSince > quietNs)
            {
                return;
            }
            if (expired(deadline))
            {
                throw fail(failure);
            }
        }
    }

    /**
     * Send request {@code i} to rank 0, a short, medium or long one by turn ({@code i % 3}), with {@code i} as its one
     * argument: a medium request carries the first {@code 1 + i % MAX_MEDIUM} bytes of {@code data}, a long one the
     * first {@code longLength} bytes, written at {@code (i * longLength) % segmentLength} in rank 0's segment. Anything
     * but {@link Am#OK} fails the rank.
     */
    public static void requestOfEachKind(
        final Endpoint endpoint,
        final int handler,
        final DirectBuffer data,
        final int i,
        final int longLength,
        final int segmentLength)
    {
        final int status;
        switch (i % 3)
        {
            case 0:
                status = endpoint.request(0, handler, i);
                break;
            case 1:
                status = endpoint.requestMedium(0, handler, data, 0, 1 + i % Am.MAX_MEDIUM, i);
                break;
            default:
                status = endpoint.requestLong(0, handler, data, 0, longLength, (i * longLength) % segmentLength, i);
                break;
        }
        checkEquals(Am.OK, status, "rank 1: request " + i);
    }

    /**
     * @return the names of this process's shared-memory files, sorted: the files of the job directory and the sealed
     * memory files this process holds open (shown as {@code memfd:<name>}).
     */
    public static String listSharedFiles(final String job)
    {
        final StringBuilder names = new StringBuilder(listJobDirectory(job));
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd")))
        {
            for (final String target : fds.map(RankSupport::linkTarget).sorted().toList())
            {
                if (target.startsWith("/memfd:am2j-"))
                {
                    names.append(names.length() == 0 ? "" : " ").append(target.substring(1));
                }
            }
        }
        catch (final IOException ex)
        {
            names.append(" ?").append(ex);
        }
        return names.toString();
    }

    private static String linkTarget(final Path link)
    {
        try
        {
            return Files.readSymbolicLink(link).toString();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    /**
     * @return the files of the job directory (names), sorted, or an empty string when it does not exist.
     */
    public static String listJobDirectory(final String job)
    {
        final Path dir = ShmDirectories.userRoot().resolve(job);
        if (!Files.isDirectory(dir))
        {
            return "";
        }
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.joining(" "));
        }
        catch (final IOException ex)
        {
            return "?" + ex;
        }
    }
}
