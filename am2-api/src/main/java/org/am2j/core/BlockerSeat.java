package org.am2j.core;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.am2j.spi.Transport;
import org.am2j.spi.VirtualThreads;

/**
 * The process's blocker ({@link Transport#canBlock()}: the NIC's selector, the shared-memory doorbell) as a seat for
 * one sleeper at a time. A process may have many threads asleep in {@code waitSema()} at once: the ranks of a JVM
 * that holds several ({@code --ranks-per-jvm}), or the threads of a program with several bundles. A selector serves
 * one thread in {@code select()} (the others would queue on its lock, deaf to wake-ups), and a process doorbell rung
 * for one sleeper would wake them all. So one sleeper holds the seat and sleeps in the blocker; the others park
 * ({@link LockSupport#parkNanos}) and are unparked by whoever gives them work:
 * <ul>
 * <li>a sender of this process (in-process transport) or the inline NIC delivering a message: the endpoint's
 * {@code signalArrival()} unparks the bundle's thread, a single system call, and rings the blocker only when that
 * bundle holds the seat;</li>
 * <li>a sender in another process (a shared-memory doorbell, a wake datagram): the seated thread wakes and
 * {@link #wakePending unparks} the parked sleepers that now have something pending.</li>
 * </ul>
 * A holder that stops sleeping gives the seat up and unparks one parked sleeper to take it, so traffic for the
 * parked ones always has a watcher, within a sleep slice at worst.
 * <p>
 * A virtual thread never takes the seat ({@link VirtualThreads}): the first virtual sleeper starts a platform thread,
 * {@value #WATCHER_NAME}, that holds the seat for good and sleeps in the blocker on behalf of all sleepers.
 */
final class BlockerSeat
{
    /**
     * A bundle as the seat sees it: the thread it may have asleep in {@code waitSema()}.
     */
    interface Sleeper
    {
        /**
         * Unpark the sleeper, if there is one: the seat is free for it to take.
         *
         * @return true when there was one.
         */
        boolean unparkSleeper();

        /**
         * Unpark the sleeper, if there is one and something is pending for it.
         */
        void unparkIfPending();
    }

    /** The name of the platform thread that holds the seat for virtual sleepers. */
    static final String WATCHER_NAME = "am2j-blocker-watch";
    /** How long {@link #stopWatcher} waits for the watcher to leave the blocker. */
    private static final long WATCHER_STOP_MILLIS = 1_000;

    private static final Sleeper[] NONE = new Sleeper[0];

    /** The process's blocker, or null when no transport can block (sleepers then park only). */
    private final Transport blocker;
    /** The process's transports, told before each sleep ({@link Transport#beforeSleep()}). */
    private final Transport[] transports;
    /** Longest single sleep. */
    private final long sliceNanos;
    private Thread watcher;
    private volatile boolean stopping;

    private final AtomicReference<Thread> holder = new AtomicReference<>();
    /** The open bundles, copied on write: read by the holder's scans. */
    private volatile Sleeper[] bundles = NONE;

    /**
     * @param blocker    the process's blocker, or null.
     * @param transports the process's transports.
     * @param sliceNanos longest single sleep in the blocker.
     */
    BlockerSeat(final Transport blocker, final List<Transport> transports, final long sliceNanos)
    {
        this.blocker = blocker;
        this.transports = transports.toArray(new Transport[0]);
        this.sliceNanos = sliceNanos;
    }

    /**
     * @param bundle opened.
     */
    synchronized void add(final Sleeper bundle)
    {
        final Sleeper[] old = bundles;
        final Sleeper[] grown = Arrays.copyOf(old, old.length + 1);
        grown[old.length] = bundle;
        bundles = grown;
    }

    /**
     * @param bundle closed.
     */
    synchronized void remove(final Sleeper bundle)
    {
        final Sleeper[] old = bundles;
        for (int i = 0; i < old.length; i++)
        {
            if (old[i] == bundle)
            {
                final Sleeper[] shrunk = new Sleeper[old.length - 1];
                System.arraycopy(old, 0, shrunk, 0, i);
                System.arraycopy(old, i + 1, shrunk, i, old.length - i - 1);
                bundles = shrunk;
                return;
            }
        }
    }

    /**
     * A thread of {@code waitSema()} asks for the seat before each sleep slice: a platform thread takes it when it is
     * free; a virtual thread never does, and has the watcher sleep in the blocker for it ({@link #watchFor}).
     *
     * @param sleeper the calling thread.
     * @return true when it holds the seat and so sleeps in the blocker ({@link #block}); false when it parks.
     */
    boolean trySeat(final Thread sleeper)
    {
        if (null == blocker)
        {
            return false;
        }
        if (VirtualThreads.isVirtual(sleeper))
        {
            watchFor();
            return false;
        }
        return take(sleeper);
    }

