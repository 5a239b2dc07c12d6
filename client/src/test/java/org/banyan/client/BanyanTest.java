package org.banyan.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BanyanTest {
    @Test
    void outsideBanyanInitSaysSoAndHow() {
        assertThatThrownBy(() -> Banyan.init(Map.of("PATH", "/bin")))
                .isInstanceOf(NotUnderBanyanException.class)
                .hasMessageContaining("not started by banyan run")
                .hasMessageContaining("banyan run -n N java");
    }

    @Test
    void anUnreachableDaemonIsNamed() {
        assertThatThrownBy(() -> Banyan.init(Map.of("PMI_PORT", "127.0.0.1:1", "BANYAN_RANK", "0")))
                .isInstanceOf(BanyanException.class)
                .hasMessageContaining("cannot reach the daemon's PMI endpoint 127.0.0.1:1");
    }

    @Test
    void answersAreParsedWithDoubledSemicolons() {
        assertThat(Pmi2Connection.parse("cmd=kvs-get-response;thrid=7;found=TRUE;value=a;;b;rc=0;"))
                .containsEntry("cmd", "kvs-get-response").containsEntry("thrid", "7").containsEntry("value", "a;b")
                .containsEntry("rc", "0");
    }

    /**
     * A large world's cards do not fit one PMI-2 frame (64 KiB): the daemon sends the first page
     * and how many there are, and the client asks for the rest. A fake daemon serves 400 cards
     * of 200 characters (80,000 in all, three pages), with ';' in them, and the world's secret
     * after them (a DVM's head gives each resized world one), which is not a card.
     */
    @Test
    void aJoinTooLargeForOneFrameIsReadInPages() throws Exception {
        StringBuilder all = new StringBuilder();
        for (int r = 0; r < 400; r++) {
            all.append(String.format("%-199s", "rank" + r + ";tcp=10.0.0." + r)).append('\f');
        }
        String cards = all.toString();
        String secret = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        all.append(Banyan.WORLD_SECRET).append(secret).append('\f');
        String answer = all.toString();
        int page = 30_000;
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread daemon = Thread.ofPlatform().daemon().start(() -> {
                try (java.net.Socket s = server.accept()) {
                    java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream());
                    java.io.OutputStream out = s.getOutputStream();
                    while (in.read() != '\n') {
                        // the PMI-1 init line that asks for PMI-2
                    }
                    out.write("cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n".getBytes());
                    while (true) {
                        byte[] header = new byte[6];
                        in.readFully(header);
                        byte[] body = new byte[Integer.parseInt(new String(header).strip())];
                        in.readFully(body);
                        Map<String, String> req = Pmi2Connection.parse(new String(body, java.nio.charset.StandardCharsets.ISO_8859_1));
                        String reply = switch (req.get("cmd")) {
                            case "fullinit" -> "size=400;rank=0;";
                            case "job-getid" -> "jobid=kvs_1;";
                            case "banyan-join" -> "cards=" + answer.substring(0, page).replace(";", ";;") + ";pages=3;";
                            case "banyan-join-page" -> {
                                int i = Integer.parseInt(req.get("page"));
                                yield "cards=" + answer.substring(i * page, Math.min(answer.length(), (i + 1) * page))
                                        .replace(";", ";;") + ";";
                            }
                            default -> "";
                        };
                        String frame = "cmd=" + req.get("cmd") + "-response;thrid=" + req.get("thrid") + ";" + reply + "rc=0;";
                        out.write((String.format("%6d", frame.length()) + frame).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                } catch (java.io.IOException e) {
                    // the client closed
                }
            });
            Banyan job = Banyan.init(Map.of("PMI_PORT", "127.0.0.1:" + server.getLocalPort(), "BANYAN_RANK", "0"));
            java.util.List<String> got = job.join(1, 1, 0, 400, "rank0");
            assertThat(got).hasSize(400);
            assertThat(got.get(0)).startsWith("rank0;tcp=10.0.0.0").hasSize(199);
            assertThat(got.get(399)).startsWith("rank399;tcp=10.0.0.399");
            assertThat(String.join("\f", got) + "\f").isEqualTo(cards);
            Banyan.JoinedWorld world = job.joinWorld(1, 2, 0, 400, "rank0");
            assertThat(world.cards()).isEqualTo(got);
            assertThat(java.util.HexFormat.of().formatHex(world.secret())).isEqualTo(secret);
            daemon.interrupt();
        }
    }
}
