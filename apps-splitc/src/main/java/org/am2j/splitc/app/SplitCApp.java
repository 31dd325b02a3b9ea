package org.am2j.splitc.app;

import java.util.List;

import org.am2j.splitc.SplitC;

/**
 * An application of the Split-C layer that {@link AppMain} can run: it names its parameters and presets, says how
 * large each rank's global segment must be, and runs on every rank, reporting on rank 0.
 */
public interface SplitCApp
{
    /**
     * @return the name on the command line, e.g. {@code fft3d}.
     */
    String name();

    /**
     * @return the names of its parameters, in order (the command line's {@code --name value}).
     */
    List<String> parameterNames();

    /**
     * @param parameter one of {@link #parameterNames()}.
     * @return the command-line option that sets it, without its dashes: the parameter's name, unless that name is
     * also a launcher option (EM3D's {@code nodes} is set with {@code --graph-nodes}, {@code --nodes} being the
     * launcher's emulated nodes).
     */
    default String optionOf(final String parameter)
    {
        return parameter;
    }

    /**
     * @param preset name of a preset.
     * @return the runs of the preset, or an empty list when the application has no such preset.
     */
    List<RunSpec> preset(String preset);

    /**
     * @return the names of its presets.
     */
    List<String> presets();

    /**
     * Check a run's parameters for a job of {@code procs} ranks on {@code nodes} nodes.
     *
     * @param spec  the run.
     * @param procs number of ranks.
     * @param nodes number of nodes.
     * @throws IllegalArgumentException naming the parameter that does not fit.
     */
    void check(RunSpec spec, int procs, int nodes);

    /**
     * @param spec  the run.
     * @param procs number of ranks.
     * @return bytes of global segment each rank needs.
     */
    int segmentBytes(RunSpec spec, int procs);

    /**
     * Run on this rank; every rank calls it.
     *
     * @param sc    this rank's Split-C layer, fresh for the run.
     * @param spec  the run.
     * @param clock times the phases and prints progress on rank 0.
     * @return the run's report (complete on every rank: times and counts are reduced over the ranks).
     */
    RunReport run(SplitC sc, RunSpec spec, PhaseClock clock);
}
