package org.jpbs.client.remote;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jpbs.client.http.H2Session;
import org.jpbs.client.http.HttpsConnection;
import org.jpbs.client.http.Query;
import org.jpbs.client.http.Response;
import org.jpbs.client.http.TlsTrust;
import org.jpbs.client.http.UntrustedCertificateException;
import org.jpbs.core.api.BackupSnapshotRef;

/**
 * Talks to one remote repository: authenticates, makes REST calls and opens backup and reader
 * sessions ({@code docs/protocol.md#backup-upgrade}, {@code docs/protocol.md#reader-session}, {@code docs/protocol.md#authentication}).
 *
 * <p>Authentication: for a token repository ({@code user@realm!name@host:store}) every request
 * carries {@code Authorization: PBSAPIToken=<tokenid>:<secret>}; for a user repository the
 * client first logs in once ({@code POST /api2/json/access/ticket} with the password) and then
 * sends {@code Cookie: PBSAuthCookie=<ticket>} plus {@code CSRFPreventionToken}. REST calls share
 * one kept-alive HTTP/1.1 connection; each session gets its own connection. Thread-safe.
 */
public final class PbsClient implements AutoCloseable {
    /** Upgrade protocol name of a backup session ({@code docs/protocol.md#backup-upgrade}). */
    public static final String BACKUP_PROTOCOL = "proxmox-backup-protocol-v1";
    /** Upgrade protocol name of a reader session ({@code docs/protocol.md#reader-session}). */
    public static final String READER_PROTOCOL = "proxmox-backup-reader-protocol-v1";

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final Repository repo;
    private final Credentials creds;
    private final ClientState state;
    private Map<String, String> authHeaders;
    private HttpsConnection rest;
    /** A fingerprint accepted at a prompt or read from the fingerprint store, if not pinned. */
    private String acceptedFingerprint;

    /**
     * @param repo  a remote repository
     * @param creds the password or token secret and the trusted fingerprint
     * @throws IllegalArgumentException if the repository is local or no secret was given
     */
    public PbsClient(Repository repo, Credentials creds) {
        this(repo, creds, ClientState.none());
    }

    /**
     * A client that may also use a ticket cache, a fingerprint store and prompts (see
     * {@link ClientState}); without a secret it logs in with a cached ticket or asks for the
     * password, and an unknown certificate may be accepted at a prompt.
     *
     * @throws IllegalArgumentException if the repository is local, or no secret was given and
     *                                  none can be had (no ticket cache, no prompt)
     */
    public PbsClient(Repository repo, Credentials creds, ClientState state) {
        if (!repo.isRemote()) {
            throw new IllegalArgumentException("repository " + repo + " is local, not a server");
        }
        boolean noSecret = creds.secret() == null || creds.secret().isEmpty();
        if (noSecret && (repo.isToken() || (state.tickets() == null && !state.interaction().canAsk()))) {
            throw missingSecret(repo);
        }
        this.repo = repo;
        this.creds = creds;
        this.state = state;
        if (creds.fingerprint() == null && state.fingerprints() != null) {
            acceptedFingerprint = state.fingerprints().load(repo.host()).orElse(null);
        }
    }

    private static IllegalArgumentException missingSecret(Repository repo) {
        return new IllegalArgumentException("no " + (repo.isToken() ? "API token secret" : "password") + " for "
                + repo.authId() + " on " + repo.hostAndPort() + ": set " + Credentials.PBS_PASSWORD + " (or "
                + Credentials.PBS_PASSWORD_FILE + ") to the " + (repo.isToken() ? "token secret" : "password"));
    }

    /** The repository. */
    public Repository repository() {
        return repo;
    }

    /** Opens a new TLS connection to the server (trust as the credentials say). */
    public HttpsConnection connect() throws IOException {
        String fp;
        synchronized (this) {
            fp = creds.fingerprint() != null ? creds.fingerprint() : acceptedFingerprint;
        }
        try {
            return HttpsConnection.connect(repo.host(), repo.port(), TlsTrust.pinned(fp));
        } catch (UntrustedCertificateException e) {
            // as proxmox-backup-client: an unknown certificate may be accepted interactively and is
            // then remembered per server; a pinned fingerprint ($PBS_FINGERPRINT) is never overridden
            if (creds.fingerprint() != null || e.fingerprint() == null || !state.interaction().canAsk()
                    || !state.interaction().trustCertificate(repo.hostAndPort(), e.fingerprint())) {
                throw e;
            }
            synchronized (this) {
                acceptedFingerprint = e.fingerprint();
            }
            if (state.fingerprints() != null) {
                state.fingerprints().store(repo.host(), e.fingerprint());
            }
            return HttpsConnection.connect(repo.host(), repo.port(), TlsTrust.pinned(e.fingerprint()));
        }
    }

