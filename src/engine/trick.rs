//! Tricks: the cards played to one trick, in order, and the helpers that decide who wins it.

use super::log::Fault;
use crate::cards::{Card, CardClass, Holding, Rank, Suit, SuitedSet};
use crate::seat::{Seat, Table};
use serde::Serialize;
use utoipa::ToSchema;

/// Most cards one trick can hold (the largest table in the rules is seven).
pub const MAX_PLAYS: usize = 7;

/// One card played (or placed) by a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PlayedCard {
    pub seat: Seat,
    pub card: Card,
    /// Played face down (Truco): it cannot win the trick. Stated on every card of a game where
    /// a card may be played face down (`false` when it was not), absent in the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_down: Option<bool>,
}

impl PlayedCard {
    pub fn new(seat: Seat, card: Card) -> PlayedCard {
        PlayedCard {
            seat,
            card,
            face_down: None,
        }
    }
}

/// The cards of one trick in the order they were played, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Trick {
    pub number: u8,
    pub leader: Seat,
    plays: [PlayedCard; MAX_PLAYS],
    /// The action that put each card on the table (for evidence).
    action_index: [u32; MAX_PLAYS],
    len: u8,
    /// Cards may be played face down in this game (Truco): each card says whether it was.
    face_down_game: bool,
}

impl Trick {
    pub fn new(number: u8, leader: Seat) -> Trick {
        Trick {
            number,
            leader,
            plays: [PlayedCard::new(leader, Card::JOKER); MAX_PLAYS],
            action_index: [0; MAX_PLAYS],
            len: 0,
            face_down_game: false,
        }
    }

    /// The cards `plays` as they lie on the table in trick `number` (the actions that put them
    /// there unknown: a trick shown, not replayed).
    pub fn on_table(number: u8, plays: &[PlayedCard]) -> Trick {
        let mut trick = Trick::new(number, plays.first().map_or(Seat::N, |p| p.seat));
        trick.plays[..plays.len()].copy_from_slice(plays);
        trick.len = plays.len() as u8;
        trick
    }

    /// The next trick after this one, led by `leader`, in the same game.
    pub fn next(&self, leader: Seat) -> Trick {
        Trick {
            face_down_game: self.face_down_game,
            ..Trick::new(self.number + 1, leader)
        }
    }

    /// In this game a card may be played face down (Truco): every card states whether it was.
    pub fn with_face_down(self) -> Trick {
        Trick {
            face_down_game: true,
            ..self
        }
    }

    #[inline]
    pub fn push(&mut self, seat: Seat, card: Card, action_index: usize) {
        let i = self.len as usize;
        self.plays[i] = PlayedCard {
            face_down: self.face_down_game.then_some(false),
            ..PlayedCard::new(seat, card)
        };
        self.action_index[i] = action_index as u32;
        self.len += 1;
    }

    #[inline]
    pub fn plays(&self) -> &[PlayedCard] {
        &self.plays[..self.len as usize]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn led(&self) -> Option<Card> {
        self.plays().first().map(|p| p.card)
    }

    /// The seat that wins by the usual rule (`trump_or_led`): the highest trump if any was played,
    /// else the highest card of the led suit. `None` for an empty trick, or one led by a card with no
    /// suit (a tarot trump, the Fool, a joker: the game rules such a trick itself).
    pub fn trump_or_led_winner(&self, trump: Option<Suit>, order: &RankOrder) -> Option<Seat> {
        let pos = self.trump_or_led_top(trump, order)?;
        Some(self.plays()[pos].seat)
    }

    /// Position of the card `trump_or_led_winner` names. The same ranking as `trump_or_led`, with
    /// no branch on the cards (which card wins is what a predictor cannot guess, and every card of
    /// a trick game asks it): a card's strength is its rank's, with a bit for a trump and one for
    /// the led suit, so a card of neither ranks below the lead and cannot win; a card with no suit
    /// counts 0.
    #[inline]
    pub fn trump_or_led_top(&self, trump: Option<Suit>, order: &RankOrder) -> Option<usize> {
        let led = self.led()?.suit()?;
        let (mut best, mut top) = (0, 0u32);
        for (i, p) in self.plays().iter().enumerate() {
            let suit = p.card.suit();
            let tiers = ((suit == trump) as u32) << 9 | ((suit == Some(led)) as u32) << 8;
            let rank = order.strength(p.card.rank_unchecked()) as u32;
            let s = suit.is_some() as u32 * (tiers | rank);
            best = std::hint::select_unpredictable(s > top, i, best);
            top = top.max(s);
        }
        Some(best)
    }

    /// The seat whose card is due next at `table`: the leader, or the seat after the last card.
    #[inline]
    pub fn next_seat(&self, table: Table) -> Seat {
        self.plays()
            .last()
            .map_or(self.leader, |p| table.next(p.seat))
    }

    /// Position in the trick of `seat`'s card, if it has played.
    pub fn position_of(&self, seat: Seat) -> Option<usize> {
        self.plays().iter().position(|p| p.seat == seat)
    }

    #[inline]
    pub fn action_index(&self, pos: usize) -> usize {
        self.action_index[pos] as usize
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len as u8);
    }

