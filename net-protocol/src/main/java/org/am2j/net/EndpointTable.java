package org.am2j.net;

import java.util.Arrays;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * The endpoints of a NIC's process: those it delivers to (open ones, by id) and those it serves (closed ones too,
 * until their queues are empty). Copy-on-write tables: hosts change them under a lock, the agent reads them without.
 */
final class EndpointTable
{
    private final Object registry = new Object();
    private volatile ServedQueues[] endpoints = new ServedQueues[0];
    private volatile Int2ObjectHashMap<ServedQueues> endpointsById = new Int2ObjectHashMap<>();

    /**
     * @return the endpoints the agent serves, closed ones included until retired (a copy-on-write array).
     */
    ServedQueues[] all()
    {
        return endpoints;
    }

    /**
     * @param id an endpoint id.
     * @return the open endpoint with that id, or null.
     */
    ServedQueues byId(final int id)
    {
        return endpointsById.get(id);
    }

    /**
     * @return true when an endpoint has a record queued for the NIC.
     */
    boolean hasQueuedSends()
    {
        for (final ServedQueues endpoint : endpoints)
        {
            if (endpoint.hasQueuedSends())
            {
                return true;
            }
        }
        return false;
    }

    void register(final ServedQueues endpoint)
    {
        synchronized (registry)
        {
            final ServedQueues[] grown = Arrays.copyOf(endpoints, endpoints.length + 1);
            grown[grown.length - 1] = endpoint;
            final Int2ObjectHashMap<ServedQueues> byId = new Int2ObjectHashMap<>(endpointsById);
            byId.put(endpoint.id(), endpoint);
            // Volatile stores of fully built copies: the agent sees the old table or the new one, never a torn one.
            endpointsById = byId;
            endpoints = grown;
        }
    }

    /**
     * The endpoint closed: nothing more is delivered to it. It stays in the table the agent drains until its send
     * queues are empty (their messages hold credits of the peers' channels, which every endpoint shares), and the
     * agent then retires it.
     *
     * @param endpoint closed.
     */
    void unregister(final ServedQueues endpoint)
    {
        synchronized (registry)
        {
            if (endpointsById.get(endpoint.id()) != endpoint)
            {
                return;
            }
            final Int2ObjectHashMap<ServedQueues> byId = new Int2ObjectHashMap<>(endpointsById);
            byId.remove(endpoint.id());
            // Volatile store of a fully built copy.
            endpointsById = byId;
        }
    }

    void retire(final ServedQueues endpoint)
    {
        synchronized (registry)
        {
            final ServedQueues[] current = endpoints;
            int at = -1;
            for (int i = 0; i < current.length; i++)
            {
                if (current[i] == endpoint)
                {
                    at = i;
                }
            }
            if (at < 0)
            {
                return;
            }
            final ServedQueues[] shrunk = new ServedQueues[current.length - 1];
            System.arraycopy(current, 0, shrunk, 0, at);
            System.arraycopy(current, at + 1, shrunk, at, current.length - at - 1);
            // Volatile store of a fully built copy.
            endpoints = shrunk;
        }
    }
}
