"""Duel extensions of the scenario helper (tests/scenario.py) for the duel tests.

``DuelScenario`` is a :class:`scenario.Scenario` that knows the duel's own decisions (see the
module docstring of ``christianity_game.engine.duel``):

* ``"reward"``: an Evil micro-reward or a Righteous micro-boost waits to be chosen (ChooseReward);
* ``"interrupt"``: an Evil seat holds the interrupt window (play a threat or pass);
* ``"answer"``: a Righteous seat answers the threat at the head of the burst (resist or pass);

and the Scenario's own ones (choice purposes, "ability", "respond", "boost", "lay", "after_lay",
and the phase). Cards are still named by card id; Evil seats are given Evil card ids.

Strict as the base: every action goes through ``do`` and fails the test when not legal; the
passing helpers pass only the decisions they name.
"""

from __future__ import annotations

from typing import Any

import pytest

from christianity_game import PlayCard, Resist
from christianity_game.engine.actions import ChooseReward
from christianity_game.engine.events import Event
from christianity_game.engine.costs import remaining
from christianity_game.engine.legal import active_offer
from scenario import FILLER, Scenario

# Cheap Temptations of the duel Evil deck with a fixed resistance (tests read the numbers from the
# card data at run time: cost(), res()).
LEAVEN = "a-little-leaven"       # C1 Temptation: target discards 1 at random
IDLE = "idle-words"              # C1 Temptation: rotate 1 of target's Cost Zone
BROAD = "the-broad-way"          # an Evil Habitual with a fixed resistance and no text on failing
SECRET = "secret-sin"            # an Evil Habitual with a fixed resistance
# Filler for Righteous seats: an Evil card, which a Righteous seat can never play, so it adds no
# legal action beyond laying it (tests/scenario.py's FILLER).
R_FILL = FILLER
# Filler for Evil seats' hands, decks and Cost Zones: a Righteous card, which an Evil seat can
# never play (only Temptations and Evil Habituals are), even when a reward flips it face up.
E_FILL = "still-waters"


