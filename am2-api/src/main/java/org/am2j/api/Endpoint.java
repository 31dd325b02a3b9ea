package org.am2j.api;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * An AM-II endpoint (AM_AllocateEndpoint): a globally named place messages are sent from and delivered to, with its
 * tag, translation table, handler table and segment. Endpoints are allocated from a {@link Bundle} and polled through
 * it.
 * <p>
 * <b>Translation table.</b> Destinations are small indices 0 to {@link #numTranslations()} - 1, each mapped to an
 * endpoint name and the tag to send with. Mapping picks the cheapest transport that reaches the name (the same
 * process, then shared memory on the same node, then the network); replies go back the way the request came.
 * <p>
 * <b>Handler table.</b> {@link Am#NUM_HANDLERS} entries; entry 0 receives returned messages. A message naming an
 * index with no handler comes back to its sender with {@link ReturnStatus#EBADHANDLER}.
 * <p>
 * <b>Messages.</b> Requests may only be sent from outside handlers. They return {@link Am#OK} once the message is
 * handed to the destination (its handler runs later, when the destination polls); a full destination queue is waited
 * out while this endpoint's bundle is polled. Bad arguments throw {@link AmException} and send nothing.
 * <p>
 * An endpoint is closed by {@link #close()} (AM_FreeEndpoint) or by closing its bundle.
 */
public interface Endpoint extends AutoCloseable
{
    /**
     * @return the endpoint's globally unique name, to be given to the peers that map it.
     */
    EndpointName name();

    /**
     * @return the bundle the endpoint is polled through.
     */
    Bundle bundle();

    /**
     * @return the endpoint's tag (AM_GetTag). New endpoints have {@link Tags#NONE}.
     */
    long tag();

    /**
     * Set the tag senders must present (AM_SetTag); {@link Tags#NONE} refuses all, {@link Tags#ALL} accepts all.
     *
     * @param tag the new tag.
     */
    void tag(long tag);

    // ---------------------------------------------------------------------------------------------------------------
    // Translation table
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Map a translation table entry to a destination (AM_Map).
     *
     * @param index entry, 0 to {@link #numTranslations()} - 1, not in use.
     * @param name  of the destination endpoint.
     * @param tag   to send with.
     * @throws AmException {@link AmError#BAD_ARG} when index is out of range, null name, or no transport reaches
     *                     the name; {@link AmError#RESOURCE} when the entry is in use.
     */
    void map(int index, EndpointName name, long tag);

    /**
     * Map the first free translation table entry (AM_MapAny).
     *
     * @param name of the destination endpoint.
     * @param tag  to send with.
     * @return the index mapped.
     * @throws AmException {@link AmError#RESOURCE} when every entry is in use.
     */
    int mapAny(EndpointName name, long tag);

    /**
     * Free a translation table entry (AM_UnMap). Messages already sent through it are not affected.
     *
     * @param index a mapped entry.
     */
    void unmap(int index);

    /**
     * @param index entry, 0 to {@link #numTranslations()} - 1.
     * @return true when it is mapped (AM_GetTranslationInuse).
     */
    boolean isMapped(int index);

    /**
     * @param index a mapped entry.
     * @return the tag it sends with (AM_GetTranslationTag).
     */
    long translationTag(int index);

    /**
     * @param index a mapped entry.
     * @return the name it maps to (AM_GetTranslationName).
     */
    EndpointName translationName(int index);

    /**
     * @param index a mapped entry.
     * @return the name of the transport that carries messages to it, e.g. {@code "inproc"}, {@code "shm"}.
     */
    String translationTransport(int index);

    /**
     * @return the current size of the translation table (AM_GetNumTranslations).
     */
    int numTranslations();

    /**
     * Resize the translation table (AM_SetNumTranslations).
     *
     * @param count new size, 1 to {@link Am#MAX_TRANSLATIONS}; entries at or beyond it must be unmapped.
     */
    void numTranslations(int count);

    /**
     * Tell the endpoint how many destinations and outstanding requests to expect (AM_SetExpectedResources). The
     * translation table grows to hold {@code endpoints} entries; the request count is checked but sizes nothing yet
     * (queue depths are transport settings, see {@code docs/shm-protocol.md}).
     *
     * @param endpoints           expected number of destinations, 0 to {@link Am#MAX_TRANSLATIONS}.
     * @param outstandingRequests expected outstanding requests per destination, 0 or more.
     */
    void expectedResources(int endpoints, int outstandingRequests);

    // ---------------------------------------------------------------------------------------------------------------
    // Handler table
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Install a handler (AM_SetHandler). Index 0 is the returned-message handler.
     *
     * @param index   0 to {@link Am#NUM_HANDLERS} - 1.
     * @param handler to run, or null to uninstall (for index 0: restore the default that logs and counts).
     */
    void handler(int index, Handler handler);

    /**
     * Install a handler at the first free index from 1 (AM_SetHandlerAny).
     *
     * @param handler to run.
     * @return the index installed at.
     * @throws AmException {@link AmError#RESOURCE} when the table is full.
     */
    int handlerAny(Handler handler);

    /**
     * @param index 0 to {@link Am#NUM_HANDLERS} - 1.
     * @return the handler installed there, or null.
     */
    Handler handler(int index);

    // ---------------------------------------------------------------------------------------------------------------
    // Segment
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Set the segment long messages are written into (AM_SetSeg).
     *
     * @param segment buffer of at most {@link Am#MAX_SEGMENT_LENGTH} bytes, or null for none.
     */
    void segment(AtomicBuffer segment);

    /**
     * @return the segment, or null when none is set (AM_GetSeg).
     */
    AtomicBuffer segment();

    /**
     * Allocate a segment, in memory the transports can deposit into directly where they can (shared memory for the
     * shared-memory transport: one copy instead of two), and set it as this endpoint's segment. The memory is freed
     * with the endpoint.
     *
     * @param length in bytes, 1 to {@link Am#MAX_SEGMENT_LENGTH}.
     * @return the new segment, zero-filled.
     */
    AtomicBuffer allocateSegment(int length);

    // ---------------------------------------------------------------------------------------------------------------
    // Requests
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * The general form of every request: the overloads below call it.
     *
     * @param destination   index in the translation table.
     * @param category      short, medium or long.
     * @param handler       index of the handler at the destination, 0 to {@link Am#NUM_HANDLERS} - 1.
     * @param src           data to send (ignored for short requests; may then be null).
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @param segmentOffset for a long request, where the data goes in the destination's segment.
     * @param async         when true, return the code of {@link AmError#IN_USE} instead of waiting for queue space.
     * @param argCount      number of arguments, 0 to {@link Am#MAX_SHORT}.
     * @param a0            argument 0 (ignored beyond argCount).
     * @param a1            argument 1.
     * @param a2            argument 2.
     * @param a3            argument 3.
     * @param a4            argument 4.
     * @param a5            argument 5.
     * @param a6            argument 6.
     * @param a7            argument 7.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} for a full queue when async.
     */
    int requestN(
        int destination, MessageCategory category, int handler, DirectBuffer src, int srcOffset, int length,
        long segmentOffset, boolean async, int argCount, int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7);

    /**
     * Send data of any length to the destination's segment as a pipeline of long requests of at most
     * {@link Am#MAX_LONG} bytes each. The handler runs once per chunk, with that chunk's
     * {@link Message#segmentOffset()} and {@link Message#dataLength()}, and arguments a0 and a1.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 or more.
     * @param segmentOffset where the data starts in the destination's segment.
     * @param a0            argument 0 of every chunk.
     * @param a1            argument 1 of every chunk.
     * @return number of long requests sent.
     */
    int requestBulk(
        int destination, int handler, DirectBuffer src, int srcOffset, int length, long segmentOffset, int a0, int a1);

    /**
     * Free the endpoint (AM_FreeEndpoint): it leaves its bundle and its name stops working. Every message still
     * queued for it goes back instead of being delivered: a request to its sender's handler 0 with
     * {@link ReturnStatus#EBADENDPOINT}, a reply to its replier's handler 0 with {@link ReturnStatus#EREPLYREJECTED};
     * what this endpoint sent itself, and its own returned messages still queued, run its handler 0 during this
     * call (no other handler runs). Later messages come back to their senders the same way. So for every sender,
     * each message is either delivered or returned, never both. A process that exits with endpoints still open
     * does not return what is queued for them: free them first. Closing twice is harmless. After closing, the
     * endpoint's own identity ({@link #name()}, {@link #tag()}, {@link #segment()}, {@link #bundle()},
     * {@link #statistics()}, {@link #isClosed()}) still answers with its last values; every other call throws
     * {@link AmException} with {@link AmError#NOT_INIT}.
     */
    @Override
    void close();

    /**
     * @return true once the endpoint is closed.
     */
    boolean isClosed();

    /**
     * @return the endpoint's statistics counters (also readable live from outside with {@code bin/am2j stat}).
     */
    EndpointStatistics statistics();

    /**
     * Short request with 0 arguments (AM_Request0).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 1 argument (AM_Request1).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler, final int a0)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 2 arguments (AM_Request2).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler, final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 3 arguments (AM_Request3).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(final int destination, final int handler, final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Short request with 4 arguments (AM_Request4).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Short request with 5 arguments (AM_Request5).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Short request with 6 arguments (AM_Request6).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Short request with 7 arguments (AM_Request7).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Short request with 8 arguments (AM_Request8).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @return {@link Am#OK}.
     */
    default int request(
        final int destination, final int handler,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.SHORT, handler, null, 0, 0, -1, false, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }

    /**
     * Medium request with 0 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI0).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 1 argument; the data is handed to the handler in a temporary buffer (AM_RequestI1).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 2 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI2).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 3 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI3).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Medium request with 4 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI4).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Medium request with 5 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI5).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Medium request with 6 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI6).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Medium request with 7 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI7).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Medium request with 8 arguments; the data is handed to the handler in a temporary buffer (AM_RequestI8).
     *
     * @param destination index in the translation table.
     * @param handler     index of the handler at the destination.
     * @param src         data to send.
     * @param srcOffset   of the data in src.
     * @param length      of the data, 0 to {@link Am#MAX_MEDIUM}.
     * @return {@link Am#OK}.
     */
    default int requestMedium(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.MEDIUM, handler, src, srcOffset, length, -1, false, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }

    /**
     * Long request with 0 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer0). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 1 argument; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer1). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 2 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer2). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 3 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer3). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 4 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer4). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Long request with 5 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer5). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Long request with 6 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer6). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Long request with 7 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer7). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Long request with 8 arguments; the data is written into the destination's segment before its handler runs
     * (AM_RequestXfer8). Waits while the destination queue is full.
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}.
     */
    default int requestLong(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, false, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }

    /**
     * Long request with 0 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync0).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 1 argument that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync1).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 1, a0, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 2 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync2).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 2, a0, a1, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 3 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync3).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 3, a0, a1, a2, 0, 0, 0, 0, 0);
    }

    /**
     * Long request with 4 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync4).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 4, a0, a1, a2, a3, 0, 0, 0, 0);
    }

    /**
     * Long request with 5 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync5).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 5, a0, a1, a2, a3, a4, 0, 0, 0);
    }

    /**
     * Long request with 6 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync6).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 6, a0, a1, a2, a3, a4, a5, 0, 0);
    }

    /**
     * Long request with 7 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync7).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 7, a0, a1, a2, a3, a4, a5, a6, 0);
    }

    /**
     * Long request with 8 arguments that never waits: when the destination queue is full it returns the code of
     * {@link AmError#IN_USE} and sends nothing (AM_RequestXferAsync8).
     *
     * @param destination   index in the translation table.
     * @param handler       index of the handler at the destination.
     * @param src           data to send.
     * @param srcOffset     of the data in src.
     * @param length        of the data, 0 to {@link Am#MAX_LONG}.
     * @param segmentOffset where the data goes in the destination's segment.
     * @return {@link Am#OK}, or the code of {@link AmError#IN_USE} when the destination queue is full.
     */
    default int requestLongAsync(
        final int destination, final int handler, final DirectBuffer src, final int srcOffset, final int length, final long segmentOffset,
        final int a0, final int a1, final int a2, final int a3, final int a4, final int a5, final int a6, final int a7)
    {
        return requestN(destination, MessageCategory.LONG, handler, src, srcOffset, length, segmentOffset, true, 8, a0, a1, a2, a3, a4, a5, a6, a7);
    }
}
