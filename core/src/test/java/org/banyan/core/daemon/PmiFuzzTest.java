package org.banyan.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * A daemon's PMI server reads whatever its ranks' MPI libraries write (of any version, or a
 * rank's own code writing to PMI_FD): random sequences of mutated PMI-1 and PMI-2 commands,
 * from four connections that come and go, are each answered or refused; none escapes the core
 * as an exception, which would end the daemon's PMI reactor and every rank's wire-up with it.
 */
class PmiFuzzTest {
    private static final List<String> V1 = List.of("cmd=initack pmiid=2", "cmd=initack pmiid=3",
            "cmd=init pmi_version=1 pmi_subversion=1", "cmd=get_maxes", "cmd=get_appnum", "cmd=get_universe_size",
            "cmd=get_my_kvsname", "cmd=get kvsname=kvs_banyan_1 key=PMI_process_mapping",
            "cmd=put kvsname=kvs_banyan_1 key=P2 value=card2", "cmd=get kvsname=kvs_banyan_1 key=P2", "cmd=barrier_in",
            "cmd=publish_name service=svc port=tag#1", "cmd=lookup_name service=svc", "cmd=unpublish_name service=svc",
            "cmd=abort exitcode=3 message=it went wrong", "cmd=finalize", "cmd=banyan-job-secret", "cmd=banyan-join",
            "cmd=banyan-join-page page=0", "cmd=banyan-resize-check", "mcmd=spawn\nnprocs=1\nexecname=/bin/true\n"
                    + "totspawns=1\nspawnssofar=1\nargcnt=1\narg1=x\npreput_num=0\ninfo_num=0\nendcmd\n");
    private static final List<String> V2 = List.of("cmd=fullinit;pmijobid=kvs_banyan_1;pmirank=2;threaded=FALSE;",
            "cmd=fullinit;pmirank=3;", "cmd=job-getid;", "cmd=kvs-put;key=k;value=v;", "cmd=kvs-fence;",
            "cmd=kvs-get;jobid=kvs_banyan_1;srcid=-1;key=k;", "cmd=info-getjobattr;key=PMI_process_mapping;",
            "cmd=info-getnodeattr;key=n;wait=FALSE;", "cmd=info-putnodeattr;key=n;value=v;",
            "cmd=name-publish;name=svc;port=p;", "cmd=name-lookup;name=svc;", "cmd=name-unpublish;name=svc;",
            "cmd=abort;isworldabort=TRUE;msg=oops;", "cmd=finalize;",
            "cmd=spawn;ncmds=1;preputcount=0;subcmd=/bin/true;maxprocs=1;argc=1;argv0=x;infokeycount=0;");
    private static final String[] ODD = {"", "-1", "0", "2147483647", "2147483648", "-2147483649", "99999999999999",
            "abc", "=", ";", ";;", " ", "\n", "é", "\u0000", "NaN", "1e9"};

    @Test
    void mutatedCommandsAreAnsweredNeverThrown() {
        for (long seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed);
            DaemonCore core = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");
            core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, java.util.Map.of())));
            core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(DaemonCoreTest.TWO_NODES)));
            int answered = 0;
            for (int round = 0; round < 20_000; round++) {
                int conn = 1 + random.nextInt(4);
                boolean v2 = random.nextBoolean();
                String command = mutate((v2 ? V2 : V1).get(random.nextInt((v2 ? V2 : V1).size())), random);
                DaemonEvent event = random.nextInt(50) == 0 ? new DaemonEvent.PmiClosed(1, conn)
                        : v2 ? new DaemonEvent.PmiFrame(1, conn, command) : new DaemonEvent.PmiLine(1, conn, command);
                try {
                    if (!core.handle(event).isEmpty()) {
                        answered++;
                    }
                } catch (RuntimeException e) {
                    throw new AssertionError("seed " + seed + ", round " + round + ": " + e + " for " + event, e);
                }
            }
            assertThat(answered).as("seed %d: most commands get an answer", seed).isGreaterThan(5_000);
        }
    }

    /** One to three of: a value swapped for an odd one, a character changed, the text cut, a field repeated. */
    private static String mutate(String command, Random random) {
        String s = command;
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits && !s.isEmpty(); e++) {
            switch (random.nextInt(4)) {
                case 0 -> {
                    List<Integer> eqs = new ArrayList<>();
                    for (int i = 0; i < s.length(); i++) {
                        if (s.charAt(i) == '=') {
                            eqs.add(i);
                        }
                    }
                    if (!eqs.isEmpty()) {
                        int eq = eqs.get(random.nextInt(eqs.size()));
                        int end = eq + 1;
                        while (end < s.length() && " ;\n".indexOf(s.charAt(end)) < 0) {
                            end++;
                        }
                        s = s.substring(0, eq + 1) + ODD[random.nextInt(ODD.length)] + s.substring(end);
                    }
                }
                case 1 -> {
                    int at = random.nextInt(s.length());
                    s = s.substring(0, at) + (char) (random.nextBoolean() ? 32 + random.nextInt(95) : random.nextInt(0x300))
                            + s.substring(at + 1);
                }
                case 2 -> s = s.substring(0, random.nextInt(s.length() + 1));
                default -> {
                    int cut = random.nextInt(s.length() + 1);
                    s = s + s.substring(cut);
                }
            }
        }
        return s;
    }
}
