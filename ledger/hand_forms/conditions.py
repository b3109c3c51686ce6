"""When a hand form asks a field: conditions over the form's current values, evaluated alike by the server and the page.

A hand form is drawn once with every field it may ask. Each field (and each choice that only some hands allow)
carries a condition; ``static/js/talon.js`` evaluates the conditions in the browser at every tap and shows what they
allow, so no tap waits for the server or is lost to a redraw. The server evaluates the same conditions to know what
the page showed: which fields make the hand document (``HandForm.shown_names``) and which one records it.

Values are read as a browser posts them: a radio's checked value, ``"on"`` for a ticked box, ``""`` for nothing.
A field that is not asked counts as empty, as it is not posted (the page disables it).

>>> hra = Is("contract", "hra", "sedma")
>>> (hra & ~Given("laid")).holds({"contract": "hra"})
True
>>> (hra & ~Given("laid")).holds({"contract": "hra", "laid": "on"})
False
>>> (hra | Given("laid")).as_json()
['any', ['is', 'contract', ['hra', 'sedma']], ['given', 'laid']]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Values = Mapping[str, str]


class When:
    """A condition on the form's values; ``&``, ``|`` and ``~`` combine them."""

    def holds(self, values: Values) -> bool:
        raise NotImplementedError

    def as_json(self) -> list[Any]:
        raise NotImplementedError

    def __and__(self, other: When) -> When:
        return All((self, other))

    def __or__(self, other: When) -> When:
        return AnyOf((self, other))

    def __invert__(self) -> When:
        return Not(self)


@dataclass(frozen=True)
class Is(When):
    """The field holds one of these values."""

    name: str
    values: tuple[str, ...]

    def __init__(self, name: str, *values: object) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "values", tuple(str(value) for value in values))

    def holds(self, values: Values) -> bool:
        return values.get(self.name, "") in self.values

    def as_json(self) -> list[Any]:
        return ["is", self.name, list(self.values)]


@dataclass(frozen=True)
class Given(When):
    """The field holds anything but nothing or a zero count: a ticked box, a tapped choice, a number."""

    name: str

    def holds(self, values: Values) -> bool:
        return values.get(self.name, "") not in ("", "0")

    def as_json(self) -> list[Any]:
        return ["given", self.name]


@dataclass(frozen=True)
class Filled(When):
    """The field holds anything at all, a 0 included (card points entered as 0)."""

    name: str

    def holds(self, values: Values) -> bool:
        return values.get(self.name, "") != ""

    def as_json(self) -> list[Any]:
        return ["filled", self.name]


@dataclass(frozen=True)
class All(When):
    parts: tuple[When, ...]

    def holds(self, values: Values) -> bool:
        return all(part.holds(values) for part in self.parts)

    def as_json(self) -> list[Any]:
        return ["all", *(part.as_json() for part in self.parts)]


@dataclass(frozen=True)
class AnyOf(When):
    parts: tuple[When, ...]

    def holds(self, values: Values) -> bool:
        return any(part.holds(values) for part in self.parts)

    def as_json(self) -> list[Any]:
        return ["any", *(part.as_json() for part in self.parts)]


@dataclass(frozen=True)
class Not(When):
    part: When

    def holds(self, values: Values) -> bool:
        return not self.part.holds(values)

    def as_json(self) -> list[Any]:
        return ["not", self.part.as_json()]


ALWAYS: When = All(())
NEVER: When = AnyOf(())


def asked_values(conditions: Mapping[str, When], values: Values) -> dict[str, str]:
    """``values`` less the fields their conditions do not ask, as the page posts them: an unasked field is disabled,
    so it is empty to the conditions of the others. Settled in a few passes (the page does the same)."""
    current = dict(values)
    for _pass in range(len(conditions) + 1):
        asked = {name: value for name, value in values.items() if conditions.get(name, ALWAYS).holds(current)}
        if asked == current:
            break
        current = asked
    return current
