"""Where a web table writes its matches: saves of an unfinished deal, records of finished ones."""

from __future__ import annotations

from pathlib import Path

from cardcore._engine import MatchRecord

__all__ = ["record_path_of_deal", "save_new"]


def save_new(record: MatchRecord, save_dir: Path, game: str) -> str:
    """Save ``record`` to a new file in ``save_dir`` (never over another); its path."""
    # Not named by the seed: the path goes back to the page, and the seed deals every card.
    stem = f"{game}-table"
    k = 1
    while True:
        path = save_dir / (f"{stem}.cardcore.json" if k == 1 else f"{stem}-{k}.cardcore.json")
        try:
            with path.open("x", encoding="utf-8"):
                pass
        except FileExistsError:
            k += 1
            continue
        break
    record.save(str(path))
    return str(path)


def record_path_of_deal(record_path: str, deal: int) -> Path:
    """Where ``--record`` writes the ``deal``-th finished deal (``FILE``, ``FILE-2``, ...)."""
    path = Path(record_path)
    if deal > 1:
        path = path.with_name(f"{path.stem}-{deal}{path.suffix}")
    return path
