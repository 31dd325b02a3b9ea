package org.am2j.net;

/**
 * Whether the NIC's last drain of an endpoint's request and reply send queues left a record there that it could not
 * take (the peer's window, the in-flight log or the link was full, or a same-NIC destination's queue): such a queue
 * does not keep the NIC awake ({@link SendQueues#hasReadySends()}). NIC thread only.
 */
final class HeldBack
{
    private boolean requests;
    private boolean replies;

    /**
     * @param replyChannel the reply send queue, else the request send queue.
     * @return whether the last drain of that queue held a record back.
     */
    boolean get(final boolean replyChannel)
    {
        return replyChannel ? replies : requests;
    }

    /**
     * @param replyChannel the reply send queue, else the request send queue.
     * @param heldBack     whether the drain held a record back.
     */
    void set(final boolean replyChannel, final boolean heldBack)
    {
        if (replyChannel)
        {
            replies = heldBack;
        }
        else
        {
            requests = heldBack;
        }
    }
}
