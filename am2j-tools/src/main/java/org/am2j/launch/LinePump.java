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
     * @param in     the process's stream.
     * @param target where its lines go.
     * @param label  what the prefix says ({@code [label] }).
     */
    LinePump(final InputStream in, final PrintStream target, final String label)
    {
        this.in = in;
        this.target = target;
        this.prefix = ("[" + label + "] ").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Copy until the rank's stream ends.
     */
    /**
     * Start the pumps of a process in daemon threads: its standard output to {@code out}, its standard error to
     * {@code err}, each line prefixed with {@code [label] }.
     *
     * @return the two threads.
     */
    static Thread[] start(final Process process, final PrintStream out, final PrintStream err, final String label)
    {
        final String name = "am2j-run-" + label.replace(' ', '-');
        final Thread[] threads = {
            new Thread(new LinePump(process.getInputStream(), out, label), name + "-out"),
            new Thread(new LinePump(process.getErrorStream(), err, label), name + "-err") };
        for (final Thread thread : threads)
        {
            thread.setDaemon(true);
            thread.start();
        }
        return threads;
    }

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
