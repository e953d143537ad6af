//! Pitch, partnership Setback (`docs/rules/pitch.md`): four players in partnerships, six cards
//! each from a 52-card pack (the other 28 set aside); one round of bidding 2, 3, 4 or smudge from
//! the dealer's left, the dealer may steal and must bid 2 if all pass; the pitcher's first lead
//! fixes trump; follow suit or trump; High, Low, Jack and Game, one point each; the pitcher's side
//! scores its points or is set back its bid; game to 21, won only by a pitching side that made.

use crate::cards::{Card, CardSet, Rank, Suit, packs};
use crate::engine::auction::{Auction, Conduct, End, Ladder, NoBid, Number, Rounds};
use crate::engine::deal::{HandSize, Setup};
use crate::engine::{
    Adjudication, Bonus, BonusStatus, Contract, Decided, Ending, Event, Fault, FieldError,
    GameInfo, HandState, Locus, MatchState, NoDetails, OptionKind, OptionSpec, Options, PerSide,
    RankOrder, RecordError, Rules, ScoreSource, Seat, Side, Table, TableView, Trick, TrickPlay,
    TrickReport, deal,
};
use crate::record::{Action, HandRecord, Placeholder, Yes};
use serde::de;
use std::fmt;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

pub struct Pitch;

crate::verbs! {
    /// What a record of Pitch can say.
    #[derive(Copy)]
    pub enum Verb in "Pitch" {
        Pass(Yes) = "pass": "A pass in the auction (value `true`).",
        Bid(Bid) = "bid": "A bid: 2, 3 or 4 points, or `smudge` (four points and every trick).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    }
}

crate::auction_calls!(Verb, Bid);

/// A Pitch bid: a number of points, or `smudge` (four points and every trick). Any number up to 99
/// reads; one Pitch does not bid is the record error `illegal_bid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bid {
    Number(u8),
    Smudge,
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Number(n) => write!(f, "{n}"),
            Bid::Smudge => f.write_str("smudge"),
        }
    }
}

