//! Checking a recorded deal against a game's pack and table. Problems here are refusals (HTTP 422 with
//! a pointer), because no adjudication can start from a deal that is not the game's pack.

use super::FieldError;
use super::trick::MAX_PLAYS;
use crate::cards::{Card, CardSet, Holding, Pack};
use crate::record::{HandRecord, Verbs};
use crate::seat::{Seat, Table};

/// What a game's record holds beside the deal (`Rules::setup`): its pack, the cards a regular deal
/// gives each seat, and the parts of the record it reads, with their bounds. The replay driver
/// refuses a part the game does not declare and a part outside its bounds; the sheet template and
/// the game's record schema show the declared parts.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub pack: Pack,
    /// Cards a regular deal gives each seat. The replay driver refuses a seat dealt another number
    /// (422 at `/deal/<seat>`) before `start`, unless `counted_by` names the rule that decides.
    pub hand: HandSize,
    /// The rule under which the game itself judges how many cards each seat was dealt: another
    /// count is a misdeal it rules on (Malilla MA-13), or the count changes from hand to hand
    /// (Knockout Whist). `None` in most games: the engine checks `hand`.
    pub counted_by: Option<&'static str>,
    pub parts: &'static [Holds],
}

/// How many cards a regular deal gives a seat: the same to each, or one number to the dealer and
/// another to the rest (Tong-Its: 13 to the dealer, 12 to the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandSize {
    Each(usize),
    Dealer { dealer: usize, others: usize },
}

impl HandSize {
    /// The cards dealt to `seat` when `dealer` deals.
    pub fn of(self, seat: Seat, dealer: Seat) -> usize {
        match self {
            HandSize::Each(n) => n,
            HandSize::Dealer { dealer: d, .. } if seat.pos() == dealer.pos() => d,
            HandSize::Dealer { others, .. } => others,
        }
    }

    /// What a seat is expected to hold, for a message: "12", "13 (the dealer)".
    fn expected(self, seat: Seat, dealer: Seat) -> String {
        let n = self.of(seat, dealer);
        match self {
            HandSize::Dealer { .. } if seat.pos() == dealer.pos() => format!("{n} (the dealer)"),
            HandSize::Dealer { .. } => format!("{n} (a seat not dealing)"),
            HandSize::Each(_) => n.to_string(),
        }
    }
}

impl From<usize> for HandSize {
    fn from(n: usize) -> HandSize {
        HandSize::Each(n)
    }
}

/// One part of a record beside the deal, as a game declares it.
#[derive(Clone, Copy, Debug)]
pub struct Holds {
    pub part: Part,
    /// What it holds, in the game's words (for messages and the record schema).
    pub what: &'static str,
    /// How many cards it holds (deals for `Deals`, the position for `CutCard`).
    pub count: Count,
}

/// The parts a record may hold beside the deal (the rule files' "Decisions a record must capture"),
/// each in the record field `Part::field` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Cards of the dealer's own deal turned face up (Malilla's trump card): `face_up`.
    DealersCard,
    /// Cards turned face up from the undealt pack (Briscola's upcard, Truco's rejected packets, a
    /// gallery): `face_up`.
    FaceUp,
    /// The discard pile as the deal starts it, its upcards bottom first: `face_up`.
    DiscardPile,
    /// A stock to draw from or a stub, top card first: `stock`.
    Stock,
    /// A second stock, top card first, where the undealt cards lie in two (Hand and Foot):
    /// `second_stock`.
    SecondStock,
    /// A widow or talon, left undealt for a player to take: `stock`.
    Widow,
    /// A shoe's cards, the first to be drawn first (Trente et Quarante's six packs): `shoe`.
    Shoe,
    /// Where the cut card lies in the shoe, as the number of cards before it: `cut_card`.
    CutCard,
    /// The hands of each later deal of a hand dealt several times: `deals`. (Calypso records one deal
    /// a hand and carries the rest in its match state.)
    Deals,
}