    /// Puts `card` in place of the card at `pos`, played by action `action_index` (a correction).
    pub(crate) fn replace(&mut self, pos: usize, card: Card, action_index: usize) {
        self.plays[pos].card = card;
        self.action_index[pos] = action_index as u32;
    }

    /// The card at `pos` was played face down (Truco): it says so in the report.
    pub fn set_face_down(&mut self, pos: usize) {
        self.plays[pos].face_down = Some(true);
    }

    /// Position of the winning card: the highest `strength`, the earlier card on equal strength.
    /// Cards with strength `None` cannot win. `None` when no card can win.
    pub fn winner_by(&self, strength: impl Fn(Card) -> Option<u16>) -> Option<usize> {
        self.winner_by_play(|_, p| strength(p.card))
    }

    /// `winner_by` where a card's strength depends on who played it and when, not only on the card
    /// (Calypso's personal trumps: the same card trumps for one player and not for another): the
    /// strength of each play from its position in the trick and the play.
    pub fn winner_by_play(
        &self,
        strength: impl Fn(usize, &PlayedCard) -> Option<u16>,
    ) -> Option<usize> {
        // Without branches on the cards (a card that cannot win counts 0, the others one more
        // than their strength): which card wins a trick is what a predictor cannot guess.
        let (mut best, mut top) = (0, 0u32);
        for (i, p) in self.plays().iter().enumerate() {
            let s = strength(i, p).map_or(0, |s| s as u32 + 1);
            best = if s > top { i } else { best };
            top = top.max(s);
        }
        (top > 0).then_some(best)
    }

    /// Positions of every card sharing the highest `strength`, in play order (for games where a tie
    /// for the highest card matters). Cards with strength `None` cannot win; empty when none can.
    pub fn best_positions_by(&self, strength: impl Fn(Card) -> Option<u16>) -> Vec<usize> {
        let strengths: Vec<_> = self.plays().iter().map(|p| strength(p.card)).collect();
        let Some(top) = strengths.iter().flatten().max().copied() else {
            return Vec::new();
        };
        (0..strengths.len())
            .filter(|&i| strengths[i] == Some(top))
            .collect()
    }
}

/// The card winning a trick by the usual rule (`Trick::trump_or_led_top`). A game that asks it at
/// every card keeps it as the cards are played (`after`), rather than ranking the whole trick again
/// each time, and finds the cards that would beat it from it (`beaten_by`). Only the position is
/// kept: one byte, written and read whole. A wider value (the beaters as a 128-bit mask) was
/// written in parts and read back in one piece at the next card, a stall that showed in Malilla's
/// profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Winning {
    pos: u8,
}

impl Winning {
    /// The winning card of `trick` as it lies: `None` for an empty trick, or one led by a card with
    /// no suit.
    pub fn of(trick: &Trick, trump: Option<Suit>, order: &RankOrder) -> Option<Winning> {
        let pos = trick.trump_or_led_top(trump, order)?;
        Some(Winning { pos: pos as u8 })
    }

    /// Position of the winning card in the trick.
    #[inline]
    pub fn pos(self) -> usize {
        self.pos as usize
    }

