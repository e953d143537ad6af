//! What the rummy games share (Tong-Its, Zetema, Hand and Foot): melds judged as sets of one rank
//! and runs of consecutive ranks, with wild cards where a game has them; the face-up discard pile;
//! and the least deadwood a hand leaves once arranged into melds. Each game says which shapes are
//! its melds (their lengths, the ace's place, how many wild cards) and scores them; this module
//! only judges the shapes.
//!
//! And the turns (`Turns`): whose turn it is and its phase (draw; meld, lay off, discard), the
//! face-down stocks and the discard piles, the hands and what each seat has given up (README C12),
//! the melds on the table with what was laid off onto them. The game judges what a meld or a
//! lay-off must be and what a turn may do; `Turns` keeps the table and reports the record's
//! faults every rummy game shares.

use super::play::give_up;
use super::{Locus, MatchState, RecordError, Stock, TableView};
use crate::cards::{Card, CardSet, Holding, Rank, Suit};
use crate::record::{Action, Verbs};
use crate::seat::{Seat, Table};
use serde::Serialize;
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
pub const RANKS: [Rank; 13] = [
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

/// The phase of a rummy turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The seat to act must draw first.
    Draw,
    /// The seat has drawn: it may meld and lay off, and must discard (or go out) to end its turn.
    Play,
    /// The hand is over: nothing is due.
    Over,
}

impl Phase {
    /// The phase in a table view's words.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Draw => "draw",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// A meld on the table: the seat it belongs to, and its cards in the order laid, each with the
/// seat that laid it (a lay-off by another seat stays that seat's card, Tong-Its §4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Meld {
    pub owner: Seat,
    pub cards: Vec<Card>,
    /// Who laid each card of `cards`, in the same order.
    pub laid_by: Vec<Seat>,
    /// Laid face down (Tong-Its' concealed four of a kind): nothing may be laid off onto it.
    pub face_down: bool,
}

impl Meld {
    /// The cards `seat` laid in it.
    pub fn laid_by(&self, seat: Seat) -> impl Iterator<Item = Card> + '_ {
        self.cards
            .iter()
            .zip(&self.laid_by)
            .filter(move |(_, by)| **by == seat)
            .map(|(c, _)| *c)
    }
}

/// The table of a rummy hand and its turns: the hands, what each seat has given up, the stocks,
/// the discard piles, the melds laid, and whose turn it is in which phase.
#[derive(Clone, Debug)]
pub struct Turns<H: Holding = CardSet> {
    pub table: Table,
    /// Cards each seat holds now, by seat position.
    pub hands: [H; super::MAX_PLAYS],
    /// Cards each seat has melded, laid off or discarded (README C12: naming one again is
    /// `card_played_twice`).
    given_up: [H; super::MAX_PLAYS],
    /// The face-down stocks, in the record's order (`stock`, then `second_stock`).
    pub stocks: Vec<Stock>,
    /// The face-up discard piles (one in most games; Zetema's rank piles and wastepile).
    pub piles: Vec<DiscardPile>,
    /// The melds on the table, in the order laid (a game's `target_meld` counts in it).
    pub melds: Vec<Meld>,
    to_act: Seat,
    phase: Phase,
}

impl<H: Holding> Turns<H> {
    /// The dealt `hands` (by seat position), the `stocks` top card first, `piles` discard piles
    /// (each bottom first); `first` acts first, in `phase` (Tong-Its' dealer starts with `Play`:
    /// his first turn has no draw).
    pub fn new(
        table: Table,
        hands: [H; super::MAX_PLAYS],
        stocks: &[&[Card]],
        piles: usize,
        first: Seat,
        phase: Phase,
    ) -> Turns<H> {
        Turns {
            table,
            hands,
            given_up: [H::default(); super::MAX_PLAYS],
            stocks: stocks.iter().map(|s| Stock::new(s, None)).collect(),
            piles: vec![DiscardPile::default(); piles],
            melds: Vec::new(),
            to_act: first,
            phase,
        }
    }

