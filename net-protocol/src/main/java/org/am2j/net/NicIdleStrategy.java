package org.am2j.net;

import org.agrona.concurrent.IdleStrategy;

/**
 * How the NIC agent's thread ({@link NicMode#THREAD}) waits for work: it spins a little (a message that follows
 * another closely is taken at once), yields a little, then sleeps in the socket's selector, from which an arriving
 * datagram, a due timer, or a host queueing a message wakes it.
 */
final class NicIdleStrategy implements IdleStrategy
{
    static final int SPINS = 2000;
    static final int YIELDS = 50;
    static final long SLEEP_NANOS = 10_000_000L;

    private final NicAgent nic;
    private int idleCount;

    NicIdleStrategy(final NicAgent nic)
    {
        this.nic = nic;
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
        idleCount++;
        if (idleCount <= SPINS)
        {
            Thread.onSpinWait();
        }
        else if (idleCount <= SPINS + YIELDS)
        {
            Thread.yield();
        }
        else
        {
            nic.sleep(SLEEP_NANOS);
        }
    }

    @Override
    public void reset()
    {
        idleCount = 0;
    }

    @Override
    public String alias()
    {
        return "nic-selector";
    }
}
