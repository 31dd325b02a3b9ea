package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.am2j.api.EndpointName;
import org.am2j.spi.ProcessIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The evidence a NIC takes for a silent peer's death ({@link ProcessLiveness}): a pid that runs another process than
 * the one the peer's name was learnt from is no proof of life.
 */
class ProcessLivenessTest
{
    private static final String NODE = "node-here";

    @Test
    void aPeerWhosePidRunsTheProcessItWasLearntFromIsAlive()
    {
        final ProcessLiveness liveness = new ProcessLiveness(NODE);
        final EndpointName name = nameOf(NODE, ProcessIdentity.currentPid());
        final Peer peer = peerKnownBy(name);

        assertEquals(ProcessIdentity.currentStartTimeMs(), peer.someNameStartTimeMs);
        assertFalse(liveness.isGone(peer.someName, peer.someNameStartTimeMs));
    }

    @Test
    void aPidGivenToAnotherProcessIsEvidenceOfDeath()
    {
        // As if the peer's process had died and its pid had gone to this one since: the start time read when its
        // name was learnt is not this process's.
        final ProcessLiveness liveness = new ProcessLiveness(NODE);
        final EndpointName name = nameOf(NODE, ProcessIdentity.currentPid());
        final long earlier = ProcessIdentity.currentStartTimeMs() - TimeUnit.HOURS.toMillis(1);

        assertTrue(liveness.isGone(name, earlier));
    }

    @Test
    void aKilledProcessIsGoneOnceItsPidIsFreed() throws Exception
    {
        final Process child = new ProcessBuilder("sleep", "60").start();
        try
        {
            final Peer peer = peerKnownBy(nameOf(NODE, child.pid()));
            final ProcessLiveness liveness = new ProcessLiveness(NODE);
            assertFalse(liveness.isGone(peer.someName, peer.someNameStartTimeMs));

            child.destroyForcibly();
            assertTrue(child.waitFor(10, TimeUnit.SECONDS));
            assertTrue(liveness.isGone(peer.someName, peer.someNameStartTimeMs));
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    @Test
    void aProcessOnAnotherNodeIsNeverTakenForDeadByItsPid()
    {
        final ProcessLiveness liveness = new ProcessLiveness(NODE);
        final EndpointName elsewhere = new EndpointName("node-elsewhere", 7, Long.MAX_VALUE - 1, 0,
            Map.of(NetTransport.NAME, "10.0.0.9:4000"));

        assertFalse(liveness.isGone(elsewhere, ProcessIdentity.UNKNOWN_START_TIME));
    }

    @Test
    void theFirstNameLearntIsTheOneLookedUp()
    {
        final EndpointName first = nameOf(NODE, ProcessIdentity.currentPid());
        final Peer peer = peerKnownBy(first);
        peer.knowProcessBy(nameOf(NODE, 1));

        assertEquals(first, peer.someName);
    }

    private static EndpointName nameOf(final String node, final long pid)
    {
        return new EndpointName(node, pid * 31 + 1, pid, 0, Map.of(NetTransport.NAME, "127.0.0.1:4000"));
    }

    private static Peer peerKnownBy(final EndpointName name)
    {
        final Peer peer = new Peer(0, 1, null, new NetConfig(new TestContext(1)), System.nanoTime(), null, null);
        peer.knowProcessBy(name);
        return peer;
    }
}
