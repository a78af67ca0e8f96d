"""Instructions per row of ``check_batch`` on GSM8K-style rows, for ``perf stat`` (wall time on a
shared machine is noise; retired instructions are not).

    perf stat -e instructions:u -x, .venv/bin/python benches/check_instructions.py FILE [N]
    perf stat -e instructions:u -x, .venv/bin/python benches/check_instructions.py FILE [N] --skip

Where the machine has no hardware counters (a VM: perf says ``<not supported>``), valgrind counts
them: ``valgrind --tool=callgrind --callgrind-out-file=OUT .venv/bin/python ...`` (about 70 times
slower; ``callgrind_annotate OUT`` then shows where they go).

The difference of the two counts over N is the cost of the check alone: the second run loads
the same rows (and imports the same modules) without checking them. FILE is a parquet file with
``completion`` and ``answer`` columns (``benches/cli_score.py`` writes one); N defaults to 200,000.
"""

from __future__ import annotations

import sys

import matheval_fast as mf
import pyarrow.parquet as pq


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--skip"]
    path, n = args[0], int(args[1]) if len(args) > 1 else 200_000
    # Only the row groups that hold the first n rows: reading all of a big file would dwarf the check.
    f = pq.ParquetFile(path)
    groups, rows = [], 0
    while rows < n and len(groups) < f.metadata.num_row_groups:
        rows += f.metadata.row_group(len(groups)).num_rows
        groups.append(len(groups))
    table = f.read_row_groups(groups, columns=["completion", "answer"]).slice(0, n)
    resp = table.column("completion").combine_chunks()
    gold = table.column("answer").combine_chunks()
    if "--skip" not in sys.argv:
        r = mf.check_batch(resp, gold, threads=1)
        print(int(r.correct.sum()), len(r.correct))


if __name__ == "__main__":
    main()
