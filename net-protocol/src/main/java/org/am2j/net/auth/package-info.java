/**
 * The cryptographic pieces of an authenticated NIC wire: {@link org.am2j.net.auth.NicKeys} holds a NIC's X25519 key
 * pair and derives the secret of each link from an X25519 agreement with the peer, {@link org.am2j.net.auth.LinkSecret}
 * derives from it the keys of the link's handshakes and of each session, {@link org.am2j.net.auth.Mac128} (two
 * {@link org.am2j.net.auth.SipHash} runs) tags datagrams under those keys where AES-GCM does not seal them, and
 * {@link org.am2j.net.auth.Cookies} lets a NIC refuse a sender it does not know without keeping any state.
 * {@link org.am2j.net.auth.X25519Codec} turns public keys into the 32 bytes that travel and back. The threat model is
 * in {@link org.am2j.net.auth.NicKeys}; the binary layouts are in {@code LinkKeyDescriptor} and
 * {@code CookieDescriptor}.
 * <p>
 * How the pieces fit a link's life:
 * <ol>
 *   <li>Each NIC makes its key pair once ({@link org.am2j.net.auth.NicKeys#generate()}) and publishes its public key
 *       with its NIC id where peers learn its address (the rendezvous, or the endpoint names the application passes
 *       around): a channel the attacker cannot alter, since nothing on the wire can tell a peer's public key from an
 *       attacker's.</li>
 *   <li>A HELLO from a sender without a link gets a cookie back, to the datagram's source address, no larger than the
 *       datagram ({@link org.am2j.net.auth.Cookies#issue}); the sender repeats its HELLO with the cookie, and only a
 *       valid cookie ({@link org.am2j.net.auth.Cookies#verify}) buys the key agreement and a peer-table entry.</li>
 *   <li>Both ends derive the link's secret ({@link org.am2j.net.auth.NicKeys#linkSecret}) and its handshake keys
 *       ({@link org.am2j.net.auth.LinkSecret#helloKeys}), which tag the HELLO and its ANSWER; each carries a fresh
 *       random, and both randoms make the session's keys ({@link org.am2j.net.auth.LinkSecret#session}).</li>
 *   <li>Every datagram of the session carries a 128-bit tag under the key of its direction and key epoch: AES-GCM's
 *       (the JDK's, with the header as associated data and the payload encrypted) on a datagram that carries messages
 *       in the {@code encrypt} mode, else that of {@link org.am2j.net.auth.Mac128#tag}. The receiver checks it before
 *       anything of the datagram is used (comparing without branching on where the tags differ); a datagram whose tag
 *       differs changes no state and is counted as a drop.</li>
 * </ol>
 */
package org.am2j.net.auth;
