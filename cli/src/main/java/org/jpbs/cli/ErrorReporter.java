package org.jpbs.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import picocli.CommandLine;

/**
 * The one place where failures become output: every exception a command throws is printed as a
 * single line {@code jpbs: error: <what>} on stderr with the exit code of its type
 * ({@link ExitCodes}: 1, or 3..8 for not found, exists, locked, corrupt, denied, protected); usage
 * errors found by picocli, and {@link UsageException}s thrown by commands (bad option values,
 * options that exclude each other), become
 * {@code jpbs: error: <message> (see 'jpbs ... --help')} with exit code {@value #EXIT_USAGE}. With {@code JPBS_DEBUG} set in the environment the stack
 * trace follows the line.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {
    /** Exit code of a failed command without a more specific code ({@link ExitCodes}). */
    static final int EXIT_ERROR = ExitCodes.ERROR;
    /** Exit code of a usage error (picocli's default for invalid input). */
    static final int EXIT_USAGE = ExitCodes.USAGE;

    private final CliContext ctx;

    ErrorReporter(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
        boolean usage = ex instanceof UsageException;
        ctx.err().println("jpbs: error: " + describe(ex)
                + (usage ? " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')" : ""));
        if (ctx.getenv("JPBS_DEBUG") != null) {
            ex.printStackTrace(ctx.err());
        }
        ctx.err().flush();
        return ExitCodes.of(ex);
    }

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        String name = ex.getCommandLine().getCommandSpec().qualifiedName();
        ctx.err().println("jpbs: error: " + oneLine(ex.getMessage()) + " (see '" + name + " --help')");
        ctx.err().flush();
        return EXIT_USAGE;
    }

    /** A one-line description of a failure, naming the file or parameter where the exception does. */
    static String describe(Throwable ex) {
        if (ex instanceof UncheckedIOException u && u.getCause() != null) {
            ex = u.getCause();
        }
        String msg = switch (ex) {
            case org.jpbs.core.errors.NotFoundException e -> e.getFile() == null ? e.getReason() : e.getMessage();
            case org.jpbs.core.errors.AlreadyExistsException e -> e.getFile() == null ? e.getReason() : e.getMessage();
            case NoSuchFileException e -> e.getFile() + ": no such file or directory";
            case AccessDeniedException e -> e.getFile() + ": permission denied";
            case FileAlreadyExistsException e -> e.getFile() + ": already exists";
            case NotDirectoryException e -> e.getFile() + ": not a directory";
            case DirectoryNotEmptyException e -> e.getFile() + ": directory not empty";
            case FileSystemException e -> e.getMessage();
            case IOException e -> e.getMessage();
            case IllegalArgumentException e -> e.getMessage();
            case IllegalStateException e -> e.getMessage();
            default -> "internal error: " + ex;
        };
        if (msg == null || msg.isBlank()) {
            msg = ex.getClass().getSimpleName();
        }
        return oneLine(msg);
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
