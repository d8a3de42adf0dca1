package org.jpbs.vma.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jpbs.core.errors.CorruptDataException;

/**
 * The VMA main header ({@code docs/vma.md#main-header}): magic, version, uuid, ctime, MD5,
 * the blob table holding config names/contents and device names, and the device table.
 *
 * <p>Reading is two steps because the input is a stream: {@link #headerSize} checks the first
 * {@value Vma#HEADER_FIXED_SIZE} bytes and tells how many bytes the whole header has; then
 * {@link #parse} checks and decodes the whole header. Every error is a
 * {@link CorruptDataException} naming the byte offset in the archive.
 *
 * <p>{@link #encode} writes the header as QEMU's writer does: blobs in the order config name,
 * config data (per config), then device names; the blob table grown in 512-byte steps, so
 * {@code header_size = 12288 + roundup(blob_buffer_size, 512)}; MD5 over the whole header with
 * the MD5 field zeroed.
 */
public final class VmaHeader {
    /** Largest header accepted: 256 configs and 255 device names of the largest blob size fit. */
    public static final int MAX_HEADER_SIZE = 64 * 1024 * 1024;

    private final UUID uuid;
    private final long ctime;
    private final List<VmaConfig> configs;
    private final List<VmaDevice> devices;
    private final VmaDevice[] byId = new VmaDevice[Vma.DEVICE_SLOTS];

    /**
     * @param uuid    archive uuid (repeated in every extent)
     * @param ctime   creation time, seconds since the epoch
     * @param configs config files in order
     * @param devices devices with distinct ids 1..255 and distinct names
     * @throws IllegalArgumentException on duplicate ids or names, too many configs, or a blob over 65,535 bytes
     */
    public VmaHeader(UUID uuid, long ctime, List<VmaConfig> configs, List<VmaDevice> devices) {
        this.uuid = uuid;
        this.ctime = ctime;
        this.configs = List.copyOf(configs);
        this.devices = List.copyOf(devices);
        if (configs.size() > Vma.MAX_CONFIGS) {
            throw new IllegalArgumentException("too many configs: " + configs.size() + " (at most " + Vma.MAX_CONFIGS + ")");
        }
        for (VmaConfig c : configs) {
            checkBlob("config name '" + c.name() + "'", utf8z(c.name()).length);
            checkBlob("config '" + c.name() + "'", c.data().length);
        }
        Map<String, Integer> names = new HashMap<>();
        for (VmaDevice d : devices) {
            if (byId[d.id()] != null) {
                throw new IllegalArgumentException("duplicate dev_id " + d.id());
            }
            if (names.put(d.name(), d.id()) != null) {
                throw new IllegalArgumentException("duplicate device name '" + d.name() + "'");
            }
            checkBlob("device name '" + d.name() + "'", utf8z(d.name()).length);
            byId[d.id()] = d;
        }
    }

    private static void checkBlob(String what, int len) {
        if (len > Vma.MAX_BLOB_SIZE) {
            throw new IllegalArgumentException(what + " is " + len + " bytes; a VMA header blob holds at most "
                    + Vma.MAX_BLOB_SIZE);
        }
    }

    /** The archive uuid. */
    public UUID uuid() {
        return uuid;
    }

    /** Creation time, seconds since the epoch. */
    public long ctime() {
        return ctime;
    }

    /** The configs in header slot order. */
    public List<VmaConfig> configs() {
        return configs;
    }

