/**
 * Checked exceptions shared by every module: they say what failed and where, so callers
 * never classify errors by matching message strings.
 */
package org.jpbs.core.errors;
