package org.jpbs.client.mount;

import java.io.IOException;
import java.util.List;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.XAttr;
import org.jpbs.core.pxar.IndexReadAt;

/**
 * An image archive ({@code .img.fidx}, or any index) shown as a directory holding one file,
 * {@code NAME} (the archive's name without {@code .fidx}/{@code .didx}), that a user can
 * loop-mount ({@code docs/pxar.md#mount}). Reads fetch only the chunks they touch. Owner and
 * group are the mounting user's, the time is the snapshot's.
 */
public final class ImageTree extends FileHandles {
    private static final int DIR_MODE = 0040555;
    private static final int FILE_MODE = 0100444;

    private final String name;
    private final IndexReadAt reader;
    private final ReadAt src;
    private final int uid;
    private final int gid;
    private final long time;

    /**
     * @param name   the file's name in the mount
     * @param reader the image's chunk reader (closed with the tree)
     * @param uid    owner of the root and the file
     * @param gid    group of the root and the file
     * @param time   modification time (seconds since the epoch)
     */
    public ImageTree(String name, IndexReadAt reader, int uid, int gid, long time) {
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("bad image file name '" + name + "'");
        }
        this.name = name;
        this.reader = reader;
        this.src = reader;
        this.uid = uid;
        this.gid = gid;
        this.time = time;
    }

    private boolean isFile(String path) {
        return path.length() == name.length() + 1 && path.endsWith(name) && path.charAt(0) == '/';
    }

    @Override
    public NodeAttr attr(String path) throws IOException {
        if (path.equals("/")) {
            return new NodeAttr(1, DIR_MODE, 2, uid, gid, 0, time, 0, 0);
        }
        if (isFile(path)) {
            return new NodeAttr(2, FILE_MODE, 1, uid, gid, reader.size(), time, 0, 0);
        }
        throw new TreeException(TreeException.Reason.ENOENT, path);
    }

    @Override
    public List<String> list(String path) throws IOException {
        if (path.equals("/")) {
            return List.of(name);
        }
        attr(path);
        throw new TreeException(TreeException.Reason.ENOTDIR, path);
    }

    @Override
    public byte[] readlink(String path) throws IOException {
        attr(path);
        throw new TreeException(TreeException.Reason.EINVAL, path);
    }

    @Override
    public long open(String path) throws IOException {
        if (path.equals("/")) {
            throw new TreeException(TreeException.Reason.EISDIR, path);
        }
        attr(path);
        return files.open(src, 0, reader.size());
    }

    @Override
    public List<XAttr> xattrs(String path) throws IOException {
        attr(path);
        return List.of();
    }

    @Override
    public long totalBytes() {
        return reader.size();
    }

    @Override
    public void close() {
        reader.close();
    }
}
