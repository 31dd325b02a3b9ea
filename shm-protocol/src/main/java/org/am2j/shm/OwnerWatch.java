package org.am2j.shm;

import static org.am2j.shm.QueueBlockDescriptor.STATE_CLOSED;
import static org.am2j.shm.QueueBlockDescriptor.STATE_OPEN;

import org.am2j.api.ReturnStatus;
import org.am2j.api.Tags;
import org.am2j.spi.MessageSink;
import org.am2j.spi.ProcessIdentity;
import org.am2j.spi.Route;
import org.am2j.spi.TransportCounters;

/**
 * A route's watch of the process that owns its destination's queue block: who it is, whether a full queue or a
 * stalled one means it died, and, once it is dead, the handing back of what the route sent into its block
 * ({@link DeadPeerReturns}). Called from the route's rare paths (a full queue, a refusal) and from the dead-peer watch
 * ({@link DeadPeers}); nothing here runs per message.
 */
final class OwnerWatch
{
    private final ShmTransport transport;
    private final Route route;
    private final QueueBlock block;
    private final int inverse;
    private final long pid;
    private final long livenessNanos;
    /** The process that owns the destination's queue block, and whether it is dead. */
    final PeerProcess owner;

    private final MappedRegion region;
    /** Set once the kernel said the destination's file is gone: its owner freed the endpoint (or died). */
    private boolean fileGone;
    /**
     * Set once the destination's file was found gone under a state word that says OPEN, and the owner's close is
     * certainly over ({@link #abandonUnderOpen}): every send is refused as by a CLOSED state, and what was sent into
     * the block is handed back as from a dead owner. Volatile: its store comes before the settling pass reads the
     * tails, a sender's read after its tail CAS or box fence (the Dekker pair of a dead owner's flag).
     */
    private volatile boolean abandoned;
    /** Since when the file of a stalled destination has been seen gone under a state that says OPEN (0: not). */
    private long goneUnderOpenSince;
    /**
     * The block is a sealed memory file opened through its owner's descriptor, with a known identity: its file is gone
     * only once its owner closed the descriptor, which it does when it frees the endpoint (a named file in a job
     * directory can be deleted by any process of the user while its owner still reads it).
     */
    private final boolean fileTellsClose;
    private long fullSince;
    /** What was sent into the block of a dead owner, handed back; null until the owner is found dead. */
    private DeadPeerReturns returns;
    /** The owner's heads as the last stall check summed them ({@link #stalled}). */
    private long lastProgress = -1;

    OwnerWatch(
        final ShmTransport transport, final Route route, final MappedRegion region, final QueueBlock block,
        final int inverse, final long pid)
    {
        this.transport = transport;
        this.route = route;
        this.block = block;
        this.region = region;
        this.inverse = inverse;
        this.pid = pid;
        this.livenessNanos = transport.config.livenessNanos;
        this.owner = identify(transport, region, block);
        this.fileTellsClose = SealedMemory.isAddress(region.path) && null != region.fileKey;
    }

    /**
     * The destination's owner process, as far as what a faulty writer cannot forge allows: the header's pid and start
     * time are words any process of the user may overwrite, and a forged one names no process (or another), so a
     * live owner would be taken for dead (its queued messages handed back while it delivers them). The pid comes from
     * the address the block was just opened by ({@code /proc/<pid>/fd/<fd>}: that process held the file then), and
     * the start time is that process's, read now: the header's is not read at all. The header's words are believed
     * only for a block opened by a path that names no process (a file in a job directory, unsealed).
     */
    private static PeerProcess identify(
        final ShmTransport transport, final MappedRegion region, final QueueBlock block)
    {
        final long addressPid = SealedMemory.pidOf(region.path);
        if (addressPid <= 0)
        {
            return transport.peers.acquire(block.ownerProcessId(), block.ownerPid(), block.ownerStartMs());
        }
        return transport.peers.acquire(block.ownerProcessId(), addressPid, ProcessIdentity.startTimeMs(addressPid));
    }

