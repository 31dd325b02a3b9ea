package org.am2j.perf;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;

import org.am2j.spi.TransportProvider;

/**
 * Which transports the class path provides, asked the way the endpoint core finds them ({@link ServiceLoader} of
 * {@link TransportProvider}), without opening any. A provider that cannot be loaded (a module half built) counts as
 * absent.
 */
final class TransportCheck
{
    /** Broken providers skipped before giving up on the rest (a guard against an iterator that never moves on). */
    private static final int MAX_FAILURES = 64;

    private TransportCheck()
    {
    }

    /**
     * @return names of the transports on this JVM's class path.
     */
    static Set<String> available()
    {
        final Set<String> names = new HashSet<>();
        final Iterator<TransportProvider> providers = ServiceLoader.load(TransportProvider.class).iterator();
        for (int failures = 0; failures < MAX_FAILURES; )
        {
            try
            {
                if (!providers.hasNext())
                {
                    break;
                }
                names.add(providers.next().name());
            }
            catch (final ServiceConfigurationError | LinkageError ex)
            {
                // a provider that cannot be instantiated is not there; the iterator goes on with the next one
                failures++;
            }
        }
        return names;
    }

    /**
     * @param transports comma separated transport names.
     * @return those of them not on the class path, in order.
     */
    static List<String> missing(final String transports)
    {
        final Set<String> present = available();
        return Stream.of(transports.split(",")).map(String::trim).filter(name -> !name.isEmpty())
            .filter(name -> !present.contains(name)).toList();
    }
}
