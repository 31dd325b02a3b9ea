package org.am2j.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Copies one output stream of a rank to the launcher's stream of the same kind, a line at a time, each line prefixed
 * with {@code [R] }. A line is written whole while holding the target stream's lock, so lines of different ranks never
 * interleave. Bytes are copied as they are (no charset decoding); a line longer than {@value #MAX_LINE} bytes is
 * split, and a last line without a newline gets one.
 */
final class LinePump implements Runnable
{
    /** Longest line kept whole. */
    static final int MAX_LINE = 1024 * 1024;

    private final InputStream in;
    private final PrintStream target;
    private final byte[] prefix;
    private byte[] line = new byte[256];
    private int length;

    /**
     * @param in     the rank's stream.
     * @param target where its lines go.
     * @param rank   the rank, for the prefix.
     */
    LinePump(final InputStream in, final PrintStream target, final int rank)
    {
        this(in, target, Integer.toString(rank));
    }

    /**
     * @param in     the process's stream.
     * @param target where its lines go.
     * @param label  what the prefix says ({@code [label] }).
     */
    LinePump(final InputStream in, final PrintStream target, final String label)
    {
        this(in, target, ("[" + label + "] ").getBytes(StandardCharsets.US_ASCII));
    }

    private LinePump(final InputStream in, final PrintStream target, final byte[] prefix)
    {
        this.in = in;
        this.target = target;
        this.prefix = prefix;
    }

    /**
     * @param in     the stream of a process that prefixes its lines itself (a JVM of several ranks, {@link RankOutput}).
     * @param target where its lines go, as they are.
     * @return a pump that adds no prefix.
     */
    static LinePump unprefixed(final InputStream in, final PrintStream target)
    {
        return new LinePump(in, target, new byte[0]);
    }

    /**
     * Copy until the rank's stream ends.
     */
    @Override
    public void run()
    {
        final byte[] chunk = new byte[8192];
        try (final InputStream stream = in)
        {
            int n;
            while ((n = stream.read(chunk)) >= 0)
            {
                for (int i = 0; i < n; i++)
                {
                    final byte b = chunk[i];
                    if (b == '\n')
                    {
                        emit();
                    }
                    else
                    {
                        append(b);
                    }
                }
            }
        }
        catch (final IOException ignore)
        {
            // the rank's stream broke: the rank is gone, what was read is written below
        }
        if (length > 0)
        {
            emit();
        }
    }

    private void append(final byte b)
    {
        if (length == line.length)
        {
            if (length >= MAX_LINE)
            {
                emit();
            }
            else
            {
                line = Arrays.copyOf(line, Math.min(MAX_LINE, line.length * 2));
            }
        }
        line[length++] = b;
    }

    private void emit()
    {
        synchronized (target)
        {
            target.write(prefix, 0, prefix.length);
            target.write(line, 0, length);
            target.write('\n');
            target.flush();
        }
        length = 0;
    }
}
