package org.am2j.net;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The default address of the NIC is the local address of the route to the job's rendezvous.
 */
class NetConfigHostTest
{
    @Test
    void aRendezvousOnLoopbackIsReachedFromLoopback()
    {
        assertEquals(InetAddress.getLoopbackAddress(), NetConfig.localAddressTowards("127.0.0.1:40000"));
        assertEquals(InetAddress.getLoopbackAddress(), NetConfig.defaultHost("127.0.0.1:40000"));
    }

    @Test
    void aRendezvousAtALocalInterfaceAddressIsReachedFromThatAddress() throws Exception
    {
        // the route to one of this host's own addresses leaves from that address, and the route to loopback from
        // loopback: the destination, not the order of the interfaces, chooses
        final List<InetAddress> local = new ArrayList<>();
        for (final NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces()))
        {
            if (nic.isUp() && !nic.isLoopback())
            {
                for (final InetAddress address : Collections.list(nic.getInetAddresses()))
                {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress())
                    {
                        local.add(address);
                    }
                }
            }
        }
        assumeTrue(!local.isEmpty(), "this host has no non-loopback IPv4 address");
        for (final InetAddress address : local)
        {
            assertEquals(address, NetConfig.localAddressTowards(address.getHostAddress() + ":4000"));
        }
        assertEquals(InetAddress.getLoopbackAddress(), NetConfig.localAddressTowards("127.0.0.1:4000"));
    }

    @Test
    void anUnusableBootstrapFallsBackToAnInterfaceAddress()
    {
        assertNull(NetConfig.localAddressTowards("no-such-host.invalid:4000"));
        assertNull(NetConfig.localAddressTowards("127.0.0.1:0"));
        assertNull(NetConfig.localAddressTowards("127.0.0.1"));
        assertNotNull(NetConfig.defaultHost("no-such-host.invalid:4000"));
        assertNotNull(NetConfig.defaultHost(null));
    }
}
