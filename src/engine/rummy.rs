//! What the rummy games share (Tong-Its, Zetema, Hand and Foot): melds judged as sets of one rank
//! and runs of consecutive ranks, with wild cards where a game has them; the face-up discard pile;
//! and the least deadwood a hand leaves once arranged into melds. Each game says which shapes are
//! its melds (their lengths, the ace's place, how many wild cards) and scores them; this module
//! only judges the shapes.

use crate::cards::{Card, CardSet, Rank, Suit};
use std::collections::HashMap;

/// Where the ace stands in a run: low only (Tong-Its: A-2-3, never Q-K-A), or low or high but not
/// both at once (Zetema: no wrap-round).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ace {
    Low,
    LowOrHigh,
}

/// A rank's place in a run: 1 for the low ace, 2 to 13 for 2 to K, 14 for the high ace.
fn place(rank: Rank, ace_high: bool) -> u8 {
    match rank {
        Rank::Ace if !ace_high => 1,
        r => r as u8,
    }
}

/// Cards of one rank, wild cards standing in for it (`SetShape::of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetShape {
    /// The rank of its natural cards; `None` when every card is wild (Hand and Foot's wild pile).
    pub rank: Option<Rank>,
    pub naturals: usize,
    pub wilds: usize,
}

impl SetShape {
    /// The shape of `cards` as a set, `wild` saying which cards are wild (none in Tong-Its): every
    /// card that is not wild is a suited card of the same rank. `None` for any other cards. The
    /// length and how many wilds a meld may hold are the game's.
    pub fn of(cards: &[Card], wild: impl Fn(Card) -> bool) -> Option<SetShape> {
        let mut shape = SetShape {
            rank: None,
            naturals: 0,
            wilds: 0,
        };
        for &card in cards {
            if wild(card) {
                shape.wilds += 1;
                continue;
            }
            let rank = card.rank()?;
            if *shape.rank.get_or_insert(rank) != rank {
                return None;
            }
            shape.naturals += 1;
        }
        Some(shape)
    }
}

/// The one suit of `cards`, if all are suited cards of one suit.
pub fn one_suit(cards: &[Card]) -> Option<Suit> {
    let suit = cards.first()?.suit()?;
    cards.iter().all(|c| c.suit() == Some(suit)).then_some(suit)
}

/// Whether `cards` are suited cards of consecutive ranks, no rank twice, in any order and any
/// suits (Zetema's sequence; a run adds one suit, `is_run`), the ace where `ace` allows it.
pub fn consecutive(cards: &[Card], ace: Ace) -> bool {
    let fits = |ace_high: bool| {
        let mut places = Vec::with_capacity(cards.len());
        for c in cards {
            match c.rank() {
                Some(Rank::Cavalier) | None => return false,
                Some(r) => places.push(place(r, ace_high)),
            }
        }
        places.sort_unstable();
        !places.is_empty() && places.windows(2).all(|w| w[1] == w[0] + 1)
    };
    fits(false) || (ace == Ace::LowOrHigh && fits(true))
}

/// Whether `cards` are a run: consecutive ranks of one suit (Tong-Its' run, Zetema's flush
/// sequence). The length is the game's.
pub fn is_run(cards: &[Card], ace: Ace) -> bool {
    one_suit(cards).is_some() && consecutive(cards, ace)
}

/// Every set and run of at least three cards that `hand` (cards of one pack, no wild cards) can
/// make: the sets of three and of four of each rank, the runs of three or more in each suit. The
/// melds a hand could be arranged into (Tong-Its' deadwood, TI-6; the melds a turn may expose).
pub fn sets_and_runs(hand: CardSet, ace: Ace) -> Vec<Vec<Card>> {
    let mut melds = Vec::new();
    let by_rank = |r: Rank| -> Vec<Card> { hand.iter().filter(|c| c.rank() == Some(r)).collect() };
    for rank in RANKS {
        let cards = by_rank(rank);
        match cards.len() {
            3 => melds.push(cards),
            4 => {
                // The four, and each three of them.
                for left_out in 0..4 {
                    melds.push(
                        (0..4)
                            .filter(|&i| i != left_out)
                            .map(|i| cards[i])
                            .collect(),
                    );
                }
                melds.push(cards);
            }
            _ => {}
        }
    }
    for suit in Suit::ALL {
        // Places 1 (low ace) to 14 (high ace), as the ace allows.
        let top = if ace == Ace::LowOrHigh { 14 } else { 13 };
        let at = |p: u8| -> Option<Card> {
            let rank = match p {
                1 | 14 => Rank::Ace,
                p => RANKS[usize::from(p) - 2],
            };
            let card = Card::new(rank, suit);
            hand.contains(card).then_some(card)
        };
        for low in 1..=top - 2 {
            let mut run = Vec::new();
            for p in low..=top {
                let Some(card) = at(p) else { break };
                run.push(card);
                if run.len() >= 3 {
                    melds.push(run.clone());
                }
            }
        }
    }
    melds
}

