package org.jpbs.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The process's binary standard output for data ({@code restore ... -}, VMA archives to
 * {@code -}): unlike {@code System.out}, a {@link PrintStream} that swallows write errors, a
 * closed pipe, a full disk or a closed descriptor fail the write with an {@link IOException}, so
 * the command ends with an error instead of reporting success for data that went nowhere. Text
 * that {@code text} holds is flushed first, so the two never interleave out of order.
 */
final class StdoutStream extends OutputStream {
    private final PrintStream text;
    private final OutputStream fd;

    StdoutStream(PrintStream text, OutputStream fd) {
        this.text = text;
        this.fd = fd;
    }

    /** Standard output of this process. */
    static StdoutStream system() {
        return new StdoutStream(System.out, new FileOutputStream(FileDescriptor.out));
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        text.flush();
        try {
            fd.write(b, off, len);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void flush() throws IOException {
        text.flush();
        fd.flush();
    }

    /** Standard output is not closed: later messages of the command may still go there. */
    @Override
    public void close() throws IOException {
        flush();
    }

    private static IOException failed(IOException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new IOException("cannot write to standard output: " + why.toLowerCase(java.util.Locale.ROOT), e);
    }
}
