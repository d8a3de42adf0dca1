package org.jpbs.cli.admin;

import java.nio.file.Path;
import org.jpbs.cli.CliContext;
import picocli.CommandLine.Option;

/**
 * {@code --config-dir DIR}: the server's configuration directory ({@code user.cfg},
 * {@code acl.cfg}, {@code shadow.json}, {@code token.shadow}, {@code datastore.cfg}, task logs
 * in {@code log/}); default {@code $JPBS_CONFIG_DIR}, else {@code ~/.config/jpbs}.
 */
public final class ConfigDirOption {
    /** Environment variable naming the default config directory. */
    public static final String ENV = "JPBS_CONFIG_DIR";

    @Option(names = "--config-dir", paramLabel = "DIR",
            description = "Server configuration directory (default: $JPBS_CONFIG_DIR, else ~/.config/jpbs).")
    String configDir;

    /** The directory to use. */
    public Path resolve(CliContext ctx) {
        if (configDir != null) {
            if (configDir.isEmpty()) {
                throw new org.jpbs.cli.UsageException("--config-dir must not be empty");
            }
            return Path.of(configDir);
        }
        return defaultDir(ctx);
    }

    /** The directory without the option: {@code $JPBS_CONFIG_DIR}, else {@code ~/.config/jpbs}. */
    public static Path defaultDir(CliContext ctx) {
        String env = ctx.getenv(ENV);
        if (env != null && !env.isEmpty()) {
            return Path.of(env);
        }
        return ctx.home().resolve(".config").resolve("jpbs");
    }
}
