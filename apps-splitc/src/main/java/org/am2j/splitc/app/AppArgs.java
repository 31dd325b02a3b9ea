package org.am2j.splitc.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.am2j.tools.CommandLines;
import org.am2j.tools.CommandLines.Range;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * The options of one application run:
 * {@code APP [--preset NAME] [--warmup N] [--timed K] [--json FILE] [--PARAM VALUE]...},
 * where PARAM is one of the application's parameters ({@link SplitCApp#parameterNames()}); explicit parameters
 * override those of every run of the preset (default preset {@value #DEFAULT_PRESET}). {@code --warmup N} runs each
 * run N times before the timed one, in the same JVMs (default 0); {@code --warmup auto[:MAX]} until the JIT is quiet
 * ({@link Warmup}). {@code --timed K} times each run K times after its warm-ups (default 1): one job then gives K
 * samples of a run, which a comparison of configurations needs when one run lasts milliseconds.
 */
public final class AppArgs
{
    /** Preset used when none is named. */
    public static final String DEFAULT_PRESET = "small";
    /** Most timed runs of each run {@code --timed} accepts. */
    public static final int MAX_TIMED = 1000;

    private final SplitCApp app;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    @Option(names = "--preset", paramLabel = "NAME", description = "the runs to make (default ${DEFAULT-VALUE})")
    private String preset = DEFAULT_PRESET;
    @Option(names = "--warmup", paramLabel = "W", description = "run each run W times untimed first, in the same " +
        "JVMs (default ${DEFAULT-VALUE}); auto[:MAX]: until the JIT is quiet (no rank compiled for over " +
        Warmup.QUIET_PERCENT + "%% of a run), at most MAX (" + Warmup.DEFAULT_AUTO_MAX + "); a timed run the JIT " +
        "was not quiet in is flagged in the report")
    private Warmup warmup = Warmup.fixed(0);
    @Option(names = "--timed", paramLabel = "K", description = "then time each run K times (default " +
        "${DEFAULT-VALUE}); the printed report is the median run's, the JSON has every timed run")
    @Range(min = 1, max = MAX_TIMED, meaning = "timed runs")
    private int timed = 1;
    @Option(names = "--json", paramLabel = "FILE", description = "write the reports as JSON (rank 0 writes it)")
    private Path json;

    private AppArgs(final SplitCApp app)
    {
        this.app = app;
    }

    /**
     * @param args the application's options, the application's name first.
     * @return them, checked against the application's parameters and presets.
     * @throws IllegalArgumentException naming what is wrong.
     */
    public static AppArgs parse(final List<String> args)
    {
        if (args.isEmpty())
        {
            throw new IllegalArgumentException("no application named");
        }
        final AppArgs options = new AppArgs(Apps.byName(args.get(0)));
        final CommandLine line = CommandLines.of(options).registerConverter(Warmup.class, Warmup::parse)
            .setUnmatchedArgumentsAllowed(true);
        for (final String option : options(options.app))
        {
            line.getCommandSpec().addOption(OptionSpec.builder(option).paramLabel("VALUE").type(String.class).build());
        }
        final ParseResult parsed = CommandLines.parse(line, args.subList(1, args.size()).toArray(new String[0]));
        if (!line.getUnmatchedArguments().isEmpty())
        {
            final String unknown = line.getUnmatchedArguments().get(0);
            throw new IllegalArgumentException(!unknown.startsWith("-") ? "expected an option, got '" + unknown + "'" :
                options.app.name() + " has no option " + unknown + "; its options: " +
                String.join(", ", options(options.app)) + " (and --preset, --warmup, --timed, --json)");
        }
        for (final String parameter : options.app.parameterNames())
        {
            final String value = parsed.matchedOptionValue("--" + options.app.optionOf(parameter), null);
            if (null != value)
            {
                options.overrides.put(parameter, value);
            }
        }
        if (options.app.preset(options.preset).isEmpty())
        {
            throw new IllegalArgumentException(options.app.name() + " has no preset '" + options.preset +
                "'; presets: " + String.join(", ", options.app.presets()));
        }
        return options;
    }

    /**
     * @return options to show in a help: {@code --preset}, {@code --warmup}, {@code --timed} and {@code --json}.
     */
    static Object help()
    {
        return new AppArgs(null);
    }

    /**
     * @return the application.
     */
    public SplitCApp app()
    {
        return app;
    }

    /**
     * @return the preset's name.
     */
    public String preset()
    {
        return preset;
    }

    /**
     * @return where to write the JSON report, or {@code null}.
     */
    public Path json()
    {
        return json;
    }

    /**
     * @return the runs of each run before the timed one, in the same JVMs: they let the JIT compile the application's
     * and the protocols' paths, so that the timed run measures them compiled, as the paper's long runs did.
     */
    public Warmup warmup()
    {
        return warmup;
    }

    /**
     * @return how many times each run is timed after its warm-ups, at least 1.
     */
    public int timed()
    {
        return timed;
    }

    /**
     * @param app an application.
     * @return the options that set its parameters, with their dashes, in the parameters' order.
     */
    public static List<String> options(final SplitCApp app)
    {
        final List<String> options = new ArrayList<>();
        for (final String parameter : app.parameterNames())
        {
            options.add("--" + app.optionOf(parameter));
        }
        return options;
    }

    /**
     * @return the runs: the preset's, with the explicit parameters put in.
     */
    public List<RunSpec> runs()
    {
        final List<RunSpec> runs = new ArrayList<>();
        for (final RunSpec run : app.preset(preset))
        {
            final Map<String, String> parameters = new LinkedHashMap<>(run.parameters());
            parameters.putAll(overrides);
            runs.add(new RunSpec(run.app(), run.label(), parameters));
        }
        return runs;
    }

    /**
     * @return the options again, as {@link #parse(List)} takes them (with the JSON path made absolute).
     */
    public List<String> toArgs()
    {
        final List<String> args = new ArrayList<>(List.of(app.name(), "--preset", preset));
        if (warmup.auto() || 0 != warmup.runs())
        {
            args.add("--warmup");
            args.add(warmup.toString());
        }
        if (1 != timed)
        {
            args.add("--timed");
            args.add(Integer.toString(timed));
        }
        if (null != json)
        {
            args.add("--json");
            args.add(json.toAbsolutePath().toString());
        }
        overrides.forEach((k, v) ->
        {
            args.add("--" + app.optionOf(k));
            args.add(v);
        });
        return args;
    }
}
