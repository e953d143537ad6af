//! Bacon (`docs/rules/bacon.md`): four players in partnerships, 52 cards, A high; five cards each
//! and up to four upcards, each offered from the dealer's left ("pick it up", alone or not; the
//! partner may veto either); the declarer's left-hand opponent takes the upcard, discards face up and
//! leads; five tricks; 3–4 tricks score 1 and all five 2, doubled for a loner or for the defenders;
//! game to 10.

use crate::cards::{Card, CardSet, Suit, packs};
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Contract, Decides, Ending, Event, Fault, FieldError, FirstDecides, GameInfo,
    HandState, Locus, MatchState, NoDetails, OptionKind, OptionSpec, Options, Outcome, PerSide,
    RankOrder, RecordError, Rules, ScoreSource, Seat, Side, Table, TableView, Trick, TrickPlay,
    TrickReport, deal,
};
use crate::record::{Action, HandRecord, Yes};

pub struct Bacon;

crate::verbs! {
    /// What a record of Bacon can say.
    #[derive(Copy)]
    pub enum Verb in "Bacon" {
        Pass(Yes) = "pass": "A pass on the upcard or in the second round of naming trump (value `true`).",
        PickUp(bool) = "pick_up": "\"Pick it up\": the upcard's suit becomes trump; the value is whether the caller goes alone (`true`) or not (`false`).",
        VetoPickUp(bool) = "veto_pick_up": "The picker's partner vetoes the pick-up (`true`: it counts as a pass) or lets it stand (`false`).",
        VetoAlone(bool) = "veto_alone": "The loner's partner vetoes going alone (`true`: an ordinary pick-up) or lets it stand (`false`).",
        Discard(Card) = "discard": "The dealer's discard after picking up the upcard.",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

static INFO: GameInfo = GameInfo {
    id: "bacon",
    name: "Bacon",
    tables: crate::engine::Tables(&[Table::FOUR]),
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
    rules: "docs/rules/bacon.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "upcard_turned",
        "pick_up_vetoed",
        "alone_vetoed",
        "upcard_taken",
        "hand_acquitted",
    ],
    score_codes: &[THREE_OR_FOUR, ALL_FIVE],
    titles: crate::engine::Titles(&[
        ("pick_up_vetoed", "Pick-up vetoed"),
        ("alone_vetoed", "Going alone vetoed"),
        ("upcard_taken", "Upcard taken"),
        ("hand_acquitted", "Hand acquitted: no play, no score"),
        (THREE_OR_FOUR, "Three or four tricks"),
        (ALL_FIVE, "All five tricks"),
    ]),
};

/// §4's two scores, by the tricks the scoring side took.
const THREE_OR_FOUR: &str = "three_or_four_tricks";
const ALL_FIVE: &str = "all_five_tricks";

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

impl Rules for Bacon {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::standard52(),
            hand: HandSize::Each(DEALT),
            counted_by: None,
            parts: &[Holds {
                part: Part::Stock,
                what: "the stub in order, top first: its top cards are the upcards",
                count: Count::Rest { at_least: 1 },
            }],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        _: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::standard52();
        let mut dealt = deal::check_cards(record, Table::FOUR, &pack)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        let dealer = record.dealer;
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS);
        adj.events.push(Event::new(
            "upcard_turned",
            None,
            dealer,
            vec![record.stock[0]],
            format!("{dealer} turns the first upcard, {}", record.stock[0]),
        ));
        Ok(Box::new(Hand {
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
        }))
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
    /// The auction turned this many upcards' worth of passes beyond the stock: the record
    /// cannot be replayed (`refusal`).
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
            self.adj.events.push(Event::new("hand_acquitted", index, None, vec![], format!(
                    "all four upcards were passed: the hand is acquitted and {redealer} deals again (bacon.md §1, BA-2)"
                )));
        } else if next >= self.stock.len() {
            self.missing_upcard = Some(next);
        } else {
            self.adj.events.push(Event::new(
                "upcard_turned",
                index,
                dealer,
                vec![self.stock[next]],
                format!(
                    "all four passed upcard {}: {dealer} discards it and turns upcard {}, {}",
                    next,
                    next + 1,
                    self.stock[next]
                ),
            ));
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
        let mut contract = Contract::new(declarer, Table::FOUR.side(declarer));
        contract.alone = Some(alone);
        self.adj.contract = Some(contract);
        self.play.lead_next(leader);
        self.play.hand_mut(taker).insert(card);
        if alone {
            self.play.sit_out(partner(declarer));
        }
        self.adj.events.push(Event::new("upcard_taken", action, taker, vec![card], format!(
                "{declarer}'s pick-up of {card} stands{}: {} are trump and {taker} takes the upcard",
                if alone { " (alone)" } else { "" },
                suit_name(trump)
            )));
        self.phase = Phase::Discard { taker };
    }

    /// The seat due to act; `None` once the hand is over. While a pick-up awaits its vetoes,
    /// which are optional (BA-b), that is the upcard's taker.
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction { caller, .. } => Some(caller),
            Phase::Veto { caller, .. } => Some(self.taker(caller)),
            Phase::Discard { taker } => Some(taker),
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    /// What the seat due is due to do, for a refusal (written only when one is made).
    fn due_to(&self) -> String {
        match self.phase {
            Phase::Auction { upcard, .. } => format!(
                "pass or pick up upcard {} ({})",
                upcard + 1,
                self.stock[upcard]
            ),
            Phase::Veto { caller, .. } => {
                format!("discard, {caller}'s pick-up standing unless his partner vetoes it")
            }
            Phase::Discard { .. } => {
                "discard one card face up before the first lead (bacon.md §3)".into()
            }
            _ => format!("play to trick {}", self.play.trick.number),
        }
    }

    /// A `veto_pick_up` or `veto_alone` while a pick-up awaits the partner's decisions (§2.2, §3).
    fn veto(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let Phase::Veto {
            upcard,
            caller,
            calls,
            action: picked,
            alone,
            pick_decided,
            alone_decided,
        } = self.phase
        else {
            unreachable!("only called while a pick-up awaits its vetoes")
        };
        let seat = action.seat;
        let p = partner(caller);
        // README C12, BA-c: the seat is checked first; only the caller's partner is due to veto.
        if seat != p {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("only {p}, {caller}'s partner, may veto {caller}'s pick-up"),
            ));
        }
        if let Verb::VetoAlone(_) = action.kind
            && (!alone || alone_decided)
        {
            // BA-c: the partner is due, but there is no alone to veto here.
            return Err(RecordError::unexpected(
                index,
                action,
                if alone {
                    format!("{p} has already decided on {caller} going alone (bacon.md §7 BA-c)")
                } else {
                    format!(
                        "{caller} did not go alone: there is no alone to veto (bacon.md §7 BA-c)"
                    )
                },
            ));
        }
        let card = self.stock[upcard];
        match action.kind {
            Verb::VetoPickUp(_) if pick_decided || alone_decided => Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "{p} has already decided on {caller}'s pick-up (veto_pick_up comes once, before veto_alone)"
                ),
            )),
            Verb::VetoPickUp(true) => {
                self.adj.events.push(Event::new("pick_up_vetoed", index, p, vec![card], format!(
                        "{p} vetoes {caller}'s pick-up of {card}: it counts as {caller}'s pass (bacon.md §3)"
                    )));
                self.pass(index, upcard, caller, calls);
                Ok(())
            }
            Verb::VetoPickUp(false) if alone => {
                self.phase = Phase::Veto {
                    upcard,
                    caller,
                    calls,
                    action: picked,
                    alone,
                    pick_decided: true,
                    alone_decided,
                };
                Ok(())
            }
            Verb::VetoPickUp(false) => {
                self.stand(picked, upcard, caller, false);
                Ok(())
            }
            Verb::VetoAlone(veto) => {
                if veto {
                    self.adj.events.push(Event::new("alone_vetoed", index, p, vec![], format!(
                            "{p} vetoes {caller} going alone: an ordinary pick-up, {p} plays (bacon.md §3)"
                        )));
                }
                self.stand(picked, upcard, caller, !veto);
                Ok(())
            }
            _ => unreachable!("only vetoes are passed here"),
        }
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(self.adj.trump, &ORDER)
            .expect("a complete trick");
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            let consequence = self.revoke_consequence(Table::FOUR.side(e.seat), e.action_index);
            let mut irregularity = e.irregularity(consequence);
            if self.decided_by.decided().map(|(_, at)| at) == irregularity.action_index {
                irregularity.effect.decides = Some(Decides::Hand);
            }
            self.adj.irregularities.push(irregularity);
        }
        self.adj.tally[Table::FOUR.side(winner)].tricks += 1;
        self.adj.tricks.push(TrickReport::new(trick, winner));
        // README C9: a deciding revoke ends the hand as surely as the fifth trick.
        if self.adj.tricks.len() == TRICKS || self.decided_by.decided().is_some() {
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
        if let Some(consequence) = self.decided_by.offence(offenders, index, "revoke") {
            return consequence;
        }
        let to = offenders.other();
        format!(
            "{} score as if they had taken all five tricks, {} points, and {} score nothing (bacon.md §5 DEFAULT)",
            to.spoken(),
            all_five(self.contract(), to),
            offenders.spoken()
        )
    }
}

