//! Cards, suits, ranks and packs, with the canonical notation of `docs/rules/README.md`.
//!
//! A card is one byte; a set of cards is one `u128` bit mask (`CardSet`), or one `u64` where only
//! suited cards can be in it (`SuitedSet`), so hands, tricks and packs are copied and tested
//! without allocating.

mod holding;
mod set;

pub use holding::{CardCounts, Holding};
pub use set::{CardSet, SuitedSet};

/// Serializes a type as the static string its `code` gives (no formatting for the values every
/// ruling is full of: cards, seats) and deserializes it through its `FromStr`; a value that is
/// not a string is refused as not `$expecting`.
macro_rules! serde_as_string {
    ($t:ty, $expecting:literal) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.code())
            }
        }

        // Parsed from the text where it lies: a `String` (or `Cow`, which serde reads owned) is an
        // allocation for every seat of every action.
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Text;
                impl serde::de::Visitor<'_> for Text {
                    type Value = $t;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$t, E> {
                        v.parse().map_err(E::custom)
                    }
                }
                d.deserialize_str(Text)
            }
        }
    };
}
pub(crate) use serde_as_string;

use std::fmt;
use std::str::FromStr;

/// The four French/Latin suits in notation order `S H D C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Diamonds = 2,
    Clubs = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// The suit's letter as the wire writes it.
    pub fn code(self) -> &'static str {
        ["S", "H", "D", "C"][self as usize]
    }

    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    /// The suit's rank in a whist family auction, low to high ♠ 1, ♣ 2, ♦ 3, ♥ 4 (Boston de
    /// Fontainebleau, where it is also the suit factor, and Colour Whist).
    pub fn whist_rank(self) -> u8 {
        match self {
            Suit::Spades => 1,
            Suit::Clubs => 2,
            Suit::Diamonds => 3,
            Suit::Hearts => 4,
        }
    }

    /// By arithmetic, not from `ALL`: a match on the encoding compiles to the number itself, where
    /// the array was a load at every card's suit.
    const fn from_index(i: u8) -> Suit {
        match i & 3 {
            0 => Suit::Spades,
            1 => Suit::Hearts,
            2 => Suit::Diamonds,
            _ => Suit::Clubs,
        }
    }

    fn parse(c: char) -> Option<Suit> {
        match c {
            'S' | 's' | '♠' | '♤' => Some(Suit::Spades),
            'H' | 'h' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | 'd' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | 'c' | '♣' | '♧' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Suit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.trim().chars();
        match (chars.next().and_then(Suit::parse), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(format!("'{s}' is not a suit: expected one of S, H, D, C")),
        }
    }
}

/// Rank of a suited card. `Cavalier` is the tarot knight, between queen and jack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
    Cavalier,
}

impl Rank {
    pub fn letter(self) -> char {
        match self {
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
            Rank::Cavalier => 'C',
            r => char::from(b'0' + r as u8),
        }
    }

    fn from_u8(v: u8) -> Option<Rank> {
        use Rank::*;
        Some(match v {
            2 => Two,
            3 => Three,
            4 => Four,
            5 => Five,
            6 => Six,
            7 => Seven,
            8 => Eight,
            9 => Nine,
            10 => Ten,
            11 => Jack,
            12 => Queen,
            13 => King,
            14 => Ace,
            15 => Cavalier,
            _ => return None,
        })
    }

    /// The rank a card code writes as `s` (`A`, `T` or `10`, `7`; either case).
    pub(crate) fn parse(s: &str) -> Option<Rank> {
        use Rank::*;
        Some(match s {
            "A" | "a" => Ace,
            "K" | "k" => King,
            "Q" | "q" => Queen,
            "J" | "j" => Jack,
            "T" | "t" | "10" => Ten,
            "C" | "c" => Cavalier,
            "9" => Nine,
            "8" => Eight,
            "7" => Seven,
            "6" => Six,
            "5" => Five,
            "4" => Four,
            "3" => Three,
            "2" => Two,
            _ => return None,
        })
    }
}

// Card encoding: suited cards are `suit * 16 + rank` (2..=15); the special cards follow.
const TAROT_TRUMP_BASE: u8 = 64; // T1..T21 = 65..85
const FOOL: u8 = 86;
const BIG_JOKER: u8 = 87;
const LITTLE_JOKER: u8 = 88;
const JOKER: u8 = 89;

