package org.banyan.cli.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.cli.options.InputFiles;
import org.banyan.cli.options.UsageException;

/**
 * An MPMD job written in a file: Open MPI's appfile ({@code mpirun --app FILE}) and
 * mpiexec.hydra's {@code -configfile FILE}. Each line is a context ({@code -n 2 ./a -x}), or
 * several joined by {@code :} as on a command line; {@code #} starts a comment, blank lines are
 * skipped, and a line ending in {@code \} goes on on the next. Words are split as a shell splits
 * them, quotes and backslashes included (Open MPI keeps quotes as part of the word; a shell user
 * writing {@code "a b"} means one word).
 */
final class AppFile {
    private AppFile() {}

    /** The file's contexts as command-line words, {@code :} between them. */
    static List<String> words(Path file, String option) throws UsageException {
        List<String> lines = InputFiles.lines(file, option);
        List<String> out = new ArrayList<>();
        StringBuilder joined = new StringBuilder();
        int first = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (joined.isEmpty()) {
                first = n + 1;
            }
            if (line.endsWith("\\") && !line.endsWith("\\\\")) {
                joined.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            joined.append(line);
            List<String> words = split(joined.toString(), option + " '" + file + "' line " + first);
            joined.setLength(0);
            if (words.isEmpty()) {
                continue;
            }
            if (!out.isEmpty()) {
                out.add(":");
            }
            out.addAll(words);
        }
        if (out.isEmpty()) {
            throw new UsageException(option + " '" + file + "' names no program");
        }
        return out;
    }

    /** One line's words, as sh splits them: '...' literal, "..." with \" \\ \$ \`, \ outside quotes; # at a word's start ends it. */
    static List<String> split(String line, String where) throws UsageException {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else if (c == '#' && !inWord) {
                break;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new UsageException(where + ": a ' is not closed");
                }
                word.append(line, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                int j = i + 1;
                for (; j < line.length() && line.charAt(j) != '"'; j++) {
                    char d = line.charAt(j);
                    if (d == '\\' && j + 1 < line.length() && "\"\\$`".indexOf(line.charAt(j + 1)) >= 0) {
                        d = line.charAt(++j);
                    }
                    word.append(d);
                }
                if (j >= line.length()) {
                    throw new UsageException(where + ": a \" is not closed");
                }
                i = j;
                inWord = true;
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
                inWord = true;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