    /// Every card that would beat the winning card of `trick`, read from `beaters` (the table for
    /// the hand's trump and order). Always inlined: asked at every card, and a call showed in
    /// Malilla's profile.
    #[inline(always)]
    pub fn beaten_by(self, trick: &Trick, beaters: &Beaters) -> SuitedSet {
        beaters.of(trick.plays()[self.pos()].card)
    }

    /// The winning card of `trick` once its last card is played, `before` being the winning card
    /// of the trick without that card: the same as `of` under the trump and order `beaters` was
    /// built for, found from the one card.
    #[inline]
    pub fn after(before: Option<Winning>, trick: &Trick, beaters: &Beaters) -> Option<Winning> {
        let Some(before) = before else {
            // The lead wins a trick of one card if it has a suit; a trick led by a card with no
            // suit no card wins here.
            let lead = trick.len() == 1 && trick.led()?.suit().is_some();
            return lead.then_some(Winning { pos: 0 });
        };
        let pos = trick.len() - 1;
        let card = trick.plays()[pos].card;
        // Without a branch: whether the card beats the trick is what a predictor cannot guess.
        let beats = before.beaten_by(trick, beaters).contains(card);
        Some(Winning {
            pos: std::hint::select_unpredictable(beats, pos as u8, before.pos),
        })
    }
}

/// For each suited card, every card that beats it where it wins a trick under the usual rule
/// (the cards `trump_or_led` ranks higher) with one trump and card order: a winning card is a
/// trump or of the led suit, so its beaters follow from the card alone. Built once (a const), it
/// turns the beaters of the winning card, asked at every card of a game that must head the trick
/// (Malilla), into one load. Only suited cards beat a card this way: the sets are `SuitedSet`s.
#[derive(Clone, Copy, Debug)]
pub struct Beaters([SuitedSet; 64]);

impl Beaters {
    pub const fn new(trump: Option<Suit>, order: &RankOrder) -> Beaters {
        let trumps = match trump {
            Some(t) => SuitedSet::suit(t),
            None => SuitedSet::EMPTY,
        };
        let mut by_card = [SuitedSet::EMPTY; 64];
        let mut i = 0;
        while i < 64 {
            let suit = Suit::ALL[i >> 4];
            let above = SuitedSet::ranks(suit, order.above[i & 15]);
            // A trump is beaten by higher trumps only; a card of the led suit by its higher
            // cards and every trump.
            let trumped = matches!(trump, Some(t) if t as usize == suit as usize);
            by_card[i] = if trumped { above } else { above.union(trumps) };
            i += 1;
        }
        Beaters(by_card)
    }

    /// The cards that beat `top`, a suited card winning the trick.
    #[inline(always)]
    pub fn of(&self, top: Card) -> SuitedSet {
        self.0[top.index() as usize & 63]
    }
}

/// A suit's card order, highest first, as a strength per rank (higher wins; 0 = not ranked), and
/// for each rank the ranks above it as a mask (bit `r` for rank `r`, as `CardSet` lays out a suit),
/// so that a legality check finds the cards that beat one in a few instructions.
#[derive(Clone, Copy, Debug)]
pub struct RankOrder {
    strength: [u8; 16],
    above: [u16; 16],
}

impl RankOrder {
    /// A K Q J T 9 8 7 6 5 4 3 2: the usual order, ace high.
    pub const ACE_HIGH: RankOrder = RankOrder::new(&[
        Rank::Ace,
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
    ]);

    pub const fn new(highest_first: &[Rank]) -> RankOrder {
        let mut strength = [0u8; 16];
        let n = highest_first.len();
        let mut i = 0;
        while i < n {
            strength[highest_first[i] as usize] = (n - i) as u8;
            i += 1;
        }
        let mut above = [0u16; 16];
        let mut r = 0;
        while r < 16 {
            let mut q = 0;
            while q < 16 {
                if strength[q] > strength[r] {
                    above[r] |= 1 << q;
                }
                q += 1;
            }
            r += 1;
        }
        RankOrder { strength, above }
    }

    pub fn strength(&self, rank: Rank) -> u8 {
        self.strength[rank as usize]
    }

    /// The ranks stronger than `rank`, as a mask by rank (`CardSet::ranks`).
    pub fn above(&self, rank: Rank) -> u16 {
        self.above[rank as usize]
    }
}

