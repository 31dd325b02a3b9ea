package org.am2j.shm;

import java.nio.ByteBuffer;

import org.am2j.api.Endpoint;
import org.am2j.api.EndpointName;
import org.am2j.spmd.Job;

/**
 * For rank programs: all-gather every rank's endpoint name and tag and map rank r at translation index r.
 */
final class Peers
{
    private Peers()
    {
    }

    static void mapAll(final Job job, final Endpoint endpoint)
    {
        final byte[] name = endpoint.name().toBytes();
        final byte[] mine = ByteBuffer.allocate(8 + name.length).putLong(endpoint.tag()).put(name).array();
        final byte[][] all = job.allGather(mine);
        for (int rank = 0; rank < all.length; rank++)
        {
            final ByteBuffer buffer = ByteBuffer.wrap(all[rank]);
            final long tag = buffer.getLong();
            final byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            endpoint.map(rank, EndpointName.fromBytes(bytes), tag);
        }
    }
}
