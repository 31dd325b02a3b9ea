package org.am2j.splitc.fft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.am2j.splitc.app.RunSpec;
import org.junit.jupiter.api.Test;

/**
 * The share of the 3D FFT's bulk messages that stay on their node, for the model paper's input (256 x 256 x 256, 4 KiB
 * messages) on 32 ranks over 4 nodes of 8 (consecutive ranks on a node, as the launcher places them), against the
 * paper's Table 4: 3,072 network and 896 local bulk messages per rank, 22.6% local. No messaging: the message plan of
 * {@link Fft3d}'s two transposes, in which every rank stores to every other rank the rows of that rank's slab, each
 * row cut into messages of at most {@code msg} bytes ({@code AppsInJvmTest} checks the same counts against the
 * messages an in-JVM run sends). The short messages (the byte counts of {@code allStoreSync} and the barriers' gather
 * at rank 0 and fan-out) also go from each rank to its 31 peers, 7 of them local, so they give the same share.
 */
class Fft3dLocalityTest
{
    @Test
    void sevenOfThirtyOnePeersAreLocal()
    {
        final RunSpec spec = new Fft3d().preset("paper").get(0);
        final int procs = 32;
        final int perNode = 8;
        final int nx = spec.getInt("nx");
        final int msg = spec.getInt("msg");
        final int lz = spec.getInt("nz") / procs;
        final int ly = spec.getInt("ny") / procs;
        // transpose 1: ly rows of nx x lz complex values to each peer; transpose 2: lz rows of nx x ly
        final long perPeer = ly * chunks(16L * nx * lz, msg) + lz * chunks(16L * nx * ly, msg);
        long local = 0;
        long network = 0;
        for (int me = 0; me < procs; me++)
        {
            long mineLocal = 0;
            long mineNetwork = 0;
            for (int d = 0; d < procs; d++)
            {
                if (d != me)
                {
                    if (d / perNode == me / perNode)
                    {
                        mineLocal += perPeer;
                    }
                    else
                    {
                        mineNetwork += perPeer;
                    }
                }
            }
            assertEquals(896, mineLocal, "local bulk messages of rank " + me + " (paper: 896 x 4 kB)");
            assertEquals(3072, mineNetwork, "network bulk messages of rank " + me + " (paper: 3,072 x 4 kB)");
            local += mineLocal;
            network += mineNetwork;
        }
        assertEquals(22.6, Math.round(1000.0 * local / (local + network)) / 10.0, "% local (paper: 22.6, 7 of 31)");
        assertEquals(7.0 / 31, (double)local / (local + network), 1e-12);
    }

    private static long chunks(final long bytes, final int msg)
    {
        return (bytes + msg - 1) / msg;
    }
}