    /** The config named {@code name}, if any. */
    public Optional<VmaConfig> config(String name) {
        return configs.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The devices in dev_id order. */
    public List<VmaDevice> devices() {
        return devices;
    }

    /** The device with this dev_id, or null. */
    public VmaDevice device(int id) {
        return id > 0 && id < byId.length ? byId[id] : null;
    }

    /**
     * Checks the fixed part of a header and returns its total size.
     *
     * @param fixed    at least the first {@value Vma#HEADER_FIXED_SIZE} bytes of the archive
     * @param resource archive name for messages
     * @return header_size in bytes (> 12288, at most {@link #MAX_HEADER_SIZE})
     * @throws CorruptDataException for a bad magic or version, or impossible blob/header sizes
     */
    public static int headerSize(byte[] fixed, String resource) throws CorruptDataException {
        ByteBuffer b = ByteBuffer.wrap(fixed).order(ByteOrder.BIG_ENDIAN);
        int magic = b.getInt(0);
        if (magic != Vma.MAGIC) {
            throw new CorruptDataException(resource, 0, "not a VMA archive (magic " + hex(fixed, 0, 4)
                    + ", expected 56 4d 41 00 \"VMA\\0\")");
        }
        int version = b.getInt(Vma.OFF_VERSION);
        if (version != Vma.VERSION) {
            throw new CorruptDataException(resource, Vma.OFF_VERSION, "unsupported VMA version " + version
                    + " (only version 1 exists)");
        }
        long blobOffset = Integer.toUnsignedLong(b.getInt(Vma.OFF_BLOB_OFFSET));
        long blobSize = Integer.toUnsignedLong(b.getInt(Vma.OFF_BLOB_SIZE));
        long headerSize = Integer.toUnsignedLong(b.getInt(Vma.OFF_HEADER_SIZE));
        if (headerSize <= Vma.HEADER_FIXED_SIZE || headerSize > MAX_HEADER_SIZE) {
            throw new CorruptDataException(resource, Vma.OFF_HEADER_SIZE, "bad header size " + headerSize
                    + " (must be above " + Vma.HEADER_FIXED_SIZE + " and at most " + MAX_HEADER_SIZE + ")");
        }
        if (blobOffset < Vma.HEADER_FIXED_SIZE) {
            throw new CorruptDataException(resource, Vma.OFF_BLOB_OFFSET, "bad blob buffer offset " + blobOffset
                    + " (must be at least " + Vma.HEADER_FIXED_SIZE + ")");
        }
        if (blobOffset + blobSize > headerSize) {
            throw new CorruptDataException(resource, Vma.OFF_BLOB_SIZE, "blob buffer (offset " + blobOffset
                    + ", size " + blobSize + ") ends after the header (size " + headerSize + ")");
        }
        return (int) headerSize;
    }

    /**
     * Checks and decodes a whole header.
     *
     * @param whole    exactly {@code header_size} bytes from the start of the archive
     * @param resource archive name for messages
     * @throws CorruptDataException naming the offset: bad magic/version/sizes, wrong MD5, a blob
     *         running past the blob buffer, a pointer that is not a blob start, a string blob
     *         (config or device name) not ending in NUL
     */
    public static VmaHeader parse(byte[] whole, String resource) throws CorruptDataException {
        int headerSize = headerSize(whole, resource);
        if (whole.length != headerSize) {
            throw new IllegalArgumentException("expected " + headerSize + " header bytes, got " + whole.length);
        }
        ByteBuffer b = ByteBuffer.wrap(whole).order(ByteOrder.BIG_ENDIAN);
        byte[] stored = Arrays.copyOfRange(whole, Vma.OFF_MD5, Vma.OFF_MD5 + 16);
        byte[] computed = md5(whole, Vma.OFF_MD5);
        if (!Arrays.equals(stored, computed)) {
            throw new CorruptDataException(resource, Vma.OFF_MD5, "wrong header MD5 (stored " + hex(stored, 0, 16)
                    + ", computed " + hex(computed, 0, 16) + ")");
        }
        UUID uuid = new UUID(b.getLong(Vma.OFF_UUID), b.getLong(Vma.OFF_UUID + 8));
        long ctime = b.getLong(Vma.OFF_CTIME);
        int blobOffset = b.getInt(Vma.OFF_BLOB_OFFSET);
        int blobSize = b.getInt(Vma.OFF_BLOB_SIZE);
        Map<Integer, byte[]> blobs = readBlobs(whole, blobOffset, blobSize, resource);

        List<VmaConfig> configs = new ArrayList<>();
        for (int i = 0; i < Vma.MAX_CONFIGS; i++) {
            int namePtr = b.getInt(Vma.OFF_CONFIG_NAMES + 4 * i);
            int dataPtr = b.getInt(Vma.OFF_CONFIG_DATA + 4 * i);
            if (namePtr == 0 || dataPtr == 0) {
                continue;
            }
            String name = string(blobs, namePtr, Vma.OFF_CONFIG_NAMES + 4 * i, "config " + i + " name", resource);
            byte[] data = blobs.get(dataPtr);
            if (data == null) {
                throw new CorruptDataException(resource, Vma.OFF_CONFIG_DATA + 4 * i, "config " + i + " ('" + name
                        + "'): data pointer " + Integer.toUnsignedString(dataPtr) + " is not the start of a blob");
            }
            configs.add(new VmaConfig(name, data));
        }
        List<VmaDevice> devices = new ArrayList<>();
        for (int id = 1; id < Vma.DEVICE_SLOTS; id++) {
            int off = Vma.OFF_DEV_INFO + id * Vma.DEV_INFO_SIZE;
            int namePtr = b.getInt(off);
            long size = b.getLong(off + 8);
            if (namePtr == 0 || size == 0) {
                continue; // unused slot (the reader ignores devices of size 0, as upstream)
            }
            if (size < 0) {
                throw new CorruptDataException(resource, off + 8, "device " + id + ": size " + Long.toUnsignedString(size)
                        + " is too large");
            }
            String name = string(blobs, namePtr, off, "device " + id + " name", resource);
            if (name.isEmpty()) {
                throw new CorruptDataException(resource, off, "device " + id + ": empty name");
            }
            devices.add(new VmaDevice(id, name, size));
        }
        try {
            return new VmaHeader(uuid, ctime, configs, devices);
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(resource, Vma.OFF_DEV_INFO, e.getMessage());
        }
    }

    /** Walks the blob table: u16 little-endian length + payload, from relative offset 1. */
    private static Map<Integer, byte[]> readBlobs(byte[] whole, int blobOffset, int blobSize, String resource)
            throws CorruptDataException {
        Map<Integer, byte[]> blobs = new HashMap<>();
        int pos = 1;
        while (pos < blobSize) {
            long abs = (long) blobOffset + pos;
            if (pos + 2 > blobSize) {
                throw new CorruptDataException(resource, abs, "blob length runs past the end of the blob buffer");
            }
            int len = (whole[blobOffset + pos] & 0xff) | (whole[blobOffset + pos + 1] & 0xff) << 8;
            if (pos + 2 + len > blobSize) {
                throw new CorruptDataException(resource, abs, "blob of " + len + " bytes at blob offset " + pos
                        + " runs past the end of the blob buffer (" + blobSize + " bytes)");
            }
            blobs.put(pos, Arrays.copyOfRange(whole, blobOffset + pos + 2, blobOffset + pos + 2 + len));
            pos += 2 + len;
        }
        return blobs;
    }

    private static String string(Map<Integer, byte[]> blobs, int ptr, long fieldOffset, String what, String resource)
            throws CorruptDataException {
        byte[] blob = blobs.get(ptr);
        if (blob == null) {
            throw new CorruptDataException(resource, fieldOffset, what + ": pointer " + Integer.toUnsignedString(ptr)
                    + " is not the start of a blob");
        }
        if (blob.length == 0 || blob[blob.length - 1] != 0) {
            throw new CorruptDataException(resource, fieldOffset, what + " (blob at " + Integer.toUnsignedString(ptr)
                    + ") is not NUL-terminated");
        }
        int end = 0;
        while (blob[end] != 0) {
            end++;
        }
        return new String(blob, 0, end, StandardCharsets.UTF_8);
    }

    /**
     * Encodes the header.
     *
     * @return {@code header_size} bytes, a multiple of 512
     */
    public byte[] encode() {
        ByteBuffer blobs = ByteBuffer.allocate(blobTableSize()).order(ByteOrder.LITTLE_ENDIAN);
        blobs.put((byte) 0); // offset 0 is never a blob: a zero pointer means "absent"
        int[] cfgName = new int[configs.size()];
        int[] cfgData = new int[configs.size()];
        for (int i = 0; i < configs.size(); i++) {
            cfgName[i] = putBlob(blobs, utf8z(configs.get(i).name()));
            cfgData[i] = putBlob(blobs, configs.get(i).data());
        }
        int[] devName = new int[devices.size()];
        for (int i = 0; i < devices.size(); i++) {
            devName[i] = putBlob(blobs, utf8z(devices.get(i).name()));
        }
        int used = blobs.position();
        int headerSize = Vma.HEADER_FIXED_SIZE + roundUp(used, 512);
        byte[] out = new byte[headerSize];
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.BIG_ENDIAN);
        b.putInt(0, Vma.MAGIC);
        b.putInt(Vma.OFF_VERSION, Vma.VERSION);
        b.putLong(Vma.OFF_UUID, uuid.getMostSignificantBits());
        b.putLong(Vma.OFF_UUID + 8, uuid.getLeastSignificantBits());
        b.putLong(Vma.OFF_CTIME, ctime);
        b.putInt(Vma.OFF_BLOB_OFFSET, Vma.HEADER_FIXED_SIZE);
        b.putInt(Vma.OFF_BLOB_SIZE, used);
        b.putInt(Vma.OFF_HEADER_SIZE, headerSize);
        for (int i = 0; i < configs.size(); i++) {
            b.putInt(Vma.OFF_CONFIG_NAMES + 4 * i, cfgName[i]);
            b.putInt(Vma.OFF_CONFIG_DATA + 4 * i, cfgData[i]);
        }
        for (int i = 0; i < devices.size(); i++) {
            int off = Vma.OFF_DEV_INFO + devices.get(i).id() * Vma.DEV_INFO_SIZE;
            b.putInt(off, devName[i]);
            b.putLong(off + 8, devices.get(i).size());
        }
        System.arraycopy(blobs.array(), 0, out, Vma.HEADER_FIXED_SIZE, used);
        System.arraycopy(md5(out, Vma.OFF_MD5), 0, out, Vma.OFF_MD5, 16);
        return out;
    }

