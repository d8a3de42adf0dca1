/**
 * Client-side encryption compatible with PBS ({@code docs/formats.md#datablob}, {@code docs/formats.md#chunks-and-digests}, {@code docs/formats.md#manifest-indexjsonblob}, {@code docs/formats.md#key-files}): the
 * 32-byte key and what is derived from it ({@link org.jpbs.core.crypto.CryptConfig}: id_key,
 * fingerprint, AES-256-GCM, keyed chunk digests, manifest HMAC), key files
 * ({@link org.jpbs.core.crypto.KeyConfig} with scrypt, PBKDF2 or no key derivation), and RSA
 * master keys that wrap a key file into {@code rsa-encrypted.key.blob}
 * ({@link org.jpbs.core.crypto.MasterKey}). Pure codecs: no terminal, no network.
 */
package org.jpbs.core.crypto;
