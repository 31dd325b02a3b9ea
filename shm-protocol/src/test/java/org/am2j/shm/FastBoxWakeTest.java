package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.am2j.api.Opcode;
import org.am2j.spi.OutboundMessage;
import org.am2j.spi.Route;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receiver that sleeps on its doorbell the way waitSema() does (ticket, sleeping flag, check, futex) while a fast box
 * sender sends one message at a time, each at a random moment of the receiver's way to sleep: never a lost wake-up.
 * A lost one shows as a sleep that ends by its (long) timeout with the message there, which fails the test. The box's
 * only fence (ShmRoute.publishBoxed) is what this checks.
 */
class FastBoxWakeTest
{
    /** A sleep this long with a message pending is a lost wake-up (the core's own slices are 100 ms). */
    private static final long LOST_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static void sleepsAndWakeUps(final int targetSleeps) throws InterruptedException
    {
        try (Fixture f = new Fixture("boxes", "2", "boxDepth", "8"))
        {
            assumeTrue(f.transport.canBlock(), "no futex here: waitSema() polls in slices");
            final Fixture.Ep a = f.endpoint();
            final Fixture.Ep b = f.endpoint();
            final ShmRoute ab = a.routeTo(b);
            final AtomicInteger delivered = new AtomicInteger();
            final AtomicInteger sent = new AtomicInteger();
            final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            final AtomicReference<Throwable> senderFailure = new AtomicReference<>();
            final Thread sender = new Thread(() ->
            {
                final SplittableRandom random = new SplittableRandom(99);
                final OutboundMessage scratch = new OutboundMessage();
                try
                {
                    for (int i = 0; !stop.get(); i++)
                    {
                        while (delivered.get() < i && !stop.get())
                        {
                            Thread.onSpinWait();
                        }
                        if (stop.get())
                        {
                            // the receiver stopped before taking the last message: it takes it after the join
                            break;
                        }
                        // A random moment of the receiver's way to sleep (or of its sleep).
                        for (int spin = random.nextInt(2000); spin > 0; spin--)
                        {
                            Thread.onSpinWait();
                        }
                        if (Route.SENT != ab.sendShort(scratch, Opcode.REQUEST_SHORT.code(), 5, b.host.tag, 0, 1, i,
                            0, 0, 0, 0, 0, 0, 0))
                        {
                            throw new AssertionError("send " + i + " not accepted");
                        }
                        sent.set(i + 1);
                    }
                }
                catch (final Throwable t)
                {
                    senderFailure.set(t);
                }
            }, "box-sender");
            sender.setDaemon(true);
            sender.start();

            int sleeps = 0;
            final int[] expected = { 0 };
            while (sleeps < targetSleeps && null == senderFailure.get())
            {
                final long ticket = f.transport.prepareBlock();
                b.shm.sleeping(true);
                if (!b.shm.hasPending())
                {
                    final long start = System.nanoTime();
                    f.transport.block(ticket, LOST_NANOS);
                    sleeps++;
                    if (System.nanoTime() - start >= LOST_NANOS && b.shm.hasPending())
                    {
                        throw new AssertionError("lost wake-up at message " + delivered.get() + " after " + sleeps +
                            " sleeps");
                    }
                }
                b.shm.sleeping(false);
                b.shm.poll(m ->
                {
                    assertEquals(expected[0]++, m.arg(0), "in order");
                    delivered.incrementAndGet();
                }, 32, false);
            }
            stop.set(true);
            sender.join(TimeUnit.SECONDS.toMillis(60));
            // read the counts only once the sender has ended: one still sending would move them under our feet
            assertTrue(!sender.isAlive(), "the sender did not stop within 60 s");
            assertEquals(null, senderFailure.get());
            final int messages = sent.get();
            while (delivered.get() < messages)
            {
                b.shm.poll(m ->
                {
                    assertEquals(expected[0]++, m.arg(0), "in order");
                    delivered.incrementAndGet();
                }, 32, false);
            }
            assertEquals(messages - 1, ab.boxedSends(), "all but the first contact went through the box");
            System.out.println("FastBoxWakeTest: " + messages + " messages, " + sleeps + " sleeps");
            assertTrue(messages > targetSleeps / 2, "only " + messages + " messages for " + sleeps + " sleeps");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aReceiverSleepingWhileABoxSenderSendsIsAlwaysWoken() throws InterruptedException
    {
        sleepsAndWakeUps(5_000);
    }

    @Tag("soak")
    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void aHundredThousandSleepsWithoutALostWakeUp() throws InterruptedException
    {
        sleepsAndWakeUps(100_000);
    }
}
