package org.am2j.core.stats;

/**
 * One allocated counter of a counters file, as read at one moment by {@link CountersFileReader#snapshot()}.
 *
 * @param counterId    the counter's id (its record index in the file).
 * @param typeId       the counter's type id; see {@link EndpointCounterDescriptor} for am2j's.
 * @param endpointId   the endpoint the counter belongs to, or -1 when it is not an am2j endpoint counter.
 * @param counterIndex the index within its type from the key (counter ordinal, status code), or -1.
 * @param transport    the transport name from the key, "" when there is none.
 * @param label        the counter's label.
 * @param value        the counter's value.
 * @param rank         for an endpoint's identity counter, the rank the endpoint belongs to; else, or when it belongs
 *                     to none, {@link EndpointCounterDescriptor#NO_RANK}.
 * @param job          for an endpoint's identity counter, the job it belongs to; else, or when none is recorded, "".
 */
public record CounterSnapshot(
    int counterId, int typeId, int endpointId, int counterIndex, String transport, String label, long value, int rank,
    String job)
{
    /**
     * A counter that records no rank or job (any but an endpoint's identity counter).
     *
     * @param counterId    the counter's id (its record index in the file).
     * @param typeId       the counter's type id.
     * @param endpointId   the endpoint the counter belongs to, or -1.
     * @param counterIndex the index within its type, or -1.
     * @param transport    the transport name, "" when there is none.
     * @param label        the counter's label.
     * @param value        the counter's value.
     */
    public CounterSnapshot(
        final int counterId, final int typeId, final int endpointId, final int counterIndex, final String transport,
        final String label, final long value)
    {
        this(counterId, typeId, endpointId, counterIndex, transport, label, value, EndpointCounterDescriptor.NO_RANK,
            "");
    }

    /**
     * @return true when this is an am2j endpoint counter (its type id is in {@link EndpointCounterDescriptor}).
     */
    public boolean isEndpointCounter()
    {
        return endpointId >= 0;
    }
}
