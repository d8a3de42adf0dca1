package org.jpbs.cli.keys;

import org.jpbs.cli.UsageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.core.crypto.KeyConfig;
import org.jpbs.core.crypto.MasterKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs key paperkey [PATH] [--subject TEXT] [--output-format text|html]}: a printable
 * form of a key file, laid out as the PBS client does: the key file as pretty JSON between
 * {@code -----BEGIN PROXMOX BACKUP KEY-----} and {@code -----END PROXMOX BACKUP KEY-----}, or,
 * for a PEM master private key, its lines numbered in blocks (5 per block in text, 20 per page
 * in HTML). Unlike PBS no QR code is printed (no QR library).
 */
@Command(name = "paperkey", sortOptions = false,
        description = "Print a key file (or a PEM master private key) in a form to print and keep on paper.")
public final class KeyPaperkeyCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    private final CliContext ctx;

    @Option(names = "--subject", paramLabel = "TEXT", description = "Title line.")
    String subject;

    @Option(names = "--output-format", paramLabel = "FMT", defaultValue = "text", description = "text or html (default: ${DEFAULT-VALUE}).")
    String format;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", description = "Key file (default: the default key).")
    Path path;

    /** Creates the command in {@code ctx}. */
    public KeyPaperkeyCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        if (!format.equals("text") && !format.equals("html")) {
            throw new UsageException("--output-format: expected text or html, got '" + format + "'");
        }
        Path p = KeyCommand.keyPath(ctx, path);
        String data = new String(KeyFiles.read(p), StandardCharsets.UTF_8);
        boolean master = MasterKey.looksLikePrivatePem(data);
        List<String> lines = new ArrayList<>();
        if (master) {
            data.strip().lines().map(String::stripTrailing).filter(l -> !l.isEmpty()).forEach(lines::add);
        } else {
            KeyConfig kc = KeyConfig.parse(data.getBytes(StandardCharsets.UTF_8), p.toString());
            lines.add("-----BEGIN PROXMOX BACKUP KEY-----");
            kc.toPrettyJson().lines().forEach(lines::add);
            lines.add("-----END PROXMOX BACKUP KEY-----");
        }
        StringBuilder out = new StringBuilder();
        boolean html = format.equals("html");
        if (html) {
            out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                    .append("<title>Proxmox Backup Paperkey</title>\n")
                    .append("<style type=\"text/css\">p { font-size: 12pt; font-family: monospace; white-space: pre-wrap; }</style>\n")
                    .append("</head>\n<body>\n");
        }
        if (subject != null) {
            out.append(html ? "<p>Subject: " + escape(subject) + "</p>\n" : "Subject: " + subject + "\n\n");
        }
        int block = master ? (html ? 20 : 5) : Integer.MAX_VALUE;
        for (int start = 0; start < lines.size(); start += block) {
            int end = (int) Math.min(lines.size(), (long) start + block);
            if (html) {
                out.append("<div style=\"page-break-inside: avoid\">\n<p>\n");
            }
            for (int i = start; i < end; i++) {
                String l = master ? String.format("%2d: %s", i, lines.get(i)) : lines.get(i);
                out.append(html ? escape(l) : l).append('\n');
            }
            if (html) {
                out.append("</p>\n</div>\n");
            } else if (master && end < lines.size()) {
                out.append('\n');
            }
        }
        if (html) {
            out.append("</body>\n</html>\n");
        }
        ctx.out().print(out);
        ctx.out().flush();
        return 0;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
