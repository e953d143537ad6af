//! A set of distinct cards as a bit mask.

use super::{Card, Suit};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u128);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    pub fn of(cards: &[Card]) -> CardSet {
        let mut s = CardSet::EMPTY;
        for &c in cards {
            s.insert(c);
        }
        s
    }

    /// Every suited card of `suit` (any rank).
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(0xFFFFu128 << (suit as u32 * 16))
    }

    /// The cards of `suit` whose ranks `ranks` names (bit `r` for rank `r`: `RankOrder::above`).
    pub const fn ranks(suit: Suit, ranks: u16) -> CardSet {
        CardSet((ranks as u128) << (suit as u32 * 16))
    }

    pub fn contains(self, c: Card) -> bool {
        self.0 >> c.index() & 1 == 1
    }

    /// Adds `c`; returns false if it was already there.
    pub fn insert(&mut self, c: Card) -> bool {
        let had = self.contains(c);
        self.0 |= 1 << c.index();
        !had
    }

    /// Removes `c`; returns false if it was not there.
    pub fn remove(&mut self, c: Card) -> bool {
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

    pub fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    pub fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    pub fn of_suit(self, suit: Suit) -> CardSet {
        self.intersect(CardSet::suit(suit))
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
impl std::fmt::Display for CardSet {
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

impl std::fmt::Debug for CardSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}
