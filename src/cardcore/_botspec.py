"""Bot specs and bot options: the one parser behind ``--bots`` and ``load_bot``.

A bot spec names a bot and its options in one string: ``ismcts:iterations=200`` for a
registered id, ``my_pkg.bots:Greedy:depth=2`` for an import path. :func:`parse_bot_spec`
reads it; :func:`bot_options` says which options a factory takes; :func:`build_bot`
checks and converts the options and calls the factory with the arguments it accepts.

A bot declares its options by its signature: every named parameter of its factory
other than ``game`` and ``seed`` is an option, its annotation says the type a
command-line value is converted to, its default says what happens without it. So a
built-in bot, a plugin's bot and a class named by import path all declare options the
same way, and nothing is registered twice.
"""

from __future__ import annotations

import enum
import functools
import importlib
import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, final

import attrs

from cardcore._game import Bot, Game

__all__ = [
    "BotOption",
    "bot_options",
    "build_bot",
    "import_bot_factory",
    "is_import_path",
    "parse_bot_spec",
]

_NO_DEFAULT = inspect.Parameter.empty
_SCALARS: tuple[type, ...] = (bool, int, float, str)
_TYPE_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


@final
@attrs.frozen(kw_only=True)
class BotOption:
    """One option a bot accepts, read from its factory's signature."""

    name: str
    """The keyword (``iterations``)."""
    type: Any
    """The annotation, resolved (``int``, ``float | None``, a ``Literal``), or ``Any``."""
    default: Any = None
    """The default value (meaningless when :attr:`required`)."""
    required: bool = False
    """Whether the factory has no default for it."""
    doc: str = ""
    """One line from the factory's ``Args:`` docstring section, if any."""

    @property
    def from_text(self) -> bool:
        """Whether a value can be given as text (``--bots ismcts:iterations=200``).

        Options of other types (a ``SearchHints``, a function) are given in Python only,
        so the command line neither lists them nor takes them.
        """
        return _text_ok(self.type)

    @property
    def type_text(self) -> str:
        """The type in words a user reads (``int``, ``float | None``, ``'a' | 'b'``)."""
        return _type_text(self.type)

    def describe(self) -> str:
        """``iterations: int = 300`` (or ``depth: int, required``)."""
        tail = ", required" if self.required else f" = {_value_text(self.default)}"
        return f"{self.name}: {self.type_text}{tail}"

    def coerce(self, value: Any) -> Any:
        """Convert a command-line string (or check a Python value) to the declared type.

        Raises:
            ValueError: ``iterations must be an integer, not 'abc'``.
        """
        return _coerce(self.name, self.type, value)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: name, type (text), default, required, doc."""
        default = self.default if isinstance(self.default, (*_SCALARS, type(None))) else None
        if isinstance(self.default, enum.Enum):
            default = self.default.value
        return {
            "name": self.name,
            "type": self.type_text,
            "default": None if self.required else default,
            "required": self.required,
            "doc": self.doc,
        }


# ---- parsing ---------------------------------------------------------------------------


def is_import_path(name: str) -> bool:
    """Whether a bot name is an import path ``package.module:Attribute``."""
    return ":" in name


def parse_bot_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split ``ismcts:iterations=200`` or ``pkg.mod:Bot:depth=2`` into name and options.

    The first ``:``-separated part without ``=`` after the name is the attribute of an
    import path. Option values stay text; :func:`build_bot` converts them by the
    declared types.

    Returns:
        The bot name (an id or an import path) and its options, as text.

    Raises:
        ValueError: an empty name, an option that is not ``key=value``, or an option
            given twice.
    """
    parts = [p.strip() for p in text.strip().split(":")]
    name, rest = parts[0], parts[1:]
    if rest and "=" not in rest[0]:
        name, rest = f"{name}:{rest[0]}", rest[1:]
    if not name or name.startswith(":") or name.endswith(":"):
        raise ValueError(f"bot entry {text!r} has no name")
    options: dict[str, str] = {}
    for item in rest:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bot option {item!r} in {text!r} must look like key=value")
        if key in options:
            raise ValueError(f"bot option {key!r} is given twice in {text!r}")
        options[key] = value.strip()
    return name, options


