// Generated from engine/actions.py by `python -m christianity_game.server.protocol --write`:
// edit the action types' declarations there, not this file.
/** Each kind of action in one sentence (its `description`). */
export const DESCRIPTIONS = {
  Pass: "Pass: end laying, decline to respond, end a phase, stop taking boosts or finish a choice.",
  LayCostZone: "Put a card from your hand into your Cost Zone, face down.",
  PlayCard: "Play a card from your hand, or face up from your Cost Zone, paying its cost.",
  Resist: "Rotate some of your untapped Cost Zone cards toward a threat's resistance cost.",
  TakeBoost: "Take one of the boosts on the card just played, paid by the seat named.",
  UseAbility: "Use a Maturity Ability your team holds.",
  BuyAbility: "Buy a Maturity Ability for your team right after your Cost Zone phase.",
  ChooseAbility: "Pick the free Maturity Ability your team earned at a new shared Maturity Level.",
  Choose: "Pick one option of the open choice.",
  ChooseReward: "Duel: take an earned micro-reward or micro-boost.",
  AdjustBadge: "Set your own Humility or Maturity by hand.",
  Undo: "Take back your own last action, within your turn.",
  OfferEnd: "Duel: offer to end the game now on the stalemate score.",
  AnswerEnd: "Duel: accept or decline the other side's offer to end the game.",
};

/** What an undone action was, in words (its `undone`; the `undone` event carries the action). */
export const UNDONE = {
  Pass: "a pass",
  LayCostZone: "laying a card in the Cost Zone",
  PlayCard: "playing a card",
  Resist: "paying toward a resistance",
  TakeBoost: "taking a boost",
  UseAbility: "using a Maturity Ability",
  BuyAbility: "buying a Maturity Ability",
  ChooseAbility: "choosing a Maturity Ability",
  Choose: "a choice",
  ChooseReward: "choosing a reward",
  AdjustBadge: "a badge set by hand",
};
