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

    private LinePump(final InputStream in, final PrintStream target, final byte[] prefix)
    {
        this.in = in;
        this.line = new PrefixedLine(target, prefix);
    }

    /**
     * Start the pumps of a process in daemon threads: its standard output to {@code out}, its standard error to
     * {@code err}, each line prefixed with {@code [label] }.
     *
     * @return the two threads.
     */
    static Thread[] start(final Process process, final PrintStream out, final PrintStream err, final String label)
    {
        return start(process, out, err, label, PrefixedLine.prefix(label));
    }

    /**
     * Start the pumps of a process that prefixes its lines itself (a JVM of several ranks, {@link RankOutput}): its
     * lines are copied as they are.
     *
     * @param label names the pumps' threads.
     * @return the two threads.
     */
    static Thread[] startUnprefixed(final Process process, final PrintStream out, final PrintStream err,
        final String label)
    {
        return start(process, out, err, label, new byte[0]);
    }

    private static Thread[] start(final Process process, final PrintStream out, final PrintStream err,
        final String label, final byte[] prefix)
    {
        final String name = "am2j-run-" + label.replace(' ', '-');
        final Thread[] threads = {
            new Thread(new LinePump(process.getInputStream(), out, prefix), name + "-out"),
            new Thread(new LinePump(process.getErrorStream(), err, prefix), name + "-err") };
        for (final Thread thread : threads)
        {
            thread.setDaemon(true);
            thread.start();
        }
        return threads;
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
