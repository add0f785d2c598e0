"""What a duel tracks besides the shared state (docs/rules.md, section D): combo chains (D-COMBO),
plays and rewards this turn (D-MR), micro-boost tallies and streaks (D-MB), spent Habitual pairs
(D-MR-1), levels rewarded per seat (A-3) and the win clocks (D-W-R, D-W-E). Plain data, copied by
hand for cheap clones; the rules that change it are in :mod:`.duel`.
"""

from __future__ import annotations



class DuelState:
    """What a duel tracks besides the shared state: chains, tallies, rewards, clocks."""

    __slots__ = ("chain_count", "chain_last", "chain_target", "chain_seats", "chain_mixed", "plays",
                 "failed_temptations", "rewards", "earned", "bonus_given", "reward_queue", "flagged",
                 "phase_plays", "phase_key", "streak", "voided", "evil_window", "quiet", "answer",
                 "answer_head", "answering", "r_clock", "e_clock", "e_righteous_turns", "replace_spent",
                 "finale", "seat_level_rewarded", "counts", "given", "zero_rounds",
                 "round_threats", "round_threats_no")

    def __init__(self, seats: int = 0) -> None:   # no arguments: see state.py
        self.chain_count = 0
        self.chain_last: int | None = None
        self.chain_target: int | None = None
        self.chain_seats: tuple[int, ...] = ()
        self.chain_mixed = False
        self.plays = [0] * seats               # cards each seat played this turn (D-MR-2)
        self.failed_temptations = 0            # this turn, all Evil seats (D-MR-3)
        self.rewards = 0                       # micro-rewards this turn, all Evil seats (D-MR-5)
        self.earned = [0] * seats              # rewards each seat earned this turn (D-MR-7)
        self.bonus_given = [0] * seats
        self.reward_queue: list[tuple[int, str]] = []   # (seat, "evil" | "special" | "righteous")
        self.flagged: set[int] = set()         # Habituals already spent in a pair (D-MR-1)
        self.phase_plays = 0                   # Righteous cards played this phase (D-MB-1)
        self.phase_key: tuple[int, str] = (0, "")
        self.streak = [0] * seats              # threats each seat resisted this turn (D-MB-2)
        self.voided = [False] * seats
        self.evil_window: list[int] = []       # Evil seats still to pass in the open window
        self.quiet = False                     # the window for this moment has been offered
        self.answer: list[int] = []            # seats still to pass on the threat being answered
        self.answer_head: int | None = None
        self.answering = False
        self.r_clock: tuple[int, int] | None = None   # (seat, turn_no) the clean round was armed
        self.e_clock: int | None = None               # turn_no Evil's hold was armed
        self.e_righteous_turns = 0
        self.replace_spent: set[int] = set()   # Z-6 flag on Cost Zone cards flipped by a reward
        self.finale: dict[int, tuple[int, ...]] = {}   # threat uid -> Evil seats of its chain
        self.seat_level_rewarded = [0] * seats
        self.counts: dict[str, int] = {}       # what fired, for reports
        self.given = [0] * seats               # rewards each seat got this turn, bonuses too (variant rewardCap)
        self.zero_rounds = 0                   # rounds in a row every Righteous seat ended at Humility 0 (variant humilityWin)
        self.round_threats = 0                 # threats the Evil side played in round round_threats_no (variant roundThreats)
        self.round_threats_no = 0

    def clone(self) -> "DuelState":
        d = DuelState.__new__(DuelState)
        d.chain_count = self.chain_count
        d.chain_last = self.chain_last
        d.chain_target = self.chain_target
        d.chain_seats = self.chain_seats
        d.chain_mixed = self.chain_mixed
        d.plays = self.plays[:]
        d.failed_temptations = self.failed_temptations
        d.rewards = self.rewards
        d.earned = self.earned[:]
        d.bonus_given = self.bonus_given[:]
        d.reward_queue = self.reward_queue[:]
        d.flagged = set(self.flagged)
        d.phase_plays = self.phase_plays
        d.phase_key = self.phase_key
        d.streak = self.streak[:]
        d.voided = self.voided[:]
        d.evil_window = self.evil_window[:]
        d.quiet = self.quiet
        d.answer = self.answer[:]
        d.answer_head = self.answer_head
        d.answering = self.answering
        d.r_clock = self.r_clock
        d.e_clock = self.e_clock
        d.e_righteous_turns = self.e_righteous_turns
        d.replace_spent = set(self.replace_spent)
        d.finale = dict(self.finale)
        d.seat_level_rewarded = self.seat_level_rewarded[:]
        d.counts = dict(self.counts)
        d.given = self.given[:]
        d.zero_rounds = self.zero_rounds
        d.round_threats = self.round_threats
        d.round_threats_no = self.round_threats_no
        return d

    def reset_chain(self) -> None:
        self.chain_count = 0
        self.chain_last = None
        self.chain_target = None
        self.chain_seats = ()
        self.chain_mixed = False
