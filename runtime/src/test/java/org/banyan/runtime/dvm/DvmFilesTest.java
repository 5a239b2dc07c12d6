package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DvmFilesTest {
    @TempDir
    Path dir;

    @Test
    void aPublishedContactReadsBack() throws Exception {
        DvmFiles files = new DvmFiles(dir.resolve("dvm.uri"));
        files.publish("127.0.0.1:4000", 42, "abc");
        assertThat(files.read()).isEqualTo(new DvmFiles.Contact("127.0.0.1:4000", 42, "abc"));
    }

    /** A large file given as the URI file by mistake is named as no URI file, not read whole. */
    @Test
    void aLargeFileIsNoUriFile() throws Exception {
        Path big = dir.resolve("big.log");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(3L << 30);
        }
        assertThatThrownBy(() -> new DvmFiles(big).read()).isInstanceOf(IOException.class).hasMessage(big + " is not a DVM URI file");
    }

    /** A binary file (a program given by mistake) is no URI file either, not a decoder's "Input length = 1". */
    @Test
    void aBinaryFileIsNoUriFile() throws Exception {
        Path binary = dir.resolve("prog");
        Files.write(binary, new byte[] {0x7f, 'E', 'L', 'F', (byte) 0xff, (byte) 0xfe, '\n', (byte) 0x80, '\n'});
        assertThatThrownBy(() -> new DvmFiles(binary).read()).isInstanceOf(IOException.class)
                .hasMessage(binary + " is not a DVM URI file");
    }

    /** A fifo where the secret belongs is refused, not opened: nothing would ever write to it. */
    @Test
    @org.junit.jupiter.api.Timeout(value = 20, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aFifoForTheSecretIsNotWaitedOn() throws Exception {
        DvmFiles files = new DvmFiles(dir.resolve("dvm.uri"));
        files.publish("127.0.0.1:4000", 42, "abc");
        Files.delete(files.secret());
        assertThat(new ProcessBuilder("mkfifo", files.secret().toString()).start().waitFor()).isZero();
        assertThatThrownBy(files::read).isInstanceOf(IOException.class)
                .hasMessage("cannot read the DVM's secret " + files.secret() + ": not a file");
    }

    @Test
    void aSecretFileThatIsNoSecretIsSaidSo() throws Exception {
        DvmFiles files = new DvmFiles(dir.resolve("dvm.uri"));
        files.publish("127.0.0.1:4000", 42, "abc");
        Files.writeString(files.secret(), "x".repeat(DvmFiles.SMALL + 1));
        assertThatThrownBy(files::read).isInstanceOf(IOException.class)
                .hasMessage("the DVM's secret " + files.secret() + " is not one (over 4096 bytes)");
    }
}
