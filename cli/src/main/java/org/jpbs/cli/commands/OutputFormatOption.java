package org.jpbs.cli.commands;

import java.util.Locale;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import picocli.CommandLine.Option;

/**
 * {@code --output-format text|json|json-pretty}, shared by every listing and summary (as the
 * PBS client's option; its default comes from {@code $PROXMOX_OUTPUT_FORMAT}, else text).
 * JSON output is the API's answer with the API's field names.
 */
public final class OutputFormatOption {
    /** Environment variable with the default format, as for proxmox-backup-client. */
    public static final String ENV = "PROXMOX_OUTPUT_FORMAT";

    @Option(names = "--output-format", paramLabel = "FORMAT",
            description = "text (default, or $" + ENV + "), json or json-pretty.")
    String format;

    /** The output formats. */
    public enum Format {
        /** A table or lines for people. */
        TEXT,
        /** One line of JSON. */
        JSON,
        /** Indented JSON. */
        JSON_PRETTY
    }

    /**
     * The chosen format.
     *
     * @throws UsageException for an unknown value, naming the option or variable
     */
    public Format format(CliContext ctx) {
        String v = format;
        String source = "--output-format";
        if (v == null) {
            v = ctx.getenv(ENV);
            source = ENV;
            if (v == null || v.isEmpty()) {
                return Format.TEXT;
            }
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "text" -> Format.TEXT;
            case "json" -> Format.JSON;
            case "json-pretty" -> Format.JSON_PRETTY;
            default -> throw new UsageException(source + ": unknown format '" + v + "' (text, json or json-pretty)");
        };
    }

    /** The renderer for the chosen format on the command's output. */
    public Renderer renderer(CliContext ctx) {
        return new Renderer(ctx.out(), format(ctx));
    }
}