    /**
     * What the destination's queue block says before anything is taken: a closed endpoint, a dead owner, and step 1,
     * the tag copy. A state that is not OPEN refuses the message only when the destination's file is gone too
     * ({@link #closed}): otherwise it is a faulty writer's garbage over a live endpoint's header, which its owner
     * repairs, and the message goes on (a reply reaches a live requester whatever its header says).
     *
     * @param requestOpcode the message has a request opcode (returned or not): a closed endpoint refuses it as such.
     * @param returned      the message is a returned one; a request that is not must carry a matching tag.
     * @param tag           the message's tag.
     * @return 0 when the destination takes the message, else the return status it comes back with.
     */
    int refusal(final boolean requestOpcode, final boolean returned, final long tag)
    {
        if (closed())
        {
            return closedStatus(requestOpcode);
        }
        if (owner.isDead())
        {
            // Nothing is written into a dead process's block: the message comes back at once (a returned one is
            // dropped by the core, as every returned message that cannot go back is).
            return ReturnStatus.EUNREACHABLE.code();
        }
        // Step 1: the tag copy in the queue block.
        if (requestOpcode && !returned && !Tags.accepts(block.tag(), tag))
        {
            return ReturnStatus.EBADTAG.code();
        }
        return 0;
    }

    /**
     * The destination's state word says its queue block is not open, and the kernel agrees: its owner removes the
     * block's file (closes the memory file's descriptor, deletes a named file) before it stores CLOSED, and no write
     * into the mapping can put the file back or take it away. A file still there means the state is a faulty writer's
     * garbage over a live endpoint's header (its owner repairs it), and the message goes on. The file is looked at
     * with a system call, on this rare path only; once gone, gone for good.
     *
     * @return true when the destination endpoint has been freed (or its process is gone).
     */
    boolean closed()
    {
        if (STATE_OPEN == block.state() && !abandoned)
        {
            return false;
        }
        if (!fileGone && !region.stillNamesFile())
        {
            fileGone = true;
        }
        return fileGone;
    }

    /**
     * A packet was taken: the queue is not full (any more).
     */
    void progressed()
    {
        if (0 != fullSince)
        {
            // A hint shared by the threads of a PAR bundle: stored only when it changes, not on every send.
            fullSince = 0;
        }
    }

    /**
     * The destination queue is full. After the liveness timeout, ask whether its owner is alive: a dead owner's queue
     * never drains, and its messages come back with EUNREACHABLE.
     *
     * @return {@link Route#FULL}, or EUNREACHABLE once the owner is known dead.
     */
    int full()
    {
        // The sender backs off or gives up next: what it owes sleeping peers goes now (the owner of this queue may
        // be one of them).
        transport.rings.flush();
        if (!owner.isDead())
        {
            final long now = System.nanoTime();
            if (0 == fullSince)
            {
                fullSince = now;
                return Route.FULL;
            }
            if (now - fullSince <= livenessNanos)
            {
                return Route.FULL;
            }
            fullSince = now;
            // A queue full for the liveness timeout: look whether its owner is alive. A dead owner stays dead: every
            // later message comes back at once instead of costing one liveness timeout each, and what was sent into
            // its block is handed back (DeadPeerReturns).
            if (owner.check(now))
            {
                transport.peerDied(owner);
            }
            if (!owner.isDead())
            {
                // Free the bulk blocks claimed by senders that died before they claimed a packet: no packet names
                // them, so no one else would.
                BulkBlocks.freeClaimedByDead(block.requests, pid);
                BulkBlocks.freeClaimedByDead(block.replies, pid);
                return Route.FULL;
            }
        }
        return ReturnStatus.EUNREACHABLE.code();
    }

    /**
     * @param request the message has a request opcode.
     * @return the status a message refused by a destination whose file is gone comes back with: EBADENDPOINT
     * (EREPLYREJECTED for a reply) when its owner freed it (its state says CLOSED); EUNREACHABLE when the file went
     * with its process, which never said CLOSED.
     */
    int closedStatus(final boolean request)
    {
        if (STATE_CLOSED != block.state())
        {
            // A look now (at most one per interval): the transport tells the endpoints once.
            if (owner.check(System.nanoTime()))
            {
                transport.peerDied(owner);
            }
            if (owner.isDead())
            {
                return ReturnStatus.EUNREACHABLE.code();
            }
        }
        return request ? ReturnStatus.EBADENDPOINT.code() : ReturnStatus.EREPLYREJECTED.code();
    }

