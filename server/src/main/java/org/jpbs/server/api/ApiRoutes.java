package org.jpbs.server.api;

import java.time.Instant;
import java.util.List;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.KeepOptions;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.notify.NotificationEdits;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.routing.Param;
import org.jpbs.server.routing.Permission;
import org.jpbs.server.routing.RouteTable;

/**
 * The routing table of the jpbs REST API: every endpoint under {@code /api2/json/}, and
 * {@code GET /metrics} outside it, declared once, with its parameters (types, limits, checking order), its permission rule, its answer
 * and its handler. {@link JpbsRestHandler} dispatches from it and {@code docs/api.md}'s
 * endpoint tables are generated from it ({@link org.jpbs.server.routing.ApiDocs}; a test fails
 * when they differ). A new endpoint is one more declaration here.
 */
public final class ApiRoutes {
    /** The table (immutable once built). */
    public static final RouteTable<ApiCall> TABLE = build();

    private ApiRoutes() {}

    private static Permission any(String doc) {
        return Permission.checkedByHandler(doc);
    }

    private static RouteTable<ApiCall> build() {
        RouteTable<ApiCall> t = new RouteTable<>();
        t.pathVar("store", "datastore name: safe id of 3..32 characters", ApiParams::store);
        t.pathVar("node", "host name (any; the real client uses `localhost`)", TasksApi::checkNode);
        t.pathVar("upid", "task id (UPID)", s -> {
            TasksApi.upid(s);
            return s;
        });
        t.pathVar("userid", "user id `name@realm` (not a token)", AccessApi::checkUserid);
        t.pathVar("token-name", "token name (checked by the handler: safe id of up to 64 characters)", s -> s);
        general(t);
        datastore(t);
        jobs(t);
        snapshotAdmin(t);
        tasks(t);
        JobRoutes.register(t);
        access(t);
        notifications(t);
        metrics(t);
        configS3(t);
        configDatastore(t);
        return t;
    }

    private static void general(RouteTable<ApiCall> t) {
        t.section("general", "");
        t.get("ping").permission(Permission.world("none (no authentication)")).answer("`{\"pong\":true}`")
                .handle(c -> GeneralApi.ping());
        t.get("version").permission(any("any authenticated caller"))
                .answer("`{\"release\",\"repoid\",\"version\"}`").handle(c -> GeneralApi.version());
        t.post("access/ticket").params(Param.string("username", true), Param.custom("password", "a password or a valid ticket", true, p -> p.required("password")))
                .permission(Permission.world("none"))
                .answer("`{\"CSRFPreventionToken\",\"ticket\",\"username\"}`; wrong credentials 401 `permission check failed.`")
                .handle(GeneralApi::ticket);
        t.get("admin/datastore").permission(any("the stores on which the caller has Audit or Backup, or any datastore "
                        + "privilege somewhere below (then `comment` is null)"))
                .answer("`[{\"comment\",\"maintenance\"?,\"store\"}]`, config order")
                .handle(c -> GeneralApi.datastoreList(c.access()));
        t.get("status/datastore-usage").params(Param.bool("history", true))
                .permission(any("per store: Audit or Backup; a store seen only through a "
                        + "namespace ACL gives `{\"store\"}`"))
                .answer("`[{\"store\",\"total\",\"used\",\"avail\",\"history\",\"history-start\",\"history-delta\",\"gc-status\","
                        + "\"estimated-full-date\"?}]` (history and estimate: see Metrics); jpbs: `history=0` leaves out "
                        + "`history`, `history-start` and `history-delta` (the dashboard shows only the estimate)")
                .handle(c -> DatastoreApi.usage(c.access(), c.params(), Instant.now().getEpochSecond()));
        t.get("status/stale-groups").params(Param.integer("older-than", 0, Long.MAX_VALUE, "129600 (36 h)"),
                        Param.integer("limit", 0, Integer.MAX_VALUE, "100; 0 = all"),
                        Param.custom("store", "datastore name", false, p -> p.opt("store").map(ApiParams::store)))
                .permission(any("per namespace as `groups`: Audit for every group, Backup for the caller's own; "
                        + "stores and namespaces with neither are left out"))
                .answer("jpbs: `{\"data\":[{\"store\",\"ns\"?,\"backup-type\",\"backup-id\",\"last-backup\",\"backup-count\","
                        + "\"owner\"}],\"total\"}`: groups whose newest snapshot is older than `older-than` seconds, "
                        + "oldest first, of every datastore (or `store`); `total` counts them all")
                .handle(c -> StaleGroupsApi.list(c.access(), c.params(), Instant.now().getEpochSecond()));
    }