@functools.lru_cache(maxsize=64)
def import_bot_factory(path: str) -> Callable[..., Any]:
    """The class or function an import path ``package.module:Attribute`` names.

    Raises:
        ValueError: the module cannot be imported, has no such attribute, or it is not
            callable.
    """
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise ValueError(f"bot {path!r}: an import path looks like package.module:Attribute")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(
            f"bot {path!r}: cannot import {module_name!r} ({e}); is its directory on "
            "PYTHONPATH (the command line also looks in the current directory)?"
        ) from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"bot {path!r}: {module_name!r} has no {attr!r}") from None
    if not callable(obj):
        raise ValueError(f"bot {path!r} is not callable")
    return obj  # type: ignore[no-any-return]


# ---- reading a factory's signature -------------------------------------------------------


@final
@attrs.frozen(kw_only=True)
class _Shape:
    """How a factory is called: whether it takes the game and the seed, and its options."""

    game: Literal["positional", "keyword", "no"]
    seed: bool
    options: tuple[BotOption, ...]
    var_keyword: str | None
    """The name of a ``**kwargs`` parameter, if any."""
    required_positional: tuple[str, ...]
    """Positional parameters after the game that have no default (cannot be filled)."""
    text: str
    """The signature, for error messages."""


def _target(factory: Callable[..., Any]) -> Callable[..., Any]:
    """The function whose annotations and docstring describe the factory."""
    if isinstance(factory, type):
        init = factory.__dict__.get("__init__") or next(
            (c.__dict__["__init__"] for c in factory.__mro__ if "__init__" in c.__dict__), None
        )
        return init if init is not None and init is not object.__init__ else factory
    if isinstance(factory, functools.partial):
        return _target(factory.func)
    return factory


