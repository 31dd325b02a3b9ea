package org.am2j.net;

import org.am2j.api.Am;
import org.am2j.api.AmException;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;

/**
 * A process whose network transport cannot open (its port is taken): allocating a bundle fails, twice (the runtime
 * is tried again on each use), and the process then exits normally. Prints one line per attempt: {@code failed: }
 * and the error, or {@code started} when the bundle was allocated after all.
 */
public final class FailedStartMain
{
    private FailedStartMain()
    {
    }

    public static void main(final String[] args)
    {
        for (int attempt = 0; attempt < 2; attempt++)
        {
            try (Bundle bundle = Am.allocateBundle(BundleKind.SEQ))
            {
                System.out.println("started " + bundle);
            }
            catch (final AmException ex)
            {
                System.out.println("failed: " + ex.error() + ": " + ex.getMessage());
            }
        }
    }
}