/// One playing card. Suited cards, tarot trumps `T1`..`T21`, the tarot `FOOL`, and the jokers
/// `BJ`, `LJ` (Pluck) and `JK` (Hasenpfeffer, Hand and Foot).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub const FOOL: Card = Card(FOOL);
    pub const BIG_JOKER: Card = Card(BIG_JOKER);
    pub const LITTLE_JOKER: Card = Card(LITTLE_JOKER);
    pub const JOKER: Card = Card(JOKER);

    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit as u8 * 16 + rank as u8)
    }

    pub fn tarot_trump(n: u8) -> Option<Card> {
        (1..=21).contains(&n).then(|| Card(TAROT_TRUMP_BASE + n))
    }

    pub(crate) const fn index(self) -> u8 {
        self.0
    }

    pub(crate) const fn from_index(i: u8) -> Card {
        Card(i)
    }

    /// The printed suit; `None` for tarot trumps, the Fool and jokers.
    pub fn suit(self) -> Option<Suit> {
        (self.0 < TAROT_TRUMP_BASE).then(|| Suit::from_index(self.0 >> 4))
    }

    /// The printed rank; `None` for tarot trumps, the Fool and jokers.
    pub fn rank(self) -> Option<Rank> {
        if self.0 < TAROT_TRUMP_BASE {
            Rank::from_u8(self.0 & 15)
        } else {
            None
        }
    }

    /// What kind of card this is. Only a suited card has a suit: how a tarot trump, the Fool or a
    /// joker follows and ranks is each game's own rule.
    pub fn class(self) -> CardClass {
        match self.0 {
            i if i < TAROT_TRUMP_BASE => {
                CardClass::Suited(self.suit_unchecked(), self.rank_unchecked())
            }
            FOOL => CardClass::Fool,
            BIG_JOKER => CardClass::Joker(Joker::Big),
            LITTLE_JOKER => CardClass::Joker(Joker::Little),
            JOKER => CardClass::Joker(Joker::Plain),
            i => CardClass::TarotTrump(i - TAROT_TRUMP_BASE),
        }
    }

    /// The card's canonical code (`AS`, `TH`, `T21`, `FOOL`, `JK`), as every ruling writes it.
    pub fn code(self) -> &'static str {
        const SUITED: [[&str; 14]; 4] = [
            [
                "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "CS",
            ],
            [
                "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "CH",
            ],
            [
                "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "CD",
            ],
            [
                "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "CC",
            ],
        ];
        const TRUMPS: [&str; 21] = [
            "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13",
            "T14", "T15", "T16", "T17", "T18", "T19", "T20", "T21",
        ];
        match self.0 {
            i if i < TAROT_TRUMP_BASE => SUITED[(i >> 4) as usize][(i & 15) as usize - 2],
            FOOL => "FOOL",
            BIG_JOKER => "BJ",
            LITTLE_JOKER => "LJ",
            JOKER => "JK",
            i => TRUMPS[(i - TAROT_TRUMP_BASE - 1) as usize],
        }
    }

    /// Suit of a card known to be suited (every card of a game whose pack has only suited cards).
    pub fn suit_unchecked(self) -> Suit {
        Suit::from_index(self.0 >> 4)
    }

    /// Rank of a card known to be suited; `Two` otherwise.
    pub fn rank_unchecked(self) -> Rank {
        Rank::from_u8(self.0 & 15).unwrap_or(Rank::Two)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The kinds of card in the packs of the 28 games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardClass {
    Suited(Suit, Rank),
    /// A tarot trump `T1`..`T21`, by its number.
    TarotTrump(u8),
    /// The tarot Fool (the excuse).
    Fool,
    Joker(Joker),
}

/// The jokers: Pluck's big and little, and the plain joker of Hasenpfeffer and Hand and Foot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joker {
    Big,
    Little,
    Plain,
}

/// Why a card string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardError {
    pub input: String,
    pub reason: &'static str,
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a card: {}; expected rank then suit, e.g. 'AS', 'TH' or '10H'",
            self.input, self.reason
        )
    }
}