def _hints(target: Callable[..., Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(target)
    except Exception:  # noqa: BLE001, S110 - unresolvable annotations: read them one by one
        pass
    out: dict[str, Any] = {}
    namespace = getattr(inspect.getmodule(target), "__dict__", {})
    for key, ann in getattr(target, "__annotations__", {}).items():
        if not isinstance(ann, str):
            out[key] = ann
            continue
        try:  # an annotation of the bot's own module, evaluated there
            out[key] = eval(ann, dict(namespace))  # noqa: S307
        except Exception:  # noqa: BLE001, S112 - an annotation that does not resolve stays untyped
            continue
    return out


_ARG_LINE = re.compile(r"^\s{2,}(\*{0,2}\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def _arg_docs(obj: object) -> dict[str, str]:
    """The first sentence of each entry of a Google-style ``Args:`` section."""
    doc = inspect.getdoc(obj) or ""
    out: dict[str, str] = {}
    in_args, key = False, ""
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped in ("Args:", "Arguments:"):
            in_args = True
            continue
        if not in_args:
            continue
        if stripped and not line.startswith(" "):
            break
        m = _ARG_LINE.match(line)
        if m and not line.startswith("        "):
            key = m.group(1).lstrip("*")
            out[key] = m.group(2).strip()
        elif key and stripped:
            out[key] += " " + stripped
    return {k: re.split(r"(?<=[^.])\.(?:\s|$)|;\s", v, maxsplit=1)[0] for k, v in out.items()}


def _shape(factory: Callable[..., Any]) -> _Shape | None:
    """The factory's calling shape; cached, since bots are built for every game."""
    try:
        return _cached_shape(factory)
    except TypeError:  # an unhashable callable: read it each time
        return _read_shape(factory)


@functools.lru_cache(maxsize=256)
def _cached_shape(factory: Callable[..., Any]) -> _Shape | None:
    return _read_shape(factory)


def _read_shape(factory: Callable[..., Any]) -> _Shape | None:
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    target = _target(factory)
    hints = _hints(target)
    docs = {**_arg_docs(factory), **_arg_docs(target)}
    params = list(sig.parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    game: Literal["positional", "keyword", "no"] = "no"
    game_param: str | None = None
    named_game = sig.parameters.get("game")
    if named_game is not None and named_game.kind is named_game.KEYWORD_ONLY:
        game, game_param = "keyword", "game"
    elif positional and (positional[0].name == "game" or positional[0].default is _NO_DEFAULT):
        game, game_param = "positional", positional[0].name
    elif any(p.kind is p.VAR_POSITIONAL for p in params):
        game = "positional"
    options: list[BotOption] = []
    required_positional: list[str] = []
    var_keyword = None
    has_seed = False
    for p in params:
        if p.name == game_param or p.kind is p.VAR_POSITIONAL:
            continue
        if p.kind is p.VAR_KEYWORD:
            var_keyword = p.name
            continue
        if p.name == "seed" and p.kind is not p.POSITIONAL_ONLY:
            has_seed = True
            continue
        if p.kind is p.POSITIONAL_ONLY:
            if p.default is _NO_DEFAULT:
                required_positional.append(p.name)
            continue
        options.append(
            BotOption(
                name=p.name,
                type=hints.get(p.name, Any),
                default=None if p.default is _NO_DEFAULT else p.default,
                required=p.default is _NO_DEFAULT,
                doc=docs.get(p.name, ""),
            )
        )
    return _Shape(
        game=game,
        seed=has_seed or var_keyword is not None,
        options=tuple(options),
        var_keyword=var_keyword,
        required_positional=tuple(required_positional),
        text=f"{getattr(factory, '__name__', type(factory).__name__)}{_sig_text(sig, hints)}",
    )


def _sig_text(sig: inspect.Signature, hints: Mapping[str, Any]) -> str:
    """The signature with resolved annotations and no return type, as a user reads it."""
    params = [
        p.replace(annotation=hints.get(p.name, p.annotation)) for p in sig.parameters.values()
    ]
    return str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))


def bot_options(factory: Callable[..., Any]) -> tuple[BotOption, ...]:
    """The options a bot factory declares: its named parameters besides ``game``/``seed``.

    Example:
        ``[o.describe() for o in bot_options(ISMCTSBot)]`` gives
        ``["iterations: int = 300", ...]``.

    Returns:
        The options in signature order (empty when the signature cannot be read).
    """
    shape = _shape(factory)
    return () if shape is None else shape.options


# ---- building ------------------------------------------------------------------------------

_CONTRACT = (
    "a bot factory is called as Factory(), Factory(game) or Factory(game, *, seed=..., "
    "option=...), with every option a keyword parameter"
)


def build_bot(
    label: str,
    factory: Callable[..., Any],
    game: Game[Any, Any, Any],
    *,
    seed: int,
    options: Mapping[str, Any],
) -> Bot:
    """Check ``options`` against the factory's signature and call it with what it takes.

    The game is passed when the factory's first parameter is ``game`` or a required
    positional parameter; the seed when it has a ``seed`` parameter. A class written as
    the tutorial shows, with no constructor at all, is simply called with no arguments.

    Args:
        label: the bot's name in error messages.
        factory: a class or function returning a bot.
        game: the game it plays.
        seed: its seed.
        options: option values, as command-line text or as Python values.

    Returns:
        The bot.

    Raises:
        ValueError: an option the bot does not declare (the message lists those it
            does), a value that does not convert to the declared type, or a factory
            whose signature cardcore cannot fill (the message shows it).
    """
    shape = _shape(factory)
    if shape is None:  # a callable without a readable signature: the documented call
        return factory(game, seed=seed, **options)  # type: ignore[no-any-return]
    if shape.required_positional:
        raise ValueError(
            f"bot {label!r}: cannot build {shape.text}: positional parameter(s) "
            f"{', '.join(shape.required_positional)} have no default; {_CONTRACT}"
        )
    declared = {o.name: o for o in shape.options}
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        opt = declared.get(key)
        if opt is None:
            raise ValueError(f"bot {label!r} has no option {key!r}; {_offer(shape)}")
        if isinstance(value, str) and not opt.from_text:
            raise ValueError(
                f"bot {label!r}: option {key!r} takes a {opt.type_text} object, which is "
                f"given in Python (load_bot(..., {key}=...)), not as text like {value!r}; "
                f"{_offer(shape)}"
            )
        try:
            kwargs[key] = opt.coerce(value)
        except ValueError as e:
            raise ValueError(f"bot {label!r}: {e}") from None
    missing = [o.name for o in shape.options if o.required and o.name not in kwargs]
    if missing:
        raise ValueError(
            f"bot {label!r} needs option(s) {', '.join(missing)} (as {label}:"
            f"{missing[0]}=VALUE); {_offer(shape)}"
        )
    args: tuple[Any, ...] = ()
    if shape.game == "positional":
        args = (game,)
    elif shape.game == "keyword":
        kwargs["game"] = game
    if shape.seed:
        kwargs["seed"] = seed
    try:
        return factory(*args, **kwargs)  # type: ignore[no-any-return]
    except TypeError as e:
        raise ValueError(
            f"bot {label!r}: {shape.text} failed when called ({e}); {_CONTRACT}"
        ) from None


def _offer(shape: _Shape) -> str:
    texts = [o for o in shape.options if o.from_text]
    if not texts:
        return "it takes no options as text" if shape.options else "it takes no options"
    return "its options are: " + ", ".join(o.describe() for o in texts)


def _text_ok(tp: Any) -> bool:
    """Whether a value of type ``tp`` can be written as text (see :attr:`BotOption.from_text`)."""
    if tp is Any or tp is object or tp is inspect.Parameter.empty:
        return True
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_text_ok(m) for m in typing.get_args(tp) if m is not type(None))
    if origin is Literal:
        return True
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return True
    return tp in _SCALARS


# ---- types ---------------------------------------------------------------------------------


def _type_text(tp: Any) -> str:
    if tp is Any or tp is inspect.Parameter.empty:
        return "any"
    if tp is type(None) or tp is None:
        return "None"
    if isinstance(tp, type) and not typing.get_args(tp):
        return tp.__name__
    origin = typing.get_origin(tp)
    if origin is Literal:
        return " | ".join(repr(a) for a in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_text(a) for a in typing.get_args(tp))
    return str(tp).replace("typing.", "")


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, enum.Enum):
        return repr(v.value)
    if isinstance(v, str):
        return repr(v)
    return str(v)


