package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.datastore.config.KeepOptions;
import org.jpbs.datastore.config.PathConflictException;
import org.jpbs.core.api.Upid;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.s3.store.DatastoreCreator;

/**
 * {@code POST config/datastore}: creates a datastore and adds it to {@code datastore.cfg}, as
 * PBS 4 does ({@code docs/api.md#datastore-config-configdatastore}, {@code docs/s3.md#api}):
 * {@code Datastore.Allocate} on {@code /datastore} (the route checks it; PBS asks nothing more
 * for an {@code s3} backend), every value checked before the answer (400 naming the parameter),
 * then the work, which may talk to the bucket, runs as task {@code create-datastore} whose UPID
 * is the answer. The same checks and steps as {@code jpbs datastore create} ({@link DatastoreCreator}).
 */
final class DatastoreConfigApi {
    /** The {@code datastore.cfg} properties the call takes besides {@code name}, {@code path} and {@code backend}. */
    static final List<String> PROPERTIES = properties();

    private DatastoreConfigApi() {}

    private static List<String> properties() {
        List<String> l = new java.util.ArrayList<>(List.of("comment", "gc-schedule", "prune-schedule"));
        l.addAll(KeepOptions.KEYS);
        l.addAll(List.of("tuning", "verify-new", "maintenance-mode"));
        return List.copyOf(l);
    }

    /**
     * Refuses a name or path of a datastore the server already serves, from {@code datastore.cfg}
     * or the command line (the file alone does not know the latter; a section of the same name
     * would take the served name over), and a path inside or around one of theirs. PBS's texts
     * for the name and the nesting.
     */
    private static void refuseServed(ApiCall c, String name, Path path) throws IOException {
        Path wanted = path.isAbsolute() ? path.normalize() : null; // a relative one is refused by the check
        for (DatastoreConfig o : c.services().datastores().list()) {
            if (o.name().equals(name)) {
                throw ApiException.badParam("name", "datastore '" + name + "' already exists.");
            }
            if (wanted != null && o.path().toAbsolutePath().normalize().equals(wanted)) {
                throw ApiException.badParam("path", "path is already used by datastore '" + o.name() + "'");
            }
            if (wanted != null) { // PBS: nested datastores not allowed (a parameter error, before the task)
                java.util.Optional<PathConflictException> nested = PathConflictException.check(o.name(), o.path(), wanted);
                if (nested.isPresent()) {
                    throw ApiException.badParam("path", nested.get().getMessage());
                }
            }
        }
    }

    /**
     * Checks one property alone, so that a bad value is answered as PBS's schema does:
     * {@code parameter verification failed - '<key>': <reason>} (a control character, e.g. a
     * line break that would end the property line, is refused as PBS's single-line schema does).
     */
    private static void checkProperty(String key, String value) {
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badParam(key, "value does not match the regex pattern");
        }
        try {
            new DatastoreConfig("check", Map.of("path", "/check", key, value));
        } catch (IllegalArgumentException e) {
            String why = e.getMessage().replaceFirst("^datastore 'check': ", "").replaceFirst("^" + key + ": ", "");
            throw ApiException.badParam(key, why);
        }
    }

    /** POST config/datastore. */
    static RestResponse create(ApiCall c) throws IOException {
        ApiParams p = c.params();
        Map<String, String> props = new LinkedHashMap<>();
        for (String k : PROPERTIES) {
            p.opt(k).map(String::strip).filter(v -> !v.isEmpty()).ifPresent(v -> props.put(k, v));
        }
        String name = p.required("name");
        props.forEach(DatastoreConfigApi::checkProperty);
        DatastoreCreator creator;
        try {
            Path path;
            try {
                path = Path.of(p.required("path"));
            } catch (InvalidPathException e) {
                throw ApiException.badParam("path", "not a path: " + e.getReason());
            }
            refuseServed(c, name, path);
            creator = DatastoreCreator.check(c.services().datastores().store().configDir(), name, path, props,
                    p.opt("backend").orElse(null), p.bool("reuse-datastore", false), p.bool("overwrite-in-use", false));
        } catch (DatastoreCreator.BadParameter e) {
            throw ApiException.badParam(e.param(), e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Upid upid = c.services().tasks().spawn("create-datastore", name, c.access().authid(), task -> {
            task.log((creator.isS3() ? "creating datastore '" + name + "' on S3 (" + creator.config().property("backend")
                    .orElse("") + "), local cache " : "creating datastore '" + name + "' in ") + creator.config().path());
            creator.create();
            task.log("datastore '" + name + "' added to datastore.cfg");
        });
        return RestResponse.data(JsonNodeFactory.instance.textNode(upid.toString()));
    }
}
