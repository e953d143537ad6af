//! Stubs & Spoils (`docs/rules/stubs-and-spoils.md`): four players in partnerships, 52 cards; the
//! dealer's 13th card is the Color Card (black mode: tricks are assets, its suit trump; red mode:
//! tricks are liabilities, its suit the trojan suit); three gallery discards; from every trick one card
//! is the stub (scored), one the spoil (taken into a hand), two are dead; the hand ends after the spoil
//! that leaves somebody without a card (12–15 tricks); the stub difference scores; game to 21.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::details;
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Ending, Fault, FieldError, GameInfo, HandState, MatchState, NoDetails,
    OptionKind, OptionSpec, Options, Outcome, PerSide, PlayedCard, RankOrder, RecordError, Rules,
    ScoreSource, Seat, Side, Table, TableView, Trick, TrickPlay, TrickReport, deal,
    must_follow_suit, trump_or_led,
};
use crate::record::{Action, HandRecord};
use serde::Serialize;
use utoipa::ToSchema;

pub struct StubsAndSpoils;

crate::verbs! {
    /// What a record of Stubs & Spoils can say.
    #[derive(Copy)]
    pub enum Verb in "Stubs & Spoils" {
        Discard(Card) = "discard": "The gallery discard of a non-dealer.",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
        Stub(Card) = "stub": "(Optional) the stub the table placed in front of the trick winner; checked against the rules.",
        Spoil(Card) = "spoil": "The card the spoil taker takes from the trick.",
    }
}

static INFO: GameInfo = GameInfo {
    id: "stubs-and-spoils",
    name: "Stubs & Spoils",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "52-card pack",
    game_target: GAME,
    options: &[OptionSpec {
        name: "revoke_penalty",
        kind: OptionKind::Choice {
            values: &["default", "none"],
            default: "default",
        },
        description: "`default`: each established revoke moves up to 2 stubs against the offenders \
                      (the rulings' default, the text being silent); `none`: revokes are reported only.",
        rule: "stubs-and-spoils.md §5, SS-8",
    }],
    rules: "docs/rules/stubs-and-spoils.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "unexpected_action",
        "action_after_end",
        "incomplete_hand",
        "ineligible_spoil",
        "stub_mismatch",
    ],
    events: &[],
    score_codes: &["stub_difference"],
    titles: crate::engine::Titles(&[
        ("ineligible_spoil", "Spoil the taker may not take"),
        ("stub_mismatch", "Stubs that do not match the cards left"),
        ("stub_difference", "Difference in stubs"),
    ]),
};

const GAME: i32 = 21;
const DEALT: usize = 13;
/// Stubs & Spoils' two modes, fixed by the Color Card (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Black,
    Red,
}

/// What Stubs & Spoils adds to the adjudication and the table view; each side's tally adds
/// `stubs_won` (stubs in front of its players) and `stubs` (after revoke transfers: what is scored).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = StubsAndSpoilsDetails)]
pub struct Details {
    pub mode: Mode,
    /// The Color Card's suit: trump in black mode, trojan in red mode.
    pub special_suit: Suit,
}

/// What Stubs & Spoils adds to each side's tally.
#[derive(Clone, Copy, Debug, Serialize)]
struct TallyDetails {
    /// The stubs in front of the side's players.
    stubs_won: i32,
    /// After the revoke transfers (§5): what is scored.
    stubs: i32,
}

/// §5 default: stubs moved per established revoke.
const REVOKE_STUBS: i32 = 2;

/// §1: black mode A high.
const BLACK: RankOrder = RankOrder::ACE_HIGH;
/// §1: red mode A lowest.
const RED: RankOrder = RankOrder::new(&[
    Rank::King,
    Rank::Queen,
    Rank::Jack,
    Rank::Ten,
    Rank::Nine,
    Rank::Eight,
    Rank::Seven,
    Rank::Six,
    Rank::Five,
    Rank::Four,
    Rank::Three,
    Rank::Two,
    Rank::Ace,
]);