    pub fn to_act(&self) -> Seat {
        self.to_act
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn hand(&self, seat: Seat) -> H {
        self.hands[seat.pos()]
    }

    /// README C12: action `index` must come from the seat to act (`out_of_turn`) in `phase`
    /// (`unexpected_action`, `expected` saying what is due); after the hand, `action_after_end`
    /// (`over` saying how it ended). A `correct` is `invalid_correct`: nothing in a rummy game is
    /// corrected.
    pub fn expect<V: Verbs>(
        &self,
        index: usize,
        action: &Action<V>,
        phase: Phase,
        expected: &str,
    ) -> Result<(), RecordError> {
        self.expect_seat(index, action, self.to_act, phase, expected)
    }

    /// `expect`, with `seat` due instead of the seat whose turn it is (a response to a call).
    pub fn expect_seat<V: Verbs>(
        &self,
        index: usize,
        action: &Action<V>,
        seat: Seat,
        phase: Phase,
        expected: &str,
    ) -> Result<(), RecordError> {
        if self.phase == Phase::Over {
            return Err(RecordError::after_end(
                index,
                action,
                &format!("the hand is over: {expected}"),
            ));
        }
        if action.seat == seat && self.phase == phase && action.kind.verb() != "correct" {
            return Ok(());
        }
        let due = match self.phase {
            Phase::Draw => format!("{seat} is to draw"),
            Phase::Play => format!("{seat} is to meld, lay off or discard"),
            Phase::Over => unreachable!("checked above"),
        };
        Err(RecordError::out_of_phase(
            index,
            action,
            seat,
            &format!("{due} ({expected})"),
        ))
    }

    /// Draws the next card of stock `stock` into `seat`'s hand: `None` when that stock is empty
    /// (the game says what that means). A record that names the card (`named`, at `field` of
    /// action `index`) must name the stock's next card: another is `wrong_draw` (README C14).
    /// The draw moves the turn to its `Play` phase.
    pub fn draw(
        &mut self,
        (index, seat, field): (usize, Seat, &str),
        stock: usize,
        named: Option<Card>,
    ) -> Result<Option<Card>, RecordError> {
        let Some(top) = self.stocks[stock].top() else {
            return Ok(None);
        };
        check_named(index, seat, field, top, named, "the stock's next card")?;
        self.stocks[stock].draw();
        self.hands[seat.pos()].insert(top);
        self.phase = Phase::Play;
        Ok(Some(top))
    }

    /// Takes the top `n` cards of discard pile `pile` (all where fewer lie) into `seat`'s hand,
    /// the top card first; `None` when the pile is empty. A named card (`named`) must be the top
    /// card: another is `wrong_draw`. The draw moves the turn to its `Play` phase.
    pub fn take_from_pile(
        &mut self,
        (index, seat, field): (usize, Seat, &str),
        pile: usize,
        n: usize,
        named: Option<Card>,
    ) -> Result<Option<Vec<Card>>, RecordError> {
        let Some(top) = self.piles[pile].top() else {
            return Ok(None);
        };
        check_named(index, seat, field, top, named, "the top discard")?;
        let taken = self.piles[pile].take(n);
        for &card in &taken {
            self.hands[seat.pos()].insert(card);
        }
        self.phase = Phase::Play;
        Ok(Some(taken))
    }

    /// `seat` gives up `cards` (named at `field/0`, `field/1`, … of action `index`): each must be
    /// in his hand (README C12: one he gave up earlier, or names twice, is `card_played_twice`,
    /// one he never held `card_not_held`). Nothing leaves the hand unless all may.
    pub fn give_up(&mut self, at: (usize, Seat, &str), cards: &[Card]) -> Result<(), RecordError> {
        let p = at.1.pos();
        (self.hands[p], self.given_up[p]) = self.after_giving_up(at, cards)?;
        Ok(())
    }

    /// `give_up`'s check alone: the seat's hand and what he has given up as they would be after
    /// it, the table unchanged (a game that judges the cards before they leave the hand).
    pub fn after_giving_up(
        &self,
        (index, seat, field): (usize, Seat, &str),
        cards: &[Card],
    ) -> Result<(H, H), RecordError> {
        self.after_giving_up_all(index, seat, [(field, cards)])
    }

    /// `after_giving_up` of several lists of cards in turn, each list's cards named at
    /// `field/0`, `field/1`, …: the lists are counted together, so a card named in two of them
    /// must be held twice.
    pub fn after_giving_up_all<'c, F: std::fmt::Display>(
        &self,
        index: usize,
        seat: Seat,
        lists: impl IntoIterator<Item = (F, &'c [Card])>,
    ) -> Result<(H, H), RecordError> {
        let p = seat.pos();
        let (mut hand, mut given_up) = (self.hands[p], self.given_up[p]);
        for (field, cards) in lists {
            for (j, &card) in cards.iter().enumerate() {
                let at = (index, seat, format_args!("{field}/{j}"));
                give_up(&mut hand, &mut given_up, at, card)?;
            }
        }
        Ok((hand, given_up))
    }

    /// Checks that `seat` holds each of `cards`, each named at its own field of action `index`
    /// (written only in an error), without giving any up: a meld shown and kept in hand (Zetema),
    /// or cards that leave only once the game has judged the declaration. The codes are
    /// `give_up`'s (README C12).
    pub fn check_holds<F: std::fmt::Display>(
        &self,
        index: usize,
        seat: Seat,
        cards: impl IntoIterator<Item = (Card, F)>,
    ) -> Result<(), RecordError> {
        let p = seat.pos();
        let (mut hand, mut given_up) = (self.hands[p], self.given_up[p]);
        for (card, field) in cards {
            give_up(&mut hand, &mut given_up, (index, seat, field), card)?;
        }
        Ok(())
    }

    /// Lays `cards` from `seat`'s hand on the table as a new meld of his (the game has judged
    /// them): `give_up`, then the meld's place in `melds`.
    pub fn meld(
        &mut self,
        at: (usize, Seat, &str),
        cards: &[Card],
        face_down: bool,
    ) -> Result<usize, RecordError> {
        self.give_up(at, cards)?;
        let seat = at.1;
        self.melds.push(Meld {
            owner: seat,
            cards: cards.to_vec(),
            laid_by: vec![seat; cards.len()],
            face_down,
        });
        Ok(self.melds.len() - 1)
    }

    /// Lays `card` from `seat`'s hand off onto meld `meld` (the game has judged that it fits).
    pub fn lay_off(
        &mut self,
        at: (usize, Seat, impl std::fmt::Display),
        card: Card,
        meld: usize,
    ) -> Result<(), RecordError> {
        let seat = at.1;
        give_up(
            &mut self.hands[seat.pos()],
            &mut self.given_up[seat.pos()],
            at,
            card,
        )?;
        self.melds[meld].cards.push(card);
        self.melds[meld].laid_by.push(seat);
        Ok(())
    }

    /// `seat` discards `card` onto pile `pile`.
    pub fn discard(
        &mut self,
        at: (usize, Seat, &str),
        card: Card,
        pile: usize,
    ) -> Result<(), RecordError> {
        let p = at.1.pos();
        give_up(&mut self.hands[p], &mut self.given_up[p], at, card)?;
        self.piles[pile].lay(card);
        Ok(())
    }

    /// The turn passes to `seat`, which starts it in `phase`.
    pub fn pass_to(&mut self, seat: Seat, phase: Phase) {
        self.to_act = seat;
        self.phase = phase;
    }

    /// The turn passes to the next seat in the direction of play, which must draw.
    pub fn next_turn(&mut self) {
        self.pass_to(self.table.next(self.to_act), Phase::Draw);
    }

    /// The hand is over: nothing more is due.
    pub fn end(&mut self) {
        self.phase = Phase::Over;
    }

    /// The melds `seat` owns.
    pub fn melds_of(&self, seat: Seat) -> impl Iterator<Item = &Meld> {
        self.melds.iter().filter(move |m| m.owner == seat)
    }

    /// Where the hand stands, as `view` shows it: a seat is to act until the hand is over.
    pub fn locus(&self) -> Locus {
        Locus::of_turns(self.phase == Phase::Over)
    }

    /// The view of the table: every hand, the seat to act (none once over) in the turn's phase.
    pub fn view(&self, match_state: &MatchState) -> TableView {
        let to_act = match self.phase {
            Phase::Over => Vec::new(),
            _ => vec![self.to_act],
        };
        TableView::turns(
            self.phase.name(),
            to_act,
            self.table.seats().map(|s| (s, self.hand(s).to_vec())),
            match_state,
        )
    }
}

/// A recorded card (`named`) must be `due`: else `wrong_draw` (README C14).
fn check_named(
    index: usize,
    seat: Seat,
    field: &str,
    due: Card,
    named: Option<Card>,
    what: &str,
) -> Result<(), RecordError> {
    match named {
        Some(card) if card != due => Err(RecordError::at(
            "wrong_draw",
            index,
            seat,
            field,
            format!("{seat} drew {card}, but {what} is {due}"),
        )),
        _ => Ok(()),
    }
}

/// The value of `cards` by the game's `value` (a meld's score, a hand's deadwood).
pub fn value_of(cards: impl IntoIterator<Item = Card>, value: impl Fn(Card) -> u32) -> u32 {
    cards.into_iter().map(value).sum()
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

    crate::verbs! {
        /// A test rummy game's verbs.
        enum Verb in "Test" {
            Draw(crate::record::Yes) = "draw": "A draw.",
            Discard(Card) = "discard": "A discard.",
            Correct(Card) = "correct": "A correction.",
        }
    }

    fn act(seat: Seat, kind: Verb) -> Action<Verb> {
        Action { seat, kind }
    }

    /// Three seats; P1 holds 4S 5S 6S 9D, P2 holds KH KD KC, P3 nothing; stock 2C 3C; one pile.
    fn turns() -> (Turns, [Seat; 3]) {
        let table = Table::solo(3);
        let seats = [table.seat(0), table.seat(1), table.seat(2)];
        let mut hands = [CardSet::EMPTY; crate::engine::MAX_PLAYS];
        hands[0] = CardSet::of(&cards("4S 5S 6S 9D"));
        hands[1] = CardSet::of(&cards("KH KD KC"));
        let stock = cards("2C 3C");
        let t = Turns::new(table, hands, &[&stock], 1, seats[0], Phase::Draw);
        (t, seats)
    }

    #[test]
    fn an_action_out_of_turn_or_out_of_phase_has_the_shared_codes() {
        let (mut t, [p1, p2, _]) = turns();
        let draw = |s| act(s, Verb::Draw(crate::record::Yes));
        let discard = |s| act(s, Verb::Discard(cards("9D")[0]));
        let code = |r: Result<(), RecordError>| r.unwrap_err().code;
        assert!(t.expect(0, &draw(p1), Phase::Draw, "a draw").is_ok());
        // The wrong seat first (C12), whatever its verb; the right seat in the wrong phase.
        assert_eq!(code(t.expect(0, &draw(p2), Phase::Draw, "")), "out_of_turn");
        assert_eq!(
            code(t.expect(0, &discard(p1), Phase::Play, "")),
            "unexpected_action"
        );
        assert_eq!(
            code(t.expect(0, &act(p1, Verb::Correct(cards("9D")[0])), Phase::Draw, "")),
            "invalid_correct"
        );
        // A response due from another seat than the one whose turn it is.
        assert!(t.expect_seat(0, &draw(p2), p2, Phase::Draw, "").is_ok());
        t.end();
        assert_eq!(
            code(t.expect(0, &draw(p1), Phase::Draw, "")),
            "action_after_end"
        );
    }

    #[test]
    fn a_draw_takes_the_stocks_next_card_and_checks_the_one_named() {
        let (mut t, [p1, p2, _]) = turns();
        let err = t
            .draw((0, p1, "draw"), 0, Some(cards("3C")[0]))
            .unwrap_err();
        assert_eq!(
            (err.code, err.pointer.as_str()),
            ("wrong_draw", "/actions/0/draw")
        );
        assert_eq!(
            t.draw((0, p1, "draw"), 0, None).unwrap(),
            Some(cards("2C")[0])
        );
        assert_eq!(t.phase(), Phase::Play);
        assert!(t.hand(p1).contains(cards("2C")[0]));
        t.next_turn();
        assert_eq!((t.to_act(), t.phase()), (p2, Phase::Draw));
        assert_eq!(
            t.draw((1, p2, "draw"), 0, Some(cards("3C")[0])).unwrap(),
            Some(cards("3C")[0])
        );
        // An empty stock is reported, not drawn from, and the phase stays.
        t.pass_to(p2, Phase::Draw);
        assert_eq!(t.draw((2, p2, "draw"), 0, None).unwrap(), None);
        assert_eq!(t.phase(), Phase::Draw);
    }

    #[test]
    fn cards_given_up_are_played_twice_and_cards_never_held_are_not_held() {
        let (mut t, [p1, p2, _]) = turns();
        t.pass_to(p1, Phase::Play);
        let meld = t
            .meld((0, p1, "meld/cards"), &cards("4S 5S 6S"), false)
            .unwrap();
        assert_eq!(meld, 0);
        t.discard((1, p1, "discard"), cards("9D")[0], 0).unwrap();
        assert_eq!(t.piles[0].top(), Some(cards("9D")[0]));
        let err = t
            .discard((2, p1, "discard"), cards("5S")[0], 0)
            .unwrap_err();
        assert_eq!(err.code, "card_played_twice");
        let err = t
            .discard((2, p1, "discard"), cards("KH")[0], 0)
            .unwrap_err();
        assert_eq!(err.code, "card_not_held");
        // A meld with one card not held takes nothing from the hand; the pointer names the card.
        let err = t
            .meld((3, p2, "meld/cards"), &cards("KH KD KS"), false)
            .unwrap_err();
        assert_eq!(
            (err.code, err.pointer.as_str()),
            ("card_not_held", "/actions/3/meld/cards/2")
        );
        assert_eq!(t.hand(p2).len(), 3);
        // A card named twice in one meld is played twice.
        let err = t
            .meld((3, p2, "meld/cards"), &cards("KH KD KH"), false)
            .unwrap_err();
        assert_eq!(err.code, "card_played_twice");
    }

    #[test]
    fn a_lay_off_stays_the_card_of_the_seat_that_laid_it() {
        let (mut t, [p1, p2, _]) = turns();
        t.hands[1].insert(cards("7S")[0]);
        t.meld((0, p1, "meld/cards"), &cards("4S 5S 6S"), false)
            .unwrap();
        t.lay_off((1, p2, "lay_off/card"), cards("7S")[0], 0)
            .unwrap();
        let meld = &t.melds[0];
        assert_eq!(meld.cards, cards("4S 5S 6S 7S"));
        assert_eq!(meld.laid_by(p1).collect::<Vec<_>>(), cards("4S 5S 6S"));
        assert_eq!(meld.laid_by(p2).collect::<Vec<_>>(), cards("7S"));
        assert_eq!(t.melds_of(p1).count(), 1);
        assert_eq!(t.melds_of(p2).count(), 0);
        assert_eq!(value_of(meld.cards.iter().copied(), pips), 22);
        // A card laid off from a list names its place in the list.
        let err = t
            .lay_off((2, p2, format_args!("meld/cards/{}", 1)), cards("8S")[0], 0)
            .unwrap_err();
        assert_eq!(
            (err.code, err.pointer.as_str()),
            ("card_not_held", "/actions/2/meld/cards/1")
        );
    }

    /// `give_up`'s check alone, for a game that judges the cards before they leave the hand.
    #[test]
    fn cards_given_up_are_checked_without_changing_the_table() {
        let (t, [p1, _, _]) = turns();
        let before = (t.hand(p1), t.given_up[p1.pos()]);
        let (hand, given_up) = t
            .after_giving_up((0, p1, "meld/cards"), &cards("4S 5S"))
            .unwrap();
        assert_eq!((hand.len(), given_up.len()), (before.0.len() - 2, 2));
        assert_eq!((t.hand(p1), t.given_up[p1.pos()]), before);
        let err = t
            .after_giving_up((0, p1, "meld/cards"), &cards("4S 4S"))
            .unwrap_err();
        assert_eq!(
            (err.code, err.pointer.as_str()),
            ("card_played_twice", "/actions/0/meld/cards/1")
        );
    }

    #[test]
    fn a_pile_gives_its_top_cards_to_the_hand_and_checks_the_one_named() {
        let (mut t, [p1, _, _]) = turns();
        t.piles[0] = DiscardPile::new(&cards("8H 9H TH"));
        let err = t
            .take_from_pile((0, p1, "draw"), 0, 1, Some(cards("9H")[0]))
            .unwrap_err();
        assert_eq!(err.code, "wrong_draw");
        assert_eq!(
            t.take_from_pile((0, p1, "draw"), 0, 2, Some(cards("TH")[0]))
                .unwrap(),
            Some(cards("TH 9H"))
        );
        assert_eq!(t.phase(), Phase::Play);
        assert!(t.hand(p1).contains(cards("9H")[0]));
        t.piles[0] = DiscardPile::default();
        assert_eq!(t.take_from_pile((1, p1, "draw"), 0, 1, None).unwrap(), None);
    }

    #[test]
    fn hands_with_copies_give_up_each_copy_once() {
        use crate::cards::CardCounts;
        let table = Table::FOUR;
        let mut hands = [CardCounts::default(); crate::engine::MAX_PLAYS];
        hands[0].add(cards("KH")[0], 2);
        let mut t = Turns::new(table, hands, &[&[], &[]], 1, Seat::N, Phase::Play);
        assert_eq!(t.stocks.len(), 2);
        t.meld((0, Seat::N, "meld"), &cards("KH KH"), false)
            .unwrap();
        let err = t
            .discard((1, Seat::N, "discard"), cards("KH")[0], 0)
            .unwrap_err();
        assert_eq!(err.code, "card_played_twice");
    }

    /// A meld shown and kept (Zetema): the cards are checked, and stay in the hand.
    #[test]
    fn cards_held_are_checked_without_leaving_the_hand() {
        use crate::cards::CardCounts;
        let mut hands = [CardCounts::default(); crate::engine::MAX_PLAYS];
        hands[0].add(cards("7H")[0], 2);
        hands[0].add(cards("8S")[0], 1);
        let mut t = Turns::new(Table::FOUR, hands, &[&[]], 1, Seat::N, Phase::Play);
        let at = |c: &str, j: usize| (cards(c)[0], format!("meld/cards/{j}"));
        t.check_holds(0, Seat::N, [at("7H", 0), at("7H", 1), at("8S", 2)])
            .unwrap();
        assert_eq!(t.hand(Seat::N).len(), 3);
        let err = t.check_holds(0, Seat::N, [at("9S", 0)]).unwrap_err();
        assert_eq!(
            (err.code, err.pointer.as_str()),
            ("card_not_held", "/actions/0/meld/cards/0")
        );
        t.discard((1, Seat::N, "discard"), cards("8S")[0], 0)
            .unwrap();
        let err = t.check_holds(2, Seat::N, [at("8S", 0)]).unwrap_err();
        assert_eq!(err.code, "card_played_twice");
        // A third 7H, two being held: named more often than held, as a card named twice.
        let err = t
            .check_holds(3, Seat::N, [at("7H", 0), at("7H", 1), at("7H", 2)])
            .unwrap_err();
        assert_eq!(err.code, "card_played_twice");
    }
}
