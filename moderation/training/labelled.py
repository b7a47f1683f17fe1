"""Writing a labelled set the way every importer does: one JSON row per text, sorted by a hash
of the text, gzipped without a timestamp, so the same source always gives the same bytes."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

Row = tuple[str, dict[str, int]]


def write_labelled(rows: Iterable[Row], out: Path) -> list[Row]:
    """Write `rows` (text, labels) to `out` in hash order; return them in that order."""
    ordered = sorted(
        rows, key=lambda r: hashlib.sha1(r[0].encode(), usedforsecurity=False).hexdigest()
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = "".join(
        json.dumps({"text": t, "labels": labels}, ensure_ascii=False, sort_keys=True) + "\n"
        for t, labels in ordered
    )
    with gzip.GzipFile(out, "wb", mtime=0) as fh:
        fh.write(lines.encode("utf-8"))
    return ordered
