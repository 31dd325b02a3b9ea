package org.am2j.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of the tests that run ranks on two emulated hosts ({@link VethPair}): makes the pair before each test, or skips
 * the test with the reason where namespaces cannot be made (and says which in the log), and removes the pair after
 * it, checking that no namespace is left. A subclass's own {@code @AfterEach} runs first, so it can stop its ranks
 * before the hosts go.
 */
abstract class TwoHostTestSupport
{
    @TempDir
    Path dir;

    VethPair pair;

    @BeforeEach
    void hosts()
    {
        final String reason = VethPair.unavailableReason();
        System.out.println(getClass().getSimpleName() + ": " + (null == reason ?
            "network namespaces can be made, the test runs" : "skipped: " + reason));
        assumeTrue(null == reason, reason);
        pair = VethPair.create();
    }

    @AfterEach
    void removeHosts()
    {
        if (null != pair)
        {
            pair.close();
            assertEquals(List.of(), pair.namespacesLeft(), "namespaces left");
        }
    }
}
