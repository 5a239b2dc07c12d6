package org.banyan.cli.tasks;

import java.util.ArrayList;
import java.util.List;
import org.banyan.cli.options.UsageException;

/** A DVM's task ids on the command line: {@code 7}, {@code 3-9}, {@code 3-9,12}; and back, as short. */
final class TaskIds {
    private TaskIds() {}

    static List<Integer> parse(List<String> words) throws UsageException {
        return parse(words, "a task id or a range of them (like 7 or 3-9)");
    }

    /** Ids a command line may name in all: each is held in a list. */
    static final int MAX_IDS = 10_000_000;

    /**
     * Ids and ranges of them, in the order given; a part that is not one is "'PART' is not {@code
     * what}", a range backwards or past {@link #MAX_IDS} ids in all is named as such.
     */
    static List<Integer> parse(List<String> words, String what) throws UsageException {
        List<Integer> ids = new ArrayList<>();
        for (String word : words) {
            for (String part : word.split(",")) {
                int from;
                int to;
                try {
                    int dash = part.indexOf('-', 1);
                    from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                    to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
                } catch (NumberFormatException e) {
                    throw new UsageException("'" + part + "' is not " + what);
                }
                if (from < 0 || to < 0) {
                    throw new UsageException("'" + part + "' is not " + what);
                }
                if (to < from) {
                    throw new UsageException("'" + part + "' ends before it starts (write " + to + "-" + from + ")");
                }
                if ((long) to - from + 1 + ids.size() > MAX_IDS) {
                    throw new UsageException(String.format(java.util.Locale.ROOT, "'%s' makes %,d ids in all, more than the "
                            + "%,d one command takes", part, (long) to - from + 1 + ids.size(), MAX_IDS));
                }
                for (int id = from; id <= to; id++) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }

    /** Ranges of consecutive ids, in the order given: {@code 3-9,12}. */
    static String format(List<Integer> given) {
        // sorted: ids come in the order tasks ended, and 100,000 of them printed as 34,000 ranges
        List<Integer> ids = given.stream().sorted().distinct().toList();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.size(); ) {
            int j = i;
            while (j + 1 < ids.size() && ids.get(j + 1) == ids.get(j) + 1) {
                j++;
            }
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(ids.get(i));
            if (j > i) {
                sb.append('-').append(ids.get(j));
            }
            i = j + 1;
        }
        return sb.toString();
    }
}
