package org.am2j.spmd;

/**
 * Hears that a rank of the job is gone: its rendezvous connection closed without the rank leaving the job (its
 * process died, or it broke the rendezvous protocol), or the rank whose process hosted the rendezvous was lost.
 * Called once per lost rank, on the rendezvous reader's thread; it must not block.
 */
@FunctionalInterface
public interface RankLostListener
{
    /**
     * @param rank      the lost rank.
     * @param processId its process id, as its endpoint names carry it ({@code EndpointName.processId()}).
     */
    void onRankLost(int rank, long processId);
}