    private static void datastore(RouteTable<ApiCall> t) {
        t.section("datastore", "admin/datastore/{store}/");
        String ds = "admin/datastore/{store}/";
        t.get(ds + "groups").params(Param.namespace("ns")).permission(any("Audit, or Backup (own groups only)"))
                .answer("`[{\"backup-type\",\"backup-id\",\"last-backup\",\"backup-count\",\"files\",\"owner\",\"comment\"?}]` "
                        + "(`comment`: first line of the group notes)")
                .handle(c -> DatastoreApi.groups(c.access(), c.store(), c.params()));
        t.get(ds + "snapshots").params(Param.backupId(false), Param.backupType(false), Param.namespace("ns"))
                .permission(any("Audit, or Backup (own groups only)"))
                .answer("`[{\"backup-type\",\"backup-id\",\"backup-time\",\"comment\"?,\"verification\"?,\"fingerprint\"?,"
                        + "\"files\",\"size\",\"owner\",\"protected\"}]`, streamed; `files` also names files that are not in "
                        + "the manifest (e.g. `client.log.blob`, without size and crypt mode)")
                .handle(c -> DatastoreApi.snapshots(c.access(), c.store(), c.params()));
        t.delete(ds + "snapshots").params(Param.snapshotParams()).permission(any("Modify, or Prune as owner"))
                .answer("null; a protected snapshot: 400 `cannot remove protected snapshot`")
                .handle(c -> DatastoreApi.forget(c.access(), c.store(), c.params()));
        t.delete(ds + "groups").params(Param.groupParams()).params(Param.bool("error-on-protected", true))
                .permission(any("Modify, or Prune as owner"))
                .answer("null; protected snapshots kept: 400 `group only partially deleted due to protected snapshots` "
                        + "(see below)")
                .handle(c -> SnapshotAdminApi.deleteGroup(c.access(), c.store(), c.params()));
        t.get(ds + "files").params(Param.snapshotParams()).permission(any("Audit or Read, or Backup as owner"))
                .answer("`[{\"filename\",\"crypt-mode\"?,\"size\"?}]`, the manifest's files, `index.json.blob`, then other "
                        + "backup files of the directory (e.g. `client.log.blob`)")
                .handle(c -> DatastoreApi.files(c.access(), c.store(), c.params()));
        t.get(ds + "download").params(Param.fileName()).params(Param.snapshotParams())
                .permission(any("Read, or Backup as owner"))
                .answer("the raw file (`application/octet-stream`; `.fidx`, `.didx`, `.blob` only)")
                .handle(c -> DatastoreApi.download(c.access(), c.store(), c.params()));
        Param archiveName = Param.custom("archive-name", "archive name, e.g. `root.pxar.didx` (`.didx` may be left out)",
                false, PxarContentApi::checkArchiveName);
        t.get(ds + "catalog").params(Param.snapshotParams())
                .params(Param.string("filepath", true), archiveName)
                .permission(any("Read, or Backup as owner"))
                .answer("`[{\"filepath\",\"text\",\"type\",\"leaf\",\"size\"?,\"mtime\"?}]`: one directory of the catalog "
                        + "(see File archives)")
                .handle(c -> PxarContentApi.catalog(c.access(), c.store(), c.params()));
        t.get(ds + "pxar-file-download").params(Param.snapshotParams())
                .params(Param.string("filepath", true), Param.bool("tar", false), archiveName)
                .permission(any("Read, or Backup as owner"))
                .answer("a file raw, a directory as a zip (`tar`: `.tar.zst`), `application/octet-stream` (see File archives)")
                .handle(c -> PxarContentApi.download(c.access(), c.store(), c.params()));
        t.get(ds + "status").params(Param.bool("verbose", false))
                .permission(Permission.onStore(Access.AUDIT | Access.BACKUP, true,
                        "Audit or Backup (`counts` only own groups, `gc-status` only with Audit)"))
                .answer("`{\"avail\",\"total\",\"used\",\"counts\"?,\"gc-status\"?}`")
                .handle(c -> DatastoreApi.status(c.access(), c.store(), c.params()));
        t.get(ds + "gc").permission(Permission.onStore(Access.AUDIT, false, "Audit")).answer("the last GC status")
                .handle(c -> DatastoreApi.gc(c.access(), c.store(), c.params()));
        t.get(ds + "namespace").params(Param.integer("max-depth", 0, BackupNamespace.MAX_DEPTH, "7"),
                        Param.namespace("parent"))
                .permission(any("if the caller has none of Audit, Modify, Backup on `parent` and nothing below is "
                        + "visible: 403 `permission check failed` (also for a missing parent)"))
                .answer("`[{\"ns\"}]`: the parent and the namespaces below it on which the caller has Audit, Modify or Backup")
                .handle(c -> DatastoreApi.namespaces(c.access(), c.store(), c.params()));
        t.post(ds + "namespace").params(Param.custom("name", "safe id of 1..32 characters", true, NamespaceApi::checkName),
                        Param.namespace("parent"))
                .permission(any("Modify on the parent"))
                .answer("the new namespace as a string, e.g. `\"prod/web\"`; an existing one is fine")
                .handle(c -> NamespaceApi.create(c.access(), c.store(), c.params()));
        t.delete(ds + "namespace").params(Param.custom("ns", "namespace", true, NamespaceApi::checkRequiredNs),
                        Param.bool("delete-groups", false))
                .permission(any("Modify on the parent of `ns`")).answer("null")
                .handle(c -> NamespaceApi.delete(c.access(), c.store(), c.params()));
    }

