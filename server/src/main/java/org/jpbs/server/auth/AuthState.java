package org.jpbs.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * One consistent, immutable view of the authentication files of a config directory:
 * {@code user.cfg} ({@link UserConfig}), {@code acl.cfg} ({@link AclConfig}),
 * {@code shadow.json} (user id to {@link PasswordHash} hash) and {@code token.shadow}
 * (token id to hash of its secret). A missing file reads as empty.
 *
 * @param users     users and tokens
 * @param acl       access control list
 * @param passwords user id ({@code user@realm}) to password hash
 * @param tokens    token id ({@code user@realm!name}) to secret hash
 */
public record AuthState(UserConfig users, AclConfig acl, Map<String, String> passwords, Map<String, String> tokens) {
    /** {@code user.cfg}. */
    public static final String USER_CFG = "user.cfg";
    /** {@code acl.cfg}. */
    public static final String ACL_CFG = "acl.cfg";
    /** {@code shadow.json}: {@code {"user@pbs": "<hash>"}}. */
    public static final String SHADOW = "shadow.json";
    /** {@code token.shadow}: {@code {"user@pbs!name": "<hash>"}}. */
    public static final String TOKEN_SHADOW = "token.shadow";
    /** The files, in the order they are checked for changes. */
    static final String[] FILES = {USER_CFG, ACL_CFG, SHADOW, TOKEN_SHADOW};

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Copies the maps (sorted by key). */
    public AuthState {
        passwords = java.util.Collections.unmodifiableMap(new TreeMap<>(passwords));
        tokens = java.util.Collections.unmodifiableMap(new TreeMap<>(tokens));
    }

    /**
     * Reads the four files of {@code configDir}.
     *
     * @throws IOException              if a file exists but cannot be read
     * @throws IllegalArgumentException naming the file if one cannot be parsed
     */
    public static AuthState load(Path configDir) throws IOException {
        Path u = configDir.resolve(USER_CFG);
        Path a = configDir.resolve(ACL_CFG);
        return new AuthState(
                UserConfig.parse(readOrEmpty(u), u.toString()),
                AclConfig.parse(readOrEmpty(a), a.toString()),
                readMap(configDir.resolve(SHADOW)),
                readMap(configDir.resolve(TOKEN_SHADOW)));
    }

    private static String readOrEmpty(Path p) throws IOException {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    private static Map<String, String> readMap(Path p) throws IOException {
        String text = readOrEmpty(p);
        Map<String, String> out = new TreeMap<>();
        if (text.isBlank()) {
            return out;
        }
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(p + ": invalid JSON: " + e.getOriginalMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException(p + ": expected a JSON object of id to hash");
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException(p + ": value of '" + e.getKey() + "' is not a string");
            }
            out.put(e.getKey(), e.getValue().textValue());
        }
        return out;
    }

    /** JSON text of an id-to-hash map, keys sorted, ending with a newline. */
    static byte[] mapJson(Map<String, String> m) {
        try {
            return (JSON.writeValueAsString(new TreeMap<>(m)) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The privilege resolver of this ACL. */
    public AclResolver resolver() {
        return new AclResolver(acl);
    }
}
