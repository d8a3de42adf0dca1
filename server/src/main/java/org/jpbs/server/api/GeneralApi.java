package org.jpbs.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Optional;
import org.jpbs.core.api.BackupNamespace;
import org.jpbs.datastore.config.DatastoreConfig;
import org.jpbs.server.auth.FileAuthenticator;
import org.jpbs.server.auth.PasswordCheckQueue;
import org.jpbs.server.http.ApiException;
import org.jpbs.server.http.DefaultRestHandler;
import org.jpbs.server.http.RestResponse;

/**
 * The calls outside a datastore ({@code docs/api.md#without-datastore}): ping, version, ticket
 * login and the datastore list. Stateless.
 */
final class GeneralApi {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private GeneralApi() {}

    /** {@code GET ping}: {@code {"pong":true}}. */
    static RestResponse ping() {
        return RestResponse.data(F.objectNode().put("pong", true));
    }

    /** {@code GET version}. */
    static RestResponse version() {
        return RestResponse.data(F.objectNode().put("release", DefaultRestHandler.RELEASE)
                .put("repoid", DefaultRestHandler.REPOID).put("version", DefaultRestHandler.VERSION));
    }

    /**
     * {@code POST access/ticket} ({@code username}, {@code password}): a ticket, or 401
     * {@code "permission check failed."}; the password check runs on a small bounded pool
     * ({@link PasswordCheckQueue}), 503 when it is full.
     */
    static RestResponse ticket(ApiCall c) {
        FileAuthenticator auth = c.auth();
        Optional<FileAuthenticator.Login> login;
        try {
            login = auth.login(c.params().required("username"), c.params().required("password"));
        } catch (PasswordCheckQueue.LoginBusyException e) {
            throw new ApiException(503, e.getMessage());
        }
        if (login.isEmpty()) {
            throw new ApiException(401, "permission check failed.");
        }
        ObjectNode o = F.objectNode();
        o.put("CSRFPreventionToken", login.get().csrfToken());
        o.put("ticket", login.get().ticket());
        o.put("username", login.get().username());
        return RestResponse.data(o);
    }

    /** {@code GET admin/datastore}: {@code [{"comment","store","maintenance"?}]}, the stores the caller may see, in config order (as PBS). */
    static RestResponse datastoreList(Access acc) throws IOException {
        ArrayNode out = F.arrayNode();
        long visible = Access.AUDIT | Access.BACKUP;
        long below = Access.MODIFY | Access.READ | Access.BACKUP | Access.AUDIT;
        for (DatastoreConfig c : acc.stores().list()) {
            String store = c.name();
            boolean allowed = (acc.privileges(store, BackupNamespace.ROOT) & visible) != 0;
            if (allowed || acc.anyPrivsBelow(store, below)) {
                ObjectNode o = out.addObject();
                if (c.comment().isPresent()) {
                    o.put("comment", c.comment().get());
                } else {
                    o.putNull("comment");
                }
                c.maintenanceMode().ifPresent(mm -> o.put("maintenance", mm.format()));
                o.put("store", store);
            }
        }
        return RestResponse.data(out);
    }
}
