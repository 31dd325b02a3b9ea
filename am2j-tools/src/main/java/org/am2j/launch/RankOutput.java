package org.am2j.launch;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.am2j.spi.RankScope;

/**
 * One standard stream of a JVM that holds several ranks as threads ({@link RankThreads}), shared by them: what a
 * thread writes goes to a line buffer of the rank it works for ({@link RankScope}), and each whole line is written to
 * the JVM's real stream prefixed with {@code [R] }, as the launcher prefixes the lines of a rank of its own JVM
 * ({@link LinePump}, which passes this JVM's lines on as they are). A thread of no rank writes under the label of the
 * JVM's ranks, {@code [F-L] }. A line longer than {@link LinePump#MAX_LINE} bytes is split; {@link #finish(int)}
 * writes a rank's unfinished last line.
 */
final class RankOutput extends OutputStream
{
    private static final int NO_RANK = -1;

    private final PrintStream target;
    private final byte[] jvmPrefix;
    private final Map<Integer, Line> lines = new HashMap<>();

    /**
     * @param target    the JVM's real stream.
     * @param jvmLabel  what the prefix of a line of no rank says.
     */
    RankOutput(final PrintStream target, final String jvmLabel)
    {
        this.target = target;
        this.jvmPrefix = prefix(jvmLabel);
    }

    /**
     * @param target   the JVM's real stream.
     * @param jvmLabel what the prefix of a line of no rank says.
     * @return a print stream over a new rank output, flushed at every line.
     */
    static PrintStream printStream(final PrintStream target, final String jvmLabel)
    {
        return new PrintStream(new RankOutput(target, jvmLabel), true);
    }

    @Override
    public void write(final int b)
    {
        write(new byte[]{ (byte)b }, 0, 1);
    }

    @Override
    public synchronized void write(final byte[] bytes, final int offset, final int length)
    {
        final RankScope scope = RankScope.current();
        final int rank = null != scope ? scope.rank() : NO_RANK;
        final Line line = lines.computeIfAbsent(rank, r -> new Line(r == NO_RANK ? jvmPrefix : prefix(r)));
        for (int i = offset; i < offset + length; i++)
        {
            final byte b = bytes[i];
            if (b == '\n')
            {
                line.emit(target);
            }
            else
            {
                line.append(b, target);
            }
        }
    }

    /**
     * Write a rank's unfinished last line, if any.
     *
     * @param rank the rank.
     */
    synchronized void finish(final int rank)
    {
        final Line line = lines.get(rank);
        if (null != line && line.length > 0)
        {
            line.emit(target);
        }
    }

    /**
     * Write every unfinished last line, before the JVM exits.
     */
    synchronized void finishAll()
    {
        for (final Line line : lines.values())
        {
            if (line.length > 0)
            {
                line.emit(target);
            }
        }
        target.flush();
    }

    private static byte[] prefix(final Object label)
    {
        return ("[" + label + "] ").getBytes(StandardCharsets.US_ASCII);
    }

    /** The line a rank is writing. */
    private static final class Line
    {
        private final byte[] prefix;
        private byte[] bytes = new byte[128];
        private int length;

        Line(final byte[] prefix)
        {
            this.prefix = prefix;
        }

        void append(final byte b, final PrintStream target)
        {
            if (length == bytes.length)
            {
                if (length >= LinePump.MAX_LINE)
                {
                    emit(target);
                }
                else
                {
                    bytes = Arrays.copyOf(bytes, Math.min(LinePump.MAX_LINE, bytes.length * 2));
                }
            }
            bytes[length++] = b;
        }

        void emit(final PrintStream target)
        {
            synchronized (target)
            {
                target.write(prefix, 0, prefix.length);
                target.write(bytes, 0, length);
                target.write('\n');
                target.flush();
            }
            length = 0;
        }
    }
}
