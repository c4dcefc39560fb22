"""Run Python blocks of one page, in order, in one namespace (run by the fresh venv's Python).

Requests arrive on stdin, one JSON object a line: ``{"file": ..., "line": N, "code": ...}``
runs ``code`` as if it stood at line ``N + 1`` of ``file`` (so tracebacks name the page's
own lines); ``{"reset": true}`` starts a new namespace. Each reply goes, as one JSON line,
to the file descriptor given as the first argument: ``{"out": ..., "error": ...}``, with
what the block printed and the traceback of an exception (or ``null``).
"""

import contextlib
import json
import os
import sys
import tempfile
import traceback


def main() -> None:
    """Serve requests until stdin closes."""
    reply = os.fdopen(int(sys.argv[1]), "w", encoding="utf-8")
    namespace: dict[str, object] = {"__name__": "__main__"}
    for request in sys.stdin:
        req = json.loads(request)
        if req.get("reset"):
            namespace = {"__name__": "__main__"}
            reply.write(json.dumps({"out": "", "error": None}) + "\n")
            reply.flush()
            continue
        error = None
        # a real file (with a file descriptor), so that code handing sys.stderr or
        # sys.stdout to a subprocess works as it does in a terminal
        with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                try:
                    code = compile("\n" * req["line"] + req["code"], req["file"], "exec")
                    exec(code, namespace)
                except BaseException:  # noqa: BLE001 - the block's own failure, reported whole
                    error = traceback.format_exc()
            out.flush()
            out.seek(0)
            printed = out.read()
        reply.write(json.dumps({"out": printed, "error": error}) + "\n")
        reply.flush()


if __name__ == "__main__":
    main()
