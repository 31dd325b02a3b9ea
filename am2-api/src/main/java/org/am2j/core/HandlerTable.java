package org.am2j.core;

import java.util.Arrays;

import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Handler;

/**
 * An endpoint's handler table: {@link Am#NUM_HANDLERS} entries, entry 0 the returned-message handler.
 * <p>
 * The table is an immutable snapshot replaced on every change (copy on write): installing a handler is rare, a look-up
 * happens for every message, and a look-up is then one load of the snapshot (a volatile read, a plain load on x86)
 * and one array element, with no per-element fence or type guard. A dispatcher that loads the snapshot sees every
 * handler in it complete, since the snapshot was filled before the volatile store that published it.
 */
final class HandlerTable
{
    private final Handler defaultReturnedHandler;

    /** The current snapshot: never written in place once published. */
    private volatile Handler[] entries;

    /**
     * @param defaultReturnedHandler installed at entry 0 when the user installs none.
     */
    HandlerTable(final Handler defaultReturnedHandler)
    {
        this.defaultReturnedHandler = defaultReturnedHandler;
        final Handler[] initial = new Handler[Am.NUM_HANDLERS];
        initial[0] = defaultReturnedHandler;
        entries = initial;
    }

    /**
     * @param index 0 to 255, checked by the caller.
     * @return the handler, or null.
     */
    Handler get(final int index)
    {
        return entries[index];
    }

    synchronized void set(final int index, final Handler handler)
    {
        AmException.checkRange("handler index", index, 0, Am.NUM_HANDLERS);
        final Handler installed = null == handler && 0 == index ? defaultReturnedHandler : handler;
        final Handler[] next = Arrays.copyOf(entries, Am.NUM_HANDLERS);
        next[index] = installed;
        // Volatile store of a filled copy: a dispatcher that loads it sees the handler object fully constructed.
        entries = next;
    }

    synchronized int setAny(final Handler handler)
    {
        AmException.checkNotNull("handler", handler);
        for (int i = 1; i < Am.NUM_HANDLERS; i++)
        {
            if (null == get(i))
            {
                set(i, handler);
                return i;
            }
        }
        throw new AmException(AmError.RESOURCE, "handler table full: all " + (Am.NUM_HANDLERS - 1) +
            " entries 1 to " + (Am.NUM_HANDLERS - 1) + " are in use");
    }
}
