package org.jpbs.core.manifest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Writes Jackson trees the way serde_json writes a {@code serde_json::Value} ({@code docs/formats.md#manifest-indexjsonblob}): object keys sorted by UTF-8 byte order, minimal string escaping
 * ({@code \"}, {@code \\}, {@code \b \f \n \r \t}, other control characters as lowercase
 * {@code \\u} and four hex digits, {@code /} and non-ASCII unescaped), either pretty (2-space indent,
 * {@code "key": value}, {@code {}} and {@code []} when empty, no trailing newline) or canonical
 * (no whitespace, nulls rejected).
 */
final class SerdeJson {
    private SerdeJson() {}

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    /** Orders keys by Unicode code point, which equals UTF-8 byte order. */
    static final Comparator<String> KEY_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    /** serde_json's escaping: short forms for five control characters, lowercase hex otherwise. */
    private static final class SerdeEscapes extends CharacterEscapes {
        private static final int[] CODES = standardAsciiEscapesForJSON();
        private static final SerializableString[] LOWER_HEX = new SerializableString[32];

        static {
            for (int c = 0; c < 32; c++) {
                if (c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r') {
                    CODES[c] = ESCAPE_CUSTOM;
                    LOWER_HEX[c] = new SerializedString(String.format("\\u%04x", c));
                }
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return CODES;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch < 32 ? LOWER_HEX[ch] : null;
        }
    }

    private static final SerdeEscapes ESCAPES = new SerdeEscapes();

    /** serde_json's PrettyFormatter with a two-space indent. */
    private static final class SerdePretty implements PrettyPrinter {
        private int depth;

        private void newline(JsonGenerator g) throws IOException {
            g.writeRaw('\n');
            for (int i = 0; i < depth; i++) {
                g.writeRaw("  ");
            }
        }

        @Override public void writeRootValueSeparator(JsonGenerator g) {}

        @Override public void writeStartObject(JsonGenerator g) throws IOException {
            g.writeRaw('{');
            depth++;
        }

        @Override public void beforeObjectEntries(JsonGenerator g) throws IOException {
            newline(g);
        }

        @Override public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            g.writeRaw(',');
            newline(g);
        }

        @Override public void writeEndObject(JsonGenerator g, int n) throws IOException {
            depth--;
            if (n > 0) {
                newline(g);
            }
            g.writeRaw('}');
        }

        @Override public void writeStartArray(JsonGenerator g) throws IOException {
            g.writeRaw('[');
            depth++;
        }

        @Override public void beforeArrayValues(JsonGenerator g) throws IOException {
            newline(g);
        }

        @Override public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(',');
            newline(g);
        }

        @Override public void writeEndArray(JsonGenerator g, int n) throws IOException {
            depth--;
            if (n > 0) {
                newline(g);
            }
            g.writeRaw(']');
        }
    }

    /** Pretty JSON bytes (UTF-8) of {@code node}, like {@code serde_json::to_string_pretty}. */
    static byte[] pretty(JsonNode node) {
        return write(node, true);
    }

    /**
     * Canonical JSON bytes (UTF-8): sorted keys, no whitespace.
     *
     * @throws IllegalArgumentException if the tree holds a null
     */
    static byte[] canonical(JsonNode node) {
        return write(node, false);
    }

    private static byte[] write(JsonNode node, boolean pretty) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.setCharacterEscapes(ESCAPES);
            if (pretty) {
                g.setPrettyPrinter(new SerdePretty());
            }
            writeNode(g, node, pretty);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void writeNode(JsonGenerator g, JsonNode n, boolean allowNull) throws IOException {
        switch (n.getNodeType()) {
            case OBJECT -> {
                List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(n.properties());
                entries.sort(Map.Entry.comparingByKey(KEY_ORDER));
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> e : entries) {
                    g.writeFieldName(e.getKey());
                    writeNode(g, e.getValue(), allowNull);
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (JsonNode c : n) {
                    writeNode(g, c, allowNull);
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(n.textValue());
            case BOOLEAN -> g.writeBoolean(n.booleanValue());
            case NUMBER -> {
                if (n.isIntegralNumber()) {
                    g.writeNumber(n.bigIntegerValue());
                } else {
                    g.writeNumber(n.decimalValue().toString());
                }
            }
            case NULL, MISSING -> {
                if (!allowNull) {
                    throw new IllegalArgumentException("canonical JSON cannot contain null");
                }
                g.writeNull();
            }
            default -> throw new IllegalArgumentException("unsupported JSON node type " + n.getNodeType());
        }
    }
}