/// §3: follow suit if able; nothing else is required.
fn judge(trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    must_follow_suit(Table::FOUR, "stubs-and-spoils.md §3", trick, hand, card)
}

/// §4.2: in red mode, cards of neither the led nor the trojan suit rank above the led suit, trojans
/// below it; red order within each group; equal cards: the earlier played (via `winner_by`).
fn red_strength(card: Card, led: Suit, trojan: Suit) -> u16 {
    let suit = card.suit_unchecked();
    let group = if suit == trojan {
        1
    } else if suit == led {
        2
    } else {
        3
    };
    group << 8 | RED.strength(card.rank_unchecked()) as u16
}

impl Rules for StubsAndSpoils {
    type Verb = Verb;
    type Details = Details;
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
                part: Part::DealersCard,
                what: "the Color Card, the dealer's 13th",
                count: Count::Between(1, 1),
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
        deal::check_whole_pack(&dealt, &pack)?;
        let dealer = record.dealer;
        let color = deal::dealer_face_up(record, &dealt, dealer, "the Color Card")?;
        // SS-1: the Color Card is dealt to the dealer but never part of his hand.
        dealt.hands[dealer.pos()].remove(color);
        let special = color.suit_unchecked();
        let mode = if special.is_red() {
            Mode::Red
        } else {
            Mode::Black
        };
        let mut adj = Adjudication::new(INFO.id, dealer, before, 15);
        adj.details = details::Details::of(Details {
            mode,
            special_suit: special,
        });
        if mode == Mode::Black {
            adj.trump = Some(special);
        }
        Ok(Box::new(Hand {
            mode,
            special,
            play: TrickPlay::new(Table::FOUR, dealt.hands, dealer), // SS-7: the dealer leads trick 1
            phase: Phase::Gallery {
                discarded: [false; 4],
            },
            stubs: Stubs {
                won: PerSide::default(),
                revokes: Vec::new(),
                penalty: options.choice("revoke_penalty") == "default",
            },
            adj,
        }))
    }
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    /// §2.2: each non-dealer discards one card to the gallery, in any order.
    Gallery {
        discarded: [bool; 4],
    },
    Play,
    /// §4: the trick is complete; its spoil taker must take a card.
    Spoil {
        report: usize,
        taker: Seat,
        candidates: CardSet,
        stub_stated: bool,
    },
    /// §4.4: somebody has no card after a spoil.
    Over,
}

#[derive(Clone)]
struct Hand {
    mode: Mode,
    special: Suit,
    play: TrickPlay,
    phase: Phase,
    stubs: Stubs,
    adj: Adjudication,
}

/// The stubs in front of each side and the revokes that will move some of them (§4.5, §5).
#[derive(Clone)]
struct Stubs {
    won: PerSide<i32>,
    /// Established revokes in record order: the offending side and the irregularity's index.
    revokes: Vec<(Side, usize)>,
    penalty: bool,
}

impl Hand {
    /// §4.1/§4.2: winner, stub, spoil taker and the cards he may take.
    fn settle(&self, trick: &Trick) -> (Seat, Card, Seat, CardSet) {
        let led = trick.led().expect("complete trick").suit_unchecked();
        let plays = trick.plays();
        let cards: CardSet = plays.iter().map(|p| p.card).collect();
        match self.mode {
            Mode::Black => {
                let w = trick
                    .winner_by(|c| trump_or_led(c, led, Some(self.special), &BLACK))
                    .expect("a led card ranks");
                let winner = plays[w].seat;
                let stub = plays[w].card;
                (winner, stub, winner, cards.minus(CardSet::of(&[stub])))
            }
            Mode::Red => {
                let trojan = self.special;
                let w = trick
                    .winner_by(|c| Some(red_strength(c, led, trojan)))
                    .expect("cards rank");
                let winner = plays[w].seat;
                // SS-2: the lowest trojan if any was played, else the lowest card of the led suit.
                let lowest_of = |suit: Suit| {
                    plays
                        .iter()
                        .map(|p| p.card)
                        .filter(|c| c.suit_unchecked() == suit)
                        .min_by_key(|c| RED.strength(c.rank_unchecked()))
                };
                let stub = lowest_of(trojan)
                    .or_else(|| lowest_of(led))
                    .expect("the led card");
                let taker = Table::FOUR.right(winner); // SS-3
                let own = plays.iter().find(|p| p.seat == taker).map(|p| p.card);
                let candidates = cards
                    .minus(CardSet::of(&[stub]))
                    .minus(own.map_or(CardSet::EMPTY, |c| CardSet::of(&[c])));
                (winner, stub, taker, candidates)
            }
        }
    }

