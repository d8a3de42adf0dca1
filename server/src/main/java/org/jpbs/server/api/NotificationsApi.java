package org.jpbs.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.Json;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.notify.NotificationConfig;
import org.jpbs.server.notify.NotificationEdits;
import org.jpbs.server.notify.NotificationStore;
import org.jpbs.server.notify.Notifier;
import org.jpbs.server.routing.ApiParams;

/**
 * The handlers of PBS's {@code /api2/json/config/notifications/...}
 * ({@code docs/notifications.md#api-and-commands}), declared in {@link ApiRoutes}: {@code GET
 * targets}, {@code POST targets/{name}/test}, {@code GET|POST endpoints/<type>},
 * {@code GET|PUT|DELETE endpoints/<type>/{name}} ({@code type} sendmail, smtp, gotify,
 * webhook), {@code GET|POST matchers}, {@code GET|PUT|DELETE matchers/{name}}. The dispatcher
 * has checked {@code Sys.Audit} (reading) or {@code Sys.Modify} (changing, testing) on
 * {@code /system/notifications} and refused undeclared parameters; the values are checked by
 * {@link NotificationEdits} (shared with {@code jpbs notification}). Secrets are never returned
 * (webhook secrets by name only). Changes take effect at the next notification. Stateless.
 */
final class NotificationsApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private NotificationsApi() {}

    /** {@code GET targets}: every target, with its type and origin. */
    static RestResponse targets(ApiCall c) throws IOException {
        ArrayNode out = F.arrayNode();
        for (NotificationConfig.Entry e : load(c).targets()) {
            var o = out.addObject().put("name", e.name()).put("type", e.type()).put("origin", e.origin());
            if (e.get("comment") != null) {
                o.put("comment", e.get("comment"));
            }
            o.put("disable", e.disabled());
        }
        return RestResponse.data(out);
    }

    /** {@code POST targets/{name}/test}: sends a test notification through one target. */
    static RestResponse test(ApiCall c) {
        String name = c.path().get("name");
        try {
            notifier(c).test(name);
        } catch (NotificationEdits.NoSuchEntryException e) {
            throw new ApiException(404, e.getMessage());
        } catch (IllegalArgumentException e) { // a broken notifications.cfg
            throw ApiException.badRequest(e.getMessage());
        } catch (IOException e) {
            throw new ApiException(500, "could not notify via target(s): " + name + ": " + e.getMessage());
        }
        return RestResponse.data(F.nullNode());
    }

    /** {@code GET endpoints/<type>}, {@code GET matchers}: the entries of a section type. */
    static RestResponse list(ApiCall c, String type) throws IOException {
        ArrayNode out = F.arrayNode();
        NotificationConfig cfg = load(c);
        List<NotificationConfig.Entry> all = type.equals("matcher") ? cfg.matchers() : cfg.targets();
        all.stream().filter(e -> e.type().equals(type)).forEach(e -> out.add(json(e)));
        return RestResponse.data(out);
    }

    /** {@code GET endpoints/<type>/{name}}, {@code GET matchers/{name}}: one entry (404 if none). */
    static RestResponse get(ApiCall c, String type) throws IOException {
        NotificationConfig cfg = load(c);
        NotificationConfig.Entry e;
        try {
            e = NotificationEdits.existing(cfg, type, c.path().get("name"));
        } catch (NotificationEdits.NoSuchEntryException x) {
            throw new ApiException(404, x.getMessage());
        }
        return RestResponse.data(json(e));
    }

    /** {@code POST endpoints/<type>}, {@code POST matchers}: a new entry named by {@code name}. */
    static RestResponse create(ApiCall c, String type) throws IOException {
        Map<String, List<String>> p = values(c.params());
        List<String> name = p.remove("name");
        if (name == null || name.size() != 1) {
            throw ApiException.badParam("name", "parameter is missing and it is not optional.");
        }
        edit(c, cfg -> NotificationEdits.create(cfg, type, name.getFirst(), p));
        return RestResponse.data(F.nullNode());
    }

    /** {@code PUT endpoints/<type>/{name}}, {@code PUT matchers/{name}}: changes and {@code delete}s properties. */
    static RestResponse update(ApiCall c, String type) throws IOException {
        Map<String, List<String>> p = values(c.params());
        List<String> delete = new ArrayList<>();
        for (String d : p.getOrDefault("delete", List.of())) {
            delete.addAll(List.of(d.split("[,;\\s]+")));
        }
        p.remove("delete");
        p.remove("digest");
        String name = c.path().get("name");
        edit(c, cfg -> NotificationEdits.update(cfg, type, name, p, delete));
        return RestResponse.data(F.nullNode());
    }

    /** {@code DELETE endpoints/<type>/{name}}, {@code DELETE matchers/{name}}. */
    static RestResponse remove(ApiCall c, String type) throws IOException {
        String name = c.path().get("name");
        edit(c, cfg -> NotificationEdits.remove(cfg, type, name));
        return RestResponse.data(F.nullNode());
    }

    private static Notifier notifier(ApiCall c) {
        return c.services().notifier();
    }

    /** The parameters as property to values, without {@code _dc}. */
    private static Map<String, List<String>> values(ApiParams params) {
        Map<String, List<String>> p = new LinkedHashMap<>();
        for (String k : params.names()) {
            if (!k.equals("_dc")) {
                p.put(k, params.all(k));
            }
        }
        return p;
    }

    private static NotificationConfig load(ApiCall c) throws IOException {
        try {
            return NotificationConfig.load(notifier(c).configDir());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static void edit(ApiCall c, UnaryOperator<NotificationConfig> f) throws IOException {
        Path dir = notifier(c).configDir();
        try {
            NotificationStore.update(dir, f);
        } catch (NotificationEdits.NoSuchEntryException e) {
            throw new ApiException(404, e.getMessage());
        } catch (IllegalArgumentException e) { // PBS's texts: ParameterException, EntryExistsException, a broken file
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static JsonNode json(NotificationConfig.Entry e) {
        return Json.MAPPER.valueToTree(NotificationEdits.view(e));
    }
}
