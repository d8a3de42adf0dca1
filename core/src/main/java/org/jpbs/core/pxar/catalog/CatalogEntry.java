package org.jpbs.core.pxar.catalog;

import java.nio.charset.StandardCharsets;

/**
 * One entry of a catalog directory table. {@code type} is the catalog's type letter: d f l h b
 * c p s. {@code start} is the offset of a directory's own table (d), {@code size} and
 * {@code mtime} (epoch seconds) are a file's (f); all are 0 otherwise.
 */
public record CatalogEntry(char type, byte[] name, long start, long size, long mtime) {
    public boolean isDirectory() {
        return type == 'd';
    }

    /** The name for display (invalid UTF-8 replaced). */
    public String displayName() {
        return new String(name, StandardCharsets.UTF_8);
    }
}
