"""Scenario tests' helper (docs/design.md, "Scenario tests"), in the spirit of XMage's test base.

Build a position, start the game, script the actions, run strictly, assert::

    s = Scenario(mode="coop", lineup="RR", phase="main")          # settings as keywords too
    s.seat(0, humility=2).hand(0, "still-waters", ANCHOR).untapped(0, cost("still-waters"))
    s.start()                         # Game.from_position(...) under the hood
    s.play(0, "still-waters")         # refused unless it is in game.legal_actions(0)
    s.expect_decision(0, "boost")     # the game waits for seat 0 to take or pass the boosts
    s.pass_(0)
    assert s.humility(0) == 3

Strict: every action goes through :meth:`Scenario.do`, which fails the test with a readable
message (who the game waits for, and every legal action) when the action is not legal now;
:meth:`expect_decision` fails unless the game waits for that seat and that kind of decision;
:meth:`pass_turn` / :meth:`settle` pass only the decisions they name and fail on any other (an
unscripted overflow choice, a helper's resistance...). The one exception is :meth:`adjust`: S-8
manual adjustment is never in ``legal_actions`` and is applied directly.

Cards are named by card id (``find`` turns one into a uid). A Cost Zone card is only something
to rotate, so Cost Zones are filled with ``FILLER``; costs and resistances are read from the card
data (``cost``, ``res``) rather than written by hand, so a rebalanced card does not break a test
about a rule. The engine ends a phase by itself when a seat's only legal action is Pass: a test
that must act in a Main phase gives the seat ``ANCHOR`` (a C0 Action) to keep it open.
"""

from __future__ import annotations

from typing import Any

import pytest

from christianity_game import (
    AdjustBadge, BuyAbility, Choose, ChooseAbility, Game, LayCostZone, Pass, PlayCard, Resist, Settings, TakeBoost,
    UseAbility,
)
from christianity_game.cards import starter_set
from christianity_game.cards.model import CardDef
from christianity_game.engine.actions import Action
from christianity_game.engine.events import Event
from christianity_game.engine.legal import active_offer

# A card id to fill Cost Zones, decks and hands with when which card it is does not matter:
# an Evil Habitual in a Righteous hand is never playable, so it never adds a legal action.
FILLER = "sloth"
# A card that keeps a seat's Main phase open: the engine ends a phase by itself when a seat's only
# legal action is Pass, so a test that must act in Main gives the seat this C0 Action.
ANCHOR = "the-widows-mite"


def card(card_id: str) -> CardDef:
    """The starter set's card ``card_id``."""
    return starter_set()[card_id]


def cost(*card_ids: str) -> int:
    """The summed printed Cost of these cards (tests size Cost Zones from the data, not by hand)."""
    return sum(card(c).cost for c in card_ids)


def res(card_id: str) -> int:
    """The fixed resistance ``R<n>`` of a threat (fails the test for an ``RX`` card)."""
    r = card(card_id).resistance
    if r is None:
        pytest.fail(f"{card_id} has no fixed resistance (RX); pick another card for this test")
    return r


