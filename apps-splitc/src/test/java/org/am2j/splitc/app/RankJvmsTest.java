package org.am2j.splitc.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.am2j.spmd.Job;
import org.am2j.spmd.RendezvousConfig;
import org.am2j.spmd.Spmd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class RankJvmsTest
{
    private static byte[] contribution(final long pid, final String node)
    {
        final byte[] name = node.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(Long.BYTES + name.length).putLong(pid).put(name).array();
    }

    /** A JVM is a pid on a node: the same pid on two nodes (two machines) is two JVMs, listed once. */
    @Test
    void thePidsAreDistinctAndAscendingAndAJvmIsAPidOnANode()
    {
        final RankJvms jvms = RankJvms.of(new byte[][]{ contribution(900, "a"), contribution(900, "a"),
            contribution(17, "b"), contribution(17, "b"), contribution(900, "b") });
        assertEquals(List.of(17L, 900L), jvms.pids());
        assertEquals(2, jvms.ranksPerJvm());
        assertEquals(1, RankJvms.of(new byte[][]{ contribution(3, "a"), contribution(4, "a") }).ranksPerJvm());
    }

    @Test
    @Timeout(30)
    void aJobOfOneRankIsThisJvm()
    {
        try (Job job = Spmd.init(Map.of(), new RendezvousConfig()))
        {
            assertEquals(new RankJvms(1, List.of(ProcessHandle.current().pid())), RankJvms.gather(job));
        }
    }
}