    fn close_trick(&mut self) {
        let trick = self.play.trick;
        let (winner, stub, taker, candidates) = self.settle(&trick);
        // Black: the winner leads next; red: the spoil taker (§4.1, §4.2).
        let next = if self.mode == Mode::Black {
            winner
        } else {
            taker
        };
        let (trick, established) = self.play.close_trick(next);
        for e in established {
            let side = Table::FOUR.side(e.seat);
            self.stubs
                .revokes
                .push((side, self.adj.irregularities.len()));
            // The consequence: the stub transfer is known at the end of the hand.
            self.adj.irregularities.push(e.irregularity(String::new()));
        }
        self.stubs.won[Table::FOUR.side(winner)] += 1;
        self.adj.tally[Table::FOUR.side(winner)].tricks += 1;
        let mut report = TrickReport::new(trick, winner);
        report.stub = Some(PlayedCard::new(winner, stub));
        self.adj.tricks.push(report);
        self.phase = Phase::Spoil {
            report: self.adj.tricks.len() - 1,
            taker,
            candidates,
            stub_stated: false,
        };
    }

    /// §2.2: a non-dealer's gallery discard (the seat is checked by `apply`: one due to discard).
    fn discard(
        &mut self,
        index: usize,
        seat: Seat,
        card: Card,
        discarded: &mut [bool; 4],
    ) -> Result<(), RecordError> {
        self.play.give_up(index, seat, card, "discard")?;
        discarded[seat.pos()] = true;
        Ok(())
    }

    /// The seats due to act now (README C12), as a mask of table positions: the non-dealers who
    /// have not discarded, the next to play, or the spoil taker. A mask, not a list: every action
    /// asks.
    fn due(&self) -> u8 {
        let bit = |s: Seat| 1u8 << s.pos();
        match self.phase {
            Phase::Gallery { discarded } => Table::FOUR
                .seats()
                .filter(|&s| s != self.adj.dealer && !discarded[s.pos()])
                .fold(0, |due, s| due | bit(s)),
            Phase::Play => self.play.to_play().map_or(0, bit),
            Phase::Spoil { taker, .. } => bit(taker),
            Phase::Over => 0,
        }
    }

    /// The seats due to act now, in table order.
    fn due_seats(&self) -> Vec<Seat> {
        let due = self.due();
        Table::FOUR
            .seats()
            .filter(|s| due >> s.pos() & 1 == 1)
            .collect()
    }

    /// §3: the spoil taker (checked by `apply`) takes one of the cards he may.
    fn spoil(&mut self, index: usize, seat: Seat, card: Card) -> Result<(), RecordError> {
        let Phase::Spoil {
            report, candidates, ..
        } = self.phase
        else {
            unreachable!("spoil phase")
        };
        if !candidates.contains(card) {
            let allowed: Vec<_> = candidates.iter().map(|c| c.to_string()).collect();
            return Err(RecordError::at(
                "ineligible_spoil",
                index,
                seat,
                "spoil",
                format!(
                    "{seat} may take one of {} from trick {}, not {card} (§3)",
                    allowed.join(" "),
                    report + 1
                ),
            ));
        }
        self.play.hand_mut(seat).insert(card);
        let trick = &mut self.adj.tricks[report];
        let stub = trick.stub.expect("set when the trick closed").card;
        let mut dead = trick
            .plays
            .plays()
            .iter()
            .map(|p| p.card)
            .filter(|&c| c != card && c != stub);
        let dead = [
            dead.next().expect("four cards"),
            dead.next().expect("four cards"),
        ];
        trick.spoil = Some(PlayedCard::new(seat, card));
        trick.dead = Some(dead);
        // §4.4 / SS-6: the hand ends at once when somebody holds no card after the spoil.
        self.phase = if Table::FOUR.seats().any(|s| self.play.hand(s).is_empty()) {
            self.play.stop();
            Phase::Over
        } else {
            Phase::Play
        };
        Ok(())
    }
}

