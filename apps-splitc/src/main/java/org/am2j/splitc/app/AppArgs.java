package org.am2j.splitc.app;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    private final String preset;
    private final Path json;
    private final Map<String, String> overrides;
    private final Warmup warmup;
    private final int timed;

    private AppArgs(
        final SplitCApp app, final String preset, final Path json, final Map<String, String> overrides,
        final Warmup warmup, final int timed)
    {
        this.timed = timed;
        this.app = app;
        this.preset = preset;
        this.json = json;
        this.warmup = warmup;
        this.overrides = Collections.unmodifiableMap(overrides);
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
        final SplitCApp app = Apps.byName(args.get(0));
        String preset = DEFAULT_PRESET;
        Path json = null;
        Warmup warmup = Warmup.fixed(0);
        int timed = 1;
        final Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 1; i < args.size(); i += 2)
        {
            final String option = args.get(i);
            if (!option.startsWith("--") || option.length() < 3)
            {
                throw new IllegalArgumentException("expected an option, got '" + option + "'");
            }
            if (i + 1 >= args.size())
            {
                throw new IllegalArgumentException(option + " needs a value");
            }
            final String value = args.get(i + 1);
            final String name = option.substring(2);
            if ("preset".equals(name))
            {
                preset = value;
            }
            else if ("json".equals(name))
            {
                json = Path.of(value);
            }
            else if ("warmup".equals(name))
            {
                warmup = Warmup.parse(value);
            }
            else if ("timed".equals(name))
            {
                timed = parseTimed(value);
            }
            else if (null != parameterOf(app, name))
            {
                overrides.put(parameterOf(app, name), value);
            }
            else
            {
                throw new IllegalArgumentException(app.name() + " has no option " + option + "; its options: " +
                    String.join(", ", options(app)) + " (and --preset, --warmup, --timed, --json)");
            }
        }
        if (app.preset(preset).isEmpty())
        {
            throw new IllegalArgumentException(app.name() + " has no preset '" + preset + "'; presets: " +
                String.join(", ", app.presets()));
        }
        return new AppArgs(app, preset, json, overrides, warmup, timed);
    }

    /**
     * @param value the value of {@code --timed}.
     * @return the timed runs it asks for.
     * @throws IllegalArgumentException when it is not a whole number from 1 to {@value #MAX_TIMED}.
     */
    public static int parseTimed(final String value)
    {
        final int timed;
        try
        {
            timed = Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--timed takes a whole number of runs, 1 to " + MAX_TIMED + ", not '" +
                value + "'");
        }
        if (timed < 1 || timed > MAX_TIMED)
        {
            throw new IllegalArgumentException("--timed takes 1 to " + MAX_TIMED + " runs, not " + timed);
        }
        return timed;
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
     * @return the explicit parameters.
     */
    public Map<String, String> overrides()
    {
        return overrides;
    }

    /**
     * @param app    an application.
     * @param option a command-line option, without its dashes.
     * @return the parameter it sets, or null when it sets none.
     */
    private static String parameterOf(final SplitCApp app, final String option)
    {
        for (final String parameter : app.parameterNames())
        {
            if (app.optionOf(parameter).equals(option))
            {
                return parameter;
            }
        }
        return null;
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
