package org.am2j.launch;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The launcher's look for the main class: found, or missing with the class path once and what the user may have
 * meant, from directories and jars of the class path.
 */
class MainClassCheckTest
{
    @TempDir
    Path dir;

    @Test
    void aClassOnTheClassPathIsFound()
    {
        assertNull(MainClassCheck.missing(HelloMain.class.getName(), System.getProperty("java.class.path")));
    }

    @Test
    void aMissingClassNamesTheClassPathOnceAndTheClassWithItsSimpleNameInADirectory() throws IOException
    {
        final Path classes = dir.resolve("classes");
        touch(classes.resolve("com/example/HelloAm.class"));
        touch(classes.resolve("com/example/HelloAm$Handler.class"));
        touch(classes.resolve("com/example/package-info.class"));
        final String classPath = classes + File.pathSeparator + dir.resolve("missing");

        assertEquals(List.of(
            "main class HelloAm not found on the ranks' class path (--cp, then am2j's own): " + classPath,
            "did you mean com.example.HelloAm?"), MainClassCheck.missing("HelloAm", classPath));
    }

    @Test
    void aNameThatDiffersInCaseOnlyComesFirstThenTheSameSimpleNameInJars() throws IOException
    {
        jar(dir.resolve("a.jar"), "org/x/Greeter.class", "org/x/GREETER.class", "org/x/Other.class",
            "META-INF/versions/11/net/y/greeter.class", "org/x/Greeter$1.class", "module-info.class");
        jar(dir.resolve("b.jar"), "org/z/Greeter.class");

        assertEquals(List.of("org.x.GREETER", "org.x.Greeter", "net.y.greeter", "org.z.Greeter"),
            MainClassCheck.suggestions("org.x.greeter", dir + File.separator + "*"));
        assertEquals(List.of(
            "main class org.x.greeter not found on the ranks' class path (--cp, then am2j's own): " + dir +
                File.separator + "*",
            "did you mean org.x.GREETER, org.x.Greeter, net.y.greeter or org.z.Greeter?"),
            MainClassCheck.missing("org.x.greeter", dir + File.separator + "*"));
    }

    @Test
    void atMostFiveSuggestionsAreNamedAndTheRestCounted() throws IOException
    {
        final String[] entries = new String[7];
        for (int i = 0; i < entries.length; i++)
        {
            entries[i] = "p" + i + "/Main.class";
        }
        jar(dir.resolve("many.jar"), entries);

        assertEquals("did you mean p0.Main, p1.Main, p2.Main, p3.Main, p4.Main (or one of 2 more)?",
            MainClassCheck.missing("Main", dir.resolve("many.jar").toString()).get(1));
    }

    @Test
    void aMisspeltNameSuggestsTheClassesASlipOrTwoAway() throws IOException
    {
        final Path classes = dir.resolve("classes");
        touch(classes.resolve("HelloAm.class"));
        touch(classes.resolve("com/example/AllToAllExchange.class"));
        touch(classes.resolve("com/example/Main.class"));
        final String classPath = classes.toString();

        assertEquals("did you mean HelloAm?", MainClassCheck.missing("HelloAmm", classPath).get(1));
        assertEquals("did you mean HelloAm?", MainClassCheck.missing("helloam2", classPath).get(1));
        assertEquals("did you mean HelloAm?", MainClassCheck.missing("org.example.HeloAm", classPath).get(1));
        assertEquals("did you mean com.example.AllToAllExchange?",
            MainClassCheck.missing("com.example.AlltoAllExchnage", classPath).get(1));
        // short names: too many are a slip apart
        assertEquals(1, MainClassCheck.missing("Man", classPath).size());
        // three slips from the nearest: not suggested
        assertEquals(1, MainClassCheck.missing("HiAm", classPath).size());
    }

    @Test
    void theEditDistanceCountsLettersAddedLeftOutOrReplacedUpToItsBound()
    {
        assertEquals(0, MainClassCheck.editDistance("helloam", "helloam", 2));
        assertEquals(1, MainClassCheck.editDistance("helloamm", "helloam", 2));
        assertEquals(1, MainClassCheck.editDistance("heloam", "helloam", 2));
        assertEquals(2, MainClassCheck.editDistance("alltoallexchnage", "alltoallexchange", 2));
        assertEquals(3, MainClassCheck.editDistance("greeter", "other", 2));
        assertEquals(3, MainClassCheck.editDistance("a", "abcdef", 2));
    }

    @Test
    void nothingLikeItMeansNoSuggestion() throws IOException
    {
        jar(dir.resolve("c.jar"), "org/x/Other.class");

        assertEquals(1, MainClassCheck.missing("Greeter", dir.resolve("c.jar").toString()).size());
    }

    private static void touch(final Path file) throws IOException
    {
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[]{ (byte)0xCA, (byte)0xFE });
    }

    private static void jar(final Path file, final String... entries) throws IOException
    {
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out))
        {
            for (final String entry : entries)
            {
                jar.putNextEntry(new JarEntry(entry));
                jar.write(new byte[]{ (byte)0xCA, (byte)0xFE });
                jar.closeEntry();
            }
        }
    }
}
