"""The conformance kit: checks any game for the properties cardcore promises.

Use :func:`check_game` in a plugin's test suite, or ``cardcore certify GAME`` from the
shell. :func:`playthrough` and :func:`assert_golden` keep golden playthroughs, and the
``strategies`` module has Hypothesis strategies for cards, options and reachable states.
:func:`check_plugin_anatomy` checks that a plugin's modules keep the shared anatomy, and
:func:`check_codec_hook` that its hooks declare its RL codec by reference.

The names are imported on first use, so that loading the package (pytest does, through
the ``cardcore`` pytest plugin, in every project of an environment) costs nothing and
imports neither the kit nor Hypothesis.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardcore.testing import _strategies as strategies
    from cardcore.testing._anatomy import AnatomyError, anatomy_problems, check_plugin_anatomy
    from cardcore.testing._bots_check import check_bot_options
    from cardcore.testing._codec_hook import check_codec_hook, codec_hook_problems
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
    from cardcore.testing._public_history import check_public_history, declares_public_events
    from cardcore.testing._rules_check import check_rules, rules_problems

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_GAMES",
    "PROPERTIES",
    "AnatomyError",
    "CheckResult",
    "Config",
    "ConformanceError",
    "Report",
    "anatomy_problems",
    "assert_golden",
    "check_bot",
    "check_bot_options",
    "check_codec_hook",
    "check_game",
    "check_plugin_anatomy",
    "check_public_history",
    "check_rules",
    "codec_hook_problems",
    "configurations",
    "declares_public_events",
    "parametrize_configurations",
    "playthrough",
    "rules_problems",
    "run_checks",
    "strategies",
]

_HOME = {
    "AnatomyError": "cardcore.testing._anatomy",
    "anatomy_problems": "cardcore.testing._anatomy",
    "check_plugin_anatomy": "cardcore.testing._anatomy",
    "assert_golden": "cardcore.testing._golden",
    "check_bot_options": "cardcore.testing._bots_check",
    "check_codec_hook": "cardcore.testing._codec_hook",
    "codec_hook_problems": "cardcore.testing._codec_hook",
    "playthrough": "cardcore.testing._golden",
    "parametrize_configurations": "cardcore.testing._params",
    "check_public_history": "cardcore.testing._public_history",
    "declares_public_events": "cardcore.testing._public_history",
    "check_rules": "cardcore.testing._rules_check",
    "rules_problems": "cardcore.testing._rules_check",
    "strategies": "cardcore.testing._strategies",
}


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'cardcore.testing' has no attribute {name!r}")
    module = importlib.import_module(_HOME.get(name, "cardcore.testing._kit"))
    value = module if name == "strategies" else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