/// The usual trick rule: the highest trump if any was played, else the highest card of the led suit.
/// Returns a strength for `winner_by`: trumps above every led-suit card; other cards cannot win. A
/// card with no suit (a tarot trump, the Fool, a joker) has no strength here: a game with such cards
/// ranks them itself.
#[inline]
pub fn trump_or_led(card: Card, led: Suit, trump: Option<Suit>, order: &RankOrder) -> Option<u16> {
    let CardClass::Suited(suit, rank) = card.class() else {
        return None;
    };
    let rank = order.strength(rank) as u16;
    // The tier by arithmetic, not by branches: whether a card is a trump, of the led suit or
    // neither is what a predictor cannot guess, and every card of every trick asks it.
    let trumps = (Some(suit) == trump) as u16;
    let follows = (suit == led) as u16 & !trumps;
    let tier = trumps << 9 | follows << 8;
    (tier != 0).then_some(tier | rank)
}

/// The plain follow rule: a card of the led suit if the hand holds one, otherwise any card. The
/// fault names the `rule` broken (e.g. "court-piece.md §3") and the led-suit cards held. A lead with
/// no suit (a tarot trump, the Fool, a joker) binds nothing here: such a game says how it is followed.
#[inline]
pub fn must_follow_suit<H: Holding>(
    table: Table,
    rule: &'static str,
    trick: &Trick,
    hand: H,
    card: Card,
) -> Option<Fault> {
    let led = trick.led()?.suit()?;
    let of_led = hand.of_suit(led);
    if of_led.is_empty() || card.suit() == Some(led) {
        return None;
    }
    Some(revoke(table, rule, trick, of_led, card, led))
}

/// The fault of a revoke (`must_follow_suit`): out of line, as revokes are rare and every card is
/// judged.
#[cold]
fn revoke<H: Holding>(
    table: Table,
    rule: &'static str,
    trick: &Trick,
    of_led: H,
    card: Card,
    led: Suit,
) -> Fault {
    Fault::new(
        "revoke",
        rule,
        format!(
            "{} played {card} on a {} lead while holding {of_led}",
            trick.next_seat(table),
            led.letter()
        ),
    )
}

/// One trick as the adjudication reports it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TrickReport {
    pub number: u8,
    pub leader: Seat,
    #[schema(value_type = Vec<PlayedCard>)]
    #[serde(serialize_with = "serialize_plays")]
    pub plays: Trick,
    /// The seat that won the trick; `null` for a tied trick that belongs to nobody (Truco).
    pub winner: Option<Seat>,
    /// Points in the trick, where the game counts them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i32>,
    /// Stubs & Spoils: the stub and the seat it lies in front of (the winner).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stub: Option<PlayedCard>,
    /// Stubs & Spoils: the spoil and the seat that took it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spoil: Option<PlayedCard>,
    /// Stubs & Spoils: the two cards that go to the dead pile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead: Option<[Card; 2]>,
    /// Cards drawn from the stock after this trick, in drawing order (winner first): on every
    /// trick of a game that draws (`[]` once the stock is empty), absent in the others.
    // A boxed slice, not a `Vec`: eight bytes less keep a ten-trick hand's list of reports
    // within the allocator's fast path (`ten_trick_reports_fit_the_allocators_fast_path`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<PlayedCard>>)]
    pub draws: Option<Box<[PlayedCard]>>,
    /// `false` for a trick cut short (a Truco hand ended by a run before the trick was complete).
    pub complete: bool,
    /// `false` for a trick completed by actions that change nothing: plays after the hand was
    /// decided, checked all the same (Malilla after a game-losing foul, MA-15). Its winner and
    /// points count for nobody and are in no tally. `true` for every other trick.
    pub counts: bool,
}

impl TrickReport {
    pub fn new(trick: Trick, winner: Seat) -> TrickReport {
        TrickReport::ruled(trick, Some(winner))
    }

    /// A trick won by `winner`, or tied when `None`.
    pub fn ruled(trick: Trick, winner: Option<Seat>) -> TrickReport {
        TrickReport {
            number: trick.number,
            leader: trick.leader,
            plays: trick,
            winner,
            points: None,
            stub: None,
            spoil: None,
            dead: None,
            draws: None,
            complete: true,
            counts: true,
        }
    }
}

