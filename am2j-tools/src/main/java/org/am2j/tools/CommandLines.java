package org.am2j.tools;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.nio.file.Path;

import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command lines of am2j's tools ({@code bin/am2j run}, {@code stat}, {@code app}, {@code pingpong}, {@code logp},
 * {@code scale}, {@code apps-matrix}), parsed by picocli from the options their classes declare, with one set of
 * conventions:
 * <ul>
 *     <li>an option and its value are separated by a space ({@code --size 64}), and the help shows them so, in plain
 *     text (no colours, whatever the terminal); a command may take {@code --size=64} too
 *     ({@code setSeparator("=")}, as {@code stat} does), its help still shows the space;</li>
 *     <li>an option given twice keeps its last value (a list option collects them all); no {@code @file} expansion;</li>
 *     <li>a whole number option carries a {@link Range}, checked after parsing;</li>
 *     <li>a file name may not be empty;</li>
 *     <li>every error is an {@link IllegalArgumentException} that names the option and what is wrong with it
 *     ({@code --size needs a value}, {@code --size 0 is outside [1, 8192] (medium message bytes)},
 *     {@code unknown argument '--bogus'}); the tool prints it with its usage line and exits with status 2.</li>
 * </ul>
 * No option is picocli-{@code required}: a tool checks a missing one itself, with its own message.
 */
public final class CommandLines
{
    /** Columns of the help text. */
    static final int HELP_WIDTH = 120;
    /** Columns of the usage line: enough for it never to be wrapped. */
    private static final int USAGE_WIDTH = 1000;

    /**
     * The values a whole number option (or each element of a list of them) may take.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface Range
    {
        /** @return the smallest allowed. */
        int min();

        /** @return the largest allowed; {@link Integer#MAX_VALUE} for no bound. */
        int max() default Integer.MAX_VALUE;

        /** @return what the number is, for the errors; empty when the option's name says it. */
        String meaning() default "";
    }

    private CommandLines()
    {
    }

    /**
     * @param options an object whose class declares the options ({@code @Command}, {@code @Option}).
     * @return its command line with am2j's conventions.
     */
    public static CommandLine of(final Object options)
    {
        final CommandLine line = new CommandLine(options)
            .setOverwrittenOptionsAllowed(true)
            .setExpandAtFiles(false)
            .setSeparator(" ")
            .setUsageHelpWidth(HELP_WIDTH)
            .setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF))
            .registerConverter(Path.class, CommandLines::fileName);
        line.getCommandSpec().usageMessage().synopsisHeading("usage: ").sortOptions(false).sortSynopsis(false);
        return line;
    }

    /**
     * @param options an object whose class declares the options; they are set on it.
     * @param args    the command line.
     * @param <T>     its type.
     * @return {@code options}.
     * @throws IllegalArgumentException naming the bad, unknown or valueless option.
     */
    public static <T> T parse(final T options, final String... args)
    {
        parse(of(options), args);
        return options;
    }

    /**
     * @param line a command line of {@link #of(Object)}, with options added if need be.
     * @param args the command line.
     * @return what was parsed, with every {@link Range} checked.
     * @throws IllegalArgumentException naming the bad, unknown or valueless option.
     */
    public static ParseResult parse(final CommandLine line, final String... args)
    {
        final ParseResult parsed;
        try
        {
            parsed = line.parseArgs(args);
        }
        catch (final ParameterException ex)
        {
            throw new IllegalArgumentException(message(ex), ex);
        }
        for (final OptionSpec option : parsed.matchedOptions())
        {
            final Range range = range(option);
            if (null != range)
            {
                final Object value = option.getValue();
                for (final int number : value instanceof int[] numbers ? numbers : new int[]{ (Integer)value })
                {
                    check(option, range, number);
                }
            }
        }
        return parsed;
    }

    /**
     * @param options an object whose class declares the options.
     * @return its usage line, as printed after an error: one line, however long, as a shell would take it.
     */
    public static String usage(final Object options)
    {
        return usage(of(options));
    }

    /**
     * @param options an object whose class declares the options.
     * @return its help: the usage line, then every option with what it does, to a width of {@value #HELP_WIDTH}.
     */
    public static String help(final Object options)
    {
        return help(of(options));
    }

    /**
     * @param line a command line of {@link #of(Object)}, with options added if need be.
     * @return its help: the usage line, the command's description if it has one, then every option and positional
     * parameter with what it does, then the footer if there is one, to a width of {@value #HELP_WIDTH}.
     */
    public static String help(final CommandLine line)
    {
        final CommandLine.Help help = line.getHelp();
        return usage(line) + System.lineSeparator() + help.description() + help.optionList() +
            help.parameterList() + help.footer();
    }

    private static String usage(final CommandLine line)
    {
        line.setUsageHelpWidth(USAGE_WIDTH);
        try
        {
            final CommandLine.Help help = line.getHelp();
            return (help.synopsisHeading() + help.synopsis(0)).strip();
        }
        finally
        {
            line.setUsageHelpWidth(HELP_WIDTH);
        }
    }

    private static String message(final ParameterException ex)
    {
        if (ex instanceof MissingParameterException missing && missing.getMissing().get(0) instanceof OptionSpec option)
        {
            return option.longestName() + " needs a value";
        }
        if (ex instanceof UnmatchedArgumentException unmatched)
        {
            return "unknown argument '" + unmatched.getUnmatched().get(0) + "'";
        }
        final Range range = range(ex.getArgSpec());
        if (null != range && ex.getArgSpec() instanceof OptionSpec option)
        {
            final String bounds = Integer.MAX_VALUE == range.max() ? "at least " + range.min() :
                range.min() + " to " + range.max();
            return option.longestName() + " '" + ex.getValue() + "' is not a number (" +
                (range.meaning().isEmpty() ? "" : range.meaning() + ", ") + bounds + ")";
        }
        if (ex.getCause() instanceof TypeConversionException conversion && ex.getArgSpec() instanceof OptionSpec option)
        {
            // picocli's own conversions and fileName(): the option is not in the message
            return option.longestName() + " " + conversion.getMessage();
        }
        // the tools' converters and setters say which option is wrong
        return ex.getCause() instanceof IllegalArgumentException cause ? cause.getMessage() : ex.getMessage();
    }

    private static void check(final OptionSpec option, final Range range, final int value)
    {
        if (value < range.min() || value > range.max())
        {
            throw new IllegalArgumentException(option.longestName() + " " + value +
                (Integer.MAX_VALUE == range.max() ? " must be at least " + range.min() :
                " is outside [" + range.min() + ", " + range.max() + "]") +
                (range.meaning().isEmpty() ? "" : " (" + range.meaning() + ")"));
        }
    }

    private static Range range(final ArgSpec arg)
    {
        return null != arg && arg.userObject() instanceof Field field ? field.getAnnotation(Range.class) : null;
    }

    /** A converter for a text option that may not be empty ({@code --cp ''}): "must not be empty". */
    public static final class NotEmpty implements ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            if (value.isEmpty())
            {
                throw new TypeConversionException("must not be empty");
            }
            return value;
        }
    }

    private static Path fileName(final String value)
    {
        if (value.isEmpty())
        {
            throw new TypeConversionException("needs a file name");
        }
        return Path.of(value);
    }
}
