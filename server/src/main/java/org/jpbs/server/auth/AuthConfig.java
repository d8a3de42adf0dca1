package org.jpbs.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jpbs.server.auth.SectionConfig.Section;

/**
 * The programmatic administration of users, API tokens and ACLs in a config directory (what
 * {@code proxmox-backup-manager user create | generate-token} and {@code acl update} do, {@code docs/auth.md#the-config-directory}), used by the CLI. Every change is a read-modify-write of
 * the files under the configuration lock ({@code .auth.lck}), each file replaced atomically
 * (temp file + rename); {@code shadow.json} and {@code token.shadow} are mode 0600,
 * {@code user.cfg} and {@code acl.cfg} 0640. A running server ({@link FileAuthenticator})
 * picks changes up on its next request.
 *
 * <p>Realms: {@code pbs} for jpbs users; {@code pam} only for {@code root@pam}, which always
 * exists, has every privilege, and logs in with a password kept in the same
 * {@code shadow.json} (jpbs does not ask PAM). Errors are {@link IllegalArgumentException}
 * with a one-line message for invalid or conflicting input and {@link IOException} for file
 * problems. Thread-safe.
 */
public final class AuthConfig {
    /** Minimum password length (as PBS). */
    public static final int MIN_PASSWORD_LENGTH = 5;
    /** Maximum password length (as PBS). */
    public static final int MAX_PASSWORD_LENGTH = 64;

    private final Path dir;

    private AuthConfig(Path dir) {
        this.dir = dir;
    }

    /**
     * Opens (and creates if needed) a config directory and checks that its files parse.
     *
     * @throws IOException              if the directory cannot be created or a file read
     * @throws IllegalArgumentException naming the file if one cannot be parsed
     */
    public static AuthConfig open(Path configDir) throws IOException {
        Files.createDirectories(configDir);
        AuthState.load(configDir);
        return new AuthConfig(configDir);
    }

    /** The config directory. */
    public Path configDir() {
        return dir;
    }

    /** The current contents of the files. */
    public AuthState load() throws IOException {
        return AuthState.load(dir);
    }

    /**
     * Adds a user of realm {@code pbs}.
     *
     * @param userid   {@code name@pbs}
     * @param password the password ({@value #MIN_PASSWORD_LENGTH}..{@value #MAX_PASSWORD_LENGTH}
     *                 characters), or null for a user that only uses API tokens
     * @param comment  one line, or null
     * @throws IllegalArgumentException invalid id/password/comment, another realm, or the user exists
     */
    public void addUser(String userid, String password, String comment) throws IOException {
        Authid u = Authid.parseUser(userid);
        checkRealm(u);
        if (u.isSuperuser()) {
            throw new IllegalArgumentException("root@pam is the built-in superuser and always exists; set its password"
                    + " with 'jpbs user add root@pam --set-password --password-file FILE'");
        }
        if (password != null) {
            checkPassword(password);
        }
        Section section = UserConfig.section(UserConfig.USER, u, comment); // validates the comment
        String hash = password == null ? null : PasswordHash.hash(password, PasswordHash.PASSWORD_ITERATIONS);
        try (ConfigFiles.Lock _ = ConfigFiles.lock(dir)) {
            AuthState s = load();
            if (s.users().user(u).isPresent()) {
                throw new IllegalArgumentException("user '" + u + "' already exists");
            }
            Map<String, String> pw = new TreeMap<>(s.passwords());
            if (hash != null) {
                pw.put(u.toString(), hash);
            } else {
                pw.remove(u.toString());
            }
            writeShadow(AuthState.SHADOW, pw);
            writeUsers(s.users().with(section));
        }
    }

