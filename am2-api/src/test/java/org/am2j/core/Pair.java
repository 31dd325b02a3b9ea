package org.am2j.core;

import org.am2j.api.Am;
import org.am2j.api.Bundle;
import org.am2j.api.BundleKind;
import org.am2j.api.Endpoint;
import org.am2j.api.Tags;

/**
 * Two endpoints that have mapped each other at index 0: the fixture of most core tests.
 */
final class Pair implements AutoCloseable
{
    final Bundle bundleA;
    final Bundle bundleB;
    final Endpoint a;
    final Endpoint b;

    private Pair(final Bundle bundleA, final Bundle bundleB)
    {
        this.bundleA = bundleA;
        this.bundleB = bundleB;
        this.a = bundleA.allocateEndpoint();
        this.b = bundleB.allocateEndpoint();
        a.tag(Tags.fresh());
        b.tag(Tags.fresh());
        a.map(0, b.name(), b.tag());
        b.map(0, a.name(), a.tag());
    }

    /**
     * @param kind of the one bundle both endpoints share.
     * @return a pair in one bundle.
     */
    static Pair inOneBundle(final BundleKind kind)
    {
        final Bundle bundle = Am.allocateBundle(kind);
        return new Pair(bundle, bundle);
    }

    /**
     * @param kind of the two bundles.
     * @return a pair in two bundles.
     */
    static Pair inTwoBundles(final BundleKind kind)
    {
        return new Pair(Am.allocateBundle(kind), Am.allocateBundle(kind));
    }

    /**
     * Poll both bundles until the condition holds.
     *
     * @param condition to wait for.
     * @param maxPolls  bound on the number of polls.
     */
    void pollUntil(final java.util.function.BooleanSupplier condition, final int maxPolls)
    {
        for (int i = 0; i < maxPolls && !condition.getAsBoolean(); i++)
        {
            bundleA.poll();
            if (bundleB != bundleA)
            {
                bundleB.poll();
            }
        }
        if (!condition.getAsBoolean())
        {
            throw new AssertionError("condition not reached after " + maxPolls + " polls");
        }
    }

    @Override
    public void close()
    {
        bundleA.close();
        bundleB.close();
    }
}