/// §4: what `side` scores for all five tricks under `contract`: declarers 2 (alone 4), defenders 4.
fn all_five(contract: &Contract, side: Side) -> i32 {
    if side == contract.side && contract.alone != Some(true) {
        2
    } else {
        4
    }
}

/// Rules on a hand played out or decided by a revoke (§4, §5 DEFAULT): exactly one side scores.
fn score(adj: &mut Adjudication, decided: Option<(Side, usize)>) {
    let c = adj.contract.clone().expect("a pick-up stood");
    let winner = match decided {
        // §5 DEFAULT: the first established revoke decides the hand (README C7, C9): the other
        // side scores as if it had taken all five tricks.
        Some((offenders, at)) => {
            let winner = offenders.other();
            let i = adj
                .irregularities
                .iter()
                .position(|i| i.action_index == Some(at))
                .expect("the deciding revoke is reported");
            adj.penalize(i, winner, all_five(&c, winner));
            winner
        }
        // §4: the side with 3 or 4 tricks scores 1, with all five 2; doubled for a loner or the
        // defenders.
        None => {
            let won = adj.tally[c.side].tricks as usize;
            let scorer = if won * 2 > TRICKS {
                c.side
            } else {
                c.side.other()
            };
            let (points, code) = if adj.tally[scorer].tricks as usize == TRICKS {
                (all_five(&c, scorer), ALL_FIVE)
            } else {
                let doubled = scorer != c.side || c.alone == Some(true);
                (if doubled { 2 } else { 1 }, THREE_OR_FOUR)
            };
            adj.score(scorer, points, ScoreSource::Tricks, code, None);
            scorer
        }
    };
    let contract = adj.contract.as_mut().expect("a pick-up stood");
    contract.made = Some(winner == contract.side);
    adj.outcome = Outcome::Scored;
    adj.hand_winner = Some(winner);
    adj.settle();
    let m = &mut adj.match_after;
    m.next_dealer = Some(Table::FOUR.left(adj.dealer)); // BA-a
    // §4: only one side scores a hand, so only the winner can reach 10 with it.
    if m.scores[winner] >= GAME {
        m.end_game([winner]);
    }
}

