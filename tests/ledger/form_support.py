"""Posting a hand form as the table page does, reading the errors beside its fields, and reading the form as drawn:
which fields are asked, which record buttons are shown, which choices are offered."""

from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from html.parser import HTMLParser
from typing import Any

from django.urls import reverse


def post_hand(client: Any, table: Any, taps: dict[str, Any], htmx: bool = False) -> Any:
    """POST the taps to the table's hand form (the first seat dealing), as htmx or as a plain form post."""
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("ledger:hand_create", args=[table.pk]), taps | {"dealer": "0"}, headers=headers)


def errors_beside(html: str, field: str) -> str:
    """The text of the error list beside one field, or '' when it has none."""
    marker = f'id="errors-{field}"><li>'
    if marker not in html:
        return ""
    return html.split(marker, 1)[1].split("</li>", 1)[0]


# -- the hand form as the page draws it ------------------------------------------------------------------------------
#
# The hand form is drawn once with every field (templates/ledger/_hand_field.html): a field not asked now is in the
# HTML with ``hidden`` on its wrapper ``<div class="field" id="field-NAME" data-field="NAME" data-show="…">``; the
# record bar holds ``<div class="field record" id="record-by-NAME" data-field="NAME" data-show="…">`` with one submit
# button per choice; a choice only some hands allow carries ``data-show`` (and ``hidden``) on its <label> or button.
# The browser's script shows what the conditions allow at each tap and disables what it hides, so a hidden control
# is never posted. These helpers read the HTML as that browser would, right after it was drawn.


@dataclass
class Control:
    """An input, a select or a submit button inside a wrapper; ``offered``: not in a hidden label, not hidden itself;
    ``show``: the condition of a choice only some hands allow (on its label or on the button), else ""."""

    tag: str
    kind: str
    name: str
    value: str
    checked: bool
    offered: bool
    show: str


@dataclass
class Wrapper:
    """A ``data-field`` wrapper: a field (``field-NAME``) or a field's record buttons (``record-by-NAME``)."""

    id: str
    field: str
    show: str  # the condition as JSON, as the page evaluates it
    hidden: bool
    controls: list[Control] = dataclass_field(default_factory=list)
    errors: list[str] = dataclass_field(default_factory=list)  # the error list beside it
    choice_shows: list[tuple[str, bool]] = dataclass_field(default_factory=list)  # (data-show, hidden) of choices

    @property
    def record(self) -> bool:
        return self.id.startswith("record-by-")


class _HandFormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.wrappers: list[Wrapper] = []
        self.outside: list[Control] = []  # controls outside every wrapper (key, CSRF token, table revision)
        self.record_hand: dict[str, str | None] | None = None
        self._current: Wrapper | None = None
        self._depth = 0
        self._label_hidden = False
        self._label_show = ""
        self._select: Control | None = None
        self._in_form = False
        self._in_errors = False
        self._error: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and found.get("id") == "hand-form":
            self._in_form = True
        if not self._in_form:
            return
        if tag == "div":
            if self._current is None and "data-field" in found:
                self._current = Wrapper(
                    str(found["id"]), str(found["data-field"]), str(found.get("data-show")), "hidden" in found
                )
                self.wrappers.append(self._current)
                self._depth = 0
            self._depth += 1
        elif tag == "label":
            self._label_hidden = "hidden" in found
            self._label_show = str(found.get("data-show") or "")
            if "data-show" in found and self._current is not None:
                self._current.choice_shows.append((str(found["data-show"]), "hidden" in found))
        elif tag in ("input", "button", "select"):
            self._control(tag, found)
        elif tag == "ul" and "errorlist" in str(found.get("class")).split() and self._current is not None:
            self._in_errors = True
        elif tag == "li" and self._in_errors:
            self._error = []
        elif tag == "option" and self._select is not None and "selected" in found:
            self._select.value = str(found.get("value") or "")

    def _control(self, tag: str, found: dict[str, str | None]) -> None:
        if tag == "button" and found.get("id") == "record-hand":
            self.record_hand = found
            return
        kind = str(found.get("type") or ("submit" if tag == "button" else "text"))
        if not found.get("name"):
            return
        default = "on" if kind == "checkbox" else ""  # what a browser posts for a ticked box without a value
        control = Control(
            tag,
            kind,
            str(found["name"]),
            str(found.get("value") or default),
            "checked" in found,
            not self._label_hidden and "hidden" not in found,
            self._label_show or str(found.get("data-show") or ""),
        )
        if tag == "button" and "data-show" in found and self._current is not None:
            self._current.choice_shows.append((str(found["data-show"]), "hidden" in found))
        if tag == "select":
            self._select = control
        (self._current.controls if self._current is not None else self.outside).append(control)

    def handle_data(self, data: str) -> None:
        if self._error is not None:
            self._error.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self._error is not None and self._current is not None:
            self._current.errors.append("".join(self._error))
            self._error = None
        elif tag == "ul":
            self._in_errors = False
        if tag == "form":
            self._in_form = False
        elif tag == "label":
            self._label_hidden = False
            self._label_show = ""
        elif tag == "select":
            self._select = None
        elif tag == "div" and self._current is not None:
            self._depth -= 1
            if self._depth == 0:
                self._current = None


