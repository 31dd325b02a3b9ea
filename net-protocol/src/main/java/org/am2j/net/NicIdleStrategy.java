package org.am2j.net;

import java.util.function.LongConsumer;

import org.agrona.concurrent.IdleStrategy;
import org.am2j.idle.CpuShare;
import org.am2j.idle.IdleSteps;

/**
 * How the NIC agent's thread ({@link NicMode#THREAD}) waits for work: it spins a little (a message that follows
 * another closely is taken at once), yields a little, then sleeps in the socket's selector, from which an arriving
 * datagram, a due timer, or a host queueing a message wakes it. When the CPUs are oversubscribed as it runs out of
 * work ({@link CpuShare}), it goes to the selector at once: a spin would keep a host thread off a CPU.
 */
final class NicIdleStrategy implements IdleStrategy
{
    static final int SPINS = 2000;
    static final int YIELDS = 50;
    static final long SLEEP_NANOS = 10_000_000L;

    private final LongConsumer sleep;
    private final IdleSteps steps;
    private boolean idling;
    private int step;

    NicIdleStrategy(final NicAgent nic)
    {
        this(nic::sleep, CpuShare.process());
    }

    /**
     * @param sleep sleeps in the selector for at most the given nanoseconds ({@code NicAgent.sleep}).
     * @param share whether the CPUs are oversubscribed.
     */
    NicIdleStrategy(final LongConsumer sleep, final CpuShare share)
    {
        this.sleep = sleep;
        this.steps = new IdleSteps(SPINS, YIELDS, share);
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (!idling)
        {
            idling = true;
            step = steps.firstStep();
        }
        final int action = steps.action(step);
        if (IdleSteps.SPIN == action)
        {
            step++;
            Thread.onSpinWait();
        }
        else if (IdleSteps.YIELD == action)
        {
            step++;
            Thread.yield();
        }
        else
        {
            sleep.accept(SLEEP_NANOS);
        }
    }

    @Override
    public void reset()
    {
        idling = false;
    }

    @Override
    public String alias()
    {
        return "nic-selector";
    }
}
