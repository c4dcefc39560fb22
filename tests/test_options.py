"""Typed options and presets."""

from __future__ import annotations

import attrs
import pytest

from cardcore import OptionError, build_options, option, option_infos


@attrs.frozen(kw_only=True)
class Opts:
    capture: str = option("pile", choices=("pile", "hand"), doc="where steals go")
    penalty: bool = option(False)
    limit: int = option(200, minimum=1, maximum=500)


PRESETS = {"default": Opts(), "other": Opts(capture="hand", penalty=True)}


def test_presets_and_overrides() -> None:
    """A preset plus overrides, typed or as strings."""
    o = build_options(Opts, PRESETS, "other", {"limit": "50"})
    assert o == Opts(capture="hand", penalty=True, limit=50)
    assert build_options(Opts, PRESETS, "default", {"penalty": "true"}).penalty is True


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"captur": "hand"}, "unknown option 'captur'; options are capture, penalty, limit"),
        ({"capture": "table"}, "option capture='table' is not allowed; use pile, hand"),
        ({"penalty": "maybe"}, "use false, true"),
        ({"limit": "0"}, "an integer >= 1 and <= 500"),
        ({"limit": True}, "limit=True"),
    ],
)
def test_bad_options_name_the_option_and_allowed_values(
    overrides: dict[str, object], message: str
) -> None:
    """Every error names the option and what is allowed."""
    with pytest.raises(OptionError) as err:
        build_options(Opts, PRESETS, "default", overrides)
    assert message in str(err.value)


def test_unknown_preset() -> None:
    """An unknown preset lists the presets."""
    with pytest.raises(OptionError, match="presets are default, other"):
        build_options(Opts, PRESETS, "nope")


def test_direct_construction_is_validated() -> None:
    """The options class itself refuses bad values."""
    with pytest.raises(OptionError):
        Opts(capture="nope")


def test_option_infos_describe_each_option() -> None:
    """Tools can list options, kinds, choices and bounds."""
    infos = {i.name: i for i in option_infos(Opts)}
    assert infos["capture"].choices == ("pile", "hand")
    assert infos["penalty"].choices == (False, True)
    assert infos["limit"].samples() == (1, 200, 500)
    assert infos["capture"].doc == "where steals go"


def test_integer_steps() -> None:
    """An integer option may require a multiple of a step, counted from its minimum."""

    @attrs.frozen(kw_only=True)
    class Bids:
        min_bid: int = option(100, minimum=5, maximum=190, step=5)

    assert build_options(Bids, {"default": Bids()}, "default", {"min_bid": "45"}).min_bid == 45
    with pytest.raises(OptionError, match="a multiple of 5"):
        build_options(Bids, {"default": Bids()}, "default", {"min_bid": "47"})
