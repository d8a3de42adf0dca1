package org.jpbs.datastore.config;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generation counters of the configuration files, shared by every jpbs process that uses the
 * same config directory — the jpbs counterpart of PBS's {@code ConfigVersionCache} ({@code docs/datastore-config.md#the-datastore-cache}). A 4 KiB file {@code <config>/.config-versions} is mapped
 * into memory (FFM {@link MemorySegment}); reading a counter is one volatile memory read (no
 * system call), and every write of {@code datastore.cfg} through jpbs increments its counter
 * atomically, so readers in all processes notice it on their next lookup.
 *
 * <p>Layout: bytes 0..7 magic (first 8 bytes of SHA-256 of {@code "jpbs ConfigVersionCache
 * v1"}), then one little-endian/native {@code u64} counter per file at 8-aligned offsets
 * ({@link #DATASTORE_OFFSET}: {@code datastore.cfg}; {@link #AUTH_OFFSET}: the user, token and ACL
 * files). If the file cannot be created or mapped (e.g. a read-only config
 * directory), the counters fall back to in-process ones (shared within this JVM only). Thread-safe.
 */
public final class ConfigVersions {
    /** File name in the config directory. */
    public static final String FILE = ".config-versions";
    static final long SIZE = 4096;
    static final long DATASTORE_OFFSET = 64;
    static final long AUTH_OFFSET = 72;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final byte[] MAGIC = magic();
    private static final ConcurrentHashMap<Path, AtomicLong[]> LOCAL = new ConcurrentHashMap<>();

    private final MemorySegment segment; // null: in-process fallback
    private final AtomicLong local;
    private final AtomicLong localAuth;

    private ConfigVersions(MemorySegment segment, AtomicLong[] local) {
        this.segment = segment;
        this.local = local == null ? null : local[0];
        this.localAuth = local == null ? null : local[1];
    }

    private static byte[] magic() {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest("jpbs ConfigVersionCache v1".getBytes(StandardCharsets.US_ASCII));
            return Arrays.copyOf(h, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Maps {@code <configDir>/.config-versions}, creating it if needed; falls back to in-process counters. */
    public static ConfigVersions open(Path configDir) {
        Path dir = configDir.toAbsolutePath().normalize();
        try {
            return new ConfigVersions(map(dir.resolve(FILE)), null);
        } catch (IOException | RuntimeException e) {
            System.getLogger(ConfigVersions.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot map " + dir.resolve(FILE) + " (" + e.getMessage() + "); config generations are per process");
            return new ConfigVersions(null, LOCAL.computeIfAbsent(dir, k -> new AtomicLong[] {new AtomicLong(), new AtomicLong()}));
        }
    }

    private static MemorySegment map(Path file) throws IOException {
        synchronized (LOCAL) { // one JVM may not hold two locks on one file: map one at a time
            return mapLocked(file);
        }
    }

    private static MemorySegment mapLocked(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            try (FileLock ignored = ch.lock()) {
                byte[] head = new byte[8];
                ByteBuffer b = ByteBuffer.wrap(head);
                if (ch.size() >= SIZE) {
                    ch.read(b, 0);
                }
                if (ch.size() < SIZE || !Arrays.equals(head, MAGIC)) {
                    ByteBuffer zero = ByteBuffer.allocate((int) SIZE);
                    zero.put(MAGIC).rewind();
                    while (zero.hasRemaining()) {
                        ch.write(zero, zero.position());
                    }
                    ch.force(false);
                }
            }
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE, Arena.ofAuto());
        }
    }

    /** True if the counters are shared between processes (the file is mapped). */
    public boolean shared() {
        return segment != null;
    }

    /** The generation of {@code datastore.cfg}: changes whenever jpbs writes it. */
    public long datastoreGeneration() {
        return segment == null ? local.get() : (long) LONG.getVolatile(segment, DATASTORE_OFFSET);
    }

    /** The generation of the authentication files ({@code user.cfg}, {@code acl.cfg}, shadow files). */
    public long authGeneration() {
        return segment == null ? localAuth.get() : (long) LONG.getVolatile(segment, AUTH_OFFSET);
    }

    /** Increments the authentication files' generation; returns the new value. */
    public long bumpAuth() {
        return segment == null ? localAuth.incrementAndGet() : (long) LONG.getAndAdd(segment, AUTH_OFFSET, 1L) + 1;
    }

    /** Increments the {@code datastore.cfg} generation; returns the new value. */
    public long bumpDatastore() {
        return segment == null ? local.incrementAndGet() : (long) LONG.getAndAdd(segment, DATASTORE_OFFSET, 1L) + 1;
    }
}
