package org.jpbs.core.pxar.catalog;

import java.io.IOException;

/** A catalog that breaks the format. */
public final class CatalogFormatException extends IOException {
    public CatalogFormatException(String what) {
        super("catalog: " + what);
    }
}
