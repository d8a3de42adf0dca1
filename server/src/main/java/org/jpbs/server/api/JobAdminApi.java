package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Map;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.config.DatastoreLookupException;
import org.jpbs.datastore.jobs.JobConfig;
import org.jpbs.datastore.jobs.JobConfigFile;
import org.jpbs.datastore.jobs.JobConfigStore;
import org.jpbs.datastore.jobs.JobKind;
import org.jpbs.server.ServerServices;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.jobs.JobStatus;

/**
 * PBS's {@code admin/prune}, {@code admin/verify} and {@code admin/sync}
 * ({@code docs/jobs.md#rest-api}): the jobs the caller may see (optionally of one {@code store})
 * with their schedule status ({@code next-run}, {@code last-run-state}, {@code last-run-upid},
 * {@code last-run-endtime}), and {@code POST .../{id}/run}, which starts the job now as a task
 * and answers its UPID (400 while it runs). Stateless.
 */
final class JobAdminApi {
    static final Map<String, JobKind> KINDS = Map.of("prune", JobKind.PRUNE, "verify", JobKind.VERIFY, "sync", JobKind.SYNC);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JobAdminApi() {}

    /** {@code GET admin/<kind>}. */
    static RestResponse list(Access acc, ServerServices svc, JobKind kind, ApiParams p) throws IOException {
        String only = p.opt("store").orElse(null);
        JobConfigFile f = JobConfigStore.open(svc.scheduler().configDir(), kind).read();
        ScheduledJobs jobs = new ScheduledJobs(svc, svc.scheduler().configDir());
        ArrayNode a = F.arrayNode();
        for (JobConfig c : f.all()) {
            if ((only != null && !only.equals(c.store())) || !canList(acc, c)) {
                continue;
            }
            ObjectNode o = JobConfigApi.toJson(c);
            JobStatus st = svc.scheduler().status(jobs.of(c));
            putIf(o, "next-run", st.nextRun());
            putIf(o, "last-run-state", st.lastRunState());
            putIf(o, "last-run-upid", st.lastRunUpid());
            putIf(o, "last-run-endtime", st.lastRunEndtime());
            a.add(o);
        }
        return JobConfigApi.withDigest(a, f);
    }

    private static boolean canList(Access acc, JobConfig c) {
        if (c.kind() == JobKind.PRUNE) { // admin/prune: Datastore.Audit
            try {
                JobPrivileges.checkRead(acc, c);
                return true;
            } catch (ApiException e) {
                return false;
            }
        }
        return JobPrivileges.canSee(acc, c);
    }

    private static void putIf(ObjectNode o, String k, Object v) {
        if (v instanceof Long l) {
            o.put(k, l);
        } else if (v instanceof String s) {
            o.put(k, s);
        }
    }

    /** {@code POST admin/<kind>/<id>/run}. */
    static RestResponse run(Access acc, ServerServices svc, JobKind kind, String id) throws IOException {
        JobConfig c = JobConfigStore.open(svc.scheduler().configDir(), kind).read().get(id)
                .orElseThrow(() -> ApiException.badRequest("no such " + kind.sectionType() + " '" + id + "'"));
        JobPrivileges.checkModify(acc, c);
        try {
            Upid upid = svc.scheduler().runNow(new ScheduledJobs(svc, svc.scheduler().configDir()).of(c), acc.authid());
            return RestResponse.data(F.textNode(upid.toString()));
        } catch (IllegalStateException e) {
            throw ApiException.badRequest(e.getMessage());
        } catch (DatastoreLookupException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
