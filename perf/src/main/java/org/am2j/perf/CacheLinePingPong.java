package org.am2j.perf;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.api.Am;

/**
 * The machine's limit for a round trip between two processes: a cache-line ping-pong over a memory-mapped file,
 * with no messaging layer. Two processes (or threads) map the same file; one 64-byte aligned long at offset
 * {@value #SEQUENCE_OFFSET} of it (a mapping starts on a page boundary) carries a sequence number:
 * <pre>
 *   initiator                                responder
 *   write s + 1  ----- cache line ----->     spin until s + 1, then write s + 2
 *   spin until s + 2  <----------------
 * </pre>
 * Each side spins with {@link Thread#onSpinWait()} and reads with acquire, writes with release semantics (plain
 * loads and stores on x86), so a round trip is two cache-line transfers between the cores. Both sides keep the last
 * sequence number of the pair in step: a session of n round trips starting at s ends at s + 2n on both sides, and
 * the next session starts there, so the line never needs resetting. The two sides must run sessions of the same
 * lengths in the same order.
 * <p>
 * The limit of a medium round trip of B bytes ({@link #mediumRoundTrips}) passes the data page back and forth: each
 * side writes the B bytes of its round's {@link MediumPattern} there before it writes the sequence number, and the
 * other checksums all B bytes after it has seen it, as the AM ranks' medium handlers do.
 * <p>
 * File layout ({@value #FILE_LENGTH} bytes, created zero-filled, mode 0600):
 * <pre>
 *   0        8                                       4096                           4096 + Am.MAX_MEDIUM
 *   +--------+---------------------------------------+------------------------------+
 *   |sequence|  unused (the rest of the line, page)  |  data of a medium round trip |
 *   +--------+---------------------------------------+------------------------------+
 * </pre>
 */
final class CacheLinePingPong implements AutoCloseable
{
    /** Offset of the data of a medium round trip: the second page. */
    static final int DATA_OFFSET = 4096;
    /** Length of the mapped file: a page, then the largest medium message's data. */
    static final int FILE_LENGTH = DATA_OFFSET + Am.MAX_MEDIUM;
    /** Offset of the sequence number: the start of the first cache line. */
    static final int SEQUENCE_OFFSET = 0;

    private static final VarHandle SEQUENCE =
        MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final Path DEV_SHM = Path.of("/dev/shm");
    private static final AtomicLong FILE_COUNTER = new AtomicLong();

    private final FileChannel channel;
    private final ByteBuffer line;
    private final UnsafeBuffer data;
    private final MediumPattern pattern = new MediumPattern();
    private long sequence;

    private CacheLinePingPong(final FileChannel channel, final ByteBuffer line)
    {
        this.channel = channel;
        this.line = line;
        this.data = new UnsafeBuffer(line, DATA_OFFSET, Am.MAX_MEDIUM);
    }

