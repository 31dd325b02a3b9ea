/**
 * The cryptographic pieces of an authenticated NIC wire: {@link org.am2j.net.auth.SipHash} tags every datagram under
 * a key of its link, {@link org.am2j.net.auth.NicKeys} holds a NIC's X25519 key pair and derives the two keys of each
 * link (one per direction) from an X25519 agreement with the peer, and {@link org.am2j.net.auth.Cookies} lets a NIC
 * refuse a sender it does not know without keeping any state. The threat model is in {@link
 * org.am2j.net.auth.NicKeys}; the binary layouts are in {@code LinkKeyDescriptor} and {@code CookieDescriptor}.
 */
package org.am2j.net.auth;
