package org.am2j.polling;

import org.am2j.api.AmError;
import org.am2j.api.AmException;

/**
 * Parses the text after the colon of {@code am2j.poll} / {@code AM2J_POLL} ({@code name:argument}) and checks the
 * ranges every scheduler of this package shares. Every failure is an {@link AmException} with
 * {@link AmError#BAD_ARG} whose message names the scheduler, what was expected, what was given and an example.
 * Called once per bundle, never on the hot path.
 */
final class PollArguments
{
    /**
     * Largest interval (polls from one network poll to the next) any scheduler here accepts or derives: a bound on a
     * typing mistake, and on the network budget (interval times the base budget), well inside an {@code int}.
     */
    static final int INTERVAL_LIMIT = 4096;

    private PollArguments()
    {
    }

    /**
     * Parse a polling interval: decimal digits only, in [1, {@link #INTERVAL_LIMIT}].
     *
     * @param scheduler name of the scheduler, for the message.
     * @param what      what the number is (e.g. {@code "K"}), for the message.
     * @param example   a valid setting, for the message.
     * @param text      the text to parse; never null.
     * @return the interval.
     * @throws AmException {@link AmError#BAD_ARG} when the text is not such a number.
     */
    static int interval(final String scheduler, final String what, final String example, final String text)
    {
        return interval(scheduler, what, example, text, INTERVAL_LIMIT);
    }

    /**
     * Parse a polling interval: decimal digits only, in [1, limit].
     *
     * @param scheduler name of the scheduler, for the message.
     * @param what      what the number is, for the message.
     * @param example   a valid setting, for the message.
     * @param text      the text to parse; never null.
     * @param limit     the largest value accepted.
     * @return the interval.
     * @throws AmException {@link AmError#BAD_ARG} when the text is not such a number.
     */
    static int interval(
        final String scheduler, final String what, final String example, final String text, final int limit)
    {
        final long value = digits(text);
        if (value < 1 || value > limit)
        {
            throw bad(scheduler, what + " must be an integer in [1, " + limit + "]", example, text);
        }
        return (int)value;
    }

    /**
     * Parse a pair of interval bounds written {@code MIN-MAX}, with {@code 1 <= MIN <= MAX <= INTERVAL_LIMIT}.
     *
     * @param scheduler name of the scheduler, for the message.
     * @param example   a valid setting, for the message.
     * @param text      the text to parse; never null.
     * @return the bounds packed as {@code (long)MIN << 32 | MAX}; see {@link #low(long)} and {@link #high(long)}.
     * @throws AmException {@link AmError#BAD_ARG} when the text is not such a pair.
     */
    static long bounds(final String scheduler, final String example, final String text)
    {
        final int dash = text.indexOf('-');
        final long min = dash < 0 ? -1 : digits(text.substring(0, dash));
        final long max = dash < 0 ? -1 : digits(text.substring(dash + 1));
        if (min < 1 || max > INTERVAL_LIMIT || min > max)
        {
            throw bad(scheduler, "bounds must be MIN-MAX, integers with 1 <= MIN <= MAX <= " + INTERVAL_LIMIT, example,
                text);
        }
        return min << 32 | max;
    }

    /**
     * @param bounds packed by {@link #bounds(String, String, String)}.
     * @return the smaller bound.
     */
    static int low(final long bounds)
    {
        return (int)(bounds >>> 32);
    }

    /**
     * @param bounds packed by {@link #bounds(String, String, String)}.
     * @return the larger bound.
     */
    static int high(final long bounds)
    {
        return (int)bounds;
    }

    /**
     * Parse a positive decimal number written {@code digits} or {@code digits.digits} (no sign, exponent or
     * {@code NaN}/{@code Infinity}), at most {@code 1e6}.
     *
     * @param scheduler name of the scheduler, for the message.
     * @param what      what the number is, for the message.
     * @param example   a valid setting, for the message.
     * @param text      the text to parse; never null.
     * @return the number, greater than zero.
     * @throws AmException {@link AmError#BAD_ARG} when the text is not such a number.
     */
    static double positiveDecimal(final String scheduler, final String what, final String example, final String text)
    {
        final String rule = what + " must be a positive decimal number such as 10 or 12.5, at most 1000000";
        final int dot = text.indexOf('.');
        final String whole = dot < 0 ? text : text.substring(0, dot);
        final String fraction = dot < 0 ? "0" : text.substring(dot + 1);
        if (digits(whole) < 0 || digits(fraction) < 0)
        {
            throw bad(scheduler, rule, example, text);
        }
        final double value = Double.parseDouble(text);
        if (!(value > 0.0) || value > 1e6)
        {
            throw bad(scheduler, rule, example, text);
        }
        return value;
    }

    /**
     * @return the value of a string of 1 to 9 decimal digits, or -1 when the text is anything else.
     */
    private static long digits(final String text)
    {
        if (text.isEmpty() || text.length() > 9)
        {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static AmException bad(final String scheduler, final String rule, final String example, final String text)
    {
        return new AmException(AmError.BAD_ARG,
            "poll scheduler '" + scheduler + "': " + rule + " (e.g. " + example + "), got '" + text + "'");
    }
}
