/**
 * Units of configuration values: {@link org.jpbs.core.units.ByteSize}, PBS's byte sizes with an
 * optional SI or IEC unit ({@code docs/sync.md#options}, {@code docs/s3.md}).
 */
package org.jpbs.core.units;
