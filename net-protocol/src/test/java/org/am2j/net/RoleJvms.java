package org.am2j.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rank JVMs a test starts directly, one per role, each running {@code MAIN ROLE DIR} on the test's class path with
 * the network transport alone on 127.0.0.1, its own emulated node and a job id of this test JVM; their output goes to
 * {@code DIR/ROLE.out} and {@code .err}. {@link #close()} kills every one still running.
 */
final class RoleJvms implements AutoCloseable
{
    private final Class<?> main;
    private final String job;
    private final Path dir;
    private final List<Process> started = new ArrayList<>();

    /**
     * @param main the rank program, {@code main(ROLE, DIR)}.
     * @param job  a name for the job (the test JVM's pid is added).
     * @param dir  where the programs exchange files and write their output.
     */
    RoleJvms(final Class<?> main, final String job, final Path dir)
    {
        this.main = main;
        this.job = job + "-" + ProcessHandle.current().pid();
        this.dir = dir;
    }

    /**
     * @param role       the role argument, also the node name and the output files' name.
     * @param jvmOptions more options for this JVM (settings, before the main class).
     * @return the started process.
     */
    Process start(final String role, final String... jvmOptions) throws Exception
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(java,
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
            "-Dam2j.transports=inproc,net", "-Dam2j.net.host=127.0.0.1", "-Dam2j.job=" + job,
            "-Dam2j.node=" + role + "-" + ProcessHandle.current().pid()));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName(), role, dir.toString()));
        final Process process = new ProcessBuilder(command)
            .redirectOutput(dir.resolve(role + ".out").toFile())
            .redirectError(dir.resolve(role + ".err").toFile())
            .start();
        started.add(process);
        return process;
    }

    /**
     * @param role a started role.
     * @return its output so far, for a failure message.
     */
    String output(final String role) throws Exception
    {
        return "\n--- " + role + " stdout ---\n" + Files.readString(dir.resolve(role + ".out")) +
            "--- " + role + " stderr ---\n" + Files.readString(dir.resolve(role + ".err"));
    }

    @Override
    public void close()
    {
        started.forEach(Process::destroyForcibly);
        started.clear();
    }
}
