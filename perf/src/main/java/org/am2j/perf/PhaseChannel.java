package org.am2j.perf;

import java.util.function.IntConsumer;

/**
 * How the initiator (rank 0) of a rank pair tells the responder (rank 1) what comes next: a probe or measurement of
 * the cache line, serving AM requests, answering or sinking plain UDP datagrams, or the end. Each command is a
 * rendezvous: {@link #command(int, int)} returns once the responder has taken it with {@link #next()}. A command
 * whose measurement ends at the responder ({@link #UDP_SINK}) is followed by the responder's report, handed back with
 * {@link #report(byte[])} and taken with {@link #awaitReport()}. Commands and reports travel outside the path being
 * measured (between two JVMs, through the job's bootstrap collectives), and only between measurements.
 */
interface PhaseChannel
{
    /** Answer {@code count} round trips of the cache-line ping-pong. */
    int RESPOND = 1;
    /** Serve AM requests until the initiator's done request. */
    int SERVE = 2;
    /** Leave. */
    int EXIT = 3;
    /** Serve AM requests until the initiator's done request, sleeping in waitSema() whenever none is waiting. */
    int SERVE_ASLEEP = 4;
    /** Answer {@code count} distinct pings of the plain UDP ping-pong ({@link UdpPingPong#respond(int)}). */
    int UDP_ECHO = 5;
    /**
     * Receive one plain UDP stream of {@code count} datagrams ({@link UdpPingPong#sink(int)}), then
     * {@link #report(byte[])} its {@link UdpStreamTally}.
     */
    int UDP_SINK = 6;
    /** Answer {@code count} pings of the Aeron ping-pong ({@link AeronPingPong#respond(int)}). */
    int AERON_ECHO = 7;
    /** Answer {@code count} medium round trips on the pair's data page ({@link CacheLinePingPong#respondMedium}). */
    int RESPOND_MEDIUM = 8;

    /**
     * The commands a responder knows beyond {@link #RESPOND} and {@link #EXIT}, for {@link #follow}.
     */
    @FunctionalInterface
    interface Commands
    {
        /**
         * Run one command.
         *
         * @param type  of the command.
         * @param count of the command.
         * @return false when the responder does not know the command.
         */
        boolean run(int type, int count);
    }

    /**
     * Responder: follow the initiator's commands until {@link #EXIT}: {@link #RESPOND} on the cache line, one more
     * command through {@code command}.
     *
     * @param line    the pair's cache line.
     * @param type    the one more command the responder knows.
     * @param command runs it, given its count.
     * @throws IllegalStateException at a command the responder does not know.
     */
    default void follow(final CacheLinePingPong line, final int type, final IntConsumer command)
    {
        follow(line, (given, count) ->
        {
            if (type == given)
            {
                command.accept(count);
            }
            return type == given;
        });
    }

    /**
     * Responder: follow the initiator's commands until {@link #EXIT}: {@link #RESPOND} on the cache line, the others
     * through {@code commands}.
     *
     * @param line     the pair's cache line.
     * @param commands the responder's other commands.
     * @throws IllegalStateException at a command neither knows.
     */
    default void follow(final CacheLinePingPong line, final Commands commands)
    {
        for (;;)
        {
            final long command = next();
            final int type = type(command);
            if (EXIT == type)
            {
                return;
            }
            if (RESPOND == type)
            {
                line.respond(count(command));
            }
            else if (!commands.run(type, count(command)))
            {
                throw new IllegalStateException("unknown command " + type);
            }
        }
    }

    /**
     * Initiator: hand the next command to the responder.
     *
     * @param type  {@link #RESPOND}, {@link #SERVE}, {@link #SERVE_ASLEEP}, {@link #UDP_ECHO}, {@link #UDP_SINK},
     *              {@link #AERON_ECHO}, {@link #RESPOND_MEDIUM} or {@link #EXIT}.
     * @param count round trips for {@link #RESPOND}, {@link #UDP_ECHO}, {@link #AERON_ECHO} and
     *              {@link #RESPOND_MEDIUM}, datagrams for {@link #UDP_SINK}, else 0.
     */
    void command(int type, int count);

    /**
     * Responder: wait for the next command.
     *
     * @return the command packed as {@code type << 32 | count}; see {@link #type(long)} and {@link #count(long)}.
     */
    long next();

    /**
     * Responder: hand the report of the measurement just ended back to the initiator; returns once it has taken it
     * with {@link #awaitReport()}.
     *
     * @param report a few bytes.
     */
    void report(byte[] report);

    /**
     * Initiator: wait for the responder's {@link #report(byte[])}.
     *
     * @return the report.
     */
    byte[] awaitReport();

    /**
     * @param type  of a command.
     * @param count of a command.
     * @return the command packed as {@link #next()} returns it.
     */
    static long pack(final int type, final int count)
    {
        return ((long)type << 32) | (count & 0xFFFF_FFFFL);
    }

    /**
     * @param command as {@link #next()} returns it.
     * @return its type.
     */
    static int type(final long command)
    {
        return (int)(command >>> 32);
    }

    /**
     * @param command as {@link #next()} returns it.
     * @return its count.
     */
    static int count(final long command)
    {
        return (int)command;
    }
}
