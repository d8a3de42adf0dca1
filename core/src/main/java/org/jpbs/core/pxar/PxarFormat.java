package org.jpbs.core.pxar;

/**
 * The constants of the pxar format ({@code docs/pxar.md}): item types (each the SipHash-2-4 of
 * a marker string), the hash keys, file-type bits of the mode, and the size limits jpbs
 * enforces when reading. Every item is a 16-byte header {@code {type u64, full_size u64}}
 * (little-endian; {@code full_size} includes the header) followed by its content.
 */
public final class PxarFormat {
    private PxarFormat() {}

    /** SipHash key 0 (from SHA-1 of "PROXMOX ARCHIVE FORMAT"). */
    public static final long HASH_KEY_0 = 0x83ac3f1cfbb450dbL;
    /** SipHash key 1. */
    public static final long HASH_KEY_1 = 0xaa4f1b6879369fbdL;

    public static final long FORMAT_VERSION = 0x730f6c75df16a40dL;
    public static final long PRELUDE = 0xe309d79d9f7b771bL;
    public static final long ENTRY = 0xd5956474e588acefL;
    public static final long ENTRY_V1 = 0x11da850a1c1cceffL;
    public static final long FILENAME = 0x16701121063917b3L;
    public static final long SYMLINK = 0x27f971e7dbf5dc5fL;
    public static final long DEVICE = 0x9fc9e906586d5ce9L;
    public static final long XATTR = 0x0dab0229b57dcd03L;
    public static final long ACL_USER = 0x2ce8540a457d55b8L;
    public static final long ACL_GROUP = 0x136e3eceb04c03abL;
    public static final long ACL_GROUP_OBJ = 0x10868031e9582876L;
    public static final long ACL_DEFAULT = 0xbbbb13415a6896f5L;
    public static final long ACL_DEFAULT_USER = 0xc89357b40532cd1fL;
    public static final long ACL_DEFAULT_GROUP = 0xf90a8a5816038ffeL;
    public static final long FCAPS = 0x2da9dd9db5f7fb67L;
    public static final long QUOTA_PROJID = 0xe07540e82f7d1cbbL;
    public static final long HARDLINK = 0x51269c8422bd7275L;
    public static final long PAYLOAD = 0x28147a1b0b7c1a25L;
    public static final long PAYLOAD_REF = 0x419d3d6bc4ba977eL;
    public static final long GOODBYE = 0x2fec4fa642d5731dL;
    public static final long GOODBYE_TAIL_MARKER = 0xef5eed5b753e1555L;
    public static final long PAYLOAD_START_MARKER = 0x834c68c2194a4ed2L;
    public static final long PAYLOAD_TAIL_MARKER = 0x6c72b78b984c81b5L;

    /** Size of an item header. */
    public static final int HEADER_SIZE = 16;
    /** Size of the ENTRY content (mode, flags, uid, gid, mtime secs, nanos, padding). */
    public static final int STAT_SIZE = 40;
    /** Size of one goodbye table item {hash, offset, size}. */
    public static final int GOODBYE_ITEM_SIZE = 24;
    /** Largest non-payload item jpbs accepts when reading (names, links, xattrs, fcaps). */
    public static final int MAX_METADATA_ITEM = 16 * 1024 * 1024;

    public static final int S_IFMT = 0170000;
    public static final int S_IFSOCK = 0140000;
    public static final int S_IFLNK = 0120000;
    public static final int S_IFREG = 0100000;
    public static final int S_IFBLK = 0060000;
    public static final int S_IFDIR = 0040000;
    public static final int S_IFCHR = 0020000;
    public static final int S_IFIFO = 0010000;

    /** The goodbye-table hash of a file name (raw bytes, no terminator). */
    public static long hashFilename(byte[] name) {
        return SipHash24.hash(HASH_KEY_0, HASH_KEY_1, name, 0, name.length);
    }

    /** A human name of an item type, for error messages. */
    public static String typeName(long htype) {
        if (htype == ENTRY) return "ENTRY";
        if (htype == FILENAME) return "FILENAME";
        if (htype == SYMLINK) return "SYMLINK";
        if (htype == DEVICE) return "DEVICE";
        if (htype == XATTR) return "XATTR";
        if (htype == FCAPS) return "FCAPS";
        if (htype == HARDLINK) return "HARDLINK";
        if (htype == PAYLOAD) return "PAYLOAD";
        if (htype == PAYLOAD_REF) return "PAYLOAD_REF";
        if (htype == GOODBYE) return "GOODBYE";
        if (htype == FORMAT_VERSION) return "FORMAT_VERSION";
        if (htype == PRELUDE) return "PRELUDE";
        if (htype == QUOTA_PROJID) return "QUOTA_PROJID";
        if (htype == ACL_USER || htype == ACL_GROUP || htype == ACL_GROUP_OBJ || htype == ACL_DEFAULT
                || htype == ACL_DEFAULT_USER || htype == ACL_DEFAULT_GROUP) return "ACL";
        return String.format("unknown type 0x%016x", htype);
    }
}
