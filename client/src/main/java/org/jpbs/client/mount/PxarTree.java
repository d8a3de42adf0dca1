package org.jpbs.client.mount;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpbs.core.pxar.Metadata;
import org.jpbs.core.pxar.IndexReadAt;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.PxarEntry;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.XAttr;
import org.jpbs.client.pxar.fs.AclXattr;

/**
 * A file archive shown as a tree ({@code docs/pxar.md#mount}): paths are looked up through the
 * goodbye tables ({@link PxarAccessor}), one directory at a time, and the nodes found are kept
 * (up to {@value #NODES} paths). A hardlink shows its target's inode, metadata and contents;
 * the inode number is the entry's offset in the archive plus one (the root is 1). A split
 * archive ({@code .mpxar} + {@code .ppxar}) reads contents from its payload stream.
 */
public final class PxarTree extends FileHandles {
    static final int NODES = 100_000;
    private static final byte[] FCAPS = "security.capability".getBytes(StandardCharsets.US_ASCII);

    private final PxarAccessor acc;
    private final ReadAt archive;
    private final ReadAt payload;
    private final Runnable onClose;
    private final Map<String, PxarAccessor.Node> nodes = Collections.synchronizedMap(
            new LinkedHashMap<>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, PxarAccessor.Node> e) {
                    return size() > NODES;
                }
            });

    /**
     * @param archive the pxar stream (or a split archive's metadata stream)
     * @param payload a split archive's payload stream, or null
     * @param onClose run by {@link #close()}
     */
    public PxarTree(ReadAt archive, ReadAt payload, Runnable onClose) {
        this.acc = new PxarAccessor(archive);
        this.archive = archive;
        this.payload = payload;
        this.onClose = onClose;
    }

    /** Over chunk readers of the archive (and payload, or null), closed with the tree. */
    public static PxarTree of(IndexReadAt archive, IndexReadAt payload) {
        return new PxarTree(archive, payload, () -> {
            archive.close();
            if (payload != null) {
                payload.close();
            }
        });
    }

    /** The entry at {@code path} (a hardlink resolved to its target). */
    private PxarAccessor.Node node(String path) throws IOException {
        PxarAccessor.Node n = nodes.get(path);
        if (n != null) {
            return n;
        }
        if (path.equals("/") || path.isEmpty()) {
            n = acc.root();
        } else {
            if (path.charAt(0) != '/' || path.endsWith("/")) {
                throw new TreeException(TreeException.Reason.ENOENT, path);
            }
            int slash = path.lastIndexOf('/');
            PxarAccessor.Node parent = node(slash == 0 ? "/" : path.substring(0, slash));
            if (!parent.isDirectory()) {
                throw new TreeException(TreeException.Reason.ENOTDIR, path);
            }
            n = acc.child(parent, path.substring(slash + 1).getBytes(StandardCharsets.UTF_8));
            if (n == null) {
                throw new TreeException(TreeException.Reason.ENOENT, path);
            }
            n = acc.resolveHardlink(n);
        }
        nodes.put(path, n);
        return n;
    }

    @Override
    public NodeAttr attr(String path) throws IOException {
        PxarAccessor.Node n = node(path);
        PxarEntry e = n.entry();
        var st = e.metadata().stat();
        long size = switch (e.kind()) {
            case FILE -> e.fileSize();
            case SYMLINK -> e.linkTarget().length;
            default -> 0;
        };
        long rdev = e.kind() == PxarEntry.Kind.DEVICE ? NodeAttr.makedev(e.deviceMajor(), e.deviceMinor()) : 0;
        return new NodeAttr(n.offset() + 1, (int) st.mode(), n.isDirectory() ? 2 : 1, st.uid(), st.gid(), size,
                st.mtimeSecs(), st.mtimeNanos(), rdev);
    }

    @Override
    public List<String> list(String path) throws IOException {
        PxarAccessor.Node dir = node(path);
        if (!dir.isDirectory()) {
            throw new TreeException(TreeException.Reason.ENOTDIR, path);
        }
        String prefix = path.equals("/") ? "/" : path + "/";
        List<String> names = new ArrayList<>();
        for (PxarAccessor.Node c : acc.list(dir)) {
            String name = new String(c.entry().name(), StandardCharsets.UTF_8);
            names.add(name);
            if (c.entry().kind() != PxarEntry.Kind.HARDLINK) {
                nodes.put(prefix + name, c); // the attributes asked for next
            }
        }
        return names;
    }

    @Override
    public byte[] readlink(String path) throws IOException {
        PxarEntry e = node(path).entry();
        if (e.kind() != PxarEntry.Kind.SYMLINK) {
            throw new TreeException(TreeException.Reason.EINVAL, path);
        }
        return e.linkTarget();
    }

    @Override
    public long open(String path) throws IOException {
        PxarAccessor.Node n = node(path);
        PxarEntry e = n.entry();
        if (e.kind() != PxarEntry.Kind.FILE) {
            throw new TreeException(n.isDirectory() ? TreeException.Reason.EISDIR : TreeException.Reason.EINVAL, path);
        }
        long start = acc.contentOffset(n);
        if (start >= 0) {
            return files.open(archive, start, e.fileSize());
        }
        if (payload == null) {
            throw new IOException(path + ": the archive is split (.mpxar) but its payload stream (.ppxar) is missing");
        }
        return files.open(payload, PxarAccessor.payloadOffset(payload, e), e.fileSize());
    }

    @Override
    public List<XAttr> xattrs(String path) throws IOException {
        PxarEntry e = node(path).entry();
        Metadata m = e.metadata();
        List<XAttr> out = new ArrayList<>(m.xattrs());
        if (m.fcaps() != null) {
            out.add(new XAttr(FCAPS, m.fcaps()));
        }
        byte[] access = AclXattr.accessValue(m.acl(), m.stat().mode());
        if (access != null) {
            out.add(new XAttr(AclXattr.ACCESS, access));
        }
        byte[] deflt = e.kind() == PxarEntry.Kind.DIRECTORY ? AclXattr.defaultValue(m.acl()) : null;
        if (deflt != null) {
            out.add(new XAttr(AclXattr.DEFAULT, deflt));
        }
        return out;
    }

    @Override
    public long totalBytes() {
        try {
            return archive.size() + (payload == null ? 0 : payload.size());
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        onClose.run();
    }
}
