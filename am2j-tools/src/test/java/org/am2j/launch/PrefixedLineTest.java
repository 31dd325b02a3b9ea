package org.am2j.launch;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PrefixedLineTest
{
    /** Every write that reaches the stream under the target, as text. */
    private final List<String> writes = new ArrayList<>();
    private final PrintStream target = new PrintStream(new OutputStream()
    {
        @Override
        public void write(final int b)
        {
            writes.add(String.valueOf((char)b));
        }

        @Override
        public void write(final byte[] bytes, final int offset, final int length)
        {
            writes.add(new String(bytes, offset, length, StandardCharsets.UTF_8));
        }
    }, true, StandardCharsets.UTF_8);

    private static void write(final PrefixedLine line, final String text)
    {
        for (final byte b : text.getBytes(StandardCharsets.UTF_8))
        {
            line.write(b);
        }
    }

    @Test
    void eachLineReachesTheTargetInOneWriteWithItsPrefixAndNewline()
    {
        final PrefixedLine line = new PrefixedLine(target, PrefixedLine.prefix(3));
        write(line, "hello\n\nrank 3 é ok\nunfinished");
        line.finish();
        line.finish();

        assertEquals(List.of("[3] hello\n", "[3] \n", "[3] rank 3 é ok\n", "[3] unfinished\n"), writes);
    }

    @Test
    void aLongLineGrowsItsBufferAndOneLongerThanTheMostKeptWholeIsSplit()
    {
        final PrefixedLine line = new PrefixedLine(target, new byte[0]);
        final String whole = "x".repeat(300_000);
        write(line, whole + "\n" + "y".repeat(PrefixedLine.MAX_LINE + 5) + "\n");

        // compared as lengths and ends, so that a failure says what differs without printing a mebibyte
        assertEquals(List.of(300_001, PrefixedLine.MAX_LINE + 1, 6), writes.stream().map(String::length).toList());
        assertEquals(whole + "\n", writes.get(0));
        assertEquals("y".repeat(PrefixedLine.MAX_LINE) + "\n", writes.get(1), "the longest line kept whole");
        assertEquals("yyyyy\n", writes.get(2));
    }
}