impl Stubs {
    /// §4.5: black, the side with more stubs scores the difference; red, the side with fewer;
    /// equal, nobody. The scoring side and its score.
    fn result(&self, mode: Mode) -> Option<(Side, i32)> {
        let (ns, ew) = (self.won[Side::NS], self.won[Side::EW]);
        let more = if ns > ew { Side::NS } else { Side::EW };
        let scorer = match mode {
            Mode::Black => more,
            Mode::Red => more.other(),
        };
        (ns != ew).then_some((scorer, (ns - ew).abs()))
    }

    /// §5 default: per established revoke, in record order, up to 2 stubs against the offenders
    /// (SS-10). Each transfer's penalty, in hand-score terms, is what it changes in the §4.5 result.
    fn apply_revoke_penalties(&mut self, mode: Mode, adj: &mut Adjudication) {
        for &(offenders, at) in &self.revokes {
            if !self.penalty {
                adj.irregularities[at].consequence =
                    "none: the revoke_penalty option is 'none'".to_string();
                continue;
            }
            let (from, to) = match mode {
                Mode::Black => (offenders, offenders.other()),
                Mode::Red => (offenders.other(), offenders),
            };
            let before = self.result(mode);
            let moved = self.won[from].min(REVOKE_STUBS);
            self.won[from] -= moved;
            self.won[to] += moved;
            let after = self.result(mode);
            for side in Side::BOTH {
                let points =
                    |r: Option<(Side, i32)>| r.filter(|&(s, _)| s == side).map_or(0, |(_, p)| p);
                let change = points(after) - points(before);
                if change != 0 {
                    adj.penalize(at, side, change);
                }
            }
            adj.irregularities[at].consequence = format!(
                "{moved} stub{} moved from {} to {} at the end of the hand (stubs-and-spoils.md §5, SS-10)",
                if moved == 1 { "" } else { "s" },
                from.spoken(),
                to.spoken()
            );
        }
    }

