package org.banyan.runtime.dvm;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * How a client proves the DVM's secret without sending it (protocol 10): the DVM sends a fresh
 * random nonce first ({@code CHALLENGE}), the client answers with HMAC-SHA256 of a fixed label
 * and the nonce, keyed by the secret, in hex. Whoever listens at the address a client was given
 * (a port a dead DVM's URI file still names, taken by another user) learns a proof that opens
 * nothing: no DVM will send that nonce again.
 */
final class HelloProof {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String LABEL = "banyan dvm client hello|";

    private HelloProof() {}

    /** A new nonce: 128 random bits, in hex. */
    static String nonce() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The proof of {@code secret} against {@code nonce}. */
    static String of(String secret, String nonce) {
        return HexFormat.of().formatHex(org.banyan.runtime.net.Hmac.sha256(secret.getBytes(StandardCharsets.UTF_8),
                LABEL.getBytes(StandardCharsets.UTF_8), nonce.getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code presented} is the proof of {@code secret} against {@code nonce}, compared in constant time. */
    static boolean matches(String presented, String secret, String nonce) {
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                of(secret, nonce).getBytes(StandardCharsets.UTF_8));
    }
}
