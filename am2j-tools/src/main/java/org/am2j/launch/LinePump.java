package org.am2j.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * Copies one output stream of a rank to the launcher's stream of the same kind, a line at a time, each line prefixed
 * with {@code [R] } ({@link PrefixedLine}: whole lines, never interleaved; a last line without a newline gets one).
 */
final class LinePump implements Runnable
{
    private final InputStream in;
    private final PrefixedLine line;

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
        this(in, target, PrefixedLine.prefix(label));
    }

    private LinePump(final InputStream in, final PrintStream target, final byte[] prefix)
    {
        this.in = in;
        this.line = new PrefixedLine(target, prefix);
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
                    line.write(chunk[i]);
                }
            }
        }
        catch (final IOException ignore)
        {
            // the rank's stream broke: the rank is gone, what was read is written below
        }
        line.finish();
    }
}
