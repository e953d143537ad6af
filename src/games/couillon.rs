//! Couillon (`docs/rules/couillon.md`): four players in partnerships, a 24-card pack (A K Q J T 9),
//! four cards each and an 8-card stub whose top card proposes trump; from the dealer's left each
//! player accepts or declines it, and if all decline the stub's bottom card fixes trump. Trumping is
//! always allowed, otherwise follow suit; four tricks; the side with more card points (A 4, K 3,
//! Q 2, J 1) erases a line, a losing acceptor takes a mark, a tie carries to the next decided hand;
//! the first side to erase its five lines wins.
//!
//! Match state: `scores` are the units each side has erased, net of its marks, so a fresh match is
//! 0–0 (five units left each) and a side wins at 5 (`LINES`); `pending_ties` is the rules' `p`.

use crate::cards::{Card, CardSet, Pack, Rank, Suit, packs};
use crate::details;
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Bonus, BonusStatus, Contract, Decides, Ending, Event, Fault, FieldError,
    FirstDecides, GameInfo, HandState, Locus, MatchState, NoDetails, OptionKind, OptionSpec,
    Options, RankOrder, RecordError, Rules, ScoreSource, Seat, Side, Table, TableView, Trick,
    TrickPlay, TrickReport, deal,
};
use crate::record::{Action, HandRecord, Yes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub struct Couillon;

crate::verbs! {
    /// What a record of Couillon can say.
    #[derive(Copy)]
    pub enum Verb in "Couillon" {
        Accept(Yes) = "accept": "Accepts the upcard's suit as trump (value `true`).",
        Decline(Yes) = "decline": "Declines the upcard's suit as trump (value `true`).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

static INFO: GameInfo = GameInfo {
    id: "couillon",
    name: "Couillon",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "24-card pack (A K Q J T 9); 32 cards (down to the 7) with the option deck = 32",
    game_target: LINES,
    options: &[
        OptionSpec {
            name: "deck",
            kind: OptionKind::Choice {
                values: &["24", "32"],
                default: "24",
            },
            description: "`24`: A K Q J T 9 in each suit, an 8-card stub (the rulings' reading); `32`: \
                          down to the 7, a 16-card stub, the 8 and 7 worth nothing and ranking below the 9.",
            rule: "couillon.md §6 CO-1",
        },
        OptionSpec {
            name: "tie_carry",
            kind: OptionKind::Choice {
                values: &["linear", "double_only"],
                default: "linear",
            },
            description: "`linear`: each tied hand adds one unit to the next decided hand (1 + p); \
                          `double_only`: after any number of ties the next decided hand erases 2.",
            rule: "couillon.md §6 CO-4",
        },
        OptionSpec {
            name: "revoke_penalty",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "`default`: an established revoke loses the hand for the offending side, with a \
                          mark if it accepted trump (the rulings' default, the text being silent); `none`: \
                          revokes are reported only and the card points decide.",
            rule: "couillon.md §5",
        },
    ],
    rules: "docs/rules/couillon.md",
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
    events: &["upcard_turned", "bottom_card_turned"],
    score_codes: &[HAND_WON, TIED_HANDS_CARRIED, MARK],
    titles: crate::engine::Titles(&[
        ("bottom_card_turned", "Bottom card turned"),
        (HAND_WON, "Hand won"),
        (TIED_HANDS_CARRIED, "Points of tied hands carried"),
        (MARK, "Mark against the side that accepted and lost"),
    ]),
};

/// §4: the side with more card points wins the hand and erases a unit.
const HAND_WON: &str = "hand_won";
/// §4, CO-4: the units of the tied hands just before, erased by the next winner.
const TIED_HANDS_CARRIED: &str = "tied_hands_carried";
/// §4, CO-5: the losing acceptors' mark, one more unit to erase.
const MARK: &str = "mark";

/// §4: five lines (units) per side; erasing them all wins.
const LINES: i32 = 5;
const DEALT: usize = 4;
const TRICKS: u8 = 4;

/// §1: A K Q J T 9 (CO-1 variant: then 8 7).
const ORDER: RankOrder = RankOrder::new(&[
    Rank::Ace,
    Rank::King,
    Rank::Queen,
    Rank::Jack,
    Rank::Ten,
    Rank::Nine,
    Rank::Eight,
    Rank::Seven,
]);

/// §1: A 4, K 3, Q 2, J 1, the rest nothing.
fn card_points(card: Card) -> i32 {
    match card.rank_unchecked() {
        Rank::Ace => 4,
        Rank::King => 3,
        Rank::Queen => 2,
        Rank::Jack => 1,
        _ => 0,
    }
}

fn pack(options: &Options) -> Pack {
    match options.choice("deck") {
        "32" => packs::piquet32(),
        _ => packs::euchre24(),
    }
}

/// §3 / CO-3: a trump is always legal; otherwise follow the led suit if able; void, anything.
fn judge(trump: Suit, trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    let led = trick.led()?.suit_unchecked();
    let suit = card.suit_unchecked();
    let of_led = hand.of_suit(led);
    if suit == trump || suit == led || of_led.is_empty() {
        return None;
    }
    let seat = trick.next_seat(Table::FOUR);
    let explanation = if led == trump {
        format!(
            "{seat} played {card} on a trump lead ({}) while holding the trump {of_led}",
            trump.letter()
        )
    } else {
        format!(
            "{seat} played {card}, neither a trump ({}) nor a card of the led suit, on a {} lead while holding {of_led}",
            trump.letter(),
            led.letter()
        )
    };
    Some(Fault::new("revoke", "couillon.md §3", explanation))
}

impl Rules for Couillon {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, options: &Options) -> Setup {
        Setup {
            pack: pack(options),
            hand: HandSize::Each(DEALT),
            counted_by: None,
            parts: &[Holds {
                part: Part::Stock,
                what: "the stub in order, top card (the upcard) first",
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
        let pack = pack(options);
        let mut dealt = deal::check_cards(record, Table::FOUR, &pack)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        // The whole pack with four cards a seat leaves a stub of 8 (16 with 32 cards).
        let (upcard, bottom) = (record.stock[0], record.stock[record.stock.len() - 1]);
        if pending_ties(before) > MAX_PENDING_TIES {
            return Err(vec![FieldError::new(
                "/match_state/pending_ties".into(),
                format!("pending ties are limited to {MAX_PENDING_TIES}"),
            )]);
        }
        let dealer = record.dealer;
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS as usize);
        adj.counts_card_points(Side::BOTH);
        adj.events.push(Event::new(
            "upcard_turned",
            None,
            dealer,
            vec![upcard],
            format!(
                "{dealer} turns the stub's top card {upcard}: {} is proposed as trump (§1)",
                upcard.suit_unchecked().letter()
            ),
        ));
        let eldest = Table::FOUR.left(dealer);
        Ok(Box::new(Hand {
            upcard,
            bottom,
            trump: None,
            play: TrickPlay::new(Table::FOUR, dealt.hands, eldest),
            phase: Phase::Trump {
                turn: eldest,
                declined: 0,
            },
            decided: FirstDecides::default(),
            penalty: options.choice("revoke_penalty") == "default",
            carry_linear: options.choice("tie_carry") == "linear",
            adj,
        }))
    }
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    /// §2.2: `turn` accepts or declines the upcard's suit; `declined` players have declined so far.
    Trump {
        turn: Seat,
        declined: u8,
    },
    Play,
    /// Four tricks played.
    Over,
}

#[derive(Clone)]
struct Hand {
    upcard: Card,
    bottom: Card,
    trump: Option<Suit>,
    play: TrickPlay,
    phase: Phase,
    /// §5 default: the first established revoke (README C7) loses the hand for this side.
    decided: FirstDecides,
    penalty: bool,
    carry_linear: bool,
    adj: Adjudication,
}

/// What Couillon carries from hand to hand besides the scores.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CouillonCarried)]
pub struct Carried {
    /// Hands tied in a row just before the next hand, whose value the next decided hand carries
    /// (the rules' `p`, CO-4).
    #[serde(default)]
    #[schema(maximum = 1_000_000)]
    pub pending_ties: u32,
}

/// Most tied hands in a row a match state may carry: no real game gets near, and it keeps the
/// arithmetic safe.
const MAX_PENDING_TIES: u32 = 1_000_000;

/// The tied hands a match state carries (checked when the hand starts).
fn pending_ties(m: &MatchState) -> u32 {
    details::read::<Carried>(&m.details, "/match_state").map_or(0, |c| c.pending_ties)
}

fn set_pending_ties(m: &mut MatchState, pending_ties: u32) {
    m.details = details::Details::of(Carried { pending_ties });
}

impl Hand {
    fn acceptor(&self) -> Option<Seat> {
        self.adj.contract.as_ref().map(|c| c.declarer)
    }

    /// Units the next decided hand erases beyond its own (CO-4).
    fn carried(&self) -> i32 {
        let p = pending_ties(&self.adj.match_before) as i32;
        if self.carry_linear { p } else { p.min(1) }
    }

    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        let trump = self.trump.expect("play starts once trump is fixed");
        move |trick, hand, card| judge(trump, trick, hand, card)
    }

    fn fix_trump(&mut self, suit: Suit) {
        self.trump = Some(suit);
        self.adj.trump = Some(suit);
        self.phase = Phase::Play;
    }

    /// The trump decision of `seat`, whose turn it is (§2.2).
    fn decide(&mut self, index: usize, seat: Seat, accept: bool) {
        let Phase::Trump { turn, declined } = self.phase else {
            unreachable!("only while trump is undecided")
        };
        let upcard_suit = self.upcard.suit_unchecked();
        if accept {
            self.adj.contract = Some(Contract::new(seat, Table::FOUR.side(seat)));
            self.fix_trump(upcard_suit);
        } else if declined + 1 == 4 {
            // §1, CO-c: all four declined; the bottom card fixes trump and nobody has accepted.
            let bottom = self.bottom;
            let detail = format!(
                "all four declined {}: the stub's bottom card {bottom} is turned and {} is trump, nobody having accepted (§1)",
                upcard_suit.letter(),
                bottom.suit_unchecked().letter()
            );
            let dealer = self.adj.dealer;
            let event = Event::new("bottom_card_turned", index, dealer, vec![bottom], detail);
            self.adj.events.push(event);
            self.fix_trump(bottom.suit_unchecked());
        } else {
            self.phase = Phase::Trump {
                turn: Table::FOUR.left(turn),
                declined: declined + 1,
            };
        }
    }

    /// The seat due to act; `None` once the hand is over.
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Trump { turn, .. } => Some(turn),
            Phase::Play => self.play.to_play(),
            Phase::Over => None,
        }
    }

    /// What the seat due is due to do, for a refusal (written only when one is made).
    fn due_to(&self) -> String {
        match self.phase {
            Phase::Trump { .. } => "accept or decline the upcard's suit (§2, CO-2)".into(),
            _ => format!("play to trick {}", self.play.trick.number),
        }
    }

    fn close_trick(&mut self) {
        let winner = self
            .play
            .trick
            .trump_or_led_winner(self.trump, &ORDER)
            .expect("a complete trick");
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            let consequence = self.revoke_consequence(Table::FOUR.side(e.seat), e.action_index);
            let mut irregularity = e.irregularity(consequence);
            if self.decided.decided().map(|(_, at)| at) == irregularity.action_index {
                irregularity.effect.decides = Some(Decides::Hand);
            }
            self.adj.irregularities.push(irregularity);
        }
        let points: i32 = trick.plays().iter().map(|p| card_points(p.card)).sum();
        let tally = &mut self.adj.tally[Table::FOUR.side(winner)];
        tally.tricks += 1;
        *tally.points.get_or_insert(0) += points;
        let mut report = TrickReport::new(trick, winner);
        report.points = Some(points);
        self.adj.tricks.push(report);
        // README C9: a deciding revoke ends the hand as surely as the fourth trick.
        if self.adj.tricks.len() == TRICKS as usize || self.decided.decided().is_some() {
            self.play.stop();
            self.phase = Phase::Over;
        }
    }

    /// §5 DEFAULT for a revoke by `offenders` established now; the first one decides (README C7).
    fn revoke_consequence(&mut self, offenders: Side, index: usize) -> String {
        if !self.penalty {
            return "none: the revoke_penalty option is 'none'; the card points decide the hand"
                .into();
        }
        if let Some(consequence) = self.decided.offence(offenders, index, "revoke") {
            return consequence;
        }
        let units = 1 + self.carried();
        let mark = if self
            .acceptor()
            .is_some_and(|s| Table::FOUR.side(s) == offenders)
        {
            format!(
                "; having accepted trump, {} also take a mark",
                offenders.spoken()
            )
        } else {
            String::new()
        };
        format!(
            "{} lose the hand: {} erase {units} unit{}{mark} (couillon.md §5, DEFAULT)",
            offenders.spoken(),
            offenders.other().spoken(),
            if units == 1 { "" } else { "s" }
        )
    }
}

