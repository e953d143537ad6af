//! Bacon (`shared/rules/bacon.md`): four players in partnerships, 52 cards, A high; five cards each
//! and up to four upcards, each offered from the dealer's left ("pick it up", alone or not; the
//! partner may veto either); the declarer's left-hand opponent takes the upcard, discards face up and
//! leads; five tricks; 3–4 tricks score 1 and all five 2, doubled for a loner or for the defenders;
//! game to 10.

use crate::cards::{Card, CardSet, Suit, packs};
use crate::engine::{
    Adjudication, Contract, Event, Fault, FieldError, FirstDecides, Game, GameInfo, HandState,
    MatchState, OptionKind, OptionSpec, Options, Outcome, PerSide, RankOrder, RecordError, Seat,
    Side, Table, TableView, Trick, TrickPlay, TrickReport, deal,
};
use crate::record::{Action, ActionKind, HandRecord, Yes};

pub struct Bacon;

static INFO: GameInfo = GameInfo {
    id: "bacon",
    name: "Bacon",
    players: 4,
    seats: &["N", "E", "S", "W"],
    partnerships: true,
    deck: "52-card pack, A high",
    game_target: GAME,
    options: &[
        OptionSpec {
            name: "upcard_to",
            kind: OptionKind::Choice {
                values: &["left_of_declarer", "declarer"],
                default: "left_of_declarer",
            },
            description: "Who takes the upcard into his hand and discards one card face up: \
                          `left_of_declarer` (the ruling: the declarer's left-hand opponent) or \
                          `declarer`. Either way the declarer's left-hand opponent leads trick 1.",
            rule: "bacon.md §6 BA-1",
        },
        OptionSpec {
            name: "acquitted_redeal",
            kind: OptionKind::Choice {
                values: &["same_dealer", "next_dealer"],
                default: "same_dealer",
            },
            description: "Who deals after an acquitted hand (all four upcards passed): \
                          `same_dealer` (the ruling) or `next_dealer` (the dealer's left).",
            rule: "bacon.md §6 BA-2, §7 BA-a",
        },
        OptionSpec {
            name: "revoke_penalty",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "`default`: the first established revoke decides the hand: the other side \
                          scores as if it had taken all five tricks (declarers 2, or 4 alone; \
                          defenders 4) and the offenders nothing (the rulings' default, the text \
                          being silent); `none`: revokes are reported only and the tricks score.",
            rule: "bacon.md §5",
        },
    ],
    rules: "bacon.md",
    irregularities: &["revoke"],
    verbs: &[
        "pass",
        "pick_up",
        "veto_pick_up",
        "veto_alone",
        "discard",
        "play",
        "correct",
    ],
    record_errors: &[],
    events: &[],
    score_codes: &[],
};

const GAME: i32 = 10;
const DEALT: usize = 5;
const TRICKS: usize = 5;
/// §1: up to four upcards are offered before the hand is acquitted.
const UPCARDS: usize = 4;

/// §1: A high, no bowers.
const ORDER: RankOrder = RankOrder::ACE_HIGH;

/// §3: follow suit if able, otherwise any card. `out` is the loner's partner, who plays no card.
fn judge(out: Option<Seat>) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> {
    move |trick, hand, card| {
        let led = trick.led()?.suit_unchecked();
        let of_led = hand.of_suit(led);
        if of_led.is_empty() || card.suit_unchecked() == led {
            return None;
        }
        let mut seat = trick.next_seat(Table::FOUR);
        if Some(seat) == out {
            seat = Table::FOUR.left(seat);
        }
        Some(Fault::new(
            "revoke",
            "bacon.md §3",
            format!(
                "{seat} played {card} when {} were led, holding {}",
                suit_name(led),
                of_led
            ),
        ))
    }
}

fn partner(seat: Seat) -> Seat {
    Table::FOUR.left(Table::FOUR.left(seat))
}

