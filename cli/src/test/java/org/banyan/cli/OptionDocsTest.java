package org.banyan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.banyan.cli.dvm.DashboardCommand;
import org.banyan.cli.dvm.DvmCommand;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.place.PlaceCommand;
import org.banyan.cli.run.RunArguments;
import org.banyan.cli.sim.PilotSimCommand;
import org.banyan.cli.sim.SimCommand;
import org.banyan.cli.sim.WorkloadCommand;
import org.junit.jupiter.api.Test;

/** The parser, --help and README's table come from one declaration: check that they still agree. */
class OptionDocsTest {
    @Test
    void readmeListsEveryRunOptionAsDeclared() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("| option | meaning |");
        assertThat(start).as("README has the banyan run option table").isNotNegative();
        int end = readme.indexOf("\n\n", start);
        assertThat(readme.substring(start, end + 1))
                .as("README's table differs from RunArguments.OPTIONS; paste the expected table into README.md")
                .isEqualTo(RunArguments.OPTIONS.markdownTable());
    }

    @Test
    void readmeListsEveryDvmStartOptionAsDeclared() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("| dvm start option | meaning |");
        assertThat(start).as("README has the banyan dvm start option table").isNotNegative();
        int end = readme.indexOf("\n\n", start);
        String expected = DvmCommand.START_OPTIONS.markdownTable().replaceFirst("\\| option \\|", "| dvm start option |");
        assertThat(readme.substring(start, end + 1))
                .as("README's table differs from DvmCommand.START_OPTIONS; paste the expected table into README.md")
                .isEqualTo(expected);
    }

    @Test
    void helpShowsEveryOptionAndEveryOptionParses() {
        for (OptionTable.Option<RunArguments> o : RunArguments.OPTIONS.all()) {
            assertThat(Help.RUN).contains("  " + o.synopsis());
            for (String name : o.names()) {
                assertThat(RunArguments.OPTIONS.find(name)).isSameAs(o);
            }
        }
    }

    /** Commands on the option table: their --help lists every option, and each name finds its option. */
    @Test
    void placeDashboardSimPilotAndSimLaunchHelpListTheirTables() {
        check(PlaceCommand.OPTIONS, PlaceCommand.HELP);
        check(DashboardCommand.OPTIONS, DashboardCommand.HELP);
        check(PilotSimCommand.OPTIONS, PilotSimCommand.HELP);
        check(SimCommand.LAUNCH_OPTIONS, SimCommand.LAUNCH_HELP);
        check(WorkloadCommand.OPTIONS, WorkloadCommand.HELP);
    }

    private static <A> void check(OptionTable<A> table, String help) {
        assertThat(table.all()).isNotEmpty();
        for (OptionTable.Option<A> o : table.all()) {
            assertThat(help).contains("  " + o.synopsis());
            for (String name : o.names()) {
                assertThat(table.find(name)).isSameAs(o);
            }
        }
    }
}
