"""The arena on a Dask cluster gives exactly the results of a local run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardcore.arena import run_arena
from cardcore.arena._store import Store

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A small in-process Dask cluster (threads; the dashboard on a free port, not 8787)."""
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as c:
        yield c


def _records(db: Path) -> list[tuple[Any, ...]]:
    with Store(db) as store:
        return [(g.deal, g.arrangement, g.record) for g in store.games("highcard", records=True)]


def test_dask_results_equal_local_results(tmp_path: Path, cluster: Any) -> None:
    """Same seed and bots: the Dask run stores the same records and reports the same stats."""
    kw: dict[str, Any] = {"games": 5, "seed": 21, "players": 3}
    local = run_arena(
        "highcard", ["random", "random", "random"], workers=0, db=tmp_path / "l", **kw
    )
    on_dask = run_arena(
        "highcard",
        ["random", "random", "random"],
        scheduler=cluster.scheduler_address,
        db=tmp_path / "d",
        **kw,
    )
    assert on_dask.played == local.played == 5 * 6
    assert on_dask.bots == local.bots
    assert _records(tmp_path / "d") == _records(tmp_path / "l")


def test_dask_with_a_client_resumes_a_local_run(tmp_path: Path, cluster: Any) -> None:
    """A run started locally can be finished on Dask (a client object also works)."""
    db = tmp_path / "m.sqlite"
    run_arena("highcard", ["random", "random"], games=2, seed=8, workers=0, db=db)
    with distributed.Client(cluster, set_as_default=False) as client:
        more = run_arena("highcard", ["random", "random"], games=4, seed=8, scheduler=client, db=db)
    assert (more.played, more.reused) == (4, 4)
    alone = run_arena("highcard", ["random", "random"], games=4, seed=8, workers=0, db=None)
    assert more.bots == alone.bots
