package org.am2j.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;

/**
 * Test rank program: every rank prints {@code affinity <Cpus_allowed_list>}, the CPUs its JVM may run on as
 * {@code /proc/self/status} tells them (or {@code affinity unknown}), and enters a barrier.
 */
public final class AffinityMain
{
    private static final String ALLOWED_LIST = "Cpus_allowed_list:";

    private AffinityMain()
    {
    }

    /**
     * @param args ignored.
     * @throws IOException when {@code /proc/self/status} exists but cannot be read.
     */
    public static void main(final String[] args) throws IOException
    {
        try (Job job = Spmd.init())
        {
            System.out.println("affinity " + allowed());
            job.barrier();
        }
    }

    private static String allowed() throws IOException
    {
        final Path status = Path.of("/proc/self/status");
        if (Files.isReadable(status))
        {
            for (final String line : Files.readAllLines(status, StandardCharsets.US_ASCII))
            {
                if (line.startsWith(ALLOWED_LIST))
                {
                    return line.substring(ALLOWED_LIST.length()).trim();
                }
            }
        }
        return "unknown";
    }
}
