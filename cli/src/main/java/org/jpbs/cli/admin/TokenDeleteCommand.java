package org.jpbs.cli.admin;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.server.auth.AuthConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs user token delete USERID TOKENNAME [--config-dir DIR]}: removes the API token
 * {@code USERID!TOKENNAME}, its secret hash and its ACL entries
 * ({@code proxmox-backup-manager user delete-token}).
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete an API token and its ACL entries.")
public final class TokenDeleteCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "USERID", description = "The token's user, e.g. backup@pbs.")
    String userid;

    @Parameters(index = "1", paramLabel = "TOKENNAME", description = "The token name, e.g. pve1.")
    String tokenName;

    @Mixin
    ConfigDirOption config;

    public TokenDeleteCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        AdminArgs.tokenId(userid, tokenName);
        AuthConfig cfg = AuthConfig.open(config.resolve(ctx));
        String id = userid + "!" + tokenName;
        cfg.deleteToken(id);
        ctx.err().println("deleted API token " + id + " with its ACL entries from " + cfg.configDir());
        return 0;
    }
}
