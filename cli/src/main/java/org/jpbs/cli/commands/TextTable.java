package org.jpbs.cli.commands;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain text table: a header row, a dashed rule, then rows; columns left-aligned and
 * separated by two spaces, trailing spaces trimmed.
 */
public final class TextTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(List<String> header) {
        this.header = header;
    }

    public void add(List<String> row) {
        if (row.size() != header.size()) {
            throw new IllegalArgumentException("row has " + row.size() + " cells, header " + header.size());
        }
        rows.add(row);
    }

    public int size() {
        return rows.size();
    }

    public void print(PrintStream out) {
        int[] width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            for (List<String> r : rows) {
                width[c] = Math.max(width[c], r.get(c).length());
            }
        }
        out.println(line(header, width));
        StringBuilder rule = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            rule.append(c == 0 ? "" : "  ").append("-".repeat(width[c]));
        }
        out.println(rule);
        for (List<String> r : rows) {
            out.println(line(r, width));
        }
        out.flush();
    }

    private static String line(List<String> cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            if (c > 0) {
                b.append("  ");
            }
            b.append(cells.get(c)).append(" ".repeat(width[c] - cells.get(c).length()));
        }
        return b.toString().stripTrailing();
    }
}
