//! Playing cards to tricks: whose turn it is, whether the card is held, and the revoke-correction
//! window of `docs/rules/README.md` ("When a revoke is established", C2–C4). Every trick-taking
//! game drives its play through this, with its own legality judge and trick-winner rule.

use super::log::{CorrectedRevoke, Effect, Fault, Irregularity, RecordError};
use super::trick::{MAX_PLAYS, Trick, TrickReport};
use crate::cards::{Card, CardSet, Holding};
use crate::record::Action;
use crate::seat::{Seat, Table};

/// Hands, the trick in progress and its not-yet-established faults. Hands are sets of distinct cards
/// unless the game's pack has copies (`CardCounts`).
#[derive(Clone, Debug)]
pub struct TrickPlay<H: Holding = CardSet> {
    pub table: Table,
    /// Cards each seat holds now, by seat position.
    pub hands: [H; MAX_PLAYS],
    /// Cards each seat has given up so far this hand: played, or discarded, passed, exchanged or put
    /// in a gallery before the play (README C12: naming one again is `card_played_twice`, one never
    /// held `card_not_held`).
    given_up: [H; MAX_PLAYS],
    pub trick: Trick,
    /// The next seat to play, or `None` when the trick is complete.
    next: Option<Seat>,
    /// Fault of each card in the current trick, not yet established. Boxed: faults are rare, and
    /// every hand moves its trick play about (seven inline faults would triple its size).
    pending: [Option<Box<Fault>>; MAX_PLAYS],
    /// Bit per trick position whose `pending` holds a fault: a trick is closed without looking at
    /// each card's slot when none does (nearly every trick).
    pending_at: u8,
    /// The trick position of the first corrected revoke: seats after it may change their cards too.
    correction_window: Option<usize>,
    /// Seats sitting this hand out (Bacon's loner's partner): skipped in turn, no card to a trick.
    out: [bool; MAX_PLAYS],
    /// Seats that play to each trick: the table's, less those out (asked at every card).
    players: u8,
    /// The seat that plays after each seat (by position), those out skipped: found once a hand,
    /// not at every card (`after`).
    following: [Seat; MAX_PLAYS],
    pub corrected: Vec<CorrectedRevoke>,
}

/// A fault that became established when its trick was completed.
#[derive(Clone, Debug)]
pub struct Established {
    pub fault: Fault,
    pub action_index: usize,
    pub seat: Seat,
    pub card: Card,
    pub trick: u8,
}

impl Established {
    /// The irregularity this fault is, with the consequence the game applies.
    pub fn irregularity(self, consequence: String) -> Irregularity {
        Irregularity {
            code: self.fault.code,
            action_index: Some(self.action_index),
            trick: Some(self.trick),
            seat: self.seat,
            card: Some(self.card),
            rule: self.fault.rule,
            explanation: self.fault.explanation,
            consequence,
            effect: Effect::default(),
        }
    }
}

impl<H: Holding> TrickPlay<H> {
    #[inline]
    pub fn new(table: Table, hands: [H; MAX_PLAYS], leader: Seat) -> TrickPlay<H> {
        let mut play = TrickPlay {
            table,
            hands,
            given_up: [H::default(); MAX_PLAYS],
            trick: Trick::new(1, leader),
            next: Some(leader),
            pending: Default::default(),
            pending_at: 0,
            correction_window: None,
            out: [false; MAX_PLAYS],
            players: table.players() as u8,
            following: [leader; MAX_PLAYS],
            corrected: Vec::new(),
        };
        play.find_following();
        play
    }

    /// Fills `following`: for each seat of the table, the next seat in the direction of play that
    /// takes part in the hand.
    fn find_following(&mut self) {
        for pos in 0..self.table.size {
            let mut s = self.table.next(self.table.seat(pos));
            while self.out[s.pos()] {
                s = self.table.next(s);
            }
            self.following[pos] = s;
        }
    }

    /// The trick not yet begun is led by `seat`: a decision after the deal (an auction won, a
    /// widow taken, a pick-up standing) names who leads. The hands and what each seat has given up
    /// are kept. Call before that trick's first card.
    pub fn lead_next(&mut self, seat: Seat) {
        debug_assert!(self.trick.is_empty(), "the trick has begun");
        self.trick = Trick::new(self.trick.number, seat);
        self.next = Some(if self.out[seat.pos()] {
            self.after(seat)
        } else {
            seat
        });
    }

    /// In this game a card may be played face down (Truco): every card states whether it was.
    pub fn with_face_down(mut self) -> TrickPlay<H> {
        self.trick = self.trick.with_face_down();
        self
    }

