package org.am2j.shm;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

public final class SmokeMain
{
    public static void main(final String[] args)
    {
        try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            final Endpoint ep = bundle.allocateEndpoint();
            ep.tag(Tags.fresh());
            final int[] got = new int[2];
            ep.handler(1, (token, msg) -> { got[1]++; token.reply(2, msg.arg(0) * 10); });
            ep.handler(2, (token, msg) -> got[0] = msg.arg(0));
            Peers.mapAll(job, ep);
            final int peer = 1 - job.rank();
            System.out.println("transport to " + peer + ": " + ep.translationTransport(peer) + " transports " + Am.transports());
            ep.request(peer, 1, job.rank() + 7);
            long spins = 0;
            while (got[0] == 0 || got[1] == 0)
            {
                bundle.poll();
                if (++spins % 100_000_000 == 0) System.out.println("still waiting " + got[0] + " " + got[1]);
            }
            System.out.println("reply " + got[0]);
            job.barrier();
        }
    }
}
