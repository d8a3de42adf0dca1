/**
 * Glue between the client engines and the local machine: the chunk sink over a local chunk
 * store, block device sizes, and restore targets (temporary file plus rename, block device in
 * place, or standard output).
 */
package org.jpbs.cli.local;