    /// `seat` sits the hand out: tricks are complete without its card. Call before the first play.
    pub fn sit_out(&mut self, seat: Seat) {
        if !std::mem::replace(&mut self.out[seat.pos()], true) {
            self.players -= 1;
            self.find_following();
        }
        if self.next == Some(seat) {
            self.next = Some(self.after(seat));
        }
    }

    /// Is `seat` sitting the hand out?
    pub fn sits_out(&self, seat: Seat) -> bool {
        self.out[seat.pos()]
    }

    /// Seats that play to each trick.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The next seat in the direction of play that takes part in the hand.
    #[inline]
    pub fn after(&self, seat: Seat) -> Seat {
        self.following[seat.pos()]
    }

    pub fn hand(&self, seat: Seat) -> H {
        self.hands[seat.pos()]
    }

    pub fn hand_mut(&mut self, seat: Seat) -> &mut H {
        &mut self.hands[seat.pos()]
    }

    /// The seat whose card is due, `None` once the trick is complete.
    pub fn to_play(&self) -> Option<Seat> {
        self.next
    }

    pub fn is_complete(&self) -> bool {
        self.trick.len() == self.players()
    }

    /// Whether play has begun: a card is on trick 1 or a trick is done.
    pub fn started(&self) -> bool {
        self.trick.number > 1 || !self.trick.is_empty()
    }

    /// Checks turn and possession, takes the card from the hand and puts it on the trick with its
    /// fault (if any). The fault is established when the trick completes. Always inlined: every
    /// card of every trick game comes here, and a call passed the fault (nearly always none) and
    /// the result through memory; a plain `#[inline]` left it a call.
    #[inline(always)]
    pub fn play(
        &mut self,
        index: usize,
        seat: Seat,
        card: Card,
        fault: Option<Fault>,
    ) -> Result<(), RecordError> {
        self.check_turn(index, seat, "play")?;
        self.give_up(index, seat, card, "play")?;
        let pos = self.trick.len();
        self.trick.push(seat, card, index);
        self.set_pending(pos, fault);
        self.next = if self.is_complete() {
            None
        } else {
            Some(self.after(seat))
        };
        Ok(())
    }

    /// `play` with the card judged by the game's legality `judge` (trick before the card, the seat's
    /// hand, the card), as `correct` judges a replacement card.
    pub fn play_judged(
        &mut self,
        index: usize,
        seat: Seat,
        card: Card,
        judge: impl Fn(&Trick, H, Card) -> Option<Fault>,
    ) -> Result<(), RecordError> {
        let fault = judge(&self.trick, self.hand(seat), card);
        self.play(index, seat, card, fault)
    }

    /// Is it `seat`'s turn to play?
    #[inline]
    pub fn check_turn(&self, index: usize, seat: Seat, verb: &str) -> Result<(), RecordError> {
        if self.next == Some(seat) {
            return Ok(());
        }
        Err(self.not_due(index, seat, verb))
    }

    /// The record error of a card played by `seat` when it is not due (`check_turn`): out of line,
    /// as every card asks and a record with the error is rare.
    #[cold]
    fn not_due(&self, index: usize, seat: Seat, verb: &str) -> RecordError {
        match self.next {
            Some(s) => RecordError::at(
                "out_of_turn",
                index,
                seat,
                verb,
                format!(
                    "{seat} played in trick {} but it was {s}'s turn",
                    self.trick.number
                ),
            ),
            None => RecordError::at(
                "unexpected_action",
                index,
                seat,
                verb,
                format!("trick {} is complete; no card is due", self.trick.number),
            ),
        }
    }

    /// `seat` gives up `card`: plays it, or discards, passes or exchanges it, or puts it in a
    /// gallery. It is no longer his, and naming it again is `card_played_twice`; a card he never
    /// held is `card_not_held` (README C12, the same in every game).
    #[inline]
    pub fn give_up(
        &mut self,
        index: usize,
        seat: Seat,
        card: Card,
        verb: &str,
    ) -> Result<(), RecordError> {
        let p = seat.pos();
        give_up(
            &mut self.hands[p],
            &mut self.given_up[p],
            (index, seat, verb),
            card,
        )
    }

