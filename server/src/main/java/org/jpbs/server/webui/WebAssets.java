package org.jpbs.server.webui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The web interface's files, read once from the class path: the ones named in the resource
 * {@code org/jpbs/server/webui/assets.list} (one relative path a line) plus the chart library
 * from its WebJar. Each file has an ETag (its SHA-256); the whole set has a build id (SHA-256
 * over all files), which is part of every asset URL ({@code /ui/<build>/app.js}), so assets can
 * be cached for a year and a new jar's pages never meet an old cached module.
 */
public final class WebAssets {
    private static final String BASE = "org/jpbs/server/webui/";
    /** Files of WebJars served under {@code vendor/}: served name → class path resource. */
    private static final Map<String, String> VENDOR = Map.of(
            "vendor/uPlot.esm.js", "META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.esm.js",
            "vendor/uPlot.min.css", "META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.min.css");

    /** One file: its bytes, content type and ETag. */
    public record Asset(byte[] body, String contentType, String etag) {}

    private final Map<String, Asset> files;
    private final String build;

    private WebAssets(Map<String, Asset> files, String build) {
        this.files = files;
        this.build = build;
    }

    /**
     * Loads every asset.
     *
     * @throws UncheckedIOException if the list names a missing resource (a broken jar)
     */
    public static WebAssets load() {
        ClassLoader cl = WebAssets.class.getClassLoader();
        Map<String, String> sources = new LinkedHashMap<>();
        for (String line : new String(read(cl, BASE + "assets.list"), StandardCharsets.UTF_8).split("\n")) {
            String name = line.strip();
            if (!name.isEmpty() && !name.startsWith("#")) {
                sources.put(name, BASE + name);
            }
        }
        sources.putAll(new java.util.TreeMap<>(VENDOR));
        Map<String, Asset> files = new LinkedHashMap<>();
        MessageDigest all = sha256();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            byte[] body = read(cl, e.getValue());
            String hash = HexFormat.of().formatHex(sha256().digest(body));
            all.update(e.getKey().getBytes(StandardCharsets.UTF_8));
            all.update(body);
            files.put(e.getKey(), new Asset(body, contentType(e.getKey()), "\"" + hash.substring(0, 32) + "\""));
        }
        return new WebAssets(java.util.Collections.unmodifiableMap(files), HexFormat.of().formatHex(all.digest()).substring(0, 16));
    }

    /** The build id: a hash over every file (changes whenever one does). */
    public String build() {
        return build;
    }

    /** The names of every file, in load order. */
    public java.util.Set<String> names() {
        return files.keySet();
    }

    /** The file at {@code name} (relative, e.g. {@code app.js}), if it is one of ours. */
    public Optional<Asset> get(String name) {
        return Optional.ofNullable(files.get(name));
    }

    static String contentType(String name) {
        String ext = name.substring(name.lastIndexOf('.') + 1);
        return switch (ext) {
            case "html" -> "text/html; charset=utf-8";
            case "js" -> "text/javascript; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            case "svg" -> "image/svg+xml";
            case "png" -> "image/png";
            case "ico" -> "image/x-icon";
            default -> "application/octet-stream";
        };
    }

    private static byte[] read(ClassLoader cl, String resource) {
        try (InputStream in = cl.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("web interface resource missing from the jar: " + resource));
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
