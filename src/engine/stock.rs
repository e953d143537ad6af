//! Drawing from a stock to refill hands after a trick: the undealt cards in draw order, top first,
//! then any card that lies face up under the stock (an upcard), which the last draw takes.

use super::play::TrickPlay;
use crate::cards::Card;
use crate::seat::Seat;

/// The cards still to draw.
#[derive(Clone, Debug)]
pub struct Stock {
    /// Bottom first, so the next card to draw is the last element.
    cards: Vec<Card>,
}

impl Stock {
    /// `stock` top first; `last` (if any) is drawn after every stock card.
    pub fn new(stock: &[Card], last: Option<Card>) -> Stock {
        let mut cards: Vec<Card> = last.into_iter().collect();
        cards.extend(stock.iter().rev());
        Stock { cards }
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The next card to draw, left on the stock.
    pub fn top(&self) -> Option<Card> {
        self.cards.last().copied()
    }

    /// The next card, taken off the stock.
    pub fn draw(&mut self) -> Option<Card> {
        self.cards.pop()
    }

    /// Every seat taking part in the hand draws one card into its hand, `first` first, then in the
    /// direction of play, while cards remain. Returns the draws in order.
    pub fn draw_round(&mut self, play: &mut TrickPlay, first: Seat) -> Vec<(Seat, Card)> {
        let mut drawn = Vec::with_capacity(play.players());
        let mut seat = first;
        for _ in 0..play.players() {
            let Some(card) = self.draw() else { break };
            play.hand_mut(seat).insert(card);
            drawn.push((seat, card));
            seat = play.after(seat);
        }
        drawn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::engine::{MAX_PLAYS, Table};

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn rounds_start_with_the_given_seat_and_the_last_card_comes_last() {
        let table = Table::solo(2);
        let (p1, p2) = (table.seat(0), table.seat(1));
        let mut play = TrickPlay::new(table, [CardSet::EMPTY; MAX_PLAYS], p1);
        let mut stock = Stock::new(&[c("AS"), c("KS"), c("QS")], Some(c("2H")));
        assert_eq!(stock.len(), 4);
        assert_eq!(
            stock.draw_round(&mut play, p2),
            vec![(p2, c("AS")), (p1, c("KS"))]
        );
        assert_eq!(
            stock.draw_round(&mut play, p1),
            vec![(p1, c("QS")), (p2, c("2H"))]
        );
        assert!(stock.is_empty());
        assert!(stock.draw_round(&mut play, p1).is_empty());
        assert_eq!(play.hand(p1), CardSet::of(&[c("KS"), c("QS")]));
        assert_eq!(play.hand(p2), CardSet::of(&[c("AS"), c("2H")]));
    }

    #[test]
    fn a_short_stock_stops_mid_round_and_seats_sitting_out_draw_nothing() {
        let mut play = TrickPlay::new(Table::FOUR, [CardSet::EMPTY; MAX_PLAYS], Seat::N);
        play.sit_out(Seat::S);
        let mut stock = Stock::new(&[c("AS"), c("KS")], None);
        assert_eq!(
            stock.draw_round(&mut play, Seat::E),
            vec![(Seat::E, c("AS")), (Seat::W, c("KS"))]
        );
        assert!(play.hand(Seat::S).is_empty());
    }
}
