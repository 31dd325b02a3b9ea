package org.am2j.launch;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Locale;

import org.am2j.spi.Setting;
import org.am2j.spi.Settings;

/**
 * The kind of thread a JVM that holds several ranks ({@code --ranks-per-jvm}) runs each rank on: {@code platform}
 * (the default) or {@code virtual} (Java 21 and later), from {@code am2j.rankThreads} / {@code AM2J_RANK_THREADS}.
 * A virtual rank that waits parks and leaves its carrier to the JVM's other ranks; am2j never lets a virtual thread
 * sleep in native code (the shared-memory futex), where it would hold its carrier.
 */
enum RankThreadKind
{
    /** A platform thread per rank. */
    PLATFORM,
    /** A virtual thread per rank. */
    VIRTUAL;

    /** The setting. */
    static final Setting SETTING = new Setting("am2j.rankThreads", "AM2J_RANK_THREADS");

    /**
     * @return the kind the setting names, platform when unset.
     * @throws org.am2j.api.AmException when it names neither.
     * @throws IllegalArgumentException when it names virtual on a JVM without virtual threads.
     */
    static RankThreadKind setting()
    {
        return of(Settings.system());
    }

    static RankThreadKind of(final Settings settings)
    {
        final RankThreadKind kind = valueOf(settings.choice(SETTING, "platform", "platform", "virtual")
            .toUpperCase(Locale.ROOT));
        if (VIRTUAL == kind && null == Builder.OF_VIRTUAL)
        {
            throw new IllegalArgumentException(SETTING.variable() + "=virtual needs Java 21 or later; this JVM " +
                "is Java " + Runtime.version().feature() + ": use platform threads, or a newer JVM (JAVA_HOME)");
        }
        return kind;
    }

    /**
     * @param name of the thread.
     * @param body what it runs.
     * @return an unstarted virtual thread.
     */
    static Thread virtualThread(final String name, final Runnable body)
    {
        try
        {
            final Object builder = Builder.OF_VIRTUAL.invoke();
            final Object named = Builder.NAME.invoke(builder, name);
            return (Thread)Builder.UNSTARTED.invoke(named, body);
        }
        catch (final Throwable ex)
        {
            throw new IllegalStateException("cannot create a virtual thread", ex);
        }
    }

    /** {@code Thread.ofVirtual().name(name).unstarted(body)}, looked up where the JVM has it. */
    private static final class Builder
    {
        static final MethodHandle OF_VIRTUAL;
        static final MethodHandle NAME;
        static final MethodHandle UNSTARTED;

        static
        {
            MethodHandle ofVirtual = null;
            MethodHandle name = null;
            MethodHandle unstarted = null;
            try
            {
                final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                final Class<?> builder = Class.forName("java.lang.Thread$Builder");
                final Class<?> ofVirtualClass = Class.forName("java.lang.Thread$Builder$OfVirtual");
                ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualClass));
                name = lookup.findVirtual(ofVirtualClass, "name", MethodType.methodType(ofVirtualClass, String.class));
                unstarted = lookup.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class,
                    Runnable.class));
            }
            catch (final ReflectiveOperationException ex)
            {
                ofVirtual = null;
            }
            OF_VIRTUAL = ofVirtual;
            NAME = name;
            UNSTARTED = unstarted;
        }
    }
}