    /// A `correct {seat, card}` action (README C2/C3): only the revoker, before the trick is complete,
    /// and then the seats that played after him. The new card is judged afresh by `judge` exactly
    /// as a play is (README C3): it receives the trick before that card, the seat's hand as it was
    /// before that card left it (the old card back in it, the new one still in it) and the card.
    pub fn correct(
        &mut self,
        index: usize,
        seat: Seat,
        card: Card,
        judge: impl Fn(&Trick, H, Card) -> Option<Fault>,
    ) -> Result<(), RecordError> {
        let invalid =
            |detail: String| RecordError::at("invalid_correct", index, seat, "correct", detail);
        if self.is_complete() {
            return Err(invalid(format!(
                "trick {} is already complete: a revoke can only be corrected before that",
                self.trick.number
            )));
        }
        let Some(pos) = self.trick.position_of(seat) else {
            return Err(invalid(format!(
                "{seat} has no card in trick {} to correct",
                self.trick.number
            )));
        };
        let revoker = self.pending[pos].is_some();
        let after_corrected = self.correction_window.is_some_and(|w| pos > w);
        if !revoker && !after_corrected {
            return Err(invalid(format!(
                "{seat}'s card in trick {} broke no rule, and no earlier player corrected a revoke",
                self.trick.number
            )));
        }
        let old = self.trick.plays()[pos].card;
        if old == card {
            return Err(invalid(format!(
                "{seat} already played {card}: a correction must change the card"
            )));
        }
        let p = seat.pos();
        self.hands[p].insert(old);
        self.given_up[p].remove(old);
        let mut before = self.trick;
        before.truncate(pos);
        let fault = judge(&before, self.hands[p], card);
        if let Err(e) = self.give_up(index, seat, card, "correct") {
            // Put the table back as it was before reporting.
            self.hands[p].remove(old);
            self.given_up[p].insert(old);
            return Err(e);
        }
        if let Some(f) = self.take_pending(pos) {
            self.corrected.push(CorrectedRevoke {
                action_index: self.trick.action_index(pos),
                correct_index: index,
                trick: self.trick.number,
                seat,
                card: old,
                corrected_to: card,
                code: f.code,
            });
            self.correction_window = Some(self.correction_window.map_or(pos, |w| w.min(pos)));
        }
        // README C10: the card on the table is now the one the `correct` put there.
        self.trick.replace(pos, card, index);
        self.set_pending(pos, fault);
        Ok(())
    }

    /// Judges every card after position `pos` of the trick in progress afresh by `judge`, each
    /// against the trick before it and the hand it was played from: a corrected lead changes what
    /// the followers had to play (Pluck PL-d), so a card legal before may be a revoke now, and
    /// the other way round.
    pub fn rejudge_after(&mut self, pos: usize, judge: impl Fn(&Trick, H, Card) -> Option<Fault>) {
        for later in pos + 1..self.trick.len() {
            let play = self.trick.plays()[later];
            let mut before = self.trick;
            before.truncate(later);
            let mut hand = self.hands[play.seat.pos()];
            hand.insert(play.card);
            let fault = judge(&before, hand, play.card);
            self.set_pending(later, fault);
        }
    }

    /// The fault of the card at trick position `pos`, not yet established (`None`: the card broke
    /// no rule). Always inlined: every card asks it, and `#[inline]` left it a call (3% of a Court
    /// Piece hand); the common case (no fault, none to clear) is one test.
    #[inline(always)]
    fn set_pending(&mut self, pos: usize, fault: Option<Fault>) {
        if fault.is_none() && self.pending_at >> pos & 1 == 0 {
            return;
        }
        self.change_pending(pos, fault);
    }

    /// `set_pending` with a fault, or clearing one: out of line, as faults are rare.
    #[cold]
    fn change_pending(&mut self, pos: usize, fault: Option<Fault>) {
        match fault {
            None => {
                self.pending[pos] = None;
                self.pending_at &= !(1 << pos);
            }
            Some(f) => {
                self.pending[pos] = Some(Box::new(f));
                self.pending_at |= 1 << pos;
            }
        }
    }

    /// Takes the fault pending at trick position `pos`, if any.
    fn take_pending(&mut self, pos: usize) -> Option<Box<Fault>> {
        self.pending_at &= !(1 << pos);
        self.pending[pos].take()
    }

    /// Whether action `index` put a card with a fault not yet established on the trick in progress.
    pub fn faulted(&self, index: usize) -> bool {
        (0..self.trick.len())
            .any(|pos| self.pending[pos].is_some() && self.trick.action_index(pos) == index)
    }

    /// The card actions worth trying now, legal or not (`HandState::candidates`): each distinct card
    /// of the seat to play, as `play`; each card a seat entitled to correct could put instead of
    /// its own, as `correct`.
    pub fn candidates<V>(&self, play: fn(Card) -> V, correct: fn(Card) -> V) -> Vec<Action<V>> {
        let mut out = Vec::new();
        if let Some(seat) = self.to_play() {
            let hand = self.hand(seat).distinct();
            out.extend(hand.iter().map(|c| Action {
                seat,
                kind: play(c),
            }));
        }
        for (seat, before) in self.correctable() {
            let current = self.trick.plays()[before.len()].card;
            let mut hand = self.hand(seat).distinct();
            hand.insert(current);
            out.extend(hand.iter().filter(|&c| c != current).map(|c| Action {
                seat,
                kind: correct(c),
            }));
        }
        out
    }

