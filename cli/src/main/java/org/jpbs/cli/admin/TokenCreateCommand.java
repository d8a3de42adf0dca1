package org.jpbs.cli.admin;

import org.jpbs.cli.UsageException;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.server.auth.AuthConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs user token create USERID TOKENNAME [--comment TEXT] [--output-format json]
 * [--config-dir DIR]}: creates the API token {@code USERID!TOKENNAME}
 * ({@code proxmox-backup-manager user generate-token}, {@code docs/protocol.md#authentication}) and
 * prints its secret once on stdout (only a hash is stored): as text {@code tokenid: ...} and
 * {@code value: ...}, or as JSON {@code {"tokenid":"...","value":"..."}} like the PBS API. The
 * token has no privileges until {@code jpbs acl update} grants some (a token's privileges are
 * its own ACL entries intersected with its user's).
 */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create an API token and print its secret once.")
public final class TokenCreateCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "USERID", description = "The owning user, e.g. backup@pbs.")
    String userid;

    @Parameters(index = "1", paramLabel = "TOKENNAME", description = "Token name ([A-Za-z0-9_][A-Za-z0-9._-]*).")
    String tokenName;

    @Option(names = "--comment", paramLabel = "TEXT", description = "A one-line comment.")
    String comment;

    @Option(names = "--output-format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text or json (default: ${DEFAULT-VALUE}).")
    String format;

    @Mixin
    ConfigDirOption config;

    public TokenCreateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        if (!format.equals("text") && !format.equals("json")) {
            throw new UsageException("--output-format: expected text or json, not '" + format + "'");
        }
        AdminArgs.tokenId(userid, tokenName);
        AuthConfig cfg = AuthConfig.open(config.resolve(ctx));
        String secret = cfg.createToken(userid, tokenName, comment);
        String tokenid = userid + "!" + tokenName;
        if (format.equals("json")) {
            var o = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
            o.put("tokenid", tokenid);
            o.put("value", secret);
            ctx.out().println(o);
        } else {
            ctx.out().println("tokenid: " + tokenid);
            ctx.out().println("value: " + secret);
            ctx.err().println("the secret is shown only now; grant privileges with 'jpbs acl update'");
        }
        ctx.out().flush();
        return 0;
    }
}
