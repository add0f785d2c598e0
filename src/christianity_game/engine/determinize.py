"""Determinization: a copy of the game re-dealt consistently with what one seat can see.

A search bot must not read hidden state (docs/design.md, "Hidden information"). It asks
``determinize(game, seat, rng)`` for a *world*: a clone in which everything ``seat`` cannot see
(other seats' hands, every deck's order, other seats' face-down Cost Zone cards, the co-op Evil
deck below the Foresight cards, the generator's state) is re-dealt at random, and plays that world
forward with the real engine.

How the re-deal works. Every card keeps its uid and its place; what changes is *which card each
hidden uid is*. The world gets its own copy of the card table (``defs``: uid -> card; the original
is shared by clones and stays untouched), and the cards of the hidden uids are dealt out again among
hidden uids of the same owner (a Righteous seat's cards among that seat's hidden places, the co-op
Evil deck's among the Evil deck's). So:

- every visible card keeps its uid, its card and its place: a view shows ``uid`` and ``id``
  together, and both stay true; the marks on places (tapped, face up) stay on their uids;
- every hidden place keeps its size, and the world holds the same cards as the real game (the same
  multiset per owner, which the public deck lists and the visible cards determine);
- the world is a function of the seat's view and ``rng`` alone: the hidden cards are sorted by card
  id before they are shuffled, so two games that differ only in cards the seat cannot see give the
  same world for the same ``rng`` state (the uids at hidden places are the same in such games, as
  they say nothing about the cards).

Permuting uids among places instead would keep each uid's real card, so two such games would give
worlds with different cards at the same place: a bot's decision would depend on hidden cards.

Cards the pending state refers to. An open boost offer names its card by uid, and that card can
leave the table while the offer waits: a card whose own effect draws resolves into its owner's
discard, the draw reshuffles the discard into the deck, and then the card's boost is offered. The
card is public (everyone saw it resolve), but it now sits in a hidden place, so a plain re-deal
would give its uid another card: the world would offer a boost the card does not have, and
applying the real game's ``TakeBoost`` to it raised ``IndexError`` in ``_do_boost``. Such a card
is *pinned* (:func:`pinned_uids`: the uids of the open offers, the stack and the pending threats,
and the duel's finale and answered threat): it keeps its card, and its uid moves to a random
hidden place of the same zone (a swap with the uid there), so the world neither changes what the
offer refers to nor tells where in the deck the real card lies.

The clone's action list and event log are emptied (they may name hidden cards); a world is for
playing forward, not for records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .observer import hidden_zones, shown_uids
from .rng import Rng

if TYPE_CHECKING:
    from .base import GameBase

G = TypeVar("G", bound="GameBase")


def hidden_places(game: "GameBase", seat: int | None) -> list[tuple[list[int], int]]:
    """Every place holding a card that ``seat`` cannot see, as (zone list, index) pairs.

    The hidden zones are other seats' hands and face-down Cost Zone cards, every deck and the co-op
    Evil deck; a card there that the seat's view names anyway (a resolved card whose boost is on
    the stack, the Foresight cards on top of the Evil deck, the options of an open choice) counts as
    seen and stays. ``seat=None`` is a spectator (sees no hand at all).
    """
    seen = shown_uids(game, seat)   # what the observer shows the seat: its view and its legal actions
    c = game.state.choice
    if c is not None:
        # an open choice lists cards by uid (a search of a deck): the chooser sees them, and the
        # deciding seat never searches while another seat chooses; keep them where they are
        seen.update(c.options)
    return [(zone, k) for zone in hidden_zones(game, seat) for k, u in enumerate(zone) if u not in seen]


def pinned_uids(game: "GameBase") -> list[int]:
    """The cards the pending state refers to by uid, in a public order: the open boost offers, the
    stack's items (and the threats they answer), the pending threats, the duel's finale threats and
    the threat being answered. A world keeps each of them the card it is (see the module doc)."""
    st = game.state
    out: list[int] = [o.uid for o in st.offers]
    for item in st.stack:
        out.append(item.uid)
        if item.kind == "card" and item.threat is not None:
            out.append(item.threat)
    out.extend(t.uid for t in st.threats)
    d = st.duel
    if d is not None:
        out.extend(sorted(d.finale))
        if d.answer_head is not None:
            out.append(d.answer_head)
    return list(dict.fromkeys(out))


def _zones(game: "GameBase") -> list[list[int]]:
    """The zones a hidden card can be in, in a fixed order (so a world's can be found by index)."""
    st = game.state
    out: list[list[int]] = []
    for sd in st.seats:
        out.extend((sd.deck, sd.hand, sd.cost_zone))
    out.append(st.evil_deck)
    return out


class Determinizer(Generic[G]):
    """``determinize(game, seat, rng)`` for many worlds of one position: what ``seat`` cannot see
    (the hidden places and the pinned cards among them) is worked out once, and each
    :meth:`sample` gives exactly the world ``determinize`` gives for the same ``rng`` state.

    A search bot samples hundreds of worlds of the same position in one decision; finding the
    hidden places reads the seat's whole view, which costs more than the re-deal itself."""

    __slots__ = ("game", "seat", "places", "pins", "owners")

    def __init__(self, game: G, seat: int | None) -> None:
        self.game: G = game
        self.seat = seat
        zones = _zones(game)
        index = {id(z): n for n, z in enumerate(zones)}
        places = hidden_places(game, seat)
        #: hidden places as (zone number, index), in hidden_places' order
        self.places = [(index[id(z)], k) for z, k in places]
        where = {z[k]: (index[id(z)], k) for z, k in places}
        #: pinned uids at hidden places, as (zone number, uid), in pinned_uids' order
        self.pins = [(where[u][0], u) for u in pinned_uids(game) if u in where]
        self.owners = game.owner

    def sample(self, rng: Rng) -> G:
        """A world (see :func:`determinize`); ``rng`` is advanced."""
        game = self.game
        world = game.clone(log=False)   # a world to search in: no event log, copied or kept
        zones = _zones(world)
        places = self.places
        if self.pins:
            places = self._pin(zones, rng)
        defs = world.defs[:]          # the world's own card table; the original is shared, never changed
        owner = self.owners
        groups: dict[int, list[int]] = {}
        for z, k in places:
            uid = zones[z][k]
            groups.setdefault(owner[uid], []).append(uid)
        for key in sorted(groups):
            uids = groups[key]
            cards = sorted((defs[u] for u in uids), key=lambda c: c.id)   # no trace of the real deal
            rng.shuffle(cards)
            for u, card in zip(uids, cards):
                defs[u] = card
        world._set_card_table(defs)
        world._legal_cache = None     # listed from the view above, before the re-deal: stale now
        world.state.rng = Rng(rng.next64())
        world.actions = []
        world.log = []
        return world

    def _pin(self, zones: list[list[int]], rng: Rng) -> list[tuple[int, int]]:
        """Move every pinned uid to a random hidden place of its zone (swapping it with the uid
        there) and return the hidden places left to re-deal (the pinned ones taken out)."""
        taken: set[tuple[int, int]] = set()   # (zone number, index) now holding a pinned uid
        for z, u in self.pins:
            free = [j for zz, j in self.places if zz == z and (z, j) not in taken]
            j = free[rng.randbelow(len(free))]
            zone = zones[z]
            k = zone.index(u)   # where it is now (an earlier swap may have moved it)
            zone[k], zone[j] = zone[j], zone[k]
            taken.add((z, j))
        return [p for p in self.places if p not in taken]


def determinize(game: G, seat: int | None, rng: Rng) -> G:
    """A clone of ``game`` with everything ``seat`` cannot see re-dealt from ``rng`` (see module doc).

    ``rng`` is the caller's generator (a bot's); it is advanced. The clone's own generator is
    re-seeded from it, so the clone's future draws and shuffles are not the real game's.
    (:class:`Determinizer` gives the same worlds, faster, for many worlds of one position.)
    """
    return Determinizer(game, seat).sample(rng)