    /**
     * @return the ticket of a sleep in the blocker ({@link Transport#prepareBlock()}); only for the holder.
     */
    long prepareBlock()
    {
        return blocker.prepareBlock();
    }

    /**
     * The holder sleeps in the blocker, and unparks the parked sleepers with work before and after: a ring for one of
     * them before the ticket is seen by the first scan, one after it ends the sleep.
     *
     * @param bundle the holder's bundle.
     * @param ticket from {@link #prepareBlock()}.
     * @param nanos  longest sleep.
     */
    void block(final Sleeper bundle, final long ticket, final long nanos)
    {
        wakePending(bundle);
        blocker.block(ticket, nanos);
        wakePending(bundle);
    }

    /**
     * Wake the thread asleep in the blocker; only for the holder's wakers ({@link #heldBy}).
     */
    void wakeBlocker()
    {
        blocker.wakeup();
    }

    /**
     * A thread is about to sleep: each transport sends what it holds back for a batch.
     */
    void beforeSleep()
    {
        for (final Transport transport : transports)
        {
            transport.beforeSleep();
        }
    }

    /**
     * @param sleeper a thread about to sleep.
     * @return true when it holds the seat, now or already.
     */
    boolean take(final Thread sleeper)
    {
        // CAS: one holder at a time. The holder is the only thread that enters the blocker.
        return holder.get() == sleeper || holder.compareAndSet(null, sleeper);
    }

    /**
     * @param sleeper a thread asleep in {@code waitSema()}.
     * @return true when it sleeps (or is about to) in the blocker.
     */
    boolean heldBy(final Thread sleeper)
    {
        return holder.get() == sleeper;
    }

    /**
     * A thread stops sleeping: if it held the seat, the seat is free, and a parked sleeper, if any, is unparked to
     * take it.
     *
     * @param sleeper the thread.
     * @param bundle  its bundle.
     */
    void leave(final Thread sleeper, final Sleeper bundle)
    {
        // CAS, then the read of the sleepers: a sleeper that parked after its own attempt to take the seat failed is
        // seen here (its waiter was published before that attempt), or it took the seat itself once it was free.
        if (holder.compareAndSet(sleeper, null))
        {
            for (final Sleeper other : bundles)
            {
                if (other != bundle && other.unparkSleeper())
                {
                    return;
                }
            }
        }
    }

    /**
     * The holder found the blocker rung (or is about to sleep in it): unpark the parked sleepers that have something
     * pending, since a sender in another process rings the process's blocker whichever of its sleepers it has work for.
     *
     * @param bundle the holder.
     */
    void wakePending(final Sleeper bundle)
    {
        for (final Sleeper other : bundles)
        {
            if (other != bundle)
            {
                other.unparkIfPending();
            }
        }
    }

    /**
     * A virtual thread is about to park in {@code waitSema()}: make sure a platform thread sleeps in the blocker for
     * it. Started once, on the first call; it holds the seat until {@link #stopWatcher}.
     */
    private void watchFor()
    {
        if (null != watcher)
        {
            return;
        }
        synchronized (this)
        {
            if (null != watcher || stopping)
            {
                return;
            }
            // Not the starting rank's: no inherited thread locals (its RankScope), the runtime's class loader.
            final Thread thread = new Thread(null, this::watch, WATCHER_NAME, 0, false);
            thread.setContextClassLoader(BlockerSeat.class.getClassLoader());
            thread.setDaemon(true);
            watcher = thread;
            thread.start();
        }
    }

    private void watch()
    {
        final Thread self = Thread.currentThread();
        while (!stopping)
        {
            if (!take(self))
            {
                // A platform sleeper sleeps in the blocker: it hands the seat on when it leaves, to us among others.
                LockSupport.parkNanos(this, sliceNanos);
                continue;
            }
            final long ticket = blocker.prepareBlock();
            if (stopping)
            {
                break;
            }
            block(null, ticket, sliceNanos);
        }
        holder.compareAndSet(self, null);
    }

    /**
     * At exit, before the transports close: the watcher leaves the blocker and ends.
     */
    void stopWatcher()
    {
        final Thread thread;
        synchronized (this)
        {
            stopping = true;
            thread = watcher;
        }
        if (null == thread)
        {
            return;
        }
        blocker.wakeup();
        LockSupport.unpark(thread);
        try
        {
            thread.join(WATCHER_STOP_MILLIS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
