package org.jpbs.cli.commands;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jpbs.cli.commands.OutputFormatOption.Format;

/**
 * The one renderer of listings and summaries: in text format a {@link TextTable} (arrays) or
 * {@code key: value} lines (objects) with the given columns; in JSON the data itself, as the
 * API answered it (compact, or indented by two spaces for {@code json-pretty}).
 */
public final class Renderer {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** serde_json's pretty format (proxmox-backup-client's json-pretty): {@code "key": value}, two-space indent, {@code []}. */
    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER).withArrayEmptySeparator("").withObjectEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("  ", "\n")).withArrayIndenter(new DefaultIndenter("  ", "\n"));

    /**
     * One column (or row of an object): its header and how a record renders in it.
     *
     * @param header the header (text format)
     * @param cell   the text of a record's cell
     */
    public record Column(String header, Function<JsonNode, String> cell) {
        /** A column showing a field as text ({@code -} if missing or null). */
        public static Column field(String header, String name) {
            return new Column(header, r -> {
                JsonNode v = r.get(name);
                return v == null || v.isNull() ? "-" : v.isValueNode() ? v.asText() : v.toString();
            });
        }
    }

    private final PrintStream out;
    private final Format format;

    /** A renderer printing to {@code out} in {@code format}. */
    public Renderer(PrintStream out, Format format) {
        this.out = out;
        this.format = format;
    }

    /** True for the text format. */
    public boolean isText() {
        return format == Format.TEXT;
    }

    /** Prints an array of records: a table, or the JSON array. */
    public void table(JsonNode records, List<Column> columns) {
        if (!isText()) {
            json(records);
            return;
        }
        List<String> header = new ArrayList<>();
        columns.forEach(c -> header.add(c.header()));
        TextTable t = new TextTable(header);
        for (JsonNode r : records) {
            List<String> row = new ArrayList<>();
            for (Column c : columns) {
                row.add(c.cell().apply(r));
            }
            t.add(row);
        }
        t.print(out);
    }

    /** Prints one record: {@code header: value} lines, or the JSON object. */
    public void object(JsonNode record, List<Column> rows) {
        if (!isText()) {
            json(record);
            return;
        }
        int w = 0;
        for (Column c : rows) {
            w = Math.max(w, c.header().length());
        }
        for (Column c : rows) {
            out.println((c.header() + ":" + " ".repeat(w - c.header().length() + 1) + c.cell().apply(record)).stripTrailing());
        }
        out.flush();
    }

    /** Prints {@code text} in text format, else {@code data} as JSON. */
    public void value(JsonNode data, String text) {
        if (isText()) {
            out.println(text);
            out.flush();
        } else {
            json(data);
        }
    }

    /** Prints a JSON value in the chosen JSON format (compact for text). */
    public void json(JsonNode data) {
        try {
            if (format == Format.JSON_PRETTY) {
                out.println(JSON.writer(PRETTY).writeValueAsString(data));
            } else {
                out.println(JSON.writeValueAsString(data));
            }
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        out.flush();
    }
}
