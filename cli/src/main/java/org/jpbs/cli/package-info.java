/**
 * The jpbs command line, the composition root of the project: {@link org.jpbs.cli.Main} builds
 * the picocli command tree, maps every error to one line {@code jpbs: error: ...} (exit code 1;
 * usage errors exit with 2), and wires the client engines to a local datastore.
 */
package org.jpbs.cli;
