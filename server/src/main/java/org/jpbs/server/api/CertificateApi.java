package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import org.jpbs.server.auth.Privilege;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestResponse;
import org.jpbs.server.tls.ServerCertificate;

/**
 * {@code GET nodes/{node}/certificates/info} as PBS ({@code docs/api.md#nodes}): {@code Sys.Audit}
 * on {@code /system/certificates}; one entry for {@code proxy.pem} with {@code filename},
 * {@code fingerprint} (SHA-256, the one clients pin), {@code subject}, {@code issuer},
 * {@code notbefore}, {@code notafter} (epoch seconds), {@code san}, {@code public-key-type},
 * {@code public-key-bits} and {@code pem}.
 */
final class CertificateApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private CertificateApi() {}

    static RestResponse info(Access acc, Path configDir) throws IOException {
        if ((acc.auth().privileges(acc.authid(), List.of("system", "certificates")) & Privilege.SYS_AUDIT.bit()) == 0) {
            throw new ApiException(403, "permission check failed");
        }
        Path file = configDir.resolve(ServerCertificate.CERT_FILE);
        byte[] pem = Files.readAllBytes(file);
        X509Certificate cert;
        try (InputStream in = new java.io.ByteArrayInputStream(pem)) {
            cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (CertificateException e) {
            throw new IOException("the server certificate " + ServerCertificate.CERT_FILE + " cannot be parsed", e);
        }
        ObjectNode o = F.objectNode();
        o.put("filename", ServerCertificate.CERT_FILE);
        o.put("fingerprint", ServerCertificate.fingerprint(cert));
        o.put("issuer", cert.getIssuerX500Principal().getName());
        o.put("notafter", cert.getNotAfter().toInstant().getEpochSecond());
        o.put("notbefore", cert.getNotBefore().toInstant().getEpochSecond());
        o.put("pem", new String(pem, StandardCharsets.US_ASCII));
        o.put("public-key-bits", cert.getPublicKey() instanceof RSAPublicKey r ? r.getModulus().bitLength()
                : cert.getPublicKey() instanceof ECPublicKey ec ? ec.getParams().getOrder().bitLength() : 0);
        o.put("public-key-type", cert.getPublicKey() instanceof RSAPublicKey ? "rsaEncryption"
                : cert.getPublicKey() instanceof ECPublicKey ? "id-ecPublicKey" : cert.getPublicKey().getAlgorithm());
        ArrayNode san = o.putArray("san");
        try {
            if (cert.getSubjectAlternativeNames() != null) {
                for (List<?> n : cert.getSubjectAlternativeNames()) {
                    san.add(String.valueOf(n.get(1)));
                }
            }
        } catch (java.security.cert.CertificateParsingException e) {
            // no readable SAN: an empty list
        }
        o.put("subject", cert.getSubjectX500Principal().getName());
        ArrayNode out = F.arrayNode();
        out.add(o);
        return RestResponse.data(out);
    }
}