def drawn_form(html: str) -> _HandFormParser:
    """The hand form of a page or an htmx answer, read as its browser reads it (the first ``#hand-form``)."""
    parser = _HandFormParser()
    parser.feed(html)
    assert parser.wrappers, "no hand form with data-field wrappers in this HTML"
    return parser


def wrapper(html: str, wrapper_id: str) -> Wrapper:
    """The wrapper with this id (``field-points``, ``record-by-won``): it is always drawn, asked or not."""
    found = [drawn for drawn in drawn_form(html).wrappers if drawn.id == wrapper_id]
    assert len(found) == 1, f"{wrapper_id} is drawn {len(found)} times"
    return found[0]


def asked_fields(html: str) -> list[str]:
    """The fields drawn as fields and not hidden, in screen order (those recorded by buttons are in the record bar)."""
    return [drawn.field for drawn in drawn_form(html).wrappers if not drawn.record and not drawn.hidden]


def hidden_fields(html: str) -> list[str]:
    """The fields drawn as fields but hidden: not asked now (or asked by their record buttons instead)."""
    return [drawn.field for drawn in drawn_form(html).wrappers if not drawn.record and drawn.hidden]


def record_buttons(html: str) -> dict[str, list[str]]:
    """The record fields shown in the record bar, each with the values its shown buttons record, in screen order."""
    return {
        drawn.field: [control.value for control in drawn.controls if control.kind == "submit" and control.offered]
        for drawn in drawn_form(html).wrappers
        if drawn.record and not drawn.hidden
    }


def shown_errors(html: str, name: str) -> list[str]:
    """The errors beside the field where the page shows it now: its record buttons or the field (never a hidden
    copy of it)."""
    shown = [drawn for drawn in drawn_form(html).wrappers if drawn.field == name and not drawn.hidden]
    assert shown, f"{name} is not shown"
    return [error for drawn in shown for error in drawn.errors]


def offered_choices(html: str, name: str) -> list[str]:
    """The values of the field's choices the page offers now (radio buttons or boxes whose label is not hidden)."""
    return [
        control.value
        for control in wrapper(html, f"field-{name}").controls
        if control.name == name and control.kind in ("radio", "checkbox") and control.offered
    ]


def record_hand_shown(html: str) -> bool:
    """Whether the plain "Record hand" (or "Save the correction") button is drawn and not hidden."""
    button = drawn_form(html).record_hand
    assert button is not None, "no #record-hand in the form"
    return "hidden" not in button


