package org.jpbs.cli.admin;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.server.auth.AuthConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs acl update PATH ROLE --auth-id ID [--propagate=true|false] [--delete]
 * [--config-dir DIR]}: grants or removes a role ({@code proxmox-backup-manager acl update},
 * {@code docs/api.md#conventions-as-pbs}, {@code docs/auth.md#the-config-directory}). Paths: {@code /}, {@code /datastore},
 * {@code /datastore/STORE}, {@code /datastore/STORE/NS...}; roles: Admin, NoAccess, Audit,
 * DatastoreAdmin, DatastoreReader, DatastoreBackup, DatastorePowerUser, DatastoreAudit, ...
 */
@Command(name = "update", mixinStandardHelpOptions = true, description = "Grant (or with --delete remove) a role on a path.")
public final class AclUpdateCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "PATH", description = "ACL path, e.g. /datastore/store1.")
    String path;

    @Parameters(index = "1", paramLabel = "ROLE", description = "Role, e.g. DatastoreBackup.")
    String role;

    @Option(names = "--auth-id", required = true, paramLabel = "ID", description = "User (name@realm) or API token (name@realm!token).")
    String authId;

    @Option(names = "--propagate", arity = "1", defaultValue = "true", paramLabel = "BOOL",
            description = "Whether the role applies below PATH too (default: ${DEFAULT-VALUE}).")
    boolean propagate;

    @Option(names = "--delete", description = "Remove the role instead of granting it.")
    boolean delete;

    @Mixin
    ConfigDirOption config;

    public AclUpdateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        AdminArgs.acl(path, role);
        AdminArgs.authId(authId);
        AuthConfig cfg = AuthConfig.open(config.resolve(ctx));
        if (!cfg.updateAcl(path, authId, role, propagate, delete)) {
            // PBS treats this as a no-op without error; we say so, and still exit 0
            ctx.err().println("jpbs: warning: " + authId + " has no role " + role + " on " + path + "; nothing removed");
            return 0;
        }
        ctx.err().println((delete ? "removed " : "granted ") + role + " on " + path + (delete ? " from " : " to ")
                + authId + (delete || !propagate ? "" : " (propagating)"));
        return 0;
    }
}
