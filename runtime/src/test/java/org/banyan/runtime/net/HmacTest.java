package org.banyan.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The digest-only HMAC equals the JCE's for keys shorter than, as long as, and longer than a block. */
class HmacTest {
    @Test
    void equalsTheJcesHmacSha256() throws Exception {
        Random random = new Random(7);
        for (int keyLength : new int[] {1, 32, 63, 64, 65, 100, 200}) {
            byte[] key = new byte[keyLength];
            random.nextBytes(key);
            byte[] a = new byte[random.nextInt(100)];
            byte[] b = new byte[random.nextInt(100)];
            random.nextBytes(a);
            random.nextBytes(b);
            Mac jce = Mac.getInstance("HmacSHA256");
            jce.init(new SecretKeySpec(key, "HmacSHA256"));
            jce.update(a);
            jce.update(b);
            assertThat(Hmac.sha256(key, a, b)).as("key of %d bytes", keyLength).isEqualTo(jce.doFinal());
        }
    }
}
