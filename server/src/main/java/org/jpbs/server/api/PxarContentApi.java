package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jpbs.core.api.ArchiveName;
import org.jpbs.core.api.BackupSnapshotRef;
import org.jpbs.core.manifest.CryptMode;
import org.jpbs.core.pxar.ArchiveNames;
import org.jpbs.core.pxar.IndexReadAt;
import org.jpbs.core.pxar.PxarAccessor;
import org.jpbs.core.pxar.ReadAt;
import org.jpbs.core.pxar.catalog.CatalogDump;
import org.jpbs.core.pxar.catalog.CatalogReader;
import org.jpbs.core.pxar.catalog.DirectoryListing;
import org.jpbs.core.pxar.export.TarExport;
import org.jpbs.core.pxar.export.ZipExport;
import org.jpbs.core.snapshot.SnapshotSource;
import org.jpbs.datastore.config.DatastoreHandle;
import org.jpbs.datastore.config.Operation;
import org.jpbs.datastore.snapshot.LocalSnapshotSource;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.H2Response;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.routing.ApiParams;

/**
 * The file-archive content calls of PBS's datastore API ({@code docs/api.md#file-archives-get-catalog-get-pxar-file-download},
 * PBS {@code src/api2/admin/datastore.rs}): {@code GET catalog} lists one directory of a
 * snapshot's catalog (or, with {@code archive-name}, of an archive itself), {@code GET
 * pxar-file-download} sends one file raw or a directory as a zip ({@code tar}: a
 * {@code .tar.zst}). Both need {@code Datastore.Read}, or {@code Datastore.Backup} as the
 * group's owner; encrypted catalogs and archives are refused (the server has no key). Paths
 * are base64; only the chunks a listing or a file needs are read (goodbye tables, catalog
 * tables). Stateless.
 */