    /**
     * The owner is dead (read so by the caller): hand back to the sink, as returned messages, what the route sent into
     * its block and the owner did not finish with, from where the last call stopped ({@link DeadPeerReturns}).
     *
     * @param box the index of the route's box in the block, -1 for none.
     * @return messages handed back.
     */
    int settle(final MessageSink sink, final TransportCounters drops, final int box)
    {
        if (null == returns)
        {
            returns = new DeadPeerReturns(route, block, inverse, pid, transport.deadPeerCounters, livenessNanos);
        }
        return returns.settle(sink, drops, box);
    }

    /**
     * @return true when {@link #settle} has run and found nothing of this process's still being written.
     */
    boolean settled()
    {
        return null != returns && returns.done();
    }

    /**
     * The stall check of the dead-peer watch: the owner's queues hold messages (anyone's in its shared queues, ours in
     * our box) and none of its published heads moved since the last call. Reads lines the senders and the owner
     * write, so it is called only now and then (about four times per liveness timeout).
     *
     * @param box the index of the route's box in the block, -1 for none.
     * @return true when the owner's queues stalled since the last call.
     */
    boolean stalled(final int box)
    {
        final PacketQueue requests = block.requests;
        final PacketQueue replies = block.replies;
        final long requestsHead = requests.buffer.getLongVolatile(requests.headOffset);
        final long repliesHead = replies.buffer.getLongVolatile(replies.headOffset);
        long progress = requestsHead + repliesHead;
        boolean waiting = requests.tail() != requestsHead || replies.tail() != repliesHead;
        if (box >= 0)
        {
            final FastBoxTable boxes = block.boxes;
            for (int kind = 0; kind < 2; kind++)
            {
                final long head = boxes.getAcquire(boxes.headOffset(box, kind));
                progress += head;
                waiting |= FastBoxDescriptor.ready(head) ==
                    boxes.stamp(boxes.packetOffset(boxes.ringOffset(box, kind), head));
            }
        }
        final boolean stalled = waiting && progress == lastProgress;
        lastProgress = progress;
        return stalled;
    }

    /**
     * For the dead-peer watch, when the destination's queues stalled and its owner lives. A destination whose file is
     * gone while its state word says OPEN was freed by its owner, and a faulty writer wrote OPEN over the CLOSED: what
     * was sent into it after the owner's close drained it is read by no one. Once that close is certainly over (its
     * bound, {@link ShmQueues#DRAIN_TIMEOUTS} liveness timeouts, twice over since the file was first seen gone, and
     * the owner not stopped), the destination is taken for abandoned: sends are refused, and what the route sent
     * there is handed back as from a dead owner ({@link #settle}). The file is looked at with a system call, at most
     * once per watch of a stalled route. Only for a sealed block ({@link #fileTellsClose}): a named file deleted under
     * a live owner would otherwise have its messages both delivered and handed back.
     *
     * @return true when this call took the destination for abandoned.
     */
    boolean abandonUnderOpen(final long now)
    {
        if (abandoned || !fileTellsClose || STATE_OPEN != block.state())
        {
            // A state that says CLOSED over a file gone is a close that returns what it drained and refuses the rest.
            return false;
        }
        if (region.stillNamesFile())
        {
            goneUnderOpenSince = 0;
            return false;
        }
        if (0 == goneUnderOpenSince)
        {
            goneUnderOpenSince = now;
            return false;
        }
        if (now - goneUnderOpenSince < 2L * ShmQueues.DRAIN_TIMEOUTS * livenessNanos ||
            ProcessIdentity.isStopped(owner.pid))
        {
            return false;
        }
        fileGone = true;
        // Volatile store, before the settling pass reads the tails (see the field).
        abandoned = true;
        return true;
    }

    /**
     * @return true once the destination was taken for abandoned ({@link #abandonUnderOpen}).
     */
    boolean abandoned()
    {
        return abandoned;
    }

    /**
     * The route closes: give back the hold on the owner's process record.
     */
    void release()
    {
        transport.peers.release(owner);
    }
}
