package org.am2j.launch;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * The class loader of one rank's program in a JVM that holds several ranks as threads ({@link RankThreads}): it
 * loads the program's classes itself, from the ranks' class path, before asking its parent (child first), so that
 * each rank has its own copy of them and of their static fields, as a rank of its own JVM would. The classes of the
 * JDK, of am2j's runtime (the API, the endpoint core, the SPMD bootstrap and the transports and schedulers) and of the
 * libraries the runtime uses (Agrona, JCTools, JNA) come from the parent, first, and so are shared: one runtime, one
 * in-process transport and one JIT for all the JVM's ranks.
 * <p>
 * Everything else on the class path is the rank's own, the applications and perf harness of am2j included (their
 * statics hold a rank's state), and the launcher's classes too.
 */
final class RankClassLoader extends URLClassLoader
{
    /** Package prefixes of the classes every rank of the JVM shares, loaded by the parent first. */
    static final List<String> SHARED_PREFIXES = List.of(
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.", "org.xml.", "org.ietf.",
        "org.agrona.", "org.jctools.",
        "org.am2j.api.", "org.am2j.spi.", "org.am2j.core.", "org.am2j.spmd.", "org.am2j.idle.",
        "org.am2j.shm.", "org.am2j.net.", "org.am2j.polling.");

    static
    {
        ClassLoader.registerAsParallelCapable();
    }

    /**
     * @param rank   the rank whose program it loads, for its name.
     * @param urls   the ranks' class path.
     * @param parent the loader of the shared classes (the JVM's application class loader).
     */
    RankClassLoader(final int rank, final URL[] urls, final ClassLoader parent)
    {
        super("rank-" + rank, urls, parent);
    }

    /**
     * @param className a binary class name.
     * @return true when every rank of the JVM shares the class.
     */
    static boolean isShared(final String className)
    {
        for (final String prefix : SHARED_PREFIXES)
        {
            if (className.startsWith(prefix))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException
    {
        if (isShared(name))
        {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name))
        {
            Class<?> loaded = findLoadedClass(name);
            if (null == loaded)
            {
                try
                {
                    loaded = findClass(name);
                }
                catch (final ClassNotFoundException ex)
                {
                    // not on the ranks' class path: the parent's (a class the JVM itself put elsewhere)
                    loaded = getParent().loadClass(name);
                }
            }
            if (resolve)
            {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
