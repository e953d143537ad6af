//! Stubs and spoils (`docs/rules/stubs-and-spoils.md` §4–§5; Royal Porcio plays the same tricks):
//! from every trick one card is the **stub**, placed in front of the trick's winner and scored; one
//! is the **spoil**, taken into a hand; the other two are dead. The mode decides the card order and
//! whether stubs are assets (black) or liabilities (red); the special suit is trump in black mode
//! and trojan in red mode, or absent (Royal Porcio's case B). The stubs in front of each side and the
//! default revoke penalty, two stubs moved against the offenders, live here too.

use super::adjudication::Adjudication;
use super::log::RecordError;
use super::play::{Established, TrickPlay};
use super::trick::{PlayedCard, RankOrder, Trick, TrickReport, trump_or_led};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::seat::{PerSide, Seat, Side, Table};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The mode of a hand played with stubs and spoils: black, tricks are assets and A ranks high;
/// red, tricks are liabilities and A ranks low (stubs-and-spoils.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Black,
    Red,
}

/// Black order: A high.
const BLACK: RankOrder = RankOrder::ACE_HIGH;
/// Red order: A lowest.
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

/// Stubs moved per established revoke (stubs-and-spoils.md §5 default).
const REVOKE_STUBS: i32 = 2;

impl Mode {
    /// The mode a card of this suit's colour sets.
    pub fn of(suit: Suit) -> Mode {
        if suit.is_red() {
            Mode::Red
        } else {
            Mode::Black
        }
    }

    /// The card order within every suit in this mode.
    pub fn order(self) -> &'static RankOrder {
        match self {
            Mode::Black => &BLACK,
            Mode::Red => &RED,
        }
    }
}

/// A complete trick's stub and spoil: who won it, its stub, who takes the spoil and which cards he
/// may take.
#[derive(Clone, Copy, Debug)]
pub struct Spoil {
    /// The trick's report in the adjudication.
    pub report: usize,
    pub winner: Seat,
    pub stub: Card,
    pub taker: Seat,
    pub candidates: CardSet,
}

/// §4.2: in red mode, cards of neither the led nor the trojan suit rank above the led suit, trojans
/// below it; red order within each group; equal cards: the earlier played (via `winner_by`).
fn red_strength(card: Card, led: Suit, trojan: Option<Suit>) -> u16 {
    let suit = card.suit_unchecked();
    let group = if Some(suit) == trojan {
        1
    } else if suit == led {
        2
    } else {
        3
    };
    group << 8 | RED.strength(card.rank_unchecked()) as u16
}

/// The stubs in front of each side, the revokes that will move some of them (§4.5, §5), and the
/// rules of a trick's stub and spoil in the hand's mode with its special suit.
#[derive(Clone, Debug)]
pub struct Stubs {
    pub mode: Mode,
    /// Trump (black) or trojan (red); none in Royal Porcio's case B.
    pub special: Option<Suit>,
    pub won: PerSide<i32>,
    /// Established revokes in record order: the offending side and the irregularity's index.
    revokes: Vec<(Side, usize)>,
    /// Whether established revokes move stubs (the `revoke_penalty` option).
    penalty: bool,
}

impl Stubs {
    pub fn new(mode: Mode, special: Option<Suit>, penalty: bool) -> Stubs {
        Stubs {
            mode,
            special,
            won: PerSide::default(),
            revokes: Vec::new(),
            penalty,
        }
    }

    /// §4.1/§4.2: winner, stub, spoil taker and the cards he may take. Black: the highest special
    /// card, else the highest of the led suit wins and is the stub; the winner takes any other card.
    /// Red: a card of neither the led nor the trojan suit wins over the led suit, which wins over the
    /// trojans; the stub is the lowest trojan, else the lowest card of the led suit; the winner's
    /// right-hand neighbour takes any card but the stub and his own (SS-2, SS-3).
    pub fn settle(&self, trick: &Trick) -> (Seat, Card, Seat, CardSet) {
        let led = trick.led().expect("complete trick").suit_unchecked();
        let plays = trick.plays();
        let cards: CardSet = plays.iter().map(|p| p.card).collect();
        match self.mode {
            Mode::Black => {
                let w = trick
                    .winner_by(|c| trump_or_led(c, led, self.special, &BLACK))
                    .expect("a led card ranks");
                let winner = plays[w].seat;
                let stub = plays[w].card;
                (winner, stub, winner, cards.minus(CardSet::of(&[stub])))
            }
            Mode::Red => {
                let w = trick
                    .winner_by(|c| Some(red_strength(c, led, self.special)))
                    .expect("cards rank");
                let winner = plays[w].seat;
                let lowest_of = |suit: Suit| {
                    plays
                        .iter()
                        .map(|p| p.card)
                        .filter(|c| c.suit_unchecked() == suit)
                        .min_by_key(|c| RED.strength(c.rank_unchecked()))
                };
                let stub = self
                    .special
                    .and_then(lowest_of)
                    .or_else(|| lowest_of(led))
                    .expect("the led card");
                let taker = Table::FOUR.right(winner);
                let own = plays.iter().find(|p| p.seat == taker).map(|p| p.card);
                let candidates = cards
                    .minus(CardSet::of(&[stub]))
                    .minus(own.map_or(CardSet::EMPTY, |c| CardSet::of(&[c])));
                (winner, stub, taker, candidates)
            }
        }
    }