def guess(text: str) -> Any:
    """An untyped command-line value as a bool, int, float or (otherwise) the string."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _coerce(name: str, tp: Any, value: Any) -> Any:
    if tp is Any or tp is object:
        return guess(value) if isinstance(value, str) else value
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        members = typing.get_args(tp)
        if type(None) in members and (value is None or _is_none_text(value)):
            return None
        errors = []
        for member in (m for m in members if m is not type(None)):
            try:
                return _coerce(name, member, value)
            except ValueError as e:
                errors.append(str(e).split(" must be ", 1)[-1].rsplit(", not ", 1)[0])
        if type(None) in members:
            errors.append("none")
        raise ValueError(f"{name} must be {' or '.join(errors)}, not {_shown(value)}")
    if origin is Literal:
        allowed = typing.get_args(tp)
        for a in allowed:
            if value == a or (isinstance(value, str) and value == _value_text(a).strip("'")):
                return a
        raise ValueError(
            f"{name} must be one of {', '.join(_value_text(a) for a in allowed)}, "
            f"not {_shown(value)}"
        )
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        for member in tp:
            if value is member or value in (member.value, member.name):
                return member
        raise ValueError(
            f"{name} must be one of {', '.join(repr(m.value) for m in tp)}, not {_shown(value)}"
        )
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
            return True
        if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
            return False
        raise ValueError(f"{name} must be true or false, not {_shown(value)}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise ValueError(f"{name} must be an integer, not {_shown(value)}")
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
        raise ValueError(f"{name} must be a number, not {_shown(value)}")
    if tp is str:
        if isinstance(value, str):
            return value
        if isinstance(value, (bool, int, float)):  # a value a command line guessed at
            return _value_text(value)
        raise ValueError(f"{name} must be a string, not {_shown(value)}")
    if isinstance(tp, type) and isinstance(value, tp):
        return value
    if isinstance(value, str):
        raise ValueError(
            f"{name} is declared as {_type_text(tp)}, which cannot be given as text "
            f"(not {_shown(value)})"
        )
    return value  # a Python value for a type cardcore does not know: the bot checks it


def _is_none_text(value: Any) -> bool:
    return isinstance(value, str) and value.lower() in ("none", "null")


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else f"{value!r} ({type(value).__name__})"