    private int blobTableSize() {
        int n = 1;
        for (VmaConfig c : configs) {
            n += 2 + utf8z(c.name()).length + 2 + c.data().length;
        }
        for (VmaDevice d : devices) {
            n += 2 + utf8z(d.name()).length;
        }
        return n;
    }

    private static int putBlob(ByteBuffer blobs, byte[] data) {
        int pos = blobs.position();
        blobs.putShort((short) data.length);
        blobs.put(data);
        return pos;
    }

    private static byte[] utf8z(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(b, b.length + 1);
    }

    private static int roundUp(int n, int to) {
        return (n + to - 1) / to * to;
    }

    /** MD5 over {@code data} with the 16 bytes at {@code md5Offset} taken as zero. */
    static byte[] md5(byte[] data, int md5Offset) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
        md.update(data, 0, md5Offset);
        md.update(new byte[16]);
        md.update(data, md5Offset + 16, data.length - md5Offset - 16);
        return md.digest();
    }

    static String hex(byte[] b, int off, int len) {
        StringBuilder s = new StringBuilder();
        for (int i = off; i < off + len; i++) {
            if (i > off && len <= 8) {
                s.append(' ');
            }
            s.append(String.format("%02x", b[i] & 0xff));
        }
        return s.toString();
    }
}
