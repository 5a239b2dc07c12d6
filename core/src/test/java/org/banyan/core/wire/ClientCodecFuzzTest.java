package org.banyan.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The DVM decodes a stranger's first frame as a hello, and a client decodes whatever the
 * address in its URI file answers: bytes nobody vouched for. Mutated frames of every kind of
 * message decode to a message or fail with {@link IllegalArgumentException} (which ends that
 * connection), never with another exception that would escape the reader, and never allocate
 * beyond the frame.
 */
class ClientCodecFuzzTest {
    private static final int ROUNDS = 200_000;

    @Test
    void mutatedFramesDecodeOrAreRefusedAsBadInput() {
        List<byte[]> bodies = ClientCodecTest.samples().stream().map(m -> {
            byte[] frame = ClientCodec.encode(m);
            return Arrays.copyOfRange(frame, 4, frame.length);
        }).toList();
        for (long seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed);
            int decoded = 0;
            int refused = 0;
            for (int round = 0; round < ROUNDS / 5; round++) {
                byte[] body = mutate(bodies.get(random.nextInt(bodies.size())), random);
                try {
                    assertThat(ClientCodec.decode(body)).isNotNull();
                    decoded++;
                } catch (IllegalArgumentException e) {
                    refused++;
                } catch (RuntimeException | OutOfMemoryError e) {
                    throw new AssertionError("seed " + seed + ", round " + round + ": " + e + " for "
                            + java.util.HexFormat.of().formatHex(body), e);
                }
            }
            assertThat(refused).as("seed %d: most mutations are refused", seed).isGreaterThan(ROUNDS / 20);
            assertThat(decoded).as("seed %d: some still decode", seed).isPositive();
        }
    }

    /** One to four of: a byte changed, an int field set to an edge value, the body cut or extended. */
    static byte[] mutate(byte[] original, Random random) {
        byte[] b = original.clone();
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits && b.length > 0; e++) {
            switch (random.nextInt(4)) {
                case 0 -> b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                case 1 -> {
                    if (b.length >= 4) {
                        int at = random.nextInt(b.length - 3);
                        int[] edges = {-1, -2, 0, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, b.length, b.length - at, 255};
                        ByteBuffer.wrap(b).putInt(at, edges[random.nextInt(edges.length)]);
                    }
                }
                case 2 -> b = Arrays.copyOf(b, random.nextInt(b.length + 1));
                default -> {
                    byte[] longer = Arrays.copyOf(b, b.length + 1 + random.nextInt(16));
                    for (int i = b.length; i < longer.length; i++) {
                        longer[i] = (byte) random.nextInt(256);
                    }
                    b = longer;
                }
            }
        }
        if (random.nextInt(10) == 0 && b.length > 0) {
            b[0] = (byte) random.nextInt(256); // another message type, or none
        }
        return b;
    }
}
