package org.am2j.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.Handler;

/**
 * An endpoint's handler table: {@link Am#NUM_HANDLERS} entries, entry 0 the returned-message handler. Entries are
 * published with release stores and read with acquire loads, so a handler installed by one thread is seen complete by
 * the thread that dispatches to it.
 */
final class HandlerTable
{
    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(Handler[].class);

    private final Handler[] entries = new Handler[Am.NUM_HANDLERS];
    private final Handler defaultReturnedHandler;

    /**
     * @param defaultReturnedHandler installed at entry 0 when the user installs none.
     */
    HandlerTable(final Handler defaultReturnedHandler)
    {
        this.defaultReturnedHandler = defaultReturnedHandler;
        ENTRIES.setRelease(entries, 0, defaultReturnedHandler);
    }

    /**
     * @param index 0 to 255, checked by the caller.
     * @return the handler, or null.
     */
    Handler get(final int index)
    {
        return (Handler)ENTRIES.getAcquire(entries, index);
    }

    void set(final int index, final Handler handler)
    {
        AmException.checkRange("handler index", index, 0, Am.NUM_HANDLERS);
        final Handler installed = null == handler && 0 == index ? defaultReturnedHandler : handler;
        // Release store: the handler object is fully constructed before any dispatcher can load it.
        ENTRIES.setRelease(entries, index, installed);
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
