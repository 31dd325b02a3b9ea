package org.am2j.net;

/**
 * What the NIC does to every datagram of a session between its handshake and the socket ({@link WireSeal}). Both ends
 * of a link must run the same mode: it travels in the handshake and goes into the session's keys, so a HELLO whose
 * mode was changed on the way makes keys neither end can use, and two NICs that disagree refuse each other with an
 * error naming both.
 */
enum WireMode
{
    /**
     * Datagrams that carry messages are sealed with AES-GCM (encrypted and authenticated, the header authenticated
     * too); the others carry a tag. Nobody on the path reads the messages.
     */
    ENCRYPT(1, "encrypt"),
    /** Every datagram carries a tag under its direction's key, checked before anything in it is used. */
    AUTHENTICATE(2, "authenticate"),
    /** Nothing: the wire believes anyone who can send it a datagram. For measuring and for trusted fabrics only. */
    OFF(3, "off");

    /**
     * The mode of a NIC whose settings name none: integrity, as the wire has always had. {@code encrypt} is not the
     * default because the JDK's AES-GCM costs a fixed amount per call (a {@code Cipher} initialised for each
     * datagram's nonce), several times the 128-bit tag's on a short message ({@code WireSealBenchmark}), which a
     * round trip of short messages pays four times; on 8 KiB datagrams both modes run AES-GCM.
     */
    static final WireMode DEFAULT = AUTHENTICATE;

    /** The number that names the mode on the wire and in the key derivation. */
    final int code;
    /** The mode's name in settings. */
    final String text;

    WireMode(final int code, final String text)
    {
        this.code = code;
        this.text = text;
    }

    /**
     * @param text a mode's name, as {@link #text} spells it.
     * @return the mode.
     */
    static WireMode named(final String text)
    {
        for (final WireMode mode : values())
        {
            if (mode.text.equals(text))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("no wire mode " + text);
    }

    /**
     * @param code a mode's number, as a HELLO or ANSWER carries it.
     * @return its name in settings, or a description of an unknown number.
     */
    static String describe(final int code)
    {
        for (final WireMode mode : values())
        {
            if (mode.code == code)
            {
                return mode.text;
            }
        }
        return "an unknown mode (" + code + ")";
    }
}