    /**
     * Starts a backup session for a new snapshot ({@code docs/protocol.md#backup-upgrade}): {@code GET /api2/json/backup?backup-id=
     * &backup-time=&backup-type=&benchmark=false&debug=false[&ns=]&store=} with the upgrade.
     *
     * @throws org.jpbs.client.http.HttpStatusException if the server refuses (e.g. "backup timestamp is older than last backup.")
     */
    public H2Session startBackup(BackupSnapshotRef ref) throws IOException {
        Query q = Query.of().add("backup-id", ref.group().id()).add("backup-time", ref.time())
                .add("backup-type", ref.group().type().text()).add("benchmark", "false").add("debug", "false")
                .add("ns", ref.group().ns().isRoot() ? null : ref.group().ns().toString()).add("store", repo.store());
        return upgrade("/api2/json/backup?" + q, BACKUP_PROTOCOL);
    }

    /**
     * Starts a backup session in benchmark mode ({@code benchmark=true}, group {@code host/benchmark}),
     * as the PBS client's upload speed test; nothing is kept on the server.
     */
    public H2Session startBenchmark(BackupSnapshotRef ref) throws IOException {
        Query q = Query.of().add("backup-id", ref.group().id()).add("backup-time", ref.time())
                .add("backup-type", ref.group().type().text()).add("benchmark", "true").add("debug", "false")
                .add("store", repo.store());
        return upgrade("/api2/json/backup?" + q, BACKUP_PROTOCOL);
    }

    /** Starts a reader session on an existing snapshot ({@code docs/protocol.md#reader-session}). */
    public H2Session startReader(BackupSnapshotRef ref) throws IOException {
        Query q = Query.of().add("backup-id", ref.group().id()).add("backup-time", ref.time())
                .add("backup-type", ref.group().type().text()).add("debug", "false")
                .add("ns", ref.group().ns().isRoot() ? null : ref.group().ns().toString()).add("store", repo.store());
        return upgrade("/api2/json/reader?" + q, READER_PROTOCOL);
    }