impl Part {
    /// The record field that holds this part.
    pub fn field(self) -> &'static str {
        SETUP_FIELDS[self.slot()]
    }

    /// The position of its record field in `SETUP_FIELDS`: every record is checked field by field,
    /// and comparing names showed in the replay profile.
    fn slot(self) -> usize {
        match self {
            Part::DealersCard | Part::FaceUp | Part::DiscardPile => FACE_UP,
            Part::Stock | Part::Widow => STOCK,
            Part::SecondStock => SECOND_STOCK,
            Part::Shoe => SHOE,
            Part::CutCard => CUT_CARD,
            Part::Deals => DEALS,
        }
    }
}

/// The record fields that can hold a part beside the deal.
pub const SETUP_FIELDS: [&str; 6] = [
    "face_up",
    "stock",
    "second_stock",
    "shoe",
    "cut_card",
    "deals",
];
// Their positions, by name (`Part::slot`, `held`).
const FACE_UP: usize = 0;
const STOCK: usize = 1;
const SECOND_STOCK: usize = 2;
const SHOE: usize = 3;
const CUT_CARD: usize = 4;
const DEALS: usize = 5;

/// How many a part holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// From `min` to `max` (`Between(1, 1)`: exactly one).
    Between(u32, u32),
    /// At least this many, and at most what the pack leaves once the seats are dealt and the other
    /// parts listed (for `CutCard`: a position within the pack).
    Rest { at_least: u32 },
}

impl Count {
    pub fn min(self) -> u32 {
        match self {
            Count::Between(min, _) => min,
            Count::Rest { at_least } => at_least,
        }
    }

    /// The most this part may hold from `pack`, whatever else a record lists.
    pub fn max(self, pack: &Pack) -> u32 {
        match self {
            Count::Between(_, max) => max,
            Count::Rest { .. } => pack.len(),
        }
    }
}

impl Setup {
    /// The part held in record field `field`, if the game declares one.
    pub fn holding(&self, field: &str) -> Option<&'static Holds> {
        let slot = SETUP_FIELDS.iter().position(|f| *f == field)?;
        self.holding_at(slot)
    }

    /// The part held in the field at `slot` of `SETUP_FIELDS` (`holding` by position).
    fn holding_at(&self, slot: usize) -> Option<&'static Holds> {
        self.parts.iter().find(|h| h.part.slot() == slot)
    }

    /// What the record holds, for a message: "the deal and stock (the widow)".
    pub fn describe(&self) -> String {
        let parts: Vec<_> = self
            .parts
            .iter()
            .map(|h| format!("{} ({})", h.part.field(), h.what))
            .collect();
        if parts.is_empty() {
            "the deal only".into()
        } else {
            format!("the deal and {}", parts.join(", "))
        }
    }
}

/// How many the field at `slot` of `SETUP_FIELDS` holds in `record` (cards, deals, or the cut
/// card's position); `None` when the record leaves it out (or empty).
fn held<V: Verbs>(record: &HandRecord<V>, slot: usize) -> Option<u32> {
    let n = match slot {
        FACE_UP => record.face_up.len(),
        STOCK => record.stock.len(),
        SECOND_STOCK => record.second_stock.len(),
        SHOE => record.shoe.len(),
        DEALS => record.deals.len(),
        _ => return record.cut_card,
    };
    (n > 0).then_some(n as u32)
}

/// Cards `record` lists in all its card fields (deal, face up, stocks, shoe, later deals).
fn cards_listed<V: Verbs>(record: &HandRecord<V>) -> u32 {
    let dealt: usize = record
        .deal
        .values()
        .chain(record.deals.iter().flat_map(|d| d.values()))
        .map(Vec::len)
        .sum();
    (dealt
        + record.face_up.len()
        + record.stock.len()
        + record.second_stock.len()
        + record.shoe.len()) as u32
}

