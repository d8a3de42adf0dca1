package org.jpbs.client.pxar.shell;

import java.util.ArrayList;
import java.util.List;

/** Splits a command line into words as a POSIX shell does: blanks separate, quotes group, {@code \} escapes. */
final class ShellWords {
    private ShellWords() {}

    /** @throws IllegalArgumentException on an unterminated quote or a trailing backslash */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\\' && quote == 0 || c == '\\' && quote == '"' && i + 1 < line.length()
                    && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                if (++i == line.length()) {
                    throw new IllegalArgumentException("trailing backslash");
                }
                w.append(line.charAt(i));
                inWord = true;
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unterminated quote");
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }
}
