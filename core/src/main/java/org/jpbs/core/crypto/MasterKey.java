package org.jpbs.core.crypto;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAKey;
import java.security.interfaces.RSAPublicKey;
import javax.crypto.Cipher;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.CryptoException;

/**
 * RSA master keys ({@code docs/formats.md#key-files}, "Related files"): with a master public key,
 * every encrypted backup also stores {@code rsa-encrypted.key.blob}, the compact JSON of an
 * unprotected key file (creation time kept) encrypted with RSA PKCS#1 v1.5 and wrapped in an
 * uncompressed, unencrypted DataBlob; the master private key recovers the key from it.
 *
 * <p>Key files are PEM as PBS writes them: the public key as {@code PUBLIC KEY}
 * (SubjectPublicKeyInfo), the private key as PKCS#8 {@code ENCRYPTED PRIVATE KEY} (AES-256-CBC,
 * passphrase-derived); an unencrypted {@code PRIVATE KEY} or {@code RSA PRIVATE KEY} is read too.
 */
public final class MasterKey {
    /** Name of the snapshot file holding the RSA-encrypted key. */
    public static final String BLOB_NAME = "rsa-encrypted.key.blob";
    /** RSA modulus size of new master keys (as PBS). */
    public static final int BITS = 4096;

    /** BouncyCastle as an explicit provider (not registered globally): PEM ciphers the JDK lacks. */
    private static final java.security.Provider BC = new org.bouncycastle.jce.provider.BouncyCastleProvider();

    private MasterKey() {}

