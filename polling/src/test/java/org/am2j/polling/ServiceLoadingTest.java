package org.am2j.polling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.am2j.spi.PollScheduler;
import org.am2j.spi.PollSchedulerProvider;
import org.junit.jupiter.api.Test;

/**
 * The three schedulers are found by name through {@link ServiceLoader}, as {@code AmRuntime} finds them for
 * {@code am2j.poll} / {@code AM2J_POLL}.
 */
class ServiceLoadingTest
{
    @Test
    void eachSchedulerIsFoundOnceByName()
    {
        final List<String> names = new ArrayList<>();
        for (final PollSchedulerProvider provider : ServiceLoader.load(PollSchedulerProvider.class))
        {
            names.add(provider.name());
        }
        for (final String name : new String[] {"every", "fractional", "adaptive", "calibrated", "follow"})
        {
            assertEquals(1, names.stream().filter(name::equals).count(), () -> name + " in " + names);
        }
    }

    @Test
    void fractionalByName()
    {
        final PollScheduler scheduler = load("fractional").create("4");
        assertInstanceOf(FractionalPollScheduler.class, scheduler);
        assertEquals("fractional[1/4, budget 4x]", scheduler.describe());
        assertEquals("fractional[1/8, budget 8x]", load("fractional").create(null).describe());
    }

    @Test
    void adaptiveByName()
    {
        final PollScheduler scheduler = load("adaptive").create(null);
        assertInstanceOf(AdaptivePollScheduler.class, scheduler);
        assertEquals("adaptive[8..32, rate 1/32]", scheduler.describe());
        assertEquals("adaptive[4..64, rate 1/64]", load("adaptive").create("4-64").describe());
    }

    @Test
    void calibratedByName()
    {
        final PollScheduler scheduler = load("calibrated").create(null);
        assertInstanceOf(CalibratedPollScheduler.class, scheduler);
        assertEquals("calibrated[ratio pending, paper's 8..32, rate 1/32]", scheduler.describe());
        assertEquals("calibrated[ratio 240 fixed, 192..768, rate 1/768]",
            load("calibrated").create("240").describe());
    }

    @Test
    void badArgumentsThroughTheProviderThrowBadArg()
    {
        BadArguments.assertBadArg(() -> load("fractional").create("0"), "fractional");
        BadArguments.assertBadArg(() -> load("adaptive").create("32-8"), "adaptive");
        BadArguments.assertBadArg(() -> load("calibrated").create("-1"), "calibrated");
    }

    private static PollSchedulerProvider load(final String name)
    {
        PollSchedulerProvider found = null;
        for (final PollSchedulerProvider provider : ServiceLoader.load(PollSchedulerProvider.class))
        {
            if (name.equals(provider.name()))
            {
                found = provider;
            }
        }
        assertNotNull(found, name);
        return found;
    }
}
