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

    private static void chmod(Path p, String mode) throws Exception {
        assertThat(new ProcessBuilder("chmod", mode, p.toString()).start().waitFor()).isZero();
    }

    /** Files another user could have swapped or read are refused, with the remedy; the usual ones are not. */
    @Test
    void filesOthersCouldSwapOrReadAreRefused() throws Exception {
        Path own = Files.createDirectory(dir.resolve("own"));
        chmod(own, "0755");
        DvmFiles files = new DvmFiles(own.resolve("dvm.uri"));
        files.publish("127.0.0.1:4000", 42, "abc");
        assertThat(files.unsafe()).isNull();
        assertThat(Files.getPosixFilePermissions(files.uri())).isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

        chmod(own, "0775");
        assertThatThrownBy(files::read).hasMessage("the DVM's directory " + own + " is writable by others (mode 0775), who "
                + "could swap its files; keep a DVM's files in a directory only you can write (the default is ~/.banyan), "
                + "or chmod go-w " + own);
        chmod(own, "1777"); // sticky, as /tmp: only a file's owner may replace it
        assertThat(files.read().pid()).isEqualTo(42);
        chmod(own, "0755");

        chmod(files.uri(), "0664");
        assertThatThrownBy(files::read).hasMessage(files.uri() + " is writable by others (mode 0664): refused; chmod go-w " + files.uri());
        chmod(files.uri(), "0644");

        chmod(files.secret(), "0640");
        assertThatThrownBy(files::read).hasMessage(files.secret() + " is open to others (mode 0640): refused; chmod go-rwx "
                + files.secret() + ", and if others may have read it, stop the DVM and start a new one");
        chmod(files.secret(), "0600");

        assertThat(new ProcessBuilder("chown", "nobody", files.uri().toString()).start().waitFor()).isZero();
        assertThatThrownBy(files::read).hasMessage(files.uri() + " belongs to another user (uid 65534), not to you: "
                + "refused, as it could send your DVM's secret elsewhere; remove it and start your DVM again");
        assertThat(new ProcessBuilder("chown", "nobody", own.toString()).start().waitFor()).isZero();
        assertThat(files.unsafe()).startsWith("the DVM's directory " + own + " belongs to another user (uid 65534)");
    }

    /** The head writes its contact anew: a link planted at the temporary name is not followed. */
    @Test
    void aLinkPlantedAtTheTemporaryNameIsNotFollowed() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
        DvmFiles files = new DvmFiles(dir.resolve("dvm.uri"));
        Files.createSymbolicLink(dir.resolve("dvm.uri.tmp"), victim);
        files.publish("127.0.0.1:4000", 42, "abc");
        assertThat(Files.readString(victim)).isEqualTo("precious\n");
        assertThat(files.read().address()).isEqualTo("127.0.0.1:4000");
    }

    /** The DVM's directory, when banyan makes it, is writable by its owner only, whatever the umask. */
    @Test
    void theDirectoryIsMadeForItsOwnerOnly() throws Exception {
        DvmFiles files = new DvmFiles(dir.resolve("a/b/dvm.uri"));
        files.makeDirectory();
        assertThat(Files.getPosixFilePermissions(dir.resolve("a/b"))).isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(files.unsafe()).isNull();
    }
}
