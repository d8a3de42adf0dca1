package org.jpbs.cli;

/** Entry point placeholder; replaced by the picocli command tree. */
public final class Main {
    public static void main(String[] args) {
        System.out.println("jpbs");
    }
}
