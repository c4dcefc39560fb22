"""A card table in the browser for every installed game: ``cardcore play GAME --web``.

The server (Starlette on uvicorn, from the ``web`` extra) is imported only when a table
is started, so that this package stays light: the replay viewer reads its drawing
assets (``static/cards.js``, ``static/cards.css``) from here too.
"""

from __future__ import annotations

import argparse

__all__ = ["play_web"]


def play_web(args: argparse.Namespace) -> int:
    """Run ``cardcore play ... --web``: serve a card table until interrupted.

    Args:
        args: the parsed ``cardcore play`` arguments (``--host``, ``--port``,
            ``--no-browser`` and the usual ones).

    Returns:
        The exit code.
    """
    try:
        import cardcore.web._server  # noqa: F401 - the server's libraries come with the web extra
        from cardcore.web._cli import play_web as run
    except ImportError as e:  # the web extra is missing
        from cardcore.cli._common import CliError

        raise CliError(
            f"the web table needs the 'web' extra ({e.name} is missing): "
            "pip install './[web]' in a cardcore checkout (cardcore is not on PyPI), "
            "or pip install starlette uvicorn wsproto"
        ) from None
    return run(args)
