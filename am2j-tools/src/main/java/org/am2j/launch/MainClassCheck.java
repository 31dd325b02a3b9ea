package org.am2j.launch;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The launcher's look for the rank program's main class on the ranks' class path before any rank starts. When the
 * class is missing the launcher says so once, with the class path, and names the classes of that class path the user
 * may have meant: those whose name differs only in case, those with the same simple name (the package left out or
 * wrong) and those whose simple name is a typing slip away ({@link #slipsAllowed}); rather than every rank printing
 * the class path.
 * <p>
 * The suggestions come from the class path's directories (walked, symbolic links not followed, at most
 * {@value #MAX_FILES_SCANNED} files each) and jars (their entry lists, multi-release versions included); nested
 * classes ({@code $}) are not suggested.
 */
final class MainClassCheck
{
    /** Most classes suggested by name; the rest are counted. */
    static final int MAX_SUGGESTIONS = 5;
    /** Most files looked at in one directory of the class path. */
    static final int MAX_FILES_SCANNED = 100_000;

    /** Simple names at least this long are held against others a slip or two away; shorter ones are not. */
    static final int SHORTEST_MISSPELT = 4;
    /** Simple names at least this long may be two slips away; shorter ones one. */
    static final int SHORTEST_TWO_SLIPS = 8;

    private static final String CLASS_SUFFIX = ".class";
    private static final String VERSIONS_PREFIX = "META-INF/versions/";

    private MainClassCheck()
    {
    }

    /**
     * @param mainClass the rank program's main class, a binary class name.
     * @param classPath the ranks' whole class path, as the {@code java} command reads it.
     * @return {@code null} when the class is there (or cannot be judged from here: it exists but does not load, which
     * each rank then reports with its stack trace), else the lines that say it is missing.
     */
    static List<String> missing(final String mainClass, final String classPath)
    {
        try (URLClassLoader loader = ClassPaths.loader(classPath, ClassLoader.getPlatformClassLoader()))
        {
            Class.forName(mainClass, false, loader);
            return null;
        }
        catch (final ClassNotFoundException ex)
        {
            final List<String> lines = new ArrayList<>();
            lines.add("main class " + mainClass + " not found on the ranks' class path (--cp, then am2j's own): " +
                classPath);
            final List<String> suggestions = suggestions(mainClass, classPath);
            if (!suggestions.isEmpty())
            {
                lines.add(didYouMean(suggestions));
            }
            return lines;
        }
        catch (final IOException | LinkageError | RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * @param mainClass a class name that is not on the class path.
     * @param classPath a class path.
     * @return the classes of the class path with the same name but for case, then those with the same simple name
     * (case ignored), then those whose simple name is a slip or two away ({@link #slipsAllowed}); each group sorted.
     */
    static List<String> suggestions(final String mainClass, final String classPath)
    {
        final String simpleName = simpleName(mainClass);
        final String lowerSimpleName = simpleName.toLowerCase(Locale.ROOT);
        final int slips = slipsAllowed(simpleName);
        final TreeSet<String> sameNameButCase = new TreeSet<>();
        final TreeSet<String> sameSimpleName = new TreeSet<>();
        final TreeSet<String> misspelt = new TreeSet<>();
        for (final URL url : ClassPaths.urls(classPath))
        {
            final Path entry;
            try
            {
                entry = Path.of(url.toURI());
            }
            catch (final URISyntaxException | RuntimeException ex)
            {
                continue;
            }
            for (final String name : classNames(entry))
            {
                if (name.equalsIgnoreCase(mainClass))
                {
                    sameNameButCase.add(name);
                }
                else if (simpleName(name).equalsIgnoreCase(simpleName))
                {
                    sameSimpleName.add(name);
                }
                else if (slips > 0 &&
                    slips >= editDistance(lowerSimpleName, simpleName(name).toLowerCase(Locale.ROOT), slips))
                {
                    misspelt.add(name);
                }
            }
        }
        sameNameButCase.remove(mainClass);
        final List<String> suggestions = new ArrayList<>(sameNameButCase);
        suggestions.addAll(sameSimpleName);
        suggestions.addAll(misspelt);
        return suggestions;
    }

    /**
     * @param simpleName the simple name of the class asked for.
     * @return how many slips (a letter added, left out or replaced) a class's simple name may be from it to be
     * suggested: none below {@value #SHORTEST_MISSPELT} letters (too many names are that close), one below
     * {@value #SHORTEST_TWO_SLIPS}, two from there.
     */
    static int slipsAllowed(final String simpleName)
    {
        return simpleName.length() < SHORTEST_MISSPELT ? 0 : simpleName.length() < SHORTEST_TWO_SLIPS ? 1 : 2;
    }

    /**
     * @param a     a name.
     * @param b     another.
     * @param bound the largest distance of interest.
     * @return the Levenshtein distance of the two names (letters added, left out or replaced), or {@code bound + 1}
     * when it is larger than {@code bound}.
     */
    static int editDistance(final String a, final String b, final int bound)
    {
        if (Math.abs(a.length() - b.length()) > bound)
        {
            return bound + 1;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            int rowMin = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int replace = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(replace, Math.min(previous[j], current[j - 1]) + 1);
                rowMin = Math.min(rowMin, current[j]);
            }
            if (rowMin > bound)
            {
                return bound + 1;
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return Math.min(previous[b.length()], bound + 1);
    }

    private static String didYouMean(final List<String> suggestions)
    {
        final StringBuilder sb = new StringBuilder("did you mean ");
        final int shown = Math.min(MAX_SUGGESTIONS, suggestions.size());
        for (int i = 0; i < shown; i++)
        {
            sb.append(i == 0 ? "" : i == suggestions.size() - 1 ? " or " : ", ").append(suggestions.get(i));
        }
        if (suggestions.size() > shown)
        {
            sb.append(" (or one of ").append(suggestions.size() - shown).append(" more)");
        }
        return sb.append('?').toString();
    }

    private static String simpleName(final String className)
    {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /**
     * @param entry an entry of a class path: a directory or a jar.
     * @return the top-level classes it holds; none when it is neither or cannot be read.
     */
    private static List<String> classNames(final Path entry)
    {
        final List<String> names = new ArrayList<>();
        try
        {
            if (Files.isDirectory(entry))
            {
                try (Stream<Path> files = Files.walk(entry))
                {
                    files.limit(MAX_FILES_SCANNED).forEach(file ->
                        addClassName(names, entry.relativize(file).toString().replace(File.separatorChar, '/')));
                }
            }
            else if (Files.isRegularFile(entry))
            {
                try (JarFile jar = new JarFile(entry.toFile()))
                {
                    for (final Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); )
                    {
                        addClassName(names, entries.nextElement().getName());
                    }
                }
            }
        }
        catch (final IOException | UncheckedIOException | SecurityException ex)
        {
            // an entry that cannot be read suggests nothing (the JVM skips it too)
        }
        return names;
    }

    /**
     * @param names where to add the class.
     * @param path  a path in a directory or jar, '/'-separated.
     */
    private static void addClassName(final List<String> names, final String path)
    {
        String name = path;
        if (name.startsWith(VERSIONS_PREFIX))
        {
            final int slash = name.indexOf('/', VERSIONS_PREFIX.length());
            name = slash < 0 ? "" : name.substring(slash + 1);
        }
        if (!name.endsWith(CLASS_SUFFIX) || name.indexOf('$') >= 0 ||
            name.endsWith("module-info.class") || name.endsWith("package-info.class"))
        {
            return;
        }
        names.add(name.substring(0, name.length() - CLASS_SUFFIX.length()).replace('/', '.'));
    }
}