impl std::error::Error for CardError {}

/// The rank each byte names as the first letter of a canonical code (`2`..`9`, `T J Q K A C`, upper
/// case only), 0 for none. Read from a table, not by branches: a record's cards come in an order
/// no branch predictor learns.
const CODE_RANK: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut digit = b'2';
    while digit <= b'9' {
        table[digit as usize] = digit - b'0';
        digit += 1;
    }
    table[b'T' as usize] = Rank::Ten as u8;
    table[b'J' as usize] = Rank::Jack as u8;
    table[b'Q' as usize] = Rank::Queen as u8;
    table[b'K' as usize] = Rank::King as u8;
    table[b'A' as usize] = Rank::Ace as u8;
    table[b'C' as usize] = Rank::Cavalier as u8;
    table
};

/// One more than the suit each byte names as the last letter of a canonical code (`S H D C`, upper
/// case only), 0 for none.
const CODE_SUIT: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'S' as usize] = Suit::Spades as u8 + 1;
    table[b'H' as usize] = Suit::Hearts as u8 + 1;
    table[b'D' as usize] = Suit::Diamonds as u8 + 1;
    table[b'C' as usize] = Suit::Clubs as u8 + 1;
    table
};

impl FromStr for Card {
    type Err = CardError;

    /// The canonical code of a suited card, as nearly every record writes it, read directly (and
    /// inlined where a record's cards are read); any other text the long way.
    #[inline]
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let &[r, u] = s.as_bytes() {
            let (rank, suit) = (CODE_RANK[r as usize], CODE_SUIT[u as usize]);
            if rank != 0 && suit != 0 {
                return Ok(Card((suit - 1) * 16 + rank));
            }
        }
        Card::parse_uncommon(s)
    }
}

impl Card {
    /// A card written other than by its canonical suited code: a named card, a tarot trump, lower
    /// case, `10` for a ten, a suit symbol, spaces around it.
    #[cold]
    fn parse_uncommon(s: &str) -> Result<Card, CardError> {
        let err = |reason| CardError {
            input: s.to_string(),
            reason,
        };
        let t = s.trim();
        // Compared in place: a record has dozens of cards, and an upper-cased copy of each showed.
        const NAMED: [(&str, Card); 4] = [
            ("FOOL", Card::FOOL),
            ("BJ", Card::BIG_JOKER),
            ("LJ", Card::LITTLE_JOKER),
            ("JK", Card::JOKER),
        ];
        if let Some(&(_, card)) = NAMED.iter().find(|(name, _)| t.eq_ignore_ascii_case(name)) {
            return Ok(card);
        }
        if t.is_empty() {
            return Err(err("it is empty"));
        }
        // A tarot trump: T followed by a number 1..21 (no suit is a digit, so `T1` is never a ten).
        if let Some(num) = t.strip_prefix(['T', 't'])
            && !num.is_empty()
            && num.bytes().all(|b| b.is_ascii_digit())
        {
            return num
                .parse::<u8>()
                .ok()
                .and_then(Card::tarot_trump)
                .ok_or_else(|| err("tarot trumps run from T1 to T21"));
        }
        let last = t.chars().next_back().expect("not empty");
        let rank_part = &t[..t.len() - last.len_utf8()];
        let suit = Suit::parse(last)
            .ok_or_else(|| err("the last character is not a suit (S, H, D, C)"))?;
        if rank_part.is_empty() {
            return Err(err("the rank is missing"));
        }
        let rank = Rank::parse(rank_part)
            .ok_or_else(|| err("unknown rank (A K Q J T 9 8 7 6 5 4 3 2, C for a cavalier)"))?;
        Ok(Card::new(rank, suit))
    }
}

serde_as_string!(Card, "a card string such as \"AS\" or \"10H\"");

impl utoipa::PartialSchema for Card {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A card: rank then suit (`AS`, `TH`; `10H`, lower case and ♠♥♦♣ accepted on input; output is canonical). \
                 Tarot trumps `T1`..`T21`, `FOOL`, jokers `BJ`, `LJ`, `JK`.",
            ))
            .examples([serde_json::json!("AS")])
            .into()
    }
}

impl utoipa::ToSchema for Card {}

