package org.am2j.api;

/**
 * Short messages carry only arguments; medium messages add data handed to the handler in a temporary buffer; long
 * messages add data written at an offset of the receiver's segment before the handler runs.
 */
public enum MessageCategory
{
    /** Arguments only. */
    SHORT,
    /** Arguments and data in a temporary buffer. */
    MEDIUM,
    /** Arguments and data deposited in the receiver's segment. */
    LONG
}