/// The ranks of a standard pack, 2 to A.
const RANKS: [Rank; 13] = [
    Rank::Two,
    Rank::Three,
    Rank::Four,
    Rank::Five,
    Rank::Six,
    Rank::Seven,
    Rank::Eight,
    Rank::Nine,
    Rank::Ten,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
    Rank::Ace,
];

/// The least deadwood of `hand`: the value (by `value`) of the cards left over once the best
/// arrangement of disjoint melds, chosen among `melds` (each a list of cards of `hand`), is taken
/// away, with that arrangement. Of two arrangements leaving the same value, the one found first.
pub fn least_deadwood(
    hand: &[Card],
    melds: &[Vec<Card>],
    value: impl Fn(Card) -> u32,
) -> (u32, Vec<Vec<Card>>) {
    assert!(hand.len() <= 32, "a rummy hand holds at most 32 cards");
    // Each meld as a mask of positions in `hand` (a card given twice in a hand is two positions).
    let masks: Vec<u32> = melds.iter().filter_map(|m| mask_of(hand, m)).collect();
    let values: Vec<u32> = hand.iter().map(|&c| value(c)).collect();
    let full = if hand.len() == 32 {
        u32::MAX
    } else {
        (1u32 << hand.len()) - 1
    };
    let mut memo = HashMap::from([(0, 0)]);
    let best = least(full, &masks, &values, &mut memo);
    // Walk the memo back to the melds chosen.
    let mut chosen = Vec::new();
    let mut left = full;
    while left != 0 {
        let first = left.trailing_zeros();
        let bit = 1u32 << first;
        let with = masks.iter().find(|&&m| {
            m & bit != 0 && m & left == m && memo.get(&(left & !m)) == Some(&memo[&left])
        });
        match with {
            Some(&m) => {
                chosen.push(cards_of(hand, m));
                left &= !m;
            }
            None => left &= !bit,
        }
    }
    (best, chosen)
}

/// Positions in `hand` of the cards of `meld`, each position used once; `None` when `hand` lacks one.
fn mask_of(hand: &[Card], meld: &[Card]) -> Option<u32> {
    let mut mask = 0u32;
    for card in meld {
        let at = (0..hand.len()).find(|&i| hand[i] == *card && mask & (1 << i) == 0)?;
        mask |= 1 << at;
    }
    Some(mask)
}

fn cards_of(hand: &[Card], mask: u32) -> Vec<Card> {
    (0..hand.len())
        .filter(|&i| mask & (1 << i) != 0)
        .map(|i| hand[i])
        .collect()
}

/// The least deadwood of the cards at `left` (`memo` holds 0 for no cards): its lowest card is
/// either deadwood or in a meld within `left`.
fn least(left: u32, masks: &[u32], values: &[u32], memo: &mut HashMap<u32, u32>) -> u32 {
    if let Some(&v) = memo.get(&left) {
        return v;
    }
    let first = left.trailing_zeros();
    let bit = 1u32 << first;
    let mut best = values[first as usize] + least(left & !bit, masks, values, memo);
    for &m in masks {
        if m & bit != 0 && m & left == m {
            best = best.min(least(left & !m, masks, values, memo));
        }
    }
    memo.insert(left, best);
    best
}

/// The face-up discard pile (or one of Zetema's rank piles): cards in the order laid, the top last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiscardPile(Vec<Card>);

impl DiscardPile {
    pub fn new(cards: &[Card]) -> DiscardPile {
        DiscardPile(cards.to_vec())
    }

