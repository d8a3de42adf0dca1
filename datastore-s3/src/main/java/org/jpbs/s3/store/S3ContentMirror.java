package org.jpbs.s3.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpbs.core.api.BackupGroupRef;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.datastore.snapshot.ContentListener;

/**
 * Follows the local changes of an S3 datastore's snapshot and group files in the bucket
 * ({@code docs/s3.md#snapshot-files}): a committed or changed snapshot is uploaded (its group's
 * {@code owner} and {@code notes} first, the manifest last, a cleared {@code .protected}
 * deleted), a removed snapshot or group is deleted (manifest first), a namespace has its
 * {@code .namespace} marker object while it exists.
 */
final class S3ContentMirror implements ContentListener {
    private static final String PROTECTED = ".protected";
    private final S3ContentSync content;
    private final Path root;

    S3ContentMirror(S3ContentSync content, Path root) {
        this.content = content;
        this.root = root;
    }

    @Override
    public void snapshotChanged(BackupSnapshotRef ref) throws IOException {
        groupChanged(ref.group());
        content.uploadSnapshot(ref.relativePath());
        if (!Files.exists(root.resolve(ref.relativePath()).resolve(PROTECTED))) {
            content.deleteFile(ref.relativePath() + "/" + PROTECTED);
        }
    }

    @Override
    public void snapshotRemoved(BackupSnapshotRef ref) throws IOException {
        content.deleteTree(ref.relativePath());
    }

    @Override
    public void groupChanged(BackupGroupRef group) throws IOException {
        for (String f : new String[] {"owner", "notes"}) {
            String rel = group.relativePath() + "/" + f;
            if (Files.isRegularFile(root.resolve(rel))) {
                content.uploadFile(rel);
            } else {
                content.deleteFile(rel);
            }
        }
    }

    @Override
    public void groupRemoved(BackupGroupRef group) throws IOException {
        content.deleteTree(group.relativePath());
    }

    @Override
    public void namespaceCreated(BackupNamespace ns) throws IOException {
        content.putEmpty(ns.relativePath() + "/" + ObjectKeys.NAMESPACE_MARKER);
    }

    @Override
    public void namespaceRemoved(BackupNamespace ns) throws IOException {
        content.deleteFile(ns.relativePath() + "/" + ObjectKeys.NAMESPACE_MARKER);
    }
}
