/**
 * The NIC-emulation network protocol {@code net}: an emulated intelligent NIC per process ({@link
 * org.am2j.net.NicAgent}) moves messages between endpoints' network queue blocks and a UDP socket, with sequence
 * numbers, acknowledgements, retransmission, duplicate suppression, credits, fragmentation and returned messages.
 * Wire layouts: {@link org.am2j.net.WireDescriptor}, {@link org.am2j.net.MessageDescriptor}.
 */
package org.am2j.net;
