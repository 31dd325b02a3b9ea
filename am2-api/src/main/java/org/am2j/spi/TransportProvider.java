package org.am2j.spi;

/**
 * A transport, found with {@link java.util.ServiceLoader} by its {@link #name()}: {@code inproc} (built in),
 * {@code shm}, {@code net}. A program has a protocol when the module that provides it is on its class path.
 */
public interface TransportProvider
{
    /**
     * @return the transport's name, used in endpoint names, counters and configuration.
     */
    String name();

    /**
     * Open the transport for this process. Called once per process, when the first bundle is allocated.
     *
     * @param context of the process: its identity, node, job and configuration.
     * @return the open transport.
     * @throws org.am2j.api.AmException {@link org.am2j.api.AmError#RESOURCE} when it cannot open.
     */
    Transport open(TransportContext context);
}
