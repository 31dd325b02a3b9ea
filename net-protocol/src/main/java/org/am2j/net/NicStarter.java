package org.am2j.net;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.spi.ShmDirectories;

/**
 * Starts a node's NIC processes when a process finds none serving and nothing else started them (a job under
 * {@code srun} or {@code mpirun}, whose ranks nobody else prepares): the process that takes the lock file
 * {@code start.lock} of the node's NIC directory starts every NIC process whose control file is missing, each with
 * this JVM's class path and {@code am2j.*} system properties, and holds the lock until they serve, so the other
 * ranks of the node find them and start none. A NIC process started this way stops by itself once the endpoints it
 * served are all gone ({@link SharedNicProcess#IDLE_EXIT}). Its output goes to {@code nic-<index>.log} in the
 * directory.
 */
final class NicStarter
{
    static final String LOCK_FILE = "start.lock";

    private NicStarter()
    {
    }

    /**
     * Start the missing NIC processes of the node, unless another process holds the start lock.
     *
     * @param config where the NICs are and how many.
     * @throws AmException when they cannot be started.
     */
    static void startIfFirst(final SharedNicConfig config)
    {
        final Path directory = config.directory;
        ShmDirectories.create(directory);
        try (FileChannel channel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE); FileLock lock = channel.tryLock())
        {
            if (null == lock)
            {
                return;
            }
            final List<Process> started = new ArrayList<>();
            for (int index = 0; index < config.nicsPerNode; index++)
            {
                if (!Files.exists(directory.resolve(NicFileDescriptor.fileName(index))))
                {
                    started.add(start(directory, index));
                }
            }
            // Hold the lock until the control files exist: a rank that comes meanwhile must not start a second set.
            final long deadline = System.nanoTime() + config.waitMs * 1_000_000L;
            for (int index = 0; index < config.nicsPerNode; index++)
            {
                final Path file = directory.resolve(NicFileDescriptor.fileName(index));
                while (!Files.exists(file) && System.nanoTime() - deadline < 0 &&
                    started.stream().allMatch(Process::isAlive))
                {
                    Thread.sleep(5);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new AmException(AmError.RESOURCE, "am2j net: cannot start the node's NIC processes in " +
                directory + ": " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static Process start(final Path directory, final int index) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-exports");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("--enable-native-access=ALL-UNNAMED");
        for (final String name : System.getProperties().stringPropertyNames())
        {
            if (name.startsWith("am2j."))
            {
                command.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(SharedNicProcess.class.getName());
        command.add(directory.toString());
        command.add(Integer.toString(index));
        command.add(SharedNicProcess.IDLE_EXIT);
        final Path log = directory.resolve(NicFileDescriptor.fileName(index) + ".log");
        return new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }
}
