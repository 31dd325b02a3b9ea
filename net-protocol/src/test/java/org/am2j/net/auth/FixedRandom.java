package org.am2j.net.auth;

import java.security.SecureRandom;

/**
 * A "random" source that gives the same bytes on every call: a test's way to make the JDK generate a known X25519
 * private key (the RFC 7748 vectors) or a known cookie secret.
 */
public final class FixedRandom extends SecureRandom
{
    private static final long serialVersionUID = 1L;

    private final byte[] bytes;
    private int calls;

    public FixedRandom(final byte[] bytes)
    {
        this.bytes = bytes.clone();
    }

    @Override
    public void nextBytes(final byte[] into)
    {
        calls++;
        for (int i = 0; i < into.length; i++)
        {
            into[i] = bytes[i % bytes.length];
        }
    }

    int calls()
    {
        return calls;
    }
}
