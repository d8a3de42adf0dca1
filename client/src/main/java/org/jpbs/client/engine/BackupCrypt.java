package org.jpbs.client.engine;

import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.manifest.CryptMode;

/**
 * How a backup is protected ({@code docs/formats.md#manifest-indexjsonblob}): the crypt mode
 * every manifest entry gets, the key (chunks and blobs are encrypted with it in {@code encrypt}
 * mode; the manifest is signed with it unless the mode is {@code none}) and, optionally, the
 * key wrapped with a master public key, stored as {@code rsa-encrypted.key.blob}.
 *
 * @param mode          none, encrypt or sign-only
 * @param key           the key, or null (then the mode must be none)
 * @param masterKeyBlob the key encrypted for the master key, or null
 */
public record BackupCrypt(CryptMode mode, CryptConfig key, DataBlob masterKeyBlob) {
    /** No key: unencrypted, unsigned. */
    public static final BackupCrypt NONE = new BackupCrypt(CryptMode.NONE, null, null);

    public BackupCrypt {
        if (key == null && mode != CryptMode.NONE) {
            throw new IllegalArgumentException("crypt mode " + mode + " needs a key");
        }
    }

    /** Encrypts with {@code key} ({@code null}: {@link #NONE}). */
    public static BackupCrypt encrypt(CryptConfig key) {
        return key == null ? NONE : new BackupCrypt(CryptMode.ENCRYPT, key, null);
    }

    /** The key chunks and blobs are encrypted with: the key in {@code encrypt} mode, else null. */
    public CryptConfig chunkKey() {
        return mode == CryptMode.ENCRYPT ? key : null;
    }

    /** The key the manifest is signed with, or null. */
    public CryptConfig signKey() {
        return mode == CryptMode.NONE ? null : key;
    }
}
