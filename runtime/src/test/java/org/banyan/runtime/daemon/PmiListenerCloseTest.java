package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.banyan.core.daemon.DaemonEvent;
import org.junit.jupiter.api.Test;

/**
 * A daemon closes its PMI listener while ranks still talk to it (a job ends, a rank aborts). The
 * selector thread must end quietly whatever it was doing: once in 50 MPICH runs it died of a
 * ConcurrentModificationException, printed as a stack trace on the user's terminal.
 */
class PmiListenerCloseTest {

    @Test
    void closingUnderLoadLeavesNoTraceOnTheSelectorThread() throws Exception {
        List<Throwable> died = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> died.add(e));
        try {
            for (int round = 0; round < 60; round++) {
                closeUnderLoad(round);
            }
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        assertThat(died).as("exceptions that ended the selector thread").isEmpty();
    }

    private static void closeUnderLoad(int round) throws Exception {
        AtomicReference<PmiListener> self = new AtomicReference<>();
        PmiListener listener = PmiListener.open(event -> {
            if (event instanceof DaemonEvent.PmiLine line) {
                self.get().reply(line.conn(), "cmd=my_kvsname kvsname=kvs_0\n");
            }
        });
        self.set(listener);
        String[] address = listener.address(round).split(":");
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> ranks = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            ranks.add(Thread.ofPlatform().start(() -> talk(address[0], Integer.parseInt(address[1]), stop)));
        }
        Thread.sleep(5 + round % 7);
        listener.close();
        stop.set(true);
        for (Thread t : ranks) {
            t.join(10_000);
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("pmi-reactor")) {
                t.join(10_000);
            }
        }
    }

    /** A rank that connects and sends requests as fast as it can until told to stop or refused. */
    private static void talk(String host, int port, AtomicBoolean stop) {
        byte[] request = "cmd=get_my_kvsname\n".repeat(64).getBytes(StandardCharsets.US_ASCII);
        while (!stop.get()) {
            try (Socket s = new Socket(host, port)) {
                OutputStream out = s.getOutputStream();
                for (int i = 0; i < 50 && !stop.get(); i++) {
                    out.write(request);
                }
            } catch (IOException e) {
                return;
            }
        }
    }
}
