package org.am2j.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What is process-wide in a poll ({@link org.am2j.spi.Transport#beforePoll()}: the shared-memory transport's owed
 * doorbell rings) is done once per poll of a bundle, whatever the number of its endpoints, whether they have messages
 * or not, in SEQ and PAR bundles alike. The test transport {@link FaultTransport} counts the calls.
 */
@Timeout(60)
class PollWorkOncePerPollTest
{
    private static final int H_COUNT = 1;
    private static final int POLLS = 8;

    @ParameterizedTest(name = "{0} bundle of {1} endpoints")
    @CsvSource({"SEQ, 1", "SEQ, 6", "PAR, 1", "PAR, 6"})
    void processWideWorkIsDoneOncePerPoll(final BundleKind kind, final int count)
    {
        final Bundle bundle = Am.allocateBundle(kind);
        try
        {
            final AtomicInteger received = new AtomicInteger();
            final Endpoint[] endpoints = new Endpoint[count];
            for (int i = 0; i < count; i++)
            {
                endpoints[i] = bundle.allocateEndpoint();
                endpoints[i].tag(Tags.fresh());
                endpoints[i].handler(H_COUNT, (token, msg) -> received.incrementAndGet());
            }
            for (int i = 0; i < count; i++)
            {
                final Endpoint next = endpoints[(i + 1) % count];
                endpoints[i].map(0, next.name(), next.tag());
                endpoints[i].request(0, H_COUNT);
            }
            FaultTransport.countBeforePolls();
            int handled = 0;
            for (int poll = 1; poll <= POLLS; poll++)
            {
                handled += bundle.poll();
                assertEquals(poll, FaultTransport.beforePolls(), "after poll " + poll + " of " + count +
                    " endpoints (" + handled + " messages handled)");
            }
            assertEquals(count, received.get(), "every endpoint's request was handled by these polls");
        }
        finally
        {
            FaultTransport.stopCounting();
            bundle.close();
        }
    }
}
