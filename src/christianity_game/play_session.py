"""The terminal's play session: people at the keyboard (hot-seat), bots at the other seats.

``christianity-game play`` makes a :class:`PlaySession` and runs it. The bots' moves go through the
match driver (:func:`christianity_game.bots.match.play`): it plays them until a person's decision
comes up, and the session prints each move and asks that person. Seats are numbered from 1 on
screen.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from .bots.match import Decider, play
from .engine.actions import Action, AdjustBadge, IllegalAction, PlayCard, action_from_json
from .engine.observer import boost_offer, seat_facts
from .render.table_words import card_text
from .render.terminal import (
    KIND_LABEL, boost_line, describe_action, describe_actions, describe_events, ends_turn, render_actions,
    render_board, righteous_count, righteous_seats_of, seat_label,
)

if TYPE_CHECKING:
    from .engine.events import Event
    from .engine.game import Game

HELP_TEXT = """\
[bold]Type the number of an option and press Enter.[/]
  [cyan]? N[/]      show the card behind option N (its full text and boosts)
  [cyan]b[/]        draw the board again
  [cyan]m[/]        adjust your own Humility or Maturity by hand (house rules, S-8): [dim]m h 5[/], [dim]m m 2[/]
  [cyan]{...}[/]    an action as JSON (advanced), e.g. [dim]{"type": "Pass", "seat": 0}[/]
  [cyan]q[/]        quit (with --save the game is saved first)