crate::cards::serde_as_string!(Suit, "a string");

impl utoipa::PartialSchema for Suit {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(["S", "H", "D", "C"]))
            .description(Some("A suit: S spades, H hearts, D diamonds, C clubs."))
            .into()
    }
}

impl utoipa::ToSchema for Suit {}

/// A game's pack: the cards it uses and a name for messages.
#[derive(Clone, Copy, Debug)]
pub struct Pack {
    pub name: &'static str,
    /// The distinct cards of the pack.
    pub cards: CardSet,
    /// How many copies of each card, where the pack has copies; `None`: one of each.
    pub copies: Option<CardCounts>,
}

impl Pack {
    /// Every suit with the given ranks.
    pub fn suited(name: &'static str, ranks: &[Rank]) -> Pack {
        let mut cards = CardSet::EMPTY;
        for suit in Suit::ALL {
            for &rank in ranks {
                cards.insert(Card::new(rank, suit));
            }
        }
        Pack {
            name,
            cards,
            copies: None,
        }
    }

    /// One more of each card of `extra`: a card new to the pack joins it, one already in it gets
    /// a further copy (the pack then counts its copies, as `times` does). A 52-card pack with a
    /// second suit of spades is 65 cards, never silently 52.
    pub fn with(mut self, extra: &[Card]) -> Pack {
        for &c in extra {
            if self.copies.is_none() && self.cards.contains(c) {
                let mut copies = CardCounts::default();
                for card in self.cards.iter() {
                    copies.add(card, 1);
                }
                self.copies = Some(copies);
            }
            self.cards.insert(c);
            if let Some(copies) = &mut self.copies {
                copies.add(c, 1);
            }
        }
        self
    }

    /// `n` packs shuffled together (Calypso's four, Hand and Foot's five): every card `n` times.
    pub fn times(self, n: u8, name: &'static str) -> Pack {
        let mut copies = CardCounts::default();
        for c in self.cards.iter() {
            copies.add(c, n * self.count(c) as u8);
        }
        Pack {
            name,
            cards: self.cards,
            copies: Some(copies),
        }
    }

    /// Copies of `card` in the pack (0 for a card foreign to it).
    pub fn count(&self, card: Card) -> u32 {
        match &self.copies {
            Some(copies) => copies.count(card),
            None => self.cards.contains(card) as u32,
        }
    }

    /// Cards in the pack, copies included.
    pub fn len(&self) -> u32 {
        self.copies.map_or(self.cards.len(), |c| c.len())
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// Cards as a director says them: "3D 3S". Written into one string: many games name the cards of
/// every event they log, and a string for each card, then a list of them, cost more than the
/// replay (issue 26).
pub fn names(cards: &[Card]) -> String {
    let mut out = String::with_capacity(3 * cards.len());
    for (i, card) in cards.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(card.code());
    }
    out
}

/// Calls `each` with every `size`-card subset of `cards`, in order, each choice of cards once:
/// copies of one card (a pack of several packs: Zetema's imperial suit, Hand and Foot's five) are
/// one card to choose, so two subsets that differ only in which copy they take are one. Copies must
/// lie side by side in `cards` (as a sorted hand or a `CardCounts` gives them). The combinations a
/// hand can play (Big Two) or meld (Zetema, Hand and Foot).
pub fn subsets(cards: &[Card], size: usize, each: &mut impl FnMut(&[Card])) {
    extend(cards, size, &mut Vec::with_capacity(size), 0, each);
}

/// Every subset of `cards` with a size in `sizes`, the smaller first: the candidates of an action
/// naming several cards (Calabrasella's discards and takes, Poke's draws and sets).
pub fn choices(cards: &[Card], sizes: std::ops::RangeInclusive<usize>) -> Vec<Vec<Card>> {
    let mut out = Vec::new();
    for size in sizes {
        subsets(cards, size, &mut |s| out.push(s.to_vec()));
    }
    out
}

/// `subsets` from position `from` on, `chosen` picked so far.
fn extend(
    cards: &[Card],
    size: usize,
    chosen: &mut Vec<Card>,
    from: usize,
    each: &mut impl FnMut(&[Card]),
) {
    if chosen.len() == size {
        each(chosen);
        return;
    }
    for i in from..cards.len() {
        if cards.len() - i < size - chosen.len() {
            break;
        }
        // Another copy of the card just tried here chooses the same cards again.
        if i > from && cards[i] == cards[i - 1] {
            continue;
        }
        chosen.push(cards[i]);
        extend(cards, size, chosen, i + 1, each);
        chosen.pop();
    }
}

pub mod packs {
    //! The packs of the rule files (`docs/rules/*.md` §1).
    //! Each is built once and handed out as a copy: every hand asks for its pack twice (the
    //! setup check and the deal), and building one card by card showed in the replay profile.
    use super::{Card, Pack, Rank::*, Suit};
    use std::sync::LazyLock;

