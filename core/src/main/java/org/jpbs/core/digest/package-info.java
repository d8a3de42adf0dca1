/** The 32-byte SHA-256 digest value type that names chunks and checksums indexes. */
package org.jpbs.core.digest;
