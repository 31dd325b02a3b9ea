package org.am2j.perf.jmh;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.concurrent.UnsafeBuffer;
import org.am2j.net.auth.AesGcm;
import org.am2j.net.auth.Mac128;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-call cost of sealing and opening one datagram of the network wire, per construction and size: a 104-byte
 * header (authenticated) and {@code payload} bytes after it (0: an ACK, header only; 40; 168: a short message; 8192:
 * an 8 KiB message in one datagram), then the 16-byte tag. Constructions:
 * <ul>
 *   <li>{@code gcmDirect}: AES-128-GCM the JDK's way over the NIC's direct buffers, in place: {@code Cipher.init} with
 *       a new {@code GCMParameterSpec} per datagram, {@code updateAAD} and {@code doFinal} on {@code ByteBuffer}s
 *       (how the wire sealed before {@link AesGcm});</li>
 *   <li>{@code mac128}: the {@link Mac128} tag over header and payload (two SipHash-2-4 passes);</li>
 *   <li>{@code aesGcm}: {@link AesGcm#seal} and {@link AesGcm#open}, as the wire's {@code encrypt} mode seals and
 *       opens: the datagram copied into a heap array, sealed or opened there, the result copied back;</li>
 *   <li>{@code aesGcmTag}: {@link AesGcm#tag} and {@link AesGcm#checkTag}, as {@code authenticate} mode tags long
 *       datagrams: AES-GCM's tag of the datagram, its payload in clear;</li>
 *   <li>{@code gmacHeap}: AES-GCM with the whole datagram as associated data and nothing encrypted (GMAC), from a
 *       heap copy: the provider buffers associated data in a new array per call.</li>
 * </ul>
 * {@code open} first restores a sealed datagram (a copy of its bytes, the {@code restore} benchmark alone), since
 * opening in place overwrites it. Run with {@code -prof gc} for the bytes allocated per call.
 */
@Warmup(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = { JmhRuntime.ADD_EXPORTS, JmhRuntime.JDK_INTERNAL_MISC, JmhRuntime.NATIVE_ACCESS })
public class WireSealBenchmark extends AmBenchmark
{
    private static final int HEADER = 104;
    private static final int TAG = 16;

    @Param({ "0", "40", "168", "8192" })
    public int payload;

    @Param({ "gcmDirect", "mac128", "aesGcm", "aesGcmTag", "gmacHeap" })
    public String construction;

    private int length;
    private ByteBuffer buffer;
    private ByteBuffer twin;
    private UnsafeBuffer view;
    /**
     * The datagram sealed as transmissions 2^20 and 2^20 + 1, opened in turn (the JDK refuses to encrypt twice in a
     * row under one nonce, which {@code aesGcmTag} does to check).
     */
    private final byte[][] sealedBytes = new byte[2][];
    private int turn;
    private final byte[] heap = new byte[9000];
    private final byte[] heapOut = new byte[9000];
    private final byte[] nonce = new byte[12];
    private SecretKeySpec key;
    private Cipher sealer;
    private Cipher opener;
    private final Mac128 mac = new Mac128();
    private final AesGcm aesGcm = new AesGcm(9000);
    private long transmission;

    /**
     * Make the keys, the ciphers and one datagram, and seal it once for {@link #open}.
     *
     * @throws GeneralSecurityException never.
     */
    @Setup(Level.Trial)
    public void setUp() throws GeneralSecurityException
    {
        length = HEADER + payload;
        buffer = ByteBuffer.allocateDirect(length + TAG).order(ByteOrder.LITTLE_ENDIAN);
        twin = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        view = new UnsafeBuffer(buffer);
        for (int i = 0; i < length; i++)
        {
            view.putByte(i, (byte)(7 * i + 1));
        }
        final byte[] keys = new byte[16 + Mac128.KEY_LENGTH];
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = (byte)(31 * i + 3);
        }
        key = new SecretKeySpec(keys, 0, 16, "AES");
        mac.key(keys, 16);
        sealer = Cipher.getInstance("AES/GCM/NoPadding");
        opener = Cipher.getInstance("AES/GCM/NoPadding");
        transmission = 1L << 20;
        for (int i = 0; i < 2; i++)
        {
            seal();
            sealedBytes[i] = new byte[length + TAG];
            view.getBytes(0, sealedBytes[i]);
        }
    }

    /**
     * @return a byte of the sealed datagram.
     * @throws GeneralSecurityException never.
     */
    @Benchmark
    public int seal() throws GeneralSecurityException
    {
        final long n = transmission++;
        switch (construction)
        {
            case "gcmDirect":
                sealer.init(Cipher.ENCRYPT_MODE, key, parameters(n));
                buffer.limit(HEADER).position(0);
                sealer.updateAAD(buffer);
                buffer.limit(length).position(HEADER);
                twin.limit(length + TAG).position(HEADER);
                sealer.doFinal(buffer, twin);
                break;
            case "mac128":
                mac.tag(view, 0, length);
                break;
            case "gmacHeap":
                view.getBytes(0, heap, 0, length);
                sealer.init(Cipher.ENCRYPT_MODE, key, parameters(n));
                sealer.updateAAD(heap, 0, length);
                sealer.doFinal(heap, 0, 0, heap, length);
                view.putBytes(length, heap, length, TAG);
                break;
            case "aesGcm":
                aesGcm.seal(key, (byte)0, n, view, view, HEADER, length);
                break;
            case "aesGcmTag":
                aesGcm.tag(key, (byte)0, n, view, HEADER, length);
                break;
            default:
                throw new IllegalArgumentException(construction);
        }
        return view.getByte(length);
    }

    /**
     * @return the restored datagram's first byte.
     */
    @Benchmark
    public int restore()
    {
        turn ^= 1;
        view.putBytes(0, sealedBytes[turn]);
        return view.getByte(0);
    }

    /**
     * @return true when the datagram checked.
     * @throws GeneralSecurityException when it did not (never).
     */
    @Benchmark
    public boolean open() throws GeneralSecurityException
    {
        turn ^= 1;
        view.putBytes(0, sealedBytes[turn]);
        final long n = (1L << 20) + turn;
        switch (construction)
        {
            case "gcmDirect":
                opener.init(Cipher.DECRYPT_MODE, key, parameters(n));
                buffer.limit(HEADER).position(0);
                opener.updateAAD(buffer);
                buffer.limit(length + TAG).position(HEADER);
                twin.limit(length + TAG).position(HEADER);
                opener.doFinal(buffer, twin);
                return true;
            case "mac128":
                return mac.check(view, 0, length);
            case "gmacHeap":
                view.getBytes(0, heap, 0, length + TAG);
                opener.init(Cipher.DECRYPT_MODE, key, parameters(n));
                opener.updateAAD(heap, 0, length);
                opener.doFinal(heap, length, TAG, heapOut, 0);
                return true;
            case "aesGcm":
                return aesGcm.open(key, (byte)0, n, view, HEADER, length);
            case "aesGcmTag":
                return aesGcm.checkTag(key, (byte)0, n, view, HEADER, length);
            default:
                throw new IllegalArgumentException(construction);
        }
    }

    private GCMParameterSpec parameters(final long n)
    {
        for (int i = 0; i < 8; i++)
        {
            nonce[4 + i] = (byte)(n >>> (8 * i));
        }
        return new GCMParameterSpec(128, nonce);
    }
}
