package org.am2j.core;

import static org.am2j.core.BadArguments.assertAmException;
import static org.am2j.core.BadArguments.catching;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.am2j.api.AmError;
import org.am2j.api.AmException;
import org.am2j.api.EndpointName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad arguments to {@link EndpointName}: its constructor, its queries and its decoding ({@code fromBytes}), which
 * refuses truncated, patched and random bytes with BAD_ARG naming the fault; the names it accepts survive encoding.
 */
@Timeout(60)
class BadEndpointNameArgumentsTest
{
    static final EndpointName NAME =
        new EndpointName("node-a", 42L, 4242L, 3, Map.of("shm", "/dev/shm/am2j-x", "net", "10.0.0.1:5000"));
    static final byte[] BYTES = NAME.toBytes();

    record NameCase(String name, Executable call, List<String> fragments)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static NameCase nameCase(final String name, final Executable call, final String... fragments)
    {
        return new NameCase(name, call, List.of(fragments));
    }

    static Stream<NameCase> badNames()
    {
        final int n = BYTES.length;
        return Stream.of(
            nameCase("new EndpointName(null node, ..)", () -> new EndpointName(null, 1, 1, 0, Map.of()),
                "node must not be null"),
            nameCase("new EndpointName(.., null addresses)", () -> new EndpointName("n", 1, 1, 0, null),
                "addresses must not be null"),
            nameCase("new EndpointName(.., endpointId -1, ..)", () -> new EndpointName("n", 1, 1, -1, Map.of()),
                "endpointId = -1", "[0, "),
            nameCase("new EndpointName(.., endpointId MIN_VALUE, ..)",
                () -> new EndpointName("n", 1, 1, Integer.MIN_VALUE, Map.of()), "endpointId = " + Integer.MIN_VALUE,
                "[0, "),
            nameCase("new EndpointName(.., 17 addresses)", () -> new EndpointName("n", 1, 1, 0, addresses(17, 1)),
                "addresses has 17 entries", "[0, 16]"),
            nameCase("name.address(null)", () -> NAME.address(null), "transport must not be null"),
            nameCase("name.sameNode(null)", () -> NAME.sameNode(null), "other must not be null"),
            nameCase("fromBytes(null)", () -> EndpointName.fromBytes(null), "bytes must not be null"),
            nameCase("fromBytes(null, 0, 0)", () -> EndpointName.fromBytes(null, 0, 0), "bytes must not be null"),
            nameCase("fromBytes(bytes, -1, n)", () -> EndpointName.fromBytes(BYTES, -1, n), "offset = -1",
                "length = " + n, "within the " + n + " bytes"),
            nameCase("fromBytes(bytes, 0, -1)", () -> EndpointName.fromBytes(BYTES, 0, -1), "length = -1",
                "within the " + n + " bytes"),
            nameCase("fromBytes(bytes, 0, n + 1)", () -> EndpointName.fromBytes(BYTES, 0, n + 1),
                "length = " + (n + 1), "within the " + n + " bytes"),
            nameCase("fromBytes(bytes, n, 1)", () -> EndpointName.fromBytes(BYTES, n, 1), "offset = " + n,
                "within the " + n + " bytes"),
            nameCase("fromBytes(more than MAX_ENCODED_LENGTH)",
                () -> EndpointName.fromBytes(new byte[EndpointName.MAX_ENCODED_LENGTH + 1]),
                "length = " + (EndpointName.MAX_ENCODED_LENGTH + 1), "at most " + EndpointName.MAX_ENCODED_LENGTH),
            nameCase("fromBytes(empty)", () -> EndpointName.fromBytes(new byte[0]), "truncated at 0 bytes"),
            nameCase("fromBytes(wrong magic)", () -> EndpointName.fromBytes(patched(BYTES, 0, 0x00)),
                "not an endpoint name", "magic"),
            nameCase("fromBytes(wrong version)", () -> EndpointName.fromBytes(patched(BYTES, 2, 0x07)),
                "version 7", "expected"),
            nameCase("fromBytes(one trailing byte)", () -> EndpointName.fromBytes(Arrays.copyOf(BYTES, n + 1)),
                "1 trailing bytes"),
            nameCase("fromBytes(negative endpoint id)",
                () -> EndpointName.fromBytes(patched(BYTES, 20, 0xFF, 0xFF, 0xFF, 0xFF)), "endpointId = -1"),
            nameCase("fromBytes(node length past the end)",
                () -> EndpointName.fromBytes(patched(BYTES, 24, 0x7F, 0xFF)), "truncated"),
            nameCase("fromBytes(17 addresses)", () -> EndpointName.fromBytes(encodedWith17Addresses()),
                "addresses has 17 entries", "[0, 16]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNames")
    void aBadEndpointNameArgumentThrowsNamingIt(final NameCase c)
    {
        assertAmException(AmError.BAD_ARG, catching(c.call()), c.fragments());
    }

    static IntStream prefixLengths()
    {
        return IntStream.range(0, BYTES.length);
    }

    @ParameterizedTest(name = "the first {0} bytes of a name")
    @MethodSource("prefixLengths")
    void aTruncatedEndpointNameIsRefused(final int length)
    {
        assertAmException(AmError.BAD_ARG, () -> EndpointName.fromBytes(Arrays.copyOf(BYTES, length)),
            "truncated at " + length + " bytes");
        assertAmException(AmError.BAD_ARG, () -> EndpointName.fromBytes(BYTES, 0, length),
            "truncated at " + length + " bytes");
    }

    @Test
    void garbageNeverDecodesIntoAnythingButANameOrBadArg()
    {
        final Random random = new Random(20261122L);
        for (int i = 0; i < 5_000; i++)
        {
            final byte[] garbage = Arrays.copyOf(BYTES, BYTES.length + random.nextInt(8) - 4);
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
            {
                garbage[random.nextInt(garbage.length)] = (byte)random.nextInt(256);
            }
            final Throwable thrown = catching(() -> EndpointName.fromBytes(garbage));
            if (null != thrown && !(thrown instanceof AmException && ((AmException)thrown).error() == AmError.BAD_ARG))
            {
                throw new AssertionError("fromBytes(" + Arrays.toString(garbage) + ") threw " + thrown, thrown);
            }
        }
        final byte[] noise = new byte[200];
        for (int i = 0; i < 5_000; i++)
        {
            random.nextBytes(noise);
            final int length = random.nextInt(noise.length + 1);
            assertAmException(AmError.BAD_ARG, () -> EndpointName.fromBytes(noise, 0, length));
        }
    }

    /**
     * A name the constructor accepts must survive {@link EndpointName#toBytes()} and
     * {@link EndpointName#fromBytes(byte[])} (that is how names travel between processes); otherwise the constructor
     * must refuse it with BAD_ARG naming the argument.
     */
    static Stream<Arguments> namesThatMustRoundTripOrBeRefused()
    {
        final Map<String, String> nullKey = new HashMap<>();
        nullKey.put(null, "x");
        final Map<String, String> nullValue = new HashMap<>();
        nullValue.put("shm", null);
        return Stream.of(
            Arguments.of("a node of 5000 characters", "node",
                (Supplier<EndpointName>)() -> new EndpointName("n".repeat(5_000), 1, 1, 0, Map.of())),
            Arguments.of("a node of 70000 characters", "node",
                (Supplier<EndpointName>)() -> new EndpointName("n".repeat(70_000), 1, 1, 0, Map.of())),
            Arguments.of("16 addresses of 300 characters", "addresses",
                (Supplier<EndpointName>)() -> new EndpointName("n", 1, 1, 0, addresses(16, 300))),
            Arguments.of("a null address key", "addresses",
                (Supplier<EndpointName>)() -> new EndpointName("n", 1, 1, 0, nullKey)),
            Arguments.of("a null address value", "addresses",
                (Supplier<EndpointName>)() -> new EndpointName("n", 1, 1, 0, nullValue)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("namesThatMustRoundTripOrBeRefused")
    void anEndpointNameIsEncodableOrRefusedByTheConstructor(
        final String what, final String argument, final Supplier<EndpointName> constructor)
    {
        final Throwable refused = catching(constructor::get);
        if (null != refused)
        {
            assertAmException(AmError.BAD_ARG, refused, List.of(argument));
            return;
        }
        final EndpointName name = constructor.get();
        final Throwable failed = catching(() -> assertEquals(name, EndpointName.fromBytes(name.toBytes())));
        if (null != failed)
        {
            throw new AssertionError("the constructor accepted " + what + " but the name does not survive " +
                "toBytes()/fromBytes(): " + failed, failed);
        }
    }

    @Test
    void theLargestEndpointIdIsAccepted()
    {
        // Documented as "zero or more": Integer.MAX_VALUE is in range.
        final EndpointName name = assertDoesNotThrow(() -> new EndpointName("n", 1, 1, Integer.MAX_VALUE, Map.of()));
        assertEquals(name, EndpointName.fromBytes(name.toBytes()));
    }

    @Test
    void aValidNameRoundTripsAtAnOffset()
    {
        final byte[] framed = new byte[BYTES.length + 10];
        System.arraycopy(BYTES, 0, framed, 5, BYTES.length);
        assertEquals(NAME, EndpointName.fromBytes(framed, 5, BYTES.length));
        assertEquals(NAME, EndpointName.fromBytes(BYTES));
        final EndpointName sixteen = new EndpointName("n", 1, 1, 0, addresses(16, 1));
        assertEquals(sixteen, EndpointName.fromBytes(sixteen.toBytes()));
    }


    static Map<String, String> addresses(final int count, final int valueLength)
    {
        final Map<String, String> addresses = new TreeMap<>();
        for (int i = 0; i < count; i++)
        {
            addresses.put("t" + i, "v".repeat(valueLength));
        }
        return addresses;
    }

    static byte[] patched(final byte[] bytes, final int offset, final int... values)
    {
        final byte[] copy = bytes.clone();
        for (int i = 0; i < values.length; i++)
        {
            copy[offset + i] = (byte)values[i];
        }
        return copy;
    }

    /** The binary form of EndpointName with 17 distinct addresses (the limit is 16). */
    static byte[] encodedWith17Addresses()
    {
        final ByteBuffer b = ByteBuffer.allocate(512);
        b.putShort((short)0x414E).put((byte)1).put((byte)17).putLong(1).putLong(1).putInt(0);
        b.putShort((short)1).put((byte)'n');
        for (int i = 0; i < 17; i++)
        {
            final byte[] key = ("k" + (char)('a' + i)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            b.putShort((short)key.length).put(key).putShort((short)1).put((byte)'v');
        }
        return Arrays.copyOf(b.array(), b.position());
    }

    @Test
    void theHandMadeEncodingsMatchTheLayout()
    {
        // Guards the patched and hand-made encodings above against a layout change: built the same way with one
        // address, and with the endpoint id patched to its own value, they decode.
        final ByteBuffer b = ByteBuffer.allocate(512);
        b.putShort((short)0x414E).put((byte)1).put((byte)1).putLong(1).putLong(1).putInt(0);
        b.putShort((short)1).put((byte)'n');
        b.putShort((short)2).put((byte)'k').put((byte)'a').putShort((short)1).put((byte)'v');
        assertEquals("v", EndpointName.fromBytes(Arrays.copyOf(b.array(), b.position())).address("ka"));
        assertEquals(NAME, EndpointName.fromBytes(patched(BYTES, 20, 0, 0, 0, 3)));
        assertEquals(NAME.node().length(), ((BYTES[24] & 0xFF) << 8) | (BYTES[25] & 0xFF));
    }
}
