package org.banyan.comm;

import java.util.Map;
import java.util.function.IntFunction;

/** The suite with every rank on one host: all messages go through shared memory. */
class ShmTransportTest extends TransportSuite {
    @Override
    IntFunction<String> hosts() {
        return r -> "one-host";
    }

    @Override
    Map<String, String> env() {
        return Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1");
    }

    @Override
    Class<? extends Transport> transport() {
        return ShmTransport.class;
    }

    /**
     * A rank with a core of its own has small rings, ranks that share cores larger ones, as much
     * as the host's budget and its /dev/shm's free space allow.
     */
    @org.junit.jupiter.api.Test
    void ringsAreSizedByWhetherRanksShareCoresAndByTheRoomForThem() {
        long plenty = 8L << 30;
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(2, true, plenty)).isEqualTo(256 << 10);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(64, true, plenty)).isEqualTo(256 << 10);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(4, false, plenty)).isEqualTo(4 << 20);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(8, false, plenty)).as("64 rings in 256 MiB").isEqualTo(4 << 20);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(16, false, plenty)).isEqualTo(1 << 20);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(64, false, plenty)).as("never below").isEqualTo(256 << 10);
        long container = 64L << 20; // Docker's default /dev/shm
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(2, false, container)).isEqualTo(4 << 20);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(4, false, container)).isEqualTo(1 << 20);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.ringBytes(4, false, 0)).isEqualTo(256 << 10);
    }

    /** A rank's ring file is its user's alone, from its creation to its unlinking. */
    @org.junit.jupiter.api.Test
    void ringFilesAreReadableByTheirOwnerAlone() throws Exception {
        java.util.Map<String, String> published = new java.util.HashMap<>();
        Endpoints endpoints = new Endpoints() {
            @Override
            public void publish(String key, String value) {
                published.put(key, value);
            }

            @Override
            public void exchange() {}

            @Override
            public String lookup(int rank, String key) {
                return published.get(key);
            }

            @Override
            public String host(int rank) {
                return "one-host";
            }
        };
        ShmTransport t = new ShmTransport(0, 2, endpoints, false, false);
        java.nio.file.Path file = java.nio.file.Path.of(published.get(ShmTransport.KEY));
        try {
            org.assertj.core.api.Assertions.assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        } finally {
            t.close();
        }
        org.assertj.core.api.Assertions.assertThat(file).doesNotExist();
    }

    /** A peer's file that cannot hold rings for the host's ranks is refused with its size, not written past. */
    @org.junit.jupiter.api.Test
    void aPeersFileOfTheWrongSizeIsRefused() throws Exception {
        java.nio.file.Path bogus = java.nio.file.Files.createTempFile(java.nio.file.Path.of("/dev/shm"), "banyan-comm-test", "");
        java.util.Map<String, String> published = new java.util.HashMap<>();
        Endpoints endpoints = new Endpoints() {
            @Override
            public void publish(String key, String value) {
                published.put(key, value);
            }

            @Override
            public void exchange() {}

            @Override
            public String lookup(int rank, String key) {
                return rank == 0 ? published.get(key) : bogus.toString();
            }

            @Override
            public String host(int rank) {
                return "one-host";
            }
        };
        ShmTransport t = new ShmTransport(0, 2, endpoints, false, true);
        try {
            java.nio.file.Files.write(bogus, new byte[1000]);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.connect(endpoints)).isInstanceOf(CommException.class)
                    .hasMessage("rank 1's shared memory has 1000 bytes, not rings for 2 ranks");
        } finally {
            t.close();
            java.nio.file.Files.deleteIfExists(bogus);
        }
    }

    /**
     * A ring whose pages cannot be had (its file cut short here; /dev/shm full for a user: the
     * file is sparse, each page given at its first touch) ends the send with a line that says so,
     * where the JVM's SIGBUS handling said only "a fault occurred in an unsafe memory access".
     */
    @org.junit.jupiter.api.Test
    void aRingWhosePagesCannotBeHadIsNamedWithWhatShmHasLeft() throws Exception {
        java.nio.file.Path peer = java.nio.file.Files.createTempFile(java.nio.file.Path.of("/dev/shm"), "banyan-comm-test", "");
        java.util.Map<String, String> published = new java.util.HashMap<>();
        Endpoints endpoints = new Endpoints() {
            @Override
            public void publish(String key, String value) {
                published.put(key, value);
            }

            @Override
            public void exchange() {}

            @Override
            public String lookup(int rank, String key) {
                return rank == 0 ? published.get(key) : peer.toString();
            }

            @Override
            public String host(int rank) {
                return "one-host";
            }
        };
        ShmTransport t = new ShmTransport(0, 2, endpoints, false, true);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(peer.toFile(), "rw")) {
            f.setLength(2L * ShmTransport.RING);
            t.connect(endpoints);
            f.setLength(0); // its pages are gone: the next touch of the mapping is a SIGBUS
            java.lang.foreign.MemorySegment payload = java.lang.foreign.MemorySegment.ofArray(new byte[64]);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> t.send(1, new Envelope(0, 0, 1, 64), payload, new Operation.Send(null)))
                    .isInstanceOf(CommException.class)
                    .hasMessageStartingWith("a page of the shared memory for the ring to rank 1 could not be had: /dev/shm is full (")
                    .hasMessageContaining("KiB free of ")
                    .hasMessageEndingWith("free space in /dev/shm, or run fewer ranks a host");
        } finally {
            t.close();
            java.nio.file.Files.deleteIfExists(peer);
        }
    }

    /**
     * Each sender writes its receiver's rings at the receiver's size, read from its file: rank 0
     * with a core of its own (small rings) and two ranks that share cores (large rings) exchange
     * messages of every size each way, whole and in order.
     */
    @org.junit.jupiter.api.Test
    void ranksWithRingsOfDifferentSizesTalk() throws Exception {
        int[] sizes = {8, 4096, 100_000, 300_000, 3 << 20};
        java.util.List<String> got = LocalJob.run(3, hosts(), r -> Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1",
                "BANYAN_OVERSUBSCRIBED", r == 0 ? "0" : "1"), w -> {
            int me = w.rank();
            java.util.List<Request> sends = new java.util.ArrayList<>();
            for (int peer = 0; peer < 3; peer++) {
                for (int i = 0; peer != me && i < sizes.length; i++) {
                    sends.add(w.isend(pattern(sizes[i], 31 * me + i), peer, i));
                }
            }
            int whole = 0;
            for (int peer = 0; peer < 3; peer++) {
                for (int i = 0; peer != me && i < sizes.length; i++) {
                    byte[] in = new byte[sizes[i]];
                    w.recv(in, peer, i);
                    whole += java.util.Arrays.equals(in, pattern(sizes[i], 31 * peer + i)) ? 1 : 0;
                }
            }
            sends.forEach(Request::await);
            return whole + " of " + 2 * sizes.length;
        });
        org.assertj.core.api.Assertions.assertThat(got).containsOnly("10 of 10");
    }

    /**
     * With {@code BANYAN_COMM_CMA=1}, a large message from native memory into native memory is
     * read from the sender in one copy (cross-memory attach), whole and right; into a Java array,
     * or truncated, it still arrives as MPI says, and the sender's send completes either way.
     */
    @org.junit.jupiter.api.Test
    void largeNativeMessagesAreReadStraightFromTheSender() throws Throwable {
        int big = 3 << 20; // above the eager limit: announced
        byte[] expected = pattern(big, 5);
        java.util.List<String> got = LocalJob.run(2, hosts(), Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1", "BANYAN_COMM_CMA", "1"), w -> {
            try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment buf = a.allocate(big, 64);
                if (w.rank() == 0) {
                    buf.copyFrom(java.lang.foreign.MemorySegment.ofArray(expected));
                    w.send(buf, 1, 1);
                    w.send(buf, 1, 2);
                    w.send(buf, 1, 3);
                    w.recv(new byte[1], 1, 4); // the receiver is done with what it read
                    return "sent";
                }
                boolean reads = w.engine.readsFrom(0);
                long before = w.engine.singleCopyReads();
                w.recv(buf, 0, 1);
                boolean whole = java.util.Arrays.equals(buf.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), expected);
                long oneCopy = w.engine.singleCopyReads() - before;
                byte[] heap = new byte[big];
                w.recv(heap, 0, 2);
                boolean heapWhole = java.util.Arrays.equals(heap, expected);
                long afterHeap = w.engine.singleCopyReads() - before;
                java.lang.foreign.MemorySegment small = a.allocate(big / 2, 64);
                String truncated;
                try {
                    w.recv(small, 0, 3);
                    truncated = "not refused";
                } catch (TruncatedException e) {
                    truncated = java.util.Arrays.equals(small.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                            java.util.Arrays.copyOf(expected, big / 2)) ? "refused, first half in" : "refused, wrong bytes";
                }
                w.send(new byte[1], 0, 4);
                return reads + " " + whole + " " + oneCopy + " " + heapWhole + " " + afterHeap + " " + truncated;
            }
        });
        // where the kernel refuses the call (a container's seccomp profile), the ring carries it all
        long n = kernelLetsThisProcessReadItself() ? 1 : 0;
        org.assertj.core.api.Assertions.assertThat(got).containsExactly("sent",
                (n == 1) + " true " + n + " true " + n + " refused, first half in");
    }

    /** process_vm_readv of this process's own memory, called directly: what the kernel allows here. */
    static boolean kernelLetsThisProcessReadItself() throws Throwable {
        java.lang.foreign.Linker linker = java.lang.foreign.Linker.nativeLinker();
        java.lang.invoke.MethodHandle readv = linker.downcallHandle(linker.defaultLookup().find("process_vm_readv").orElseThrow(),
                java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_LONG, java.lang.foreign.ValueLayout.JAVA_INT,
                        java.lang.foreign.ValueLayout.ADDRESS, java.lang.foreign.ValueLayout.JAVA_LONG,
                        java.lang.foreign.ValueLayout.ADDRESS, java.lang.foreign.ValueLayout.JAVA_LONG,
                        java.lang.foreign.ValueLayout.JAVA_LONG));
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment from = a.allocate(8);
            java.lang.foreign.MemorySegment to = a.allocate(8);
            from.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 0x5eedL);
            java.lang.foreign.MemorySegment iov = a.allocate(32, 8);
            iov.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, to.address());
            iov.set(java.lang.foreign.ValueLayout.JAVA_LONG, 8, 8);
            iov.set(java.lang.foreign.ValueLayout.JAVA_LONG, 16, from.address());
            iov.set(java.lang.foreign.ValueLayout.JAVA_LONG, 24, 8);
            long n = (long) readv.invokeExact((int) ProcessHandle.current().pid(), iov, 1L, iov.asSlice(16), 1L, 0L);
            return n == 8 && to.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0) == 0x5eedL;
        }
    }

    /** Without {@code BANYAN_COMM_CMA=1} the same message goes through the ring (not faster here: docs/comm.md). */
    @org.junit.jupiter.api.Test
    void singleCopyIsOffUnlessAskedFor() throws Exception {
        int big = 1 << 20;
        java.util.List<String> got = run(2, w -> {
            try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment buf = a.allocate(big, 64);
                if (w.rank() == 0) {
                    buf.fill((byte) 7);
                    w.send(buf, 1, 1);
                    return "sent";
                }
                w.recv(buf, 0, 1);
                return buf.get(java.lang.foreign.ValueLayout.JAVA_BYTE, big - 1) + " " + w.engine.singleCopyReads();
            }
        });
        org.assertj.core.api.Assertions.assertThat(got).containsExactly("sent", "7 0");
    }

    /**
     * A ring written over (a record's length that no sender writes) is refused with a message
     * naming the sender, where the receiver would have walked the ring for ever.
     */
    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aCorruptRingIsRefusedNotWalked() throws Exception {
        java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch mended = new java.util.concurrent.CountDownLatch(1);
        java.util.List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                w.send(new byte[8], 1, 1); // one record first: the corrupt one is not at the ring's start
                java.lang.reflect.Field f = Engine.class.getDeclaredField("transports");
                f.setAccessible(true);
                ShmTransport shm = (ShmTransport) ((java.util.List<?>) f.get(w.engine)).stream()
                        .filter(t -> t instanceof ShmTransport).findFirst().orElseThrow();
                java.lang.reflect.Field out = ShmTransport.class.getDeclaredField("outbound");
                out.setAccessible(true);
                java.lang.reflect.Field tails = ShmTransport.class.getDeclaredField("tailOf");
                tails.setAccessible(true);
                java.lang.foreign.MemorySegment ring = ((java.lang.foreign.MemorySegment[]) out.get(shm))[1];
                long at = ShmTransport.DATA + ((long[]) tails.get(shm))[1];
                ring.set(java.lang.foreign.ValueLayout.JAVA_INT, at + ShmTransport.RECORD_KIND_AT, 1);
                ring.set(java.lang.foreign.ValueLayout.JAVA_INT, at + ShmTransport.RECORD_LENGTH_AT, -24);
                read.await(); // rank 1 met it; the ring is mended before either closes (close goes through it)
                ring.set(java.lang.foreign.ValueLayout.JAVA_INT, at + ShmTransport.RECORD_LENGTH_AT, 0);
                mended.countDown();
                return "written";
            }
            String seen;
            try { // the drain that takes the first message may meet the corrupt record right behind it
                w.recv(new byte[8], 0, 1);
                w.recv(new byte[8], 0, 2);
                seen = "received";
            } catch (CommException e) {
                seen = e.getMessage();
            } finally {
                read.countDown();
            }
            mended.await();
            return seen;
        });
        org.assertj.core.api.Assertions.assertThat(got.get(1)).contains("ring from rank 0 is corrupt");
    }

    /** The ring record's envelope is written and read through one set of named offsets. */
    @org.junit.jupiter.api.Test
    void anEnvelopeReadsBackFromItsNamedOffsets() {
        java.lang.foreign.MemorySegment m = java.lang.foreign.Arena.ofAuto().allocate(64);
        Envelope e = new Envelope(7, 3, 42, 1_000_000);
        e.writeTo(m, 8);
        org.assertj.core.api.Assertions.assertThat(Envelope.readFrom(m, 8)).isEqualTo(e);
        org.assertj.core.api.Assertions.assertThat(m.get(java.lang.foreign.ValueLayout.JAVA_INT, 8 + Envelope.TAG_AT)).isEqualTo(42);
        org.assertj.core.api.Assertions.assertThat(Envelope.LENGTH_AT + 4).isEqualTo(Envelope.BYTES);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.DATA - ShmTransport.HEAD_AT).as("a cache line between head and data")
                .isGreaterThanOrEqualTo(128);
        org.assertj.core.api.Assertions.assertThat(ShmTransport.RECORD_KIND_AT + 4).isEqualTo(ShmTransport.RECORD_HEADER);
    }
}