[bold]End your turn[/] while a card can still be played asks first: [cyan]y[/] ends it, anything else keeps your turn.
[bold]Marks:[/] ▯ a ready Cost Zone card, ▭ a rotated (spent) one, ★ face up · C3 = costs 3 · R2 = takes 2 to resist
[bold]Badges:[/] Humility x/10 (10 rolls over into a level) · Maturity L0-L3 (everyone at L3 opens the clearing round)"""


class PlaySession:
    """One game in the terminal: humans at some seats (hot-seat), bots at the others."""

    def __init__(self, game: "Game", console: Console, bots: Mapping[int, Decider], bot_names: dict[int, str],
                 save: Path | None = None, handoff: bool = False, delay: float = 0.0,
                 ask: Callable[[str], str] | None = None, prog: str = "christianity-game") -> None:
        self.game = game
        self.console = console
        self.bots = bots
        self.bot_names = bot_names
        self.save_path = save
        self.handoff = handoff
        self.delay = delay
        self.ask = ask or (lambda prompt: console.input(prompt))
        self.humans = [i for i in range(len(game.lineup)) if i not in bots]
        self.log: list["Event"] = []
        self.last_human: int | None = None
        self.seen_turn: tuple[int, int] = (-1, -1)
        self.uid_names = {u: d.name for u, d in enumerate(game.defs)}
        #: the Righteous seats: with only one, the texts say that seat, not "the team"
        self.righteous = righteous_seats_of(game.view(None))
        self.unprompted = False   # the game moved on without asking anyone (bots, forced moves)
        self.own_input = ask is None
        self.prog = prog   # the command, for the hint after a save

    # --- output
    def _events_for(self, viewer: int | None, limit: int = 80) -> list[str]:
        recent = self.log[-limit:]
        return describe_events([e.for_seat(viewer) for e in recent], self.game.cards, self.uid_names,
                               righteous=self.righteous)

    def draw_board(self, viewer: int | None, below: Any = None) -> None:
        """The board as ``viewer`` sees it, then ``below`` (the options). In a terminal, fewer
        event lines are shown when that makes board and options fit the screen."""
        view = self.game.view(viewer)
        events = self._events_for(viewer)
        board = render_board(view, self.game.cards, events=events)
        if self.console.is_terminal:
            for k in (7, 6, 5, 4, 3, 2, 0):
                lines = self.console.render_lines(Group(board, below) if below is not None else board,
                                                  self.console.options, pad=False)
                if len(lines) <= self.console.height - 1:
                    break
                board = render_board(view, self.game.cards, events=events, max_events=k)
        self.console.print(board)
        if below is not None:
            self.console.print(below)

    def save(self) -> None:
        if self.save_path is None:
            return
        try:
            self.save_path.write_text(json.dumps(self.game.to_record(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            self.console.print(Text(f"Could not save the game to {self.save_path}: {exc.strerror}", style="bold red"))
            return
        self.console.print(Text(f"Saved the game to {self.save_path} (show it with: {self.prog} replay {self.save_path})",
                                style="green"))

    # --- the loop
    def run(self) -> int:
        """Play the game to its end, or until a person quits or the input ends: the exit code
        (0, or 1 when the input ended or the game waits for no one, 130 on Ctrl-C)."""
        game = self.game
        try:
            while game.result is None:
                play(game, self.bots, watch=self._bot_to_decide, refused=self._bot_refused,
                     announce=self._bot_chose, moved=self._bot_moved)   # the bots, until a person decides
                if game.result is not None:
                    break
                pending = game.pending
                if not pending:   # never expected: the engine always waits for someone
                    self.console.print(Text("The game waits for no one: stopping.", style="bold red"))
                    self.save()
                    return 1
                seat, actions = pending[0]
                if seat in self.bots:   # the driver's cap on moves in one go: go on
                    continue
                outcome = self._human_decision(seat, actions)
                if outcome == "quit":
                    self.console.print(Text("You left the game.", style="yellow"))
                    self.save()
                    return 0
                if outcome == "eof":
                    self.console.print(Text("\nInput ended: stopping the game.", style="yellow"))
                    self.save()
                    return 1
        except KeyboardInterrupt:
            self.console.print(Text("\nInterrupted: stopping the game.", style="yellow"))
            self.save()
            return 130
        self.console.print(Rule("Game over", style="bright_green"))
        self.draw_board(None)
        self.save()
        return 0

    # --- a bot's move, as the match driver makes it
    def _bot_to_decide(self, game: "Game", seat: int, actions: list[Action]) -> None:
        """With bots alone at the table, the board at the start of each turn."""
        turn = (game.round, game.turn_seat)   # public: a new turn starts a new pair
        if not self.humans and turn != self.seen_turn:
            self.seen_turn = turn
            self.draw_board(None)

    def _bot_refused(self, seat: int, why: str, error: BaseException | None) -> None:
        self.console.print(Text(f"{seat_label(seat)}'s bot {why}; it passes instead.", style="red"))

    def _bot_chose(self, seat: int, action: Action, actions: list[Action]) -> None:
        text = describe_action(self.game, action, public=bool(self.humans))
        line = Text(f"  ⚙ {seat_label(seat)} ({self.bot_names.get(seat, 'bot')}): ", style="cyan")
        line.append(text, style="bold cyan" if len(actions) > 1 else "cyan")
        self.console.print(line)

    def _bot_moved(self, seat: int, action: Action, events: list["Event"]) -> None:
        self.log.extend(events)
        self.unprompted = True
        if self.humans:
            for ev in events:
                if ev.kind == "turn_started":
                    self.console.print(Rule(f"Round {ev.data.get('round')} · {seat_label(ev.seat)}'s turn",
                                            style="grey50"))
        if self.delay:
            time.sleep(self.delay)

    def _read(self, prompt: str) -> str | None:
        try:
            return self.ask(prompt)
        except EOFError:
            return None

    def _hand_over(self, seat: int) -> str | None:
        """Hot-seat: hide the screen and wait until the next player is at the keyboard.
        Returns what was typed (None: input ended)."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\x1b[3J")
        self.console.print(Panel(Text(f"Pass the keyboard to {seat_label(seat)}.\n"
                                      "The other players' hands stay hidden.", justify="center"),
                                 border_style="yellow", padding=(1, 4)))
        return self._read(f"{seat_label(seat)}: press Enter when you are ready (q to quit) ")

    def _human_decision(self, seat: int, actions: list[Action]) -> str:
        game = self.game
        if self.handoff and len(self.humans) > 1 and self.last_human is not None and seat != self.last_human:
            typed = self._hand_over(seat)
            if typed is None:
                return "eof"
            if typed.strip().lower() in ("q", "quit", "exit"):
                return "quit"
        self.last_human = seat
        # Copies of one card give equal actions: the menu lists each distinct action once.
        menu: list[Action] = []
        texts: list[str] = []
        for action, text in zip(actions, describe_actions(game, actions)):
            if text not in texts:
                menu.append(action)
                texts.append(text)
        actions = menu
        if self.unprompted:
            self._drop_typeahead()
        options = render_actions(game, actions, texts=texts, title=f" {seat_label(seat)}: your options ")
        self.draw_board(seat, options)
        n = len(actions)
        while True:
            raw = self._read(f"[bold yellow]{seat_label(seat)}[/] › choose 1-{n} ([cyan]?[/] help, [cyan]q[/] quit): ")
            if raw is None:
                return "eof"
            cmd = raw.strip()
            low = cmd.lower()
            if not cmd:
                continue
            if low in ("q", "quit", "exit"):
                return "quit"
            if low in ("?", "h", "help"):
                self.console.print(Panel(Text.from_markup(HELP_TEXT), title="Help", border_style="cyan"))
                continue
            if low.startswith("?"):
                self._card_info(cmd[1:].strip(), actions)
                continue
            if low in ("b", "board"):
                self.draw_board(seat, options)
                continue
            if low == "m" or low.startswith("m ") or low.startswith("manual"):
                if self._manual(seat, cmd):
                    return "done"
                continue
            if cmd.startswith("{"):
                if self._json_action(cmd):
                    return "done"
                continue
            try:
                choice = int(cmd)
            except ValueError:
                self._say(f"{cmd!r} is not an option. Type a number from 1 to {n}, ? for help, or q to quit.")
                continue
            if not 1 <= choice <= n:
                self._say(f"There is no option {choice}: choose a number from 1 to {n}.")
                continue
            chosen = actions[choice - 1]
            if ends_turn(game, chosen):
                answer = self._sure_to_end_turn(seat, actions)
                if answer in ("quit", "eof"):
                    return answer
                if answer == "keep":
                    continue
            return "done" if self._apply(chosen) else "again"

    def _sure_to_end_turn(self, seat: int, actions: list[Action]) -> str:
        """Ending the turn while a card can still be played (option 1, easily taken by reflex)
        asks first. "end" (answered y), "keep" (anything else: the turn goes on), "quit" (q) or
        "eof" (input ended). With nothing left to play the turn ends without a question."""
        playable = list(dict.fromkeys(self.game.defs[a.card].name for a in actions if isinstance(a, PlayCard)))
        if not playable:
            return "end"
        shown = ", ".join(playable[:3]) + (f" and {len(playable) - 3} more" if len(playable) > 3 else "")
        raw = self._read(f"[bold yellow]{seat_label(seat)}[/] › you can still play {shown}. "
                         "End your turn anyway? (y/N) ")
        if raw is None:
            return "eof"
        answer = raw.strip().lower()
        if answer in ("y", "yes"):
            return "end"
        if answer in ("q", "quit", "exit"):
            return "quit"
        self.console.print(Text("  Your turn goes on: choose again.", style="yellow"))
        return "keep"

    def _drop_typeahead(self) -> None:
        """Forget keys typed while the game moved on by itself (bots, forced moves): a number typed
        for an earlier prompt must not answer this new one."""
        self.unprompted = False
        if not self.own_input:
            return
        try:
            import termios
            if sys.stdin.isatty():
                termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
        except (ImportError, OSError, ValueError):   # not a POSIX terminal: nothing to drop
            pass

    def _say(self, message: str) -> None:
        self.console.print(Text(f"  ✗ {message}", style="bold red"))

    def _apply(self, action: Action, typed: bool = False) -> bool:
        """Apply an action; a refusal is explained (the engine's message) and nothing changes.

        ``typed``: the action was typed by hand (JSON), so it may be one the engine never offers;
        any error the engine raises while checking it is shown as a refusal, never a traceback."""
        try:
            if typed and not isinstance(action, AdjustBadge) and action not in self.game.legal_actions(action.seat):
                try:
                    events = self.game.apply(action)
                except IllegalAction:
                    raise
                except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
                    self._say(f"Not allowed: the engine refused {action!r} ({exc})")
                    return False
            else:
                events = self.game.apply(action)
        except IllegalAction as exc:
            self._say(f"Not allowed: {exc.message} [{exc.code}]")
            return False
        self.log.extend(events)
        return True

    def _json_action(self, text: str) -> bool:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            self._say(f"That is not valid JSON: {exc.msg}.")
            return False
        try:
            action = action_from_json(data)
        except IllegalAction as exc:
            self._say(f"Not an action: {exc.message}")
            return False
        return self._apply(action, typed=True)

    def _manual(self, seat: int, cmd: str) -> bool:
        """S-8: set your own Humility or Maturity by hand (``m h 5``, or asked step by step)."""
        if seat_facts(self.game, seat)["side"] != "righteous":
            self._say("only Righteous seats have Humility and Maturity badges")
            return False
        parts = cmd.split()[1:]
        badge_raw = parts[0] if parts else self._read("Adjust which badge? (h = Humility, m = Maturity): ")
        if badge_raw is None:
            return False
        badge = {"h": "humility", "humility": "humility", "power": "humility", "m": "maturity",
                 "maturity": "maturity", "l": "maturity", "level": "maturity"}.get(badge_raw.strip().lower())
        if badge is None:
            self._say(f"{badge_raw.strip()!r} is not a badge: use h (Humility) or m (Maturity).")
            return False
        top = 10 if badge == "humility" else 3
        value_raw = parts[1] if len(parts) > 1 else self._read(f"New {badge.capitalize()} (0-{top}): ")
        if value_raw is None:
            return False
        try:
            value = int(value_raw.strip().lstrip("lL"))
        except ValueError:
            self._say(f"{value_raw.strip()!r} is not a whole number.")
            return False
        return self._apply(AdjustBadge(seat, badge, value))

    def _card_info(self, arg: str, actions: list[Action]) -> None:
        try:
            n = int(arg)
        except ValueError:
            self._say("Write ? and an option number, for example ? 3.")
            return
        if not 1 <= n <= len(actions):
            self._say(f"There is no option {n}.")
            return
        a = actions[n - 1]
        uid = next((getattr(a, f) for f in ("card", "option", "threat") if getattr(a, f, None) is not None), None)
        if uid is None and type(a).__name__ == "TakeBoost":
            uid = boost_offer(self.game)
        if uid is None:
            self._say(f"Option {n} is not about a card.")
            return
        card = self.game.defs[uid]
        body = Text()
        body.append(f"{KIND_LABEL.get(card.kind, card.kind)}", style="bold")
        body.append(f" · cost C{card.cost}")
        if card.is_threat:
            body.append(f" · resistance {'RX' if card.x_rule else f'R{card.resistance}'}")
        if card.subtypes:
            body.append(f" · {', '.join(card.subtypes)}")
        righteous, fee = righteous_count(self.game), self.game.settings.solo_fee   # one: no teammate (P-7)
        body.append(f"\n{card_text(card.text, righteous, fee, needs_mate=card.aims_at_mate)}")
        for i, b in enumerate(card.boosts, start=1):
            body.append(f"\n{i}. {'⚡ ' if b.fast else ''}{boost_line(b, righteous, fee)}", style="cyan")
        if card.scripture:
            body.append(f"\n{card.scripture}", style="italic dim")
        self.console.print(Panel(body, title=Text(card.name, style="bold"), border_style="cyan"))
