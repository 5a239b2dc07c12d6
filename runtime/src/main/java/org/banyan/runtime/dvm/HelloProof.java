package org.banyan.runtime.dvm;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

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
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            // keyed by the label and the secret: an empty secret file still gives a key
            mac.init(new SecretKeySpec((LABEL + secret).getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal((LABEL + nonce).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code presented} is the proof of {@code secret} against {@code nonce}, compared in constant time. */
    static boolean matches(String presented, String secret, String nonce) {
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                of(secret, nonce).getBytes(StandardCharsets.UTF_8));
    }
}