    private static void jobs(RouteTable<ApiCall> t) {
        String ds = "admin/datastore/{store}/";
        t.post(ds + "gc").permission(any("Modify")).answer("UPID of task `garbage_collection`")
                .handle(c -> DatastoreJobsApi.gc(c.access(), c.services(), c.store(), c.params()));
        t.post(ds + "prune").params(keep()).params(Param.bool("dry-run", false),
                        Param.integer("max-depth", 0, BackupNamespace.MAX_DEPTH, null))
                .params(Param.groupParams()).params(Param.bool("use-task", false))
                .permission(any("Modify, or Prune (see below)"))
                .answer("`[{\"backup-type\",\"backup-id\",\"backup-time\",\"keep\",\"protected\"}]`, or a UPID with `use-task`")
                .handle(c -> DatastoreJobsApi.prune(c.access(), c.services(), c.store(), c.params(), false));
        t.post(ds + "prune-datastore").params(keep()).params(Param.bool("dry-run", false),
                        Param.integer("max-depth", 0, BackupNamespace.MAX_DEPTH, null), Param.namespace("ns"))
                .permission(any("Modify or Prune")).answer("UPID")
                .handle(c -> DatastoreJobsApi.prune(c.access(), c.services(), c.store(), c.params(), true));
        t.post(ds + "verify").params(Param.backupType(false), Param.backupId(false), Param.backupTime(false),
                        Param.bool("ignore-verified", false), Param.integer("outdated-after", 0, Integer.MAX_VALUE, null),
                        Param.integer("max-depth", 0, BackupNamespace.MAX_DEPTH, null), Param.namespace("ns"))
                .permission(any("Verify, or Backup (see below)"))
                .answer("UPID; `backup-type`+`backup-id`(+`backup-time`) name a group (snapshot), none of them the namespace;"
                        + " a group that does not exist: the task logs `unable to list backups` and ends OK, as in PBS")
                .handle(c -> DatastoreJobsApi.verify(c.access(), c.services(), c.store(), c.params()));
        t.get(ds + "active-operations").permission(any("Audit")).answer("`{\"read\",\"write\"}`")
                .handle(c -> DatastoreJobsApi.activeOperations(c.access(), c.services(), c.store(), c.params()));
    }

