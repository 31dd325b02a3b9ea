package org.am2j.core;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The artifact each transport and scheduler am2j ships comes with, as errors name it.
 */
class ModuleArtifactsTest
{
    @Test
    void everyMissingTransportIsNamedWithItsArtifact()
    {
        assertEquals("; not on the class path: shm (org.am2j:shm-protocol), net (org.am2j:net-protocol): add the " +
            "artifact, or org.am2j:am2j-all for the whole library", ModuleArtifacts.missingTransportsHint(
            List.of("inproc")));
        assertEquals("; not on the class path: net (org.am2j:net-protocol): add the artifact, or org.am2j:am2j-all " +
            "for the whole library", ModuleArtifacts.missingTransportsHint(List.of("inproc", "shm")));
        assertEquals("", ModuleArtifacts.missingTransportsHint(List.of("inproc", "shm", "net")));
    }

    @Test
    void theSchedulersOfThePollingModuleNameIt()
    {
        for (final String scheduler : List.of("follow", "fractional", "adaptive", "calibrated"))
        {
            assertEquals("; '" + scheduler + "' comes with org.am2j:polling: add it to the class path, or " +
                "org.am2j:am2j-all for the whole library", ModuleArtifacts.missingSchedulerHint(scheduler));
        }
        // a typo or a third party's scheduler: no artifact to suggest
        assertEquals("", ModuleArtifacts.missingSchedulerHint("folow"));
        assertEquals("", ModuleArtifacts.missingSchedulerHint("every"));
    }

    @Test
    void theProtocolsNameTheirArtifacts()
    {
        assertEquals("org.am2j:shm-protocol", ModuleArtifacts.ofTransport("shm"));
        assertEquals("org.am2j:net-protocol", ModuleArtifacts.ofTransport("net"));
        assertNull(ModuleArtifacts.ofTransport("inproc"));
    }
}
