package org.jpbs.server.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.datastore.jobs.JobValueException;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.routing.Param;
import org.jpbs.server.routing.Permission;
import org.jpbs.server.routing.RouteTable;

/**
 * The scheduled-job endpoints of the routing table ({@code docs/jobs.md#rest-api}):
 * {@code config/prune|verify|sync|remote[/{id}]} and {@code admin/prune|verify|sync[/{id}/run]},
 * their parameters being the PBS keys of each job file (checked by its schema).
 */
final class JobRoutes {
    private JobRoutes() {}

    private static final Map<JobKind, String> PATH = Map.of(JobKind.PRUNE, "prune", JobKind.VERIFY, "verify",
            JobKind.SYNC, "sync", JobKind.REMOTE, "remote");

    private static final Map<JobKind, String[]> PRIVS = Map.of(
            JobKind.PRUNE, new String[] {"Datastore.Audit or Modify on the job's datastore/namespace", "Datastore.Modify"},
            JobKind.VERIFY, new String[] {"Datastore.Audit or Verify", "Datastore.Verify"},
            JobKind.SYNC, new String[] {"Datastore.Audit locally and Remote.Audit on the remote store (push: on the "
                + "remote store/namespace)", "pull: Datastore.Backup (+ Prune with remove-vanished, + Modify with an owner other than the caller) locally and Remote.Read "
                + "on the remote store; push: Remote.DatastoreBackup (+ DatastorePrune with remove-vanished) on the remote "
                + "store/namespace and Datastore.Read+Audit locally (the job's owner: or Datastore.Backup; not the owner: "
                + "+ Datastore.Modify)"},
            JobKind.REMOTE, new String[] {"Remote.Audit on /remote/{name}", "Remote.Modify on /remote (create) or /remote/{name}"});

    static void register(RouteTable<ApiCall> t) {
        t.pathVar("id", "job id or remote name", s -> s);
        t.section("scheduled-jobs", "");
        for (JobKind k : List.of(JobKind.PRUNE, JobKind.VERIFY, JobKind.SYNC, JobKind.REMOTE)) {
            String base = "config/" + PATH.get(k);
            String see = PRIVS.get(k)[0];
            String change = PRIVS.get(k)[1];
            t.get(base).permission(Permission.checkedByHandler("lists what the caller may see: " + see))
                    .answer("`{\"data\":[{\"" + JobConfigApi.idParam(k) + "\",...}],\"digest\"}`" + (k == JobKind.REMOTE
                            ? " (never the password)" : ""))
                    .handle(c -> JobConfigApi.call(c.access(), c.services(), "GET", k, null, c.params()));
            List<Param> create = new ArrayList<>();
            create.add(Param.string(JobConfigApi.idParam(k), true));
            create.addAll(keys(k));
            t.post(base).params(create).permission(Permission.checkedByHandler(change))
                    .answer("null; an existing id: 400")
                    .handle(c -> JobConfigApi.call(c.access(), c.services(), "POST", k, null, c.params()));
            t.get(base + "/{id}").permission(Permission.checkedByHandler(see)).answer("`{\"data\":{...},\"digest\"}`")
                    .handle(c -> JobConfigApi.call(c.access(), c.services(), "GET", k, c.path().get("id"), c.params()));
            List<Param> update = new ArrayList<>(keys(k));
            update.add(Param.custom("delete", "list of property names", false, p -> p.all("delete")));
            update.add(Param.string("digest", false));
            t.put(base + "/{id}").params(update).permission(Permission.checkedByHandler(change))
                    .answer("null; a `digest` that is not the file's: 400")
                    .handle(c -> JobConfigApi.call(c.access(), c.services(), "PUT", k, c.path().get("id"), c.params()));
            t.delete(base + "/{id}").params(Param.string("digest", false)).permission(Permission.checkedByHandler(change))
                    .answer("null; also removes the job state")
                    .handle(c -> JobConfigApi.call(c.access(), c.services(), "DELETE", k, c.path().get("id"), c.params()));
            if (k == JobKind.REMOTE) {
                continue;
            }
            t.get("admin/" + PATH.get(k)).params(Param.string("store", false)).permission(Permission.checkedByHandler(
                            k == JobKind.PRUNE ? "Datastore.Audit" : see))
                    .answer("the jobs with `next-run`, `last-run-state`, `last-run-upid`, `last-run-endtime`")
                    .handle(c -> JobAdminApi.list(c.access(), c.services(), k, c.params()));
            t.post("admin/" + PATH.get(k) + "/{id}/run").permission(Permission.checkedByHandler(change))
                    .answer(k == JobKind.SYNC ? "UPID of the job's task; 400 while it runs or if the server has no sync engine"
                            : "UPID of the job's task; 400 while it runs")
                    .handle(c -> JobAdminApi.run(c.access(), c.services(), k, c.path().get("id")));
        }
    }

    private static List<Param> keys(JobKind k) {
        List<Param> out = new ArrayList<>();
        for (String key : k.keys()) {
            boolean array = k.listKeys().contains(key); // repeated, one item each (PBS array property)
            out.add(Param.custom(key, array ? "see docs/jobs.md (repeatable)" : "see docs/jobs.md", false,
                    p -> (array ? p.all(key) : p.text(key).map(List::of).orElse(List.of())).forEach(v -> {
                        if (array && v.indexOf('\n') >= 0) {
                            throw ApiException.badParam(key, "must not contain a line break");
                        }
                        try {
                            k.checkValue(key, v);
                        } catch (JobValueException e) {
                            throw ApiException.badParam(e.key(), e.reason());
                        } catch (IllegalArgumentException e) {
                            throw ApiException.badParam(key, e.getMessage());
                        }
                    })));
        }
        return out;
    }
}