    /// 52-card French pack.
    pub fn standard52() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            Pack::suited(
                "52-card pack",
                &[
                    Ace, King, Queen, Jack, Ten, Nine, Eight, Seven, Six, Five, Four, Three, Two,
                ],
            )
        });
        *PACK
    }

    /// 40-card Spanish/Italian pack: A K Q J 7 6 5 4 3 2 (Malilla, Tresette, Briscola, Truco).
    pub fn latin40() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            Pack::suited(
                "40-card pack (A K Q J 7-2)",
                &[Ace, King, Queen, Jack, Seven, Six, Five, Four, Three, Two],
            )
        });
        *PACK
    }

    /// 32-card piquet pack: A K Q J T 9 8 7 (Twenty-Nine).
    pub fn piquet32() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            Pack::suited(
                "32-card pack (A K Q J T 9 8 7)",
                &[Ace, King, Queen, Jack, Ten, Nine, Eight, Seven],
            )
        });
        *PACK
    }

    /// 47-card pack: the 52-card pack without the four 2s and the 8♦ (Spinado).
    pub fn spinado47() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            let mut pack = Pack::suited(
                "47-card pack (A K Q J T 9-3, no 8♦)",
                &[
                    Ace, King, Queen, Jack, Ten, Nine, Eight, Seven, Six, Five, Four, Three,
                ],
            );
            pack.cards.remove(Card::new(Eight, super::Suit::Diamonds));
            pack
        });
        *PACK
    }

    /// 24-card pack: A K Q J T 9 (Couillon).
    pub fn euchre24() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            Pack::suited(
                "24-card pack (A K Q J T 9)",
                &[Ace, King, Queen, Jack, Ten, Nine],
            )
        });
        *PACK
    }

    /// 25-card pack: A K Q J T 9 and one joker (Hasenpfeffer).
    pub fn euchre24_joker() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| euchre24().with(&[Card::JOKER]));
        *PACK
    }

    /// 51-card pack: the 52-card pack without 2S 2H 2D (2C stays), with the big and little
    /// jokers `BJ` `LJ` (Pluck).
    pub fn pluck51() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            Pack::suited(
                "51-card pack (A-3, 2C, BJ, LJ)",
                &[
                    Ace, King, Queen, Jack, Ten, Nine, Eight, Seven, Six, Five, Four, Three,
                ],
            )
            .with(&[
                Card::new(Two, super::Suit::Clubs),
                Card::BIG_JOKER,
                Card::LITTLE_JOKER,
            ])
        });
        *PACK
    }

    /// Four 52-card packs shuffled together (Calypso): every card four times.
    pub fn calypso208() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| standard52().times(4, "four 52-card packs"));
        *PACK
    }

    /// Five 52-card packs and their ten jokers, all jokers equal (Hand and Foot).
    pub fn hand_and_foot270() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            let mut pack = standard52().times(5, "five 52-card packs with ten jokers");
            for _ in 0..10 {
                pack = pack.with(&[Card::JOKER]);
            }
            pack
        });
        *PACK
    }

    /// The 52-card pack and a second copy of one whole suit, the imperial suit (Zetema, ZE-1):
    /// 65 cards, every rank five times and every card of `imperial` twice.
    pub fn zetema65(imperial: Suit) -> Pack {
        static PACKS: LazyLock<[Pack; 4]> = LazyLock::new(|| {
            Suit::ALL.map(|suit| {
                let second: Vec<Card> = standard52()
                    .cards
                    .iter()
                    .filter(|c| c.suit() == Some(suit))
                    .collect();
                let mut pack = standard52().with(&second);
                pack.name = match suit {
                    Suit::Spades => "65-card pack (a second suit of spades)",
                    Suit::Hearts => "65-card pack (a second suit of hearts)",
                    Suit::Diamonds => "65-card pack (a second suit of diamonds)",
                    Suit::Clubs => "65-card pack (a second suit of clubs)",
                };
                pack
            })
        });
        PACKS[Suit::ALL
            .iter()
            .position(|&s| s == imperial)
            .expect("a suit")]
    }

    /// 78-card tarot: four suits of 14 (with cavaliers), 21 trumps and the Fool (Imperial Tarot).
    pub fn tarot78() -> Pack {
        static PACK: LazyLock<Pack> = LazyLock::new(|| {
            let mut pack = Pack::suited(
                "78-card tarot",
                &[
                    King, Queen, Cavalier, Jack, Ten, Nine, Eight, Seven, Six, Five, Four, Three,
                    Two, Ace,
                ],
            );
            for n in 1..=21 {
                pack.cards.insert(Card::tarot_trump(n).expect("1..=21"));
            }
            pack.cards.insert(Card::FOOL);
            pack
        });
        *PACK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_named_by_their_codes_a_space_between() {
        let parse = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(names(&[]), "");
        assert_eq!(names(&[parse("3D")]), "3D");
        let cards = [
            parse("3D"),
            parse("TS"),
            Card::tarot_trump(21).unwrap(),
            Card::JOKER,
        ];
        let codes = cards.map(|c| c.code().to_string());
        assert_eq!(names(&cards), codes.join(" "));
        assert_eq!(names(&cards[..2]), "3D TS");
    }

    #[test]
    fn every_card_is_written_as_its_rank_and_suit_letters_and_read_back() {
        let mut cards = vec![Card::FOOL, Card::BIG_JOKER, Card::LITTLE_JOKER, Card::JOKER];
        cards.extend((1..=21).map(|n| Card::tarot_trump(n).unwrap()));
        for suit in Suit::ALL {
            for rank in (2..=15).map(|v| Rank::from_u8(v).unwrap()) {
                let card = Card::new(rank, suit);
                assert_eq!(card.code(), format!("{}{}", rank.letter(), suit.letter()));
                cards.push(card);
            }
        }
        assert_eq!(Card::tarot_trump(17).unwrap().code(), "T17");
        assert_eq!(Card::JOKER.code(), "JK");
        for card in cards {
            assert_eq!(card.code().parse::<Card>().unwrap(), card);
            assert_eq!(
                serde_json::to_string(&card).unwrap(),
                format!("\"{}\"", card.code())
            );
        }
    }

    #[test]
    fn parses_every_accepted_spelling() {
        for s in ["TH", "10H", "th", "10♥", "T♡"] {
            assert_eq!(
                s.parse::<Card>().unwrap(),
                Card::new(Rank::Ten, Suit::Hearts),
                "{s}"
            );
        }
        assert_eq!("as".parse::<Card>().unwrap().to_string(), "AS");
        assert_eq!("7♣".parse::<Card>().unwrap().to_string(), "7C");
        assert_eq!("T21".parse::<Card>().unwrap().to_string(), "T21");
        assert_eq!("fool".parse::<Card>().unwrap(), Card::FOOL);
        assert_eq!("Bj".parse::<Card>().unwrap(), Card::BIG_JOKER);
        assert_eq!("lj".parse::<Card>().unwrap(), Card::LITTLE_JOKER);
        assert_eq!(" jk ".parse::<Card>().unwrap(), Card::JOKER);
        assert_eq!("CS".parse::<Card>().unwrap().rank(), Some(Rank::Cavalier));
    }

    #[test]
    fn refuses_malformed_cards_with_a_reason() {
        for (s, why) in [
            ("", "empty"),
            ("1S", "unknown rank"),
            ("AX", "not a suit"),
            ("S", "rank is missing"),
            ("T22", "T1 to T21"),
            ("11H", "unknown rank"),
        ] {
            let e = s.parse::<Card>().unwrap_err();
            assert!(e.to_string().contains(why), "{s}: {e}");
        }
    }

    #[test]
    fn packs_have_their_sizes() {
        assert_eq!(packs::standard52().len(), 52);
        assert_eq!(packs::latin40().len(), 40);
        assert_eq!(packs::piquet32().len(), 32);
        assert_eq!(packs::euchre24().len(), 24);
        assert_eq!(packs::euchre24_joker().len(), 25);
        assert_eq!(packs::pluck51().len(), 51);
        assert_eq!(packs::tarot78().len(), 78);
        assert_eq!(packs::calypso208().len(), 208);
        assert_eq!(packs::hand_and_foot270().len(), 270);
        assert_eq!(packs::hand_and_foot270().count(Card::JOKER), 10);
        assert_eq!(packs::calypso208().count("AS".parse().unwrap()), 4);
    }

    /// A card added to a pack that holds it already is a second copy, not lost (issue 21).
    #[test]
    fn a_card_added_twice_is_two_copies() {
        let spades: Vec<Card> = packs::standard52()
            .cards
            .iter()
            .filter(|c| c.suit() == Some(Suit::Spades))
            .collect();
        let pack = packs::standard52().with(&spades);
        assert_eq!(pack.len(), 65);
        assert_eq!(pack.count("AS".parse().unwrap()), 2);
        assert_eq!(pack.count("AH".parse().unwrap()), 1);
        assert_eq!(packs::euchre24().with(&[Card::JOKER]).copies, None);
    }

    #[test]
    fn subsets_are_each_choice_of_cards_once_in_order() {
        let cards: Vec<Card> = ["2S", "3S", "3S", "4S"]
            .map(|c| c.parse().unwrap())
            .to_vec();
        let mut seen = Vec::new();
        // The two copies of 3S are one card to choose: 2S 3S once, 3S 3S once.
        subsets(&cards, 2, &mut |s| seen.push(names(s)));
        assert_eq!(seen, ["2S 3S", "2S 4S", "3S 3S", "3S 4S"]);
        let mut three = Vec::new();
        subsets(&cards, 3, &mut |s| three.push(names(s)));
        assert_eq!(three, ["2S 3S 3S", "2S 3S 4S", "3S 3S 4S"]);
        let mut n = 0;
        subsets(&cards, 5, &mut |_| n += 1);
        assert_eq!(n, 0);
    }

    /// Zetema's pack (ZE-1): 65 cards, five of every rank, the imperial suit's cards twice and
    /// the others once, whichever suit is imperial.
    #[test]
    fn the_zetema_pack_has_65_cards() {
        for imperial in Suit::ALL {
            let pack = packs::zetema65(imperial);
            assert_eq!(pack.len(), 65, "{}", pack.name);
            assert_eq!(pack.cards.len(), 52);
            for card in pack.cards.iter() {
                let copies = if card.suit() == Some(imperial) { 2 } else { 1 };
                assert_eq!(pack.count(card), copies, "{card} in {}", pack.name);
            }
            let fives = pack.cards.iter().filter(|c| c.rank() == Some(Rank::Five));
            assert_eq!(fives.map(|c| pack.count(c)).sum::<u32>(), 5);
        }
        assert!(packs::zetema65(Suit::Clubs).name.contains("clubs"));
    }

    #[test]
    fn only_suited_cards_have_a_suit() {
        let class = |s: &str| s.parse::<Card>().unwrap().class();
        assert_eq!(class("CS"), CardClass::Suited(Suit::Spades, Rank::Cavalier));
        assert_eq!(class("T5"), CardClass::TarotTrump(5));
        assert_eq!(class("T21"), CardClass::TarotTrump(21));
        assert_eq!(class("FOOL"), CardClass::Fool);
        assert_eq!(class("LJ"), CardClass::Joker(Joker::Little));
        for c in ["T1", "T15", "T16", "FOOL", "JK", "BJ"] {
            assert_eq!(c.parse::<Card>().unwrap().suit(), None, "{c}");
        }
    }

    #[test]
    fn every_card_round_trips_through_notation() {
        for c in
            packs::tarot78()
                .cards
                .iter()
                .chain([Card::JOKER, Card::BIG_JOKER, Card::LITTLE_JOKER])
        {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
    }
}
