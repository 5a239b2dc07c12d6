import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What monitoring adds to each message, measured alone: the nanoseconds of the engine's
 * per-message call (org.banyan.comm.Monitor#sent, package-private, reached by reflection and a
 * constant method handle the JIT inlines) with monitoring off and on, over 64 peers and sizes of
 * every bucket. bench/comm prints it beside the ping-pong's latency.
 * Run: java -cp comm/target/banyan-comm.jar:client/target/banyan-client.jar bench/MonitorCost.java
 */
public class MonitorCost {
    static final MethodHandle SENT;
    static final Object MONITOR;

    static {
        try {
            Class<?> c = Class.forName("org.banyan.comm.Monitor");
            var ctor = c.getDeclaredConstructor(int.class, ReentrantLock.class);
            ctor.setAccessible(true);
            MONITOR = ctor.newInstance(64, new ReentrantLock());
            Method sent = c.getDeclaredMethod("sent", int.class, boolean.class, long.class);
            sent.setAccessible(true);
            SENT = MethodHandles.lookup().unreflect(sent)
                    .asType(MethodType.methodType(void.class, Object.class, int.class, boolean.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static void main(String[] args) throws Throwable {
        Method start = MONITOR.getClass().getMethod("start");
        Method stop = MONITOR.getClass().getMethod("stop");
        for (int round = 0; round < 3; round++) {
            for (boolean on : new boolean[] {false, true}) {
                (on ? start : stop).invoke(MONITOR);
                long n = 100_000_000L;
                long t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    SENT.invokeExact(MONITOR, (int) (i & 63), (i & 7) == 0, (i * 2654435761L) & 0xFFFFF);
                }
                double ns = (System.nanoTime() - t0) / (double) n;
                if (round == 2) {
                    System.out.printf("monitor %s: %.2f ns per message%n", on ? "on " : "off", ns);
                }
            }
        }
    }
}
