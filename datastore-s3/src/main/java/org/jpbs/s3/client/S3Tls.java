package org.jpbs.s3.client;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import org.conscrypt.Conscrypt;

/**
 * The TLS engine of the S3 client: BoringSSL through Conscrypt's JSSE provider when its native
 * library loads, else the JDK's. In a short-lived command the JDK's AES-GCM runs in its plain Java
 * form until the JIT has compiled the record path, which took seconds (docs/s3.md#tls); BoringSSL's
 * is native from the first record. {@code -Djpbs.s3.tls=jdk} or {@code boringssl} forces one.
 */
final class S3Tls {
    private static volatile Provider provider;

    private S3Tls() {}

    /** Whether the S3 client uses BoringSSL. */
    static boolean useBoringSsl() {
        String forced = System.getProperty("jpbs.s3.tls", "").trim().toLowerCase(Locale.ROOT);
        switch (forced) {
            case "jdk":
                return false;
            case "boringssl":
                if (!Conscrypt.isAvailable()) {
                    throw new IllegalStateException("-Djpbs.s3.tls=boringssl: Conscrypt's native library is not available");
                }
                return true;
            case "":
                return available();
            default:
                throw new IllegalStateException("-Djpbs.s3.tls must be jdk or boringssl, got '" + forced + "'");
        }
    }

    private static boolean available() {
        try {
            return Conscrypt.isAvailable();
        } catch (LinkageError e) {
            return false;
        }
    }

    /** A new, uninitialised TLS context of Conscrypt's provider. */
    static SSLContext boringSslContext() throws GeneralSecurityException {
        Provider p = provider;
        if (p == null) {
            synchronized (S3Tls.class) {
                if (provider == null) {
                    provider = Conscrypt.newProvider();
                }
                p = provider;
            }
        }
        return SSLContext.getInstance("TLS", p);
    }
}
