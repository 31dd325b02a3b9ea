package org.am2j.spmd;

/**
 * Which launcher started this process, as recognised by {@link SpmdEnvironment} from the environment variables it sets.
 * <p>
 * The kinds are tried in declaration order: the variables of am2j's own launcher ({@code AM2J_RANK}/{@code AM2J_SIZE},
 * {@link #AM2J} when a variable only that launcher knows is set too, else {@link #MANUAL}) win over those of SLURM,
 * which win over Open MPI's, which win over the generic PMI ones; with none of them the process is a single-process
 * job.
 */
public enum LauncherKind
{
    /** am2j's own launcher ({@code bin/am2j run}, in the am2j-tools module): it sets every {@code AM2J_*} variable. */
    AM2J("AM2J_RANK", "AM2J_SIZE"),

    /**
     * No launcher: processes started by hand or by a script, each given {@code AM2J_RANK}, {@code AM2J_SIZE} and (with
     * more than one rank) {@code AM2J_BOOTSTRAP}; rank 0 runs the rendezvous server, as under an external launcher.
     */
    MANUAL("AM2J_RANK", "AM2J_SIZE"),

    /** SLURM ({@code srun}). */
    SLURM("SLURM_PROCID", "SLURM_NTASKS"),

    /** Open MPI ({@code mpirun}, {@code prterun}). */
    OPEN_MPI("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),

    /** A launcher speaking the process-management interface (MPICH's Hydra, Intel MPI). */
    PMI("PMI_RANK", "PMI_SIZE"),

    /** No launcher and no variables: a single-process job, rank 0 of 1. */
    NONE(null, null);

    private final String rankVariable;
    private final String sizeVariable;

    LauncherKind(final String rankVariable, final String sizeVariable)
    {
        this.rankVariable = rankVariable;
        this.sizeVariable = sizeVariable;
    }

    /**
     * @return the environment variable holding the rank, or {@code null} for {@link #NONE}.
     */
    public String rankVariable()
    {
        return rankVariable;
    }

    /**
     * @return the environment variable holding the number of ranks, or {@code null} for {@link #NONE}.
     */
    public String sizeVariable()
    {
        return sizeVariable;
    }

    /**
     * @return true for the launchers other than am2j's own (SLURM, Open MPI, PMI).
     */
    public boolean isExternal()
    {
        return this != AM2J && this != MANUAL && this != NONE;
    }

    /**
     * @return true when rank 0 runs the job's rendezvous server itself, at the port of {@code AM2J_BOOTSTRAP}: under
     * an external launcher and without one ({@link #MANUAL}); am2j's own launcher runs it in its own process.
     */
    public boolean rankZeroServes()
    {
        return this != AM2J && this != NONE;
    }
}