class DuelScenario(Scenario):
    """A Scenario for ``mode="duel"`` with the duel's decisions and helpers."""

    def __init__(self, lineup: str = "ER", phase: str = "main", turn_seat: int | None = None,
                 **kw: Any) -> None:
        if turn_seat is None:
            turn_seat = lineup.index("R")
        super().__init__(mode="duel", lineup=lineup, phase=phase, turn_seat=turn_seat, **kw)

    # ------------------------------------------------------------------ building
    def evil_cz(self, seat: int, n: int, tapped: int = 0) -> "DuelScenario":
        """``n`` untapped (and ``tapped`` tapped) face-down filler cards in an Evil seat's Cost Zone."""
        self.cost_zone(seat, *[E_FILL] * n)
        if tapped:
            self.cost_zone(seat, *[E_FILL] * tapped, tapped=True)
        return self

    def held_by(self, seat: int, by: int, *card_ids: str) -> "DuelScenario":
        """Evil Habituals holding ``seat``, played by Evil seat ``by`` (-1: nobody's own)."""
        return self._add(seat, "held", tuple({"id": c, "by": by} for c in card_ids))  # type: ignore[return-value]

    # ------------------------------------------------------------------ looking
    @property
    def d(self) -> Any:
        return self.st.duel

    def dview(self, viewer: int | None = None) -> dict[str, Any]:
        return self.g.view(viewer)["duel"]

    def decision(self) -> str | None:
        st = self.st
        if st.result is not None or not self.g.pending:
            return None
        if st.choice is not None:
            return str(st.choice.purpose)
        if st.ability_picks:
            return "ability"
        if self.d.reward_queue:
            return "reward"
        if st.window:
            return "respond"
        if active_offer(self.g) is not None:
            return "boost"
        if self.d.evil_window:
            return "interrupt"
        if self.d.answering and self.d.answer:
            return "answer"
        if st.step in ("lay", "after_lay"):
            return str(st.step)
        return self.g.phase

    def reward_kind(self) -> str | None:
        """The kind of the reward at the head of the queue: "evil", "special" or "righteous"."""
        q = self.d.reward_queue
        return q[0][1] if q else None

    def hand_uid(self, seat: int, card_id: str, nth: int = 0) -> int:
        return self._playable_uid(seat, card_id, nth)

    def threat_plays(self, seat: int) -> list[PlayCard]:
        return [a for a in self.legal(seat) if isinstance(a, PlayCard) and self.g.defs[a.card].is_threat]

    def rewards(self, seat: int) -> list[ChooseReward]:
        return [a for a in self.legal(seat) if isinstance(a, ChooseReward)]

    def earned(self, events: list[Event] | None = None) -> list[Event]:
        return [e for e in (self.events if events is None else events) if e.kind == "reward_earned"]

    def count(self, what: str) -> int:
        return int(self.d.counts.get(what, 0))

    # ------------------------------------------------------------------ acting
    def threaten(self, seat: int, card_id: str, target: int, nth: int = 0) -> list[Event]:
        """An Evil seat plays a threat at ``target`` (from hand or face up from its Cost Zone)."""
        return self.do(PlayCard(seat, self.hand_uid(seat, card_id, nth), None, target))

    def threat_action(self, seat: int, card_id: str, target: int, nth: int = 0) -> PlayCard:
        return PlayCard(seat, self.hand_uid(seat, card_id, nth), None, target)

    def reward(self, seat: int, reward: str, to_seat: int | None = None) -> list[Event]:
        return self.do(ChooseReward(seat, reward, to_seat))

    def take_hit(self, seat: int) -> list[Event]:
        """The answering seat passes: the threat at the head of the burst fails."""
        self.expect_decision(seat, "answer")
        return self.pass_(seat)

    def resist_all(self, seat: int, threat_card_id: str) -> list[Event]:
        """Pay a pending threat's whole remaining resistance at once."""
        t = next(t for t in self.st.threats if self.g.defs[t.uid].id == threat_card_id)
        return self.do(Resist(seat, t.uid, remaining(self.g, t)))

    def pass_interrupts(self) -> list[Event]:
        """Every Evil seat holding the interrupt window passes."""
        out: list[Event] = []
        while self.decision() == "interrupt":
            out.extend(self.pass_(self.decider()))   # type: ignore[arg-type]
        return out

    def pass_turn(self, seat: int, interrupts: bool = True) -> list[Event]:
        """Pass through the rest of ``seat``'s turn, as Scenario.pass_turn; with ``interrupts`` the
        Evil side also declines every interrupt window it is offered meanwhile. A threat to answer,
        a reward or a choice fails the test."""
        out: list[Event] = []
        while self.g.result is None and self.g.turn_seat == seat:
            kind = self.decision()
            who = self.decider()
            if kind in ("respond", "boost") or (who == seat and kind in ("lay", "after_lay", "main")) \
                    or (interrupts and kind == "interrupt"):
                out.extend(self.pass_(who))   # type: ignore[arg-type]
            else:
                pytest.fail(f"pass_turn({seat}) met seat {who}'s {kind} decision.\n{self.describe_pending()}")
        return out

    def take_rewards(self, pick: str = "draw") -> list[Event]:
        """Choose ``pick`` for every reward / boost waiting now (each to its own earner; a
        Righteous boost takes "draw" unless ``pick`` is "humility")."""
        out: list[Event] = []
        while self.decision() == "reward":
            seat = self.decider()
            assert seat is not None
            if self.reward_kind() == "righteous":   # a boost names the seat it goes to: the earner
                out.extend(self.reward(seat, pick if pick in ("draw", "humility") else "draw", seat))
            else:
                out.extend(self.reward(seat, pick))
        return out

    def answer_all(self, target: int, pick: str = "draw") -> list[Event]:
        """The Evil side passes its window; ``target`` takes every hit of the burst; rewards and
        boosts met on the way are taken as ``pick``. Stops at the next decision of another kind
        (a new interrupt window included)."""
        out: list[Event] = []
        while self.decision() == "interrupt" and self.st.threats:   # the burst's own window
            out.extend(self.pass_(self.decider()))   # type: ignore[arg-type]
        while self.decision() in ("answer", "reward"):
            if self.decision() == "answer":
                out.extend(self.take_hit(target))
            else:
                out.extend(self.take_rewards(pick))
        return out

    def land(self, evil: int, target: int, *card_ids: str) -> list[Event]:
        """``evil`` plays these threats at ``target`` in one burst (other Evil seats passing their
        turn in the window), then ``target`` takes every hit; rewards are taken as "draw"."""
        out: list[Event] = []
        for c in card_ids:
            while self.decision() == "interrupt" and self.decider() != evil:
                out.extend(self.pass_(self.decider()))   # type: ignore[arg-type]
            out.extend(self.take_rewards())
            out.extend(self.threaten(evil, c, target))
            out.extend(self.take_rewards())
        out.extend(self.answer_all(target))
        return out

    def to_main_of(self, seat: int) -> list[Event]:
        """Pass turns until ``seat``'s turn, lay nothing, and pass interrupt windows until the
        seat decides in its Main phase."""
        out = self.to_turn_of(seat)
        if self.decision() == "lay":
            out.extend(self.pass_(seat))
        out.extend(self.pass_interrupts())
        self.expect_decision(seat, "main")
        return out

    def to_turn_of(self, seat: int, *, max_steps: int = 200) -> list[Event]:
        """Pass turns (and interrupt windows) until ``seat``'s turn starts and it decides."""
        out: list[Event] = []
        for _ in range(max_steps):
            if self.g.result is not None:
                return out
            if self.g.turn_seat == seat and self.decider() == seat and self.decision() in ("lay", "after_lay", "main"):
                return out
            if self.g.turn_seat == seat and self.decision() == "interrupt":
                out.extend(self.pass_interrupts())   # (rules 2) Evil's window before the laying
                continue
            out.extend(self.pass_turn(self.g.turn_seat))
        pytest.fail(f"seat {seat}'s turn never came")



def special_reward_with_habitual_in_hand(rules: int | None = None) -> DuelScenario:
    """ER, Evil's turn: four threats that discard nothing, rewards taken as "draw" and hits taken
    until the 5th (special) reward waits; the Righteous seat holds First Fruits (a Habitual) in its
    hand and none in play (D-MR-5's "destroy" case that depends on a hidden hand)."""
    s = DuelScenario("ER", phase="main", turn_seat=0, rules=rules)
    s.hand(0, "idleness", IDLE, "idleness", IDLE).evil_cz(0, 4).deck(0, *[E_FILL] * 12)
    s.seat(1, humility=6).hand(1, "first-fruits", *[R_FILL] * 5).deck(1, *[R_FILL] * 8).untapped(1, 2)
    s.start()
    for c in ("idleness", IDLE, "idleness", IDLE):           # no discards: the hand stays
        s.threaten(0, c, 1)
        s.take_rewards()
    s.pass_interrupts()
    while not (s.decision() == "reward" and s.reward_kind() == "special"):
        if s.decision() == "answer":
            s.take_hit(1)
        else:
            s.reward(0, "draw")
    return s
