package org.jpbs.server.auth;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.ConfigVersions;

/**
 * The {@link Authenticator} of a jpbs server: users, tokens and ACLs from the config directory
 * ({@link AuthState}), tickets from {@link Tickets} ({@code docs/protocol.md#authentication}, {@code docs/api.md#conventions-as-pbs}).
 *
 * <p>Credentials, in this order: a {@code PBSAuthCookie} (or {@code __Host-PBSAuthCookie})
 * ticket cookie, percent-decoded — for methods other than GET/HEAD it needs a matching
 * {@code CSRFPreventionToken} header; else {@code Authorization: PBSAPIToken=<id>:<secret>} or
 * {@code PBSAPIToken <id>:<secret>} (secret percent-decoded). The user (and token) must exist,
 * be enabled and unexpired. 401 messages are {@code "authentication failed - ..."}.
 *
 * <p>The files are re-read when one of them changes (size, modification time or inode); a file
 * that does not parse keeps the previous state and is logged. A server instance ({@link
 * #open(Path)}) does not {@code stat} the files on every call: writes through jpbs
 * ({@link AuthConfig}, in any process) bump a shared generation ({@link ConfigVersions}, one
 * memory read to check), and a hand edit is noticed by a {@code stat} made at most once per
 * second. Verified token secrets are cached (by SHA-256) so that only the first request of a
 * token pays for the hash. Thread-safe.
 */
public final class FileAuthenticator implements Authenticator {
    private static final System.Logger LOG = System.getLogger(FileAuthenticator.class.getName());
    private static final String TOKEN_PREFIX = "PBSAPIToken";
    /** Name of the ticket cookie. */
    public static final String COOKIE = "PBSAuthCookie";
    /** Header carrying the CSRF prevention token. */
    public static final String CSRF_HEADER = "CSRFPreventionToken";

    private final Path dir;
    private final Tickets tickets;
    private final Clock clock;
    private final ConcurrentHashMap<String, byte[]> verifiedTokens = new ConcurrentHashMap<>();
    /** Password checks of logins run here, not on the caller's (virtual or event-loop) thread. */
    private final PasswordCheckQueue passwordChecks = new PasswordCheckQueue();
    private final ConfigVersions versions;
    private final long recheckNanos;
    private final AtomicLong nextCheck = new AtomicLong(System.nanoTime());
    private volatile Loaded loaded;

    private record Stamp(boolean exists, long size, long mtimeNanos, Object fileKey) {}

    private record Loaded(long generation, List<Stamp> stamps, AuthState state) {}

    /** A successful login: what {@code POST /access/ticket} answers. */
    public record Login(String username, String ticket, String csrfToken) {}

    private FileAuthenticator(Path dir, Tickets tickets, Clock clock, ConfigVersions versions, Duration recheck,
                              Loaded loaded) {
        this.dir = dir;
        this.tickets = tickets;
        this.clock = clock;
        this.versions = versions;
        this.recheckNanos = recheck.toNanos();
        this.loaded = loaded;
    }

    /**
     * For a server: the system clock; the files are checked through the shared generation and
     * a {@code stat} at most once per second. See {@link #open(Path, Clock, Duration)}.
     */
    public static FileAuthenticator open(Path configDir) throws IOException {
        return open(configDir, Clock.systemUTC(), Duration.ofSeconds(1));
    }

    /**
     * With a clock (tests): the files are {@code stat}ed on every call. See
     * {@link #open(Path, Clock, Duration)}.
     */
    public static FileAuthenticator open(Path configDir, Clock clock) throws IOException {
        return open(configDir, clock, Duration.ZERO);
    }

    /**
     * Loads the files of {@code configDir} and its ticket key (created if missing).
     *
     * @param clock   the time source for ticket ages and expiry dates
     * @param recheck how often, at most, the files are {@code stat}ed for hand edits (writes
     *                through {@link AuthConfig} are seen at once); zero: on every call
     * @throws IOException              if the directory or key cannot be created or a file read
     * @throws IllegalArgumentException naming the file if one cannot be parsed
     */
    public static FileAuthenticator open(Path configDir, Clock clock, Duration recheck) throws IOException {
        Files.createDirectories(configDir);
        Tickets t = Tickets.loadOrCreate(configDir);
        ConfigVersions versions = ConfigVersions.open(configDir);
        long gen = versions.authGeneration();
        List<Stamp> stamps = stamps(configDir);
        return new FileAuthenticator(configDir, t, clock, versions, recheck,
                new Loaded(gen, stamps, AuthState.load(configDir)));
    }

