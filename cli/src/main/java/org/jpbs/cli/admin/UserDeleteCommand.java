package org.jpbs.cli.admin;

import java.util.List;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.server.auth.AuthConfig;
import org.jpbs.server.auth.Authid;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs user delete USERID [--config-dir DIR]}: removes a user of realm {@code pbs} with
 * its password, its API tokens and every ACL entry of the user and its tokens
 * ({@code proxmox-backup-manager user remove}). {@code root@pam} cannot be removed.
 */
@Command(name = "delete", mixinStandardHelpOptions = true,
        description = "Delete a user with its API tokens and ACL entries.")
public final class UserDeleteCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "USERID", description = "User id, e.g. backup@pbs.")
    String userid;

    @Mixin
    ConfigDirOption config;

    public UserDeleteCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        AdminArgs.userId(userid);
        AuthConfig cfg = AuthConfig.open(config.resolve(ctx));
        List<Authid> tokens = cfg.deleteUser(userid);
        ctx.err().println("deleted user " + userid + (tokens.isEmpty() ? "" : " and its API tokens " + tokens)
                + " with their ACL entries from " + cfg.configDir());
        return 0;
    }
}
