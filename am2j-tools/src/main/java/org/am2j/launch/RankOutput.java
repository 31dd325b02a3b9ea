package org.am2j.launch;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

import org.am2j.spi.RankScope;

/**
 * One standard stream of a JVM that holds several ranks as threads ({@link RankThreads}), shared by them: what a
 * thread writes goes to a line of the rank it works for ({@link RankScope}), and each whole line is written to the
 * JVM's real stream prefixed with {@code [R] } ({@link PrefixedLine}), as the launcher prefixes the lines of a rank of
 * its own JVM ({@link LinePump}, which passes this JVM's lines on as they are). A thread of no rank writes under the
 * label of the JVM's ranks, {@code [F-L] }. {@link #finish(int)} writes a rank's unfinished last line.
 */
final class RankOutput extends OutputStream
{
    private static final int NO_RANK = -1;

    private final PrintStream target;
    private final byte[] jvmPrefix;
    private final Map<Integer, PrefixedLine> lines = new HashMap<>();

    /**
     * @param target   the JVM's real stream.
     * @param jvmLabel what the prefix of a line of no rank says.
     */
    RankOutput(final PrintStream target, final String jvmLabel)
    {
        this.target = target;
        this.jvmPrefix = PrefixedLine.prefix(jvmLabel);
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
        final PrefixedLine line = lines.computeIfAbsent(rank,
            r -> new PrefixedLine(target, r == NO_RANK ? jvmPrefix : PrefixedLine.prefix(r)));
        for (int i = offset; i < offset + length; i++)
        {
            line.write(bytes[i]);
        }
    }

    /**
     * Write a rank's unfinished last line, if any.
     *
     * @param rank the rank.
     */
    synchronized void finish(final int rank)
    {
        final PrefixedLine line = lines.get(rank);
        if (null != line)
        {
            line.finish();
        }
    }

    /**
     * Write every unfinished last line, before the JVM exits.
     */
    synchronized void finishAll()
    {
        lines.values().forEach(PrefixedLine::finish);
        target.flush();
    }
}
