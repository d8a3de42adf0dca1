package org.jpbs.client.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Which server certificates to trust ({@code docs/protocol.md#authentication}, "Client-side TLS
 * trust"): a certificate is accepted if the JDK trust store validates its chain and host name,
 * or if the SHA-256 fingerprint of the leaf certificate (DER) equals the pinned one
 * ({@code PBS_FINGERPRINT} / {@code --fingerprint}: 32 hex pairs joined by {@code :},
 * case-insensitive). Anything else is refused with a message that shows the fingerprint, so the
 * user can check and pin it. Immutable; {@link #newVerifier()} gives one verifier per connection.
 */
public final class TlsTrust {
    private static final Pattern FINGERPRINT = Pattern.compile("(?i)[0-9a-f]{2}(:[0-9a-f]{2}){31}");

    private final String pinned;

    private TlsTrust(String pinned) {
        this.pinned = pinned;
    }

    /** Trust the JDK trust store only. */
    public static TlsTrust system() {
        return new TlsTrust(null);
    }

    /**
     * Trust the JDK trust store and, in addition, the certificate with this fingerprint.
     *
     * @param fingerprint {@code ab:cd:...} (32 pairs, any case), or null/empty for none
     * @throws IllegalArgumentException if it is not 32 colon-separated hex pairs
     */
    public static TlsTrust pinned(String fingerprint) {
        if (fingerprint == null || fingerprint.isBlank()) {
            return system();
        }
        String f = fingerprint.strip();
        if (!FINGERPRINT.matcher(f).matches()) {
            throw new IllegalArgumentException("invalid certificate fingerprint '" + f
                    + "' (expected 32 hex pairs separated by ':', e.g. ab:cd:...)");
        }
        return new TlsTrust(f.toLowerCase(Locale.ROOT));
    }

    /** The pinned fingerprint in lower case, or null. */
    public String pinnedFingerprint() {
        return pinned;
    }

    /** SHA-256 of the certificate's DER encoding as 32 lower-case hex pairs joined by {@code :}. */
    public static String fingerprint(X509Certificate cert) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
            return HexFormat.ofDelimiter(":").formatHex(d);
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot fingerprint the server certificate: " + e, e);
        }
    }

    /** A fresh verifier (it remembers why it refused a certificate) for one connection. */
    Verifier newVerifier() {
        return new Verifier(pinned);
    }

    /**
     * The trust manager of one connection: pinned fingerprint first, then the JDK trust store
     * (with host name check). Remembers the fingerprint it saw and its refusal message.
     */
    static final class Verifier extends X509ExtendedTrustManager {
        private final String pinned;
        private volatile String seenFingerprint;
        private volatile String refusal;

        Verifier(String pinned) {
            this.pinned = pinned;
        }

        /** An SSL context for a client connection using this verifier (JDK engine, TLS 1.3/1.2, no ALPN). */
        SslContext sslContext() throws SSLException {
            return SslContextBuilder.forClient().sslProvider(TlsEngine.provider()).trustManager((TrustManager) this)
                    .protocols("TLSv1.3", "TLSv1.2").endpointIdentificationAlgorithm("HTTPS").build();
        }

        /** The leaf fingerprint of the last certificate checked, or null. */
        String seenFingerprint() {
            return seenFingerprint;
        }

        /** Why the certificate was refused, or null. */
        String refusal() {
            return refusal;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain, authType, engine);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain, authType, null);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, authType, null);
        }

        private void check(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            if (chain == null || chain.length == 0) {
                throw refuse("the server sent no certificate");
            }
            String fp = fingerprint(chain[0]);
            seenFingerprint = fp;
            if (fp.equals(pinned)) {
                return;
            }
            try {
                X509ExtendedTrustManager jdk = jdkTrustManager();
                if (engine != null) {
                    jdk.checkServerTrusted(chain, authType, engine);
                } else {
                    jdk.checkServerTrusted(chain, authType);
                }
                return;
            } catch (GeneralSecurityException e) {
                // not valid by the trust store: only the fingerprint could make it trusted
            }
            String msg = "certificate fingerprint " + fp + " is not trusted"
                    + (pinned != null ? " (expected " + pinned + ")" : "")
                    + "; set PBS_FINGERPRINT=" + fp + " to trust it";
            throw refuse(msg);
        }

        private CertificateException refuse(String msg) {
            refusal = msg;
            return new CertificateException(msg);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("client certificates are not checked by a client");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("client certificates are not checked by a client");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("client certificates are not checked by a client");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    private static volatile X509ExtendedTrustManager jdkDefault;

    private static X509ExtendedTrustManager jdkTrustManager() throws GeneralSecurityException {
        X509ExtendedTrustManager tm = jdkDefault;
        if (tm == null) {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init((KeyStore) null);
            for (TrustManager t : f.getTrustManagers()) {
                if (t instanceof X509ExtendedTrustManager x) {
                    tm = x;
                    break;
                }
            }
            if (tm == null) {
                throw new GeneralSecurityException("the JDK has no X509 trust manager");
            }
            jdkDefault = tm;
        }
        return tm;
    }
}
