package org.jpbs.core.errors;

import java.io.IOException;

/**
 * The data is encrypted and no key was given: "encrypted, key needed". Thrown when an
 * encrypted blob or chunk (magics {@code 7b6785be222d4cf0}, {@code e6591bbf0bbfd80b}, {@code docs/formats.md#datablob}) is decoded without a key.
 */
public class EncryptedDataException extends IOException {
    private final String resource;

    /** @param resource file name or description of the encrypted data */
    public EncryptedDataException(String resource) {
        super(resource + ": encrypted, key needed");
        this.resource = resource;
    }

    /**
     * @param resource file name or description of the encrypted data
     * @param detail   what would open it, e.g. {@code "manifest was created with key 92:13:..."}
     */
    public EncryptedDataException(String resource, String detail) {
        super(resource + ": encrypted, key needed - " + detail);
        this.resource = resource;
    }

    public String resource() { return resource; }
}
