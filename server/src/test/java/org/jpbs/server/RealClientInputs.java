package org.jpbs.server;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Regenerates the inputs that the real {@code proxmox-backup-client} backed up in
 * {@code ../shared/vectors/real-client/README.md}, so tests need no committed binaries.
 */
public final class RealClientInputs {
    /** SHA-256 of INPUT/image as given in the vectors' README. */
    public static final String IMAGE_SHA256 = "b6b0ecf32d75d98ac9e9784c8aa635262b9a4d7874f29d26bee69ef17f8386ed";
    /** SHA-256 of INPUT/modified-image is not given; it is IMAGE with "CHANGED\n" at 4 MiB. */
    public static final int MIB4 = 4 * 1024 * 1024;

    private RealClientInputs() {}

    /**
     * INPUT/image: the first 4,194,304 bytes of `seq 1 1000000`, 4,194,304 zero bytes, then
     * 1,060,921 bytes of the AES-128-CTR keystream with an all-zero key and IV (9,449,529 bytes).
     */
    public static byte[] image() throws Exception {
        ByteArrayOutputStream seq = new ByteArrayOutputStream(7 * 1024 * 1024);
        for (int i = 1; i <= 1_000_000; i++) {
            seq.writeBytes((i + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        byte[] out = new byte[MIB4 + MIB4 + 1_060_921];
        System.arraycopy(seq.toByteArray(), 0, out, 0, MIB4);
        Cipher ctr = Cipher.getInstance("AES/CTR/NoPadding");
        ctr.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "AES"), new IvParameterSpec(new byte[16]));
        byte[] stream = ctr.doFinal(new byte[1_060_921]);
        System.arraycopy(stream, 0, out, 2 * MIB4, stream.length);
        return out;
    }

    /** INPUT/modified-image: {@link #image()} with the 8 bytes "CHANGED\n" at offset 4,194,304. */
    public static byte[] modifiedImage() throws Exception {
        byte[] img = image();
        byte[] changed = "CHANGED\n".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(changed, 0, img, MIB4, changed.length);
        return img;
    }
}
