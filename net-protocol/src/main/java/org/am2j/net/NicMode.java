package org.am2j.net;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

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
    THREAD;

    /**
     * @param text {@code inline} or {@code thread}, any case.
     * @return the mode.
     * @throws AmException {@link AmError#BAD_ARG} for any other text.
     */
    public static NicMode parse(final String text)
    {
        if ("inline".equalsIgnoreCase(text))
        {
            return INLINE;
        }
        if ("thread".equalsIgnoreCase(text))
        {
            return THREAD;
        }
        throw new AmException(AmError.BAD_ARG, "NIC mode '" + text + "' (am2j.nic / AM2J_NIC) must be inline or thread");
    }
}
