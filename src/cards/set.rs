//! A set of distinct cards as a bit mask: `CardSet` holds any card; `SuitedSet` only the suited
//! cards (indices below 64), in half the bits. A game whose pack is suited cards alone plays with
//! `SuitedSet`: its hands and masks are single machine words, and every card played is checked
//! against several of them. Both are made by one macro, so they cannot drift apart.

use super::{Card, Suit};

/// Any cards: suited cards, tarot trumps, the Fool, jokers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u128);

/// Suited cards only. A card outside that range is never contained: inserting one leaves it out,
/// and removing one fails.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SuitedSet(u64);

/// The operations of a set over its bits; `every_card` where every card has a bit.
macro_rules! card_set {
    ($set:ident, $bits:ty, every_card: $every:literal) => {
        impl $set {
            pub const EMPTY: $set = $set(0);

            pub fn of(cards: &[Card]) -> $set {
                let mut s = $set::EMPTY;
                for &c in cards {
                    s.insert(c);
                }
                s
            }

            /// Every suited card of `suit` (any rank).
            pub const fn suit(suit: Suit) -> $set {
                $set((0xFFFF as $bits) << (suit as u32 * 16))
            }

            /// The cards of `suit` whose ranks `ranks` names (bit `r` for rank `r`: `RankOrder::above`).
            pub const fn ranks(suit: Suit, ranks: u16) -> $set {
                $set((ranks as $bits) << (suit as u32 * 16))
            }

            /// Whether the set can hold `c`: any card, where it holds `every_card`; else a card whose
            /// index has a bit.
            #[inline(always)]
            fn holds_any(c: Card) -> bool {
                $every || u32::from(c.index()) < <$bits>::BITS
            }

            pub fn contains(self, c: Card) -> bool {
                Self::holds_any(c) && self.0 >> c.index() & 1 == 1
            }

            /// Adds `c`; returns false if it was already there (or is a card this set cannot hold,
            /// which it leaves out).
            pub fn insert(&mut self, c: Card) -> bool {
                if !Self::holds_any(c) {
                    return false;
                }
                let had = self.contains(c);
                self.0 |= 1 << c.index();
                !had
            }

            /// Removes `c`; returns false if it was not there.
            pub fn remove(&mut self, c: Card) -> bool {
                if !Self::holds_any(c) {
                    return false;
                }
                let had = self.contains(c);
                self.0 &= !(1 << c.index());
                had
            }

            pub fn len(self) -> u32 {
                self.0.count_ones()
            }

            pub fn is_empty(self) -> bool {
                self.0 == 0
            }

            pub fn intersect(self, other: $set) -> $set {
                $set(self.0 & other.0)
            }

            pub const fn union(self, other: $set) -> $set {
                $set(self.0 | other.0)
            }

            pub fn minus(self, other: $set) -> $set {
                $set(self.0 & !other.0)
            }

            pub fn of_suit(self, suit: Suit) -> $set {
                self.intersect($set::suit(suit))
            }

            /// Cards in encoding order (suit S H D C, rank ascending within a suit).
            pub fn iter(self) -> impl Iterator<Item = Card> {
                let mut bits = self.0;
                std::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let i = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    Some(Card::from_index(i))
                })
            }
        }

        /// The cards in order, separated by spaces: "AS KS 2H".
        impl std::fmt::Display for $set {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                for (i, c) in self.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{c}")?;
                }
                Ok(())
            }
        }

        impl std::fmt::Debug for $set {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl FromIterator<Card> for $set {
            fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
                let mut s = $set::EMPTY;
                for c in iter {
                    s.insert(c);
                }
                s
            }
        }
    };
}

card_set!(CardSet, u128, every_card: true);
card_set!(SuitedSet, u64, every_card: false);

impl From<SuitedSet> for CardSet {
    fn from(s: SuitedSet) -> CardSet {
        CardSet(u128::from(s.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Holding, Pack, packs};

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// A `SuitedSet` holds the suited cards as a `CardSet` does, and no other card: one it cannot
    /// hold is never contained, is not added, and cannot be removed.
    #[test]
    fn a_suited_set_holds_suited_cards_alone() {
        let suited: Vec<Card> = (0..64)
            .map(Card::from_index)
            .filter(|c| c.rank().is_some())
            .collect();
        let mut set = SuitedSet::EMPTY;
        for &card in &suited {
            assert!(set.insert(card), "{card}");
            assert!(!set.insert(card), "{card} twice");
        }
        assert_eq!(CardSet::from(set), CardSet::of(&suited));
        assert_eq!(set.to_string(), CardSet::of(&suited).to_string());
        // Tarot trumps T1 (65) to T21, the Fool, the jokers.
        for card in (65..90).map(Card::from_index) {
            assert!(!set.contains(card), "{card}");
            assert!(!set.insert(card), "{card} added");
            assert!(!set.remove(card), "{card} removed");
        }
        assert_eq!(CardSet::from(set), CardSet::of(&suited));
        assert!(set.remove(c("AS")) && !set.contains(c("AS")) && !set.remove(c("AS")));
    }

    /// A hand with a card the set cannot hold is not dealt the quick way: the deal is then checked
    /// card by card, which names the card.
    #[test]
    fn a_hand_with_a_card_outside_the_suits_is_not_regular() {
        let pack: Pack = packs::latin40();
        let mut dealt = SuitedSet::EMPTY;
        let hand = [c("AS"), Card::from_index(88)];
        assert_eq!(SuitedSet::deal_regular(&hand, &pack, &mut dealt), None);
        assert_eq!(dealt, SuitedSet::EMPTY);
        let hand = [c("AS"), c("7H")];
        assert_eq!(
            SuitedSet::deal_regular(&hand, &pack, &mut dealt),
            Some(SuitedSet::of(&hand))
        );
    }
}
