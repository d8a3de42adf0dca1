package org.jpbs.client.remote;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jpbs.client.http.H2Session;
import org.jpbs.client.http.HttpsConnection;
import org.jpbs.client.http.Query;
import org.jpbs.client.http.Response;
import org.jpbs.core.api.BackupSnapshotRef;

/**
 * Talks to one remote repository: authenticates, makes REST calls and opens backup and reader
 * sessions (spec {@code pbs-protocol.md} §2.1, §3, §4.2).
 *
 * <p>Authentication: for a token repository ({@code user@realm!name@host:store}) every request
 * carries {@code Authorization: PBSAPIToken=<tokenid>:<secret>}; for a user repository the
 * client first logs in once ({@code POST /api2/json/access/ticket} with the password) and then
 * sends {@code Cookie: PBSAuthCookie=<ticket>} plus {@code CSRFPreventionToken}. REST calls share
 * one kept-alive HTTP/1.1 connection; each session gets its own connection. Thread-safe.
 */
public final class PbsClient implements AutoCloseable {
    /** Upgrade protocol name of a backup session (§2.1). */
    public static final String BACKUP_PROTOCOL = "proxmox-backup-protocol-v1";
    /** Upgrade protocol name of a reader session (§3). */
    public static final String READER_PROTOCOL = "proxmox-backup-reader-protocol-v1";

    private final Repository repo;
    private final Credentials creds;
    private Map<String, String> authHeaders;
    private HttpsConnection rest;

    /**
     * @param repo  a remote repository
     * @param creds the password or token secret and the trusted fingerprint
     * @throws IllegalArgumentException if the repository is local or no secret was given
     */
    public PbsClient(Repository repo, Credentials creds) {
        if (!repo.isRemote()) {
            throw new IllegalArgumentException("repository " + repo + " is local, not a server");
        }
        if (creds.secret() == null || creds.secret().isEmpty()) {
            throw new IllegalArgumentException("no " + (repo.isToken() ? "API token secret" : "password") + " for "
                    + repo.authId() + " on " + repo.hostAndPort() + ": set " + Credentials.PBS_PASSWORD + " (or "
                    + Credentials.PBS_PASSWORD_FILE + ") to the " + (repo.isToken() ? "token secret" : "password"));
        }
        this.repo = repo;
        this.creds = creds;
    }

    /** The repository. */
    public Repository repository() {
        return repo;
    }

    /** Opens a new TLS connection to the server (trust as the credentials say). */
    public HttpsConnection connect() throws IOException {
        return HttpsConnection.connect(repo.host(), repo.port(), creds.trust());
    }

    /**
     * Starts a backup session for a new snapshot (§2.1): {@code GET /api2/json/backup?backup-id=
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

    /** Starts a reader session on an existing snapshot (§3). */
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

    private Map<String, String> login() throws IOException {
        String form = "username=" + Query.encode(repo.authId()) + "&password=" + Query.encode(creds.secret());
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