    /**
     * Create a zero-filled file for a ping-pong: in {@code /dev/shm} when it is there, else in the temporary
     * directory. The caller deletes it.
     *
     * @return the file's path.
     * @throws IOException when it cannot be created.
     */
    static Path createFile() throws IOException
    {
        final Path dir = Files.isDirectory(DEV_SHM) && Files.isWritable(DEV_SHM) ?
            DEV_SHM : Path.of(System.getProperty("java.io.tmpdir"));
        final Path file = dir.resolve("am2j-pingpong-" + ProcessHandle.current().pid() + "-" +
            FILE_COUNTER.incrementAndGet() + ".line");
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix"))
        {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        else
        {
            Files.createFile(file);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final ByteBuffer zeros = ByteBuffer.allocate(FILE_LENGTH);
            while (zeros.hasRemaining())
            {
                channel.write(zeros);
            }
        }
        catch (final IOException ex)
        {
            Files.deleteIfExists(file);
            throw ex;
        }
        return file;
    }

    /**
     * Map a file made by {@link #createFile()}.
     *
     * @param file the file.
     * @return the mapped ping-pong, at sequence 0.
     * @throws IOException when it cannot be mapped.
     */
    static CacheLinePingPong map(final Path file) throws IOException
    {
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try
        {
            if (channel.size() < FILE_LENGTH)
            {
                throw new IOException(file + " has " + channel.size() + " bytes, not " + FILE_LENGTH);
            }
            final ByteBuffer line = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_LENGTH);
            return new CacheLinePingPong(channel, line);
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * The initiator's side of a session: n round trips, each timed with {@link System#nanoTime()}.
     *
     * @param n         round trips.
     * @param histogram receives the time of each round trip in ns.
     */
    void roundTrips(final int n, final Histogram histogram)
    {
        final ByteBuffer line = this.line;
        long s = sequence;
        for (int i = 0; i < n; i++)
        {
            final long ping = s + 1;
            final long pong = s + 2;
            final long start = System.nanoTime();
            SEQUENCE.setRelease(line, SEQUENCE_OFFSET, ping);
            while ((long)SEQUENCE.getAcquire(line, SEQUENCE_OFFSET) != pong)
            {
                Thread.onSpinWait();
            }
            LatencySummary.record(histogram, System.nanoTime() - start);
            s = pong;
        }
        sequence = s;
    }

    /**
     * The responder's side of a session of n round trips.
     *
     * @param n round trips.
     */
    void respond(final int n)
    {
        final ByteBuffer line = this.line;
        long s = sequence;
        for (int i = 0; i < n; i++)
        {
            final long ping = s + 1;
            while ((long)SEQUENCE.getAcquire(line, SEQUENCE_OFFSET) != ping)
            {
                Thread.onSpinWait();
            }
            s = ping + 1;
            SEQUENCE.setRelease(line, SEQUENCE_OFFSET, s);
        }
        sequence = s;
    }

    /**
     * The initiator's side of a session of n medium round trips, each timed: write the data of round s + 1, then
     * s + 1; spin until s + 2, then check the data of round s + 2.
     *
     * @param n         round trips.
     * @param size      bytes of the data each way, 0 to {@link Am#MAX_MEDIUM}.
     * @param histogram receives the time of each round trip in ns.
     * @throws IllegalStateException when the data of a round did not hold its pattern.
     */
    void mediumRoundTrips(final int n, final int size, final Histogram histogram)
    {
        final ByteBuffer line = this.line;
        long s = sequence;
        int bad = 0;
        for (int i = 0; i < n; i++)
        {
            final long ping = s + 1;
            final long pong = s + 2;
            final long start = System.nanoTime();
            MediumPattern.fill(data, size, (int)ping);
            // Release: whoever reads this sequence number reads the data written before it.
            SEQUENCE.setRelease(line, SEQUENCE_OFFSET, ping);
            while ((long)SEQUENCE.getAcquire(line, SEQUENCE_OFFSET) != pong)
            {
                Thread.onSpinWait();
            }
            bad += pattern.matches(data, size, (int)pong) ? 0 : 1;
            LatencySummary.record(histogram, System.nanoTime() - start);
            s = pong;
        }
        sequence = s;
        checkData(bad, n);
    }

    /**
     * The responder's side of a session of n medium round trips: spin until s + 1, check the data of round s + 1,
     * write the data of round s + 2, then s + 2.
     *
     * @param n    round trips.
     * @param size bytes of the data each way, as the initiator's.
     * @throws IllegalStateException when the data of a round did not hold its pattern.
     */
    void respondMedium(final int n, final int size)
    {
        final ByteBuffer line = this.line;
        long s = sequence;
        int bad = 0;
        for (int i = 0; i < n; i++)
        {
            final long ping = s + 1;
            while ((long)SEQUENCE.getAcquire(line, SEQUENCE_OFFSET) != ping)
            {
                Thread.onSpinWait();
            }
            bad += pattern.matches(data, size, (int)ping) ? 0 : 1;
            s = ping + 1;
            MediumPattern.fill(data, size, (int)s);
            // Release, as the initiator's: the data is there for whoever reads this sequence number.
            SEQUENCE.setRelease(line, SEQUENCE_OFFSET, s);
        }
        sequence = s;
        checkData(bad, n);
    }

    private static void checkData(final int bad, final int n)
    {
        if (0 != bad)
        {
            throw new IllegalStateException(bad + " of " + n + " medium round trips did not find their round's data");
        }
    }

    /**
     * Close the file; the mapping goes when it is collected.
     */
    @Override
    public void close()
    {
        // nothing was written through the channel
        CloseHelper.quietClose(channel);
    }
}
