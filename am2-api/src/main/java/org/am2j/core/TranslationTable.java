package org.am2j.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.am2j.api.Am;
import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * An endpoint's translation table: destination index to {@link Translation}. Changes are made under the table's
 * lock; the send path reads an entry with one acquire load and no lock. Resizing publishes a new array.
 */
final class TranslationTable
{
    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(Translation[].class);

    private volatile Translation[] entries = new Translation[Am.DEFAULT_TRANSLATIONS];

    /**
     * The send path's look-up.
     *
     * @param index destination index.
     * @return the mapped entry.
     * @throws AmException {@link AmError#BAD_ARG} when the index is out of range or not mapped.
     */
    Translation get(final int index)
    {
        final Translation[] table = entries;
        if (index < 0 || index >= table.length)
        {
            throw new AmException(AmError.BAD_ARG, "destination index = " + index + " is outside [0, " +
                table.length + ") (the translation table size)");
        }
        final Translation entry = (Translation)ENTRIES.getAcquire(table, index);
        if (null == entry)
        {
            throw new AmException(AmError.BAD_ARG, "destination index = " + index + " is not mapped");
        }
        return entry;
    }

    /**
     * @param index entry.
     * @return the entry, or null when it is not mapped.
     * @throws AmException {@link AmError#BAD_ARG} when the index is out of range.
     */
    Translation find(final int index)
    {
        final Translation[] table = entries;
        AmException.checkRange("translation index", index, 0, table.length);
        return (Translation)ENTRIES.getAcquire(table, index);
    }

    synchronized void put(final int index, final Translation translation)
    {
        final Translation[] table = entries;
        AmException.checkRange("translation index", index, 0, table.length);
        if (null != table[index])
        {
            throw new AmException(AmError.RESOURCE, "translation index = " + index + " is already mapped to " +
                table[index].name + "; unmap it first");
        }
        // Release store: the entry is complete before a sender can load it.
        ENTRIES.setRelease(table, index, translation);
    }

    synchronized int putAny(final Translation translation)
    {
        final Translation[] table = entries;
        for (int i = 0; i < table.length; i++)
        {
            if (null == table[i])
            {
                ENTRIES.setRelease(table, i, translation);
                return i;
            }
        }
        throw new AmException(AmError.RESOURCE, "translation table full: all " + table.length +
            " entries are mapped; grow it with numTranslations(n), n up to " + Am.MAX_TRANSLATIONS);
    }

    synchronized void remove(final int index)
    {
        final Translation[] table = entries;
        AmException.checkRange("translation index", index, 0, table.length);
        if (null == table[index])
        {
            throw new AmException(AmError.BAD_ARG, "translation index = " + index + " is not mapped");
        }
        ENTRIES.setRelease(table, index, null);
    }

    int size()
    {
        return entries.length;
    }

    /**
     * AM_SetExpectedResources: room for {@code endpoints} translations (the table grows, never shrinks, here); the
     * number of outstanding requests is checked and otherwise only a hint, queues being sized by their transports.
     */
    void expect(final int endpoints, final int outstandingRequests)
    {
        AmException.checkRange("endpoints", endpoints, 0, Am.MAX_TRANSLATIONS + 1);
        if (outstandingRequests < 0)
        {
            throw new AmException(AmError.BAD_ARG, "outstandingRequests = " + outstandingRequests +
                " is outside [0, " + Integer.MAX_VALUE + "]");
        }
        if (endpoints > size())
        {
            resize(endpoints);
        }
    }

    synchronized void resize(final int size)
    {
        AmException.checkRange("numTranslations", size, 1, Am.MAX_TRANSLATIONS + 1);
        final Translation[] table = entries;
        for (int i = size; i < table.length; i++)
        {
            if (null != table[i])
            {
                throw new AmException(AmError.RESOURCE, "numTranslations = " + size + " would drop mapped index " +
                    i + "; unmap indices >= " + size + " first");
            }
        }
        final Translation[] resized = new Translation[size];
        System.arraycopy(table, 0, resized, 0, Math.min(size, table.length));
        // Volatile store of the new array: senders see either the old table or the complete new one.
        entries = resized;
    }
}