    /** The config directory (users, tokens, ACLs, certificate). */
    public Path configDir() {
        return dir;
    }

    /** The ticket signer. */
    public Tickets tickets() {
        return tickets;
    }

    /** The current state, re-read first if a file changed. */
    public AuthState state() {
        Loaded l = loaded;
        long gen = versions.authGeneration();
        if (recheckNanos > 0 && gen == l.generation()) {
            long t = System.nanoTime();
            long due = nextCheck.get();
            if (t - due < 0 || !nextCheck.compareAndSet(due, t + recheckNanos)) {
                return l.state(); // nothing written through jpbs, and no hand-edit check due
            }
        }
        List<Stamp> now;
        try {
            now = stamps(dir);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot stat the auth files in " + dir + ": " + e.getMessage());
            return l.state();
        }
        if (now.equals(l.stamps())) {
            if (gen != l.generation()) {
                loaded = new Loaded(gen, l.stamps(), l.state());
            }
            return l.state();
        }
        synchronized (this) {
            l = loaded;
            if (!now.equals(l.stamps())) {
                try {
                    l = new Loaded(gen, now, AuthState.load(dir));
                    verifiedTokens.clear();
                } catch (IOException | IllegalArgumentException e) {
                    LOG.log(Level.ERROR, "keeping the previous users/ACLs: " + e.getMessage());
                    l = new Loaded(gen, now, l.state());
                }
                loaded = l;
            }
            return l.state();
        }
    }

    private static List<Stamp> stamps(Path dir) throws IOException {
        Stamp[] out = new Stamp[AuthState.FILES.length];
        for (int i = 0; i < out.length; i++) {
            Path f = dir.resolve(AuthState.FILES[i]);
            if (!Files.exists(f)) { // no exception for a missing file (most setups have no shadow.json)
                out[i] = new Stamp(false, 0, 0, null);
                continue;
            }
            try {
                BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
                out[i] = new Stamp(true, a.size(), a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS),
                        a.fileKey());
            } catch (NoSuchFileException e) {
                out[i] = new Stamp(false, 0, 0, null);
            }
        }
        return Arrays.asList(out);
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    @Override
    public AuthResult authenticate(HttpHeaders headers) {
        return authenticate(headers, "GET");
    }

    /**
     * Authenticates a request; {@code method} decides whether a ticket needs a CSRF token.
     *
     * @param method upper-case HTTP method
     */
    public AuthResult authenticate(HttpHeaders headers, String method) {
        Optional<String> ticket = cookie(headers);
        if (ticket.isPresent()) {
            return byTicket(ticket.get(), headers, method);
        }
        String h = headers.get(HttpHeaderNames.AUTHORIZATION);
        if (h == null) {
            return AuthResult.failed(AuthResult.NO_CREDENTIALS);
        }
        return byToken(h.trim());
    }

    private AuthResult byTicket(String ticket, HttpHeaders headers, String method) {
        long now = now();
        Authid user;
        try {
            user = tickets.verifyTicket(ticket, now);
        } catch (IllegalArgumentException e) {
            return AuthResult.failed("authentication failed - " + e.getMessage());
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            String csrf = headers.get(CSRF_HEADER);
            if (csrf == null) {
                return AuthResult.failed("authentication failed - missing CSRF prevention token");
            }
            try {
                tickets.verifyCsrfToken(csrf.trim(), user, now);
            } catch (IllegalArgumentException e) {
                return AuthResult.failed("authentication failed - " + e.getMessage());
            }
        }
        if (!state().users().isActive(user, now)) {
            return AuthResult.failed("authentication failed - user account disabled or expired.");
        }
        return AuthResult.ok(user.toString());
    }

