package org.jpbs.cli.commands;

import picocli.CommandLine.Option;

/** {@code -h/--help} for a subcommand (the version option lives on the top command only). */
public final class HelpOption {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;
}
