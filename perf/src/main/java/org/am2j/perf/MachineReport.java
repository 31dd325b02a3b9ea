package org.am2j.perf;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.am2j.launch.CpuPinning;

/**
 * The machine state of a benchmark run, for its table and its JSON: the CPUs, pinning and load at the start, and for
 * every measurement the {@link EpochGuard}'s probes, attempts and load, with its {@code slow_epoch} flag checked again
 * against the fastest probe of the whole run (a measurement whose probes passed within its own rank pair may still
 * be slow beside a later pair's).
 */
final class MachineReport
{
    private final CpuPinning pinning;
    private final MachineState start;
    private final long fastestProbeNs;
    private final List<Entry> entries = new ArrayList<>();

    private record Entry(String label, EpochGuard.Probes probes, MachineState state)
    {
    }

    /**
     * @param pinning        of the ranks.
     * @param start          machine state at the start of the run.
     * @param fastestProbeNs fastest probe median of the whole run.
     */
    MachineReport(final CpuPinning pinning, final MachineState start, final long fastestProbeNs)
    {
        this.pinning = pinning;
        this.start = start;
        this.fastestProbeNs = fastestProbeNs;
    }

    /**
     * @param label   of the measurement in the report.
     * @param results of the rank pair that took it.
     * @param name    of the measurement in those results ({@code machine.NAME.*}).
     * @return this.
     */
    MachineReport add(final String label, final Results results, final String name)
    {
        final String prefix = "machine." + name + ".";
        entries.add(new Entry(label, results.getAll(prefix, EpochGuard.Probes.class),
            results.getAll(prefix, MachineState.class)));
        return this;
    }

    private boolean slowEpoch(final Entry entry)
    {
        return entry.probes.slowEpoch() || EpochGuard.isSlow(entry.probes.probeP50Ns(), fastestProbeNs) ||
            EpochGuard.isSlow(entry.probes.probeAfterP50Ns(), fastestProbeNs);
    }

    /**
     * @return true when any measurement was taken in a slow epoch.
     */
    boolean slowEpoch()
    {
        return entries.stream().anyMatch(this::slowEpoch);
    }

    /**
     * @return the labels of the measurements taken in a slow epoch, in order.
     */
    List<String> slowMeasurements()
    {
        return entries.stream().filter(this::slowEpoch).map(Entry::label).toList();
    }

    /**
     * @return the labels of the measurements taken while the 1-minute load average was above this machine's CPU
     * count (other processes then shared the CPUs the ranks spin on), in order; {@code start} first when the load was
     * already above it when the run began.
     */
    List<String> busyMeasurements()
    {
        final int cpus = Runtime.getRuntime().availableProcessors();
        final List<String> busy = new ArrayList<>();
        if (start.load1() > cpus)
        {
            busy.add("start");
        }
        entries.stream().filter(entry -> entry.state.load1() > cpus).forEach(entry -> busy.add(entry.label));
        return busy;
    }

    /**
     * @return the highest 1-minute load average seen: at the start or at any measurement.
     */
    double highestLoad()
    {
        // NaN (no load known) is passed over, unless nothing is known
        return entries.stream().mapToDouble(entry -> entry.state.load1()).filter(load -> !Double.isNaN(load))
            .reduce(start.load1(), (a, b) -> Double.isNaN(a) ? b : Math.max(a, b));
    }

    /**
     * Print the machine line, one line per measurement and the verdict: whether the figures can be trusted, and if
     * not, why: figures that cannot be true, measurements in slow epochs, a machine busier than its CPUs.
     *
     * @param out        where.
     * @param width      of the label column.
     * @param impossible one line per figure that cannot be true, saying which and why (empty when none).
     */
    void printTable(final PrintStream out, final int width, final List<String> impossible)
    {
        out.printf(Locale.ROOT, "%-" + width + "s %d CPUs, load %s %s %s, %s MHz; probe p50 fastest %d ns, slow " +
            "above %d ns%n", "machine", Runtime.getRuntime().availableProcessors(), plain(start.load1()),
            plain(start.load5()), plain(start.load15()), plain(start.cpuMhz()), fastestProbeNs,
            EpochGuard.thresholdNs(fastestProbeNs));
        for (final Entry entry : entries)
        {
            final EpochGuard.Probes probes = entry.probes;
            out.printf(Locale.ROOT, "  %-" + (width - 2) + "s probe %d ns before, %d ns after, %d attempt%s, " +
                "load %s%s%n", entry.label, probes.probeP50Ns(), probes.probeAfterP50Ns(), probes.attempts(),
                probes.attempts() == 1 ? "" : "s", plain(entry.state.load1()), slowEpoch(entry) ? "  SLOW EPOCH" : "");
        }
        for (final String line : verdict(impossible))
        {
            out.printf(Locale.ROOT, "%-" + width + "s %s%n", line.startsWith("  ") ? "" : "verdict", line.strip());
        }
    }