    private static Param[] keep() {
        return KeepOptions.KEYS.stream().map(k -> Param.integer(k, 1, Integer.MAX_VALUE, null)).toArray(Param[]::new);
    }

    private static void snapshotAdmin(RouteTable<ApiCall> t) {
        String ds = "admin/datastore/{store}/";
        t.get(ds + "notes").params(Param.snapshotParams()).permission(any("Audit, or Backup as owner"))
                .answer("the snapshot's notes (`\"\"` if none)")
                .handle(c -> SnapshotAdminApi.getNotes(c.access(), c.store(), c.params()));
        t.put(ds + "notes").params(Param.snapshotParams()).params(Param.string("notes", true))
                .permission(any("Modify, or Backup as owner")).answer("null")
                .handle(c -> SnapshotAdminApi.setNotes(c.access(), c.store(), c.params()));
        t.get(ds + "group-notes").params(Param.groupParams()).permission(any("Audit, or Backup as owner"))
                .answer("the group's notes (`\"\"` if none)")
                .handle(c -> SnapshotAdminApi.getGroupNotes(c.access(), c.store(), c.params()));
        t.put(ds + "group-notes").params(Param.groupParams()).params(Param.string("notes", true))
                .permission(any("Modify, or Backup as owner")).answer("null")
                .handle(c -> SnapshotAdminApi.setGroupNotes(c.access(), c.store(), c.params()));
        t.get(ds + "protected").params(Param.snapshotParams()).permission(any("Audit, or Backup as owner"))
                .answer("`true` / `false`")
                .handle(c -> SnapshotAdminApi.getProtection(c.access(), c.store(), c.params()));
        t.put(ds + "protected").params(Param.snapshotParams())
                .params(Param.custom("protected", "boolean", true, SnapshotAdminApi::checkProtected))
                .permission(any("Modify, or Backup as owner")).answer("null")
                .handle(c -> SnapshotAdminApi.setProtection(c.access(), c.store(), c.params()));
        t.post(ds + "change-owner").params(Param.groupParams())
                .params(Param.custom("new-owner", "an Authid, 3..64 characters", true, SnapshotAdminApi::checkNewOwner))
                .permission(any("Modify, or Backup for a change between a user and its own tokens (see below)"))
                .answer("null")
                .handle(c -> SnapshotAdminApi.changeOwner(c.access(), c.store(), c.params()));
        t.post(ds + "upload-backup-log").params(Param.snapshotParams()).rawBody()
                .permission(any("Backup, and only the group's owner (whatever other privileges)"))
                .answer("null; body: an encoded DataBlob (`application/octet-stream`)")
                .handle(c -> SnapshotAdminApi.uploadBackupLog(c.access(), c.store(), c.params(), c.request().body()));
    }

