package org.jpbs.cli.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The properties of notification targets and matchers as options, named as in
 * {@code notifications.cfg} ({@code docs/notifications.md#files}); array properties repeat.
 * Which apply to which type is checked by {@code NotificationEdits} (an option that does not
 * belong to the type is refused with its name).
 */
public final class NotificationOptions {
    @Option(names = "--mailto", paramLabel = "ADDR", description = "Recipient address (repeatable).")
    List<String> mailto;
    @Option(names = "--mailto-user", paramLabel = "USERID", description = "Recipient user, by its email in user.cfg (repeatable).")
    List<String> mailtoUser;
    @Option(names = "--from-address", paramLabel = "ADDR", description = "Sender address.")
    String fromAddress;
    @Option(names = "--author", paramLabel = "NAME", description = "Sender name (default: Proxmox Backup Server).")
    String author;
    @Option(names = "--server", paramLabel = "HOST|URL", description = "SMTP server host, or Gotify server URL.")
    String server;
    @Option(names = "--port", paramLabel = "PORT", description = "SMTP port.")
    String port;
    @Option(names = "--mode", paramLabel = "MODE", description = "SMTP: insecure, starttls or tls; matcher: all or any.")
    String mode;
    @Option(names = "--username", paramLabel = "USER", description = "SMTP user name.")
    String username;
    @Option(names = "--password", paramLabel = "PASSWORD", description = "SMTP password (kept in notifications-priv.cfg).")
    String password;
    @Option(names = "--token", paramLabel = "TOKEN", description = "Gotify token (kept in notifications-priv.cfg).")
    String token;
    @Option(names = "--url", paramLabel = "URL", description = "Webhook URL (a template).")
    String url;
    @Option(names = "--method", paramLabel = "METHOD", description = "Webhook method: post, put or get.")
    String method;
    @Option(names = "--header", paramLabel = "name=N,value=B64", description = "Webhook header, value base64 (repeatable).")
    List<String> header;
    @Option(names = "--body", paramLabel = "B64", description = "Webhook body template, base64.")
    String body;
    @Option(names = "--secret", paramLabel = "name=N[,value=B64]", description = "Webhook secret, value base64 (repeatable).")
    List<String> secret;
    @Option(names = "--match-field", paramLabel = "RULE", description = "exact:KEY=V[,V] or regex:KEY=RE (repeatable).")
    List<String> matchField;
    @Option(names = "--match-severity", paramLabel = "LIST", description = "Severities, e.g. warning,error (repeatable).")
    List<String> matchSeverity;
    @Option(names = "--match-calendar", paramLabel = "SPEC", description = "e.g. 'mon-fri 9:00-17:00' (repeatable).")
    List<String> matchCalendar;
    @Option(names = "--invert-match", paramLabel = "BOOL", description = "Invert the whole matcher.")
    String invertMatch;
    @Option(names = "--target", paramLabel = "NAME", description = "Target a matcher notifies (repeatable).")
    List<String> target;
    @Option(names = "--comment", paramLabel = "TEXT", description = "Comment.")
    String comment;
    @Option(names = "--disable", paramLabel = "BOOL", description = "Disable (1) or enable (0).")
    String disable;
    @Option(names = "--delete", paramLabel = "KEY", description = "update: remove this property (repeatable).")
    List<String> delete;

    /** The given properties, by config key. */
    Map<String, List<String>> properties() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        put(m, "mailto", mailto);
        put(m, "mailto-user", mailtoUser);
        put(m, "from-address", fromAddress);
        put(m, "author", author);
        put(m, "server", server);
        put(m, "port", port);
        put(m, "mode", mode);
        put(m, "username", username);
        put(m, "password", password);
        put(m, "token", token);
        put(m, "url", url);
        put(m, "method", method);
        put(m, "header", header);
        put(m, "body", body);
        put(m, "secret", secret);
        put(m, "match-field", matchField);
        put(m, "match-severity", matchSeverity);
        put(m, "match-calendar", matchCalendar);
        put(m, "invert-match", invertMatch);
        put(m, "target", target);
        put(m, "comment", comment);
        put(m, "disable", disable);
        return m;
    }

    /** The {@code --delete} keys. */
    List<String> delete() {
        return delete == null ? List.of() : delete;
    }

    private static void put(Map<String, List<String>> m, String key, Object v) {
        if (v instanceof List<?> l) {
            List<String> s = new ArrayList<>();
            l.forEach(x -> s.add((String) x));
            m.put(key, s);
        } else if (v != null) {
            m.put(key, List.of((String) v));
        }
    }
}
