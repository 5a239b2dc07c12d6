import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Staging;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;

/**
 * A Java ensemble with the Pilot API: a thousand short simulations on a local pilot, then one
 * aggregation task that reads their outputs. Run it with examples/run-ensemble [TASKS].
 */
public class Ensemble {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Path results = Files.createTempDirectory("ensemble");
        try (Session session = new Session()) {
            PilotManager pmgr = new PilotManager(session);
            TaskManager tmgr = new TaskManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(Runtime.getRuntime().availableProcessors()));
            tmgr.addPilots(pilot);
            List<TaskDescription> sims = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                sims.add(new TaskDescription().executable("sh")
                        .arguments("-c", "echo $((" + i + " * " + i + ")) > result.txt")
                        .outputStaging(new Staging("result.txt", results.resolve("sim." + i).toString(), Staging.Action.MOVE)));
            }
            long t0 = System.nanoTime();
            List<Task> tasks = tmgr.submit(sims);
            // submitted at once: the task manager holds it until every simulation is DONE (and staged)
            Task sum = tmgr.submit(new TaskDescription().executable("sh").arguments("-c",
                    "cat " + results + "/sim.* | awk '{s += $1} END {print s}'").stdout("sum.txt")
                    .after(tasks.toArray(Task[]::new))).getFirst();
            tmgr.waitTasks(tasks);
            long failed = tasks.stream().filter(t -> t.state() != TaskState.DONE).count();
            System.out.printf("%d simulations in %.2f s on %s (%s), %d failed%n", n, (System.nanoTime() - t0) / 1e9,
                    pilot.uid(), pilot.state() == PilotState.PMGR_ACTIVE ? "active" : pilot.state(), failed);
            tmgr.waitTasks(List.of(sum));
            if (sum.state() != TaskState.DONE) {
                System.out.println("the aggregation did not run: " + sum.detail());
                return;
            }
            System.out.println("sum of squares: " + Files.readString(sum.sandbox().resolve("sum.txt")).strip()
                    + " (expected " + ((long) (n - 1) * n * (2L * n - 1) / 6) + ")");
            System.out.println("profile: " + session.dir().resolve("banyan.prof"));
        }
    }
}
