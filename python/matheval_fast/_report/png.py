"""Plots as PNG (histograms, heat maps): matplotlib when installed, else a built-in raster written with zlib
only.

The raster has no text (no font renderer without an imaging library); its colours follow the
series order, and a red vertical line marks the threshold.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from matheval_fast._report.files import atomic_path

__all__ = ["heatmap_raster", "histogram_raster", "write_heatmap", "write_histogram", "write_png"]

_COLOURS = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (148, 103, 189)]


def write_png(path: str | Path, rgb: np.ndarray) -> None:
    """Write an 8-bit RGB image (``(h, w, 3)`` uint8) as PNG (no imaging library)."""
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    h, w, _ = rgb.shape
    raw = np.concatenate([np.zeros((h, 1), np.uint8), rgb.reshape(h, w * 3)], axis=1).tobytes()

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    idat = chunk(b"IDAT", zlib.compress(raw, 9))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + idat + chunk(b"IEND", b"")
    with atomic_path(path) as tmp:
        tmp.write_bytes(png)


def histogram_raster(
    series: Mapping[str, np.ndarray],
    marker: float | None,
    *,
    bins: int = 20,
    value_range: tuple[float, float] = (0.0, 1.0),
) -> np.ndarray:
    """Side-by-side bars of one histogram per series over ``value_range``, a red line at ``marker``."""
    w, h, margin = 640, 360, 30
    lo, hi = value_range
    img = np.full((h, w, 3), 255, np.uint8)
    counts = [np.histogram(v[np.isfinite(v)], bins=bins, range=value_range)[0] for v in series.values()]
    top = max((int(c.max()) for c in counts if c.size), default=0) or 1
    plot_w, plot_h = w - 2 * margin, h - 2 * margin
    bin_w = plot_w / bins
    for s, c in enumerate(counts):
        for b, n in enumerate(c):
            x0 = int(margin + b * bin_w + s * bin_w / len(counts)) + 1
            x1 = int(margin + b * bin_w + (s + 1) * bin_w / len(counts)) - 1
            y0 = h - margin - round(plot_h * n / top)
            img[y0 : h - margin, x0 : max(x1, x0 + 1)] = _COLOURS[s % len(_COLOURS)]
    img[h - margin, margin : w - margin] = 0  # x axis
    img[margin : h - margin, margin] = 0  # y axis
    if marker is not None and lo <= marker <= hi:
        ax = margin + round((marker - lo) / (hi - lo) * plot_w)
        img[margin : h - margin, ax : ax + 2] = (214, 39, 40)
    return img


def write_histogram(
    path: str | Path,
    series: Mapping[str, np.ndarray],
    marker: float | None,
    *,
    xlabel: str = "Siegel-Tukey p-value",
    ylabel: str = "pairs",
    marker_label: str | None = None,
    value_range: tuple[float, float] = (0.0, 1.0),
    bins: int = 20,
) -> str:
    """Histogram of each series as PNG with a vertical marker line; returns the renderer used
    (``"matplotlib"`` or ``"raster"``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        write_png(path, histogram_raster(series, marker, bins=bins, value_range=value_range))
        return "raster"
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    values = [v[np.isfinite(v)] for v in series.values()]
    ax.hist(values, bins=bins, range=value_range, label=list(series))
    if marker is not None:
        ax.axvline(marker, color="tab:red", linestyle="--", label=marker_label or f"{marker}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)
    return "matplotlib"


def heatmap_raster(matrix: np.ndarray, *, cell: int = 48, vmax: float | None = None) -> np.ndarray:
    """A square matrix as coloured cells (white = 0, red = ``vmax``; NaN grey) with grid lines.

    No text (there is no font renderer without an imaging library): row and column ``i`` are the
    ``i``-th label, in the order given to :func:`write_heatmap`.
    """
    m = np.asarray(matrix, dtype=np.float64)
    n = m.shape[0]
    top = vmax if vmax is not None else (np.nanmax(m) if np.isfinite(m).any() else 1.0)
    top = top or 1.0
    margin = 8
    size = margin * 2 + n * cell
    img = np.full((size, size, 3), 255, np.uint8)
    for i in range(n):
        for j in range(n):
            v = m[i, j]
            y0, x0 = margin + i * cell, margin + j * cell
            if not np.isfinite(v):
                colour = (200, 200, 200)
            else:
                t = float(np.clip(v / top, 0.0, 1.0))
                colour = (255, round(255 * (1 - t)), round(255 * (1 - t)))
            img[y0 : y0 + cell, x0 : x0 + cell] = colour
    for k in range(n + 1):  # grid
        img[margin + k * cell - (1 if k == n else 0), margin : margin + n * cell] = 0
        img[margin : margin + n * cell, margin + k * cell - (1 if k == n else 0)] = 0
    return img


def write_heatmap(
    path: str | Path,
    matrix: np.ndarray,
    labels: list[str],
    *,
    title: str = "",
    value_format: str = "{:.1%}",
    vmax: float | None = None,
) -> str:
    """A labelled heat map of a square matrix as PNG (matplotlib when installed, else the built-in
    raster of :func:`heatmap_raster`, without text); returns the renderer used."""
    m = np.asarray(matrix, dtype=np.float64)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        write_png(path, heatmap_raster(m, vmax=vmax))
        return "raster"
    n = len(labels)
    fig, ax = plt.subplots(figsize=(2.0 + 0.9 * n, 1.5 + 0.8 * n), dpi=100)
    im = ax.imshow(np.ma.masked_invalid(m), cmap="Reds", vmin=0, vmax=vmax)
    ax.set_xticks(range(n), labels, rotation=40, ha="right")
    ax.set_yticks(range(n), labels)
    for i in range(n):
        for j in range(n):
            if np.isfinite(m[i, j]):
                ax.text(j, i, value_format.format(m[i, j]), ha="center", va="center", fontsize=8)
    if title:
        ax.set_title(title)
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")
    plt.close(fig)
    return "matplotlib"
