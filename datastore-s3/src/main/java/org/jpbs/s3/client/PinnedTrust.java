package org.jpbs.s3.client;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts exactly the server certificate whose SHA-256 fingerprint is configured (as PBS does for a
 * self-hosted endpoint with {@code fingerprint}): the leaf certificate's fingerprint must match;
 * no CA and no host name are checked.
 */
final class PinnedTrust implements X509TrustManager {
    private final String fingerprint;

    PinnedTrust(String fingerprint) {
        this.fingerprint = fingerprint.toLowerCase(Locale.ROOT);
    }

    /** The {@code aa:bb:…} SHA-256 fingerprint of a certificate. */
    static String fingerprint(X509Certificate cert) throws CertificateEncodingException {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
            return HexFormat.ofDelimiter(":").formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("s3 endpoint sent no certificate");
        }
        String got = fingerprint(chain[0]);
        if (!got.equals(fingerprint)) {
            throw new CertificateException("s3 endpoint certificate fingerprint " + got
                    + " does not match the configured fingerprint " + fingerprint);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("not a server trust manager");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
