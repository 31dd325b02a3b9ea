package org.am2j.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The arithmetic of the LogP parameters, on synthetic signatures and bandwidth curves whose parameters are known.
 */
@Timeout(30)
class LogPParametersTest
{
    @Test
    void oSGAndORComeBackOutOfASyntheticSignatureAtSharedMemoryAndNetworkScales()
    {
        for (final double[] p : new double[][]{ { 110, 60, 180, 320 }, { 5_300, 850, 19_000, 10_500 } })
        {
            final LogPParameters.Signature signature = LogPFixtures.signature(p[0], p[1], p[2], (long)p[3]);
            assertEquals(p[0], signature.osNs(), 1e-6);
            assertEquals(p[1], signature.orNs(), 1e-6);
            assertEquals(p[2], signature.gNs(), 1e-6);
        }
    }

    @Test
    void oSIsTheCheapestShortBurstPerMessageWithoutTheClock()
    {
        final int[] bursts = { 1, 2, 4, 8, 16 };
        final double[][] burstNs = {
            { 25 + 130, 25 + 2 * 100, 25 + 4 * 105, 25 + 8 * 50, 25 + 16 * 50 },
            { 1, 2, 3, 4, 5 } };
        final LogPParameters.Signature signature = new LogPParameters.Signature(
            bursts, new long[]{ 0, 1000 }, new double[]{ 0, 1000 }, burstNs, 25);
        // the burst of 8 is cheaper a message, but it is not short: replies are back by then
        assertEquals(100, signature.osNs(), 1e-9);
        assertEquals(50, signature.gNs(), 1e-9);
        assertEquals(130, signature.perMessageNs(0, 0), 1e-9);
    }

    @Test
    void oneLongBurstThatThePreemptionLengthenedDoesNotMoveTheSteadyState()
    {
        final LogPParameters.Signature clean = LogPFixtures.signature(110, 60, 180, 320);
        for (final int spoiled : new int[]{ 1, 2, 3 })
        {
            final double[][] burstNs = new double[clean.burstNs().length][];
            for (int k = 0; k < burstNs.length; k++)
            {
                burstNs[k] = clean.burstNs()[k].clone();
                burstNs[k][burstNs[k].length - spoiled] += 500_000;
            }
            final LogPParameters.Signature signature = new LogPParameters.Signature(
                clean.bursts(), clean.delaysNs(), clean.delayCostNs(), burstNs, clean.clockNs());
            assertEquals(180, signature.gNs(), 1e-9, "burst " + spoiled + " from the end spoiled");
            assertEquals(60, signature.orNs(), 1e-9, "burst " + spoiled + " from the end spoiled");
        }
    }

    @Test
    void latencyIsHalfTheRoundTripLessBothOverheads()
    {
        final LogPParameters p = LogPParameters.of(
            320, LogPFixtures.signature(110, 60, 180, 320), LogPFixtures.curve(1_000, 0.1));
        assertEquals(160 - 110 - 60, p.latencyNs(), 1e-9);
        // the paper's shared-memory column: 5.6 / 2 - 1.8 - 1.3 = -0.3
        final LogPParameters paper = new LogPParameters(5_600, 1_800, 1_300, 3_100, 6.02, 5_100);
        assertEquals(-300, paper.latencyNs(), 1e-9);
    }

    @Test
    void gAndBandwidthComeFromTheLongTransfers()
    {
        final LogPParameters.TransferCurve curve = LogPFixtures.curve(2_000, 0.08);
        assertEquals(0.08, curve.gapPerByteNs(), 1e-12);
        final LogPParameters p = LogPParameters.of(320, LogPFixtures.signature(110, 60, 180, 320), curve);
        assertEquals(12_500, p.bandwidthMBps(), 1e-6);
    }

    @Test
    void theShortTransfersDoNotMoveG()
    {
        final LogPParameters.TransferCurve clean = LogPFixtures.curve(2_000, 0.08);
        final double[] ns = clean.ns().clone();
        for (int i = 0; i < ns.length && clean.sizes()[i] < LogPParameters.FIT_FROM_BYTES; i++)
        {
            ns[i] *= 3;
        }
        assertEquals(0.08, new LogPParameters.TransferCurve(clean.sizes(), ns).gapPerByteNs(), 1e-12);
    }