    private static void configS3(RouteTable<ApiCall> t) {
        t.section("config-s3", "");
        t.pathVar("id", "s3 endpoint id: 3..32 characters", id -> {
            try {
                org.jpbs.s3.config.S3EndpointConfig.checkId(id);
            } catch (IllegalArgumentException e) {
                throw org.jpbs.server.http.ApiException.badParam("id", e.getMessage());
            }
            return id;
        });
        Param[] props = org.jpbs.s3.config.S3EndpointConfig.keys().stream().map(k -> Param.string(k, false))
                .toArray(Param[]::new);
        String audit = "Sys.Audit on `" + S3ConfigApi.ACL_PATH + "`";
        String modify = "Sys.Modify on `" + S3ConfigApi.ACL_PATH + "`";
        t.get("config/s3").permission(any(audit))
                .answer("`[{\"id\",\"endpoint\",\"access-key\",…}]` without `secret-key`").handle(S3ConfigApi::list);
        t.post("config/s3").params(Param.string("id", true)).params(props).permission(any(modify))
                .answer("null; an existing id: 400").handle(S3ConfigApi::create);
        t.get("config/s3/{id}").permission(any(audit)).answer("`{\"id\",\"endpoint\",…}` without `secret-key`")
                .handle(S3ConfigApi::read);
        t.put("config/s3/{id}").params(props).params(Param.string("delete", false))
                .permission(any(modify)).answer("null; `delete`: optional properties to remove")
                .handle(S3ConfigApi::update);
        t.delete("config/s3/{id}").permission(any(modify)).answer("null; refused (400) while a datastore uses it")
                .handle(S3ConfigApi::delete);
    }

    private static void configDatastore(RouteTable<ApiCall> t) {
        t.section("config-datastore", "");
        Param[] props = DatastoreConfigApi.PROPERTIES.stream().map(k -> Param.string(k, false)).toArray(Param[]::new);
        t.post("config/datastore").params(Param.string("name", true), Param.string("path", true),
                        Param.string("backend", false)).params(props)
                .params(Param.bool("reuse-datastore", false), Param.bool("overwrite-in-use", false))
                .permission(Permission.onPath("/datastore", Privilege.DATASTORE_ALLOCATE.bit()))
                .answer("UPID of task `create-datastore`; a bad value, a known name or path, an unknown s3 endpoint: 400 "
                        + "naming the parameter")
                .handle(DatastoreConfigApi::create);
    }

    private static void tasks(RouteTable<ApiCall> t) {
        t.section("tasks", "");
        String own = "own task or Sys.Audit";
        t.get("nodes/{node}/tasks").params(Param.integer("start", 0, Integer.MAX_VALUE, "0"),
                        Param.integer("limit", 0, Integer.MAX_VALUE, "50; 0 = all"),
                        Param.custom("statusfilter", "ok, warning, error, unknown (repeatable, comma-separated)", false,
                                TasksApi::statusFilter),
                        Param.custom("store", "datastore name", false, p -> p.opt("store").map(ApiParams::store)),
                        Param.bool("running", false), Param.bool("errors", false), Param.string("userfilter", false),
                        Param.integer("since", 0, Long.MAX_VALUE, null), Param.integer("until", 0, Long.MAX_VALUE, null),
                        Param.string("typefilter", false))
                .permission(any("Sys.Audit on `/system/tasks` for every task, else the caller's own (a user's also "
                        + "those of its tokens)"))
                .answer("`{\"data\":[{\"upid\",\"node\",\"pid\",\"pstart\",\"starttime\",\"worker_type\",\"worker_id\",\"user\","
                        + "\"endtime\"?,\"status\"?}],\"total\"}`")
                .handle(c -> TasksApi.list(c.access(), c.services().tasks(), c.params()));
        t.get("nodes/{node}/tasks/{upid}").permission(any(own)).answer("`[{\"subdir\":\"log\"},{\"subdir\":\"status\"}]`")
                .handle(c -> TasksApi.subdirs(c.access(), c.services().tasks(), c.path().get("upid"), c.params()));
        t.delete("nodes/{node}/tasks/{upid}").permission(any("own task or Sys.Modify"))
                .answer("null (asks the task to stop)")
                .handle(c -> TasksApi.stop(c.access(), c.services().tasks(), c.path().get("upid"), c.params()));
        t.get("nodes/{node}/tasks/{upid}/status").permission(any(own))
                .answer("`{\"upid\",\"node\",\"pid\",\"pstart\",\"starttime\",\"type\",\"id\",\"user\",\"tokenid\"?,\"status\","
                        + "\"exitstatus\"?}`")
                .handle(c -> TasksApi.status(c.access(), c.services().tasks(), c.path().get("upid"), c.params()));
        t.get("nodes/{node}/tasks/{upid}/log").params(Param.integer("start", 0, Long.MAX_VALUE, "0"),
                        Param.integer("limit", 0, Long.MAX_VALUE, "50; 0 = all"), Param.bool("test-status", false),
                        Param.bool("download", false))
                .permission(any(own)).answer("see below")
                .handle(c -> TasksApi.log(c.access(), c.services().tasks(), c.path().get("upid"), c.params()));
    }

