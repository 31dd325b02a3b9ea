package org.am2j.launch;

import java.nio.file.Files;
import java.nio.file.Path;

import org.am2j.spi.NodeIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Emulated nodes: a shared-memory root, and so a node identity, each; the roots of a dead launcher are swept.
 */
class RankPlacementTest
{
    @TempDir
    Path root;

    @Test
    void aNodesRanksGoToItsNicsInContiguousGroups()
    {
        final int[] paper = new int[8];
        for (int rank = 0; rank < 8; rank++)
        {
            paper[rank] = RankPlacement.nicOf(rank, 8, 3);
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, 2, 2}, paper);
        org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {0, 0, 1},
            new int[] {RankPlacement.nicOf(0, 3, 2), RankPlacement.nicOf(1, 3, 2), RankPlacement.nicOf(2, 3, 2)});
        // Fewer ranks than NICs: one NIC each, the rest idle.
        assertEquals(1, RankPlacement.nicOf(1, 2, 4));
        // 5 ranks over 2 nodes: 3 and 2.
        assertEquals(0, RankPlacement.firstRankOf(0, 5, 2));
        assertEquals(3, RankPlacement.firstRankOf(1, 5, 2));
        assertEquals(3, RankPlacement.ranksOn(0, 5, 2));
        assertEquals(2, RankPlacement.ranksOn(1, 5, 2));
    }

    @Test
    void emulatedNodesOfAJobAreDistinctNodes()
    {
        final Path node0 = RankPlacement.nodeRoot(root, "j1-x", 0);
        final Path node1 = RankPlacement.nodeRoot(root, "j1-x", 1);

        assertEquals(root.resolve("emulated+j1-x").resolve("node0"), node0);
        assertNotEquals(NodeIdentity.of(node0), NodeIdentity.of(node1));
        assertNotEquals(NodeIdentity.of(root), NodeIdentity.of(node0));
    }

    @Test
    void theRootsOfALauncherThatIsGoneAreSweptAndALiveOnesKept() throws Exception
    {
        // no pid exceeds the kernel's pid_max (at most 2^22), so this launcher is surely gone
        final Path dead = RankPlacement.nodeRoot(root, "j999999999-abc", 0);
        NodeIdentity.of(dead);
        Files.createDirectories(dead.resolve("j999999999-abc"));
        Files.writeString(dead.resolve("j999999999-abc").resolve("1-2.bell"), "x");
        final String liveJob = "j" + ProcessHandle.current().pid() + "-abc";
        final Path live = RankPlacement.nodeRoot(root, liveJob, 1);
        NodeIdentity.of(live);
        final Path notAJob = Files.createDirectories(root.resolve("emulated+other"));

        assertEquals(1, RankPlacement.sweepEmulatedNodesRoots(root));

        assertFalse(Files.exists(RankPlacement.emulatedNodesRoot(root, "j999999999-abc")));
        assertTrue(Files.exists(live.resolve(NodeIdentity.FILE_NAME)));
        assertTrue(Files.isDirectory(notAJob));
        assertTrue(Files.exists(root), "the root itself stays");
    }
}
