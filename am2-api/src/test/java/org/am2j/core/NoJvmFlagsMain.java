package org.am2j.core;

import org.am2j.api.Am;
import org.am2j.api.AmException;
import org.am2j.api.BundleKind;
import org.am2j.spmd.Spmd;

/**
 * Run without am2j's JVM flags by {@link JvmFlagsTest}: prints how each entry point refuses, one line each.
 */
public final class NoJvmFlagsMain
{
    private NoJvmFlagsMain()
    {
    }

    /**
     * @param args ignored.
     */
    public static void main(final String[] args)
    {
        try
        {
            Spmd.init().close();
            System.out.println("Spmd.init started");
        }
        catch (final AmException ex)
        {
            System.out.println("Spmd.init refused: " + ex.error() + ": " + ex.detail());
        }
        try
        {
            Am.allocateBundle(BundleKind.SEQ).close();
            System.out.println("Am.allocateBundle started");
        }
        catch (final AmException ex)
        {
            System.out.println("Am.allocateBundle refused: " + ex.error() + ": " + ex.detail());
        }
    }
}