    /**
     * Sets (replaces) a user's password; {@code root@pam} included.
     *
     * @throws IllegalArgumentException invalid id or password, unknown user, or a realm other than pbs/pam
     */
    public void setPassword(String userid, String password) throws IOException {
        Authid u = Authid.parseUser(userid);
        checkRealm(u);
        checkPassword(password);
        String hash = PasswordHash.hash(password, PasswordHash.PASSWORD_ITERATIONS);
        try (ConfigFiles.Lock _ = ConfigFiles.lock(dir)) {
            AuthState s = load();
            if (!s.users().userExists(u)) {
                throw new IllegalArgumentException("no such user '" + u + "'");
            }
            Map<String, String> pw = new TreeMap<>(s.passwords());
            pw.put(u.toString(), hash);
            writeShadow(AuthState.SHADOW, pw);
            if (u.isSuperuser() && s.users().user(u).isEmpty()) {
                writeUsers(s.users().with(rootSection()));
            }
        }
    }

    /**
     * Creates an API token {@code userid!tokenName}.
     *
     * @return the secret (a UUID string): shown once, only its hash is stored
     * @throws IllegalArgumentException invalid names, unknown user, or the token exists
     */
    public String createToken(String userid, String tokenName, String comment) throws IOException {
        Authid u = Authid.parseUser(userid);
        Authid t = u.token(tokenName);
        Section section = UserConfig.section(UserConfig.TOKEN, t, comment); // validates the comment
        String secret = UUID.randomUUID().toString();
        String hash = PasswordHash.hash(secret, PasswordHash.TOKEN_ITERATIONS);
        try (ConfigFiles.Lock _ = ConfigFiles.lock(dir)) {
            AuthState s = load();
            if (!s.users().userExists(u)) {
                throw new IllegalArgumentException("no such user '" + u + "'");
            }
            if (s.users().token(t).isPresent()) {
                throw new IllegalArgumentException("API token '" + t + "' already exists");
            }
            Map<String, String> tokens = new TreeMap<>(s.tokens());
            tokens.put(t.toString(), hash);
            writeShadow(AuthState.TOKEN_SHADOW, tokens);
            UserConfig users = s.users();
            if (u.isSuperuser() && users.user(u).isEmpty()) {
                users = users.with(rootSection());
            }
            writeUsers(users.with(section));
        }
        return secret;
    }

    /**
     * Removes an API token, its secret hash and its ACL entries.
     *
     * @throws IllegalArgumentException if the token does not exist
     */
    public void deleteToken(String tokenid) throws IOException {
        Authid t = Authid.parse(tokenid);
        if (!t.isToken()) {
            throw new IllegalArgumentException("'" + tokenid + "' is not a token id (user@realm!name)");
        }
        try (ConfigFiles.Lock _ = ConfigFiles.lock(dir)) {
            AuthState s = load();
            if (s.users().token(t).isEmpty()) {
                throw new IllegalArgumentException("no such API token '" + t + "'");
            }
            writeUsers(s.users().without(UserConfig.TOKEN, t.toString()));
            Map<String, String> tokens = new TreeMap<>(s.tokens());
            tokens.remove(t.toString());
            writeShadow(AuthState.TOKEN_SHADOW, tokens);
            writeAcl(s.acl().withoutUgid(t.toString()));
        }
    }

    /**
     * Removes a user of realm {@code pbs}: its entry in {@code user.cfg}, its password hash, its
     * API tokens with their secret hashes, and every ACL entry of the user and of its tokens (as
     * PBS does). {@code root@pam} cannot be removed.
     *
     * @return the ids of the removed tokens
     * @throws IllegalArgumentException invalid id, {@code root@pam}, or no such user
     */
    public java.util.List<Authid> deleteUser(String userid) throws IOException {
        Authid u = Authid.parseUser(userid);
        if (u.isSuperuser()) {
            throw new IllegalArgumentException("root@pam is the built-in superuser and cannot be deleted");
        }
        try (ConfigFiles.Lock _ = ConfigFiles.lock(dir)) {
            AuthState s = load();
            if (s.users().user(u).isEmpty()) {
                throw new IllegalArgumentException("no such user '" + u + "'");
            }
            java.util.List<Authid> tokens = s.users().tokensOf(u);
            UserConfig users = s.users().without(UserConfig.USER, u.toString());
            Map<String, String> tokenHashes = new TreeMap<>(s.tokens());
            AclConfig acl = s.acl().withoutUgid(u.toString());
            for (Authid t : tokens) {
                users = users.without(UserConfig.TOKEN, t.toString());
                tokenHashes.remove(t.toString());
                acl = acl.withoutUgid(t.toString());
            }
            Map<String, String> pw = new TreeMap<>(s.passwords());
            pw.remove(u.toString());
            writeAcl(acl); // rights go first: a crash in between leaves a user without rights, never rights without a user
            writeShadow(AuthState.TOKEN_SHADOW, tokenHashes);
            writeShadow(AuthState.SHADOW, pw);
            writeUsers(users);
            return tokens;
        }
    }

