"""A griffe extension for the API reference: Sphinx roles in docstrings become links.

Docstrings across the code name other objects the Sphinx way (``:func:`play_match```,
``:meth:`~cardcore.MatchRecord.dumps```). mkdocstrings renders Markdown and would show
those roles as raw text, so this extension rewrites each role, once the package is
loaded, into a cross-reference that mkdocs-autorefs turns into a link to the object's
entry in the reference. A name is resolved the way Python would from the docstring's
object (its members, then its module's names and imports); ``~`` shows only the last
part of the name. A target with no entry in the reference (a private helper, a
standard-library name) stays as code, without a link.

Configured in mkdocs.yml under the python handler's ``extensions``.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(
    r":(?:py:)?(?P<role>func|meth|class|attr|mod|data|exc|obj|const):`(?P<target>[^`]+)`"
)
"""A Sphinx cross-reference role, such as ``:func:`name``` or ``:class:`~pkg.Name```."""

_EXPLICIT = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles into autorefs cross-references in every loaded docstring."""

    def __init__(self) -> None:
        self.rewritten = 0

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings of a package once it is completely loaded."""
        public = _public_paths(pkg)
        for obj in _walk(pkg):
            doc = obj.docstring
            if doc is None or ":" not in doc.value:
                continue

            def replace(m: re.Match[str], obj: griffe.Object = obj) -> str:
                self.rewritten += 1
                return link(obj, m["target"], public)

            doc.value = ROLE.sub(replace, doc.value)


def link(obj: griffe.Object, target: str, public: dict[str, str] | None = None) -> str:
    """The HTML that replaces one role: an optional cross-reference around the name as code.

    Args:
        obj: the object whose docstring holds the role.
        target: the role's target (``name``, ``~pkg.mod.name``, ``title <pkg.name>``).
        public: canonical path -> the public path it is documented under.

    Returns:
        ``<autoref identifier="PATH" optional><code>NAME</code></autoref>`` when the name
        resolves, else ``<code>NAME</code>``.
    """
    explicit = _EXPLICIT.match(target)
    if explicit:
        title, target = explicit["title"], explicit["target"]
    else:
        title = ""
    short = target.startswith("~")
    target = target.lstrip("~.")
    if target.endswith("()"):
        target = target[:-2]
    if not title:
        title = target.rsplit(".", 1)[-1] if short else target
    code = f"<code>{_escape(title)}</code>"
    path = resolve(obj, target)
    if path is None:
        return code
    path = (public or {}).get(path, path)
    return f'<autoref identifier="{_escape(path)}" optional>{code}</autoref>'


def resolve(obj: griffe.Object, target: str) -> str | None:
    """The full path that ``target`` names, seen from ``obj``; None when it is not found."""
    head, _, rest = target.partition(".")
    scope: griffe.Object | None = obj
    while scope is not None:
        try:
            found = scope.resolve(head)
        except (griffe.NameResolutionError, AttributeError, KeyError, ValueError):
            scope = scope.parent
            continue
        return f"{found}.{rest}" if rest else found
    try:
        obj.modules_collection.get_member(target)
    except (KeyError, ValueError, AttributeError):
        return None
    return target


def _public_paths(pkg: griffe.Module) -> dict[str, str]:
    """Canonical path -> public path, for the names a public module re-exports."""
    out: dict[str, str] = {}
    for module in _walk(pkg):
        if not isinstance(module, griffe.Module) or any(
            part.startswith("_") for part in module.path.split(".")
        ):
            continue
        for name, member in module.members.items():
            if isinstance(member, griffe.Alias) and not name.startswith("_"):
                candidate = f"{module.path}.{name}"
                known = out.get(member.target_path)
                if known is None or known.count(".") > candidate.count("."):
                    out[member.target_path] = candidate
    return out


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    out = [obj]
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            out += _walk(member)
    return out


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