def browser_values(html: str) -> dict[str, str]:
    """The form's values as the page's script reads them (``valuesOf`` in static/js/talon.js): every control, asked
    or not: a radio's checked value, "on" for a ticked box, "" for none; submit buttons are no value."""
    values: dict[str, str] = {}
    parser = drawn_form(html)
    controls = [*parser.outside, *(control for drawn in parser.wrappers for control in drawn.controls)]
    for control in controls:
        if control.kind in ("submit", "button"):
            continue
        unticked = control.kind in ("radio", "checkbox") and not control.checked
        if not unticked:
            values[control.name] = control.value
        else:
            values.setdefault(control.name, "")
    return values


def holds(when: list[Any], values: dict[str, str]) -> bool:
    """A condition as JSON (``data-show``), evaluated as ``holds`` in static/js/talon.js evaluates it."""
    kind = when[0]
    value = values.get(when[1], "") if len(when) > 1 and isinstance(when[1], str) else ""
    if kind == "is":
        return value in when[2]
    if kind == "given":
        return value not in ("", "0")
    if kind == "filled":
        return value != ""
    if kind == "all":
        return all(holds(part, values) for part in when[1:])
    if kind == "any":
        return any(holds(part, values) for part in when[1:])
    if kind == "not":
        return not holds(when[1], values)
    raise AssertionError(f"unknown condition {when!r}")


def page_asked_values(wrappers: list[Wrapper], values: dict[str, str]) -> dict[str, str]:
    """``values`` less the fields the page does not ask, as ``askedValues`` in static/js/talon.js settles them: a
    field is asked when any of its wrappers' conditions holds (its field or its record buttons)."""
    known = {drawn.field for drawn in wrappers}
    current = dict(values)
    for _pass in range(len(wrappers) + 1):
        asked = {drawn.field for drawn in wrappers if holds(json.loads(drawn.show), current)}
        following = {name: value for name, value in values.items() if name not in known or name in asked}
        changed = any(following.get(name, "") != current.get(name, "") for name in values)
        current = following
        if not changed:
            break
    return current


def page_shows(html: str, taps: dict[str, str] | None = None) -> dict[str, bool]:
    """Each wrapper's id → whether the page's script shows it after these taps on the form as drawn (a tap sets a
    field's value: a radio's value, "on" or "" for a box, a number)."""
    form = drawn_form(html)
    values = page_asked_values(form.wrappers, browser_values(html) | (taps or {}))
    return {drawn.id: holds(json.loads(drawn.show), values) for drawn in form.wrappers}


def page_post(html: str, taps: dict[str, str], button: tuple[str, str] | None = None) -> dict[str, str]:
    """What the page posts after these taps on the form as drawn, as its script leaves it: the values of the asked
    fields only (an unasked one is disabled), a choice this hand does not allow taken back, and the record button
    tapped last (``(name, value)``; None: "Record hand", which must then be shown). One value a field."""
    form = drawn_form(html)
    values = page_asked_values(form.wrappers, browser_values(html) | taps)
    posted = {control.name: control.value for control in form.outside if control.kind not in ("submit", "button")}
    for drawn in form.wrappers:
        if drawn.record or not holds(json.loads(drawn.show), values):
            continue
        value = values.get(drawn.field, "")
        choices = [control for control in drawn.controls if control.kind in ("radio", "checkbox")]
        chosen = [control for control in choices if control.value == value or control.kind == "checkbox"]
        if chosen and chosen[0].show and not holds(json.loads(chosen[0].show), values):
            continue  # a choice this hand does not allow: the script takes it back
        if value != "":
            posted[drawn.field] = value
    if button is None:
        assert form.record_hand is not None and holds(json.loads(str(form.record_hand["data-show"])), values), (
            "Record hand is not shown: a record button records this hand"
        )
        return posted
    name, value = button
    bar = [drawn for drawn in form.wrappers if drawn.id == f"record-by-{name}"]
    assert bar and holds(json.loads(bar[0].show), values), f"no record buttons for {name} after these taps"
    found = [control for control in bar[0].controls if control.kind == "submit" and control.value == value]
    assert found, f"no record button {name}={value}"
    assert not found[0].show or holds(json.loads(found[0].show), values), f"{name}={value} is not offered"
    return posted | {name: value}
