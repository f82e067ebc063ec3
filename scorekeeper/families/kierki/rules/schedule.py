"""The deal schedule: who deals, who leads, and which contract each deal plays."""
from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules.errors import N_
from scorekeeper.rules.text import Text

from .contracts import LEAD_RULES, Contract
from .rulesets import Ruleset


@dataclass(frozen=True)
class Deal:
    """One deal of the schedule; ``number`` counts from 1, seats from 0 clockwise."""

    number: int
    contract: Contract
    dealer: int
    leader: int
    #: who names trumps in a trump deal without an auction, else None
    trump_caller: int | None = None

    @property
    def key(self) -> str:
        return self.contract.key

    def notes(self) -> list[Text]:
        """The rules of this deal that players forget: lead limits, trumps, loteryjka.

        >>> from .rulesets import get_ruleset
        >>> deal = schedule(get_ruleset("standard-4"), first_dealer=0)[7]
        >>> [t.text() % {} if not t.params else t.params for t in deal.notes()][0]
        {'player': 3, 'cards': 5}
        """
        c = self.contract
        d = c.data
        lines = [Text(LEAD_RULES[r]) for r in c.lead_rules if r in LEAD_RULES]
        if c.kind == "trumps":
            if d.get("auction"):
                # one card fewer each than there are tricks; the box holds the rest
                box = {"player": self.dealer, "cards": c.table.tricks - 1, "box": c.table.players}
                lines += [
                    Text(N_("%(player)s deals %(cards)s cards to each player and lays the last "
                            "%(box)s face up: the box."), box),
                    Text(N_("The others, from the dealer's left, bid points for the dealer's "
                            "right to take the box and name trumps. The dealer accepts the "
                            "highest bid or refuses.")),
                    Text(N_("The dealer or the buyer takes the box, gives one card face down "
                            "to each other player and names trumps.")),
                    Text(N_("An accepted bid moves from the buyer's score to the dealer's; "
                            "the buyer may end the deal below zero.")),
                ]
            elif d.get("named_by") == "dealer":
                lines.append(Text(N_("%(player)s names trumps after seeing the first %(cards)s "
                                     "cards; then the deal is completed."),
                                  {"player": self.trump_caller, "cards": d.get("cards_seen", 5)}))
            else:
                lines.append(Text(N_("%(player)s names trumps before leading to the first "
                                     "trick."), {"player": self.trump_caller}))
            lines.append(Text(N_("Follow suit and beat the cards played when you can; unable "
                                 "to follow, you must trump, with a higher trump when you "
                                 "can.")) if c.must_beat else
                         Text(N_("Follow suit; you need not trump or beat.")))
        elif c.kind == "loteryjka":
            if d.get("start") == "any":
                lines.append(Text(N_("%(player)s starts with any card; every other suit starts "
                                     "at that rank."), {"player": self.leader}))
            else:
                lines.append(Text(N_("%(player)s starts; each suit starts with its %(rank)s."),
                                  {"player": self.leader, "rank": d.get("start", "7")}))
            lines.append(Text(N_("Ace low (below the 2).") if d.get("ace", "low") == "low"
                              else N_("Ace high (above the king).")))
            lines.append(Text(N_("Play a card if you can; pass only when you cannot.")))
            if c.asked < len(c.prizes):  # type: ignore[attr-defined]
                lines.append(Text(N_("Place %(place)s is whoever is left: it fills itself."),
                                  {"place": len(c.prizes)}))  # type: ignore[attr-defined]
        elif c.must_beat:
            lines.append(Text(N_("No trumps. Follow suit and beat the highest card of the suit "
                                 "led when you can.")))
        elif c.kind != "robber":
            lines.append(Text(N_("No trumps. Follow suit; you need not beat.")))
        return lines


def schedule(ruleset: Ruleset, first_dealer: int) -> list[Deal]:
    """Every deal of a game, the deal passing to the left each time.

    >>> from .rulesets import get_ruleset
    >>> deals = schedule(get_ruleset("standard-4"), first_dealer=2)
    >>> [(d.number, d.key, d.dealer, d.leader) for d in deals[:2]]
    [(1, 'no_tricks', 2, 3), (2, 'no_hearts', 3, 0)]
    >>> deals[7].key, deals[7].dealer, deals[7].leader  # pagat: the dealer leads trumps
    ('trumps', 1, 1)
    """
    n = ruleset.players
    if not 0 <= first_dealer < n:
        raise ValueError(f"first dealer must be a seat from 0 to {n - 1}")
    deals = []
    for i, contract in enumerate(ruleset.deals()):
        dealer, d, trumps = (first_dealer + i) % n, contract.data, contract.kind == "trumps"
        starts = d.get("leader") if trumps else d.get("begins") if contract.kind == "loteryjka" \
            else None
        leader = dealer if starts == "dealer" else (dealer + 1) % n
        caller = None if not trumps or d.get("auction") else \
            dealer if d.get("named_by") == "dealer" else leader
        deals.append(Deal(i + 1, contract, dealer, leader, caller))
    return deals
