package org.jpbs.datastore.os;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A write into a datastore failed because its file system is full (ENOSPC) or the quota is
 * used up (EDQUOT). Not the client's fault: the server answers it 500, not 400. The message
 * names the file and, once known, the datastore: {@code "datastore /srv/ds: no space left on
 * device writing /srv/ds/.chunks/abcd/abcd…"}; {@link #publicMessage} gives the same without
 * server paths (the file relative to the datastore root) for API answers.
 */
public final class StorageFullException extends IOException {
    private static final long serialVersionUID = 1L;

    private final Path file;
    private final transient Path datastoreRoot;
    private final String reason;

    private StorageFullException(Path file, Path datastoreRoot, String reason, Throwable cause) {
        super((datastoreRoot == null ? "" : "datastore " + datastoreRoot + ": ") + reason + " writing " + file, cause);
        this.file = file;
        this.datastoreRoot = datastoreRoot;
        this.reason = reason;
    }

    /** True if {@code e} (or a cause) is ENOSPC or EDQUOT, as the JDK reports them (strerror text). */
    public static boolean isNoSpace(Throwable e) {
        return reasonOf(e).isPresent();
    }

    private static Optional<String> reasonOf(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StorageFullException s) {
                return Optional.of(s.reason);
            }
            String m = t instanceof FileSystemException f && f.getReason() != null ? f.getReason() : t.getMessage();
            if (m != null) {
                if (m.contains("No space left on device")) {
                    return Optional.of("no space left on device");
                }
                if (m.contains("Disk quota exceeded")) {
                    return Optional.of("disk quota exceeded");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * {@code e} as a StorageFullException naming {@code file} if it is a full-disk error, else
     * {@code e} itself.
     */
    public static IOException wrap(IOException e, Path file) {
        if (e instanceof StorageFullException) {
            return e;
        }
        Optional<String> r = reasonOf(e);
        return r.isPresent() ? new StorageFullException(file, null, r.get(), e) : e;
    }

    /** The first StorageFullException in {@code t}'s cause chain. */
    public static Optional<StorageFullException> find(Throwable t) {
        for (; t != null; t = t.getCause()) {
            if (t instanceof StorageFullException s) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The same error naming the datastore (root directory) it happened in. */
    public StorageFullException inDatastore(Path root) {
        return datastoreRoot != null ? this : new StorageFullException(file, root, reason, getCause());
    }

    /** The file that could not be written. */
    public Path file() {
        return file;
    }

    /**
     * The message without server paths: {@code "datastore 'NAME': no space left on device writing
     * .chunks/abcd/…"} ({@code storeName} null leaves the datastore out; the file is given relative
     * to the datastore root when that is known, else by its name only).
     */
    public String publicMessage(String storeName) {
        String f = datastoreRoot != null && file.startsWith(datastoreRoot) ? datastoreRoot.relativize(file).toString()
                : String.valueOf(file.getFileName());
        return (storeName == null ? "" : "datastore '" + storeName + "': ") + reason + " writing " + f;
    }
}
