//! What a seat holds (or a pack, a stock, the cards dealt): a set of distinct cards where the pack has
//! one of each (`CardSet`, a bit mask: the games of today keep their speed), or a multiset where the
//! pack has copies (`CardCounts`: Calypso's four packs, Hand and Foot's five packs and ten jokers).
//! The engine's dealing and trick play work on either.

use super::{Card, CardSet, Pack, Suit, SuitedSet};
use std::fmt;

/// Cards held, with or without copies.
pub trait Holding: Copy + Default + PartialEq + fmt::Debug + fmt::Display {
    /// How many copies of `card` are held.
    fn count(&self, card: Card) -> u32;
    /// Adds one copy of `card`; `false` when a set already held it (nothing changes then).
    fn insert(&mut self, card: Card) -> bool;
    /// Takes one copy of `card` away; `false` when none was held.
    fn remove(&mut self, card: Card) -> bool;
    /// Cards held, copies included.
    fn len(&self) -> u32;
    /// The distinct cards held, in encoding order (each once, whatever its copies).
    fn distinct(&self) -> CardSet;
    /// The held cards of `suit` (suited cards only), copies included.
    fn of_suit(&self, suit: Suit) -> Self;
    /// Every card held, copies included, in encoding order.
    fn to_vec(&self) -> Vec<Card>;

    fn contains(&self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// The hand `cards` make when they are dealt to one seat from `pack` and every one of them is
    /// regular: in the pack, not yet among `dealt` (the cards dealt so far, which then take them
    /// in) nor twice among them. `None` otherwise, and wherever copies are counted: the deal is
    /// then checked card by card (`deal::check_holdings`), which says what is wrong. A set takes
    /// a whole hand in a few mask operations: every hand is dealt before it is replayed.
    fn deal_regular(_cards: &[Card], _pack: &Pack, _dealt: &mut Self) -> Option<Self> {
        None
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A set holds each card once: `CardSet`, and `SuitedSet` for a pack of suited cards alone.
macro_rules! set_holding {
    ($set:ident) => {
        impl Holding for $set {
            fn count(&self, card: Card) -> u32 {
                $set::contains(*self, card) as u32
            }
            fn insert(&mut self, card: Card) -> bool {
                $set::insert(self, card)
            }
            fn remove(&mut self, card: Card) -> bool {
                $set::remove(self, card)
            }
            fn len(&self) -> u32 {
                $set::len(*self)
            }
            fn distinct(&self) -> CardSet {
                CardSet::from(*self)
            }
            fn of_suit(&self, suit: Suit) -> $set {
                $set::of_suit(*self, suit)
            }
            fn to_vec(&self) -> Vec<Card> {
                self.iter().collect()
            }
            fn deal_regular(cards: &[Card], pack: &Pack, dealt: &mut $set) -> Option<$set> {
                if pack.copies.is_some() {
                    return None;
                }
                // A card the set cannot hold is left out of `hand`, and its count then differs.
                let hand = $set::of(cards);
                let regular = hand.len() as usize == cards.len()
                    && CardSet::from(hand).minus(pack.cards).is_empty()
                    && hand.intersect(*dealt).is_empty();
                regular.then(|| {
                    *dealt = dealt.union(hand);
                    hand
                })
            }
        }
    };
}

set_holding!(CardSet);
set_holding!(SuitedSet);

/// Every card index a `Card` can have (suited cards, tarot trumps, the Fool, the jokers).
const INDICES: usize = 90;

/// A multiset of cards: how many copies of each are held.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CardCounts {
    counts: [u8; INDICES],
    len: u32,
}

impl Default for CardCounts {
    fn default() -> CardCounts {
        CardCounts {
            counts: [0; INDICES],
            len: 0,
        }
    }
}

impl CardCounts {
    /// `copies` of every card of `set`.
    pub fn repeat(set: CardSet, copies: u8) -> CardCounts {
        let mut out = CardCounts::default();
        for card in set.iter() {
            out.add(card, copies);
        }
        out
    }

    /// Adds `copies` of `card`.
    pub fn add(&mut self, card: Card, copies: u8) {
        let slot = &mut self.counts[card.index() as usize];
        let before = *slot;
        *slot = slot.saturating_add(copies);
        self.len += (*slot - before) as u32;
    }

    /// Every copy held, in encoding order.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.counts
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(Card::from_index(i as u8), n as usize))
    }
}

impl Holding for CardCounts {
    fn count(&self, card: Card) -> u32 {
        self.counts[card.index() as usize] as u32
    }
    fn insert(&mut self, card: Card) -> bool {
        let slot = &mut self.counts[card.index() as usize];
        if *slot == u8::MAX {
            return false;
        }
        *slot += 1;
        self.len += 1;
        true
    }
    fn remove(&mut self, card: Card) -> bool {
        let slot = &mut self.counts[card.index() as usize];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        self.len -= 1;
        true
    }
    fn len(&self) -> u32 {
        self.len
    }
    fn distinct(&self) -> CardSet {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, _)| Card::from_index(i as u8))
            .collect()
    }
    fn of_suit(&self, suit: Suit) -> CardCounts {
        let mut out = CardCounts::default();
        for card in self.distinct().of_suit(suit).iter() {
            out.add(card, self.counts[card.index() as usize]);
        }
        out
    }
    fn to_vec(&self) -> Vec<Card> {
        self.iter().collect()
    }
}

/// The cards in order, copies repeated, separated by spaces: "AS AS 2H".
impl fmt::Display for CardCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn a_multiset_holds_copies_a_set_does_not() {
        let mut set = CardSet::EMPTY;
        assert!(Holding::insert(&mut set, c("AS")));
        assert!(!Holding::insert(&mut set, c("AS")));
        assert_eq!(Holding::len(&set), 1);

        let mut counts = CardCounts::default();
        assert!(counts.insert(c("AS")));
        assert!(counts.insert(c("AS")));
        assert!(counts.insert(c("2H")));
        assert_eq!((counts.count(c("AS")), counts.len()), (2, 3));
        assert_eq!(counts.to_string(), "AS AS 2H");
        assert!(counts.remove(c("AS")));
        assert!(counts.remove(c("AS")));
        assert!(!counts.remove(c("AS")), "no third copy");
        assert_eq!(counts.distinct(), CardSet::of(&[c("2H")]));
    }

    #[test]
    fn suits_keep_their_copies() {
        let mut counts = CardCounts::repeat(CardSet::of(&[c("AS"), c("KH"), c("T5")]), 3);
        assert_eq!(counts.len(), 9);
        let spades = counts.of_suit(Suit::Spades);
        assert_eq!((spades.len(), spades.count(c("AS"))), (3, 3));
        assert!(
            counts
                .of_suit(Suit::Hearts)
                .distinct()
                .iter()
                .all(|x| x == c("KH"))
        );
        counts.add(Card::JOKER, 10);
        assert_eq!(counts.count(Card::JOKER), 10);
    }
}
