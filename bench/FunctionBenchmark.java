import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.banyan.core.pilot.PilotState;
import org.banyan.pilot.FunctionPool;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;

/**
 * No-op function tasks per second through one local pilot (docs/pilot.md): FunctionPool.map of
 * x -> x over N Integers, FunctionPool.submit of N callables, and N TaskDescription.function
 * tasks (each a Task with its states and profile lines). Best of 3 after a warm-up.
 */
public class FunctionBenchmark {
    public static void main(String[] args) throws Exception {
        int cores = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : cores;
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        Path dir = Files.createTempDirectory("banyan-fn-bench");
        try (Session session = new Session(dir)) {
            Pilot pilot = new PilotManager(session).submit(PilotDescription.local(cores));
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            if (pilot.waitState(PilotState.PMGR_ACTIVE, 60_000) != PilotState.PMGR_ACTIVE) {
                throw new IllegalStateException("pilot: " + pilot.detail());
            }
            FunctionPool pool = tmgr.functionPool(workers);
            List<Integer> input = IntStream.range(0, n).boxed().toList();
            mapRate(pool, input.subList(0, Math.min(n, 200_000))); // warm-up, and waits for the workers
            double map = 0;
            double submit = 0;
            for (int run = 0; run < 3; run++) {
                map = Math.max(map, mapRate(pool, input));
                submit = Math.max(submit, submitRate(pool, n / 4));
            }
            pool.close();
            int tasks = Math.max(1, n / 50);
            List<TaskDescription> ds = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                ds.add(new TaskDescription().function(() -> null));
            }
            long t0 = System.nanoTime();
            List<Task> submitted = tmgr.submit(ds);
            tmgr.waitTasks(submitted);
            double taskRate = tasks / ((System.nanoTime() - t0) / 1e9);
            System.out.println("| path | calls | calls/s |");
            System.out.println("|---|---:|---:|");
            System.out.printf(Locale.ROOT, "| FunctionPool.map(x -> x), %d workers | %,d | %,.0f |%n", workers, n, map);
            System.out.printf(Locale.ROOT, "| FunctionPool.submit(() -> null), %d workers | %,d | %,.0f |%n", workers, n / 4, submit);
            System.out.printf(Locale.ROOT, "| TaskDescription.function, default pool | %,d | %,.0f |%n", tasks, taskRate);
        } finally {
            org.banyan.runtime.os.FileTree.delete(dir); // the session: 20 MB of sandboxes and profile a run
        }
    }

    static double mapRate(FunctionPool pool, List<Integer> input) {
        long t0 = System.nanoTime();
        List<CompletableFuture<Integer>> out = pool.map(x -> x, input);
        CompletableFuture.allOf(out.toArray(CompletableFuture[]::new)).join();
        return input.size() / ((System.nanoTime() - t0) / 1e9);
    }

    static double submitRate(FunctionPool pool, int n) {
        long t0 = System.nanoTime();
        List<CompletableFuture<Object>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(pool.submit(() -> null));
        }
        CompletableFuture.allOf(out.toArray(CompletableFuture[]::new)).join();
        return n / ((System.nanoTime() - t0) / 1e9);
    }
}