/// The record's parts beside the deal against the game's declaration (`name`: the game's): a
/// field the game does not hold must be left out, a declared one must hold what its bounds allow.
pub fn check_setup<V: Verbs>(
    record: &HandRecord<V>,
    setup: &Setup,
    name: &str,
) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    for (slot, field) in SETUP_FIELDS.into_iter().enumerate() {
        let given = held(record, slot);
        let Some(holds) = setup.holding_at(slot) else {
            if given.is_some() {
                errors.push(FieldError::new(
                    format!("/{field}"),
                    format!(
                        "{name}'s record holds {}: leave {field} out",
                        setup.describe()
                    ),
                ));
            }
            continue;
        };
        let n = given.unwrap_or(0);
        let (min, max) = match holds.count {
            Count::Between(min, max) => (min, max),
            // The cut card lies within the shoe.
            Count::Rest { at_least } if holds.part == Part::CutCard => (at_least, setup.pack.len()),
            // What the pack leaves once every other card listed is counted.
            Count::Rest { at_least } => (
                at_least,
                setup.pack.len().saturating_sub(cards_listed(record) - n),
            ),
        };
        if !(min..=max).contains(&n) {
            let bounds = if min == max {
                min.to_string()
            } else {
                format!("{min} to {max}")
            };
            let unit = match field {
                "deals" => "deals",
                "cut_card" => "as a position",
                _ => "cards",
            };
            errors.push(FieldError::new(
                format!("/{field}"),
                format!(
                    "in {name}, {field} holds {}: {bounds} {unit} here, not {n}",
                    holds.what
                ),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The dealt cards of every seat, once checked: sets of distinct cards, or multisets (`CardCounts`)
/// for a pack with copies.
pub struct Dealt<H: Holding = CardSet> {
    pub hands: [H; MAX_PLAYS],
    pub all: H,
}

/// Every seat of `table` present and no other, every card from `pack` (a pack of distinct cards).
pub fn check_cards<V: Verbs>(
    record: &HandRecord<V>,
    table: Table,
    pack: &Pack,
) -> Result<Dealt, Vec<FieldError>> {
    check_holdings(record, table, pack)
}

/// Every seat of `table` present and no other, every card from `pack`, no card more often than the
/// pack has it.
pub fn check_holdings<H: Holding, V: Verbs>(
    record: &HandRecord<V>,
    table: Table,
    pack: &Pack,
) -> Result<Dealt<H>, Vec<FieldError>> {
    let mut errors = Vec::new();
    if table.resolve(record.dealer).is_none() {
        errors.push(FieldError::new(
            "/dealer".into(),
            format!(
                "'{}' is not a seat here: expected {}",
                record.dealer,
                table.names()
            ),
        ));
    }
    for seat in record.players.keys() {
        if table.resolve(*seat).is_none() {
            errors.push(FieldError::new(
                format!("/players/{seat}"),
                format!("no seat {seat} at this table: expected {}", table.names()),
            ));
        }
    }
    let mut hands = [H::default(); MAX_PLAYS];
    let mut all = H::default();
    let mut seen = [false; MAX_PLAYS];
    for (seat, cards) in &record.deal {
        let Some(at) = table.resolve(*seat) else {
            errors.push(FieldError::new(
                format!("/deal/{seat}"),
                format!("no seat {seat} at this table: expected {}", table.names()),
            ));
            continue;
        };
        // `P1` and `N` name the same seat at a four-player table: one hand per seat.
        if std::mem::replace(&mut seen[at.pos()], true) {
            errors.push(FieldError::new(
                format!("/deal/{seat}"),
                format!("seat {at} is given two hands (as {seat} and under another name)"),
            ));
            continue;
        }
        if let Some(hand) = H::deal_regular(cards, pack, &mut all) {
            hands[at.pos()] = hand;
            continue;
        }
        for (i, &card) in cards.iter().enumerate() {
            // In the pack, with a copy not yet dealt: the usual case, tested first.
            let copies = pack.count(card);
            if copies > all.count(card) {
                all.insert(card);
                hands[at.pos()].insert(card);
                continue;
            }
            let refusal = match copies {
                0 => format!("{card} is not in the {}", pack.name),
                1 => format!(
                    "{card} is dealt twice (first at {})",
                    first_place(record, card)
                ),
                _ => format!(
                    "{card} is dealt more often than the {copies} copies of the {}",
                    pack.name
                ),
            };
            errors.push(FieldError::new(format!("/deal/{seat}/{i}"), refusal));
        }
    }
    for seat in table.seats() {
        if !seen[seat.pos()] {
            errors.push(FieldError::new(
                "/deal".into(),
                format!("the deal has no hand for seat {seat}"),
            ));
        }
    }
    if errors.is_empty() {
        Ok(Dealt { hands, all })
    } else {
        Err(errors)
    }
}

/// Pointer to the first place `card` is dealt (only needed to explain a duplicate).
fn first_place<V: Verbs>(record: &HandRecord<V>, card: Card) -> String {
    record
        .deal
        .iter()
        .find_map(|(seat, cards)| {
            cards
                .iter()
                .position(|&c| c == card)
                .map(|i| format!("/deal/{seat}/{i}"))
        })
        .unwrap_or_default()
}

/// The whole pack was dealt (a missing card would be a wrong total).
pub fn check_whole_pack<H: Holding>(dealt: &Dealt<H>, pack: &Pack) -> Result<(), Vec<FieldError>> {
    // Every card was counted against its copies in the pack as it was dealt, so the same total
    // means the whole pack; the missing cards are only listed for the refusal.
    if dealt.all.len() == pack.len() {
        return Ok(());
    }
    let list: Vec<_> = pack
        .cards
        .iter()
        .flat_map(|c| {
            let missing = pack.count(c).saturating_sub(dealt.all.count(c));
            std::iter::repeat_n(c, missing as usize)
        })
        .map(|c| c.to_string())
        .collect();
    Err(vec![FieldError::new(
        "/deal".into(),
        format!(
            "the deal must use the whole {} ({} cards); missing: {}",
            pack.name,
            pack.len(),
            list.join(" ")
        ),
    )])
}

/// Each seat was dealt the cards `size` gives it (the dealer's own number where the game deals him
/// more). A dealer not at the table is refused by `check_holdings`; where the sizes depend on him,
/// the counts are then left unchecked.
pub fn check_counts<V: Verbs>(
    record: &HandRecord<V>,
    table: Table,
    size: impl Into<HandSize>,
) -> Result<(), Vec<FieldError>> {
    let size = size.into();
    let dealer = match (table.resolve(record.dealer), size) {
        (Some(dealer), _) => dealer,
        (None, HandSize::Each(_)) => table.seat(0),
        (None, HandSize::Dealer { .. }) => return Ok(()),
    };
    let mut errors = Vec::new();
    for (s, cards) in &record.deal {
        let Some(seat) = table.resolve(*s) else {
            continue;
        };
        if cards.len() != size.of(seat, dealer) {
            errors.push(FieldError::new(
                format!("/deal/{s}"),
                format!(
                    "{s} was dealt {} cards; expected {}",
                    cards.len(),
                    size.expected(seat, dealer)
                ),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Exactly one face-up card, and it was dealt to `dealer`.
pub fn dealer_face_up<H: Holding, V: Verbs>(
    record: &HandRecord<V>,
    dealt: &Dealt<H>,
    dealer: Seat,
    what: &str,
) -> Result<Card, Vec<FieldError>> {
    match record.face_up.as_slice() {
        [card] if dealt.hands[dealer.pos()].contains(*card) => Ok(*card),
        [card] => Err(vec![FieldError::new(
            "/face_up/0".into(),
            format!("{what} {card} must be one of the dealer's ({dealer}) dealt cards"),
        )]),
        _ => Err(vec![FieldError::new(
            "/face_up".into(),
            format!("expected exactly one face-up card: {what}"),
        )]),
    }
}

/// Cards outside the seats' hands (`field` = `stock`, `second_stock` or `face_up`): each from `pack` and not dealt
/// elsewhere. They join `dealt.all`, so `check_whole_pack` sees them.
pub fn check_undealt<H: Holding>(
    cards: &[Card],
    field: &str,
    pack: &Pack,
    dealt: &mut Dealt<H>,
) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    for (i, &card) in cards.iter().enumerate() {
        if pack.count(card) == 0 {
            errors.push(FieldError::new(
                format!("/{field}/{i}"),
                format!("{card} is not in the {}", pack.name),
            ));
        } else if dealt.all.count(card) >= pack.count(card) {
            errors.push(FieldError::new(
                format!("/{field}/{i}"),
                format!("{card} is given more often than the pack has it: it is also dealt or listed earlier"),
            ));
        } else {
            dealt.all.insert(card);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::packs;

    const STOCK: &[Holds] = &[Holds {
        part: Part::Stock,
        what: "the stock in order",
        count: Count::Rest { at_least: 1 },
    }];

    const SHOE: &[Holds] = &[
        Holds {
            part: Part::Shoe,
            what: "the shoe",
            count: Count::Rest { at_least: 1 },
        },
        Holds {
            part: Part::CutCard,
            what: "the cut card's position",
            count: Count::Rest { at_least: 1 },
        },
    ];

    fn record(v: serde_json::Value) -> HandRecord {
        serde_json::from_value(v).unwrap()
    }

    fn pointers(r: Result<(), Vec<FieldError>>) -> Vec<String> {
        r.err()
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.pointer)
            .collect()
    }

    #[test]
    fn a_part_the_game_does_not_declare_is_refused_naming_what_it_holds() {
        let setup = Setup {
            pack: packs::latin40(),
            hand: HandSize::Each(10),
            counted_by: None,
            parts: &[],
        };
        let r = record(serde_json::json!({
            "dealer": "N", "deal": {}, "stock": ["AS"], "shoe": ["KS"], "cut_card": 0,
            "deals": [{"N": ["QS"]}]
        }));
        let errors = check_setup(&r, &setup, "Malilla").unwrap_err();
        let at: Vec<_> = errors.iter().map(|e| e.pointer.as_str()).collect();
        assert_eq!(at, ["/stock", "/shoe", "/cut_card", "/deals"]);
        assert!(
            errors[0]
                .detail
                .contains("Malilla's record holds the deal only")
        );
        let setup = Setup {
            parts: STOCK,
            ..setup
        };
        let r = record(serde_json::json!({"dealer": "N", "deal": {}, "face_up": ["AS"]}));
        let errors = check_setup(&r, &setup, "Bacon").unwrap_err();
        assert_eq!(errors[0].pointer, "/face_up");
        assert!(
            errors[0]
                .detail
                .contains("the deal and stock (the stock in order)"),
            "{}",
            errors[0].detail
        );
    }

    #[test]
    fn a_declared_part_is_bounded_by_the_pack() {
        // Hand and Foot's 270 cards, 4 x 11 dealt: a stock of the other 226 fits, one more does not.
        let setup = Setup {
            pack: packs::hand_and_foot270(),
            hand: HandSize::Each(11),
            counted_by: None,
            parts: STOCK,
        };
        let pack: Vec<Card> = setup
            .pack
            .cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c, setup.pack.count(c) as usize))
            .collect();
        let deal = |n: usize| {
            serde_json::json!({"N": pack[..n], "E": pack[n..2 * n], "S": pack[2 * n..3 * n],
                               "W": pack[3 * n..4 * n]})
        };
        let whole =
            record(serde_json::json!({"dealer": "N", "deal": deal(11), "stock": pack[44..]}));
        assert_eq!(whole.stock.len(), 226);
        assert!(check_setup(&whole, &setup, "Hand and Foot").is_ok());
        let over =
            record(serde_json::json!({"dealer": "N", "deal": deal(11), "stock": pack[43..]}));
        assert_eq!(
            pointers(check_setup(&over, &setup, "Hand and Foot")),
            ["/stock"]
        );
        let none = record(serde_json::json!({"dealer": "N", "deal": deal(11)}));
        assert_eq!(
            pointers(check_setup(&none, &setup, "Hand and Foot")),
            ["/stock"]
        );
        // A six-pack shoe of 312 cards and its cut card within it; the cut card is required.
        let shoe = packs::standard52().times(6, "six 52-card packs");
        let setup = Setup {
            pack: shoe,
            hand: HandSize::Each(0),
            counted_by: None,
            parts: SHOE,
        };
        let cards: Vec<Card> = shoe
            .cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c, 6))
            .collect();
        let r =
            record(serde_json::json!({"dealer": "N", "deal": {}, "shoe": cards, "cut_card": 250}));
        assert!(check_setup(&r, &setup, "Trente et Quarante").is_ok());
        let r =
            record(serde_json::json!({"dealer": "N", "deal": {}, "shoe": cards, "cut_card": 313}));
        assert_eq!(
            pointers(check_setup(&r, &setup, "Trente et Quarante")),
            ["/cut_card"]
        );
        let r = record(serde_json::json!({"dealer": "N", "deal": {}, "shoe": cards}));
        assert_eq!(
            pointers(check_setup(&r, &setup, "Trente et Quarante")),
            ["/cut_card"]
        );
    }

    #[test]
    fn the_dealer_may_be_dealt_his_own_number() {
        // Tong-Its: the dealer 13 cards, the two others 12 (tong-its.md §1).
        let size = HandSize::Dealer {
            dealer: 13,
            others: 12,
        };
        let table = Table::solo(3);
        let pack: Vec<Card> = packs::standard52().cards.iter().collect();
        let deal = |p1: usize, p2: usize, p3: usize| {
            record(serde_json::json!({"dealer": "P2", "deal": {
                "P1": pack[..p1], "P2": pack[p1..p1 + p2], "P3": pack[p1 + p2..p1 + p2 + p3]}}))
        };
        assert!(check_counts(&deal(12, 13, 12), table, size).is_ok());
        let errors = check_counts(&deal(13, 12, 12), table, size).unwrap_err();
        let at: Vec<_> = errors.iter().map(|e| e.pointer.as_str()).collect();
        assert_eq!(at, ["/deal/P1", "/deal/P2"]);
        assert!(
            errors[0]
                .detail
                .contains("expected 12 (a seat not dealing)")
        );
        assert!(errors[1].detail.contains("expected 13 (the dealer)"));
        // The same number to every seat, as before.
        assert_eq!(
            pointers(check_counts(&deal(12, 13, 12), table, 12)),
            ["/deal/P2"]
        );
    }

    #[test]
    fn a_second_stock_is_its_own_part_bounded_with_the_first() {
        const TWO: &[Holds] = &[
            Holds {
                part: Part::Stock,
                what: "the first stock",
                count: Count::Rest { at_least: 1 },
            },
            Holds {
                part: Part::SecondStock,
                what: "the second stock",
                count: Count::Rest { at_least: 1 },
            },
        ];
        let setup = Setup {
            pack: packs::standard52(),
            hand: HandSize::Each(0),
            counted_by: None,
            parts: TWO,
        };
        let pack: Vec<Card> = setup.pack.cards.iter().collect();
        let split = |at: usize, end: usize| {
            record(serde_json::json!({"dealer": "N", "deal": {},
                                      "stock": pack[..at], "second_stock": pack[at..end]}))
        };
        assert_eq!(split(26, 52).second_stock.len(), 26);
        assert!(check_setup(&split(26, 52), &setup, "Hand and Foot").is_ok());
        assert_eq!(
            pointers(check_setup(&split(52, 52), &setup, "Hand and Foot")),
            ["/second_stock"]
        );
        // Both stocks together are bounded by the pack: one card over it is refused in each.
        let mut over = split(26, 52);
        over.stock.push(pack[40]);
        assert_eq!(
            pointers(check_setup(&over, &setup, "Hand and Foot")),
            ["/stock", "/second_stock"]
        );
        // A game with one stock refuses a second, naming what its record holds.
        let one = Setup {
            parts: STOCK,
            ..setup
        };
        let errors = check_setup(&split(26, 52), &one, "Briscola").unwrap_err();
        assert_eq!(errors[0].pointer, "/second_stock");
        assert!(errors[0].detail.contains("the deal and stock"));
        // The whole pack counts the second stock's cards.
        let mut dealt = Dealt::<CardSet> {
            hands: [CardSet::EMPTY; MAX_PLAYS],
            all: CardSet::EMPTY,
        };
        let r = split(26, 52);
        check_undealt(&r.stock, "stock", &setup.pack, &mut dealt).unwrap();
        check_undealt(&r.second_stock, "second_stock", &setup.pack, &mut dealt).unwrap();
        assert!(check_whole_pack(&dealt, &setup.pack).is_ok());
        assert_eq!(
            pointers(check_undealt(
                &r.stock[..1],
                "second_stock",
                &setup.pack,
                &mut dealt
            )),
            ["/second_stock/0"]
        );
    }

    #[test]
    fn a_seat_named_twice_is_refused() {
        let record: HandRecord = serde_json::from_value(serde_json::json!({
            "dealer": "N",
            "deal": {"N": ["AS"], "P1": ["KS"], "E": ["QS"], "S": ["JS"], "W": ["TS"]}
        }))
        .unwrap();
        let errors = check_cards(&record, Table::FOUR, &packs::euchre24())
            .err()
            .expect("refused");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].pointer, "/deal/P1");
    }
}
