package org.am2j.net;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.concurrent.locks.LockSupport;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ProcessIdentity;

import static org.am2j.net.NicFileDescriptor.*;

/**
 * A host process's link to the shared NIC that serves it: the NIC's control file mapped ({@link NicFileDescriptor}),
 * its command ring, the wake-up of a NIC asleep in its selector, and the watch on the NIC process. Any host thread.
 */
final class SharedNicLink implements AutoCloseable
{
    final Path directory;
    private final Path file;
    private final int index;
    private final long waitNanos;
    private final UnsafeBuffer control;
    private final ManyToOneRingBuffer commands;
    private final long nicPid;
    final long nicId;
    final String published;
    private final InetSocketAddress nicSocket;
    private final BooleanSupplier nicAlive;
    private final WakeSender waker = new WakeSender();
    private final Object wakeLock = new Object();
    private volatile boolean nicDead;

    /**
     * Map the NIC's control file, waiting up to {@code config.waitMs} for the NIC process to make it and serve.
     *
     * @param config where the NIC is.
     * @throws AmException {@link AmError#RESOURCE} naming the file when the NIC does not serve in time.
     */
    SharedNicLink(final SharedNicConfig config)
    {
        this.directory = config.directory;
        this.index = config.nicIndex;
        this.file = directory.resolve(fileName(index));
        this.waitNanos = config.waitMs * 1_000_000L;
        if (config.autostart && !Files.exists(file))
        {
            NicStarter.startIfFirst(config);
        }
        final long deadline = System.nanoTime() + waitNanos;
        UnsafeBuffer mapped = null;
        while (null == mapped)
        {
            mapped = tryMap(file);
            if (null != mapped && STATE_SERVING == mapped.getIntVolatile(STATE_OFFSET))
            {
                break;
            }
            mapped = null;
            if (System.nanoTime() - deadline > 0)
            {
                throw new AmException(AmError.RESOURCE, "am2j net: no shared NIC serves " + file + " after " +
                    config.waitMs + " ms (am2j.net.nicWaitMs): start the node's NIC processes first " +
                    "(bin/am2j run --nics-per-node, or java org.am2j.net.SharedNicProcess " + directory + " " + index +
                    "), or set am2j.net.nicsPerNode=0 for a NIC per process");
            }
            LockSupport.parkNanos(5_000_000L);
        }
        this.control = mapped;
        if (MAGIC != control.getInt(MAGIC_OFFSET) || VERSION != control.getInt(VERSION_OFFSET))
        {
            throw new AmException(AmError.RESOURCE, "am2j net: " + file + " is not a shared NIC's control file of " +
                "this am2j version");
        }
        this.nicPid = control.getLong(PID_OFFSET);
        this.nicId = control.getLong(NIC_ID_OFFSET);
        this.published = control.getStringWithoutLengthUtf8(ADDRESS_OFFSET, control.getInt(ADDRESS_LENGTH_OFFSET));
        this.nicSocket = PeerTable.parse(published);
        this.commands = new ManyToOneRingBuffer(new UnsafeBuffer(control, COMMAND_RING_OFFSET,
            COMMAND_RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH));
        this.nicAlive = ProcessIdentity.watch(nicPid, ProcessIdentity.UNKNOWN_START_TIME);
    }

    private static UnsafeBuffer tryMap(final Path file)
    {
        if (!Files.exists(file))
        {
            return null;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            if (channel.size() != length())
            {
                return null;
            }
            return new UnsafeBuffer(channel.map(FileChannel.MapMode.READ_WRITE, 0, length()));
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    /**
     * @return what to tell the user about this NIC: which process and file.
     */
    String describe()
    {
        return "shared NIC " + index + " (pid " + nicPid + ", " + file + ")";
    }

    /**
     * @return true once the NIC process is known gone (checked by {@link #checkAlive()}).
     */
    boolean nicDead()
    {
        return nicDead;
    }

    /**
     * Look whether the NIC process still runs (one read of its {@code /proc} entry on Linux). Serialised: the watch
     * reads into one buffer, and the host threads of several endpoints (ranks held as threads of one JVM) share the
     * link; it runs now and then in an idle poll and while waiting for a command, never per message.
     *
     * @return false once it is gone.
     */
    synchronized boolean checkAlive()
    {
        if (!nicDead && !nicAlive.getAsBoolean())
        {
            nicDead = true;
        }
        return !nicDead;
    }

    /**
     * Take the NIC process for gone without waiting for its watch (a test's NIC agent on a thread has no process).
     */
    void declareDead()
    {
        nicDead = true;
    }

    /**
     * A record or a command was committed: wake the NIC when it sleeps.
     */
    void ring()
    {
        // Full fence between the caller's commit (release store) and the read of the flag: the Dekker pair with the
        // NIC, which stores the flag and then looks at the rings.
        VarHandle.fullFence();
        if (0 != control.getIntVolatile(SLEEPING_OFFSET))
        {
            synchronized (wakeLock)
            {
                waker.wake(nicSocket);
            }
        }
    }

    /**
     * Send a command and wait for its answer in an endpoint's block.
     *
     * @param type     {@link NicCommandDescriptor} command.
     * @param length   bytes of the command.
     * @param writer   writes the command after its sequence (buffer, offset of the command).
     * @param block    the endpoint's block the answer comes in, or null for none.
     * @param sequence the command's sequence (the caller's, unique per block), or 0 for none.
     * @return the answer's result (0 without one).
     * @throws AmException when the NIC does not answer in time or is gone.
     */
    int command(final int type, final int length, final Consumer<CommandBuffer> writer, final AtomicBuffer block,
        final long sequence)
    {
        final long deadline = System.nanoTime() + waitNanos;
        int at;
        while ((at = commands.tryClaim(type, length)) < 0)
        {
            awaitStep(deadline, "room in its command ring");
        }
        final CommandBuffer command = new CommandBuffer(commands.buffer(), at);
        command.buffer().putLong(at + NicCommandDescriptor.SEQUENCE_OFFSET, sequence);
        try
        {
            writer.accept(command);
        }
        catch (final RuntimeException | Error ex)
        {
            commands.abort(at);
            throw ex;
        }
        // Commit: an ordered store of the record's length, after its contents.
        commands.commit(at);
        ring();
        if (null == block)
        {
            return 0;
        }
        while (block.getLongVolatile(EndpointBlockDescriptor.REPLY_SEQUENCE_OFFSET) != sequence)
        {
            awaitStep(deadline, "an answer to a command");
        }
        return block.getInt(EndpointBlockDescriptor.REPLY_RESULT_OFFSET);
    }

    private void awaitStep(final long deadline, final String what)
    {
        if (!checkAlive())
        {
            throw new AmException(AmError.RESOURCE, "am2j net: the " + describe() + " died");
        }
        if (System.nanoTime() - deadline > 0)
        {
            throw new AmException(AmError.RESOURCE, "am2j net: the " + describe() + " gave no " + what + " within " +
                waitNanos / 1_000_000 + " ms (am2j.net.nicWaitMs)");
        }
        ring();
        LockSupport.parkNanos(20_000L);
    }

    /**
     * @param text a string.
     * @return its UTF-8 bytes.
     */
    static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close()
    {
        waker.close();
    }

    /**
     * Where a command is written: the ring's buffer and the command's offset.
     */
    record CommandBuffer(MutableDirectBuffer buffer, int offset)
    {
    }
}
