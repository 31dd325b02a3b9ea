package org.am2j.launch;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.spmd.Job;
import org.am2j.spmd.Spmd;
import org.am2j.tools.stat.StatTool;

/**
 * Test rank program: joins the job, allocates an endpoint, and once every rank has one prints what
 * {@code am2j stat --once} shows of its own process: its listing row and its endpoint's heading, each prefixed
 * {@code stat }.
 */
public final class StatOfItselfMain
{
    private StatOfItselfMain()
    {
    }

    /**
     * @param args ignored.
     */
    public static void main(final String[] args)
    {
        try (Job job = Spmd.init(); Bundle bundle = Am.allocateBundle(BundleKind.SEQ);
            Endpoint endpoint = bundle.allocateEndpoint())
        {
            job.barrier();
            final String pid = Long.toString(ProcessHandle.current().pid());
            final String listing = stat("--once");
            listing.lines().filter(line -> line.trim().startsWith(pid + " "))
                .forEach(line -> System.out.println("stat " + line.trim()));
            stat("--pid", pid, "--once").lines().filter(line -> line.startsWith("ep "))
                .forEach(line -> System.out.println("stat " + line));
            job.barrier();
        }
    }

    private static String stat(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
