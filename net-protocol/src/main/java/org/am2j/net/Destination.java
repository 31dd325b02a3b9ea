package org.am2j.net;

import java.net.InetSocketAddress;

/**
 * Where the datagrams for one peer go. A {@link Wire} makes one per peer ({@link Wire#destination}) and the peer
 * keeps it, so that the wire can prepare what it needs once per peer rather than once per datagram: {@link UdpWire}
 * gives each of the first peers a socket connected to it.
 */
class Destination
{
    final InetSocketAddress address;

    /**
     * @param address the peer NIC's address, where its socket receives.
     */
    Destination(final InetSocketAddress address)
    {
        this.address = address;
    }

    @Override
    public String toString()
    {
        return address.toString();
    }
}
