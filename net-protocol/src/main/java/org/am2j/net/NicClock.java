package org.am2j.net;

/**
 * The time of the NIC agent's current step, read once per step and shared by its parts (transmit path, receive
 * path, timers), and when the timers are due next. Agent thread (whoever holds the NIC).
 */
final class NicClock
{
    /** The time of the current step ({@link System#nanoTime()}). */
    long nowNanos;
    /** When the timer scan is due next. */
    long nextTimerNanos;
    /** When the timer scan last ran: a longer gap than {@link NicTimers#STALL_NANOS} was a stall of this process. */
    long lastTimerRunNanos = System.nanoTime();
}