class Scenario:
    """A position under construction, then the game started from it.

    Construction methods return ``self`` so they chain. ``settings`` may be a
    :class:`Settings` or keyword overrides (``mat_abilities=False``).
    """

    def __init__(self, mode: str = "coop", lineup: str = "RR", phase: str = "main", round: int = 1,
                 turn_seat: int = 0, seed: int = 0, settings: Settings | None = None, rules: int | None = None,
                 **setting_kw: Any) -> None:
        self.mode = mode
        self.rules = rules   # the rules version to play (None: the engine's own)
        self.lineup = lineup
        self.seed = seed
        base = settings or Settings()
        self.settings = base.updated(setting_kw) if setting_kw else base
        self.position: dict[str, Any] = {
            "seats": [{} for _ in lineup], "round": round, "turn_seat": turn_seat, "phase": phase,
        }
        self.game: Game | None = None
        self.events: list[Event] = []

    # ------------------------------------------------------------------ building the position
    def _seat(self, seat: int) -> dict[str, Any]:
        return self.position["seats"][seat]

    def _add(self, seat: int, zone: str, cards: tuple[Any, ...]) -> "Scenario":
        self._seat(seat).setdefault(zone, []).extend(cards)
        return self

    def seat(self, seat: int, humility: int | None = None, maturity: int | None = None) -> "Scenario":
        """Set a seat's badges."""
        spec = self._seat(seat)
        if humility is not None:
            spec["humility"] = humility
        if maturity is not None:
            spec["maturity"] = maturity
        return self

    def hand(self, seat: int, *card_ids: str) -> "Scenario":
        return self._add(seat, "hand", card_ids)

    def cost_zone(self, seat: int, *card_ids: str, tapped: bool = False, face_up: bool = False) -> "Scenario":
        """Cards in the seat's Cost Zone, all with the same ``tapped`` / ``face_up``."""
        return self._add(seat, "cost_zone", tuple({"id": c, "tapped": tapped, "face_up": face_up} for c in card_ids))

    def untapped(self, seat: int, n: int, tapped: int = 0) -> "Scenario":
        """``n`` untapped (and ``tapped`` tapped) face-down filler cards in the seat's Cost Zone."""
        self.cost_zone(seat, *[FILLER] * n)
        return self.cost_zone(seat, *[FILLER] * tapped, tapped=True)

    def in_play(self, seat: int, *card_ids: str) -> "Scenario":
        return self._add(seat, "in_play", card_ids)

    def held(self, seat: int, *card_ids: str) -> "Scenario":
        """Evil Habituals that have taken hold on the seat."""
        return self._add(seat, "held", card_ids)

    def discard(self, seat: int, *card_ids: str) -> "Scenario":
        return self._add(seat, "discard", card_ids)

    def deck(self, seat: int, *card_ids: str) -> "Scenario":
        """The seat's deck, top card first."""
        return self._add(seat, "deck", card_ids)

    def evil_deck(self, *card_ids: str) -> "Scenario":
        """The co-op Evil deck, top card first."""
        self.position.setdefault("evil_deck", []).extend(card_ids)
        return self

    def threat(self, card_id: str, target: int = 0) -> "Scenario":
        """A pending threat (the position's phase must be "resistance")."""
        self.position.setdefault("threats", []).append({"card": card_id, "target": target})
        return self

    def abilities(self, *names: str) -> "Scenario":
        """Maturity Abilities the team holds (once-per-level ones start charged)."""
        self.position.setdefault("abilities", []).extend(names)
        return self

    def set(self, **top: Any) -> "Scenario":
        """Any other top-level position key (resisted, failed, field, clearing, team_level...)."""
        self.position.update(top)
        return self

    def start(self) -> Game:
        """Start the game from the position; events of the automatic steps are kept in ``events``."""
        self.game = Game.from_position(self.position, mode=self.mode, lineup=self.lineup, seed=self.seed,
                                       settings=self.settings, rules=self.rules)
        self.events = list(self.game.log) + list(getattr(self.game, "_events", []))
        return self.game

    # ------------------------------------------------------------------ looking at the game
    @property
    def g(self) -> Game:
        assert self.game is not None, "call start() first"
        return self.game

    @property
    def st(self) -> Any:
        return self.g.state

    def zone(self, seat: int, zone: str) -> list[int]:
        """A seat's zone as uids (hand, deck (top LAST), cost_zone, in_play, held, discard)."""
        return list(getattr(self.st.seats[seat], zone))

    def ids(self, seat: int, zone: str) -> list[str]:
        """A seat's zone as card ids; ``deck`` is given top card first."""
        uids = self.zone(seat, zone)
        if zone == "deck":
            uids = uids[::-1]
        return [self.g.defs[u].id for u in uids]

    def pile(self, name: str) -> list[str]:
        """The table's piles and zones as card ids: resisted, failed, field, evil_deck (top first)."""
        uids = list(getattr(self.st, name))
        if name == "evil_deck":
            uids = uids[::-1]
        return [self.g.defs[u].id for u in uids]

    def threats(self) -> list[str]:
        return [self.g.defs[t.uid].id for t in self.st.threats]

    def find(self, seat: int | None, card_id: str, zone: str = "hand", nth: int = 0) -> int:
        """The uid of the ``nth`` card ``card_id`` in ``seat``'s ``zone``; ``seat`` None: the
        table (``threats``, ``field``, ``resisted``, ``failed``, ``evil_deck``, ``stack``)."""
        if seat is None:
            if zone == "threats":
                uids = [t.uid for t in self.st.threats]
            elif zone == "stack":
                uids = [i.uid for i in self.st.stack]
            else:
                uids = list(getattr(self.st, zone))
        else:
            uids = self.zone(seat, zone)
        hits = [u for u in uids if self.g.defs[u].id == card_id]
        if len(hits) <= nth:
            pytest.fail(f"no {card_id!r} (#{nth}) in {'table' if seat is None else f'seat {seat}'} {zone}: "
                        f"{[self.g.defs[u].id for u in uids]}")
        return hits[nth]

    def humility(self, seat: int) -> int:
        return int(self.st.seats[seat].humility)

    def maturity(self, seat: int) -> int:
        return int(self.st.seats[seat].maturity)

    def tapped(self, seat: int) -> int:
        """How many of the seat's Cost Zone cards are tapped (rotated)."""
        return sum(1 for u in self.st.seats[seat].cost_zone if u in self.st.tapped)

    def untapped_count(self, seat: int) -> int:
        return len(self.st.seats[seat].cost_zone) - self.tapped(seat)

    def kinds(self) -> list[str]:
        """The kinds of every event so far, in order."""
        return [e.kind for e in self.events]

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def decider(self) -> int | None:
        pending = self.g.pending
        return pending[0][0] if pending else None

    def decision(self) -> str | None:
        """What the game waits for: a choice purpose (overflow, discard, search, deliverance),
        "ability" (the team's free pick), "respond" (a response window), "boost" (a boost offer),
        "lay" / "after_lay" (Cost Zone phase), or the phase ("resistance", "main"); None when
        nothing is waited for (game over)."""
        st = self.st
        if st.result is not None or not self.g.pending:
            return None
        if st.choice is not None:
            return str(st.choice.purpose)
        if st.ability_picks:
            return "ability"
        if st.window:
            return "respond"
        if active_offer(self.g) is not None:
            return "boost"
        if st.step in ("lay", "after_lay"):
            return str(st.step)
        return self.g.phase

    def expect_decision(self, seat: int, kind: str | None = None) -> None:
        """Fail the test unless the game now waits for ``seat`` (and for a ``kind`` decision)."""
        got_seat, got_kind = self.decider(), self.decision()
        if got_seat != seat or (kind is not None and got_kind != kind):
            pytest.fail(f"expected seat {seat} to decide {kind or ''}; the game waits for seat {got_seat} "
                        f"({got_kind}) in round {self.g.round}, seat {self.g.turn_seat}'s {self.g.phase}.\n"
                        f"{self.describe_pending()}")

    def legal(self, seat: int) -> list[Action]:
        return self.g.legal_actions(seat)

    def describe_pending(self) -> str:
        lines = []
        for seat, acts in self.g.pending:
            lines.append(f"seat {seat} may: " + ", ".join(repr(a) for a in acts))
        return "\n".join(lines) or "nobody may act (result: %r)" % (self.g.result,)

    # ------------------------------------------------------------------ acting, strictly
    def do(self, action: Action) -> list[Event]:
        """Apply ``action``; fail the test (listing what was legal) unless it is legal now."""
        legal = self.g.legal_actions(action.seat)
        if action not in legal:
            pytest.fail(f"{action!r} is not legal now (round {self.g.round}, seat {self.g.turn_seat}'s "
                        f"{self.g.phase}, waiting for {self.decision()}).\n{self.describe_pending()}")
        events = self.g.apply(action)
        self.events.extend(events)
        return events

    def _playable_uid(self, seat: int, card_id: str, nth: int = 0) -> int:
        sd = self.st.seats[seat]
        uids = [u for u in sd.hand if self.g.defs[u].id == card_id]
        uids += [u for u in sd.cost_zone if self.g.defs[u].id == card_id and u in self.st.face_up]
        if len(uids) <= nth:
            pytest.fail(f"seat {seat} holds no playable {card_id!r}; hand: {self.ids(seat, 'hand')}")
        return uids[nth]

    def threat_uid(self, card_id: str) -> int:
        """The uid of a pending threat, or of an Evil Habitual held by some seat / on the field."""
        for t in self.st.threats:
            if self.g.defs[t.uid].id == card_id:
                return int(t.uid)
        for sd in self.st.seats:
            for u in sd.held:
                if self.g.defs[u].id == card_id:
                    return int(u)
        for u in self.st.field:
            if self.g.defs[u].id == card_id:
                return int(u)
        pytest.fail(f"no threat or held Habitual {card_id!r}; threats: {self.threats()}")

    def play(self, seat: int, card_id: str, threat: str | None = None, to_seat: int | None = None,
             nth: int = 0) -> list[Event]:
        """Play ``card_id`` from the seat's hand (or face up from its Cost Zone); ``threat``: the
        card id of the threat a Resistance card answers; ``to_seat``: the teammate aimed at."""
        uid = self._playable_uid(seat, card_id, nth)
        t = self.threat_uid(threat) if threat is not None else None
        return self.do(PlayCard(seat, uid, t, to_seat))

    def play_action(self, seat: int, card_id: str, threat: str | None = None, to_seat: int | None = None,
                    nth: int = 0) -> PlayCard:
        """The PlayCard action ``play`` would apply (to test that it is or is not legal)."""
        uid = self._playable_uid(seat, card_id, nth)
        t = self.threat_uid(threat) if threat is not None else None
        return PlayCard(seat, uid, t, to_seat)

    def resist(self, seat: int, threat_card_id: str, amount: int) -> list[Event]:
        """Rotate ``amount`` Cost Zone cards toward a threat (or a held Habitual, CO-7)."""
        return self.do(Resist(seat, self.threat_uid(threat_card_id), amount))

    def pass_(self, seat: int, times: int = 1) -> list[Event]:
        out: list[Event] = []
        for _ in range(times):
            out.extend(self.do(Pass(seat)))
        return out

    def lay(self, seat: int, *card_ids: str) -> list[Event]:
        """Cost Zone phase: lay these hand cards face down."""
        out: list[Event] = []
        for c in card_ids:
            out.extend(self.do(LayCostZone(seat, self.find(seat, c, "hand"))))
        return out

    def choose(self, seat: int, card_id: str | int, zone: str | None = None) -> list[Event]:
        """Pick an option of the open choice, by uid or by card id (optionally from ``zone``:
        "hand" or "cost_zone" for overflow discards)."""
        if isinstance(card_id, int):
            return self.do(Choose(seat, card_id))
        c = self.st.choice
        if c is None:
            pytest.fail(f"no choice is open.\n{self.describe_pending()}")
        options = [u for u in c.options if self.g.defs[u].id == card_id]
        if zone is not None:
            options = [u for u in options if u in getattr(self.st.seats[c.seat], zone)]
        if not options:
            pytest.fail(f"{card_id!r} is not an option of the {c.purpose} choice: "
                        f"{[self.g.defs[u].id for u in c.options]}")
        return self.do(Choose(seat, options[0]))

    def boost(self, seat: int, index: int, payer: int | None = None, to_seat: int | None = None) -> list[Event]:
        """Take boost ``index`` of the card on offer; ``payer`` defaults to ``seat``."""
        return self.do(TakeBoost(seat, index, seat if payer is None else payer, to_seat))

    def buy(self, seat: int, ability: str) -> list[Event]:
        return self.do(BuyAbility(seat, ability))

    def use(self, seat: int, ability: str, to_seat: int | None = None) -> list[Event]:
        return self.do(UseAbility(seat, ability, to_seat))

    def pick_ability(self, seat: int, ability: str) -> list[Event]:
        return self.do(ChooseAbility(seat, ability))

    def adjust(self, seat: int, badge: str, value: int) -> list[Event]:
        """S-8: manual badge adjustment (never in legal_actions, so applied directly)."""
        events = self.g.apply(AdjustBadge(seat, badge, value))
        self.events.extend(events)
        return events

    def end_turn(self, seat: int) -> list[Event]:
        """Pass out of the seat's Main phase (it must be the seat's decision)."""
        self.expect_decision(seat, "main")
        return self.pass_(seat)

    def settle(self) -> list[Event]:
        """Pass every open response window and boost offer (whoever decides) until neither is open."""
        out: list[Event] = []
        while self.decision() in ("respond", "boost"):
            out.extend(self.pass_(self.decider()))   # type: ignore[arg-type]
        return out

    def pass_turn(self, seat: int) -> list[Event]:
        """Pass through the rest of ``seat``'s turn: laying, buying, resisting, Main, and any
        response window or boost offer. Strict: a choice (overflow, discard...) or a decision of
        another seat outside a window fails the test. Stops when the next turn starts or the game
        ends."""
        out: list[Event] = []
        while self.g.result is None and self.g.turn_seat == seat:
            kind = self.decision()
            who = self.decider()
            if kind in ("respond", "boost") or (who == seat and kind in ("lay", "after_lay", "resistance", "main")):
                out.extend(self.pass_(who))   # type: ignore[arg-type]
            else:
                pytest.fail(f"pass_turn({seat}) met seat {who}'s {kind} decision.\n{self.describe_pending()}")
        return out

    def pass_while(self, seat: int, kind: str) -> list[Event]:
        """Pass for ``seat`` as long as the game waits for it with a ``kind`` decision."""
        out: list[Event] = []
        while self.decider() == seat and self.decision() == kind:
            out.extend(self.pass_(seat))
        return out
