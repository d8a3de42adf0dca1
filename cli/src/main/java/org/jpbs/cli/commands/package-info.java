/**
 * One class per command of the jpbs command line, plus the shared option mixins
 * ({@link org.jpbs.cli.commands.RepositoryOptions}, {@link org.jpbs.cli.commands.OutputOptions}).
 * Commands validate all input before they change anything, and throw exceptions whose messages
 * name the file or parameter; {@code org.jpbs.cli.Main} turns them into one error line.
 */
package org.jpbs.cli.commands;
