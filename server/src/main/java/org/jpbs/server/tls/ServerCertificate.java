package org.jpbs.server.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The server's TLS identity, kept like PBS keeps it ({@code docs/protocol.md#transport}): the
 * certificate chain in {@code <configDir>/proxy.pem}, the private key in
 * {@code <configDir>/proxy.key} (PEM; PKCS#8, PKCS#1 and SEC1 keys are read, so a PBS key
 * works). If neither file exists, a self-signed EC P-256 certificate (SHA256withECDSA, 10
 * years, SAN localhost/127.0.0.1/::1 and the host name) is created; both files are written
 * to a temp name and renamed, the key with mode 0600. Clients pin the certificate by
 * {@link #fingerprint()} ({@code docs/protocol.md#authentication}).
 */
public final class ServerCertificate {
    /** Certificate file name in the config directory. */
    public static final String CERT_FILE = "proxy.pem";
    /** Key file name in the config directory. */
    public static final String KEY_FILE = "proxy.key";

    private final PrivateKey key;
    private final List<X509Certificate> chain;

    private ServerCertificate(PrivateKey key, List<X509Certificate> chain) {
        this.key = key;
        this.chain = List.copyOf(chain);
    }

    /**
     * Loads {@code proxy.pem}/{@code proxy.key} from {@code configDir}, creating the directory
     * and a self-signed pair first if neither file exists.
     *
     * @throws IOException if only one of the files exists, or they cannot be read or parsed
     */
    public static ServerCertificate loadOrCreate(Path configDir) throws IOException {
        Files.createDirectories(configDir);
        Path cert = configDir.resolve(CERT_FILE);
        Path key = configDir.resolve(KEY_FILE);
        boolean hasCert = Files.exists(cert);
        boolean hasKey = Files.exists(key);
        if (!hasCert && !hasKey) {
            create(cert, key);
        } else if (hasCert != hasKey) {
            throw new IOException("TLS identity incomplete in " + configDir + ": found only "
                    + (hasCert ? CERT_FILE : KEY_FILE) + " (remove it to have a new pair created)");
        }
        return load(cert, key);
    }

    private static ServerCertificate load(Path certFile, Path keyFile) throws IOException {
        List<X509Certificate> certs = new ArrayList<>();
        JcaX509CertificateConverter conv = new JcaX509CertificateConverter();
        try (Reader r = Files.newBufferedReader(certFile, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            for (Object o = p.readObject(); o != null; o = p.readObject()) {
                if (o instanceof X509CertificateHolder h) {
                    certs.add(conv.getCertificate(h));
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IOException(certFile + ": invalid certificate: " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IOException(certFile + ": no PEM certificate found");
        }
        PrivateKey pk = null;
        JcaPEMKeyConverter kc = new JcaPEMKeyConverter();
        try (Reader r = Files.newBufferedReader(keyFile, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            for (Object o = p.readObject(); o != null && pk == null; o = p.readObject()) {
                if (o instanceof PrivateKeyInfo info) {
                    pk = kc.getPrivateKey(info);
                } else if (o instanceof PEMKeyPair pair) {
                    pk = kc.getKeyPair(pair).getPrivate();
                }
            }
        }
        if (pk == null) {
            throw new IOException(keyFile + ": no unencrypted PEM private key found");
        }
        return new ServerCertificate(pk, certs);
    }

    private static void create(Path certFile, Path keyFile) throws IOException {
        KeyPair kp;
        X509Certificate cert;
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            kp = g.generateKeyPair();
            String host = hostName();
            X500Name name = new X500Name("CN=" + host + ",OU=jpbs self-signed,O=jpbs");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name,
                    new BigInteger(64, new SecureRandom()).abs().add(BigInteger.ONE),
                    Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(3650))),
                    name, kp.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            List<ASN1Encodable> san = new ArrayList<>();
            san.add(new GeneralName(GeneralName.dNSName, "localhost"));
            if (!host.equals("localhost")) {
                san.add(new GeneralName(GeneralName.dNSName, host));
            }
            san.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
            san.add(new GeneralName(GeneralName.iPAddress, "::1"));
            b.addExtension(Extension.subjectAlternativeName, false, new DERSequence(san.toArray(ASN1Encodable[]::new)));
            cert = new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(kp.getPrivate())));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot create a self-signed certificate: " + e.getMessage(), e);
        }
        writeAtomically(keyFile, pem(new JcaPKCS8Generator(kp.getPrivate(), null)), true);
        writeAtomically(certFile, pem(cert), false);
    }

    private static String hostName() {
        String h = System.getenv("HOSTNAME");
        if (h == null || !h.matches("[A-Za-z0-9]([A-Za-z0-9.-]{0,250}[A-Za-z0-9])?")) {
            return "localhost";
        }
        return h;
    }

    private static byte[] pem(Object o) throws IOException {
        StringWriter sw = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(sw)) {
            w.writeObject(o instanceof JcaPKCS8Generator g ? g.generate() : o);
        }
        return sw.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static void writeAtomically(Path target, byte[] data, boolean secret) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp-" + Long.toHexString(System.nanoTime()));
        try {
            try {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--")));
            } catch (UnsupportedOperationException e) {
                Files.createFile(tmp);
            }
            Files.write(tmp, data);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target);
            }
        } catch (FileAlreadyExistsException e) {
            throw new IOException("cannot write " + target + ": " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The private key. */
    public PrivateKey key() {
        return key;
    }

    /** The certificate chain, leaf first. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** SHA-256 fingerprint of the leaf certificate (see {@link #fingerprint(X509Certificate)}). */
    public String fingerprint() {
        return fingerprint(chain.getFirst());
    }

    /**
     * SHA-256 of the certificate's DER encoding as 32 lower-case hex pairs joined by {@code ':'},
     * the form PBS shows and clients compare ({@code PBS_FINGERPRINT}).
     */
    public static String fingerprint(X509Certificate cert) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
            return HexFormat.ofDelimiter(":").formatHex(d);
        } catch (CertificateEncodingException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot compute certificate fingerprint", e);
        }
    }

    /**
     * A Netty server context on the JDK TLS engine, TLS 1.3 and 1.2, without ALPN (a PBS server
     * must not offer h2 via ALPN, {@code docs/protocol.md#transport}).
     */
    public SslContext serverContext() throws IOException {
        return SslContextBuilder.forServer(key, chain)
                .sslProvider(TlsEngine.provider())
                .protocols("TLSv1.3", "TLSv1.2")
                .build();
    }
}
