package org.jpbs.server.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.jpbs.core.api.Upid;
import org.jpbs.datastore.task.TaskState;
import org.junit.jupiter.api.Test;

/**
 * The pure parts of notifications ({@code docs/notifications.md}): the files with array
 * properties and built-ins, matcher rules (severity, field exact/regex, calendar, mode,
 * invert), routing (each target once, disabled ones skipped), templates and helpers, and the
 * notification made of a task end.
 */
class NotificationRulesTest {
    static final ZoneId UTC = ZoneId.of("UTC");
    // Monday 2026-11-30 10:30 UTC
    static final long MON_1030 = ZonedDateTime.of(2026, 11, 30, 10, 30, 0, 0, UTC).toEpochSecond();

    static Notification n(Severity s, Map<String, String> fields, long t) {
        return new Notification(s, "T", "M", fields, t);
    }

    static boolean matches(String matcherBody, Notification n) {
        NotificationConfig c = NotificationConfig.parse("matcher: m\n" + matcherBody, "");
        return MatchRules.of(c.matcher("m").orElseThrow(), UTC).matches(n);
    }

    @Test
    void filesWithArraysAndBuiltins() {
        NotificationConfig c = NotificationConfig.parse("""
                sendmail: s1
                \tmailto a@x
                \tmailto b@x

                matcher: default-matcher
                \ttarget s1
                """, "smtp: unused\n\tpassword p\n");
        assertEquals(List.of("a@x", "b@x"), c.target("s1").orElseThrow().values("mailto"));
        assertEquals("builtin", c.target("mail-to-root").orElseThrow().origin());
        assertEquals("modified-builtin", c.matcher("default-matcher").orElseThrow().origin());
        assertEquals(List.of("s1"), c.matcher("default-matcher").orElseThrow().values("target"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NotificationConfig.parse("sendmail: s\n\tauthor a\n\tauthor b\n", ""));
        assertEquals("notifications.cfg line 3: duplicate property 'author'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NotificationConfig.parse("pager: p\n\tx y\n", ""));
        // as PBS's section config: a key the type does not have is an error naming file, line, key and section
        e = assertThrows(IllegalArgumentException.class,
                () -> NotificationConfig.parse("sendmail: s\n\tmailto a@x\n\tmailtoo b@x\n", ""));
        assertEquals("notifications.cfg line 3: unknown property 'mailtoo' in section 'sendmail: s'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NotificationConfig.parse("gotify: g\n\tserver http://g\n"
                + "\ttoken t\n", ""));
        assertEquals("notifications.cfg line 3: unknown property 'token' in section 'gotify: g'", e.getMessage(),
                "a secret belongs in the private file");
        e = assertThrows(IllegalArgumentException.class, () -> NotificationConfig.parse("", "smtp: m\n\tserver x\n"));
        assertEquals("notifications-priv.cfg line 2: unknown property 'server' in section 'smtp: m'", e.getMessage());
        NotificationConfig d = c.with("gotify", "g", Map.of("server", List.of("http://g")), Map.of("token", List.of("t")))
                .without("sendmail", "s1");
        assertEquals("gotify: g\n\tserver http://g\n", d.publicText().substring(d.publicText().indexOf("gotify")));
        assertTrue(d.privateText().contains("gotify: g\n\ttoken t\n"), d.privateText());
    }

    @Test
    void matcherRules() {
        Notification gcErr = n(Severity.ERROR, Map.of("type", "gc", "datastore", "backup-1"), MON_1030);
        assertTrue(matches("\tmatch-severity warning,error\n", gcErr));
        assertFalse(matches("\tmatch-severity info\n", gcErr));
        assertTrue(matches("\tmatch-field exact:type=prune,gc\n", gcErr));
        assertFalse(matches("\tmatch-field exact:type=prune\n", gcErr));
        assertTrue(matches("\tmatch-field regex:datastore=^backup-.*$\n", gcErr));
        assertFalse(matches("\tmatch-field regex:job-id=.*\n", gcErr), "missing field never matches");
        assertTrue(matches("\tmatch-calendar mon-fri 9:00-17:00\n", gcErr));
        assertFalse(matches("\tmatch-calendar sat,sun\n", gcErr));
        assertFalse(matches("\tmatch-calendar 8-10\n", gcErr));
        assertTrue(matches("\tmatch-calendar sun,mon..tue 10:30\n", gcErr));
        assertFalse(matches("\tmatch-severity info\n\tmatch-field exact:type=gc\n", gcErr), "mode all");
        assertTrue(matches("\tmatch-severity info\n\tmatch-field exact:type=gc\n\tmode any\n", gcErr));
        assertFalse(matches("\tinvert-match true\n", gcErr), "no rules, inverted");
        assertTrue(matches("", gcErr));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> matches("\tmatch-severity fatal\n", gcErr));
        assertTrue(e.getMessage().startsWith("matcher 'm': invalid severity 'fatal'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> matches("\tmatch-calendar 25:00\n", gcErr));
        assertThrows(IllegalArgumentException.class, () -> matches("\tmatch-field regex:x=(\n", gcErr));
    }

    @Test
    void routingSendsToEachEnabledTargetOnce() {
        NotificationConfig c = NotificationConfig.parse("""
                gotify: a
                \tserver http://a

                gotify: b
                \tserver http://b
                \tdisable 1

                matcher: m1
                \ttarget a
                \ttarget b

                matcher: m2
                \ttarget a

                matcher: m3
                \tdisable true
                \ttarget mail-to-root

                matcher: default-matcher
                \tmatch-severity info
                \ttarget mail-to-root
                """, "");
        Notifier nf = new Notifier(Path.of("/nonexistent"), "pbs1", UTC);
        assertEquals(List.of("a"), nf.route(c, n(Severity.ERROR, Map.of(), MON_1030)).stream()
                .map(NotificationConfig.Entry::name).toList());
        assertEquals(List.of("a", "mail-to-root"), nf.route(c, n(Severity.INFO, Map.of(), MON_1030)).stream()
                .map(NotificationConfig.Entry::name).toList());
    }

    @Test
    void templates() {
        ObjectNode data = Template.data(new Notification(Severity.WARNING, "Ti \"tle\"", "line1\nline2",
                Map.of("type", "gc", "datastore", "a b"), 42), Map.of("tok", "s&t"));
        assertEquals("Ti \"tle\"|warning|42|gc|s&t|", Template.render("{{ title }}|{{severity}}|{{ timestamp }}|"
                + "{{ fields.type }}|{{{ secrets.tok }}}|{{ fields.none }}", data));
        assertEquals("line1\\nline2 a%20b s%26t {\"datastore\":\"a b\",\"type\":\"gc\"} \"gc\"",
                Template.render("{{ escape message }} {{ url-encode fields.datastore }} {{ url-encode secrets.tok }} "
                        + "{{ json fields }} {{ json fields.type }}", data));
        assertThrows(IllegalArgumentException.class, () -> Template.render("{{ title", data));
        assertThrows(IllegalArgumentException.class, () -> Template.render("{{ upper title }}", data));
    }

    @Test
    void taskEndsBecomeNotificationsAsPbsEvents() {
        Upid gc = new Upid("pbs1", 1, 2, 3, 1_700_000_000L, "garbage_collection", "store1", "root@pam");
        Notification ok = TaskNotifications.of(gc, TaskState.ok(1_700_000_100L), "log\n", "pbs1");
        assertEquals(Severity.INFO, ok.severity());
        assertEquals("Garbage Collect Datastore 'store1' successful", ok.title());
        assertEquals(Map.of("type", "gc", "datastore", "store1", "hostname", "pbs1"), ok.fields());
        Upid job = new Upid("pbs1", 1, 2, 4, 1_700_000_000L, "verificationjob", "store1:weekly", "root@pam");
        Notification err = TaskNotifications.of(job, TaskState.error("verification failed on 1 snapshot(s)", 5), "x\n", "pbs1");
        assertEquals("Verify Datastore 'store1' failed", err.title());
        assertEquals("weekly", err.fields().get("job-id"));
        assertEquals("verification", err.fields().get("type"));
        assertTrue(err.message().contains("Status:    verification failed on 1 snapshot(s)\n"), err.message());
        assertTrue(err.message().contains("Job ID:    weekly\n"), err.message());
        Upid sync = new Upid("pbs1", 1, 2, 6, 1_700_000_000L, "syncjob", "offsite:store2:store1:s-nightly", "root@pam");
        Notification se = TaskNotifications.of(sync, TaskState.error("remote error", 5), "x\n", "pbs1");
        assertEquals("Sync remote 'offsite' datastore 'store2' failed", se.title());
        assertEquals(Map.of("type", "sync", "datastore", "store1", "job-id", "s-nightly", "hostname", "pbs1"), se.fields());
        assertTrue(se.message().contains("Job ID:    s-nightly\nDatastore: store1\n"), se.message());
        Upid backup = new Upid("pbs1", 1, 2, 5, 1_700_000_000L, "backup", "store1:vm/100", "root@pam");
        assertEquals(null, TaskNotifications.of(backup, TaskState.ok(5), "", "pbs1"), "a successful backup is not notified");
        Notification w = TaskNotifications.of(backup, TaskState.warnings(2, 5), "", "pbs1");
        assertEquals("Task backup store1:vm/100 finished with warnings", w.title());
        assertEquals(Severity.WARNING, w.severity());
    }
}
