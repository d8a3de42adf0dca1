package org.jpbs.cli.admin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.server.tls.ServerCertificate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jpbs cert info}: shows the server certificate's SHA-256 fingerprint (creating it if absent). */
@Command(name = "cert", mixinStandardHelpOptions = true, description = "Server certificate.",
        subcommands = CertCommand.Info.class)
public final class CertCommand {

    /** {@code jpbs cert info [--config-dir DIR]}. */
    @Command(name = "info", mixinStandardHelpOptions = true,
            description = {"Print the server certificate's file and SHA-256 fingerprint (ab:cd:...).",
                "The certificate is created in the config directory if it does not exist yet."})
    public static final class Info implements Callable<Integer> {
        private final CliContext ctx;

        @Mixin
        ConfigDirOption config;

        public Info(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() throws Exception {
            Path dir = config.resolve(ctx);
            Files.createDirectories(dir);
            ServerCertificate cert = ServerCertificate.loadOrCreate(dir);
            ctx.out().println("certificate: " + dir.resolve(ServerCertificate.CERT_FILE));
            ctx.out().println("fingerprint: " + cert.fingerprint());
            return 0;
        }
    }
}