    /// Rules on a hand played out (§4.4): the stub difference (§4.5), the revoke transfers (§5),
    /// the game to 21 (§4.6).
    fn score(&mut self, mode: Mode, adj: &mut Adjudication) {
        let stubs_won = self.won;
        // §4.5 on the stubs as won, then the revoke transfers (§5), each a penalty of its own.
        if let Some((side, points)) = self.result(mode) {
            adj.score(side, points, ScoreSource::Tricks, "stub_difference", None);
        }
        self.apply_revoke_penalties(mode, adj);
        for side in Side::BOTH {
            adj.tally[side].details = details::Details::of(TallyDetails {
                stubs_won: stubs_won[side],
                stubs: self.won[side],
            });
        }
        adj.hand_winner = self.result(mode).map(|(side, _)| side);
        adj.outcome = Outcome::Scored;
        adj.settle();
        let m = &mut adj.match_after;
        m.next_dealer = Some(Table::FOUR.left(adj.dealer));
        // §4.6: only one side scores a hand, so only one can reach 21 with it.
        if let Some(side) = adj.hand_winner.filter(|&s| m.scores[s] >= GAME) {
            m.end_game([side]);
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let unexpected = |what: &str| RecordError::unexpected(index, action, what.to_string());
        // README C12: an action by a seat not due is out_of_turn, whatever its verb (a correct is
        // judged by C3 instead, a stated stub names the winner it lies in front of).
        let turn_free = matches!(action.kind, Verb::Correct(_) | Verb::Stub(_));
        let due = self.due();
        if !turn_free && due != 0 && due >> seat.pos() & 1 == 0 {
            let due: Vec<String> = self.due_seats().iter().map(|s| s.to_string()).collect();
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("{seat} is not due to act: {} is", due.join(" or ")),
            ));
        }
        match (self.phase, action.kind) {
            // README C11: no card has been played, so no seat may correct.
            (Phase::Gallery { .. }, Verb::Correct(_)) => {
                Err(RecordError::correct_before_play(index, action))
            }
            (Phase::Gallery { mut discarded }, Verb::Discard(card)) => {
                self.discard(index, seat, card, &mut discarded)?;
                let all = Table::FOUR
                    .seats()
                    .filter(|&s| s != self.adj.dealer)
                    .all(|s| discarded[s.pos()]);
                self.phase = if all {
                    Phase::Play
                } else {
                    Phase::Gallery { discarded }
                };
                Ok(())
            }
            (Phase::Gallery { .. }, _) => Err(unexpected(
                "each of the three non-dealers discards one card to the gallery before the first lead (§2)",
            )),
            (Phase::Play, Verb::Play(card)) => {
                let fault = judge(&self.play.trick, self.play.hand(seat), card);
                self.play.play(index, seat, card, fault)?;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            (Phase::Play, Verb::Correct(card)) => self.play.correct(index, seat, card, judge),
            (Phase::Play, _) => Err(unexpected("a card is due to the trick")),
            (Phase::Spoil { report, .. }, Verb::Stub(card)) => {
                let Phase::Spoil { stub_stated, .. } = &mut self.phase else {
                    unreachable!()
                };
                let stub = self.adj.tricks[report].stub.expect("set on completion");
                if *stub_stated {
                    return Err(unexpected("the stub of this trick was already stated"));
                }
                *stub_stated = true;
                if stub.card != card || stub.seat != seat {
                    return Err(RecordError::at(
                        "stub_mismatch",
                        index,
                        seat,
                        "stub",
                        format!(
                            "the stub of trick {} is {} in front of {} (§4), not {card} in front of {seat}",
                            report + 1,
                            stub.card,
                            stub.seat
                        ),
                    ));
                }
                Ok(())
            }
            (Phase::Spoil { .. }, Verb::Spoil(card)) => self.spoil(index, seat, card),
            // README C2: the trick is complete, nothing in it can be corrected.
            (Phase::Spoil { report, .. }, Verb::Correct(_)) => Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                format!(
                    "trick {} is already complete: a revoke can only be corrected before that",
                    report + 1
                ),
            )),
            (Phase::Spoil { taker, .. }, _) => Err(unexpected(&format!(
                "the trick is complete: {taker} must take the spoil first"
            ))),
            (Phase::Over, _) => Err(RecordError::after_end(
                index,
                action,
                "the hand ended when a player was left without a card after the last spoil (§4.4)",
            )),
        }
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Gallery { .. } => "gallery",
            Phase::Play => "play",
            Phase::Spoil { .. } => "spoil",
            Phase::Over => "over",
        };
        let mut view = TableView::new(phase, self.due_seats(), &self.play, &self.adj.match_after);
        view.trump = self.adj.trump;
        view.details = self.adj.details.clone();
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        if let Phase::Spoil { report, .. } = self.phase {
            view.trick = self.adj.tricks[report].plays.plays().to_vec();
            view.trick_number = Some(report as u8 + 1);
        }
        view
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let action = |seat, kind| Action { seat, kind };
        match self.phase {
            Phase::Gallery { .. } => self
                .due_seats()
                .into_iter()
                .flat_map(|seat| self.play.hand(seat).iter().map(move |c| (seat, c)))
                .map(|(seat, c)| action(seat, Verb::Discard(c)))
                .collect(),
            Phase::Play => self.play.candidates(Verb::Play, Verb::Correct),
            // The spoil taker's pick among the trick's cards, and the stub the table may state:
            // any card of the trick in front of any seat.
            Phase::Spoil { report, taker, .. } => {
                let cards: CardSet = self.adj.tricks[report]
                    .plays
                    .plays()
                    .iter()
                    .map(|p| p.card)
                    .collect();
                let stubs = Table::FOUR
                    .seats()
                    .flat_map(|seat| cards.iter().map(move |c| action(seat, Verb::Stub(c))));
                cards
                    .iter()
                    .map(|c| action(taker, Verb::Spoil(c)))
                    .chain(stubs)
                    .collect()
            }
            Phase::Over => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let detail = match self.phase {
            Phase::Over => None,
            Phase::Gallery { .. } => {
                Some("the record stops before the gallery discards are complete".to_string())
            }
            Phase::Spoil { report, .. } => Some(format!(
                "the record stops before the spoil of trick {}",
                report + 1
            )),
            Phase::Play => Some(format!(
                "the record stops in trick {} while every player still holds cards",
                self.play.trick.number
            )),
        };
        let ending = match detail {
            None => Ending::Over,
            Some(detail) => {
                // The seat due, where one is (in the gallery several may be).
                let due = self.due_seats();
                let due = (due.len() == 1).then(|| due[0]);
                Ending::Open { due, detail }
            }
        };
        let Hand {
            mode,
            ref mut play,
            ref mut stubs,
            ref mut adj,
            ..
        } = *self;
        adj.corrected_revokes = std::mem::take(&mut play.corrected);
        adj.conclude(error, ending, |adj| stubs.score(mode, adj));
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Established;

    /// The stubs of a finished hand, these won and one established revoke by `offender`, and its
    /// adjudication so far.
    fn hand(ns: i32, ew: i32, offender: Seat) -> (Stubs, Adjudication) {
        let mut adj = Adjudication::new(INFO.id, Seat::S, &MatchState::default(), 15);
        let revoke = Established {
            fault: Fault::new("revoke", "stubs-and-spoils.md §3", String::new()),
            action_index: 20,
            seat: offender,
            card: "2C".parse().unwrap(),
            trick: 5,
        };
        adj.irregularities.push(revoke.irregularity(String::new()));
        let mut won = PerSide::default();
        won[Side::NS] = ns;
        won[Side::EW] = ew;
        let stubs = Stubs {
            won,
            revokes: vec![(Table::FOUR.side(offender), 0)],
            penalty: true,
        };
        (stubs, adj)
    }

    /// §5, SS-10 in hand-score terms: black, stubs won NS 6, EW 4 score NS 2; N's revoke moves 2
    /// stubs to EW (NS 4, EW 6), which scores EW 2: the revoke is NS -2 and EW +2.
    #[test]
    fn a_transfer_that_turns_the_hand_moves_points_both_ways() {
        let (mut h, mut adj) = hand(6, 4, Seat::N);
        assert_eq!(h.result(Mode::Black), Some((Side::NS, 2)));
        h.apply_revoke_penalties(Mode::Black, &mut adj);
        assert_eq!((h.won[Side::NS], h.won[Side::EW]), (4, 6));
        assert_eq!(h.result(Mode::Black), Some((Side::EW, 2)));
        let effect = adj.irregularities[0].effect.points;
        assert_eq!((effect[Side::NS], effect[Side::EW]), (-2, 2));
        let items: Vec<_> = adj.score_items.iter().map(|t| (t.side, t.points)).collect();
        assert_eq!(items, vec![(Side::NS, -2), (Side::EW, 2)]);
    }

    /// Red, stubs won NS 5, EW 5 score nothing; E's revoke moves 2 stubs from NS to EW (NS 3,
    /// EW 7): the side with fewer, NS, scores 4, so the revoke is NS +4 for the non-offenders.
    #[test]
    fn a_transfer_from_equal_stubs_scores_for_the_other_side() {
        let (mut h, mut adj) = hand(5, 5, Seat::E);
        assert_eq!(h.result(Mode::Red), None);
        h.apply_revoke_penalties(Mode::Red, &mut adj);
        assert_eq!(h.result(Mode::Red), Some((Side::NS, 4)));
        let effect = adj.irregularities[0].effect.points;
        assert_eq!((effect[Side::NS], effect[Side::EW]), (4, 0));
    }
}