impl serde::Serialize for Bid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Bid::Number(n) => s.serialize_u8(*n),
            Bid::Smudge => s.serialize_str("smudge"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Bid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Bid;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a bid: a whole number from 0 to 99, or \"smudge\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Bid, E> {
                Number::read(v.into()).map(|n| Bid::Number(n.0))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Bid, E> {
                Number::read(v.into()).map(|n| Bid::Number(n.0))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bid, E> {
                match v {
                    "smudge" => Ok(Bid::Smudge),
                    _ => Err(E::custom(format!(
                        "'{v}' is not a bid: expected a number or \"smudge\""
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl PartialSchema for Bid {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(Number::schema())
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some(["smudge"])),
            )
            .into()
    }
}

impl ToSchema for Bid {}

impl Placeholder for Bid {
    const PLACEHOLDER: &'static str = "<bid>";
}

/// §1: Pitch's bids, in rank order.
#[derive(Clone)]
struct Bids;

impl Ladder for Bids {
    type Bid = Bid;
    type Rank = usize;

    fn rank(&self, bid: &Bid) -> Option<usize> {
        BIDS.iter().position(|b| b == bid)
    }

    fn bids(&self) -> Vec<Bid> {
        BIDS.to_vec()
    }
}

static INFO: GameInfo = GameInfo {
    id: "pitch",
    name: "Pitch (partnership Setback)",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "52-card pack, A high; 6 cards each, 28 set aside",
    game_target: GAME,
    options: &[
        OptionSpec {
            name: "low",
            kind: OptionKind::Choice {
                values: &["capturer", "holder"],
                default: "capturer",
            },
            description: "`capturer`: Low goes to the side that won the trick holding the lowest trump \
                          (the text); `holder`: to the side of the player who played it.",
            rule: "pitch.md §6 PI-1",
        },
        OptionSpec {
            name: "smudge_set",
            kind: OptionKind::Choice {
                values: &["5", "4"],
                default: "5",
            },
            description: "What a failed smudge loses: `5` (the value of a made smudge, the ruling) or `4`.",
            rule: "pitch.md §6 PI-2",
        },
        OptionSpec {
            name: "revoke_penalty",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "`default` (the rulings' default, the text being silent): the revoking side scores \
                          nothing; a revoking pitcher's side is set, a revoke by the other side makes the \
                          pitcher's bid (PI-b, PI-c). `none`: revokes are reported only.",
            rule: "pitch.md §5, PI-b, PI-c",
        },
    ],
    rules: "docs/rules/pitch.md",
    irregularities: &["revoke"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "illegal_bid",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["trump_revealed"],
    score_codes: &["high", "low", "jack", "game", SMUDGE, SET],
    titles: crate::engine::Titles(&[
        ("high", "High: the highest trump in play"),
        ("low", "Low: the lowest trump in play"),
        ("jack", "Jack of trumps taken"),
        ("game", "Game: most points in cards taken"),
        (SMUDGE, "Smudge: all four points on a bid of five"),
        (SET, "Set: the pitcher fell short of the bid"),
    ]),
};

/// Contract score items (§4, PI-2): a made smudge's fifth point; a set pitcher's side's loss.
const SMUDGE: &str = "smudge";
const SET: &str = "set";

/// §4: game to 21.
const GAME: i32 = 21;
/// §1: six cards each, six tricks.
const TRICKS: u8 = 6;

/// §1: A high.
const ORDER: RankOrder = RankOrder::ACE_HIGH;

/// §1: the bids in rank order.
const BIDS: [Bid; 4] = [Bid::Number(2), Bid::Number(3), Bid::Number(4), Bid::Smudge];
/// PI-a: the dealer's bid when the three others passed.
const FORCED: Bid = Bid::Number(2);

/// §4: what a made bid is worth (a smudge 5), which is also what a failed bid loses by default.
fn bid_value(bid: Bid) -> i32 {
    match bid {
        Bid::Number(n) => n as i32,
        Bid::Smudge => 5,
    }
}

/// §4 Game: T = 10, A = 4, K = 3, Q = 2, J = 1.
fn game_points(card: Card) -> i32 {
    match card.rank_unchecked() {
        Rank::Ten => 10,
        Rank::Ace => 4,
        Rank::King => 3,
        Rank::Queen => 2,
        Rank::Jack => 1,
        _ => 0,
    }
}

/// §3: holding the led suit, play the led suit or a trump; void, any card. In trick 1 the led suit
/// is trump (PI-d). `trump` is `None` only before the pitcher's first card, which is always legal.
fn judge(trump: Option<Suit>, trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    let led = trick.led()?.suit_unchecked();
    let trump = trump.unwrap_or(led);
    let suit = card.suit_unchecked();
    let of_led = hand.of_suit(led);
    if of_led.is_empty() || suit == led || suit == trump {
        return None;
    }
    let seat = trick.next_seat(Table::FOUR);
    Some(Fault::new(
        "revoke",
        "pitch.md §3",
        format!(
            "{seat} played {card} on a {} lead while holding {}, and {card} is not a trump ({} are trump)",
            suit_name(led),
            of_led,
            suit_name(trump)
        ),
    ))
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

impl Rules for Pitch {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    /// §4, PI-5: only the pitcher's side wins, at the end of a hand in which it made its bid and
    /// stands at 21 or more. No totals say that such a hand has happened: a side reaches any total
    /// without winning, as the other side scoring its points (up to 4 a hand, whatever its total)
    /// or as a pitcher set back, and both sides can stand at 21 or more with the game undecided.
    /// So no score alone says the game is over (only `game_over` does).
    fn already_won(&self, _scores: &PerSide<i32>, _: &Options) -> Option<Decided> {
        None
    }

    // §1: the 28 undealt cards are set aside unseen; the record carries none.
    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::standard52(),
            hand: HandSize::Each(TRICKS as usize),
            counted_by: None,
            parts: &[],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        _: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let dealt = deal::check_cards(record, Table::FOUR, &packs::standard52())?;
        let eldest = Table::FOUR.left(record.dealer);
        // §2: one round from the dealer's left; the dealer, last, may steal (PI-3) and must bid 2
        // after three passes (PI-a).
        let conduct = Conduct {
            rounds: Rounds::One,
            equal: Some(record.dealer),
            no_bid: NoBid::LastMustBid(FORCED),
            rule: "pitch.md §2, PI-3, PI-a",
        };
        Ok(Box::new(PitchHand {
            phase: Phase::Auction,
            auction: Auction::new(Table::FOUR, eldest, Bids, conduct),
            play: TrickPlay::new(Table::FOUR, dealt.hands, eldest),
            trump: None,
            revokes: Vec::new(),
            low_to_holder: options.choice("low") == "holder",
            smudge_set: if options.choice("smudge_set") == "4" {
                4
            } else {
                5
            },
            penalty: options.choice("revoke_penalty") == "default",
            adj: {
                let mut adj = Adjudication::new(INFO.id, record.dealer, before, TRICKS as usize);
                adj.counts_card_points(Side::BOTH);
                adj
            },
        }))
    }
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    Auction,
    /// §2.3: the pitcher's side plays for `bid`.
    Play {
        pitcher: Seat,
        bid: Bid,
    },
    Over {
        pitcher: Seat,
        bid: Bid,
    },
}

#[derive(Clone)]
struct PitchHand {
    phase: Phase,
    auction: Auction<Bids>,
    play: TrickPlay,
    /// Set by the pitcher's first card (§1).
    trump: Option<Suit>,
    /// Established revokes: the offending side and the irregularity's index.
    revokes: Vec<(Side, usize)>,
    low_to_holder: bool,
    smudge_set: i32,
    penalty: bool,
    adj: Adjudication,
}

impl PitchHand {
    /// The seat due to act: the bidder, then the player to play; none once the hand is over.
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::Auction => self.auction.due(),
            Phase::Play { .. } => self.play.to_play(),
            Phase::Over { .. } => None,
        }
    }

    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        let trump = self.trump;
        move |trick, hand, card| judge(trump, trick, hand, card)
    }

    /// A call in the auction; the dealer's, last, ends it.
    fn call(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let Some(End::Won {
            declarer: pitcher,
            bid,
        }) = self.auction.apply(index, action)?
        else {
            // The dealer's bid is forced after three passes (PI-a): the hand is never passed out.
            return Ok(());
        };
        let mut contract = Contract::new(pitcher, Table::FOUR.side(pitcher));
        contract.bid = Some(serde_json::json!(bid));
        // §4: the points to reach (a smudge: all four, and all six tricks besides).
        contract.target = Some(bid_value(bid).min(4));
        self.adj.contract = Some(contract);
        self.play.lead_next(pitcher);
        self.phase = Phase::Play { pitcher, bid };
        Ok(())
    }

    fn close_trick(&mut self) {
        let trump = self.trump.expect("fixed by the first card");
        let winner = self
            .play
            .trick
            .trump_or_led_winner(Some(trump), &ORDER)
            .expect("a complete trick");
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            self.revokes
                .push((Table::FOUR.side(e.seat), self.adj.irregularities.len()));
            // The consequence is settled when the hand is scored.
            self.adj.irregularities.push(e.irregularity(
                "the penalty (pitch.md §5) is applied when the hand is scored".into(),
            ));
        }
        let points: i32 = trick.plays().iter().map(|p| game_points(p.card)).sum();
        let tally = &mut self.adj.tally[Table::FOUR.side(winner)];
        tally.tricks += 1;
        *tally.points.get_or_insert(0) += points;
        let mut report = TrickReport::new(trick, winner);
        report.points = Some(points);
        self.adj.tricks.push(report);
        if self.adj.tricks.len() == TRICKS as usize {
            self.play.stop();
            if let Phase::Play { pitcher, bid } = self.phase {
                self.phase = Phase::Over { pitcher, bid };
            }
        }
    }

    /// §4: High, Low, Jack and Game, each to the side that earns it (none when not in play or tied).
    fn points(&self) -> Vec<(&'static str, Side, Option<Card>)> {
        let trump = self.trump.expect("fixed by the first card");
        let mut trumps: Vec<(Card, Seat, Seat)> = Vec::new(); // card, player, trick winner
        for t in &self.adj.tricks {
            let winner = t.winner.expect("every Pitch trick has a winner");
            for p in t.plays.plays() {
                if p.card.suit_unchecked() == trump {
                    trumps.push((p.card, p.seat, winner));
                }
            }
        }
        let mut out = Vec::new();
        // PI-4: the trumps in play are those dealt; the pitcher's lead makes at least one.
        if let Some(&(card, player, _)) = trumps.iter().max_by_key(|t| t.0.rank_unchecked()) {
            out.push(("high", Table::FOUR.side(player), Some(card)));
        }
        if let Some(&(card, player, winner)) = trumps.iter().min_by_key(|t| t.0.rank_unchecked()) {
            let side = Table::FOUR.side(if self.low_to_holder { player } else { winner });
            out.push(("low", side, Some(card)));
        }
        let jack = Card::new(Rank::Jack, trump);
        if let Some(&(_, _, winner)) = trumps.iter().find(|t| t.0 == jack) {
            out.push(("jack", Table::FOUR.side(winner), Some(jack)));
        }
        let (ns, ew) = (
            self.adj.tally[Side::NS].points.unwrap_or(0),
            self.adj.tally[Side::EW].points.unwrap_or(0),
        );
        if ns != ew {
            out.push(("game", if ns > ew { Side::NS } else { Side::EW }, None));
        }
        out
    }

    /// README C5: a hand stopped by a record error is not scored, so no revoke penalty applies.
    fn void_consequences(&mut self) {
        for i in &mut self.adj.irregularities {
            i.consequence = "none: the record error leaves the hand unscored (README C5)".into();
        }
    }

    /// §4 and §5: the hand's score as played — each point a bonus, a made smudge's fifth point, a
    /// set — then each revoke's penalty as the change it makes to that, side by side.
    fn score(&mut self, pitcher: Seat, bid: Bid) {
        let ps = Table::FOUR.side(pitcher);
        let os = ps.other();
        let earned = self.points();
        let mut points = PerSide::<i32>::default();
        for (_, side, _) in &earned {
            points[*side] += 1;
        }
        let made_in_play = match bid {
            // §4: 4 points and all six tricks.
            Bid::Smudge => points[ps] == 4 && self.adj.tally[ps].tricks == TRICKS as u32,
            Bid::Number(n) => points[ps] >= n as i32,
        };
        let set_value = match bid {
            Bid::Smudge => self.smudge_set,
            Bid::Number(n) => n as i32,
        };
        // §4 as played: a set pitcher's side loses its bid instead of scoring its points; a made
        // smudge scores the four points plus one.
        for (code, side, card) in earned {
            let scored = side != ps || made_in_play;
            self.adj.bonus(Bonus {
                code,
                side,
                card,
                points: 1,
                status: if scored {
                    BonusStatus::Scored
                } else {
                    BonusStatus::NotScored
                },
            });
        }
        let mut played = points;
        if !made_in_play {
            self.adj
                .score(ps, -set_value, ScoreSource::Contract, SET, None);
            played[ps] = -set_value;
        } else if bid == Bid::Smudge {
            self.adj.score(ps, 1, ScoreSource::Contract, SMUDGE, None);
            played[ps] = bid_value(bid);
        }
        // §5 DEFAULT, PI-b, PI-c: the revoking side scores nothing; a revoke by the pitcher's side
        // sets it (whatever the other side did); one by the other side alone makes the bid, the
        // pitcher's side scoring max(points, bid). A side's first revoke carries its change.
        let first = |side: Side| {
            self.revokes
                .iter()
                .find(|r| self.penalty && r.0 == side)
                .map(|r| r.1)
        };
        let (pitcher_revoke, other_revoke) = (first(ps), first(os));
        let made = pitcher_revoke.is_none() && (other_revoke.is_some() || made_in_play);
        let mut ruled = played;
        if pitcher_revoke.is_some() {
            ruled[ps] = -set_value;
        } else if other_revoke.is_some() {
            ruled[ps] = points[ps].max(bid_value(bid));
        }
        if other_revoke.is_some() {
            ruled[os] = 0;
        }
        let mut changes: Vec<(usize, Side, i32)> =
            [(pitcher_revoke.or(other_revoke), ps), (other_revoke, os)]
                .into_iter()
                .filter_map(|(by, side)| Some((by?, side, ruled[side] - played[side])))
                .filter(|&(_, _, change)| change != 0)
                .collect();
        changes.sort_by_key(|&(i, _, _)| i);
        for (i, side, change) in changes {
            self.adj.penalize(i, side, change);
        }
        for &(side, at) in &self.revokes {
            let consequence = if !self.penalty {
                "none: the revoke_penalty option is 'none'".to_string()
            } else if first(side) != Some(at) {
                let by = self.adj.irregularities[first(side).expect("a first revoke")].action_index;
                format!(
                    "no further effect: the revoke at action {} already decides what {} score (pitch.md §5)",
                    by.unwrap_or_default(),
                    side.spoken()
                )
            } else if side == ps {
                format!(
                    "{} are set: they lose their bid of {bid} ({}) and score nothing else this hand (pitch.md §5{})",
                    ps.spoken(),
                    -set_value,
                    if other_revoke.is_some() { ", PI-b" } else { "" }
                )
            } else if pitcher_revoke.is_some() {
                format!(
                    "{} score nothing this hand; {} are set for their own revoke (pitch.md §5, PI-b)",
                    os.spoken(),
                    ps.spoken()
                )
            } else {
                format!(
                    "{} score nothing this hand; {} are deemed to have made their bid of {bid} and score {} (pitch.md §5, PI-c)",
                    os.spoken(),
                    ps.spoken(),
                    ruled[ps]
                )
            };
            self.adj.irregularities[at].consequence = consequence;
        }
        if let Some(c) = &mut self.adj.contract {
            c.made = Some(made);
        }
        self.adj.settle();
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(Table::FOUR.left(self.adj.dealer));
        // PI-5: only the pitcher's side, having made its bid, can reach the game.
        if made && m.scores[ps] >= GAME {
            m.end_game([ps]);
        }
    }
}

impl HandState<Verb> for PitchHand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        match (self.phase, action.kind) {
            (Phase::Auction, _) => self.call(index, action),
            (Phase::Play { pitcher, .. }, Verb::Play(card)) => {
                self.play.play_judged(index, seat, card, self.judge())?;
                if self.trump.is_none() {
                    // §1: the suit of the pitcher's first card is trump.
                    let trump = card.suit_unchecked();
                    self.trump = Some(trump);
                    self.adj.trump = Some(trump);
                    self.adj.events.push(
                        Event::new(
                            "trump_revealed",
                            index,
                            pitcher,
                            vec![card],
                            format!(
                                "the pitcher {pitcher} led {card}: {} are trump",
                                suit_name(trump)
                            ),
                        )
                        .in_trick(1),
                    );
                }
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            (Phase::Play { .. }, Verb::Correct(card)) => {
                let judge = self.judge();
                self.play.correct(index, seat, card, judge)
            }
            (Phase::Play { .. }, _) => Err(RecordError::out_of_phase(
                index,
                action,
                self.play.to_play().unwrap_or(seat),
                "the auction is over: only cards (and corrections) follow",
            )),
            (Phase::Over { .. }, _) => Err(RecordError::after_end(
                index,
                action,
                "the hand ended with the sixth trick",
            )),
        }
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Auction => "auction",
            Phase::Play { .. } => "play",
            Phase::Over { .. } => "over",
        };
        let to_act = self.due().into_iter().collect();
        let mut view = TableView::new(phase, to_act, &self.play, &self.adj.match_after);
        view.trump = self.trump;
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.due().is_none())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        match self.phase {
            Phase::Auction => self.auction.candidates(),
            Phase::Play { .. } => self.play.candidates(Verb::Play, Verb::Correct),
            Phase::Over { .. } => Vec::new(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        let (ending, contract) = match self.phase {
            Phase::Over { pitcher, bid } => (Ending::Over, Some((pitcher, bid))),
            Phase::Auction => {
                let due = self.auction.due();
                let detail = format!(
                    "the record stops in the auction: {} calls next",
                    due.expect("due while the auction is open")
                );
                (Ending::Open { due, detail }, None)
            }
            Phase::Play { .. } => {
                let detail = format!(
                    "the record stops in trick {} of {TRICKS}",
                    self.play.trick.number
                );
                let due = self.play.to_play();
                (Ending::Open { due, detail }, None)
            }
        };
        if self.adj.unscored(error, ending) {
            self.void_consequences();
        } else if let Some((pitcher, bid)) = contract {
            self.score(pitcher, bid);
        }
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn trick(cards: &[(Seat, &str)]) -> Trick {
        let mut t = Trick::new(1, cards[0].0);
        for (i, (s, card)) in cards.iter().enumerate() {
            t.push(*s, c(card), i);
        }
        t
    }

    #[test]
    fn trumping_is_always_allowed_but_another_suit_is_a_revoke() {
        let t = trick(&[(Seat::N, "KH")]);
        let hand = CardSet::of(&[c("2H"), c("3S"), c("4D")]);
        assert_eq!(judge(Some(Suit::Spades), &t, hand, c("2H")), None);
        assert_eq!(judge(Some(Suit::Spades), &t, hand, c("3S")), None);
        assert_eq!(
            judge(Some(Suit::Spades), &t, hand, c("4D")).map(|f| f.code),
            Some("revoke")
        );
        // Void in hearts: anything.
        let void = CardSet::of(&[c("3S"), c("4D")]);
        assert_eq!(judge(Some(Suit::Spades), &t, void, c("4D")), None);
    }

    #[test]
    fn in_trick_one_the_led_suit_is_trump() {
        // PI-d: trump is fixed by the lead, so a trump holder must play one.
        let t = trick(&[(Seat::N, "KH")]);
        let hand = CardSet::of(&[c("2H"), c("3S")]);
        assert_eq!(
            judge(Some(Suit::Hearts), &t, hand, c("3S")).map(|f| f.code),
            Some("revoke")
        );
    }

    #[test]
    fn bids_rank_with_smudge_on_top_and_other_numbers_are_not_bids() {
        assert!(Bids.rank(&Bid::Smudge) > Bids.rank(&Bid::Number(4)));
        assert_eq!(Bids.rank(&Bid::Number(5)), None);
        assert_eq!(Bids.rank(&Bid::Number(1)), None);
        assert_eq!(bid_value(Bid::Smudge), 5);
    }
}