    private static void access(RouteTable<ApiCall> t) {
        t.section("access", "");
        t.get("access/users").params(Param.bool("include_tokens", false))
                .permission(any("every user with Sys.Audit on `/access/users`, else the caller's own (a token: its user, "
                        + "with only itself as token)"))
                .answer("`[{\"userid\",\"comment\"?,\"enable\"?,\"expire\"?,\"firstname\"?,\"lastname\"?,\"email\"?,"
                        + "\"tokens\"?:[{\"tokenid\",\"comment\"?,\"enable\"?,\"expire\"?}]}]`; `root@pam` always listed")
                .handle(c -> AccessApi.users(c.access(), c.params()));
        t.post("access/users/{userid}/token/{token-name}").params(Param.string("comment", false), Param.string("digest", false))
                .permission(any("Permissions.Modify on `/access/users`, or the user itself (not one of its tokens)"))
                .answer("`{\"tokenid\",\"value\"}`: the secret, shown this once; an existing token 400 "
                        + "`token 'NAME' for user 'USER' already exists.`")
                .handle(c -> AccessApi.createToken(c.access(), c.path().get("userid"), c.path().get("token-name"), c.params()));
        t.get("access/permissions").params(Param.custom("auth-id", "user or token id", false,
                        p -> p.opt("auth-id").map(PermissionsApi::checkAuthid)),
                        Param.custom("path", "ACL path", false, p -> p.opt("path").map(PermissionsApi::checkPath)))
                .permission(any("Sys.Audit on `/access` for any `auth-id`, else the caller's own (a user's also its tokens'); "
                        + "otherwise 400 `not allowed to list permissions of <auth-id>`"))
                .answer("`{\"<path>\":{\"<privilege>\":<propagates>}}` for `path`, or every ACL path and `/`, `/access`, "
                        + "`/datastore`, `/remote`, `/system`; paths without privileges left out")
                .handle(c -> PermissionsApi.list(c.access(), c.params()));
        t.get("access/acl").params(Param.string("path", false), Param.bool("exact", false))
                .permission(any("every entry with Sys.Audit on `/access/acl`, else the caller's and (for a user) its tokens'"))
                .answer("`[{\"path\",\"propagate\",\"roleid\",\"ugid\",\"ugid_type\":\"user\"}]`")
                .handle(c -> AccessApi.acl(c.access(), c.params()));
        t.get("nodes/{node}/certificates/info").permission(any("Sys.Audit on `/system/certificates`"))
                .answer("`[{\"filename\":\"proxy.pem\",\"fingerprint\",\"issuer\",\"notafter\",\"notbefore\",\"pem\","
                        + "\"public-key-bits\",\"public-key-type\",\"san\",\"subject\"}]`")
                .handle(c -> CertificateApi.info(c.access(), c.auth().configDir()));
    }

