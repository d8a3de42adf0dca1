/**
 * Directory trees and pxar streams ({@code docs/pxar.md#reading-a-directory-tree}): the
 * {@link org.jpbs.client.pxar.fs.TreeArchiver} reads a tree with the metadata {@code pxar}
 * stores (lstat, xattrs, POSIX ACLs, file capabilities, chattr flags, project ids) through
 * Linux system calls bound with the FFM API, and feeds a
 * {@link org.jpbs.core.pxar.PxarEncoder}; the {@link org.jpbs.client.pxar.fs.TreeExtractor}
 * writes a decoded stream back to a directory. File names are raw bytes throughout.
 */
package org.jpbs.client.pxar.fs;
