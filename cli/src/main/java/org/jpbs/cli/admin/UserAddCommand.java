package org.jpbs.cli.admin;

import org.jpbs.cli.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.server.auth.AuthConfig;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs user add USERID [--password PW | --password-file FILE] [--comment TEXT]
 * [--config-dir DIR]}: adds a user of realm {@code pbs} ({@code proxmox-backup-manager user
 * create}, {@code docs/auth.md#the-config-directory}). Without a password the user can only use API
 * tokens. For {@code root@pam} use {@code --set-password} to set its password instead.
 */
@Command(name = "add", mixinStandardHelpOptions = true, description = "Add a user (name@pbs), or set a password.")
public final class UserAddCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "USERID", description = "User id, e.g. backup@pbs (root@pam with --set-password).")
    String userid;

    @ArgGroup(exclusive = true)
    PasswordSource password;

    static final class PasswordSource {
        @Option(names = "--password", paramLabel = "PW", description = "The password (5 to 64 characters; visible in the process list).")
        String value;

        @Option(names = "--password-file", paramLabel = "FILE", description = "Read the password from the first line of FILE.")
        String file;
    }

    @Option(names = "--comment", paramLabel = "TEXT", description = "A one-line comment.")
    String comment;

    @Option(names = "--set-password", description = "Set the password of an existing user (or root@pam) instead of adding one.")
    boolean setPassword;

    @Mixin
    ConfigDirOption config;

    public UserAddCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        AdminArgs.userId(userid);
        String pw = null;
        if (password != null && password.file != null) {
            String text;
            try {
                text = Files.readString(Path.of(password.file), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IOException("--password-file " + password.file + ": cannot read it: "
                        + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()), e);
            }
            pw = text.lines().findFirst().orElse("");
            AdminArgs.password("--password-file " + password.file, pw);
        } else if (password != null) {
            pw = password.value;
            AdminArgs.password("--password", pw);
        }
        AuthConfig cfg = AuthConfig.open(config.resolve(ctx));
        if (setPassword) {
            if (pw == null) {
                throw new UsageException("--set-password needs --password or --password-file");
            }
            if (comment != null) {
                throw new UsageException("--comment cannot be combined with --set-password");
            }
            cfg.setPassword(userid, pw);
            ctx.err().println("password of " + userid + " set in " + cfg.configDir());
        } else {
            cfg.addUser(userid, pw, comment);
            ctx.err().println("added user " + userid + (pw == null ? " (no password: API tokens only)" : "")
                    + " to " + cfg.configDir());
        }
        return 0;
    }
}
