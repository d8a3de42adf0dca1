package org.jpbs.client.http;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.util.Locale;

/**
 * Chooses the TLS engine for Netty: BoringSSL (netty-tcnative, native AES-GCM, no JIT warm-up of
 * the JDK's TLS code) when its native library loads, else the JDK's {@code SSLEngine}. The system
 * property {@code jpbs.tls} = {@code jdk} or {@code openssl} forces one (e.g.
 * {@code JPBS_JAVA_OPTS=-Djpbs.tls=jdk}); {@code openssl} fails when the library is unavailable.
 */
final class TlsEngine {
    private TlsEngine() {}

    /** The provider to build SSL contexts with. */
    static SslProvider provider() {
        String forced = System.getProperty("jpbs.tls", "").trim().toLowerCase(Locale.ROOT);
        switch (forced) {
            case "jdk":
                return SslProvider.JDK;
            case "openssl":
                if (!OpenSsl.isAvailable()) {
                    throw new IllegalStateException("-Djpbs.tls=openssl: the BoringSSL library is not available: "
                            + OpenSsl.unavailabilityCause());
                }
                return SslProvider.OPENSSL;
            case "":
                return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            default:
                throw new IllegalStateException("-Djpbs.tls must be jdk or openssl, got '" + forced + "'");
        }
    }
}