impl Game for Bacon {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn undealt_fields(&self) -> &'static [&'static str] {
        &["stock"]
    }

    fn start(
        &self,
        record: &HandRecord,
        options: &Options,
        before: &MatchState,
    ) -> Result<Box<dyn HandState>, Vec<FieldError>> {
        let pack = packs::standard52();
        let mut dealt = deal::check_cards(record, Table::FOUR, &pack)?;
        deal::check_counts(record, Table::FOUR, DEALT)?;
        if !record.face_up.is_empty() {
            return Err(vec![FieldError::new(
                "/face_up".into(),
                "Bacon's upcards are the stub's top cards: list them in `stock` (top first) and leave face_up empty".into(),
            )]);
        }
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        if record.stock.is_empty() {
            return Err(vec![FieldError::new(
                "/stock".into(),
                "the stub in order, top first, is required: its top card is the first upcard"
                    .into(),
            )]);
        }
        let dealer = record.dealer;
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.events.push(Event {
            code: "upcard_turned",
            action_index: None,
            trick: None,
            seat: Some(dealer),
            cards: vec![record.stock[0]],
            detail: format!("{dealer} turns the first upcard, {}", record.stock[0]),
        });
        let hand = Hand {
            stock: record.stock.clone(),
            phase: Phase::Auction {
                upcard: 0,
                caller: Table::FOUR.left(dealer),
                calls: 0,
            },
            play: TrickPlay::new(Table::FOUR, dealt.hands, Table::FOUR.left(dealer)),
            upcard_to_declarer: options.choice("upcard_to") == "declarer",
            redeal_same: options.choice("acquitted_redeal") == "same_dealer",
            penalty: options.choice("revoke_penalty") == "default",
            acquitted: false,
            missing_upcard: None,
            decided_by: FirstDecides::default(),
            adj,
        };
        // §2: the stock needs every upcard the auction turns. Replay the auction alone to see how
        // far it goes; a record that needs an upcard the stock lacks is refused here.
        let mut scan = hand.clone();
        // The engine hands over the seats as the table names them (`P1..P4` = `N E S W`), so the
        // scan sees the same auction as the replay.
        for (i, a) in record.actions.iter().enumerate() {
            if !matches!(scan.phase, Phase::Auction { .. } | Phase::Veto { .. })
                || scan.apply(i, a).is_err()
            {
                break;
            }
        }
        if let Some(n) = scan.missing_upcard {
            return Err(vec![FieldError::new(
                "/stock".into(),
                format!(
                    "all four players passed upcard {n}, so upcard {} was turned, but the stock lists only {n} card{}",
                    n + 1,
                    if n == 1 { "" } else { "s" }
                ),
            )]);
        }
        Ok(Box::new(hand))
    }
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    /// §2.2: `caller` is due to pass or pick up upcard `upcard` (its index in the stock), after
    /// `calls` calls on it.
    Auction {
        upcard: usize,
        caller: Seat,
        calls: usize,
    },
    /// A pick-up by `caller` awaiting the partner's vetoes; a decision not recorded is no veto (BA-b).
    Veto {
        upcard: usize,
        caller: Seat,
        calls: usize,
        action: usize,
        alone: bool,
        pick_decided: bool,
        alone_decided: bool,
    },
    /// §3: `taker` has the upcard in hand and discards one card face up.
    Discard {
        taker: Seat,
    },
    Play,
    /// Acquitted, or five tricks played.
    Over,
}

#[derive(Clone)]
struct Hand {
    /// The stub, top first: upcards 1..4 are its first four cards.
    stock: Vec<Card>,
    phase: Phase,
    play: TrickPlay,
    upcard_to_declarer: bool,
    redeal_same: bool,
    penalty: bool,
    acquitted: bool,
    /// The auction turned this many upcards' worth of passes beyond the stock (only `start`'s scan).
    missing_upcard: Option<usize>,
    /// The offending side and action of the first established revoke, when the penalty applies
    /// (§5, README C7).
    decided_by: FirstDecides,
    adj: Adjudication,
}

