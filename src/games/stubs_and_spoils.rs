//! Stubs & Spoils (`docs/rules/stubs-and-spoils.md`): four players in partnerships, 52 cards; the
//! dealer's 13th card is the Color Card (black mode: tricks are assets, its suit trump; red mode:
//! tricks are liabilities, its suit the trojan suit); three gallery discards; from every trick one card
//! is the stub (scored), one the spoil (taken into a hand), two are dead; the hand ends after the spoil
//! that leaves somebody without a card (12–15 tricks); the stub difference scores; game to 21.

use crate::cards::Suit;
use crate::cards::{Card, CardSet, packs};
use crate::details;
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::stubs::{Mode, Spoil, Stubs};
use crate::engine::{
    Adjudication, Ending, Fault, FieldError, GameInfo, HandState, Locus, MatchState, NoDetails,
    OptionKind, OptionSpec, Options, Outcome, PerSide, RecordError, Rules, ScoreSource, Seat, Side,
    Table, TableView, Trick, TrickPlay, deal, must_follow_suit,
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

/// What Stubs & Spoils adds to the adjudication and the table view; each side's tally adds
/// `stubs_won` (stubs in front of its players) and `stubs` (after revoke transfers: what is scored).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = StubsAndSpoilsDetails)]
pub struct Details {
    /// Fixed by the Color Card's colour (§1).
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

/// §3: follow suit if able; nothing else is required.
fn judge(trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    must_follow_suit(Table::FOUR, "stubs-and-spoils.md §3", trick, hand, card)
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
        let mode = Mode::of(special);
        let mut adj = Adjudication::new(INFO.id, dealer, before, 15);
        adj.details = details::Details::of(Details {
            mode,
            special_suit: special,
        });
        if mode == Mode::Black {
            adj.trump = Some(special);
        }
        Ok(Box::new(Hand {
            play: TrickPlay::new(Table::FOUR, dealt.hands, dealer), // SS-7: the dealer leads trick 1
            phase: Phase::Gallery {
                discarded: [false; 4],
            },
            stubs: Stubs::new(
                mode,
                Some(special),
                options.choice("revoke_penalty") == "default",
            ),
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
        spoil: Spoil,
        stub_stated: bool,
    },
    /// §4.4: somebody has no card after a spoil.
    Over,
}

#[derive(Clone)]
struct Hand {
    play: TrickPlay,
    phase: Phase,
    stubs: Stubs,
    adj: Adjudication,
}

impl Hand {
    /// §4: the stub goes in front of the winner; the spoil taker is due.
    fn close_trick(&mut self) {
        let spoil = self.stubs.close_trick(&mut self.play, &mut self.adj);
        self.phase = Phase::Spoil {
            spoil,
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
            Phase::Spoil { spoil, .. } => bit(spoil.taker),
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
        let Phase::Spoil { spoil, .. } = self.phase else {
            unreachable!("spoil phase")
        };
        Stubs::take_spoil(&spoil, &mut self.adj, index, seat, card, "§3")?;
        self.play.hand_mut(seat).insert(card);
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

/// §4.5: black, the side with more stubs scores the difference; red, the side with fewer; equal,
/// nobody. The scoring side and its score.
fn result(mode: Mode, won: &PerSide<i32>) -> Option<(Side, i32)> {
    let (ns, ew) = (won[Side::NS], won[Side::EW]);
    let more = if ns > ew { Side::NS } else { Side::EW };
    let scorer = match mode {
        Mode::Black => more,
        Mode::Red => more.other(),
    };
    (ns != ew).then_some((scorer, (ns - ew).abs()))
}

/// §4.5 as points of each side.
fn points(mode: Mode, won: &PerSide<i32>) -> PerSide<i32> {
    let mut points = PerSide::default();
    if let Some((side, p)) = result(mode, won) {
        points[side] = p;
    }
    points
}

/// Rules on a hand played out (§4.4): the stub difference (§4.5), the revoke transfers (§5), the
/// game to 21 (§4.6).
fn score(stubs: &mut Stubs, adj: &mut Adjudication) {
    let mode = stubs.mode;
    let stubs_won = stubs.won;
    // §4.5 on the stubs as won, then the revoke transfers (§5), each a penalty of its own.
    if let Some((side, points)) = result(mode, &stubs.won) {
        adj.score(side, points, ScoreSource::Tricks, "stub_difference", None);
    }
    stubs.apply_revoke_penalties(adj, "stubs-and-spoils.md §5, SS-10", |won| {
        points(mode, won)
    });
    for side in Side::BOTH {
        adj.tally[side].details = details::Details::of(TallyDetails {
            stubs_won: stubs_won[side],
            stubs: stubs.won[side],
        });
    }
    adj.hand_winner = result(mode, &stubs.won).map(|(side, _)| side);
    adj.outcome = Outcome::Scored;
    adj.settle();
    let m = &mut adj.match_after;
    m.next_dealer = Some(Table::FOUR.left(adj.dealer));
    // §4.6: only one side scores a hand, so only one can reach 21 with it.
    if let Some(side) = adj.hand_winner.filter(|&s| m.scores[s] >= GAME) {
        m.end_game([side]);
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
            (Phase::Spoil { spoil, .. }, Verb::Stub(card)) => {
                let report = spoil.report;
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
            (Phase::Spoil { spoil, .. }, Verb::Correct(_)) => Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                format!(
                    "trick {} is already complete: a revoke can only be corrected before that",
                    spoil.report + 1
                ),
            )),
            (Phase::Spoil { spoil, .. }, _) => Err(unexpected(&format!(
                "the trick is complete: {} must take the spoil first",
                spoil.taker
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
        if let Phase::Spoil { .. } = self.phase {
            let locus = self.locus();
            view.trick = locus.trick.plays().to_vec();
            view.trick_number = locus.trick_number;
        }
        view
    }

    /// While the spoil is taken, the table shows the trick it follows.
    fn locus(&self) -> Locus {
        let locus = Locus::of_play(&self.play, self.due() == 0);
        match self.phase {
            Phase::Spoil { spoil, .. } => Locus {
                trick_number: Some(spoil.report as u8 + 1),
                trick: self.adj.tricks[spoil.report].plays,
                ..locus
            },
            Phase::Gallery { .. } | Phase::Play | Phase::Over => locus,
        }
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
            Phase::Spoil { spoil, .. } => {
                let cards: CardSet = self.adj.tricks[spoil.report]
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
                    .map(|c| action(spoil.taker, Verb::Spoil(c)))
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
            Phase::Spoil { spoil, .. } => Some(format!(
                "the record stops before the spoil of trick {}",
                spoil.report + 1
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
            ref mut play,
            ref mut stubs,
            ref mut adj,
            ..
        } = *self;
        adj.corrected_revokes = std::mem::take(&mut play.corrected);
        adj.conclude(error, ending, |adj| score(stubs, adj));
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Established;

    /// The stubs of a finished hand, these won and one established revoke by `offender`, and its
    /// adjudication so far.
    fn hand(mode: Mode, ns: i32, ew: i32, offender: Seat) -> (Stubs, Adjudication) {
        let mut adj = Adjudication::new(INFO.id, Seat::S, &MatchState::default(), 15);
        let revoke = Established {
            fault: Fault::new("revoke", "stubs-and-spoils.md §3", String::new()),
            action_index: 20,
            seat: offender,
            card: "2C".parse().unwrap(),
            trick: 5,
        };
        let mut stubs = Stubs::new(mode, Some(Suit::Clubs), true);
        stubs.log_revoke(revoke, &mut adj);
        stubs.won[Side::NS] = ns;
        stubs.won[Side::EW] = ew;
        (stubs, adj)
    }

    fn penalties(stubs: &mut Stubs, adj: &mut Adjudication) {
        let mode = stubs.mode;
        stubs.apply_revoke_penalties(adj, "§5", |won| points(mode, won));
    }

    /// §5, SS-10 in hand-score terms: black, stubs won NS 6, EW 4 score NS 2; N's revoke moves 2
    /// stubs to EW (NS 4, EW 6), which scores EW 2: the revoke is NS -2 and EW +2.
    #[test]
    fn a_transfer_that_turns_the_hand_moves_points_both_ways() {
        let (mut h, mut adj) = hand(Mode::Black, 6, 4, Seat::N);
        assert_eq!(result(Mode::Black, &h.won), Some((Side::NS, 2)));
        penalties(&mut h, &mut adj);
        assert_eq!((h.won[Side::NS], h.won[Side::EW]), (4, 6));
        assert_eq!(result(Mode::Black, &h.won), Some((Side::EW, 2)));
        let effect = adj.irregularities[0].effect.points;
        assert_eq!((effect[Side::NS], effect[Side::EW]), (-2, 2));
        let items: Vec<_> = adj.score_items.iter().map(|t| (t.side, t.points)).collect();
        assert_eq!(items, vec![(Side::NS, -2), (Side::EW, 2)]);
    }

    /// Red, stubs won NS 5, EW 5 score nothing; E's revoke moves 2 stubs from NS to EW (NS 3,
    /// EW 7): the side with fewer, NS, scores 4, so the revoke is NS +4 for the non-offenders.
    #[test]
    fn a_transfer_from_equal_stubs_scores_for_the_other_side() {
        let (mut h, mut adj) = hand(Mode::Red, 5, 5, Seat::E);
        assert_eq!(result(Mode::Red, &h.won), None);
        penalties(&mut h, &mut adj);
        assert_eq!(result(Mode::Red, &h.won), Some((Side::NS, 4)));
        let effect = adj.irregularities[0].effect.points;
        assert_eq!((effect[Side::NS], effect[Side::EW]), (4, 0));
    }
}