    private static void notifications(RouteTable<ApiCall> t) {
        t.section("notifications", "config/notifications/");
        t.pathVar("name", "name of a notification target or matcher", s -> s);
        String n = "config/notifications/";
        Permission audit = Permission.onPath("/system/notifications", Privilege.SYS_AUDIT.bit());
        Permission modify = Permission.onPath("/system/notifications", Privilege.SYS_MODIFY.bit());
        t.get(n + "targets").permission(audit).answer("`[{\"name\",\"type\",\"origin\",\"comment\"?,\"disable\"}]`")
                .handle(NotificationsApi::targets);
        t.post(n + "targets/{name}/test").permission(modify)
                .answer("null once sent; unknown target 404; failed delivery 500 `could not notify via target(s): ...`")
                .handle(NotificationsApi::test);
        for (String type : List.of("sendmail", "smtp", "gotify", "webhook", "matcher")) {
            String list = type.equals("matcher") ? n + "matchers" : n + "endpoints/" + type;
            List<Param> props = NotificationEdits.keys(type).stream().map(k -> notificationParam(type, k, false)).toList();
            t.get(list).permission(audit).answer("the " + type + " entries (secrets never shown)")
                    .handle(c -> NotificationsApi.list(c, type));
            t.post(list).params(Param.custom("name", "name, 2..32 characters", true, p -> { }))
                    .params(NotificationEdits.keys(type).stream().map(k -> notificationParam(type, k, true)).toList())
                    .permission(modify).answer("null").handle(c -> NotificationsApi.create(c, type));
            t.get(list + "/{name}").permission(audit).answer("the entry (secrets never shown); none: 404")
                    .handle(c -> NotificationsApi.get(c, type));
            t.put(list + "/{name}").params(props)
                    .params(Param.custom("delete", "properties to remove (comma-separated)", false, p -> { }),
                            Param.custom("digest", "string (ignored)", false, p -> { }))
                    .permission(modify).answer("null; none: 404").handle(c -> NotificationsApi.update(c, type));
            t.delete(list + "/{name}").permission(modify).answer("null; none: 404; built-in: 400")
                    .handle(c -> NotificationsApi.remove(c, type));
        }
    }

    /** A property of a notification entry; its value is checked by {@link NotificationEdits} (shared with the CLI). */
    private static Param notificationParam(String type, String key, boolean create) {
        String kind = (NotificationEdits.repeatable(key) ? "string, repeatable" : "string")
                + (NotificationEdits.secret(key) ? ", secret" : "");
        return Param.custom(key, kind, create && NotificationEdits.required(type).contains(key), p -> { });
    }

    private static void metrics(RouteTable<ApiCall> t) {
        t.section("metrics", "");
        Param timeframe = Param.custom("timeframe", "hour, day, week, month, year, decade", true,
                p -> RrdApi.timeframe(p.required("timeframe")));
        Param cf = Param.custom("cf", "AVERAGE, MAX", true, p -> RrdApi.cf(p.required("cf")));
        t.get("admin/datastore/{store}/rrd").params(timeframe, cf)
                .permission(Permission.onStore(Access.AUDIT | Access.BACKUP, true, "Audit or Backup"))
                .answer("`[{\"time\",\"total\"?,\"used\"?,\"available\"?,\"read_ios\"?,\"read_bytes\"?,\"write_ios\"?,"
                        + "\"write_bytes\"?,\"io_ticks\"?}]`, one per slot (see below)")
                .handle(c -> RrdApi.datastore(c.access(), c.store(), c.params(), Instant.now().getEpochSecond()));
        t.get("nodes/{node}/rrd").params(timeframe, cf).permission(any("Sys.Audit on `/system/status`"))
                .answer("`[{\"time\",\"loadavg\"?,\"memtotal\"?,\"memused\"?,\"swaptotal\"?,\"swapused\"?,\"total\"?,"
                        + "\"used\"?}]`")
                .handle(c -> RrdApi.node(c.access(), c.params(), Instant.now().getEpochSecond()));
        t.get(MetricsApi.PATH).permission(Permission.onPath("/system/status", Privilege.SYS_AUDIT.bit()))
                .answer("Prometheus text (`text/plain; version=0.0.4`), see `docs/metrics.md`")
                .handle(c -> MetricsApi.scrape(c.services().metrics()));
    }
}
