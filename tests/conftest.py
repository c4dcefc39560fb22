"""Settings of the whole test session: tests that share expensive set-up run together.

``make test`` runs pytest on every core (pytest-xdist, ``--dist loadgroup``). A fixture
with a scope wider than one test (a module's browser or Dask cluster, the docs test's
wheels and fresh venvs) is made once per worker process, and some of them keep state on
disk that only one process may use at a time (a cached venv under ``.venv/fresh/``). So
the tests that share such a fixture are put in one ``xdist_group``: one worker runs them
all, in their usual order, and makes the fixture once, as a serial run would.
"""

from __future__ import annotations

import sys
from collections.abc import Generator
from typing import Any

import pytest

_SHARED_SCOPES = frozenset({"class", "module", "package", "session"})
_SAFE_ACROSS_WORKERS = frozenset({"tests/docs::wheels"})
"""Wide fixtures that are made once per run for all workers (under a lock) and only read."""


def _shared_fixtures(item: pytest.Item) -> set[str]:
    """The project's own fixtures wider than a test that ``item`` uses (directly or not).

    Fixtures of pytest and of installed plugins (``tmp_path_factory``, ...) have no base
    id and cost nothing to share; only the repository's fixtures count.
    """
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return set()
    found: set[str] = set()
    for name in info.names_closure:
        for fixturedef in info.name2fixturedefs.get(name, ()):
            key = f"{fixturedef.baseid}::{name}"
            if fixturedef.scope in _SHARED_SCOPES and fixturedef.baseid:
                found.add(key)
    return found - _SAFE_ACROSS_WORKERS


@pytest.hookimpl(wrapper=True)  # before any plugin's hook: xdist names tests by their group
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> Generator[None, None, None]:
    """Group the tests that share a wider-scoped fixture (see the module's docstring).

    A wrapper, so the marks are there before xdist's own hook reads them.
    """
    grouping = config.pluginmanager.hasplugin("xdist")
    if grouping:
        _group_by_shared_fixtures(items)
    yield
    if grouping and getattr(config.option, "loadgroup", False):  # a worker of loadgroup
        lost = [
            i.nodeid for i in items if i.get_closest_marker("xdist_group") and "@" not in i.nodeid
        ]
        if lost:
            raise pytest.UsageError(
                f"pytest-xdist did not put {lost[0]} (and {len(lost) - 1} more) in its group: "
                "this pytest and pytest-xdist do not work together for --dist loadgroup"
            )


def _group_by_shared_fixtures(items: list[pytest.Item]) -> None:
    """Mark each test with an ``xdist_group``: tests that share any wide fixture share one.

    Sharing chains: if one test uses fixtures A and B and another only B, all three are in
    A's group.
    """
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    uses = [(item, sorted(_shared_fixtures(item))) for item in items]
    for _, keys in uses:
        for other in keys[1:]:
            parent[root(other)] = root(keys[0])
    for item, keys in uses:
        if keys:
            item.add_marker(pytest.mark.xdist_group(root(keys[0])))


# The summary of the docs test (tests/docs): which documentation blocks ran and which did
# not. Its tests fill ``tests.docs.runner.REPORT`` in the process that runs them; a worker
# hands its copy to the controlling process, which prints the summary.

_DOCS_RUNNER = "tests.docs.runner"
_from_workers: dict[str, list[str]] = {"ran": [], "not_run": [], "fragments": []}


def _docs_report() -> dict[str, list[str]]:
    """This process's docs report (empty when no docs test ran here)."""
    runner = sys.modules.get(_DOCS_RUNNER)
    if runner is None:
        return {key: [] for key in _from_workers}
    return {key: list(getattr(runner.REPORT, key)) for key in _from_workers}


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a worker: pass the docs report on to the controlling process."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["docs_report"] = _docs_report()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """In the controlling process: keep what a finished worker's docs tests saw."""
    report = getattr(node, "workeroutput", {}).get("docs_report", {})
    for key, lines in report.items():
        _from_workers[key] += lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """List the documentation blocks that were not run, and why."""
    report = _docs_report()
    for key, lines in _from_workers.items():
        report[key] += lines
    if not (report["ran"] or report["not_run"]):
        return
    write = terminalreporter.write_line
    terminalreporter.section("documentation examples")
    write(
        f"{len(report['ran'])} blocks run, {len(report['not_run'])} not run (marked), "
        f"{len(report['fragments'])} fragments of files (```py, shown only)"
    )
    for line in report["not_run"]:
        write(f"  not run: {line}")