    @Test
    void oneLongTransferThatTheMachineSlowedDoesNotMoveG()
    {
        final LogPParameters.TransferCurve clean = LogPFixtures.curve(2_000, 0.08);
        for (int spoiled = 1; spoiled <= 5; spoiled++)
        {
            final double[] ns = clean.ns().clone();
            ns[ns.length - spoiled] *= 4;
            assertEquals(0.08, new LogPParameters.TransferCurve(clean.sizes(), ns).gapPerByteNs(), 1e-12,
                "size " + spoiled + " from the end spoiled");
        }
    }

    @Test
    void aCurveThatDoesNotGrowWithTheSizeHasNoBandwidth()
    {
        final LogPParameters.TransferCurve flat = new LogPParameters.TransferCurve(
            new int[]{ 32_768, 65_536 }, new double[]{ 9_000, 8_000 });
        final LogPParameters p = LogPParameters.of(320, LogPFixtures.signature(110, 60, 180, 320), flat);
        assertTrue(Double.isNaN(p.gapPerByteNs()));
        assertTrue(Double.isNaN(p.bandwidthMBps()));
        assertTrue(Double.isNaN(p.halfPowerBytes()));
        assertEquals(110, p.osNs(), 1e-9);
    }

    @Test
    void aCurveOfShortTransfersOnlyFitsItsLastTwo()
    {
        final LogPParameters.TransferCurve curve = new LogPParameters.TransferCurve(
            new int[]{ 64, 128, 256 }, new double[]{ 900, 1_000, 1_300 });
        assertEquals(300.0 / 128, curve.gapPerByteNs(), 1e-12);
    }

    @Test
    void theHalfPowerPointIsWhereTheCurveReachesHalfOfOneOverG()
    {
        // T(n) = T0 + G n reaches half of 1/G at n = T0 / G: here exactly 4,096 bytes, a measured size
        final LogPParameters.TransferCurve curve = LogPFixtures.curve(4_096 * 0.08, 0.08);
        assertEquals(4_096, curve.halfPowerBytes(1 / 0.08), 4_096 * 1e-9);
    }

    @Test
    void betweenTwoSizesTheHalfPowerPointIsInterpolatedInLogSize()
    {
        final LogPParameters.TransferCurve curve = LogPFixtures.curve(6_000 * 0.08, 0.08);
        final double half = curve.halfPowerBytes(1 / 0.08);
        assertTrue(half > 4_096 && half < 8_192, Double.toString(half));
        assertEquals(6_000, half, 6_000 * 0.1);
        // by hand: bandwidths 4096 / (480 + 327.68) and 8192 / (480 + 655.36) around the half, 6.25 B/ns
        final double b0 = 4_096 / (480 + 327.68);
        final double b1 = 8_192 / (480 + 655.36);
        assertEquals(Math.pow(2, 12 + (6.25 - b0) / (b1 - b0)), half, 1e-9);
    }

    @Test
    void aCurveAlreadyAboveHalfAtItsSmallestSizeGivesThatSize()
    {
        final LogPParameters.TransferCurve curve = LogPFixtures.curve(1, 0.08);
        assertEquals(LogPRank.SMALLEST_TRANSFER, curve.halfPowerBytes(1 / 0.08));
    }

    @Test
    void aCurveThatNeverReachesHalfHasNoHalfPowerPoint()
    {
        final LogPParameters.TransferCurve curve = LogPFixtures.curve(1_000, 0.08);
        assertTrue(Double.isNaN(curve.halfPowerBytes(100)));
    }

    @Test
    void aSignatureWithoutADelayZeroRowIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new LogPParameters.Signature(new int[]{ 1, 2 },
            new long[]{ 10, 20 }, new double[]{ 10, 20 }, new double[][]{ { 1, 2 }, { 1, 2 } }, 0));
        assertThrows(IllegalArgumentException.class, () -> new LogPParameters.Signature(new int[]{ 1, 2 },
            new long[]{ 0, 20 }, new double[]{ 0, 20 }, new double[][]{ { 1, 2 }, { 1 } }, 0));
        assertThrows(IllegalArgumentException.class, () -> new LogPParameters.TransferCurve(
            new int[]{ 64 }, new double[]{ 1 }));
    }
}