fn serialize_plays<S: serde::Serializer>(t: &Trick, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(t.plays())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// Every hand allocates its list of trick reports at once: for ten tricks (Malilla's) it must
    /// stay within glibc's per-thread cache (requests up to 1,032 bytes): malloc's slow path took
    /// about 310 instructions there, against about 30 from the cache. A field added to
    /// `TrickReport` must keep it so.
    #[test]
    fn ten_trick_reports_fit_the_allocators_fast_path() {
        assert!(
            10 * std::mem::size_of::<TrickReport>() <= 1032,
            "TrickReport is {} bytes",
            std::mem::size_of::<TrickReport>()
        );
    }

    #[test]
    fn trump_beats_led_and_off_suit_cannot_win() {
        let order = RankOrder::new(&[Rank::Ace, Rank::King, Rank::Queen, Rank::Two]);
        let mut t = Trick::new(1, Seat::N);
        for (s, card) in [
            (Seat::N, "KH"),
            (Seat::E, "AH"),
            (Seat::S, "AS"),
            (Seat::W, "2C"),
        ] {
            t.push(s, c(card), 0);
        }
        let led = Suit::Hearts;
        assert_eq!(t.winner_by(|x| trump_or_led(x, led, None, &order)), Some(1));
        assert_eq!(
            t.winner_by(|x| trump_or_led(x, led, Some(Suit::Clubs), &order)),
            Some(3)
        );
    }

    /// Issue 10: a tarot trump or a joker is not a spade or a heart to the shared helpers. A T5 lead
    /// does not oblige a hand {T7, KS} to play KS, and 2S is not beaten by T21 under the plain rule.
    #[test]
    fn cards_without_a_suit_neither_bind_nor_win_by_suit() {
        let table = Table::FOUR;
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c("T5"), 0);
        let hand = CardSet::of(&[c("T7"), c("KS")]);
        assert_eq!(must_follow_suit(table, "x", &t, hand, c("KS")), None);
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c("2S"), 0);
        t.push(Seat::E, c("T21"), 1);
        t.push(Seat::S, c("JK"), 2);
        assert_eq!(
            t.trump_or_led_winner(None, &RankOrder::ACE_HIGH),
            Some(Seat::N)
        );
        assert_eq!(
            trump_or_led(
                c("T21"),
                Suit::Spades,
                Some(Suit::Hearts),
                &RankOrder::ACE_HIGH
            ),
            None
        );
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c("FOOL"), 0);
        t.push(Seat::E, c("2S"), 1);
        assert_eq!(
            t.trump_or_led_winner(None, &RankOrder::ACE_HIGH),
            None,
            "the game rules it"
        );
        let hand = CardSet::of(&[c("T7"), c("2S")]);
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c("KS"), 0);
        assert!(
            must_follow_suit(table, "x", &t, hand, c("T7")).is_some(),
            "a trump is no spade"
        );
    }

    /// The table of beaters holds exactly the cards `trump_or_led` ranks higher than a card that
    /// can win a trick (a trump, or a card of the led suit), among cards of every suit and cards
    /// with no suit, for every lead and every trump (none included), in two orders (the second
    /// ranks only some ranks, not in the order of their encoding).
    #[test]
    fn the_beaters_of_a_winning_card_are_the_cards_ranked_higher() {
        let partial = RankOrder::new(&[Rank::Three, Rank::Two, Rank::Ace, Rank::Seven]);
        let every: Vec<Card> = (0..90)
            .map(Card::from_index)
            .filter(|c| c.rank().is_some() || c.index() > 64)
            .collect();
        let cards = CardSet::of(&every);
        for order in [RankOrder::ACE_HIGH, partial] {
            for trump in std::iter::once(None).chain(Suit::ALL.map(Some)) {
                let table = Beaters::new(trump, &order);
                for led in Suit::ALL {
                    let strength = |c| trump_or_led(c, led, trump, &order);
                    let can_win =
                        |c: &&Card| c.suit().is_some_and(|s| s == led || Some(s) == trump);
                    for &top in every.iter().filter(can_win) {
                        let higher: CardSet = every
                            .iter()
                            .copied()
                            .filter(|&c| strength(c) > strength(top))
                            .collect();
                        assert_eq!(
                            CardSet::from(table.of(top)).intersect(cards),
                            higher,
                            "{top} led {led:?} trump {trump:?}"
                        );
                    }
                }
            }
        }
    }

    /// The winner found without branches is the one `trump_or_led` ranks highest (`winner_by`),
    /// for every trick of up to four cards from a pack with unranked ranks, cards of every suit
    /// and cards with no suit, under every trump (none included), in two orders.
    #[test]
    fn the_top_card_is_the_one_ranked_highest() {
        let partial = RankOrder::new(&[Rank::Three, Rank::Two, Rank::Ace, Rank::Seven]);
        let cards: Vec<Card> = [
            "2S", "3S", "AS", "KS", "7H", "AH", "3D", "2C", "KC", "FOOL", "T5", "JK",
        ]
        .map(c)
        .into();
        for order in [RankOrder::ACE_HIGH, partial] {
            for trump in std::iter::once(None).chain(Suit::ALL.map(Some)) {
                every_trick_of_four(&cards, |four| {
                    let mut t = Trick::new(1, Seat::N);
                    for (i, card) in four.into_iter().enumerate() {
                        t.push(Seat::COMPASS[i], card, i);
                        let by_strength = t
                            .led()
                            .and_then(Card::suit)
                            .and_then(|led| t.winner_by(|x| trump_or_led(x, led, trump, &order)));
                        assert_eq!(
                            t.trump_or_led_top(trump, &order),
                            by_strength,
                            "{:?} trump {trump:?}",
                            t.plays()
                        );
                    }
                });
            }
        }
    }

    /// Calls `f` with every sequence of four of `cards` (repeats included).
    fn every_trick_of_four(cards: &[Card], mut f: impl FnMut([Card; 4])) {
        for &a in cards {
            for &b in cards {
                for &d in cards {
                    for &e in cards {
                        f([a, b, d, e]);
                    }
                }
            }
        }
    }

    /// The winning card kept card by card (`Winning::after`) is the one found from the whole trick
    /// (`Winning::of`) at every card of every trick of four from a small pack, under every trump.
    #[test]
    fn the_winning_card_kept_card_by_card_is_the_tricks() {
        let cards: Vec<Card> = ["2S", "AS", "KS", "7H", "AH", "3D", "KC", "FOOL"]
            .map(c)
            .into();
        let order = RankOrder::new(&[Rank::Seven, Rank::Ace, Rank::King, Rank::Two]);
        for trump in std::iter::once(None).chain(Suit::ALL.map(Some)) {
            let beaters = Beaters::new(trump, &order);
            every_trick_of_four(&cards, |four| {
                let mut t = Trick::new(1, Seat::N);
                let mut kept = None;
                for (i, card) in four.into_iter().enumerate() {
                    assert_eq!(kept, Winning::of(&t, trump, &order));
                    t.push(Seat::COMPASS[i], card, i);
                    kept = Winning::after(kept, &t, &beaters);
                }
                assert_eq!(kept, Winning::of(&t, trump, &order), "{:?}", t.plays());
            });
        }
    }

    #[test]
    fn equal_strength_goes_to_the_earlier_card() {
        let mut t = Trick::new(1, Seat::N);
        t.push(Seat::N, c("5H"), 0);
        t.push(Seat::E, c("5S"), 1);
        assert_eq!(t.winner_by(|_| Some(1)), Some(0));
    }

    #[test]
    fn best_positions_lists_every_card_tied_for_highest() {
        let mut t = Trick::new(2, Seat::N);
        for (s, card) in [
            (Seat::N, "3H"),
            (Seat::E, "KS"),
            (Seat::S, "3C"),
            (Seat::W, "2D"),
        ] {
            t.push(s, c(card), 0);
        }
        let rank = |x: Card| (x.rank_unchecked() == Rank::King).then_some(1);
        assert_eq!(t.best_positions_by(rank), vec![1]);
        let threes_high = |x: Card| {
            Some(if x.rank_unchecked() == Rank::Three {
                9
            } else {
                1
            })
        };
        assert_eq!(t.best_positions_by(threes_high), vec![0, 2]);
        assert!(t.best_positions_by(|_| None).is_empty());
    }
}
