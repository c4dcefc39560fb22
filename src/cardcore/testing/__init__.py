"""The conformance kit: checks any game for the properties cardcore promises.

Use :func:`check_game` in a plugin's test suite, or ``cardcore certify GAME`` from the
shell. :func:`playthrough` and :func:`assert_golden` keep golden playthroughs, and the
``strategies`` module has Hypothesis strategies for cards, options and reachable states.
"""

from cardcore.testing import _strategies as strategies
from cardcore.testing._bots_check import check_bot_options
from cardcore.testing._golden import assert_golden, playthrough
from cardcore.testing._kit import (
    DEFAULT_TIMEOUT,
    MAX_GAMES,
    PROPERTIES,
    CheckResult,
    Config,
    ConformanceError,
    Report,
    check_bot,
    check_game,
    configurations,
    run_checks,
)
from cardcore.testing._params import parametrize_configurations

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_GAMES",
    "PROPERTIES",
    "CheckResult",
    "Config",
    "ConformanceError",
    "Report",
    "assert_golden",
    "check_bot",
    "check_bot_options",
    "check_game",
    "configurations",
    "parametrize_configurations",
    "playthrough",
    "run_checks",
    "strategies",
]