impl Hand {
    fn contract(&self) -> &Contract {
        self.adj
            .contract
            .as_ref()
            .expect("set when a pick-up stands")
    }

    /// The seat who takes the upcard and discards (BA-1, option `upcard_to`).
    fn taker(&self, declarer: Seat) -> Seat {
        if self.upcard_to_declarer {
            declarer
        } else {
            Table::FOUR.left(declarer)
        }
    }

    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        let out = self
            .adj
            .contract
            .as_ref()
            .filter(|c| c.alone == Some(true))
            .map(|c| partner(c.declarer));
        judge(out)
    }

    /// A pass (or a vetoed pick-up, §3) by `caller`: the offer moves on; after the fourth call the
    /// next upcard is turned, and after the fourth upcard the hand is acquitted (§1).
    fn pass(&mut self, index: usize, upcard: usize, caller: Seat, calls: usize) {
        if calls + 1 < 4 {
            self.phase = Phase::Auction {
                upcard,
                caller: Table::FOUR.left(caller),
                calls: calls + 1,
            };
            return;
        }
        let dealer = self.adj.dealer;
        let next = upcard + 1;
        self.phase = Phase::Over;
        if next == UPCARDS {
            self.acquitted = true;
            let redealer = if self.redeal_same {
                dealer
            } else {
                Table::FOUR.left(dealer)
            };
            self.adj.events.push(Event {
                code: "hand_acquitted",
                action_index: Some(index),
                trick: None,
                seat: None,
                cards: vec![],
                detail: format!(
                    "all four upcards were passed: the hand is acquitted and {redealer} deals again (bacon.md §1, BA-2)"
                ),
            });
        } else if next >= self.stock.len() {
            self.missing_upcard = Some(next);
        } else {
            self.adj.events.push(Event {
                code: "upcard_turned",
                action_index: Some(index),
                trick: None,
                seat: Some(dealer),
                cards: vec![self.stock[next]],
                detail: format!(
                    "all four passed upcard {}: {dealer} discards it and turns upcard {}, {}",
                    next,
                    next + 1,
                    self.stock[next]
                ),
            });
            self.phase = Phase::Auction {
                upcard: next,
                caller: Table::FOUR.left(dealer),
                calls: 0,
            };
        }
    }

    /// The pick-up of `declarer` stands (§3): the upcard's suit is trump, the taker adds the upcard
    /// to his hand and must discard; the declarer's left-hand opponent will lead; a loner's
    /// partner sits out.
    fn stand(&mut self, action: usize, upcard: usize, declarer: Seat, alone: bool) {
        let card = self.stock[upcard];
        let trump = card.suit_unchecked();
        let taker = self.taker(declarer);
        let leader = Table::FOUR.left(declarer);
        self.adj.trump = Some(trump);
        let mut contract = Contract::new(declarer, declarer.side());
        contract.alone = Some(alone);
        self.adj.contract = Some(contract);
        let mut play = TrickPlay::new(Table::FOUR, self.play.hands, leader);
        play.hand_mut(taker).insert(card);
        if alone {
            play.sit_out(partner(declarer));
        }
        self.play = play;
        self.adj.events.push(Event {
            code: "upcard_taken",
            action_index: Some(action),
            trick: None,
            seat: Some(taker),
            cards: vec![card],
            detail: format!(
                "{declarer}'s pick-up of {card} stands{}: {} are trump and {taker} takes the upcard",
                if alone { " (alone)" } else { "" },
                suit_name(trump)
            ),
        });
        self.phase = Phase::Discard { taker };
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(self.adj.trump, &ORDER)
            .expect("a complete trick");
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            let consequence = self.revoke_consequence(e.seat.side(), e.action_index);
            self.adj.irregularities.push(e.irregularity(consequence));
        }
        self.adj.tally[winner.side()].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        if self.adj.tricks.len() == TRICKS {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §5 DEFAULT: the first established revoke decides the hand (README C7); later ones change
    /// nothing.
    fn revoke_consequence(&mut self, offenders: Side, index: usize) -> String {
        if !self.penalty {
            return "none: the revoke_penalty option is 'none'; the tricks are scored as played"
                .into();
        }
        if let Some(consequence) = self.decided_by.offence(offenders, index) {
            return consequence;
        }
        let to = offenders.other();
        format!(
            "{} score as if they had taken all five tricks, {} points, and {} score nothing (bacon.md §5 DEFAULT)",
            to.spoken(),
            self.all_five(to),
            offenders.spoken()
        )
    }

    /// §4: what `side` scores for all five tricks: declarers 2 (alone 4), defenders 4.
    fn all_five(&self, side: Side) -> i32 {
        let c = self.contract();
        if side == c.side && c.alone != Some(true) {
            2
        } else {
            4
        }
    }

    /// §4: the side with 3 or 4 tricks scores 1, with all five 2; doubled for a loner or the
    /// defenders. Exactly one side scores.
    fn trick_score(&self) -> PerSide<i32> {
        let c = self.contract();
        let won = self.adj.tally[c.side].tricks as usize;
        let (scorer, tricks) = if won * 2 > TRICKS {
            (c.side, won)
        } else {
            (c.side.other(), TRICKS - won)
        };
        let base = if tricks == TRICKS { 2 } else { 1 };
        let doubled = scorer != c.side || c.alone == Some(true);
        let mut score = PerSide::default();
        score[scorer] = if doubled { base * 2 } else { base };
        score
    }
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

impl HandState for Hand {
    fn apply(&mut self, index: usize, action: &Action) -> Result<(), RecordError> {
        let seat = action.seat;
        let verb = action.kind.verb();
        match (self.phase, action.kind) {
            (
                Phase::Auction {
                    upcard,
                    caller,
                    calls,
                },
                ActionKind::Pass(_) | ActionKind::PickUp(_),
            ) => {
                if seat != caller {
                    return Err(RecordError::at(
                        "out_of_turn",
                        index,
                        seat,
                        verb,
                        format!(
                            "{caller} is due to call on upcard {}, not {seat}",
                            upcard + 1
                        ),
                    ));
                }
                match action.kind {
                    ActionKind::PickUp(alone) => {
                        self.phase = Phase::Veto {
                            upcard,
                            caller,
                            calls,
                            action: index,
                            alone,
                            pick_decided: false,
                            alone_decided: false,
                        }
                    }
                    _ => self.pass(index, upcard, caller, calls),
                }
                Ok(())
            }
            (Phase::Auction { upcard, caller, .. }, _) => Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "{caller} is due to pass or pick up upcard {} ({}); no pick-up is on the table",
                    upcard + 1,
                    self.stock[upcard]
                ),
            )),
            (
                Phase::Veto {
                    upcard,
                    caller,
                    calls,
                    action: picked,
                    alone,
                    pick_decided,
                    alone_decided,
                },
                ActionKind::VetoPickUp(_) | ActionKind::VetoAlone(_),
            ) => {
                let p = partner(caller);
                if seat != p {
                    return Err(RecordError::at(
                        "out_of_turn",
                        index,
                        seat,
                        verb,
                        format!("only {p}, {caller}'s partner, may veto {caller}'s pick-up"),
                    ));
                }
                let card = self.stock[upcard];
                match action.kind {
                    ActionKind::VetoPickUp(veto) => {
                        if pick_decided || alone_decided {
                            return Err(RecordError::unexpected(
                                index,
                                action,
                                format!(
                                    "{p} has already decided on {caller}'s pick-up (veto_pick_up comes once, before veto_alone)"
                                ),
                            ));
                        }
                        if veto {
                            self.adj.events.push(Event {
                                code: "pick_up_vetoed",
                                action_index: Some(index),
                                trick: None,
                                seat: Some(p),
                                cards: vec![card],
                                detail: format!(
                                    "{p} vetoes {caller}'s pick-up of {card}: it counts as {caller}'s pass (bacon.md §3)"
                                ),
                            });
                            self.pass(index, upcard, caller, calls);
                        } else if alone {
                            self.phase = Phase::Veto {
                                upcard,
                                caller,
                                calls,
                                action: picked,
                                alone,
                                pick_decided: true,
                                alone_decided,
                            };
                        } else {
                            self.stand(picked, upcard, caller, false);
                        }
                    }
                    ActionKind::VetoAlone(veto) => {
                        if !alone || alone_decided {
                            return Err(RecordError::unexpected(
                                index,
                                action,
                                if alone {
                                    format!("{p} has already decided on {caller} going alone")
                                } else {
                                    format!("{caller} did not go alone: there is no alone to veto")
                                },
                            ));
                        }
                        if veto {
                            self.adj.events.push(Event {
                                code: "alone_vetoed",
                                action_index: Some(index),
                                trick: None,
                                seat: Some(p),
                                cards: vec![],
                                detail: format!(
                                    "{p} vetoes {caller} going alone: an ordinary pick-up, {p} plays (bacon.md §3)"
                                ),
                            });
                        }
                        self.stand(picked, upcard, caller, !veto);
                    }
                    _ => unreachable!("matched above"),
                }
                Ok(())
            }
            (
                Phase::Veto {
                    upcard,
                    caller,
                    action: picked,
                    alone,
                    ..
                },
                _,
            ) => {
                // BA-b: no veto was recorded, so the pick-up stands as called.
                self.stand(picked, upcard, caller, alone);
                self.apply(index, action)
            }
            (Phase::Discard { taker }, ActionKind::Discard(card)) => {
                if seat != taker {
                    return Err(RecordError::at(
                        "out_of_turn",
                        index,
                        seat,
                        verb,
                        format!("{taker} took the upcard and discards, not {seat}"),
                    ));
                }
                if !self.play.hand_mut(taker).remove(card) {
                    return Err(RecordError::at(
                        "card_not_held",
                        index,
                        seat,
                        verb,
                        format!("{seat} does not hold {card} (his five cards and the upcard)"),
                    ));
                }
                self.phase = Phase::Play;
                Ok(())
            }
            (Phase::Discard { taker }, _) => Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "{taker} took the upcard and must discard one card face up before the first lead (bacon.md §3)"
                ),
            )),
            (Phase::Play, ActionKind::Play(card)) => {
                self.play.play_judged(index, seat, card, self.judge())?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            (Phase::Play, ActionKind::Correct(card)) => {
                let judge = self.judge();
                self.play.correct(index, seat, card, judge)
            }
            (Phase::Play, _) => Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "a card is due to trick {} from {}",
                    self.play.trick.number,
                    self.play
                        .to_play()
                        .map_or("nobody".to_string(), |s| s.to_string())
                ),
            )),
            (Phase::Over, _) => Err(RecordError::after_end(
                index,
                action,
                if self.acquitted {
                    "the hand was acquitted after the fourth upcard was passed"
                } else {
                    "all five tricks have been played"
                },
            )),
        }
    }

    fn view(&self) -> TableView {
        let (phase, to_act) = match self.phase {
            Phase::Auction { caller, .. } => ("auction", vec![caller]),
            Phase::Veto { caller, .. } => ("veto", vec![partner(caller), self.taker(caller)]),
            Phase::Discard { taker } => ("discard", vec![taker]),
            Phase::Play => ("play", self.play.to_play().into_iter().collect()),
            Phase::Over => ("over", vec![]),
        };
        let mut view = TableView::new(phase, to_act, &self.play, &self.adj.match_after);
        view.trump = self.adj.trump;
        view.tally = self.adj.tally;
        view.irregularities = self.adj.irregularities.clone();
        let mut add = |seat: Seat, kind: ActionKind| view.legal.push(Action { seat, kind });
        match self.phase {
            Phase::Auction { caller, .. } => {
                add(caller, ActionKind::Pass(Yes));
                add(caller, ActionKind::PickUp(false));
                add(caller, ActionKind::PickUp(true));
            }
            Phase::Veto {
                upcard,
                caller,
                alone,
                pick_decided,
                alone_decided,
                ..
            } => {
                let p = partner(caller);
                for veto in [true, false] {
                    if !pick_decided && !alone_decided {
                        add(p, ActionKind::VetoPickUp(veto));
                    }
                    if alone && !alone_decided {
                        add(p, ActionKind::VetoAlone(veto));
                    }
                }
                // BA-b: without a veto the pick-up stands and the taker discards next.
                let taker = self.taker(caller);
                let mut hand = self.play.hand(taker);
                hand.insert(self.stock[upcard]);
                for card in hand.iter() {
                    add(taker, ActionKind::Discard(card));
                }
            }
            Phase::Discard { taker } => {
                for card in self.play.hand(taker).iter() {
                    add(taker, ActionKind::Discard(card));
                }
            }
            Phase::Play => view.add_plays(&self.play, self.judge()),
            Phase::Over => {}
        }
        if !matches!(self.phase, Phase::Play | Phase::Over) {
            view.trick_number = None;
        }
        view
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        if let Some(e) = error {
            self.adj.record_error(e);
            return self.adj;
        }
        let dealer = self.adj.dealer;
        if self.acquitted {
            // §1, BA-2: no play, no score; the same dealer redeals (option: the next dealer).
            let mut adj = self.adj;
            adj.outcome = Outcome::Void;
            adj.hand_score = Some(PerSide::default());
            adj.match_after.next_dealer = Some(if self.redeal_same {
                dealer
            } else {
                Table::FOUR.left(dealer)
            });
            return adj;
        }
        // A revoke that decides the hand makes the rest of the play irrelevant: the record may stop.
        let complete = matches!(self.phase, Phase::Over) || self.decided_by.decided().is_some();
        if !complete {
            let detail = match self.phase {
                Phase::Auction { upcard, caller, .. } => format!(
                    "the record stops in the auction on upcard {}: {caller} has not called",
                    upcard + 1
                ),
                Phase::Veto { .. } | Phase::Discard { .. } => {
                    "the record stops before the upcard taker's discard".to_string()
                }
                _ => format!(
                    "the record stops in trick {} of {TRICKS}",
                    self.play.trick.number
                ),
            };
            self.adj
                .record_error(RecordError::incomplete_hand(None, detail));
            return self.adj;
        }
        let score = match self.decided_by.decided() {
            Some((offenders, _)) => {
                let mut s = PerSide::default();
                s[offenders.other()] = self.all_five(offenders.other());
                s
            }
            None => self.trick_score(),
        };
        let mut adj = self.adj;
        let contract = adj.contract.as_mut().expect("a pick-up stood");
        contract.made = Some(score[contract.side] > 0);
        adj.outcome = Outcome::Scored;
        adj.hand_score = Some(score);
        let m = &mut adj.match_after;
        m.hands_played += 1;
        m.next_dealer = Some(Table::FOUR.left(dealer)); // BA-a
        for side in Side::BOTH {
            m.scores[side] += score[side];
            // §4: only one side scores a hand, so only one can reach 10 with it.
            if score[side] > 0 && m.scores[side] >= GAME {
                m.game_over = true;
                m.winner = Some(side);
            }
        }
        adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn revoke_names_the_seat_after_a_sitting_out_partner() {
        // N leads hearts; E sits out (the loner W's partner), so S plays next.
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c("AH"), 0);
        let hand = CardSet::of(&[c("2H"), c("3S")]);
        let f = judge(Some(Seat::E))(&t, hand, c("3S")).expect("a revoke");
        assert!(
            f.explanation.starts_with("S played 3S"),
            "{}",
            f.explanation
        );
        assert_eq!(judge(None)(&t, hand, c("2H")), None);
        assert_eq!(judge(None)(&t, CardSet::of(&[c("3S")]), c("3S")), None);
    }
}