    pub fn top(&self) -> Option<Card> {
        self.0.last().copied()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Lays `card` on top.
    pub fn lay(&mut self, card: Card) {
        self.0.push(card);
    }

    /// Takes the top `n` cards (all where fewer lie), the top card first.
    pub fn take(&mut self, n: usize) -> Vec<Card> {
        let from = self.0.len().saturating_sub(n);
        self.0.drain(from..).rev().collect()
    }

    /// The cards, bottom first.
    pub fn cards(&self) -> &[Card] {
        &self.0
    }

    /// Takes one copy of `card` out of the pile, wherever it lies (Zetema's marriage pulls a king or
    /// queen from its rank pile); `false` when the pile has none.
    pub fn pull(&mut self, card: Card) -> bool {
        match self.0.iter().rposition(|&c| c == card) {
            Some(at) => {
                self.0.remove(at);
                true
            }
            None => false,
        }
    }

    /// How many copies of `card` lie in the pile.
    pub fn count(&self, card: Card) -> usize {
        self.0.iter().filter(|&&c| c == card).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    /// Tong-Its' count (tong-its.md: A 1, 2-10 their pips, J Q K 10).
    fn pips(c: Card) -> u32 {
        match c.rank_unchecked() {
            Rank::Ace => 1,
            r if r >= Rank::Ten => 10,
            r => r as u32,
        }
    }

    #[test]
    fn sets_take_wild_cards_where_the_game_has_them() {
        let none = |_: Card| false;
        let twos_and_jokers = |c: Card| c.rank().is_none_or(|r| r == Rank::Two);
        assert_eq!(
            SetShape::of(&cards("7S 7H 7H"), none),
            Some(SetShape {
                rank: Some(Rank::Seven),
                naturals: 3,
                wilds: 0
            })
        );
        assert_eq!(SetShape::of(&cards("7S 7H 8H"), none), None);
        // Hand and Foot: a 2 and a joker stand in; all wild is a set of no rank.
        assert_eq!(
            SetShape::of(&cards("KS KD 2C"), twos_and_jokers),
            Some(SetShape {
                rank: Some(Rank::King),
                naturals: 2,
                wilds: 1
            })
        );
        let mut wild = cards("2C 2D");
        wild.push(Card::JOKER);
        assert_eq!(
            SetShape::of(&wild, twos_and_jokers),
            Some(SetShape {
                rank: None,
                naturals: 0,
                wilds: 3
            })
        );
        // Without wild cards a joker is no rank: not a set.
        assert_eq!(SetShape::of(&wild, none), None);
    }

    #[test]
    fn runs_place_the_ace_as_the_game_says() {
        // Tong-Its: A-2-3 is a run, Q-K-A is not (tong-its.md §3.1).
        assert!(is_run(&cards("2H AH 3H"), Ace::Low));
        assert!(!is_run(&cards("QH KH AH"), Ace::Low));
        assert!(!is_run(&cards("2H 3H 5H"), Ace::Low));
        assert!(!is_run(&cards("2H 3H 4S"), Ace::Low));
        // Zetema: the ace low or high, never both (ZE-4).
        assert!(is_run(&cards("QH KH AH JH TH 9H"), Ace::LowOrHigh));
        assert!(!consecutive(&cards("KH AH 2S"), Ace::LowOrHigh));
        // A sequence need not be one suit; a rank twice is no sequence.
        assert!(consecutive(&cards("4S 5H 6D 7C 8S 9S"), Ace::Low));
        assert!(!consecutive(&cards("4S 4H 5D"), Ace::Low));
    }

    #[test]
    fn a_hand_offers_every_set_and_run_in_it() {
        // Four 9s: the four and each three of them (5); spades 9-T-J-Q: 9TJ, 9TJQ, TJQ (3).
        let hand = CardSet::of(&cards("9S 9H 9D 9C TS JS QS 2D"));
        let melds = sets_and_runs(hand, Ace::Low);
        assert_eq!(melds.len(), 8, "{melds:?}");
        assert!(melds.contains(&cards("9S TS JS QS")));
        assert!(melds.contains(&cards("9H 9D 9C")) || melds.contains(&cards("9S 9D 9C")));
        // Low ace only: A-2-3 of spades is offered, Q-K-A of hearts is not.
        let melds = sets_and_runs(CardSet::of(&cards("AS 2S 3S QH KH AH")), Ace::Low);
        assert_eq!(melds, vec![cards("AS 2S 3S")]);
    }

    #[test]
    fn the_least_deadwood_takes_the_best_arrangement() {
        // 7S 7H 7D 8S 9S: the set of 7s leaves 8S 9S (17), the run 7S-8S-9S leaves 7H 7D (14):
        // the run is better, 14.
        let hand = cards("7S 7H 7D 8S 9S");
        let melds = sets_and_runs(CardSet::of(&hand), Ace::Low);
        let (deadwood, chosen) = least_deadwood(&hand, &melds, pips);
        assert_eq!(deadwood, 14);
        assert_eq!(chosen, vec![cards("7S 8S 9S")]);
        // Two disjoint melds and K left over: 10. No meld at all: everything counts.
        let hand = cards("AS 2S 3S 5D 5H 5C KC");
        let (deadwood, chosen) =
            least_deadwood(&hand, &sets_and_runs(CardSet::of(&hand), Ace::Low), pips);
        assert_eq!((deadwood, chosen.len()), (10, 2));
        // A meld that takes the last cards left, after a card counted as deadwood.
        let hand = cards("KC 5D 5H 5C");
        let (deadwood, chosen) =
            least_deadwood(&hand, &sets_and_runs(CardSet::of(&hand), Ace::Low), pips);
        assert_eq!((deadwood, chosen), (10, vec![cards("5D 5H 5C")]));
        let hand = cards("AS 4D KC");
        assert_eq!(least_deadwood(&hand, &[], pips), (15, vec![]));
    }

    #[test]
    fn the_pile_gives_its_top_cards_top_first() {
        let mut pile = DiscardPile::new(&cards("4S 5S 6S"));
        pile.lay(Card::new(Rank::Seven, Suit::Spades));
        assert_eq!(pile.top(), Some(cards("7S")[0]));
        assert_eq!(pile.take(2), cards("7S 6S"));
        assert_eq!(pile.take(7), cards("5S 4S"));
        assert!(pile.is_empty() && pile.top().is_none());
    }

    #[test]
    fn a_card_is_pulled_from_anywhere_in_the_pile() {
        let mut pile = DiscardPile::new(&cards("QS QH QD QH"));
        assert_eq!(pile.count(cards("QH")[0]), 2);
        assert!(pile.pull(cards("QS")[0]));
        assert!(!pile.pull(cards("QS")[0]));
        assert!(pile.pull(cards("QH")[0]));
        assert_eq!(pile.cards(), cards("QH QD").as_slice());
    }
}
