/** Test harness: a real S3 server (s3proxy) on loopback and a fault-injecting TCP proxy. */
package org.jpbs.s3.testing;