    private AuthResult byToken(String h) {
        if (!h.startsWith(TOKEN_PREFIX) || h.length() <= TOKEN_PREFIX.length()
                || (h.charAt(TOKEN_PREFIX.length()) != '=' && h.charAt(TOKEN_PREFIX.length()) != ' ')) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        String rest = h.substring(TOKEN_PREFIX.length() + 1).trim();
        int colon = rest.indexOf(':');
        if (colon <= 0) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        Authid id;
        try {
            id = Authid.parse(rest.substring(0, colon));
        } catch (IllegalArgumentException e) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        String secret = percentDecode(rest.substring(colon + 1));
        if (!id.isToken() || secret == null || secret.isEmpty()) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        AuthState s = state();
        String stored = s.tokens().get(id.toString());
        if (stored == null || !s.users().isActive(id, now())) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        byte[] fp = PasswordHash.fingerprint(stored + "\0" + secret);
        byte[] cached = verifiedTokens.get(id.toString());
        if (cached != null && MessageDigest.isEqual(cached, fp)) {
            return AuthResult.ok(id.toString());
        }
        if (!PasswordHash.verify(secret, stored)) {
            return AuthResult.failed(AuthResult.INVALID_CREDENTIALS);
        }
        verifiedTokens.put(id.toString(), fp);
        return AuthResult.ok(id.toString());
    }

    /** Percent-decoding only ({@code +} stays {@code +}); null if malformed. */
    static String percentDecode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Optional<String> cookie(HttpHeaders headers) {
        String plain = null;
        for (String h : headers.getAll(HttpHeaderNames.COOKIE)) {
            for (String part : h.split(";")) {
                int eq = part.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String name = part.substring(0, eq).trim();
                String value = part.substring(eq + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                if (name.equals("__Host-" + COOKIE) && !value.isEmpty()) {
                    return Optional.ofNullable(percentDecode(value));
                }
                if (name.equals(COOKIE) && !value.isEmpty() && plain == null) {
                    plain = value;
                }
            }
        }
        return plain == null ? Optional.empty() : Optional.ofNullable(percentDecode(plain));
    }

    /**
     * Checks a user name and password (or a still valid ticket of that user, which renews it)
     * and issues a ticket and CSRF token. Only realm {@code pbs} users and {@code root@pam} can
     * log in, and only with a password set in {@code shadow.json}.
     *
     * @return the login, or empty on any failure (unknown, disabled or expired user, wrong
     *         password): the caller answers 401 without saying which
     * @throws PasswordCheckQueue.LoginBusyException if too many password checks are in progress
     *         ({@link PasswordCheckQueue}; the caller answers 503)
     */
    public Optional<Login> login(String username, String password) {
        Authid user;
        try {
            user = Authid.parseUser(username);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        long now = now();
        AuthState s = state();
        if (password == null || password.isEmpty() || !s.users().isActive(user, now)) {
            return Optional.empty();
        }
        boolean ok;
        if (password.startsWith("PBS:")) {
            try {
                ok = tickets.verifyTicket(password, now).equals(user);
            } catch (IllegalArgumentException e) {
                ok = false;
            }
        } else {
            boolean realmOk = user.realm().equals("pbs") || user.isSuperuser();
            String stored = s.passwords().get(user.toString());
            ok = realmOk && stored != null && passwordChecks.verify(password, stored);
        }
        if (!ok) {
            return Optional.empty();
        }
        return Optional.of(new Login(user.toString(), tickets.createTicket(user, now), tickets.createCsrfToken(user, now)));
    }

    /** Privilege mask of {@code authid} on an ACL path (0 for an unparsable id). */
    public long privileges(String authid, List<String> path) {
        Authid a;
        try {
            a = Authid.parse(Objects.requireNonNull(authid));
        } catch (IllegalArgumentException e) {
            return 0;
        }
        return state().resolver().privileges(a, path);
    }

    /** See {@link AclResolver#anyPrivsBelow}; false for an unparsable id. */
    public boolean anyPrivsBelow(String authid, List<String> path, long privs) {
        try {
            return state().resolver().anyPrivsBelow(Authid.parse(authid), path, privs);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public boolean canBackup(String authid, String store, BackupNamespace ns) {
        return (privileges(authid, AclPaths.datastore(store, ns)) & Privilege.DATASTORE_BACKUP.bit()) != 0;
    }

    @Override
    public boolean canRead(String authid, String store, BackupNamespace ns) {
        return (privileges(authid, AclPaths.datastore(store, ns)) & Privilege.DATASTORE_READ.bit()) != 0;
    }
}
