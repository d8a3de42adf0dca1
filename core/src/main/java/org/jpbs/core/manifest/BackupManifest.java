package org.jpbs.core.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jpbs.core.api.BackupType;
import java.util.HexFormat;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.crypto.Fingerprint;
import org.jpbs.core.errors.CryptoException;
import org.jpbs.core.digest.Digest;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The manifest of a snapshot, {@code index.json.blob} ({@code docs/formats.md#manifest-indexjsonblob}):
 * backup type, id and time, the list of files with size and checksum, a free-form
 * {@code unprotected} object (key fingerprint, verify state, notes, upload statistics) and an
 * optional signature (lowercase hex HMAC-SHA256 of {@link #canonicalJson()}).
 *
 * <p>{@link #toJson()} produces exactly the bytes the real client 3.1.2 writes: serde_json
 * pretty output with all keys sorted. Mutable, not thread-safe.
 */
public final class BackupManifest {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final BackupType backupType;
    private final String backupId;
    private final long backupTime;
    private final List<FileEntry> files = new ArrayList<>();
    private ObjectNode unprotected = NODES.objectNode();
    private String signature;

    /**
     * @param type       backup type
     * @param backupId   backup id (e.g. {@code 100})
     * @param backupTime snapshot time, epoch seconds
     */
    public BackupManifest(BackupType type, String backupId, long backupTime) {
        this.backupType = Objects.requireNonNull(type, "type");
        this.backupId = Objects.requireNonNull(backupId, "backupId");
        this.backupTime = backupTime;
    }

    /** The backup id. */
    public String backupId() {
        return backupId;
    }

    /** The backup type. */
    public BackupType backupType() {
        return backupType;
    }

    /** The snapshot time, epoch seconds. */
    public long backupTime() {
        return backupTime;
    }

    /** The files in the order they were added (unmodifiable view). */
    public List<FileEntry> files() {
        return Collections.unmodifiableList(files);
    }

    /**
     * Appends a file entry.
     *
     * @throws IllegalArgumentException if a file of that name is already listed
     */
    public void addFile(FileEntry entry) {
        Objects.requireNonNull(entry, "entry");
        if (file(entry.filename()).isPresent()) {
            throw new IllegalArgumentException("manifest already lists '" + entry.filename() + "'");
        }
        files.add(entry);
    }

    /** The entry named {@code name}, if listed. */
    public Optional<FileEntry> file(String name) {
        for (FileEntry f : files) {
            if (f.filename().equals(name)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The live {@code unprotected} object (not covered by the signature); modify it in place. */
    public ObjectNode unprotected() {
        return unprotected;
    }

    /** The signature as lowercase hex, or null if unsigned. */
    public String signature() {
        return signature;
    }

    /** Sets (or clears, with null) the signature. */
    public void setSignature(String signature) {
        this.signature = signature;
    }

    private ObjectNode toTree(boolean withUnprotected) {
        ObjectNode root = NODES.objectNode();
        root.put("backup-id", backupId);
        root.put("backup-time", backupTime);
        root.put("backup-type", backupType.text());
        ArrayNode arr = root.putArray("files");
        for (FileEntry f : files) {
            ObjectNode o = arr.addObject();
            o.put("crypt-mode", f.cryptMode().text());
            o.put("csum", f.csum().hex());
            o.put("filename", f.filename());
            o.put("size", f.size());
        }
        if (withUnprotected) {
            if (signature == null) {
                root.putNull("signature");
            } else {
                root.put("signature", signature);
            }
            root.set("unprotected", unprotected);
        }
        return root;
    }

    /**
     * The manifest as pretty JSON (UTF-8), byte-identical to the real client's: 2-space indent,
     * {@code "key": value}, all object keys sorted, {@code "signature": null} when unsigned,
     * no trailing newline.
     */
    public byte[] toJson() {
        return SerdeJson.pretty(toTree(true));
    }

    /**
     * The bytes a signature covers ({@code docs/formats.md#manifest-indexjsonblob}): the manifest without {@code unprotected} and
     * {@code signature}, keys sorted by byte order, no whitespace.
     */
    public byte[] canonicalJson() {
        return SerdeJson.canonical(toTree(false));
    }

    /** Key in {@code unprotected} holding the colon-hex key fingerprint. */
    public static final String KEY_FINGERPRINT = "key-fingerprint";

    /**
     * Signs the manifest ({@code docs/formats.md#manifest-indexjsonblob}): {@code signature} = lowercase hex of HMAC-SHA256(id_key,
     * {@link #canonicalJson()}), and {@code unprotected.key-fingerprint} = the key's fingerprint.
     * Call after the last file was added.
     */
    public void sign(CryptConfig crypt) {
        signature = HexFormat.of().formatHex(crypt.authTag(canonicalJson()));
        unprotected.put(KEY_FINGERPRINT, crypt.fingerprint().toString());
    }

    /**
     * The key fingerprint in {@code unprotected}, if the manifest names one.
     *
     * @throws CorruptDataException if it is there but not a fingerprint
     */
    public Optional<Fingerprint> keyFingerprint() throws CorruptDataException {
        JsonNode n = unprotected.get(KEY_FINGERPRINT);
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Fingerprint.parse(n.asText()));
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException("manifest", -1, "unprotected." + KEY_FINGERPRINT + ": " + e.getMessage());
        }
    }

    /**
     * Checks that the manifest and the key belong together, as PBS does before a restore: a
     * manifest naming a key fingerprint needs that very key; an unsigned manifest goes with any
     * or no key.
     *
     * @param crypt    the key given, or null
     * @param resource the snapshot, for messages
     * @throws CryptoException {@code missing key - manifest was created with key FP} or
     *                         {@code wrong key - manifest's key FP does not match provided key FP}
     */
    public void checkFingerprint(CryptConfig crypt, String resource) throws CryptoException, CorruptDataException {
        Optional<Fingerprint> fp = keyFingerprint();
        if (fp.isEmpty()) {
            return;
        }
        if (crypt == null) {
            throw new CryptoException(resource + ": missing key - manifest was created with key " + fp.get());
        }
        if (!crypt.fingerprint().equals(fp.get())) {
            throw new CryptoException(resource + ": wrong key - manifest's key " + fp.get()
                    + " does not match provided key " + crypt.fingerprint());
        }
    }

    /**
     * With a key, checks the fingerprint ({@link #checkFingerprint}) and, if the manifest is
     * signed, the signature; without a key, does nothing (an unsigned manifest is fine with any key).
     *
     * @throws CryptoException on a fingerprint mismatch or {@code wrong signature in manifest}
     */
    public void verify(CryptConfig crypt, String resource) throws CryptoException, CorruptDataException {
        if (crypt == null) {
            return;
        }
        checkFingerprint(crypt, resource);
        if (signature != null) {
            byte[] expected = crypt.authTag(canonicalJson());
            byte[] actual;
            try {
                actual = HexFormat.of().parseHex(signature);
            } catch (IllegalArgumentException e) {
                throw new CorruptDataException(resource, -1, "manifest signature is not hex: '" + signature + "'");
            }
            if (!java.security.MessageDigest.isEqual(expected, actual)) {
                throw new CryptoException(resource + ": wrong signature in manifest");
            }
        }
    }

    /** The manifest JSON as a zstd-compressed, unencrypted DataBlob (the {@code index.json.blob} file). */
    public DataBlob toBlob() {
        byte[] json = toJson();
        return DataBlob.encode(json, 0, json.length, true);
    }

    /**
     * Decodes an {@code index.json.blob} and parses it.
     *
     * @throws CorruptDataException                            on a bad blob or bad JSON
     * @throws org.jpbs.core.errors.EncryptedDataException     if the blob is encrypted
     */
    public static BackupManifest fromBlob(DataBlob blob, String resource) throws IOException {
        return parse(blob.decode(resource, -1), resource);
    }

    /**
     * Parses manifest JSON. Unknown top-level keys are ignored; a missing {@code unprotected}
     * becomes {@code {}} and a missing {@code signature} means unsigned.
     *
     * @throws CorruptDataException naming the resource and the field on invalid JSON, a missing
     *                              field or a field of the wrong type
     */
    public static BackupManifest parse(byte[] json, String resource) throws CorruptDataException {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            long at = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
            throw new CorruptDataException(resource, at, "invalid manifest JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new CorruptDataException(resource, -1, "invalid manifest JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new CorruptDataException(resource, -1, "manifest is not a JSON object");
        }
        BackupType type;
        try {
            type = BackupType.parse(text(root, "backup-type", resource));
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(resource, -1, "manifest field 'backup-type': " + e.getMessage());
        }
        BackupManifest m = new BackupManifest(type, text(root, "backup-id", resource),
                integer(root, "backup-time", resource, "manifest field 'backup-time'"));
        JsonNode files = root.get("files");
        if (files == null || !files.isArray()) {
            throw new CorruptDataException(resource, -1, "manifest field 'files' "
                    + (files == null ? "is missing" : "is not an array"));
        }
        int i = 0;
        for (JsonNode f : files) {
            String where = "manifest files[" + i + "]";
            if (!f.isObject()) {
                throw new CorruptDataException(resource, -1, where + " is not an object");
            }
            String name = text(f, "filename", resource);
            CryptMode mode;
            Digest csum;
            try {
                mode = CryptMode.parse(text(f, "crypt-mode", resource));
                csum = Digest.parse(text(f, "csum", resource));
            } catch (IllegalArgumentException e) {
                throw new CorruptDataException(resource, -1, where + ": " + e.getMessage());
            }
            long size = integer(f, "size", resource, where + " field 'size'");
            if (size < 0) {
                throw new CorruptDataException(resource, -1, where + " field 'size' is negative: " + size);
            }
            if (m.file(name).isPresent()) {
                throw new CorruptDataException(resource, -1, "manifest lists '" + name + "' twice");
            }
            m.files.add(new FileEntry(name, mode, size, csum));
            i++;
        }
        JsonNode sig = root.get("signature");
        if (sig != null && !sig.isNull()) {
            if (!sig.isTextual()) {
                throw new CorruptDataException(resource, -1, "manifest field 'signature' is not a string");
            }
            m.signature = sig.textValue();
        }
        JsonNode unp = root.get("unprotected");
        if (unp != null && !unp.isNull()) {
            if (!unp.isObject()) {
                throw new CorruptDataException(resource, -1, "manifest field 'unprotected' is not an object");
            }
            m.unprotected = (ObjectNode) unp;
        }
        return m;
    }

    private static String text(JsonNode o, String field, String resource) throws CorruptDataException {
        JsonNode n = o.get(field);
        if (n == null || !n.isTextual()) {
            throw new CorruptDataException(resource, -1, "manifest field '" + field + "' "
                    + (n == null ? "is missing" : "is not a string"));
        }
        return n.textValue();
    }

    private static long integer(JsonNode o, String field, String resource, String what) throws CorruptDataException {
        JsonNode n = o.get(field);
        if (n == null) {
            throw new CorruptDataException(resource, -1, what + " is missing");
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new CorruptDataException(resource, -1, what + " is not an integer: " + n);
        }
        return n.longValue();
    }

    @Override
    public String toString() {
        return "BackupManifest[" + backupType.text() + "/" + backupId + "/" + backupTime + ", " + files.size() + " files]";
    }
}
