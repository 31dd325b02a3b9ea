package org.am2j.api;

/**
 * The concurrency contract of a {@link Bundle}.
 */
public enum BundleKind
{
    /**
     * One thread at a time uses the bundle and its endpoints. A call made while another thread is inside the bundle
     * throws {@link AmException} with {@link AmError#IN_USE}. A thread may hand the bundle to another between calls.
     */
    SEQ,
    /** Any number of threads may use the bundle and its endpoints at once. */
    PAR
}
