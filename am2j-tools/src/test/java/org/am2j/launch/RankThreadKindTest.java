package org.am2j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.am2j.api.AmException;
import org.am2j.spi.Settings;
import org.am2j.spi.VirtualThreads;
import org.junit.jupiter.api.Test;

/**
 * {@code AM2J_RANK_THREADS}: platform threads by default, virtual threads where the JVM has them, a clear error
 * where it does not.
 */
class RankThreadKindTest
{
    private static final boolean HAS_VIRTUAL_THREADS = Runtime.version().feature() >= 21;

    private static RankThreadKind kind(final String value)
    {
        return RankThreadKind.of(Settings.of(Map.of(), Map.of("AM2J_RANK_THREADS", value)));
    }

    @Test
    void platformThreadsUnlessTheSettingSaysOtherwise()
    {
        assertEquals(RankThreadKind.PLATFORM, RankThreadKind.of(Settings.of(Map.of(), Map.of())));
        assertEquals(RankThreadKind.PLATFORM, kind("platform"));
    }

    @Test
    void aValueThatNamesNoKindIsRefusedNamingTheSetting()
    {
        final AmException error = assertThrows(AmException.class, () -> kind("green"));
        assertTrue(error.getMessage().contains("AM2J_RANK_THREADS"), error.getMessage());
    }

    @Test
    void virtualThreadsWhereTheJvmHasThemAndAClearErrorWhereItDoesNot() throws Exception
    {
        if (!HAS_VIRTUAL_THREADS)
        {
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> kind("virtual"));
            assertTrue(error.getMessage().contains("needs Java 21"), error.getMessage());
            return;
        }
        assertEquals(RankThreadKind.VIRTUAL, kind("VIRTUAL"));
        final AtomicReference<Boolean> ranVirtual = new AtomicReference<>();
        final Thread thread = RankThreadKind.virtualThread("rank-7",
            () -> ranVirtual.set(VirtualThreads.isVirtual(Thread.currentThread())));
        assertEquals("rank-7", thread.getName());
        thread.start();
        thread.join();
        assertEquals(Boolean.TRUE, ranVirtual.get());
        assertEquals(false, VirtualThreads.isVirtual(Thread.currentThread()));
    }
}
