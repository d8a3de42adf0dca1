package org.jpbs.core.crypto;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jpbs.core.errors.CorruptDataException;
import org.jpbs.core.errors.CryptoException;

/**
 * A PBS key file ({@code docs/formats.md#key-files}): the JSON object
 * {@code {"kdf", "created", "modified", "data", "fingerprint"[, "hint"]}} in that field order.
 * {@code kdf} is null (then {@code data} is the raw 32-byte key) or scrypt/PBKDF2 parameters
 * (then {@code data} = IV 16 ‖ tag 16 ‖ AES-256-GCM(derived key, IV)(key 32), 64 bytes);
 * {@code created}/{@code modified} are RFC 3339 with a numeric offset, written in the local time
 * zone; {@code data} is standard base64 with padding; {@code fingerprint} is colon hex.
 * Immutable; the {@code with*} methods return copies.
 *
 * @param derivation  scrypt or PBKDF2 parameters, or null for an unprotected key
 * @param created     creation time, epoch seconds
 * @param modified    last modification time, epoch seconds
 * @param data        the stored key bytes (see above)
 * @param fingerprint the stored fingerprint, or null if the file has none
 * @param hint        a passphrase hint, or null
 */
public record KeyConfig(KeyDerivation derivation, long created, long modified, byte[] data, Fingerprint fingerprint,
        String hint) {
    /** Passphrases shorter than this many bytes are refused (as PBS does). */
    public static final int MIN_PASSPHRASE = 5;

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxxx");

    public KeyConfig {
        Objects.requireNonNull(data, "data");
        data = data.clone();
    }

    /** Supplies the passphrase of a protected key file only when it is needed. */
    @FunctionalInterface
    public interface PassphraseSource {
        /**
         * @return the passphrase as raw bytes (UTF-8 for typed text)
         * @throws IOException if none can be read (no terminal, empty variable, ...)
         */
        byte[] passphrase() throws IOException;
    }

    /** A key file holding {@code key} unprotected ({@code "kdf": null}), created and modified now. */
    public static KeyConfig withoutPassword(byte[] key) {
        CryptConfig c = CryptConfig.of(key);
        long now = Instant.now().getEpochSecond();
        return new KeyConfig(null, now, now, key, c.fingerprint(), null);
    }

    /**
     * A key file holding {@code key} encrypted with a key derived from {@code passphrase}
     * (new random salt and IV), created and modified now.
     *
     * @param kdf {@link Kdf#SCRYPT} or {@link Kdf#PBKDF2}; {@link Kdf#NONE} gives {@link #withoutPassword}
     * @throws IllegalArgumentException if the passphrase is shorter than 5 bytes
     */
    public static KeyConfig withPassphrase(byte[] key, byte[] passphrase, Kdf kdf) {
        if (kdf == Kdf.NONE) {
            return withoutPassword(key);
        }
        if (passphrase.length < MIN_PASSPHRASE) {
            throw new IllegalArgumentException("passphrase is too short (at least " + MIN_PASSPHRASE + " bytes)");
        }
        CryptConfig c = CryptConfig.of(key);
        KeyDerivation d = KeyDerivation.create(kdf);
        byte[] derived = d.derive(passphrase);
        byte[] out = new byte[CryptConfig.IV_LENGTH + CryptConfig.TAG_LENGTH + CryptConfig.KEY_LENGTH];
        CryptConfig.randomIv(out, 0);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(derived, "AES"),
                    new GCMParameterSpec(128, out, 0, CryptConfig.IV_LENGTH));
            byte[] ct = cipher.doFinal(key); // 32 bytes ciphertext + 16 bytes tag
            System.arraycopy(ct, CryptConfig.KEY_LENGTH, out, CryptConfig.IV_LENGTH, CryptConfig.TAG_LENGTH);
            System.arraycopy(ct, 0, out, CryptConfig.IV_LENGTH + CryptConfig.TAG_LENGTH, CryptConfig.KEY_LENGTH);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("AES-256-GCM is not available: " + e.getMessage(), e);
        }
        long now = Instant.now().getEpochSecond();
        return new KeyConfig(d, now, now, out, c.fingerprint(), null);
    }

    /** The key derivation of this file: {@link Kdf#NONE}, {@link Kdf#SCRYPT} or {@link Kdf#PBKDF2}. */
    public Kdf kdf() {
        return derivation == null ? Kdf.NONE : derivation.kdf();
    }

    /** The stored data (a copy). */
    @Override
    public byte[] data() {
        return data.clone();
    }

    /** A copy with another creation time (kept when a key file is re-encrypted). */
    public KeyConfig withCreated(long epochSeconds) {
        return new KeyConfig(derivation, epochSeconds, modified, data, fingerprint, hint);
    }

    /** A copy with another hint (null for none). */
    public KeyConfig withHint(String newHint) {
        return new KeyConfig(derivation, created, modified, data, fingerprint, newHint);
    }

    /**
     * Opens the key: decrypts {@code data} with the derived key if there is a kdf (the
     * passphrase is only asked for then) and checks the stored fingerprint.
     *
     * @param passphrase asked for the passphrase of a protected file
     * @param resource   the key file's name, for messages
     * @throws CryptoException if the passphrase is too short or wrong (the hint is shown if there
     *                         is one), or the stored fingerprint does not match the key
     * @throws CorruptDataException if {@code data} has the wrong length
     * @throws IOException if the passphrase cannot be read
     */
    public CryptConfig decrypt(PassphraseSource passphrase, String resource) throws IOException {
        byte[] key;
        if (derivation == null) {
            if (data.length != CryptConfig.KEY_LENGTH) {
                throw new CorruptDataException(resource, -1, "key data has " + data.length + " bytes, expected 32");
            }
            key = data;
        } else {
            if (data.length != CryptConfig.IV_LENGTH + CryptConfig.TAG_LENGTH + CryptConfig.KEY_LENGTH) {
                throw new CorruptDataException(resource, -1, "encrypted key data has " + data.length + " bytes, expected 64");
            }
            byte[] pw = passphrase.passphrase();
            if (pw == null || pw.length < MIN_PASSPHRASE) {
                throw new CryptoException(resource + ": passphrase is too short (at least " + MIN_PASSPHRASE + " bytes)");
            }
            byte[] derived = derivation.derive(pw);
            try {
                Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
                cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(derived, "AES"),
                        new GCMParameterSpec(128, data, 0, CryptConfig.IV_LENGTH));
                cipher.update(data, CryptConfig.IV_LENGTH + CryptConfig.TAG_LENGTH, CryptConfig.KEY_LENGTH);
                key = cipher.doFinal(data, CryptConfig.IV_LENGTH, CryptConfig.TAG_LENGTH);
            } catch (AEADBadTagException e) {
                throw new CryptoException(resource + ": unable to decrypt the key - wrong passphrase?"
                        + (hint != null ? " (passphrase hint: " + hint + ")" : ""), e);
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("AES-256-GCM is not available: " + e.getMessage(), e);
            }
        }
        CryptConfig c = CryptConfig.of(key);
        if (fingerprint != null && !fingerprint.equals(c.fingerprint())) {
            throw new CryptoException(resource + ": key file contains the wrong fingerprint " + fingerprint
                    + ", its key has fingerprint " + c.fingerprint());
        }
        return c;
    }

    /** The fingerprint to show: the stored one, else computed from an unprotected key, else null. */
    public Fingerprint knownFingerprint() {
        if (fingerprint != null) {
            return fingerprint;
        }
        return derivation == null && data.length == CryptConfig.KEY_LENGTH ? CryptConfig.of(data).fingerprint() : null;
    }

    private ObjectNode tree() {
        ObjectNode o = MAPPER.createObjectNode();
        if (derivation == null) {
            o.putNull("kdf");
        } else if (derivation.kdf() == Kdf.SCRYPT) {
            ObjectNode s = o.putObject("kdf").putObject("Scrypt");
            s.put("n", derivation.n());
            s.put("r", derivation.r());
            s.put("p", derivation.p());
            s.put("salt", Base64.getEncoder().encodeToString(derivation.salt()));
        } else {
            ObjectNode s = o.putObject("kdf").putObject("PBKDF2");
            s.put("iter", derivation.iterations());
            s.put("salt", Base64.getEncoder().encodeToString(derivation.salt()));
        }
        o.put("created", formatTime(created));
        o.put("modified", formatTime(modified));
        o.put("data", Base64.getEncoder().encodeToString(data));
        if (fingerprint != null) {
            o.put("fingerprint", fingerprint.toString());
        }
        if (hint != null) {
            o.put("hint", hint);
        }
        return o;
    }

    /** The compact JSON (UTF-8, no whitespace, no trailing newline), as PBS stores key files. */
    public byte[] toJson() {
        try {
            return MAPPER.writeValueAsBytes(tree());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JSON pretty-printed with 2-space indents ({@code "key": value}), for paper keys. */
    public String toPrettyJson() {
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance()
                        .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(new DefaultIndenter("  ", "\n"));
        try {
            return MAPPER.writer(pp).writeValueAsString(tree());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** RFC 3339 in the local time zone with a numeric offset, e.g. {@code 2024-06-05T16:24:36+02:00}. */
    public static String formatTime(long epochSeconds) {
        return RFC3339.format(OffsetDateTime.ofInstant(Instant.ofEpochSecond(epochSeconds), ZoneId.systemDefault()));
    }

    /**
     * Parses a key file.
     *
     * @param json     the file content
     * @param resource the file name, for messages
     * @throws CorruptDataException naming the file and the field if it is not a key file
     */
    public static KeyConfig parse(byte[] json, String resource) throws CorruptDataException {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new CorruptDataException(resource, -1, "not a key file (invalid JSON: " + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (root == null || !root.isObject()) {
            throw new CorruptDataException(resource, -1, "not a key file (not a JSON object)");
        }
        KeyDerivation derivation = parseKdf(root.get("kdf"), resource);
        long created = time(root, "created", resource);
        long modified = time(root, "modified", resource);
        byte[] data = base64(text(root, "data", resource, true), "data", resource);
        Fingerprint fp = null;
        String fpText = text(root, "fingerprint", resource, false);
        if (fpText != null) {
            try {
                fp = Fingerprint.parse(fpText);
            } catch (IllegalArgumentException e) {
                throw new CorruptDataException(resource, -1, "key file field 'fingerprint': " + e.getMessage());
            }
        }
        String hint = text(root, "hint", resource, false);
        return new KeyConfig(derivation, created, modified, data, fp, hint);
    }

    private static KeyDerivation parseKdf(JsonNode kdf, String resource) throws CorruptDataException {
        if (kdf == null || kdf.isNull()) {
            return null;
        }
        try {
            if (kdf.isObject() && kdf.size() == 1 && kdf.has("Scrypt")) {
                JsonNode s = kdf.get("Scrypt");
                return new KeyDerivation(Kdf.SCRYPT, integer(s, "n", resource), integer(s, "r", resource),
                        integer(s, "p", resource), 0, base64(text(s, "salt", resource, true), "kdf salt", resource));
            }
            if (kdf.isObject() && kdf.size() == 1 && kdf.has("PBKDF2")) {
                JsonNode s = kdf.get("PBKDF2");
                return new KeyDerivation(Kdf.PBKDF2, 0, 0, 0, integer(s, "iter", resource),
                        base64(text(s, "salt", resource, true), "kdf salt", resource));
            }
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(resource, -1, "key file field 'kdf': " + e.getMessage());
        }
        throw new CorruptDataException(resource, -1, "key file field 'kdf' is neither null, Scrypt nor PBKDF2: " + kdf);
    }

    private static String text(JsonNode o, String field, String resource, boolean required) throws CorruptDataException {
        JsonNode n = o == null ? null : o.get(field);
        if (n == null || n.isNull()) {
            if (required) {
                throw new CorruptDataException(resource, -1, "key file field '" + field + "' is missing");
            }
            return null;
        }
        if (!n.isTextual()) {
            throw new CorruptDataException(resource, -1, "key file field '" + field + "' is not a string");
        }
        return n.textValue();
    }

    private static int integer(JsonNode o, String field, String resource) throws CorruptDataException {
        JsonNode n = o == null ? null : o.get(field);
        if (n == null || !n.canConvertToInt() || !n.isIntegralNumber()) {
            throw new CorruptDataException(resource, -1, "key file field 'kdf." + field + "' is missing or not an integer");
        }
        return n.intValue();
    }

    private static byte[] base64(String s, String field, String resource) throws CorruptDataException {
        try {
            return Base64.getDecoder().decode(s.getBytes(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(resource, -1, "key file field '" + field + "' is not base64");
        }
    }

    private static long time(JsonNode o, String field, String resource) throws CorruptDataException {
        String s = text(o, field, resource, true);
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toEpochSecond();
        } catch (DateTimeParseException e) {
            throw new CorruptDataException(resource, -1, "key file field '" + field + "' is not an RFC 3339 time: '" + s + "'");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyConfig k && Objects.equals(derivation, k.derivation) && created == k.created
                && modified == k.modified && java.util.Arrays.equals(data, k.data)
                && Objects.equals(fingerprint, k.fingerprint) && Objects.equals(hint, k.hint);
    }

    @Override
    public int hashCode() {
        return Objects.hash(derivation, created, modified, java.util.Arrays.hashCode(data), fingerprint, hint);
    }

    /** Shows the kdf and fingerprint, never the key data. */
    @Override
    public String toString() {
        return "KeyConfig[kdf " + kdf() + ", fingerprint " + knownFingerprint() + "]";
    }
}