    /// Seats that may `correct` now, with the trick before their card (for legal-action queries).
    pub fn correctable(&self) -> Vec<(Seat, Trick)> {
        if self.is_complete() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (pos, p) in self.trick.plays().iter().enumerate() {
            if self.pending[pos].is_some() || self.correction_window.is_some_and(|w| pos > w) {
                let mut before = self.trick;
                before.truncate(pos);
                out.push((p.seat, before));
            }
        }
        out
    }

    /// Closes the complete trick: returns it and the faults it established (in play order), and
    /// opens trick `number + 1` led by `next_leader`.
    pub fn close_trick(&mut self, next_leader: Seat) -> (Trick, Vec<Established>) {
        debug_assert!(self.is_complete());
        let done = self.trick;
        let established = self.establish();
        self.open_next(next_leader);
        (done, established)
    }

    /// `close_trick` for a trick won by `winner`, who leads the next: the trick is reported at the
    /// end of `tricks` (`TrickReport::new`), for the game to complete there, and the faults it
    /// established are returned. The report is built where it stays: assembled and moved, it
    /// showed in Malilla's profile (every trick of every hand makes one).
    #[inline]
    pub fn close_trick_reported(
        &mut self,
        winner: Seat,
        tricks: &mut Vec<TrickReport>,
    ) -> Vec<Established> {
        debug_assert!(self.is_complete());
        let established = self.establish();
        // Made in the slot it fills, once there is room: `push` copied the trick to the stack
        // before making room, in pieces its copy into the slot then read across (a stalled
        // store-to-load forward, half of this function in Court Piece's profile).
        let trick = &self.trick;
        tricks.resize_with(tricks.len() + 1, || TrickReport::new(*trick, winner));
        self.open_next(winner);
        established
    }

    /// The faults of the complete trick, established now (in play order).
    #[inline]
    fn establish(&mut self) -> Vec<Established> {
        if self.pending_at == 0 {
            return Vec::new();
        }
        self.establish_pending()
    }

    /// `establish` where some card has a fault: out of line, as faults are rare.
    #[cold]
    fn establish_pending(&mut self) -> Vec<Established> {
        let mut established = Vec::new();
        for pos in 0..self.trick.len() {
            let p = self.trick.plays()[pos];
            if let Some(fault) = self.take_pending(pos) {
                let done = &self.trick;
                established.push(Established {
                    fault: *fault,
                    action_index: done.action_index(pos),
                    seat: p.seat,
                    card: p.card,
                    trick: done.number,
                });
            }
        }
        established
    }

    /// Opens the trick after the complete one, led by `leader`.
    #[inline]
    fn open_next(&mut self, leader: Seat) {
        self.correction_window = None;
        self.trick = self.trick.next(leader);
        self.next = Some(leader);
    }

    /// Stops play (the hand is over): no card is due any more.
    pub fn stop(&mut self) {
        self.next = None;
    }
}

/// `card` leaves `hand` for good and joins what the seat has `given_up`: README C12, the same in
/// every game (`TrickPlay::give_up`, the rummy games' melds and discards). `at` is the action's
/// index, its seat and the field that names the card (written only in the error: a path such as
/// `meld/2` is passed as `format_args!`, not made for every card).
#[inline]
pub(crate) fn give_up<H: Holding>(
    hand: &mut H,
    given_up: &mut H,
    at: (usize, Seat, impl std::fmt::Display),
    card: Card,
) -> Result<(), RecordError> {
    if hand.remove(card) {
        given_up.insert(card);
        return Ok(());
    }
    Err(not_held(given_up, at, card))
}

/// The record error of a card `give_up` found not in the hand: out of line, as every card given up
/// asks and a record with the error is rare.
#[cold]
fn not_held<H: Holding>(
    given_up: &H,
    (index, seat, field): (usize, Seat, impl std::fmt::Display),
    card: Card,
) -> RecordError {
    let (code, detail) = if given_up.contains(card) {
        (
            "card_played_twice",
            format!("{seat} already gave up {card} earlier in this hand"),
        )
    } else {
        ("card_not_held", format!("{seat} does not hold {card}"))
    };
    RecordError::at(code, index, seat, field, detail)
}
