package org.am2j.api;

/**
 * Events that {@link Bundle#waitSema()} waits for (AM_SetEventMask).
 */
public enum EventMask
{
    /** No event is signalled: {@link Bundle#waitSema()} refuses to wait. */
    NOEVENTS,
    /** Signalled when a message is waiting in any endpoint of the bundle. */
    NOTEMPTY
}