final class PxarContentApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final String CATALOG = "catalog.pcat1.didx";
    /** Decoded chunks kept per request: a lookup touches a few, a listing a few more. */
    private static final int CACHE_CHUNKS = 16;

    private PxarContentApi() {}

    /** The check of {@code archive-name}: an archive name ({@code root.pxar} or {@code root.pxar.didx}). */
    static void checkArchiveName(ApiParams p) {
        p.opt("archive-name").ifPresent(n -> serverName(n, true));
    }

    /** {@code GET .../catalog} (snapshot, {@code filepath}, {@code archive-name}). */
    static RestResponse catalog(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = DatastoreApi.snapshotParam(p);
        String filepath = p.required("filepath");
        Optional<String> archive = p.opt("archive-name").map(n -> serverName(n, true));
        try (DatastoreHandle h = DatastoreApi.checkSnapshotAccess(acc, store, ref, Access.READ, Access.BACKUP,
                Operation.READ); SnapshotSource src = open(h, ref)) {
            String file = archive.orElse(CATALOG);
            refuseEncrypted(src, file);
            byte[] path = decodePath(filepath);
            List<DirectoryListing.Item> items;
            if (archive.isEmpty()) {
                items = DirectoryListing.fromCatalog(new CatalogReader(readAt(src, CATALOG)), path);
            } else {
                ArchiveNames names = ArchiveNames.resolve(file, src.manifest());
                items = DirectoryListing.fromArchive(new PxarAccessor(readAt(src, names.metadata())), path);
            }
            ArrayNode out = F.arrayNode();
            for (DirectoryListing.Item i : items) {
                ObjectNode o = out.addObject();
                o.put("filepath", Base64.getEncoder().encodeToString(i.path()));
                o.put("text", new String(i.name(), StandardCharsets.UTF_8));
                o.put("type", String.valueOf(i.type()));
                o.put("leaf", i.leaf());
                if (i.isFile()) {
                    o.put("size", i.size());
                    o.put("mtime", i.mtime());
                }
            }
            return RestResponse.data(out);
        }
    }

    /** {@code GET .../pxar-file-download} (snapshot, {@code filepath}, {@code tar}, {@code archive-name}). */
    static RestResponse download(Access acc, String store, ApiParams p) throws IOException {
        BackupSnapshotRef ref = DatastoreApi.snapshotParam(p);
        String filepath = p.required("filepath");
        boolean tar = p.bool("tar", false);
        Optional<String> archive = p.opt("archive-name").map(n -> serverName(n, true));
        DatastoreHandle h = DatastoreApi.checkSnapshotAccess(acc, store, ref, Access.READ, Access.BACKUP, Operation.READ);
        try {
            SnapshotSource src = open(h, ref);
            byte[] components = base64(filepath);
            if (components.length > 0 && components[0] == '/') {
                components = Arrays.copyOfRange(components, 1, components.length);
            }
            String pxarName;
            byte[] filePath;
            if (archive.isPresent()) {
                pxarName = archive.get();
                filePath = base64(filepath);
            } else {
                int slash = 0;
                while (slash < components.length && components[slash] != '/') {
                    slash++;
                }
                pxarName = serverName(utf8(Arrays.copyOf(components, slash)), false);
                filePath = slash < components.length ? Arrays.copyOfRange(components, slash + 1, components.length)
                        : new byte[] {'/'};
            }
            refuseEncrypted(src, pxarName);
            ArchiveNames names = ArchiveNames.resolve(pxarName, src.manifest());
            PxarAccessor accessor = new PxarAccessor(readAt(src, names.metadata()),
                    names.isSplit() ? readAt(src, names.payload()) : null);
            PxarAccessor.Node node = accessor.lookup(filePath);
            if (node == null) {
                throw ApiException.badRequest("error opening '" + CatalogDump.quote(filePath) + "'");
            }
            RestResponse.BodyWriter body = switch (node.entry().kind()) {
                case FILE, HARDLINK -> {
                    InputStream in = accessor.open(node);
                    yield out -> {
                        try (in) {
                            in.transferTo(out);
                        }
                    };
                }
                case DIRECTORY -> tar ? out -> TarExport.write(accessor, node, out) : out -> ZipExport.write(accessor, node, out);
                default -> throw ApiException.badRequest("cannot download file of type "
                        + DirectoryListing.kindName(node.entry()));
            };
            return RestResponse.streamed(H2Response.OCTET_STREAM, out -> {
                try (h) {
                    body.writeTo(out);
                }
            });
        } catch (IOException | RuntimeException e) {
            h.close();
            throw e;
        }
    }

    private static SnapshotSource open(DatastoreHandle h, BackupSnapshotRef ref) throws IOException {
        DatastoreApi.requireSnapshot(h.datastore(), ref);
        return LocalSnapshotSource.open(h.datastore(), ref);
    }

    /** An archive of the snapshot (checked against the manifest) with its chunks loaded on demand. */
    private static ReadAt readAt(SnapshotSource src, String name) throws IOException {
        if (src.manifest().file(name).isEmpty()) {
            throw ApiException.badRequest("unable to read dynamic index '" + name + "' - No such file or directory (os error 2)");
        }
        return new IndexReadAt(src.openIndex(name), src, null, name, CACHE_CHUNKS);
    }

    /** As PBS: the server holds no key, so an encrypted file cannot be read. */
    private static void refuseEncrypted(SnapshotSource src, String name) {
        src.manifest().file(name).filter(f -> f.cryptMode() == CryptMode.ENCRYPT).ifPresent(f -> {
            throw ApiException.badRequest("cannot decode '" + name + "' - is encrypted");
        });
    }

    /** PBS {@code decode_path}: {@code root} and {@code /} are the root, anything else is base64. */
    private static byte[] decodePath(String path) {
        return path.equals("root") || path.equals("/") ? new byte[] {'/'} : base64(path);
    }

    private static byte[] base64(String s) {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("base64 decoding of path failed - " + e.getMessage());
        }
    }

    private static String utf8(byte[] b) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw ApiException.badRequest("invalid utf-8 sequence in archive name");
        }
    }

    /** An archive name as the server stores it ({@code root.pxar} becomes {@code root.pxar.didx}). */
    private static String serverName(String name, boolean param) {
        try {
            return ArchiveName.toServerName(name);
        } catch (IllegalArgumentException e) {
            throw param ? ApiException.badParam("archive-name", e.getMessage()) : ApiException.badRequest(e.getMessage());
        }
    }
}
