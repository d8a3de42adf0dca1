package org.jpbs.core.pxar.catalog;

import java.io.IOException;

/** A path that is not in the catalog (or goes below something that is not a directory), with PBS's text. */
public final class CatalogLookupException extends IOException {
    public CatalogLookupException(String message) {
        super(message);
    }
}
