package org.am2j.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.am2j.tools.CommandLines.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The conventions every tool's command line keeps: last value wins, ranges checked with errors that name the option,
 * no {@code @file} expansion, no empty file name, the usage line on one line.
 */
@Timeout(30)
class CommandLinesTest
{
    @Command(name = "am2j test")
    static final class Options
    {
        @Option(names = "--size", paramLabel = "BYTES", description = "bytes")
        @Range(min = 1, max = 64, meaning = "message bytes")
        int size = 8;
        @Option(names = "--ranks", paramLabel = "P", description = "ranks")
        @Range(min = 1)
        int ranks = 1;
        @Option(names = "--counts", paramLabel = "LIST", split = ",", description = "counts")
        @Range(min = 0, max = 9)
        int[] counts = {};
        @Option(names = "--name", paramLabel = "NAME", description = "a name")
        String name;
        @Option(names = "--json", paramLabel = "FILE", description = "a file")
        Path json;
    }

    @Test
    void anOptionGivenTwiceKeepsItsLastValue(@TempDir final Path dir) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("args"), "--size 6");
        final Options options = CommandLines.parse(new Options(), "--size", "4", "--name", "a", "--size", "5",
            "--name", "@" + file);
        assertEquals(5, options.size);
        assertEquals("@" + file, options.name, "no @file expansion");
        assertArrayEquals(new int[]{ 1, 2, 3 }, CommandLines.parse(new Options(), "--counts", "1,2,3").counts);
    }

    @Test
    void errorsNameTheOptionAndWhatIsWrong()
    {
        assertMessage("--size 65 is outside [1, 64] (message bytes)", "--size", "65");
        assertMessage("--size 'x' is not a number (message bytes, 1 to 64)", "--size", "x");
        assertMessage("--ranks 0 must be at least 1", "--ranks", "0");
        assertMessage("--ranks '2.5' is not a number (at least 1)", "--ranks", "2.5");
        assertMessage("--counts 10 is outside [0, 9]", "--counts", "1,10");
        assertMessage("--counts 'y' is not a number (0 to 9)", "--counts", "1,y");
        assertMessage("--name needs a value", "--name");
        assertMessage("--size needs a value", "--size", "--name", "a");
        assertMessage("--json needs a file name", "--json", "");
        assertMessage("unknown argument '--bogus'", "--bogus", "1");
        assertMessage("unknown argument 'stray'", "stray");
    }

    @Test
    void theHelpStartsWithTheUsageLineOnOneLine()
    {
        final String usage = CommandLines.usage(new Options());
        assertEquals("usage: am2j test [--size BYTES] [--ranks P] [--counts LIST[,LIST...]]... [--name NAME] " +
            "[--json FILE]", usage);
        final String help = CommandLines.help(new Options());
        assertTrue(help.startsWith(usage + System.lineSeparator() + "      --size BYTES"), help);
    }

    private static void assertMessage(final String message, final String... args)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class,
            () -> CommandLines.parse(new Options(), args)).getMessage(), String.join(" ", args));
    }
}
