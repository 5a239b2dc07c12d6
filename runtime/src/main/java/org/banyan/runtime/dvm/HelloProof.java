package org.banyan.runtime.dvm;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * How a client and the DVM prove the secret to each other without sending it. The DVM sends a
 * fresh random nonce first ({@code CHALLENGE}), the client answers with HMAC-SHA256 of a fixed
 * label and the nonce, keyed by the secret, in hex (protocol 10), and with a fresh nonce of its
 * own, which the DVM's {@code WELCOME} answers with HMAC-SHA256 of another label and both nonces
 * (protocol 11). Whoever listens at the address a client was given (a port a dead DVM's URI file
 * still names, taken by another user) learns a proof that opens nothing, as no DVM will send that
 * nonce again, and cannot welcome the client, so it receives no task, command or input. The
 * labels differ so that a client's proof is never a DVM's.
 */
final class HelloProof {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String LABEL = "banyan dvm client hello|";
    private static final String HEAD_LABEL = "banyan dvm head welcome|";

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

    /** The DVM's proof of {@code secret} against the client's nonce and its own challenge. */
    static String ofHead(String secret, String clientNonce, String challenge) {
        return HexFormat.of().formatHex(org.banyan.runtime.net.Hmac.sha256(secret.getBytes(StandardCharsets.UTF_8),
                HEAD_LABEL.getBytes(StandardCharsets.UTF_8), (clientNonce + "|" + challenge).getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code presented} is the DVM's proof of {@code secret} against both nonces, compared in constant time. */
    static boolean headMatches(String presented, String secret, String clientNonce, String challenge) {
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                ofHead(secret, clientNonce, challenge).getBytes(StandardCharsets.UTF_8));
    }
}
