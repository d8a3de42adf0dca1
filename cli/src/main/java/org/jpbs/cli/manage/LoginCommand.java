package org.jpbs.cli.manage;

import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.commands.HelpOption;
import org.jpbs.cli.commands.RepositoryOptions;
import org.jpbs.client.remote.PbsClient;
import org.jpbs.client.remote.TicketCache;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jpbs login}: logs in to the server (password from {@code $PBS_PASSWORD}, else a
 * cached ticket, else a prompt) and keeps the ticket in the ticket cache, so that the next
 * commands need no password for two hours, as {@code proxmox-backup-client login}.
 */
@Command(name = "login", description = "Log in to a server and keep the ticket for the next commands (2 hours).")
public final class LoginCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @Mixin
    RepositoryOptions repo;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public LoginCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        try (PbsClient pbs = repo.serverClient(ctx, "login")) {
            pbs.login(true);
        }
        return 0;
    }

    /** {@code jpbs logout}: removes the cached ticket of the repository's server and user. */
    @Command(name = "logout", description = "Forget the ticket kept by 'jpbs login' for this server and user.")
    public static final class Logout implements Callable<Integer> {
        @Mixin
        HelpOption help;

        @Mixin
        RepositoryOptions repo;

        private final CliContext ctx;

        /** Creates the command. */
        public Logout(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            var r = repo.resolve(ctx);
            if (!r.isRemote()) {
                throw new org.jpbs.cli.UsageException("'jpbs logout' works on a server repository only");
            }
            TicketCache cache = RepositoryOptions.clientState(ctx).tickets();
            cache.delete(r.host(), r.authId());
            return 0;
        }
    }
}
