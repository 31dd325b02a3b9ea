package org.am2j.net;

import org.am2j.api.EndpointName;

/**
 * The {@code net} address of an endpoint served by a shared NIC (a NIC process serving several processes of a node):
 * the NIC's published address followed by the NIC's id and the endpoint's id on the wire,
 * <pre>
 *   host:port#key!nicIdHex.wireEndpointId
 * </pre>
 * Several processes share the NIC, so neither the process id in the endpoint's name (each process's own) nor its
 * endpoint id (numbered per process) names it on the wire: the NIC assigns wire ids unique among the endpoints it
 * serves. An address without the suffix is an in-process NIC's: the name's process id and endpoint id are its wire
 * ids. Base64url keys never contain {@code '!'}.
 */
final class SharedNicAddress
{
    /** Separates the NIC's published address from the wire ids. */
    static final char SEPARATOR = '!';

    private SharedNicAddress()
    {
    }

    /**
     * @param published the NIC's published address, {@code host:port#key}.
     * @param nicId     the NIC's id.
     * @param wireId    the endpoint's id on the wire.
     * @return the endpoint's address.
     */
    static String format(final String published, final long nicId, final int wireId)
    {
        return published + SEPARATOR + Long.toHexString(nicId) + '.' + wireId;
    }

    /**
     * Where a destination is on the wire.
     *
     * @param nicAddress the published address of the NIC that serves it, {@code host:port#key}.
     * @param nicId      that NIC's id.
     * @param wireId     the endpoint's id on the wire.
     */
    record Target(String nicAddress, long nicId, int wireId)
    {
    }

    /**
     * @param destination an endpoint's name.
     * @return where it is on the wire, or null when the name has no {@code net} address or its suffix is malformed.
     *         An in-process NIC's address has no suffix: the NIC's id is then the name's process id, and the
     *         endpoint's wire id its endpoint id.
     */
    static Target target(final EndpointName destination)
    {
        final String address = destination.address(NetTransport.NAME);
        final int at = null == address ? -1 : address.indexOf(SEPARATOR);
        if (at < 0)
        {
            return null == address ? null : new Target(address, destination.processId(), destination.endpointId());
        }
        final int dot = address.indexOf('.', at);
        try
        {
            return dot < 0 ? null : new Target(address.substring(0, at),
                Long.parseUnsignedLong(address.substring(at + 1, dot), 16), Integer.parseInt(address.substring(dot + 1)));
        }
        catch (final NumberFormatException ex)
        {
            return null;
        }
    }
}
