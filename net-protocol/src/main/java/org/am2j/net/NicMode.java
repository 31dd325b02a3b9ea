package org.am2j.net;

/**
 * How the emulated NIC's duty cycle ({@link NicAgent}) gets a processor.
 */
public enum NicMode
{
    /**
     * The agent runs inside the host's poll and send calls: no extra thread, and the network moves only while the
     * host calls into am2j (or sleeps in {@code waitSema()}, which waits in the NIC's selector). The default: on a
     * machine with few cores an extra busy thread costs more than it saves.
     */
    INLINE,

    /**
     * The agent runs on its own thread, like the NIC's processor in the paper: it drains send queues, fills receive
     * queues and runs the timers whatever the host is doing. It spins briefly when idle, then sleeps in its selector.
     */
    THREAD
}