    /**
     * Adds or removes one ACL entry ({@code proxmox-backup-manager acl update PATH ROLE --auth-id ID}).
     *
     * @param path      ACL path, e.g. {@code /datastore/store1}
     * @param authid    an existing user or token
     * @param role      role name, e.g. {@code DatastoreBackup}
     * @param propagate whether the role applies below {@code path} (PBS default: true)
     * @param delete    remove the role instead; as in PBS, removing a role that is not set
     *                  changes nothing and is no error
     * @return false if {@code delete} found no such role at exactly {@code path} (nothing
     *         changed), else true
     * @throws IllegalArgumentException invalid path or role, unknown user or token
     */
    public boolean updateAcl(String path, String authid, String role, boolean propagate, boolean delete)
            throws IOException {
        String p = AclPaths.check(path);
        Authid a = Authid.parse(authid);
        Role r = Role.parse(role);
        try (ConfigFiles.Lock _ = ConfigFiles.lock(dir)) {
            AuthState s = load();
            if (!delete) {
                if (!s.users().userExists(a)) {
                    throw new IllegalArgumentException("no such user '" + a.user() + "'");
                }
                if (a.isToken() && s.users().token(a).isEmpty()) {
                    throw new IllegalArgumentException("no such API token '" + a + "'");
                }
            }
            if (delete && !s.acl().rolesAt(p, a.toString()).containsKey(r.text())) {
                return false;
            }
            writeAcl(s.acl().update(p, a, r, propagate, delete));
            return true;
        }
    }

    private static Section rootSection() {
        return UserConfig.section(UserConfig.USER, Authid.ROOT, "Superuser");
    }

    private static void checkRealm(Authid u) {
        if (u.realm().equals("pam")) {
            if (!u.isSuperuser()) {
                throw new IllegalArgumentException("realm 'pam' (system users) is not managed by jpbs, which knows only"
                        + " the built-in root@pam; add '" + u.name() + "@pbs' instead");
            }
        } else if (!u.realm().equals("pbs")) {
            throw new IllegalArgumentException("unsupported realm '" + u.realm() + "' (jpbs has 'pbs' and root@pam)");
        }
    }

    private static void checkPassword(String password) {
        if (password == null || password.length() < MIN_PASSWORD_LENGTH || password.length() > MAX_PASSWORD_LENGTH) {
            throw new IllegalArgumentException("password must have " + MIN_PASSWORD_LENGTH + " to "
                    + MAX_PASSWORD_LENGTH + " characters");
        }
    }

    private void writeUsers(UserConfig users) throws IOException {
        ConfigFiles.replace(dir.resolve(AuthState.USER_CFG), users.write().getBytes(StandardCharsets.UTF_8),
                ConfigFiles.MODE_0640);
    }

    private void writeAcl(AclConfig acl) throws IOException {
        ConfigFiles.replace(dir.resolve(AuthState.ACL_CFG), acl.write().getBytes(StandardCharsets.UTF_8),
                ConfigFiles.MODE_0640);
    }

    private void writeShadow(String name, Map<String, String> hashes) throws IOException {
        ConfigFiles.replace(dir.resolve(name), AuthState.mapJson(hashes), ConfigFiles.MODE_0600);
    }
}
