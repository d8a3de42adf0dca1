package org.jpbs.cli.manage;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.Zstd;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.OutputFormatOption;
import org.jpbs.cli.commands.Renderer;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.cli.commands.TextTable;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.UploadSpeedTest;
import org.jpbs.core.blob.DataBlob;
import org.jpbs.core.crypto.CryptConfig;
import org.jpbs.core.digest.Digest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jpbs benchmark [--repository REPO]}: the speeds {@code proxmox-backup-client benchmark}
 * measures, each with its share of PBS's published reference ("top", an AMD Ryzen 7 2700X in
 * 2020): TLS upload to the server (only if a server repository is given, explicitly or by
 * {@code $PBS_REPOSITORY}), SHA-256, zstd level 1 compression and decompression, chunk
 * verification (decompress + SHA-256) and AES-256-GCM encryption, on 1 MiB of the same
 * pseudo-random bytes as PBS. JSON: {@code {"tls":{"speed":B/s,"top":B/s},...}} ({@code speed}
 * absent if not tested), as the PBS client prints.
 */
@Command(name = "benchmark", description = "Measure upload, hashing, compression and encryption speed (as proxmox-backup-client).")
public final class BenchmarkCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    @Mixin
    OutputFormatOption output;

    @Option(names = "--seconds", paramLabel = "S", hidden = true, description = "Seconds per test (default: as PBS, 1; compression 3, TLS 5).")
    Double seconds;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public BenchmarkCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** One measurement: the key (API field), header, PBS reference speed in bytes/s. */
    private record Test(String key, String header, double top) {}

    private static final List<Test> TESTS = List.of(
            new Test("tls", "TLS (maximal backup upload speed)", 1_000_000.0 * 1235),
            new Test("sha256", "SHA256 checksum computation speed", 1_000_000.0 * 2022),
            new Test("compress", "ZStd level 1 compression speed", 1_000_000.0 * 752),
            new Test("decompress", "ZStd level 1 decompression speed", 1_000_000.0 * 1198),
            new Test("verify", "Chunk verification speed", 1_000_000.0 * 758),
            new Test("aes256_gcm", "AES256 GCM encryption speed", 1_000_000.0 * 3645));

    @Override
    public Integer call() throws Exception {
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        for (Test t : TESTS) {
            result.putObject(t.key()).put("top", t.top());
        }
        if (repo.explicitOrEnv(ctx)) { // the server first: it may ask for a password; a local directory is a usage error
            try (PbsClient pbs = repo.serverClient(ctx, "benchmark")) {
                speed(result, "tls", UploadSpeedTest.run(pbs, millis(5)));
            }
        }
        byte[] data = PbsData.oneMiB();
        MessageDigest sha = Digest.newSha256();
        speed(result, "sha256", measure(millis(1), () -> sha.digest(data)));
        speed(result, "compress", measure(millis(3), () -> Zstd.compress(data, 1)));
        byte[] compressed = Zstd.compress(data, 1);
        speed(result, "decompress", measure(millis(1), () -> Zstd.decompress(compressed, data.length)));
        DataBlob chunk = DataBlob.encode(data, 0, data.length, true);
        Digest digest = Digest.sha256(data);
        speed(result, "verify", measure(millis(1), () -> {
            byte[] plain = chunk.decode("benchmark", data.length);
            if (!Digest.sha256(plain).equals(digest)) {
                throw new IllegalStateException("benchmark chunk does not verify");
            }
        }));
        CryptConfig crypt = CryptConfig.of(CryptConfig.randomKey());
        speed(result, "aes256_gcm", measure(millis(1), () -> DataBlob.encodeEncrypted(data, 0, data.length, false, crypt)));
        render(result);
        return 0;
    }

    private long millis(double pbsSeconds) {
        return Math.round((seconds != null ? seconds : pbsSeconds) * 1000);
    }

    private static void speed(ObjectNode result, String key, double bytesPerSecond) {
        ((ObjectNode) result.get(key)).put("speed", bytesPerSecond);
    }

    private interface Work {
        void run() throws Exception;
    }

    /** Repeats {@code w} on 1 MiB until {@code millis} have passed; bytes per second. */
    private static double measure(long millis, Work w) throws Exception {
        w.run(); // untimed: class loading and cipher set-up are not the speed being measured
        long start = System.nanoTime();
        long bytes = 0;
        do {
            w.run();
            bytes += UploadSpeedTest.ITEM;
        } while (System.nanoTime() - start < millis * 1_000_000L);
        return bytes / ((System.nanoTime() - start) / 1e9);
    }

    private void render(ObjectNode result) {
        Renderer r = output.renderer(ctx);
        if (!r.isText()) {
            r.json(result);
            return;
        }
        TextTable t = new TextTable(List.of("Name", "Value"));
        for (Test test : TESTS) {
            var v = result.get(test.key());
            List<String> row = new ArrayList<>();
            row.add(test.header());
            row.add(v.has("speed") ? String.format(Locale.ROOT, "%.2f MB/s (%.0f%%)", v.get("speed").asDouble() / 1e6,
                    v.get("speed").asDouble() * 100 / test.top()) : "not tested");
            t.add(row);
        }
        t.print(ctx.out());
    }

    /** PBS's benchmark input: 1 MiB of the little-endian bytes of 0, 1, 2, ... as 32-bit words. */
    static final class PbsData {
        private PbsData() {}

        static byte[] oneMiB() {
            byte[] b = new byte[1024 * 1024];
            for (int i = 0; i < 256 * 1024; i++) {
                for (int j = 0; j < 4; j++) {
                    b[i * 4 + j] = (byte) (i >> (j * 8));
                }
            }
            return b;
        }
    }
}
