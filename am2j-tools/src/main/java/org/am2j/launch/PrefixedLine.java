package org.am2j.launch;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The line a rank is writing, copied whole, prefixed, to a stream of the launcher ({@link LinePump}) or of a JVM of
 * several ranks ({@link RankOutput}): a line is written while holding the target stream's lock, so lines of different
 * ranks never interleave, and in one write of the prefix, the line and its newline, so that a launcher that forwards
 * the JVM's output in the chunks it reads ({@code mpirun}, {@code srun}) does not split it between another process's
 * lines. Bytes are copied as they are (no charset decoding); a line longer than {@link #MAX_LINE} bytes is split. Not
 * thread-safe.
 */
final class PrefixedLine
{
    /** Longest line kept whole. */
    static final int MAX_LINE = 1024 * 1024;

    private final PrintStream target;
    private final int start;
    /** The prefix, then the line's bytes, then room for its newline. */
    private byte[] line;
    private int length;

    /**
     * @param target where the lines go.
     * @param prefix what goes in front of each, e.g. {@code [3] }, in bytes; empty for none.
     */
    PrefixedLine(final PrintStream target, final byte[] prefix)
    {
        this.target = target;
        this.start = prefix.length;
        this.line = Arrays.copyOf(prefix, prefix.length + 256);
    }

    /**
     * @param label what the prefix says.
     * @return {@code [label] } in bytes.
     */
    static byte[] prefix(final Object label)
    {
        return ("[" + label + "] ").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @param b the next byte of the rank's stream: a newline writes the line.
     */
    void write(final byte b)
    {
        if (b == '\n')
        {
            emit();
            return;
        }
        if (length == MAX_LINE)
        {
            emit();
        }
        else if (start + length + 1 == line.length)
        {
            // one byte stays free for the newline
            line = Arrays.copyOf(line, start + Math.min(MAX_LINE, 2 * (line.length - start)) + 1);
        }
        line[start + length++] = b;
    }

    /**
     * Write the unfinished last line, if any, with a newline.
     */
    void finish()
    {
        if (length > 0)
        {
            emit();
        }
    }

    private void emit()
    {
        line[start + length] = '\n';
        synchronized (target)
        {
            target.write(line, 0, start + length + 1);
            target.flush();
        }
        length = 0;
    }
}
