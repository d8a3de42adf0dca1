package org.jpbs.server.notify;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jpbs.server.auth.AuthState;
import org.jpbs.server.auth.Authid;
import org.jpbs.server.auth.UserConfig;

/**
 * Sends a notification as mail ({@code docs/notifications.md#sendmail-and-smtp}) with Jakarta
 * Mail (Angus): {@code smtp} targets talk to their {@code server} ({@code mode} {@code tls}
 * (default, port 465), {@code starttls} (587) or {@code insecure} (25); {@code username} and the
 * private {@code password} if set); {@code sendmail} targets pipe the message to the
 * {@code sendmail} binary ({@value #SENDMAIL}, or the system property {@code jpbs.notify.sendmail})
 * and, where there is none, hand it to the SMTP server on localhost port 25 (system property
 * {@code jpbs.notify.local-smtp-port}). Recipients: {@code mailto} addresses and the
 * {@code email} of each {@code mailto-user} in {@code user.cfg}. Stateless.
 */
final class MailSender {
    static final String SENDMAIL = "/usr/sbin/sendmail";
    private static final int TIMEOUT_MS = 10_000;
    private static final String DEFAULT_AUTHOR = "Proxmox Backup Server";

    private MailSender() {}

    /** The target has no address to send to (as PBS: nothing is sent; not an error of the target). */
    static final class NoRecipientsException extends IOException {
        NoRecipientsException() {
            super("no recipients (no mailto and no mailto-user with an email address)");
        }
    }

    /** Sends {@code n} to the target; throws on any failure. */
    static void send(NotificationConfig.Entry t, Notification n, Path configDir, String node) throws IOException {
        List<String> to = recipients(t, configDir);
        if (to.isEmpty()) {
            throw new NoRecipientsException();
        }
        String from = t.get("from-address") != null ? t.get("from-address") : "root@" + node;
        String author = t.get("author") != null ? t.get("author") : DEFAULT_AUTHOR;
        try {
            if (t.type().equals("smtp")) {
                smtp(t, n, to, from, author);
            } else {
                sendmail(n, to, from, author);
            }
        } catch (MessagingException e) {
            throw new IOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
    }

    private static void smtp(NotificationConfig.Entry t, Notification n, List<String> to, String from, String author)
            throws MessagingException, IOException {
        String mode = t.get("mode") == null ? "tls" : t.get("mode");
        int defPort = switch (mode) {
            case "tls" -> 465;
            case "starttls" -> 587;
            case "insecure" -> 25;
            default -> throw new IOException("invalid mode '" + mode + "' (expected insecure, starttls or tls)");
        };
        int port = t.get("port") == null ? defPort : Integer.parseInt(t.get("port"));
        boolean auth = t.get("username") != null;
        Session s = session(t.get("server"), port, mode, auth);
        try (Transport tr = s.getTransport(mode.equals("tls") ? "smtps" : "smtp")) {
            if (auth) {
                tr.connect(t.get("server"), port, t.get("username"), t.secret("password"));
            } else {
                tr.connect();
            }
            MimeMessage m = message(s, n, to, from, author);
            tr.sendMessage(m, m.getAllRecipients());
        }
    }

    private static Session session(String host, int port, String mode, boolean auth) {
        Properties p = new Properties();
        String proto = mode.equals("tls") ? "smtps" : "smtp";
        p.put("mail." + proto + ".host", host);
        p.put("mail." + proto + ".port", Integer.toString(port));
        p.put("mail." + proto + ".auth", Boolean.toString(auth));
        p.put("mail." + proto + ".connectiontimeout", Integer.toString(TIMEOUT_MS));
        p.put("mail." + proto + ".timeout", Integer.toString(TIMEOUT_MS));
        p.put("mail." + proto + ".writetimeout", Integer.toString(TIMEOUT_MS));
        if (mode.equals("starttls")) {
            p.put("mail.smtp.starttls.enable", "true");
            p.put("mail.smtp.starttls.required", "true");
        }
        if (!mode.equals("insecure")) {
            p.put("mail." + proto + ".ssl.checkserveridentity", "true");
        }
        return Session.getInstance(p);
    }

    private static void sendmail(Notification n, List<String> to, String from, String author)
            throws MessagingException, IOException {
        Path bin = Path.of(System.getProperty("jpbs.notify.sendmail", SENDMAIL));
        if (!Files.isExecutable(bin)) {
            int port = Integer.getInteger("jpbs.notify.local-smtp-port", 25);
            Session s = session("localhost", port, "insecure", false);
            MimeMessage m = message(s, n, to, from, author);
            Transport.send(m);
            return;
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        message(Session.getInstance(new Properties()), n, to, from, author).writeTo(buf);
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), "-f", from, "--"));
        cmd.addAll(to);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (var in = p.getOutputStream()) {
            in.write(buf.toByteArray());
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("sendmail did not finish within 30 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for sendmail", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("sendmail exited with " + p.exitValue() + (out.isEmpty() ? "" : ": " + out));
        }
    }

    static MimeMessage message(Session s, Notification n, List<String> to, String from, String author)
            throws MessagingException, UnsupportedEncodingException {
        MimeMessage m = new MimeMessage(s);
        m.setFrom(new InternetAddress(from, author, "UTF-8"));
        for (String r : to) {
            m.addRecipient(Message.RecipientType.TO, new InternetAddress(r));
        }
        m.setSubject(n.title(), "UTF-8");
        m.setSentDate(new Date(n.timestamp() * 1000));
        m.setHeader("Auto-Submitted", "auto-generated;");
        m.setText(n.message(), "UTF-8");
        m.saveChanges();
        return m;
    }

    /** {@code mailto} plus the {@code email} of every {@code mailto-user} that has one, without repeats. */
    static List<String> recipients(NotificationConfig.Entry t, Path configDir) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        for (String v : t.values("mailto")) {
            for (String a : v.split(",")) {
                if (!a.isBlank()) {
                    out.add(a.strip());
                }
            }
        }
        List<String> users = t.values("mailto-user");
        if (!users.isEmpty()) {
            UserConfig uc;
            try {
                uc = UserConfig.parse(Files.readString(configDir.resolve(AuthState.USER_CFG)), AuthState.USER_CFG);
            } catch (NoSuchFileException e) {
                uc = UserConfig.empty();
            }
            for (String v : users) {
                for (String u : v.split(",")) {
                    try {
                        uc.user(Authid.parse(u.strip())).map(sec -> sec.get("email")).filter(e -> !e.isBlank())
                                .ifPresent(out::add);
                    } catch (IllegalArgumentException e) {
                        // not a user id: no address
                    }
                }
            }
        }
        return List.copyOf(out);
    }
}
