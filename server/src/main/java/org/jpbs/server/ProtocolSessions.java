package org.jpbs.server;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpRequest;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.api.BackupType;
import org.jpbs.core.api.SafeId;
import org.jpbs.server.auth.AuthResult;
import org.jpbs.server.backup.BackupSession;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.Http2Service;
import org.jpbs.server.http.Params;
import org.jpbs.server.http.SessionFactory;
import org.jpbs.server.reader.ReaderSession;

/**
 * Opens backup and reader sessions for upgrade requests ({@code docs/protocol.md#backup-upgrade}, {@code docs/protocol.md#reader-session}): checks that path and protocol belong together, authenticates (401), validates the
 * query parameters ({@code store}, {@code ns}, {@code backup-type}, {@code backup-id},
 * {@code backup-time}, {@code debug}, and {@code benchmark} for backups; 400), then lets the
 * session do its permission and datastore checks.
 */
final class ProtocolSessions implements SessionFactory {
    private static final String BACKUP_PATH = "/api2/json/backup";
    private static final String READER_PATH = "/api2/json/reader";

    private final ServerContext ctx;

    ProtocolSessions(ServerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Http2Service open(String protocol, String path, String rawQuery, FullHttpRequest request, Channel channel) {
        boolean backup = protocol.equals(BACKUP_PROTOCOL);
        if (!path.equals(BACKUP_PATH) && !path.equals(READER_PATH)) {
            throw ApiException.pathNotFound(path);
        }
        if (path.equals(BACKUP_PATH) != backup) {
            throw ApiException.badRequest("invalid protocol name");
        }
        AuthResult auth = ctx.auth().authenticate(request.headers());
        if (!auth.ok()) {
            throw new ApiException(401, auth.error());
        }
        Params q = Params.ofQuery(rawQuery);
        String store = store(q);
        BackupNamespace ns = namespace(q);
        BackupType type = backupType(q);
        String id = q.string("backup-id");
        Params.maxLength("backup-id", id, BackupGroupRef.MAX_ID_LENGTH);
        if (!SafeId.isValid(id)) {
            throw ApiException.badParam("backup-id", "value does not match the regex pattern");
        }
        long time = q.integer("backup-time", 1, Long.MAX_VALUE / 1000);
        boolean debug = q.bool("debug", false);
        BackupSnapshotRef ref = new BackupSnapshotRef(new BackupGroupRef(ns, type, id), time);
        String peer = String.valueOf(channel.remoteAddress());
        if (backup) {
            boolean benchmark = q.bool("benchmark", false);
            return BackupSession.open(ctx, auth.authid(), store, ref, benchmark, debug, peer, channel::close);
        }
        return ReaderSession.open(ctx, auth.authid(), store, ref, debug, peer, channel::close);
    }

    private static String store(Params q) {
        String s = q.string("store");
        if (s.length() < 3) {
            throw ApiException.badParam("store", "value must be at least 3 characters long");
        }
        Params.maxLength("store", s, 32);
        if (!SafeId.isValid(s)) {
            throw ApiException.badParam("store", "value does not match the regex pattern");
        }
        return s;
    }

    private static BackupNamespace namespace(Params q) {
        String ns = q.optString("ns").orElse("");
        Params.maxLength("ns", ns, BackupNamespace.MAX_LENGTH);
        try {
            return BackupNamespace.parse(ns);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("ns", e.getMessage());
        }
    }

    private static BackupType backupType(Params q) {
        String t = q.string("backup-type");
        try {
            return BackupType.parse(t);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParam("backup-type", "value '" + t + "' is not defined in the enumeration.");
        }
    }
}
