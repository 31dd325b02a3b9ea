package org.am2j.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.am2j.spmd.SpmdEnvironment;

/**
 * How a job's ranks are held by its rank JVMs ({@code --ranks-per-jvm K}): JVM J holds the K consecutive ranks
 * J·K .. J·K + K - 1, all of one node, since K divides the ranks of every node and nodes hold consecutive ranks
 * ({@link RankPlacement}). K = 1, the default, is a JVM per rank.
 * <p>
 * Commands that launch jobs ({@code am2j app}, {@code pingpong}, ...) check their {@code --ranks-per-jvm} with
 * {@link #ranksPerJvm} before they launch, so that they refuse it as {@code am2j run} would.
 */
public final class JvmPlacement
{
    /** The environment variable that gives {@code --ranks-per-jvm} when the option is not given. */
    public static final String RANKS_PER_JVM_VARIABLE = LaunchOptions.RANKS_PER_JVM_VARIABLE;

    private JvmPlacement()
    {
    }

    /**
     * @param option ranks per JVM from the command line, or 0 when not given.
     * @param env    the launcher's environment, whose {@value LaunchOptions#RANKS_PER_JVM_VARIABLE} applies when the
     *               option is not given.
     * @param ranks  of the job, P.
     * @param nodes  of the job, N (at most P).
     * @return ranks per JVM, K: 1 when neither says.
     * @throws IllegalArgumentException when K is not a whole number from 1, or does not divide the ranks of a node.
     */
    public static int ranksPerJvm(final int option, final Map<String, String> env, final int ranks, final int nodes)
    {
        final String source;
        final int perJvm;
        final String variable = env.get(LaunchOptions.RANKS_PER_JVM_VARIABLE);
        if (option > 0)
        {
            source = "--ranks-per-jvm " + option;
            perJvm = option;
        }
        else if (null != variable && !variable.isBlank())
        {
            source = LaunchOptions.RANKS_PER_JVM_VARIABLE + " = " + variable.trim();
            perJvm = parse(variable.trim(), source);
        }
        else
        {
            return 1;
        }
        for (int node = 0; node < nodes; node++)
        {
            final int onNode = RankPlacement.ranksOn(node, ranks, nodes);
            if (onNode % perJvm != 0)
            {
                throw new IllegalArgumentException(source + " does not divide the " + onNode + " rank(s) of node " +
                    node + " (-n " + ranks + " over --nodes " + nodes + "): a JVM holds ranks of one node only; " +
                    "K may be " + divisors(ranks, nodes));
            }
        }
        return perJvm;
    }

    private static int parse(final String text, final String source)
    {
        try
        {
            final int value = Integer.parseInt(text);
            if (value >= 1 && value <= SpmdEnvironment.MAX_SIZE)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // said below
        }
        throw new IllegalArgumentException(source + " is not a whole number in [1, " + SpmdEnvironment.MAX_SIZE +
            "] (ranks per JVM)");
    }

    /**
     * @return the numbers that divide the ranks of every node, e.g. {@code 1, 2 or 4}.
     */
    private static String divisors(final int ranks, final int nodes)
    {
        final List<String> divisors = new ArrayList<>();
        final int smallest = RankPlacement.ranksOn(nodes - 1, ranks, nodes);
        for (int k = 1; k <= smallest; k++)
        {
            boolean dividesAll = true;
            for (int node = 0; node < nodes && dividesAll; node++)
            {
                dividesAll = RankPlacement.ranksOn(node, ranks, nodes) % k == 0;
            }
            if (dividesAll)
            {
                divisors.add(Integer.toString(k));
            }
        }
        final int last = divisors.size() - 1;
        return last == 0 ? divisors.get(0) :
            String.join(", ", divisors.subList(0, last)) + " or " + divisors.get(last);
    }

    /**
     * @param ranks       of the job.
     * @param ranksPerJvm K.
     * @return the number of rank JVMs, P / K.
     */
    static int jvms(final int ranks, final int ranksPerJvm)
    {
        return ranks / ranksPerJvm;
    }

    /**
     * @param jvm         index of a rank JVM.
     * @param ranksPerJvm K.
     * @return its first rank.
     */
    static int firstRank(final int jvm, final int ranksPerJvm)
    {
        return jvm * ranksPerJvm;
    }

    /**
     * @param jvm         index of a rank JVM.
     * @param ranksPerJvm K.
     * @return what it holds, for messages: {@code rank R}, or {@code ranks F-L (one JVM)}.
     */
    static String describe(final int jvm, final int ranksPerJvm)
    {
        final int first = firstRank(jvm, ranksPerJvm);
        return ranksPerJvm == 1 ? "rank " + first : "ranks " + first + "-" + (first + ranksPerJvm - 1) + " (one JVM)";
    }
}
