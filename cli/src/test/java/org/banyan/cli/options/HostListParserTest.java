package org.banyan.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostListParserTest {
    @TempDir
    Path dir;

    Path file(String text) throws Exception {
        Path f = dir.resolve("hosts");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void readsOpenMpiAndHydraSyntaxWithComments() throws Exception {
        Path f = file("# cluster\nnode1 slots=4 max_slots=8\n\nnode2:2   # hydra style\nnode3\n  node4 slots=1  \n");
        assertThat(HostListParser.parseHostfile(f)).containsExactly(
                new HostEntry("node1", 4, f + ":2"), new HostEntry("node2", 2, f + ":4"),
                new HostEntry("node3", 0, f + ":5"), new HostEntry("node4", 1, f + ":6"));
    }

    /** Open MPI's other spellings (its hostfile lexer's, each checked with mpirun 4.1.4): refused before. */
    @Test
    void readsOpenMpisOtherSpellings() throws Exception {
        Path f = file("n1 count=2\nn2 slots = 3 slots-max=6\nn3 slots_max=4 slots=2\n");
        assertThat(HostListParser.parseHostfile(f)).containsExactly(
                new HostEntry("n1", 2, f + ":1"), new HostEntry("n2", 3, f + ":2"), new HostEntry("n3", 2, f + ":3"));
    }

    @Test
    void badLinesAreNamedByFileAndLine() throws Exception {
        Path f = file("node1 slots=4\nnode2 slots=x\n");
        assertThatThrownBy(() -> HostListParser.parseHostfile(f))
                .hasMessage("hostfile " + f + ":2: slots must be a positive integer, got 'x'");
        Path g = file("node1 cores=4\n");
        assertThatThrownBy(() -> HostListParser.parseHostfile(g)).hasMessage("hostfile " + g
                + ":1: cannot read 'cores=4' (expected slots=N or max_slots=N after the host name, or HOST:N)");
        Path h = file("node1:0\n");
        assertThatThrownBy(() -> HostListParser.parseHostfile(h))
                .hasMessage("hostfile " + h + ":1: slots must be a positive integer, got '0'");
        Path e = file("# nothing\n\n");
        assertThatThrownBy(() -> HostListParser.parseHostfile(e)).hasMessage("hostfile '" + e + "' lists no hosts");
        assertThatThrownBy(() -> HostListParser.parseHostfile(dir.resolve("missing")))
                .hasMessage("hostfile '" + dir.resolve("missing") + "': no such file");
        Path bad = file("no$de slots=1\n");
        assertThatThrownBy(() -> HostListParser.parseHostfile(bad))
                .hasMessage("hostfile " + bad + ":1: 'no$de' is not a valid host name");
    }

    @Test
    void hostOptionCountsOneSlotPerNameUnlessGiven() throws Exception {
        assertThat(HostListParser.parseHostOption("a,b:4,a")).containsExactly(new HostEntry("a", 1, "--host"),
                new HostEntry("b", 4, "--host"), new HostEntry("a", 1, "--host"));
        assertThatThrownBy(() -> HostListParser.parseHostOption("a,,b"))
                .hasMessage("--host 'a,,b': empty host name in the list");
        assertThatThrownBy(() -> HostListParser.parseHostOption("a:-1"))
                .hasMessage("--host 'a:-1': slots must be a positive integer, got '-1'");
    }
}
