package org.jpbs.cli.manage;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jpbs.cli.CliContext;
import org.jpbs.cli.UsageException;
import org.jpbs.cli.commands.HelpOption;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jpbs completion bash|zsh|man}: shell completion scripts generated from the command
 * model (picocli's {@link AutoComplete}; the script serves zsh through {@code bashcompinit}) and,
 * with {@code man --dir DIR}, one man page per command ({@link ManPages}). Install with e.g.
 * {@code jpbs completion bash > /etc/bash_completion.d/jpbs} or {@code source <(jpbs completion zsh)}.
 */
@Command(name = "completion", description = "Print a bash or zsh completion script, or write man pages (man --dir DIR).")
public final class CompletionCommand implements Callable<Integer> {
    @Mixin
    HelpOption help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "KIND", description = "bash, zsh or man.")
    String kind;

    @Option(names = "--dir", paramLabel = "DIR", description = "With man: the directory for the pages (default: ./man).")
    Path dir;

    private final CliContext ctx;

    /** Creates the command; {@code ctx} gives its streams and environment. */
    public CompletionCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        CommandLine root = spec.root().commandLine();
        switch (kind) {
            case "bash" -> ctx.out().print(AutoComplete.bash("jpbs", root));
            case "zsh" -> {
                ctx.out().println("#compdef jpbs");
                ctx.out().println("autoload -U +X bashcompinit && bashcompinit");
                ctx.out().print(AutoComplete.bash("jpbs", root));
            }
            case "man" -> {
                int n = ManPages.write(root, dir != null ? dir : Path.of("man"));
                ctx.err().println("wrote " + n + " man pages to " + (dir != null ? dir : Path.of("man")));
            }
            default -> throw new UsageException("KIND: '" + kind + "' is not bash, zsh or man");
        }
        ctx.out().flush();
        return 0;
    }
}
