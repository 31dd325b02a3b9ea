package org.am2j.net.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/**
 * HKDF-SHA256 against the test vectors of RFC 5869 appendix A (cases 1 to 3, the SHA-256 ones).
 */
class HkdfTest
{
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void rfc5869Case1Basic()
    {
        check("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9",
            42,
            "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    }

    @Test
    void rfc5869Case2LongInputs()
    {
        check(range(0x00, 0x50), range(0x60, 0xb0), range(0xb0, 0x100), 82,
            "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
            "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c" +
            "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71" +
            "cc30c58179ec3e87c14c01d5c1f3434f1d87");
    }

    @Test
    void rfc5869Case3NoSaltNoInfo()
    {
        check("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "", 42,
            "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
        // a null salt is the same as an empty one, a null info the same as an empty one
        final byte[] prk = Hkdf.extract(null, HEX.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"));
        assertArrayEquals(HEX.parseHex("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"), prk);
        assertArrayEquals(Hkdf.expand(prk, new byte[0], 42), Hkdf.expand(prk, null, 42));
    }

    @Test
    void refusesOutputLengthsAndKeysOutsideTheRfc()
    {
        final byte[] prk = new byte[32];
        assertThrows(IllegalArgumentException.class, () -> Hkdf.expand(prk, null, 0));
        assertThrows(IllegalArgumentException.class, () -> Hkdf.expand(prk, null, 255 * 32 + 1));
        assertThrows(IllegalArgumentException.class, () -> Hkdf.expand(new byte[31], null, 32));
    }

    private static void check(
        final String ikm, final String salt, final String info, final int length, final String prk, final String okm)
    {
        final byte[] extracted = Hkdf.extract(HEX.parseHex(salt), HEX.parseHex(ikm));
        assertArrayEquals(HEX.parseHex(prk), extracted, "PRK");
        assertArrayEquals(HEX.parseHex(okm), Hkdf.expand(extracted, HEX.parseHex(info), length), "OKM");
    }

    private static String range(final int from, final int to)
    {
        final StringBuilder hex = new StringBuilder();
        for (int i = from; i < to; i++)
        {
            hex.append(String.format("%02x", i));
        }
        return hex.toString();
    }
}
