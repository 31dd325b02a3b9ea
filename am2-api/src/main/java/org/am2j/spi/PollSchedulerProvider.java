package org.am2j.spi;

/**
 * A poll scheduler, found with {@link java.util.ServiceLoader} by its {@link #name()}. Selected with the
 * {@code am2j.poll} system property or {@code AM2J_POLL} environment variable as {@code name} or
 * {@code name:argument} (e.g. {@code fractional:8}).
 */
public interface PollSchedulerProvider
{
    /**
     * @return the scheduler's name.
     */
    String name();

    /**
     * @return how the scheduler is named in a setting, for error messages and help: e.g. {@code fractional[:K]}.
     */
    default String usage()
    {
        return name();
    }

    /**
     * @param argument the text after the colon, or null.
     * @return a new scheduler for one bundle.
     * @throws org.am2j.api.AmException {@link org.am2j.api.AmError#BAD_ARG} when the argument is invalid.
     */
    PollScheduler create(String argument);
}
