/**
 * Pure codecs and vocabulary of the PBS formats: digests, blobs, indexes, chunkers,
 * manifests, names. No network and no filesystem policy live here.
 */
package org.jpbs.core;