    /** A new RSA key pair of {@code bits} bits (4096 for real use; a few seconds). */
    public static KeyPair generate(int bits) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(bits);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA is not available", e);
        }
    }

    /**
     * Encrypts the unprotected key file of {@code crypt} (with creation time {@code created})
     * for the master key and wraps it as the {@code rsa-encrypted.key.blob} DataBlob.
     *
     * @throws IllegalArgumentException if the RSA key is too small for the key file (it needs at least 3072 bits)
     */
    public static DataBlob encryptKey(PublicKey master, CryptConfig crypt, long created) {
        KeyConfig plain = KeyConfig.withoutPassword(crypt.key()).withCreated(created);
        byte[] json = plain.toJson();
        int max = ((RSAKey) master).getModulus().bitLength() / 8 - 11;
        if (json.length > max) {
            throw new IllegalArgumentException("master public key is too small (" + ((RSAKey) master).getModulus().bitLength()
                    + " bits) to encrypt a key file of " + json.length + " bytes; use at least 3072 bits");
        }
        try {
            Cipher c = Cipher.getInstance("RSA/ECB/PKCS1Padding");
            c.init(Cipher.ENCRYPT_MODE, master);
            byte[] enc = c.doFinal(json);
            return DataBlob.encode(enc, 0, enc.length, false);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("RSA encryption with the master public key failed: " + e.getMessage(), e);
        }
    }

    /**
     * Recovers the key file from {@code rsa-encrypted.key.blob} content (the decoded blob payload
     * or the raw blob file).
     *
     * @param resource the file name, for messages
     * @throws CryptoException if the master private key does not decrypt it
     * @throws CorruptDataException if the result is not a key file
     */
    public static KeyConfig decryptKey(PrivateKey master, byte[] data, String resource) throws IOException {
        byte[] payload = data;
        if (data.length >= 8) {
            try {
                payload = DataBlob.wrap(data, resource).decode(resource, -1);
            } catch (CorruptDataException e) {
                payload = data; // not a blob: take the bytes as the RSA ciphertext
            }
        }
        byte[] json;
        try {
            Cipher c = Cipher.getInstance("RSA/ECB/PKCS1Padding");
            c.init(Cipher.DECRYPT_MODE, master);
            json = c.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new CryptoException(resource + ": cannot decrypt with this master private key ("
                    + e.getMessage() + ")", e);
        }
        return KeyConfig.parse(json, resource);
    }

    /** The public key as PEM ({@code -----BEGIN PUBLIC KEY-----}). */
    public static String publicPem(PublicKey key) {
        return pem(key);
    }

    /**
     * The private key as PKCS#8 PEM encrypted with AES-256-CBC under {@code passphrase}
     * ({@code -----BEGIN ENCRYPTED PRIVATE KEY-----}).
     */
    public static String encryptedPrivatePem(PrivateKey key, char[] passphrase) {
        try {
            var enc = new JceOpenSSLPKCS8EncryptorBuilder(org.bouncycastle.openssl.PKCS8Generator.AES_256_CBC)
                    .setProvider(BC).setPassword(passphrase).build();
            return pem(new JcaPKCS8Generator(key, enc).generate());
        } catch (OperatorCreationException | org.bouncycastle.util.io.pem.PemGenerationException e) {
            throw new IllegalStateException("cannot encrypt the private key: " + e.getMessage(), e);
        }
    }

    private static String pem(Object o) {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return w.toString();
    }

    /**
     * Reads an RSA public key from PEM.
     *
     * @throws CorruptDataException naming {@code resource} if it holds no RSA public key
     */
    public static PublicKey readPublicPem(byte[] pem, String resource) throws CorruptDataException {
        Object o = readPem(pem, resource);
        try {
            PublicKey k;
            if (o instanceof SubjectPublicKeyInfo spki) {
                k = new JcaPEMKeyConverter().getPublicKey(spki);
            } else if (o instanceof PEMKeyPair kp) {
                k = new JcaPEMKeyConverter().getKeyPair(kp).getPublic();
            } else {
                throw new CorruptDataException(resource, -1, "not a PEM public key");
            }
            if (!(k instanceof RSAPublicKey)) {
                throw new CorruptDataException(resource, -1, "not an RSA public key");
            }
            return k;
        } catch (org.bouncycastle.openssl.PEMException e) {
            throw new CorruptDataException(resource, -1, "invalid public key: " + e.getMessage());
        }
    }

    /**
     * Reads an RSA private key from PEM, decrypting it with {@code passphrase} if it is encrypted.
     *
     * @throws CryptoException if the passphrase is wrong
     * @throws CorruptDataException if the file holds no private key
     */
    public static PrivateKey readPrivatePem(byte[] pem, char[] passphrase, String resource) throws IOException {
        Object o = readPem(pem, resource);
        JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
        try {
            if (o instanceof PKCS8EncryptedPrivateKeyInfo enc) {
                try {
                    PrivateKeyInfo info = enc.decryptPrivateKeyInfo(
                            new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(BC).build(passphrase));
                    return conv.getPrivateKey(info);
                } catch (PKCSException e) {
                    throw new CryptoException(resource + ": cannot decrypt the master private key - wrong passphrase?", e);
                }
            }
            if (o instanceof PEMEncryptedKeyPair enc) {
                try {
                    return conv.getKeyPair(enc.decryptKeyPair(new JcePEMDecryptorProviderBuilder().setProvider(BC).build(passphrase))).getPrivate();
                } catch (org.bouncycastle.openssl.EncryptionException e) {
                    throw new CryptoException(resource + ": cannot decrypt the master private key - wrong passphrase?", e);
                }
            }
            if (o instanceof PrivateKeyInfo info) {
                return conv.getPrivateKey(info);
            }
            if (o instanceof PEMKeyPair kp) {
                return conv.getKeyPair(kp).getPrivate();
            }
        } catch (OperatorCreationException e) {
            throw new IllegalStateException(e);
        } catch (org.bouncycastle.openssl.PEMException e) {
            throw new CorruptDataException(resource, -1, "invalid private key: " + e.getMessage());
        }
        throw new CorruptDataException(resource, -1, "not a PEM private key");
    }

    /** True if {@code pem} starts like an (encrypted or plain) PEM private key. */
    public static boolean looksLikePrivatePem(String pem) {
        String s = pem.stripLeading();
        return s.startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----") || s.startsWith("-----BEGIN RSA PRIVATE KEY-----")
                || s.startsWith("-----BEGIN PRIVATE KEY-----");
    }

    private static Object readPem(byte[] pem, String resource) throws CorruptDataException {
        try (PEMParser p = new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)))) {
            Object o = p.readObject();
            if (o == null) {
                throw new CorruptDataException(resource, -1, "no PEM data found");
            }
            return o;
        } catch (CorruptDataException e) {
            throw e;
        } catch (IOException e) {
            throw new CorruptDataException(resource, -1, "invalid PEM data: " + e.getMessage());
        }
    }
}