    /// Closes the complete trick: its stub goes in front of the winner, its established revokes are
    /// logged (their consequence comes at the end of the hand), and the next trick is led by the
    /// winner (black) or the spoil taker (red). Returns the spoil still to be taken.
    pub fn close_trick(&mut self, play: &mut TrickPlay, adj: &mut Adjudication) -> Spoil {
        let (winner, stub, taker, candidates) = self.settle(&play.trick);
        let next = match self.mode {
            Mode::Black => winner,
            Mode::Red => taker,
        };
        let (trick, established) = play.close_trick(next);
        for revoke in established {
            self.log_revoke(revoke, adj);
        }
        let side = Table::FOUR.side(winner);
        self.won[side] += 1;
        adj.tally[side].tricks += 1;
        let mut report = TrickReport::new(trick, winner);
        report.stub = Some(PlayedCard::new(winner, stub));
        adj.tricks.push(report);
        Spoil {
            report: adj.tricks.len() - 1,
            winner,
            stub,
            taker,
            candidates,
        }
    }

    /// An established revoke: logged now, its consequence (§5) comes at the end of the hand.
    pub fn log_revoke(&mut self, revoke: Established, adj: &mut Adjudication) {
        self.revokes
            .push((Table::FOUR.side(revoke.seat), adj.irregularities.len()));
        adj.irregularities.push(revoke.irregularity(String::new()));
    }

    /// The spoil taker takes `card` (the seat is the game's to check): refused as `ineligible_spoil`
    /// unless it is one he may take; the trick's report then names the spoil and the two dead
    /// cards. The game puts the card where it goes (his hand, as a rule).
    pub fn take_spoil(
        spoil: &Spoil,
        adj: &mut Adjudication,
        index: usize,
        seat: Seat,
        card: Card,
        rule: &str,
    ) -> Result<(), RecordError> {
        if !spoil.candidates.contains(card) {
            let allowed: Vec<_> = spoil.candidates.iter().map(|c| c.to_string()).collect();
            return Err(RecordError::at(
                "ineligible_spoil",
                index,
                seat,
                "spoil",
                format!(
                    "{seat} may take one of {} from trick {}, not {card} ({rule})",
                    allowed.join(" "),
                    spoil.report + 1
                ),
            ));
        }
        let trick = &mut adj.tricks[spoil.report];
        let mut dead = trick
            .plays
            .plays()
            .iter()
            .map(|p| p.card)
            .filter(|&c| c != card && c != spoil.stub);
        let dead = [
            dead.next().expect("four cards"),
            dead.next().expect("four cards"),
        ];
        trick.spoil = Some(PlayedCard::new(seat, card));
        trick.dead = Some(dead);
        Ok(())
    }

    /// §5 default: per established revoke, in record order, up to 2 stubs against the offenders
    /// (black: from them to the others; red: from the others to them), each capped by what the
    /// giving side holds then (SS-10). Each transfer's penalty, in hand-score terms, is what it
    /// changes in `points`, the hand's score of each side from the stub counts. `rule` names the
    /// game's rule for the consequence.
    pub fn apply_revoke_penalties(
        &mut self,
        adj: &mut Adjudication,
        rule: &str,
        points: impl Fn(&PerSide<i32>) -> PerSide<i32>,
    ) {
        for &(offenders, at) in &self.revokes {
            if !self.penalty {
                adj.irregularities[at].consequence =
                    "none: the revoke_penalty option is 'none'".to_string();
                continue;
            }
            let (from, to) = match self.mode {
                Mode::Black => (offenders, offenders.other()),
                Mode::Red => (offenders.other(), offenders),
            };
            let before = points(&self.won);
            let moved = self.won[from].min(REVOKE_STUBS);
            self.won[from] -= moved;
            self.won[to] += moved;
            let after = points(&self.won);
            for side in Side::BOTH {
                let change = after[side] - before[side];
                if change != 0 {
                    adj.penalize(at, side, change);
                }
            }
            adj.irregularities[at].consequence = format!(
                "{moved} stub{} moved from {} to {} at the end of the hand ({rule})",
                if moved == 1 { "" } else { "s" },
                from.spoken(),
                to.spoken()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trick(cards: &[&str], leader: Seat) -> Trick {
        let mut t = Trick::new(1, leader);
        let mut seat = leader;
        for (i, c) in cards.iter().enumerate() {
            t.push(seat, c.parse().unwrap(), i);
            seat = Table::FOUR.next(seat);
        }
        t
    }

    /// Royal Porcio §4.2 case B, red: with no trojan a card of another suit wins (first played among
    /// equals), and the stub is the lowest card of the led suit (A lowest).
    #[test]
    fn red_without_a_trojan() {
        let stubs = Stubs::new(Mode::Red, None, true);
        let t = trick(&["5H", "AH", "9C", "9S"], Seat::N);
        let (winner, stub, taker, candidates) = stubs.settle(&t);
        assert_eq!(
            (winner, stub, taker),
            (Seat::S, "AH".parse().unwrap(), Seat::E)
        );
        // E played AH, the stub itself: he may take any of the other three, the winner's 9C too.
        let others: CardSet = ["5H", "9C", "9S"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(candidates, others);
    }

    /// Case B, black: no trump, the highest of the led suit wins and is the stub.
    #[test]
    fn black_without_a_trump() {
        let stubs = Stubs::new(Mode::Black, None, true);
        let t = trick(&["5H", "AS", "9H", "2C"], Seat::N);
        let (winner, stub, taker, _) = stubs.settle(&t);
        assert_eq!(
            (winner, stub, taker),
            (Seat::S, "9H".parse().unwrap(), Seat::S)
        );
    }
}
