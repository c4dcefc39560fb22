"""A card table in the browser for every installed game: ``cardcore play GAME --web``.

The server (Starlette on uvicorn, from the ``web`` extra) is imported only when a table
is started, so that this package stays light: the replay viewer reads its drawing
assets (``static/cards.js``, ``static/cards.css``) from here too.
"""

from __future__ import annotations
