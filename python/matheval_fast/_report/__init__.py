"""Shared output helpers for every protocol and sub-command: progress bars, files, plots, tables.

One module per concern, none of them importing a protocol module:

- :mod:`~matheval_fast._report.progress`: a progress bar that is a no-op when off or not on a terminal.
- :mod:`~matheval_fast._report.files`: atomic output files and JSON that stays standard (NaN -> null).
- :mod:`~matheval_fast._report.png`: histograms as PNG (matplotlib when installed, else built in).
- :mod:`~matheval_fast._report.tables`: plain-text and Markdown tables.
- :mod:`~matheval_fast._report.html`: ``report.html``, one self-contained page per run of ``rescore``,
  ``compare`` and ``score`` (its builders read the runs' outputs; they import the run modules when called).
"""