/// Rules on a decided hand (§4): a revoke that `decided` it (§5 DEFAULT) gives it to the other
/// side; otherwise the side with more card points wins it, equal points tie. Scores are units
/// erased net of marks; `carried` is what the tied hands just before add (CO-4).
fn score(adj: &mut Adjudication, decided: Option<(Side, usize)>, carried: i32) {
    let winner = match decided {
        // §5: the revoke decided the hand; the cards still unplayed cannot change that.
        Some((offenders, _)) => Some(offenders.other()),
        None => {
            let (ns, ew) = (
                adj.tally[Side::NS].points.unwrap_or(0),
                adj.tally[Side::EW].points.unwrap_or(0),
            );
            match ns.cmp(&ew) {
                std::cmp::Ordering::Greater => Some(Side::NS),
                std::cmp::Ordering::Less => Some(Side::EW),
                std::cmp::Ordering::Equal => None,
            }
        }
    };
    let dealer = adj.dealer;
    let acceptors = adj.contract.as_ref().map(|c| Table::FOUR.side(c.declarer));
    if let Some(c) = &mut adj.contract {
        c.made = Some(winner == Some(c.side));
    }
    adj.hand_winner = winner;
    // §4, CO-6: on a tie nobody erases and nobody takes a mark.
    if let Some(winner) = winner {
        let marked = acceptors == Some(winner.other());
        match decided {
            // §5 DEFAULT, CO-b: the other side erases 1 + p; accepting offenders take a mark.
            Some((_, at)) => {
                let i = adj
                    .irregularities
                    .iter()
                    .position(|i| i.action_index == Some(at))
                    .expect("the deciding revoke is reported");
                adj.penalize(i, winner, 1 + carried);
                if marked {
                    adj.penalize(i, winner.other(), -1);
                }
            }
            None => {
                adj.score(winner, 1, ScoreSource::Tricks, HAND_WON, None);
                if carried > 0 {
                    adj.bonus(Bonus {
                        code: TIED_HANDS_CARRIED,
                        side: winner,
                        card: None,
                        points: carried,
                        status: BonusStatus::Scored,
                    });
                }
                // CO-5: a losing acceptor's mark is one more unit to erase (never multiplied, CO-4).
                if marked {
                    adj.score(winner.other(), -1, ScoreSource::Contract, MARK, None);
                }
            }
        }
    }
    adj.settle();
    let m = &mut adj.match_after;
    m.next_dealer = Some(Table::FOUR.left(dealer));
    match winner {
        // §4: the tied hand's unit is carried forward.
        None => set_pending_ties(m, pending_ties(m) + 1),
        Some(winner) => {
            set_pending_ties(m, 0);
            // Only the hand winner erases, so only it can finish the game.
            if m.scores[winner] >= LINES {
                m.end_game([winner]);
            }
        }
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if let Phase::Over = self.phase {
            if let Some(ignored) = self.decided.ignores(index, "couillon.md §5") {
                self.adj.ignored_actions.push(ignored);
                return Ok(());
            }
            return Err(RecordError::after_end(
                index,
                action,
                "the hand ended with the fourth trick",
            ));
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
        match (self.phase, action.kind) {
            (Phase::Trump { .. }, Verb::Accept(_) | Verb::Decline(_)) => {
                self.decide(index, seat, matches!(action.kind, Verb::Accept(_)));
            }
            (Phase::Play, Verb::Play(card)) => {
                self.play.play_judged(index, seat, card, self.judge())?;
                if self.play.is_complete() {
                    self.close_trick();
                }
            }
            _ => {
                return Err(RecordError::unexpected(
                    index,
                    action,
                    format!("{due} is due to {}", self.due_to()),
                ));
            }
        }
        Ok(())
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Trump { .. } => "trump",
            Phase::Play => "play",
            Phase::Over => "over",
        };
        let to_act = self.due().into_iter().collect();
        let mut view = TableView::new(phase, to_act, &self.play, &self.adj.match_after);
        view.trump = self.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.trick_number = self.locus().trick_number;
        view
    }

    /// No trick is under way before the trump is made: the table shows no trick number.
    fn locus(&self) -> Locus {
        let playing = matches!(self.phase, Phase::Play);
        Locus::of_play_once_begun(&self.play, self.due().is_none(), playing)
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        match self.phase {
            Phase::Trump { turn, .. } => [Verb::Accept(Yes), Verb::Decline(Yes)]
                .map(|kind| Action { seat: turn, kind })
                .to_vec(),
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

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        // A deciding revoke ends the hand (§5) as the fourth trick does.
        let ending = match self.phase {
            Phase::Over => Ending::Over,
            Phase::Trump { turn, .. } => Ending::Open {
                due: Some(turn),
                detail: format!(
                    "the record stops before trump is decided: {turn} must accept or decline"
                ),
            },
            Phase::Play => Ending::Open {
                due: self.play.to_play(),
                detail: format!(
                    "the record stops in trick {} of {TRICKS}",
                    self.play.trick.number
                ),
            },
        };
        let (decided, carried) = (self.decided.decided(), self.carried());
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        self.adj
            .conclude(error, ending, |adj| score(adj, decided, carried));
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn hand(cards: &[&str]) -> CardSet {
        cards.iter().map(|s| c(s)).collect()
    }

    /// A trick led by N with `led`.
    fn led(card: &str) -> Trick {
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c(card), 0);
        t
    }

    #[test]
    fn legality_follows_section_3() {
        let h = Suit::Hearts;
        let e = hand(&["KS", "9S", "JH", "AC"]);
        // Holding the led suit: follow it or trump, nothing else.
        assert_eq!(judge(h, &led("AS"), e, c("KS")), None);
        assert_eq!(judge(h, &led("AS"), e, c("JH")), None);
        assert_eq!(judge(h, &led("AS"), e, c("AC")).unwrap().code, "revoke");
        // Void in the led suit: any card.
        assert_eq!(judge(h, &led("AD"), e, c("AC")), None);
        assert_eq!(judge(h, &led("AD"), e, c("9S")), None);
        // Trump led: a trump if held.
        assert_eq!(judge(h, &led("AH"), e, c("JH")), None);
        let revoke = judge(h, &led("AH"), e, c("KS")).unwrap();
        assert!(
            revoke.explanation.contains("trump lead"),
            "{}",
            revoke.explanation
        );
        assert_eq!(judge(h, &led("AH"), hand(&["KS", "AC"]), c("KS")), None);
        // The leader may lead anything.
        assert_eq!(judge(h, &Trick::new(1, Seat::N), e, c("AC")), None);
    }

    #[test]
    fn eight_and_seven_rank_below_the_nine_and_score_nothing() {
        let strength = |r| ORDER.strength(r);
        assert!(strength(Rank::Nine) > strength(Rank::Eight));
        assert!(strength(Rank::Eight) > strength(Rank::Seven));
        assert!(strength(Rank::Seven) > 0);
        assert_eq!(
            card_points(c("8S")) + card_points(c("7S")) + card_points(c("TS")),
            0
        );
        let total: i32 = packs::euchre24().cards.iter().map(card_points).sum();
        assert_eq!(total, 40);
    }
}
