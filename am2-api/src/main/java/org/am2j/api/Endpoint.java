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
public interface Endpoint extends AutoCloseable, TransferCalls
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
    // Requests: the general form and AM-II's calls per argument count are in RequestCalls and TransferCalls
    // ---------------------------------------------------------------------------------------------------------------

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
}
