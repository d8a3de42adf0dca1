package org.jpbs.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.jpbs.datastore.snapshot.Datastore;
import org.jpbs.datastore.chunks.SyncLevel;
import org.jpbs.server.ServerConfig;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.RestRequest;
import org.jpbs.server.http.RestResponse;
import org.jpbs.testkit.DatastorePool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dispatch from the routing table ({@link ApiRoutes}), called without a network: PBS's order of
 * checks (404, 401, path variables, store privileges 403, parameters 400) and the refusal of
 * undeclared parameters on every endpoint, including those that used to ignore them.
 */
class RoutingDispatchTest {
    @TempDir
    static Path tmp;
    static JpbsRestHandler handler;
    static String admin;
    static String nobody;

    @BeforeAll
    static void start() throws Exception {
        Path root = tmp.resolve("ds");
        DatastorePool.create(root, SyncLevel.NONE);
        Path config = tmp.resolve("config");
        AuthConfig cfg = AuthConfig.open(config);
        cfg.addUser("ad@pbs", "admin-password-1", null);
        cfg.addUser("no@pbs", null, null);
        admin = "ad@pbs!t:" + cfg.createToken("ad@pbs", "t", null);
        cfg.updateAcl("/datastore/store", "ad@pbs", "DatastoreAdmin", true, false);
        cfg.updateAcl("/datastore/store", "ad@pbs!t", "DatastoreAdmin", true, false); // a token is limited to its user's privileges
        nobody = "no@pbs!t:" + cfg.createToken("no@pbs", "t", null);
        FileAuthenticator auth = FileAuthenticator.open(config);
        ServerConfig sc = new ServerConfig(config, Map.of("store", root), "127.0.0.1", 0);
        handler = JpbsRestHandler.create(sc, auth).withFailureDelays(Duration.ZERO, Duration.ZERO);
    }

    static RestResponse call(String method, String pathAndQuery, String token, String formBody) throws Exception {
        int q = pathAndQuery.indexOf('?');
        HttpHeaders h = new DefaultHttpHeaders();
        if (token != null) {
            h.set("authorization", "PBSAPIToken=" + token);
        }
        byte[] body = formBody == null ? new byte[0] : formBody.getBytes(StandardCharsets.UTF_8);
        if (formBody != null) {
            h.set("content-type", "application/x-www-form-urlencoded");
        }
        return handler.handle(new RestRequest(method, q < 0 ? pathAndQuery : pathAndQuery.substring(0, q),
                q < 0 ? "" : pathAndQuery.substring(q + 1), h, body, new InetSocketAddress("127.0.0.1", 1)));
    }

    static void assertRefused(int status, String text, String method, String path, String token, String body) {
        ApiException e = assertThrows(ApiException.class, () -> call(method, path, token, body));
        assertEquals(status + " " + text, e.status() + " " + e.getMessage());
    }

    @Test
    void unknownPathOrMethodIs404BeforeAuthentication() {
        assertRefused(404, "Path '/api2/json/nope' not found.", "GET", "/api2/json/nope", null, null);
        assertRefused(404, "Path '/api2/json/admin/datastore/store/gcx' not found.", "GET",
                "/api2/json/admin/datastore/store/gcx", null, null);
        assertRefused(404, "Path '/api2/json/ping' not found.", "POST", "/api2/json/ping", null, null);
        assertRefused(404, "Path '/api2/json/admin/datastore/store/download' not found.", "PUT",
                "/api2/json/admin/datastore/store/download", admin, null);
    }

    @Test
    void undeclaredParametersAreRefusedAsByPbs() throws Exception {
        String extra = "parameter verification failed - 'foo': schema does not allow additional properties.";
        // these two ignored unknown keys before the routing table
        assertRefused(400, extra, "POST", "/api2/json/access/ticket", null, "username=ad@pbs&password=x&foo=1");
        assertRefused(400, extra, "GET", "/api2/json/version?foo=1", admin, null);
        assertRefused(400, extra, "GET", "/api2/json/admin/datastore/store/groups?foo=1", admin, null);
        assertRefused(400, extra, "GET", "/api2/json/nodes/localhost/tasks?foo=1", admin, null);
        // _dc (ExtJS cache buster) is ignored
        assertEquals(200, call("GET", "/api2/json/version?_dc=123", admin, null).status());
        assertEquals(200, call("GET", "/api2/json/ping?_dc=1", null, null).status());
    }

    @Test
    void orderOfChecksAsPbs() {
        // authentication before path variables and parameters
        assertRefused(401, "authentication failed - invalid credentials", "GET",
                "/api2/json/admin/datastore/x/groups?foo=1", "ad@pbs!t:wrong", null);
        // a path variable before store privileges
        assertRefused(400, "parameter verification failed - 'store': value must be at least 3 characters long", "GET",
                "/api2/json/admin/datastore/x/status", nobody, null);
        // declarative store privileges (GET status, GET gc) before the parameters
        assertRefused(403, "permission check failed", "GET", "/api2/json/admin/datastore/store/status?verbose=maybe",
                nobody, null);
        assertRefused(400, "parameter verification failed - 'verbose': Unable to parse boolean option.", "GET",
                "/api2/json/admin/datastore/store/status?verbose=maybe", admin, null);
        // parameters before the handler's namespace privileges
        assertRefused(400, "parameter verification failed - 'backup-type': value 'xx' is not defined in the enumeration.",
                "GET", "/api2/json/admin/datastore/store/snapshots?backup-type=xx", nobody, null);
    }

    @Test
    void requiredParametersAndHeadAsGet() throws Exception {
        assertRefused(400, "parameter verification failed - 'password': parameter is missing and it is not optional.",
                "POST", "/api2/json/access/ticket", null, "username=ad@pbs");
        assertRefused(400, "parameter verification failed - 'ns': parameter is missing and it is not optional.",
                "DELETE", "/api2/json/admin/datastore/store/namespace", admin, null);
        assertEquals(200, call("HEAD", "/api2/json/admin/datastore/store/groups", admin, null).status());
    }
}