/// §1, BA-2: an acquitted hand has no play and no score; `redealer` deals again.
fn acquitted(adj: &mut Adjudication, redealer: Seat) {
    adj.outcome = Outcome::Void;
    adj.hand_score = Some(PerSide::default());
    adj.match_after.next_dealer = Some(redealer);
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if let Phase::Over = self.phase {
            if let Some(ignored) = self.decided_by.ignores(index, "bacon.md §5") {
                self.adj.ignored_actions.push(ignored);
                return Ok(());
            }
            return Err(RecordError::after_end(
                index,
                action,
                if self.acquitted {
                    "the hand was acquitted after the fourth upcard was passed"
                } else {
                    "all five tricks have been played"
                },
            ));
        }
        // BA-b: any action but a veto after a pick-up means no veto: the pick-up stands as called.
        if let Phase::Veto {
            upcard,
            caller,
            action: picked,
            alone,
            ..
        } = self.phase
            && !matches!(action.kind, Verb::VetoPickUp(_) | Verb::VetoAlone(_))
        {
            self.stand(picked, upcard, caller, alone);
        }
        match (self.phase, action.kind) {
            (Phase::Play, Verb::Correct(card)) => {
                let judge = self.judge();
                return self.play.correct(index, seat, card, judge);
            }
            // README C11: no trick is in progress, so nobody is entitled to correct.
            (_, Verb::Correct(_)) => {
                return Err(RecordError::correct_before_play(index, action));
            }
            (Phase::Veto { .. }, Verb::VetoPickUp(_) | Verb::VetoAlone(_)) => {
                return self.veto(index, action);
            }
            _ => {}
        }
        // README C12: the seat is checked before the verb.
        let due = self.due().expect("a seat is due before the hand is over");
        if seat != due {
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("{due} is due to {}, not {seat}", self.due_to()),
            ));
        }
        // BA-c: a veto of going alone anywhere but right after an alone pick-up that stands.
        if let Verb::VetoAlone(_) = action.kind {
            return Err(RecordError::unexpected(
                index,
                action,
                "no pick-up alone awaits its partner's decision: veto_alone is only possible right after an alone pick-up that was not vetoed (bacon.md §7 BA-c)".into(),
            ));
        }
        match (self.phase, action.kind) {
            (Phase::Auction { upcard, calls, .. }, Verb::PickUp(alone)) => {
                self.phase = Phase::Veto {
                    upcard,
                    caller: seat,
                    calls,
                    action: index,
                    alone,
                    pick_decided: false,
                    alone_decided: false,
                };
                Ok(())
            }
            (Phase::Auction { upcard, calls, .. }, Verb::Pass(_)) => {
                self.pass(index, upcard, seat, calls);
                Ok(())
            }
            (Phase::Discard { .. }, Verb::Discard(card)) => {
                self.play.give_up(index, seat, card, "discard")?;
                self.phase = Phase::Play;
                Ok(())
            }
            (Phase::Play, Verb::Play(card)) => {
                self.play.play_judged(index, seat, card, self.judge())?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            _ => Err(RecordError::unexpected(
                index,
                action,
                format!("{due} is due to {}", self.due_to()),
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
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.trick_number = self.locus().trick_number;
        view
    }

    /// No trick is under way before the trump is made and the discard done, nor in a hand
    /// acquitted: the table shows no trick number. A seat is due in every phase but the last
    /// (`due`; during the vetoes, the upcard's taker, and his partner may veto too).
    fn locus(&self) -> Locus {
        let playing = matches!(self.phase, Phase::Play);
        Locus::of_play_once_begun(&self.play, self.due().is_none(), playing)
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let action = |seat, kind| Action { seat, kind };
        let discards = |taker: Seat, hand: CardSet| {
            hand.iter()
                .map(move |card| action(taker, Verb::Discard(card)))
        };
        match self.phase {
            Phase::Auction { caller, .. } => {
                [Verb::Pass(Yes), Verb::PickUp(false), Verb::PickUp(true)]
                    .map(|kind| action(caller, kind))
                    .to_vec()
            }
            // The partner's decisions, and (BA-b: without a veto the pick-up stands) the taker's
            // discard from his cards and the upcard.
            Phase::Veto { upcard, caller, .. } => {
                let p = partner(caller);
                let taker = self.taker(caller);
                let mut hand = self.play.hand(taker);
                hand.insert(self.stock[upcard]);
                [true, false]
                    .into_iter()
                    .flat_map(|veto| {
                        [Verb::VetoPickUp(veto), Verb::VetoAlone(veto)].map(|kind| action(p, kind))
                    })
                    .chain(discards(taker, hand))
                    .collect()
            }
            Phase::Discard { taker } => discards(taker, self.play.hand(taker)).collect(),
            Phase::Play => self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Over => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn ignored(&self, index: usize) -> bool {
        self.adj.ignored(index)
    }

    /// §2: the stock lists every upcard the auction turns; a record whose passes turn one past
    /// its end cannot be replayed.
    fn refusal(&self) -> Option<Vec<FieldError>> {
        let n = self.missing_upcard?;
        Some(vec![FieldError::new(
            "/stock".into(),
            format!(
                "all four players passed upcard {n}, so upcard {} was turned, but the stock lists only {n} card{}",
                n + 1,
                if n == 1 { "" } else { "s" }
            ),
        )])
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let open = |due, detail| Ending::Open { due, detail };
        let ending = match (self.missing_upcard, self.phase) {
            // A record replayed whole is refused for this (`refusal`); one replayed step by step
            // (`engine::Replay`) only finds out here: the stock lacks the upcard turned.
            (Some(n), _) => open(
                None,
                format!(
                    "all four players passed upcard {n}, but the stock lists no upcard {}",
                    n + 1
                ),
            ),
            // Acquitted, five tricks played, or a deciding revoke.
            (None, Phase::Over) => Ending::Over,
            (None, phase) => open(
                self.due(),
                match phase {
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
                },
            ),
        };
        let dealer = self.adj.dealer;
        // §1, BA-2: the same dealer redeals an acquitted hand (option: the next dealer).
        let redealer = if self.redeal_same {
            dealer
        } else {
            Table::FOUR.left(dealer)
        };
        let (was_acquitted, decided) = (self.acquitted, self.decided_by.decided());
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        self.adj.conclude(error, ending, |adj| {
            if was_acquitted {
                acquitted(adj, redealer)
            } else {
                score(adj, decided)
            }
        });
        self.adj
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
