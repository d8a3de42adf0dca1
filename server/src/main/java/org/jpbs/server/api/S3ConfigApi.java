package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;
import org.jpbs.s3.config.S3ConfigStore;
import org.jpbs.s3.config.S3EndpointConfig;

/**
 * {@code /config/s3}: the S3 endpoints of {@code s3.cfg} as PBS 4 serves them
 * ({@code docs/api.md#config-s3}, {@code docs/s3.md#api}). Reading needs {@code Sys.Audit},
 * changing {@code Sys.Modify}, both on {@code /system/s3-endpoint}; {@code secret-key} is
 * never returned.
 */
final class S3ConfigApi {
    static final String ACL_PATH = "/system/s3-endpoint";
    private static final List<String> ACL = List.of("system", "s3-endpoint");

    private S3ConfigApi() {}

    private static void require(Access acc, Privilege p) {
        if ((acc.auth().privileges(acc.authid(), ACL) & p.bit()) == 0) {
            throw new ApiException(403, "permission check failed - missing " + p.text() + " on " + ACL_PATH);
        }
    }

    private static S3ConfigStore store(ApiCall c) {
        Path dir = c.services().datastores().store().file().getParent();
        return S3ConfigStore.open(dir);
    }

    private static ObjectNode json(S3EndpointConfig e) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", e.id());
        e.toPublicProperties().forEach(o::put);
        return o;
    }

    /** GET config/s3: every endpoint, without secrets. */
    static RestResponse list(ApiCall c) throws IOException {
        require(c.access(), Privilege.SYS_AUDIT);
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (S3EndpointConfig e : store(c).list()) {
            a.add(json(e));
        }
        return RestResponse.data(a);
    }

    /** GET config/s3/{id}. */
    static RestResponse read(ApiCall c) throws IOException {
        require(c.access(), Privilege.SYS_AUDIT);
        String id = c.path().get("id");
        return RestResponse.data(json(store(c).get(id).orElseThrow(() -> notFound(id))));
    }

    /** POST config/s3: a new endpoint from the parameters ({@code id}, {@code endpoint}, … as in s3.cfg). */
    static RestResponse create(ApiCall c) throws IOException {
        require(c.access(), Privilege.SYS_MODIFY);
        ApiParams p = c.params();
        String id = p.required("id");
        Map<String, String> props = new LinkedHashMap<>();
        for (String k : S3EndpointConfig.keys()) {
            p.opt(k).ifPresent(v -> props.put(k, v));
        }
        try {
            store(c).create(parse(id, props));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return RestResponse.data(JsonNodeFactory.instance.nullNode());
    }

    /** PUT config/s3/{id}: sets the given properties; {@code delete} (comma-separated) removes optional ones. */
    static RestResponse update(ApiCall c) throws IOException {
        require(c.access(), Privilege.SYS_MODIFY);
        String id = c.path().get("id");
        S3ConfigStore s = store(c);
        S3EndpointConfig old = s.get(id).orElseThrow(() -> notFound(id));
        Map<String, String> props = new LinkedHashMap<>(old.toProperties());
        ApiParams p = c.params();
        for (String d : p.opt("delete").map(v -> List.of(v.split("[,; ]+"))).orElse(List.of())) {
            if (d.isEmpty()) {
                continue;
            }
            if (!S3EndpointConfig.keys().contains(d) || List.of("endpoint", "access-key", "secret-key").contains(d)) {
                throw ApiException.badParam("delete", "cannot delete property '" + d + "'");
            }
            props.remove(d);
        }
        for (String k : S3EndpointConfig.keys()) {
            p.opt(k).ifPresent(v -> props.put(k, v));
        }
        s.replace(parse(id, props));
        return RestResponse.data(JsonNodeFactory.instance.nullNode());
    }

    /** DELETE config/s3/{id}: refused while a datastore uses it. */
    static RestResponse delete(ApiCall c) throws IOException {
        require(c.access(), Privilege.SYS_MODIFY);
        String id = c.path().get("id");
        S3ConfigStore s = store(c);
        s.get(id).orElseThrow(() -> notFound(id));
        try {
            s.removeUnused(id);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        return RestResponse.data(JsonNodeFactory.instance.nullNode());
    }

    private static S3EndpointConfig parse(String id, Map<String, String> props) {
        try {
            return S3EndpointConfig.parse(id, props);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static ApiException notFound(String id) {
        return new ApiException(404, "s3 endpoint '" + id + "' does not exist");
    }
}
