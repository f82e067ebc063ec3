"""Form fields of a Tybet deal: strings in, the raw result the rules check, and back."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules import SUITS

#: The form's ``mode`` for entering aces, honours and the last trick one by one (the
#: default is each pair's card points).
DETAIL = "detail"


def detailed(form: Mapping[str, Any]) -> bool:
    """Whether a posted deal gives aces, honours and the last trick (rather than each
    pair's card points): its mode says so, or one of those fields was filled in."""
    return form.get("mode") == DETAIL or any(
        form.get(k) not in (None, "") for k in ("aces-0", "aces-1", "honours-0", "honours-1",
                                                 "last"))


def parse(form: Any) -> dict[str, Any]:
    """A posted Tybet deal (a ``MultiDict``) as the raw result the rules check."""
    declarations = [
        [{"kind": "cezar", "suit": suit, "extra": form[f"cezar-{seat}-{suit}"]}
         for suit in SUITS if form.get(f"cezar-{seat}-{suit}", "") != ""]
        + [{"kind": kind, "rank": r} for kind in ("four", "trio")
           for r in form.getlist(f"{kind}-{seat}")] for seat in range(4)]

    def pair(name: str) -> list[str]:
        return [form.get(f"{name}-0", ""), form.get(f"{name}-1", "")]
    special = None
    chosen = form.get("special", "")
    if chosen:
        kind, _, who = chosen.partition(":")
        special = {"kind": kind, ("pair" if who.startswith("p") else "seat"): who[1:]}
    raw = {"declarations": declarations, "special": special, "confirmed": form.get("confirmed", "")}
    if detailed(form):  # aces, honours and the last trick, one by one
        raw.update(aces=pair("aces"), honours=pair("honours"), last=form.get("last", ""))
    else:  # the quick entry: each pair's card points
        raw["card_points"] = pair("card_points")
    return raw


def values(result: Mapping[str, Any]) -> dict[str, Any]:
    """A stored result as form values (lists for the checkboxes), to prefill."""
    out: dict[str, Any] = {}
    for seat, items in enumerate(result.get("declarations", [])):
        for d in items:
            if d["kind"] == "cezar":
                out[f"cezar-{seat}-{d['suit']}"] = str(d["extra"])
            else:
                out.setdefault(f"{d['kind']}-{seat}", []).append(d["rank"])
    for name in ("aces", "honours", "card_points"):
        for i, v in enumerate(result.get(name, [])):
            out[f"{name}-{i}"] = "" if v is None else str(v)
    if result.get("last") is not None:
        out["last"] = str(result["last"])
    if result.get("confirmed"):
        out["confirmed"] = "1"
    special = result.get("special")
    if special:
        who = f"p{special['pair']}" if "pair" in special else f"s{special['seat']}"
        out["special"] = f"{special['kind']}:{who}"
    return out


def posted_values(form) -> dict[str, Any]:
    """What was typed, to show again beside the messages of a refused deal."""
    return {key: form.getlist(key) if key.startswith(("four-", "trio-")) else form[key]
            for key in form if key not in ("csrf_token", "version")}
