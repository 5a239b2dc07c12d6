package org.banyan.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.runtime.os.FileTree;

/**
 * The build's AOT training run ({@code BANYAN_AOT_TRAINING=1 banyan aot-training}, from the
 * {@code banyan} script): one JVM that goes through what users start most, so the AOT cache has
 * those classes loaded and linked. A short job ({@code run}), and a DVM's client side: start a
 * local DVM (which warms itself with typed task requests from this JVM), submit a bag of tasks
 * and a single one, stop it. The DVM's own JVM is not trained here: its classes are mostly the
 * job path's, and a hand-trained cache moved a fresh DVM's first 10,000 tasks by 2-3 %.
 * A run over two daemon processes (the local launcher) loads what every TCP link of the overlay
 * uses, its proof of the job's secret (SHA-256, SecureRandom) and its heartbeat, for the head and,
 * through the shared cache, for the daemon JVMs.
 */
final class AotTraining {
    static final String COMMAND = "aot-training";
    private static final int TASKS = 300;

    private AotTraining() {}

    static int run() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("banyan-aot-training");
            trainDvmClient(dir);
        } catch (IOException | RuntimeException e) {
            System.err.println("banyan aot-training: the DVM part failed (" + e + "); the cache covers the rest");
        } finally {
            if (dir != null) {
                FileTree.delete(dir);
            }
        }
        loadMessages();
        Main.run(List.of("run", "--launcher", "local", "-H", "a,b", "-n", "2", "true"));
        // ranks that live long enough for the daemon to look into them for an MPI singleton (MpiSightings)
        return Main.run(List.of("run", "-n", "2", "--oversubscribe", "--tag-output", "sh", "-c", "echo ok; sleep 0.1"));
    }

    /**
     * Every kind of message and event the cores and the wire know, loaded: a kind the training's
     * jobs never met (a PMI line, a PMIx fence: the training's ranks speak neither) was read from
     * the jar and verified while an MPI job's first rank waited for its answer (12 classes, 16 ms
     * on a slow machine, when the first Open MPI rank connected).
     */
    private static void loadMessages() {
        for (Class<?> root : List.of(org.banyan.core.daemon.DaemonEvent.class, org.banyan.core.daemon.DaemonAction.class,
                org.banyan.core.head.HeadEvent.class, org.banyan.core.head.HeadAction.class,
                org.banyan.core.wire.OverlayMessage.class, org.banyan.core.wire.ClientMessage.class,
                org.banyan.core.dvm.DvmEvent.class, org.banyan.core.dvm.DvmAction.class)) {
            load(root);
        }
    }

    private static void load(Class<?> c) {
        Class<?>[] subclasses = c.getPermittedSubclasses();
        if (subclasses != null) {
            for (Class<?> s : subclasses) {
                load(s);
            }
        }
    }

    private static void trainDvmClient(Path dir) throws IOException {
        String uri = dir.resolve("dvm.uri").toString();
        Path tasks = dir.resolve("tasks.jsonl");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            lines.add("{\"executable\": \"/bin/true\", \"arguments\": [\"" + i + "\"]}");
        }
        Files.write(tasks, lines);
        if (Main.run(List.of("dvm", "start", "--host", "localhost:2", "--uri-file", uri)) != 0) {
            return;
        }
        try {
            Main.run(List.of("submit", "--dvm", uri, "--quiet", "--session", dir.resolve("bag").toString(), "--tasks",
                    tasks.toString()));
            Main.run(List.of("submit", "--dvm", uri, "--quiet", "--session", dir.resolve("one").toString(), "--", "/bin/true"));
            Main.run(List.of("dvm", "status", "--dvm", uri));
        } finally {
            Main.run(List.of("dvm", "stop", "--dvm", uri));
        }
    }
}
