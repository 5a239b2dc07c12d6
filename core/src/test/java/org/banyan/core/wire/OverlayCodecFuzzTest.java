package org.banyan.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Overlay frames come from peers that proved the job's secret, but a daemon that misbehaves
 * (another version, a bug, memory gone bad) must cost the link, not the reader: mutated frames
 * of every kind decode or fail with {@link IllegalArgumentException}, as the client's do
 * ({@link ClientCodecFuzzTest}, whose mutations these are).
 */
class OverlayCodecFuzzTest {
    @Test
    void mutatedFramesDecodeOrAreRefusedAsBadInput() {
        List<OverlayMessage> samples = new ArrayList<>(OverlayCodecTest.samples());
        samples.add(new OverlayMessage.Output(1, 4, 2, new byte[] {0, 10, -1}));
        samples.add(new OverlayMessage.OutputBatch(List.of(new OverlayMessage.Output(1, 1, 1, new byte[] {'a'}))));
        samples.add(new OverlayMessage.StdinData(1, 0, new byte[] {7}));
        List<byte[]> bodies = samples.stream().map(m -> {
            byte[] frame = OverlayCodec.encode(m);
            return Arrays.copyOfRange(frame, 4, frame.length);
        }).toList();
        for (long seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed);
            int refused = 0;
            for (int round = 0; round < 40_000; round++) {
                byte[] body = ClientCodecFuzzTest.mutate(bodies.get(random.nextInt(bodies.size())), random);
                try {
                    assertThat(OverlayCodec.decode(body)).isNotNull();
                } catch (IllegalArgumentException e) {
                    refused++;
                } catch (RuntimeException | OutOfMemoryError e) {
                    throw new AssertionError("seed " + seed + ", round " + round + ": " + e + " for "
                            + java.util.HexFormat.of().formatHex(body), e);
                }
            }
            assertThat(refused).as("seed %d: most mutations are refused", seed).isGreaterThan(10_000);
        }
    }
}
