"""One rank of mpi4py's own test suite, as its runtests.py runs it, with each test's outcome
written to OUT/rank-R.tsv (test id, outcome) instead of interleaved verbose lines on stderr.
Used by bench/mpi4py-suite; run as: python3 mpi4py_suite_rank.py SUITE_TEST_DIR OUT_DIR
[RUNTESTS_OPTIONS...] (runtests.py's own, such as -e test_spawn or -i test_spawn -k TestSpawnSelf)."""
import os
import sys
import unittest

suite_dir, out_dir = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True
sys.path.insert(0, suite_dir)
import runtests  # noqa: E402  (mpi4py's own runner: its options, its test loading)

options, args = runtests.getoptionparser().parse_args(['--no-builddir'] + sys.argv[3:])
runtests.setup_python(options)
runtests.setup_unittest(options)
runtests.import_package(options, 'mpi4py')
from mpi4py import MPI  # noqa: E402

rank = MPI.COMM_WORLD.Get_rank()
size = MPI.COMM_WORLD.Get_size()
# A line per test as it ends, so that a run that hangs still tells which tests ended.
record = open(os.path.join(out_dir, 'rank-%d.tsv' % rank), 'a', buffering=1)


def note(test, outcome):
    record.write('%s\t%s\n' % (test.id(), outcome))


class Recording(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        note(test, 'ok')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        note(test, 'FAIL')

    def addError(self, test, err):
        super().addError(test, err)
        note(test, 'ERROR')

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        note(test, 'skipped')

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        note(test, 'expected-failure')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        note(test, 'unexpected-success')


log = open(os.path.join(out_dir, 'rank-%d.log' % rank), 'a')
record.write('# size\t%d\n' % size)
runner = unittest.TextTestRunner(stream=log, verbosity=2, resultclass=Recording)
runner.run(runtests.load_tests(options, args))
record.write('# end\n')
record.close()
log.close()
