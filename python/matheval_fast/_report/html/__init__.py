"""``report.html``: one self-contained page per run of ``rescore``, ``compare`` and ``score``.

No network: style, script, data (JSON in a ``<script type="application/json">`` element) and charts (SVG
built here) are inline, so the file opens from disk, a mail attachment or a CI artifact. The summary
tables are plain HTML that reads without scripts; the item browser (filters, search, ``#item-…`` links,
a virtual list that keeps a few dozen rows in the page whatever the number of items) is the script.

- :mod:`~matheval_fast._report.html.page`: the template, escaping, tables, SVG charts, the atomic write.
- :mod:`~matheval_fast._report.html.text`: response text (the extracted span, long texts cut).
- :mod:`~matheval_fast._report.html.rescore`, :mod:`~matheval_fast._report.html.compare`,
  :mod:`~matheval_fast._report.html.score`: one page builder per command.
"""

from __future__ import annotations

from matheval_fast._report.html.compare import write_compare_report
from matheval_fast._report.html.page import DEFAULT_LIMIT
from matheval_fast._report.html.rescore import write_rescore_report
from matheval_fast._report.html.score import write_score_report

__all__ = ["DEFAULT_LIMIT", "write_compare_report", "write_rescore_report", "write_score_report"]
