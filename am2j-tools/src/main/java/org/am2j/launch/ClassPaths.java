package org.am2j.launch;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Class paths as the {@code java} command reads them, for the launcher to look into the ranks' class path before
 * starting them: entries separated by {@link File#pathSeparator}, an entry {@code DIR/*} standing for every
 * {@code .jar} in {@code DIR}.
 */
final class ClassPaths
{
    private ClassPaths()
    {
    }

    /**
     * @param classPath a class path, or {@code null} for none.
     * @param parent    the loader asked first.
     * @return a loader over the class path's entries that asks {@code parent} first; close it after use.
     */
    static URLClassLoader loader(final String classPath, final ClassLoader parent)
    {
        return new URLClassLoader(urls(classPath).toArray(new URL[0]), parent);
    }

    /**
     * @param classPath a class path, or {@code null}.
     * @return its entries as URLs, wildcards expanded, missing entries left out (as {@code java} does).
     */
    static List<URL> urls(final String classPath)
    {
        final List<URL> urls = new ArrayList<>();
        if (null == classPath)
        {
            return urls;
        }
        for (final String entry : classPath.split(File.pathSeparator))
        {
            if (entry.isEmpty())
            {
                continue;
            }
            if (entry.equals("*") || entry.endsWith(File.separator + "*"))
            {
                final Path directory = Path.of(entry.substring(0, entry.length() - 1).isEmpty() ?
                    "." : entry.substring(0, entry.length() - 1));
                try (DirectoryStream<Path> jars = Files.newDirectoryStream(directory, "*.{jar,JAR}"))
                {
                    for (final Path jar : jars)
                    {
                        add(urls, jar);
                    }
                }
                catch (final IOException ex)
                {
                    // a missing directory adds nothing, as for java
                }
            }
            else
            {
                add(urls, Path.of(entry));
            }
        }
        return urls;
    }

    private static void add(final List<URL> urls, final Path path)
    {
        try
        {
            urls.add(path.toAbsolutePath().toUri().toURL());
        }
        catch (final MalformedURLException | RuntimeException ex)
        {
            // an entry that is no path adds nothing
        }
    }
}
