import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;

/**
 * The S3 server of bench/s3-backup-restore.sh: s3proxy on https://127.0.0.1:PORT with a fresh
 * self-signed certificate (JDK keytool), bucket BUCKET, access key jpbs-bench / secret
 * jpbs-bench-secret-key; the objects are files below DATA_DIR (s3proxy's filesystem-nio2 store,
 * the script puts it on tmpfs), or in the JVM's heap (its in-memory store) when DATA_DIR is
 * "memory". Prints "listening on 127.0.0.1:PORT fingerprint FP" and runs until killed.
 * Usage: java -cp S3PROXY_CLASSPATH bench/S3BenchServer.java WORKDIR PORT BUCKET [DATA_DIR|memory]
 */
public final class S3BenchServer {
    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 4) {
            System.err.println("usage: S3BenchServer WORKDIR PORT BUCKET [DATA_DIR|memory]");
            System.exit(2);
        }
        Path work = Path.of(args[0]);
        int port = Integer.parseInt(args[1]);
        Files.createDirectories(work);
        Path ks = work.resolve("s3-bench.p12");
        Files.deleteIfExists(ks);
        String pw = "jpbs-bench";
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "s3", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", ks.toString(), "-storepass", pw, "-keypass", pw).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + new String(out));
        }
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ks)) {
            keyStore.load(in, pw.toCharArray());
        }
        X509Certificate cert = (X509Certificate) keyStore.getCertificate("s3");
        String fp = HexFormat.ofDelimiter(":").formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore, pw.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        String data = args.length == 4 ? args[3] : "memory";
        BlobStore store;
        if (data.equals("memory")) {
            store = new TransientNio2BlobStore();
        } else {
            Files.createDirectories(Path.of(data));
            store = new FilesystemNio2BlobStore(data);
        }
        store.createContainer(args[2]);
        S3Proxy proxy = S3Proxy.builder().blobStore(store)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "jpbs-bench", "jpbs-bench-secret-key")
                .secureEndpoint(URI.create("https://127.0.0.1:" + port)).sslContext(ctx).build();
        proxy.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        System.out.println("listening on 127.0.0.1:" + proxy.getSecurePort() + " fingerprint " + fp);
        System.out.flush();
        Thread.currentThread().join();
    }
}
