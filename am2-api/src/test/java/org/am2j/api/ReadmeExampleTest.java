package org.am2j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The API example of README.md, kept compiling and correct.
 */
class ReadmeExampleTest
{
    @Test
    @Timeout(10)
    void theReadmeExampleComputes42()
    {
        final int[] sum = { -1 };
        // README example begins
        try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
        {
            Endpoint server = bundle.allocateEndpoint();
            Endpoint client = bundle.allocateEndpoint();
            server.tag(Tags.fresh());                        // senders must present this tag
            client.tag(Tags.fresh());
            client.map(0, server.name(), server.tag());      // translation table: index 0 -> server

            server.handler(1, (token, msg) -> token.reply(2, msg.arg(0) + msg.arg(1)));
            client.handler(2, (token, msg) -> sum[0] = msg.arg(0));
            client.handler(0, (token, msg) -> System.err.println("returned: " + msg.returnStatus()));

            client.request(0, 1, 40, 2);                     // short request to handler 1, two arguments
            while (sum[0] < 0)
            {
                bundle.poll();                               // handlers run inside poll()
            }
            System.out.println("40 + 2 = " + sum[0]);
        }
        // README example ends
        assertEquals(42, sum[0]);
    }
}
