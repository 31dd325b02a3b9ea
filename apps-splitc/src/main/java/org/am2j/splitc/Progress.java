package org.am2j.splitc;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.am2j.api.Bundle;
import org.am2j.api.EventMask;
import org.am2j.idle.CpuShare;
import org.am2j.idle.IdleSteps;

/**
 * How one rank's Split-C layer makes progress: it polls before every {@link SplitCOptions#pollEvery()}-th message it
 * sends, and in every wait. A wait with nothing to handle spins, then yields, then sleeps in {@link Bundle#waitSema}
 * until a message arrives, and fails when it has handled nothing for the stall limit. When the CPUs are
 * oversubscribed as the wait starts ({@link CpuShare}), it sleeps at once: a spin would keep the peer it waits for
 * off a CPU. It also holds the failure that makes the layer unusable (a returned message, a stall, a collective
 * mismatch) and whether the layer is closed.
 * <p>
 * A wait is {@link #beginWait()} followed by {@link #waitStep(String)} while its condition does not hold.
 */
final class Progress
{
    private final Bundle bundle;
    private final int rank;
    private final int pollEvery;
    private final long stallNanos;
    private final IdleSteps steps;
    private final int sleepMicros;

    private int sendsSincePoll;
    private boolean idling;
    private int step;
    private long idleSince;
    private long sleeps;
    private long sleepTimeouts;
    private SplitCException failure;
    private boolean closed;
    /** What the whole rank is waiting for, in words, for the message of a stalled wait. */
    private Supplier<String> diagnostics = () -> "no diagnostics";

    Progress(final Bundle bundle, final int rank, final SplitCOptions options)
    {
        this(bundle, rank, options, CpuShare.process());
    }

    /**
     * @param share whether the CPUs are oversubscribed (tests give a scripted one).
     */
    Progress(final Bundle bundle, final int rank, final SplitCOptions options, final CpuShare share)
    {
        this.bundle = bundle;
        this.rank = rank;
        this.pollEvery = options.pollEvery();
        this.stallNanos = TimeUnit.MILLISECONDS.toNanos(options.stallMillis());
        this.steps = new IdleSteps(options.spins(), options.yields(), share);
        this.sleepMicros = options.sleepMicros();
    }

    int rank()
    {
        return rank;
    }

    /**
     * @param diagnostics says what the whole rank is waiting for, in the message of a stalled wait.
     */
    void diagnostics(final Supplier<String> diagnostics)
    {
        this.diagnostics = diagnostics;
    }

    /**
     * @throws SplitCException the recorded failure, or because the layer is closed.
     */
    void checkUsable()
    {
        if (null != failure)
        {
            throw failure;
        }
        if (closed)
        {
            throw new SplitCException("rank " + rank + ": the Split-C layer is closed");
        }
    }

    /**
     * Record a failure: the first one makes the layer unusable, and every later call throws it.
     *
     * @param ex the failure.
     * @return {@code ex}, for {@code throw progress.fail(...)}.
     */
    SplitCException fail(final SplitCException ex)
    {
        if (null == failure)
        {
            failure = ex;
        }
        return ex;
    }

    SplitCException failure()
    {
        return failure;
    }

    /**
     * @return messages handled by one poll, after checking the layer is usable.
     */
    int poll()
    {
        checkUsable();
        return bundle.poll();
    }

    /**
     * Poll first, every {@code pollEvery} messages, as the model paper's layer polls before each send: a rank that
     * sends long runs of requests keeps serving its peers and draining its replies. Called before sending, never
     * between a get's send and its return.
     */
    void beforeSend()
    {
        if (++sendsSincePoll >= pollEvery)
        {
            sendsSincePoll = 0;
            if (null != failure)
            {
                throw failure;
            }
            bundle.poll();
        }
    }

    /**
     * Start a wait: the idle count and the stall clock start again.
     */
    void beginWait()
    {
        idling = false;
    }

    /**
     * One step of a wait: poll; when nothing was handled, idle a little (spin, then yield, then sleep until a message
     * arrives; sleep at once when the CPUs are oversubscribed as the idling starts), and fail when nothing has been
     * handled for the stall limit.
     *
     * @param waitingFor what the wait waits for, for the stall message.
     */
    void waitStep(final String waitingFor)
    {
        if (null != failure)
        {
            throw failure;
        }
        if (0 != bundle.poll())
        {
            idling = false;
            return;
        }
        if (!idling)
        {
            idling = true;
            idleSince = System.nanoTime();
            step = steps.firstStep();
        }
        final int action = steps.action(step);
        if (IdleSteps.SLEEP != action)
        {
            step++;
        }
        if (IdleSteps.SPIN == action)
        {
            Thread.onSpinWait();
        }
        else if (IdleSteps.YIELD == action)
        {
            Thread.yield();
        }
        else
        {
            if (0 != stallNanos && System.nanoTime() - idleSince > stallNanos)
            {
                throw fail(new SplitCException("rank " + rank + ": no message handled for " +
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - idleSince) + " ms while waiting for " +
                    waitingFor + "; " + diagnostics.get()));
            }
            sleeps++;
            bundle.eventMask(EventMask.NOTEMPTY);
            if (!bundle.waitSema(sleepMicros, TimeUnit.MICROSECONDS))
            {
                sleepTimeouts++;
                bundle.eventMask(EventMask.NOEVENTS);
            }
        }
    }

    long sleeps()
    {
        return sleeps;
    }

    long sleepTimeouts()
    {
        return sleepTimeouts;
    }

    /**
     * Free the bundle (its endpoint and segment) once.
     */
    void close()
    {
        if (!closed)
        {
            closed = true;
            bundle.close();
        }
    }
}
