import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * How fast AES-256-GCM runs on 4 MiB messages depending on how it is fed, in a fresh JVM:
 * one doFinal over the byte[] versus 16 KiB update() slices, for encryption and decryption
 * (decryption as jpbs does it: two sliced GCM encryptions, see core/.../crypto/AesGcm.java).
 * Run: java bench/GcmPaths.java [SECONDS] [PATH] [SLICE_BYTES]   (JDK 25; PATH one of encOne,
 * encSlices, decOne, decTwoPass; each path in its own JVM is fairer, e.g.
 * java bench/GcmPaths.java 3 decTwoPass 16384). The first seconds include the JIT warm-up, which
 * is what a backup or restore command pays; smaller slices reach the compiled GCM intrinsic sooner.
 */
public class GcmPaths {
    static final SecretKeySpec KEY = new SecretKeySpec(new byte[32], "AES");
    static int slice = 1024;

    static Cipher enc(byte[] iv) throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, KEY, new GCMParameterSpec(128, iv));
        return c;
    }

    static byte[] encOne(byte[] in, byte[] iv) throws Exception {
        return enc(iv).doFinal(in);
    }

    static byte[] encSlices(byte[] in, byte[] iv) throws Exception {
        Cipher c = enc(iv);
        byte[] out = new byte[in.length + 16];
        int o = 0;
        for (int p = 0; p < in.length; p += slice) {
            o += c.update(in, p, Math.min(slice, in.length - p), out, o);
        }
        c.doFinal(out, o);
        return out;
    }

    static byte[] decOne(byte[] ct, byte[] iv) throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, KEY, new GCMParameterSpec(128, iv));
        return c.doFinal(ct);
    }

    static byte[] decTwoPass(byte[] ct, byte[] iv) throws Exception {
        int n = ct.length - 16;
        byte[] plain = Arrays.copyOf(encSlices(Arrays.copyOf(ct, n), iv), n);
        byte[] again = encSlices(plain, iv);
        if (!MessageDigest.isEqual(Arrays.copyOfRange(again, n, n + 16), Arrays.copyOfRange(ct, n, n + 16))) {
            throw new AEADBadTagException();
        }
        return plain;
    }

    interface Path {
        byte[] run(byte[] data, byte[] iv) throws Exception;
    }

    static void time(String name, Path p, byte[] in, byte[] iv, double seconds) throws Exception {
        long t0 = System.nanoTime();
        long bytes = 0;
        while (System.nanoTime() - t0 < seconds * 1e9) {
            p.run(in, iv);
            bytes += in.length;
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("%-22s %8.0f MB/s over %.1f s%n", name, bytes / s / 1e6, s);
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        byte[] data = new byte[4 << 20];
        new SecureRandom().nextBytes(data);
        byte[] iv = new byte[16];
        new SecureRandom().nextBytes(iv);
        byte[] ct = encSlices(data, iv);
        if (!Arrays.equals(decTwoPass(ct, iv), data)) {
            throw new AssertionError("paths disagree");
        }
        String only = args.length > 1 ? args[1] : null;
        if (args.length > 2) {
            slice = Integer.parseInt(args[2]);
        }
        if (only == null || only.equals("encOne")) time("encrypt doFinal 4 MiB", GcmPaths::encOne, data, iv, seconds);
        if (only == null || only.equals("encSlices")) time("encrypt " + slice + " B slices", GcmPaths::encSlices, data, iv, seconds);
        if (only == null || only.equals("decOne")) time("decrypt doFinal 4 MiB", GcmPaths::decOne, ct, iv, seconds);
        if (only == null || only.equals("decTwoPass")) time("decrypt two passes", GcmPaths::decTwoPass, ct, iv, seconds);
    }
}
