package org.jpbs.core.pxar;

/** One extended attribute: the full name with its namespace prefix ({@code user.x}), and the value. */
public record XAttr(byte[] name, byte[] value) {}
