package org.am2j.core;

import java.util.ArrayList;
import java.util.List;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Checks, before am2j touches Agrona, that the JVM was started with the flags am2j needs, so that a missing flag is
 * one message that says what to add and where, not Agrona's {@link IllegalAccessError} from deep in a stack.
 * <ul>
 * <li>{@value #ADD_EXPORTS}: Agrona 2.x reaches {@code jdk.internal.misc.Unsafe}; without it nothing of am2j
 * runs.</li>
 * <li>{@value #NATIVE_ACCESS}: JNA (the shared-memory futex) calls native code; without it JDK 22 and later warn
 * and a later JDK will refuse. Checked only where the JDK can say (22 and later), and only named alongside a
 * missing {@value #ADD_EXPORTS}.</li>
 * </ul>
 */
public final class JvmFlags
{
    /** The flag that exports {@code jdk.internal.misc} to the class path, as one word. */
    public static final String ADD_EXPORTS = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";
    /** The flag that lets the class path call native code. */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private static volatile boolean checked;

    private JvmFlags()
    {
    }

    /**
     * @throws AmException {@link AmError#NOT_INIT} naming the missing flags and where they go when
     *                     {@code jdk.internal.misc} is not exported to am2j.
     */
    public static void check()
    {
        if (checked)
        {
            return;
        }
        final List<String> missing = missing(JvmFlags.class.getModule());
        if (missing.contains(ADD_EXPORTS))
        {
            throw new AmException(AmError.NOT_INIT, message(missing));
        }
        checked = true;
    }

    /**
     * @param module the module am2j runs in (the unnamed module on the class path).
     * @return the flags this JVM lacks for it, {@value #ADD_EXPORTS} first.
     */
    static List<String> missing(final Module module)
    {
        final List<String> missing = new ArrayList<>(2);
        if (!Object.class.getModule().isExported("jdk.internal.misc", module))
        {
            missing.add(ADD_EXPORTS);
        }
        if (!nativeAccessEnabled(module))
        {
            missing.add(NATIVE_ACCESS);
        }
        return missing;
    }

    /**
     * @param missing the flags a JVM lacks.
     * @return one paragraph that names them and where they go.
     */
    static String message(final List<String> missing)
    {
        final String flags = String.join(" ", missing);
        return "this JVM was started without " + flags + ", which am2j needs (Agrona reaches " +
            "jdk.internal.misc.Unsafe" + (missing.contains(NATIVE_ACCESS) ? ", JNA calls native code" : "") +
            "): put " + (missing.size() > 1 ? "them" : "it") + " on the java command line before the main class " +
            "(java " + flags + " -cp ... MAINCLASS), or in JDK_JAVA_OPTIONS, or in the argLine of Maven Surefire; " +
            "bin/am2j run adds them itself";
    }

    private static boolean nativeAccessEnabled(final Module module)
    {
        try
        {
            // Module.isNativeAccessEnabled() exists from JDK 22 on; before it, native access needs no flag
            return (Boolean)Module.class.getMethod("isNativeAccessEnabled").invoke(module);
        }
        catch (final ReflectiveOperationException | RuntimeException ex)
        {
            return true;
        }
    }
}
