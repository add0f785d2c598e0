// The game log in words: one readable sentence per kind of event the engine emits.
// Used by the board and the replay viewer. Seats are numbered as the page numbers them (Seat 1,
// Seat 2, ...): every seat goes through the caller's `seatName`, never printed as a raw index.
import { cardName, abilityName, PHASES } from "/static/common.js";
import { UNDONE } from "/static/actions.js";   // what an undone action was, in words (engine/actions.py)

const REWARDS = {
  draw: "draw 2 cards", untap: "untap 2 Cost Zone cards", flip: "flip 2 Cost Zone cards face up",
  destroy: "destroy a Righteous Habitual", humility: "+1 Humility",
};
const HOW = {
  paid: "by paying its resistance cost", card: "with a Resistance card", deliverance: "with Deliverance",
  chosen: "chosen free at a new shared level", bought: "bought with Cost",
};
export const WINNERS = { righteous: "The Righteous side wins", evil: "The Evil side wins", draw: "A draw" };

function list(ids) {
  const names = (ids || []).map((id) => cardName(id));
  if (!names.length) return "nothing";
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
function scoreWords(score) { return Array.isArray(score) ? ` (Righteous ${score[0]} : Evil ${score[1]})` : ""; }
function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

/** One sentence per event kind: (event, who, card, seat, table) -> text. `seat(i)` names seat i;
 * `table` is what the words follow: `righteous` (the number of Righteous seats: with one, nobody is
 * called a teammate or "the team"), `lone` (that one seat) and `mode`; left out, the team's words. */
export const EVENT_TEXT = {
  turn_started: (e, who) => `Round ${e.round}: ${who}'s turn begins.`,
  phase: (e, who) => `${who}: ${PHASES[e.phase] || String(e.phase).replace(/_/g, " ")} phase.`,
  drew: (e, who, card) => (card ? `${who} drew ${card}.` : `${who} drew a card.`),
  laid: (e, who) => `${who} laid a card face down in their Cost Zone.`,
  rotated: (e, who) => (e.by_effect ? `A card's effect rotated ${who}'s Cost Zone.` : `${who} rotated Cost Zone cards to pay.`),
  untapped: (e, who) => `${who}'s Cost Zone was untapped.`,
  played: (e, who, card, seat) => {
    let s = `${who} played ${card || "a card"}`;
    if (e.to_seat !== undefined && e.to_seat !== null && e.to_seat !== e.seat) s += ` at ${seat(e.to_seat)}`;
    if (e.threat !== undefined && e.threat !== null) s += " against a threat";
    if (e.cost !== undefined && e.cost !== null) s += ` for C${e.cost}`;
    if (e.chain) s += ` (combo chain ${e.chain})`;
    if (e.fee) s += ` (target-change fee C${e.fee})`;
    return `${s}.`;
  },
  threat_played: (e, who, card, seat) => `${e.seat === undefined || e.seat === null ? "The Evil deck" : who} played ${card || "a threat"} at ${seat(e.target)}${e.resistance !== undefined && e.resistance !== null ? `: resisting it costs ${e.resistance}` : ""}.`,
  resist_paid: (e, who) => `${who} paid ${e.amount} toward resisting.`,
  resisted: (e, who, card, seat) => `${who} resisted ${card || "a threat"}${e.target !== undefined && e.target !== null && e.target !== e.seat ? ` aimed at ${seat(e.target)}` : ""}${HOW[e.how] ? ` ${HOW[e.how]}` : ""}.`,
  failed: (e, who, card) => `${card || "A threat"} got through against ${who}.`,
  took_hold: (e, who, card) => `${card || "An Evil Habitual"} took hold on ${who}.`,
  humility: (e, who) => (e.rollover
    ? `${who}'s Humility reached 10 and rolled over to ${e.humility}.`
    // a loss at 0 leaves the badge as it was: what it cannot take becomes discards (S-4), listed next
    : !e.delta && !e.humility ? `${who}'s Humility was already 0: each point it could not lose costs a discard from hand or Cost Zone (overflow, S-4).`
      : !e.delta ? `${who}'s Humility stayed at ${e.humility}.`
        : `${who}'s Humility ${e.delta > 0 ? "rose" : "fell"} by ${Math.abs(e.delta)} to ${e.humility}.`),
  maturity: (e, who) => `${who} reached Maturity L${e.maturity}.`,
  overflow_discard: (e, who, card) => `${who} discarded ${card || "a card"} for Humility they could not lose.`,
  discarded: (e, who, card) => `${who} discarded ${card || "a card"}.`,
  boost_taken: (e, who, card, seat) => `${who} took boost ${Number(e.index) + 1} of ${card || "the card"}${e.payer !== undefined && e.payer !== null && e.payer !== e.seat ? `, paid by ${seat(e.payer)}` : ""}${e.fee ? ` (target-change fee C${e.fee})` : ""}.`,
  resolved: (e, who, card) => (e.boost !== undefined && e.boost !== null
    ? `Boost ${Number(e.boost) + 1} of ${card || "a card"} resolved.` : `${card || "A card"} resolved.`),
  attached: (e, who, card) => `${card || "A Habitual"} came into play for ${who}.`,
  ability_gained: (e, who, card, seat, t = {}) => {
    // a lone Righteous seat has no team; a duel's Righteous side levels seat by seat (A-3)
    const lone = t.righteous === 1 && e.seat !== undefined && e.seat !== null;
    const how = e.how === "chosen" && (lone || t.mode === "duel") ? "chosen free at a new level" : HOW[e.how];
    if (lone) return `${who} gained ${abilityName(e.ability)}${how ? `, ${how}` : ""}.`;
    return `${t.mode === "duel" ? "The Righteous side" : "The team"} gained ${abilityName(e.ability)}${how ? `, ${how}` : ""}${e.seat !== undefined && e.seat !== null ? ` by ${who}` : ""}.`;
  },
  ability_used: (e, who, card, seat) => `${who} used ${abilityName(e.ability)}${e.to_seat !== undefined && e.to_seat !== null && e.to_seat !== e.seat ? ` for ${seat(e.to_seat)}` : ""}.`,
  restored: (e, who) => `Restoration: ${who} shuffled ${plural(e.cards, "card", "cards")} from the discard pile back into their deck.`,
  found: (e, who, card) => (card ? `${who} found ${card} and took it into their hand.` : `${who} found a card and took it into their hand.`),
  searched: (e, who) => `${who} searched and found nothing.`,
  revealed: (e, who) => (e.foresight ? `Foresight: the Evil deck's next cards are ${list(e.foresight)}.`
    : `${who} revealed ${list(e.cards)}.`),
  moved: (e, who, card) => `${card || "A card"} moved${e.to ? ` to ${String(e.to).replace(/_/g, " ")}` : ""}.`,
  clearing_round: (e) => (e.opened ? "The clearing round opened: every Righteous player is at L3."
    : "The clearing round closed unclean: an Evil Habitual is in play or a player is below L3."),
  game_over: (e) => `Game over: ${WINNERS[e.winner] || `${e.winner} wins`}: ${e.reason}.`,
  manual: (e, who) => `${who} set ${e.badge === "humility" ? "Humility" : "Maturity"} from ${e.from} to ${e.to} by hand (a manual change).`,
  evil_deck_refilled: (e) => `The Evil deck ran out and was refilled with ${plural(e.cards, "card", "cards")}.`,
  habitual_broken: (e, who, card, seat) => `${who} broke ${card || "an Evil Habitual"}${e.held_by !== undefined && e.held_by !== null ? ` holding ${seat(e.held_by)}` : ""}${HOW[e.how] ? ` ${HOW[e.how]}` : ""}.`,
  cost_zone_power: (e, who) => `Cost Zone Power: ${who} put the top card of their deck into their Cost Zone.`,
  cost_zone_added: (e, who) => `A card went into ${who}'s Cost Zone.`,
  reshuffled: (e, who) => `${who}'s deck ran out: the discard pile (${plural(e.cards, "card", "cards")}) was shuffled into a new deck.`,
  flipped: (e, who, card) => `${card ? `${card} in ` : "A card in "}${who}'s Cost Zone was flipped face up.`,
  shared_level: (e, who, card, seat, t = {}) => (t.righteous === 1
    ? `${t.lone !== undefined && t.lone !== null ? seat(t.lone) : "The Righteous player"} reached L${e.level}: a free Maturity Ability to choose.`
    : `Every Righteous player reached L${e.level}: the team chooses a free Maturity Ability.`),
  reward_earned: (e, who) => (e.bonus ? `${who} earned a bonus micro-reward (two rewards in one turn).`
    : e.special ? `${who} earned a special micro-reward (the 5th of the turn: may destroy a Righteous Habitual).`
      : `${who} earned a micro-reward.`),
  reward_taken: (e, who, card, seat) => `${who} took the reward: ${REWARDS[e.reward] || String(e.reward).replace(/_/g, " ")}${e.to_seat !== undefined && e.to_seat !== null && e.to_seat !== e.seat ? ` for ${seat(e.to_seat)}` : ""}.`,
  boost_earned: (e, who) => `${who} earned a micro-boost for the Righteous side.`,
  destroyed: (e, who, card, seat) => `${who} destroyed ${card || "a Righteous Habitual"}${e.from_seat !== undefined && e.from_seat !== null ? ` of ${seat(e.from_seat)}` : ""}.`,
  destroyed_nothing: (e, who) => `${who} chose to destroy a Righteous Habitual, but there was none in play or in any hand: the reward did nothing.`,
  replaced: (e, who) => `The top card of ${who}'s deck replaced a spent face-up card in their Cost Zone.`,
  clean_round: (e, who) => `The clean round started on ${who}'s turn: every Righteous player is at L3 with no Evil Habitual in play; hold it for a full round to win.`,
  evil_hold: () => "Evil reached its Habitual count: if it still holds when the Righteous side's next turns are over, Evil wins.",
  undone: (e, who) => `${who} took back their last action${e.action && UNDONE[e.action.type] ? ` (${UNDONE[e.action.type]})` : ""}: the board is as before it.`,
  end_offered: (e, who) => `${who} offered to end the duel now on the stalemate score${scoreWords(e.score)}.`,
  end_declined: (e, who) => `${who} declined the offer to end the duel: play goes on.`,
  end_answered: (e, who, card, seat) => `${who} accepted to end the duel on the stalemate score${scoreWords(e.score)}; the offer waits for ${(e.waiting || []).map((s) => seat(s)).join(" and ") || "the rest of the side"} (every player of the side must accept).`,
  end_accepted: (e, who) => `${who} accepted: the duel ends by agreement on the stalemate score${scoreWords(e.score)}.`,
};

/** The sentence for one event. `seat(i)` names seat i as the page does ("Seat 1", a name...);
 * `table` ({righteous, lone, mode}, optional): the table the words follow. */
export function eventText(e, seat, table = {}) {
  const who = e.seat !== undefined && e.seat !== null ? seat(e.seat) : "The Evil deck";
  const card = e.card ? cardName(e.card) : null;
  const f = EVENT_TEXT[e.kind];
  if (f) return f(e, who, card, seat, table || {});
  return `${who}: ${String(e.kind).replace(/_/g, " ")}${card ? ` (${card})` : ""}.`;
}

/** Turn an engine message's zero-based "seat 0" into the page's "Seat 1". */
export function pageSeats(text) {
  return String(text).replace(/\bseats? (\d+)((?:, \d+)*)/gi, (m, first, rest) => {
    const nums = [first, ...(rest ? rest.split(",").map((x) => x.trim()).filter(Boolean) : [])];
    return `Seat ${nums.map((n) => Number(n) + 1).join(", ")}`;
  });
}
