package org.am2j.net;

import java.nio.file.Path;

import org.am2j.spi.Setting;
import org.am2j.spi.Settings;
import org.am2j.spi.ShmDirectories;
import org.am2j.spi.TransportContext;

/**
 * Where a process finds the shared NIC that serves it ({@link SharedNicProcess}), from its settings:
 * <ul>
 *   <li>{@code am2j.net.nicsPerNode} / {@code AM2J_NICS_PER_NODE}: NIC processes per node; 0 or absent, the default,
 *       gives every process a NIC of its own (in-process).</li>
 *   <li>{@code am2j.net.nicIndex} / {@code AM2J_NIC_INDEX}: which of them serves this process, 0 to K - 1; when
 *       unset, from the node-local rank {@code mpirun} or {@code srun} gives ({@link #fromLocalRank}) (the
 *       launcher gives a node's ranks to its NICs in contiguous groups: 8 ranks on 3 NICs get 0, 0, 0, 1, 1, 1, 2,
 *       2).</li>
 *   <li>{@code am2j.net.nicDir} / {@code AM2J_NIC_DIR}: the node's NIC directory, where the NICs' control files
 *       ({@code nic-<index>}) and their endpoints' queue blocks live; default {@code nics-<job>} in the node's
 *       shared-memory root ({@code am2j.shm.root}).</li>
 *   <li>{@code am2j.net.nicWaitMs} / {@code AM2J_NIC_WAIT_MS}: how long a process waits for its NIC to serve
 *       (default 10000), and for an answer to a command.</li>
 *   <li>{@code am2j.net.nicAutostart} / {@code AM2J_NIC_AUTOSTART}: when a process finds no NIC serving, the first
 *       of the node to take the directory's start lock starts the node's NIC processes ({@link NicStarter});
 *       default true, {@code false} to leave it to whoever runs the job ({@code bin/am2j run} does).</li>
 * </ul>
 */
final class SharedNicConfig
{
    final int nicsPerNode;
    final int nicIndex;
    final Path directory;
    final long waitMs;
    final boolean autostart;

    private SharedNicConfig(final int nicsPerNode, final int nicIndex, final Path directory, final long waitMs,
        final boolean autostart)
    {
        this.autostart = autostart;
        this.nicsPerNode = nicsPerNode;
        this.nicIndex = nicIndex;
        this.directory = directory;
        this.waitMs = waitMs;
    }

    /**
     * @param context the process's settings.
     * @return the settings; {@code nicsPerNode} 0 when the process has a NIC of its own.
     */
    static SharedNicConfig of(final TransportContext context)
    {
        final Settings settings = context.settings();
        final int nics = settings.intValue(setting(settings, "nicsPerNode", "AM2J_NICS_PER_NODE"), 0, 0, 64);
        if (0 == nics)
        {
            return new SharedNicConfig(0, 0, null, 0, false);
        }
        final Setting indexSetting = setting(settings, "nicIndex", "AM2J_NIC_INDEX");
        final int index = settings.isSet(indexSetting) ? settings.intValue(indexSetting, 0, 0, nics - 1) :
            fromLocalRank(System.getenv(), nics);
        final String dir = settings.text(setting(settings, "nicDir", "AM2J_NIC_DIR"), "");
        final Path directory = dir.isEmpty() ? defaultDirectory(context.job()) : Path.of(dir);
        final long waitMs = settings.longValue(setting(settings, "nicWaitMs", "AM2J_NIC_WAIT_MS"), 10_000, 1, 600_000);
        final boolean autostart = settings.flag(setting(settings, "nicAutostart", "AM2J_NIC_AUTOSTART"), true);
        return new SharedNicConfig(nics, index, directory.toAbsolutePath().normalize(), waitMs, autostart);
    }

    /**
     * @return the setting {@code am2j.net.<key>} / {@code AM2J_NET_<KEY>} when that is set, else the documented
     * {@code am2j.net.<key>} / {@code variable}.
     */
    private static Setting setting(final Settings settings, final String key, final String variable)
    {
        return settings.firstSet(Setting.of(NetTransport.NAME, key), new Setting("am2j.net." + key, variable));
    }

    /**
     * The NIC of a process whose launcher said nothing of shared NICs, from what {@code mpirun} (Open MPI) or
     * {@code srun} (Slurm) tells every task: its rank among the node's tasks and their number, in contiguous groups
     * as {@code bin/am2j run} gives them (8 ranks on 3 NICs: 3, 3, 2).
     *
     * @param env  the process's environment.
     * @param nics NICs per node.
     * @return the NIC, 0 when the environment does not say.
     */
    static int fromLocalRank(final java.util.Map<String, String> env, final int nics)
    {
        int localRank = parse(env.get("OMPI_COMM_WORLD_LOCAL_RANK"));
        int localSize = parse(env.get("OMPI_COMM_WORLD_LOCAL_SIZE"));
        if (localRank < 0 || localSize <= 0)
        {
            localRank = parse(env.get("SLURM_LOCALID"));
            // "3" or "3(x2)" when every node has as many tasks: the count before the parenthesis.
            final String perNode = env.get("SLURM_TASKS_PER_NODE");
            localSize = null == perNode || perNode.indexOf(',') >= 0 ? -1 :
                parse(perNode.indexOf('(') > 0 ? perNode.substring(0, perNode.indexOf('(')) : perNode);
        }
        if (localRank < 0 || localSize <= 0 || localRank >= localSize)
        {
            return 0;
        }
        final int used = Math.min(nics, localSize);
        final int small = localSize / used;
        final int larger = localSize % used;
        final int ranksOnLarger = larger * (small + 1);
        return localRank < ranksOnLarger ? localRank / (small + 1) : larger + (localRank - ranksOnLarger) / small;
    }

    private static int parse(final String text)
    {
        try
        {
            return null == text ? -1 : Integer.parseInt(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * @param job the job's name.
     * @return the default NIC directory of this node for that job.
     */
    static Path defaultDirectory(final String job)
    {
        return ShmDirectories.userRoot().resolve("nics-" + job.replaceAll("[^A-Za-z0-9._-]", "_"));
    }
}