    private H2Session upgrade(String pathAndQuery, String protocol) throws IOException {
        Map<String, String> auth = authHeaders();
        HttpsConnection c = connect();
        try {
            return c.upgrade(pathAndQuery, protocol, auth);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * A REST {@code GET} returning the {@code data} member.
     *
     * @param path  below the server root, e.g. {@code /api2/json/admin/datastore/store1/snapshots}
     * @param query the query (may be empty)
     * @throws org.jpbs.client.http.HttpStatusException with the server's message on an error status
     */
    public JsonNode get(String path, Query query) throws IOException {
        String q = query.toString();
        Response r = rest("GET", q.isEmpty() ? path : path + "?" + q, null, null);
        return r.data("GET " + path);
    }

    /**
     * A REST {@code GET} returning the whole answer object (e.g. {@code {"data":[...],"total":N,
     * "active":true}} of a task log).
     */
    public JsonNode getRaw(String path, Query query) throws IOException {
        String q = query.toString();
        Response r = rest("GET", q.isEmpty() ? path : path + "?" + q, null, null);
        return r.json("GET " + path);
    }

    /** A REST {@code PUT}, parameters in the query string as the PBS client sends them; the {@code data} member. */
    public JsonNode put(String path, Query query) throws IOException {
        return withQuery("PUT", path, query);
    }

    /** A REST {@code DELETE}, parameters in the query string; the {@code data} member. */
    public JsonNode delete(String path, Query query) throws IOException {
        return withQuery("DELETE", path, query);
    }

    private JsonNode withQuery(String method, String path, Query query) throws IOException {
        String q = query.toString();
        Response r = rest(method, q.isEmpty() ? path : path + "?" + q, "application/x-www-form-urlencoded",
                new byte[0]);
        return r.data(method + " " + path);
    }

    /** A REST {@code POST} with a JSON body (null: no body); the {@code data} member. */
    public JsonNode post(String path, JsonNode body) throws IOException {
        byte[] b = body == null ? new byte[0] : JSON.writeValueAsBytes(body);
        Response r = rest("POST", path, "application/json", b);
        return r.data("POST " + path);
    }

    /** A REST {@code POST} of a binary body (parameters in the query), as {@code upload-backup-log}. */
    public JsonNode upload(String path, Query query, String contentType, byte[] body) throws IOException {
        String q = query.toString();
        Response r = rest("POST", q.isEmpty() ? path : path + "?" + q, contentType, body);
        return r.data("POST " + path);
    }

    /** The datastore's REST path prefix: {@code /api2/json/admin/datastore/<store>}. */
    public String datastorePath() {
        return "/api2/json/admin/datastore/" + Query.encode(repo.store());
    }

    private synchronized Response rest(String method, String pathAndQuery, String contentType, byte[] body)
            throws IOException {
        Map<String, String> auth = authHeaders();
        for (int attempt = 0; ; attempt++) {
            if (rest == null || !rest.isOpen()) {
                rest = connect();
            }
            try {
                return rest.request(method, pathAndQuery, auth, contentType, body);
            } catch (IOException e) {
                rest.close();
                rest = null;
                if (attempt > 0 || e instanceof org.jpbs.client.http.UntrustedCertificateException) {
                    throw e;
                }
                // a kept-alive connection may have been closed by the server: retry once on a new one
            }
        }
    }

    /** The headers that authenticate a request; logs in first for a user repository. */
    public synchronized Map<String, String> authHeaders() throws IOException {
        if (authHeaders == null) {
            if (repo.isToken()) {
                authHeaders = Map.of("Authorization", "PBSAPIToken=" + repo.authId() + ":" + Query.encode(creds.secret()));
            } else {
                authHeaders = login();
            }
        }
        return authHeaders;
    }

    /**
     * Logs in now (as {@code proxmox-backup-client login}): with the password if one was given,
     * else by renewing a cached ticket, else with a password asked for; stores the new ticket in
     * the ticket cache. For a token repository only checks that the server answers.
     */
    public synchronized void login(boolean forceNew) throws IOException {
        if (forceNew) {
            authHeaders = null;
        }
        authHeaders();
    }

    private Map<String, String> login() throws IOException {
        String secret = creds.secret();
        if (secret != null && !secret.isEmpty()) {
            return loginWith(secret);
        }
        if (state.tickets() != null) {
            java.util.Optional<TicketCache.Entry> cached = state.tickets().load(repo.host(), repo.authId());
            if (cached.isPresent()) {
                try {
                    return loginWith(cached.get().ticket());
                } catch (org.jpbs.client.http.HttpStatusException e) {
                    if (e.status() != 401) {
                        throw e;
                    }
                    // an expired or revoked ticket: fall through to the password
                }
            }
        }
        String asked = state.interaction().canAsk() ? state.interaction().password(repo.authId(), repo.hostAndPort())
                : null;
        if (asked == null || asked.isEmpty()) {
            throw missingSecret(repo);
        }
        return loginWith(asked);
    }

    private Map<String, String> loginWith(String password) throws IOException {
        String form = "username=" + Query.encode(repo.authId()) + "&password=" + Query.encode(password);
        try (HttpsConnection c = connect()) {
            Response r = c.request("POST", "/api2/json/access/ticket", Map.of(), "application/x-www-form-urlencoded",
                    form.getBytes(StandardCharsets.UTF_8));
            JsonNode data = r.data("login of " + repo.authId() + " at " + repo.hostAndPort());
            String ticket = data.path("ticket").asText(null);
            String csrf = data.path("CSRFPreventionToken").asText(null);
            if (ticket == null || csrf == null) {
                throw new IOException("login of " + repo.authId() + " at " + repo.hostAndPort()
                        + ": the answer has no ticket");
            }
            if (state.tickets() != null) {
                state.tickets().store(repo.host(), repo.authId(), ticket, csrf);
            }
            return Map.of("Cookie", "PBSAuthCookie=" + Query.encode(ticket), "CSRFPreventionToken", csrf);
        }
    }

    /** Closes the REST connection (sessions are closed by their owners). */
    @Override
    public synchronized void close() {
        if (rest != null) {
            rest.close();
            rest = null;
        }
    }
}
