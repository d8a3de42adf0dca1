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
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.Json;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.notify.NotificationConfig;
import org.jpbs.server.notify.NotificationEdits;
import org.jpbs.server.notify.NotificationStore;
import org.jpbs.server.notify.Notifier;

/**
 * PBS's {@code /api2/json/config/notifications/...} ({@code docs/notifications.md#api-and-commands}):
 * {@code GET targets}, {@code POST targets/{name}/test}, {@code GET|POST endpoints/{type}},
 * {@code GET|PUT|DELETE endpoints/{type}/{name}} ({@code type} sendmail, smtp, gotify,
 * webhook), {@code GET|POST matchers}, {@code GET|PUT|DELETE matchers/{name}}. Reading needs
 * {@code Sys.Audit}, changing and testing {@code Sys.Modify} on {@code /system/notifications};
 * secrets are never returned (webhook secrets by name only). Changes take effect at the next
 * notification.
 */
final class NotificationsApi {
    private static final List<String> ACL = List.of("system", "notifications");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final FileAuthenticator auth;
    private final String authid;
    private final Notifier notifier;

    NotificationsApi(FileAuthenticator auth, String authid, Notifier notifier) {
        this.auth = auth;
        this.authid = authid;
        this.notifier = notifier;
    }

    /** Dispatches {@code seg} (after {@code config/notifications}). */
    RestResponse call(String method, List<String> seg, Map<String, List<String>> params) throws IOException {
        String route = method + " " + shape(seg);
        return switch (route) {
            case "GET targets" -> {
                check(Privilege.SYS_AUDIT);
                ArrayNode out = F.arrayNode();
                for (NotificationConfig.Entry e : load().targets()) {
                    var o = out.addObject().put("name", e.name()).put("type", e.type()).put("origin", e.origin());
                    if (e.get("comment") != null) {
                        o.put("comment", e.get("comment"));
                    }
                    o.put("disable", e.disabled());
                }
                yield RestResponse.data(out);
            }
            case "POST targets/*/test" -> {
                check(Privilege.SYS_MODIFY);
                try {
                    notifier.test(seg.get(1));
                } catch (NotificationEdits.NoSuchEntryException e) {
                    throw new ApiException(404, e.getMessage());
                } catch (IllegalArgumentException e) {
                    throw new ApiException(404, e.getMessage());
                } catch (IOException e) {
                    throw new ApiException(500, "could not notify via target(s): " + seg.get(1) + ": " + e.getMessage());
                }
                yield RestResponse.data(F.nullNode());
            }
            case "GET endpoints/*", "GET matchers" -> {
                check(Privilege.SYS_AUDIT);
                String type = seg.get(0).equals("matchers") ? "matcher" : type(seg.get(1));
                ArrayNode out = F.arrayNode();
                List<NotificationConfig.Entry> all = type.equals("matcher") ? load().matchers() : load().targets();
                all.stream().filter(e -> e.type().equals(type)).forEach(e -> out.add(json(e)));
                yield RestResponse.data(out);
            }
            case "GET endpoints/*/*", "GET matchers/*" -> {
                check(Privilege.SYS_AUDIT);
                yield RestResponse.data(json(entry(load(), seg)));
            }
            case "POST endpoints/*", "POST matchers" -> {
                check(Privilege.SYS_MODIFY);
                Map<String, List<String>> p = new LinkedHashMap<>(params);
                List<String> name = p.remove("name");
                if (name == null || name.size() != 1) {
                    throw ApiException.badParam("name", "parameter is missing and it is not optional");
                }
                String type = seg.get(0).equals("matchers") ? "matcher" : type(seg.get(1));
                edit(c -> NotificationEdits.create(c, type, name.getFirst(), p));
                yield RestResponse.data(F.nullNode());
            }
            case "PUT endpoints/*/*", "PUT matchers/*" -> {
                check(Privilege.SYS_MODIFY);
                Map<String, List<String>> p = new LinkedHashMap<>(params);
                List<String> delete = new ArrayList<>();
                for (String d : p.getOrDefault("delete", List.of())) {
                    delete.addAll(List.of(d.split("[,;\\s]+")));
                }
                p.remove("delete");
                p.remove("digest");
                String type = seg.get(0).equals("matchers") ? "matcher" : type(seg.get(1));
                String name = seg.getLast();
                edit(c -> NotificationEdits.update(c, type, name, p, delete));
                yield RestResponse.data(F.nullNode());
            }
            case "DELETE endpoints/*/*", "DELETE matchers/*" -> {
                check(Privilege.SYS_MODIFY);
                String type = seg.get(0).equals("matchers") ? "matcher" : type(seg.get(1));
                edit(c -> NotificationEdits.remove(c, type, seg.getLast()));
                yield RestResponse.data(F.nullNode());
            }
            default -> throw ApiException.pathNotFound("/api2/json/config/notifications/" + String.join("/", seg));
        };
    }

    /** The route shape: fixed words kept, names replaced by {@code *}. */
    static String shape(List<String> seg) {
        List<String> s = new ArrayList<>();
        for (int i = 0; i < seg.size(); i++) {
            boolean word = i == 0 || (seg.get(0).equals("targets") && i == 2);
            s.add(word ? seg.get(i) : "*");
        }
        return String.join("/", s);
    }

    private void check(Privilege p) {
        if ((auth.privileges(authid, ACL) & p.bit()) == 0) {
            throw new ApiException(403, "permission check failed - missing " + p.text() + " on /system/notifications");
        }
    }

    private static String type(String t) {
        if (!List.of("sendmail", "smtp", "gotify", "webhook").contains(t)) {
            throw ApiException.pathNotFound("/api2/json/config/notifications/endpoints/" + t);
        }
        return t;
    }

    private NotificationConfig load() throws IOException {
        try {
            return NotificationConfig.load(notifier.configDir());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static NotificationConfig.Entry entry(NotificationConfig cfg, List<String> seg) {
        String type = seg.get(0).equals("matchers") ? "matcher" : type(seg.get(1));
        try {
            return NotificationEdits.existing(cfg, type, seg.getLast());
        } catch (IllegalArgumentException e) {
            throw new ApiException(404, e.getMessage());
        }
    }

    private void edit(java.util.function.UnaryOperator<NotificationConfig> f) throws IOException {
        Path dir = notifier.configDir();
        try {
            NotificationStore.update(dir, f);
        } catch (NotificationEdits.NoSuchEntryException e) {
            throw new ApiException(404, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static JsonNode json(NotificationConfig.Entry e) {
        return Json.MAPPER.valueToTree(NotificationEdits.view(e));
    }
}
