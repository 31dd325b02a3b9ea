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
 * File layout ({@value #FILE_LENGTH} bytes, created zero-filled, mode 0600):
 * <pre>
 *   0        8                                                    4096
 *   +--------+-------------------------------------------------------+
 *   |sequence|  unused (the rest of the cache line and the page)     |
 *   +--------+-------------------------------------------------------+
 * </pre>
 */
final class CacheLinePingPong implements AutoCloseable
{
    /** Length of the mapped file: one page. */
    static final int FILE_LENGTH = 4096;
    /** Offset of the sequence number: the start of the first cache line. */
    static final int SEQUENCE_OFFSET = 0;

    private static final VarHandle SEQUENCE =
        MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final Path DEV_SHM = Path.of("/dev/shm");
    private static final AtomicLong FILE_COUNTER = new AtomicLong();

    private final FileChannel channel;
    private final ByteBuffer line;
    private long sequence;

    private CacheLinePingPong(final FileChannel channel, final ByteBuffer line)
    {
        this.channel = channel;
        this.line = line;
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
     * Close the file; the mapping goes when it is collected.
     */
    @Override
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // nothing was written through the channel
        }
    }
}
