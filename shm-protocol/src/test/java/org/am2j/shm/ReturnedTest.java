package org.am2j.shm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Messages the destination refuses come back to the sender's handler 0 with the right status, between two rank JVMs
 * (see {@link ReturnedMain}): EBADTAG (and the destination's handler never runs), EBADHANDLER, EBADLENGTH from the
 * sender's and from the receiver's check, EBADSEGOFF, EBADENDPOINT after the destination freed its endpoint.
 */
class ReturnedTest extends LauncherTestSupport
{
    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void refusedMessagesComeBackWithTheirStatus() throws Exception
    {
        final JobResult result = runJob(35, 2, List.of(), ReturnedMain.class);

        result.assertSucceeded(2);
        assertTrue(result.out.contains("[0] rank 0 ok\n"), result.output());
        assertTrue(result.out.contains("[1] rank 1 ok: 11 returned messages\n"), result.output());
        for (final String status : List.of("EBADTAG", "EBADHANDLER", "EBADLENGTH", "EBADSEGOFF", "EBADENDPOINT"))
        {
            assertTrue(result.out.contains("expecting " + status + ": ok"), status + result.output());
        }
        assertNothingLeft(result.jobId(), result.rankPids());
    }
}