    /**
     * @param impossible one line per figure that cannot be true (empty when none).
     * @return the verdict's lines: a first line that says whether the run's figures can be trusted, then, indented,
     * one line per reason they cannot.
     */
    List<String> verdict(final List<String> impossible)
    {
        final List<String> reasons = new ArrayList<>();
        impossible.forEach(figure -> reasons.add("  impossible figure: " + figure));
        final List<String> slow = slowMeasurements();
        if (!slow.isEmpty())
        {
            reasons.add("  slow epoch (the probe ran slower than " + EpochGuard.thresholdNs(fastestProbeNs) +
                " ns) during: " + String.join(", ", slow));
        }
        final List<String> busy = busyMeasurements();
        if (!busy.isEmpty())
        {
            reasons.add(String.format(Locale.ROOT, "  busy machine: load average up to %s above its %d CPUs during: " +
                "%s (other processes shared the CPUs the ranks spin on)", plain(highestLoad()),
                Runtime.getRuntime().availableProcessors(), String.join(", ", busy)));
        }
        final List<String> lines = new ArrayList<>();
        lines.add(reasons.isEmpty() ? "quiet machine, no slow epoch, no impossible figure: the figures stand" :
            "compare with care:");
        lines.addAll(reasons);
        return lines;
    }

    /**
     * Put the {@code machine} member: CPUs, pinning, OS, Java, the load at the start, the probe's threshold, and a
     * {@code measurements} object with each measurement's probes, attempts, flag and load.
     *
     * @param json the run's object.
     */
    void putInto(final ObjectNode json)
    {
        final ObjectNode machine = json.putObject("machine");
        machine.put("cpus", Runtime.getRuntime().availableProcessors());
        machine.put("cpus_allowed", pinning.allowed());
        if (pinning.applied())
        {
            machine.putArray("pinned_cpus").add(pinning.cpu(0)).add(pinning.cpu(1));
        }
        else
        {
            machine.putNull("pinned_cpus");
        }
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
            System.getProperty("os.arch"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        machine.setAll((ObjectNode)Results.MAPPER.valueToTree(start));
        machine.put("probe_round_trips", EpochGuard.PROBE_ROUND_TRIPS);
        machine.put("probe_fastest_p50_ns", fastestProbeNs);
        machine.put("probe_slow_threshold_ns", EpochGuard.thresholdNs(fastestProbeNs));
        machine.put("slow_epoch", slowEpoch());
        machine.put("busy", !busyMeasurements().isEmpty());
        final ObjectNode measurements = machine.putObject("measurements");
        for (final Entry entry : entries)
        {
            final EpochGuard.Probes probes = entry.probes;
            final ObjectNode measurement = Results.MAPPER.valueToTree(new EpochGuard.Probes(probes.probeP50Ns(),
                probes.probeAfterP50Ns(), probes.attempts(), slowEpoch(entry)));
            measurements.set(entry.label, measurement.setAll((ObjectNode)Results.MAPPER.valueToTree(entry.state)));
        }
    }

    /**
     * @param value a number or NaN.
     * @return it with two decimals, or {@code ?} for NaN.
     */
    static String plain(final double value)
    {
        return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.2f", value);
    }

    /**
     * @param value a number, possibly NaN or infinite.
     * @param scale 10^decimals.
     * @return it rounded to that many decimals (NaN and infinities as they are).
     */
    static double round(final double value, final int scale)
    {
        return Double.isNaN(value) || Double.isInfinite(value) ? value : Math.round(value * scale) / (double)scale;
    }
}
