//! One auction for every game that bids for a contract: who calls next, when a pass is final,
//! which bids a seat may make over the standing one, what happens when nobody bids, and when the
//! auction ends. The game supplies its bids (a `Ladder`: their order and which may follow which)
//! and how its verbs carry the calls (`Calls`); the auction judges each call, and offers as legal
//! exactly the calls its judge accepts.

use crate::engine::RecordError;
use crate::record::{Action, Placeholder, Verbs};
use crate::seat::{Seat, Table};
use serde::de;
use std::fmt;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// A call: a pass, or a bid of the game's own type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call<B> {
    Pass,
    Bid(B),
}

/// A game's verbs that make the auction's calls.
pub trait Calls<B>: Verbs {
    /// The call this action makes, if it is one.
    fn call(&self) -> Option<Call<B>>;
    /// The action that makes `call`.
    fn of(call: Call<B>) -> Self;
}

/// Makes a game's `Pass(Yes)` and `Bid(bid)` verbs its auction's calls (`auction_calls!(Verb, Number)`).
#[macro_export]
macro_rules! auction_calls {
    ($verb:ident, $bid:ty) => {
        impl $crate::engine::auction::Calls<$bid> for $verb {
            fn call(&self) -> Option<$crate::engine::auction::Call<$bid>> {
                match self {
                    $verb::Pass(_) => Some($crate::engine::auction::Call::Pass),
                    $verb::Bid(bid) => Some($crate::engine::auction::Call::Bid(bid.clone())),
                    _ => None,
                }
            }

            fn of(call: $crate::engine::auction::Call<$bid>) -> $verb {
                match call {
                    $crate::engine::auction::Call::Pass => $verb::Pass($crate::record::Yes),
                    $crate::engine::auction::Call::Bid(bid) => $verb::Bid(bid),
                }
            }
        }
    };
}

/// A game's bids: their order, and which bid may follow which.
pub trait Ladder {
    type Bid: Clone + PartialEq + fmt::Display;
    /// A bid's place in the order of bids.
    type Rank: Ord;

    /// Where `bid` stands in the order; `None` when it is not a bid of the game.
    fn rank(&self, bid: &Self::Bid) -> Option<Self::Rank>;

    /// The bids the auction may offer, lowest first (a game whose bids carry free declarations
    /// lists one of each rank).
    fn bids(&self) -> Vec<Self::Bid>;

    /// Whether `seat` may bid a bid ranked `bid` over the standing bid (`None`: it opens the
    /// auction). The default, any higher bid by anyone; a game without jump bids (Imperial Tarot
    /// §3: exactly one level higher, or the same level with a higher multiplier), or with bids only
    /// some seats may make (Boston's four-ace misère), says so here.
    fn follows(&self, _seat: Seat, bid: &Self::Rank, standing: Option<&Self::Rank>) -> bool {
        standing.is_none_or(|s| bid > s)
    }

    /// Whether a bid ranked `bid` ends the auction at once (Calabrasella's `play`, Colour Whist's
    /// hole): by default none does, and the others still call.
    fn closes(&self, _bid: &Self::Rank) -> bool {
        false
    }
}

/// How long the calls go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounds {
    /// Each seat calls once, in turn; the last call ends the auction (Pitch, Hasenpfeffer).
    One,
    /// The calls go round, skipping the seats that have passed, until every seat but the high
    /// bidder has passed (Twenty-Nine, Imperial Tarot, Boston, Auction Solo, Nomination Whist).
    PassesFinal,
    /// The calls go round until, after a bid, every other seat has passed in a row; a seat that
    /// passed may bid on its next turn.
    PassesOpen,
}

/// What happens when nobody bids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoBid<B> {
    /// Everyone passes and the auction ends with no contract (the game throws the deal in).
    Passed,
    /// The last seat to speak, all the others having passed, must bid `B`: it is his only call
    /// (Pitch's dealer, PI-a).
    LastMustBid(B),
    /// Once all the seats but one have passed, that one is compelled to `B` without a call and the
    /// auction ends (Twenty-Nine's dealer, §3).
    LastCompelled(B),
    /// All having passed, this seat is compelled to `B` (Hasenpfeffer's joker holder, §2.3).
    Compelled(Seat, B),
}

/// The rules of one game's auction, beside its bids.
#[derive(Clone, Copy, Debug)]
pub struct Conduct<B> {
    pub rounds: Rounds,
    /// A seat that may equal the standing bid as well as overcall it (Pitch's dealer steals the
    /// bid, PI-3).
    pub equal: Option<Seat>,
    pub no_bid: NoBid<B>,
    /// The rule the calls follow, cited in every refusal.
    pub rule: &'static str,
}

/// How an auction ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End<B> {
    /// The high bidder won the contract at his bid.
    Won { declarer: Seat, bid: B },
    /// Nobody bid and `declarer` is compelled to `bid` without calling it; the record may show that
    /// bid once.
    Compelled { declarer: Seat, bid: B },
    /// Everyone passed.
    Passed,
}

/// One hand's auction: its rules, the calls so far, and how it ended.
#[derive(Clone, Debug)]
pub struct Auction<L: Ladder> {
    ladder: L,
    table: Table,
    conduct: Conduct<L::Bid>,
    /// The seat due to call; `None` once the auction is over.
    turn: Option<Seat>,
    high: Option<(Seat, L::Bid)>,
    /// One bit per seat that has passed (with `PassesOpen`: passed since the last bid).
    passed: u64,
    calls: usize,
    end: Option<End<L::Bid>>,
    /// The compelled bid has been shown in the record.
    shown: bool,
}

impl<L: Ladder> Auction<L> {
    /// An auction at `table` whose first call is `first`'s; the calls go round as the table
    /// plays.
    pub fn new(table: Table, first: Seat, ladder: L, conduct: Conduct<L::Bid>) -> Auction<L> {
        Auction {
            ladder,
            table,
            conduct,
            turn: Some(first),
            high: None,
            passed: 0,
            calls: 0,
            end: None,
            shown: false,
        }
    }

    /// The seat due to call, while the auction is open.
    pub fn due(&self) -> Option<Seat> {
        self.turn
    }

    /// The standing bid and its bidder, while the auction is open.
    pub fn standing(&self) -> Option<&(Seat, L::Bid)> {
        self.high.as_ref()
    }

    /// How the auction ended, once it has.
    pub fn end(&self) -> Option<&End<L::Bid>> {
        self.end.as_ref()
    }

    /// The seat compelled to bid, when the auction ended so: the one seat whose calls it still
    /// judges (the record may show his bid once).
    pub fn compelled(&self) -> Option<Seat> {
        match self.end {
            Some(End::Compelled { declarer, .. }) => Some(declarer),
            _ => None,
        }
    }

    fn bit(seat: Seat) -> u64 {
        1 << seat.pos()
    }

    fn everyone(&self) -> u64 {
        (1 << self.table.size) - 1
    }

    /// No bid stands and every seat but `seat` has passed.
    fn alone(&self, seat: Seat) -> bool {
        self.high.is_none() && self.passed == self.everyone() & !Self::bit(seat)
    }

    /// Why `seat`, due to call, may not make `call`; `None` when he may. Both `apply` and
    /// `offer` ask this.
    fn refusal(&self, seat: Seat, call: &Call<L::Bid>) -> Option<String> {
        let last_must = match &self.conduct.no_bid {
            NoBid::LastMustBid(bid) if self.alone(seat) => Some(bid),
            _ => None,
        };
        let bid = match (call, last_must) {
            (Call::Pass, None) => return None,
            (Call::Bid(bid), Some(must)) if bid == must => return None,
            (_, Some(must)) => {
                return Some(format!("all the others passed, so he must bid {must}"));
            }
            (Call::Bid(bid), None) => bid,
        };
        let Some(rank) = self.ladder.rank(bid) else {
            return Some(format!("{bid} is not a bid of this game"));
        };
        let standing = self.high.as_ref().map(|(s, b)| {
            (
                *s,
                b,
                self.ladder.rank(b).expect("only the game's bids stand"),
            )
        });
        if self
            .ladder
            .follows(seat, &rank, standing.as_ref().map(|s| &s.2))
        {
            return None;
        }
        let equal = self.conduct.equal == Some(seat);
        match standing {
            Some((_, _, r)) if equal && r == rank => None,
            Some((holder, b, _)) if equal => Some(format!(
                "{holder} has bid {b}, which {bid} neither equals nor overcalls"
            )),
            Some((holder, b, _)) => Some(format!(
                "{holder} has bid {b}, which {bid} does not overcall"
            )),
            None => Some(format!("{bid} may not open the auction")),
        }
    }

    /// The seat due and every call it could make (after a compelled end, his bid while the
    /// record has not shown it).
    fn due_calls(&self) -> (Option<Seat>, Vec<Call<L::Bid>>) {
        match &self.end {
            Some(End::Compelled { declarer, bid }) => (
                Some(*declarer),
                (!self.shown)
                    .then(|| Call::Bid(bid.clone()))
                    .into_iter()
                    .collect(),
            ),
            Some(_) => (None, Vec::new()),
            None => (
                self.turn,
                std::iter::once(Call::Pass)
                    .chain(self.ladder.bids().into_iter().map(Call::Bid))
                    .collect(),
            ),
        }
    }

    /// The calls open to the seat due, for the message refusing another.
    fn open_calls(&self) -> (Option<Seat>, Vec<Call<L::Bid>>) {
        let (seat, calls) = self.due_calls();
        let open = match (seat, &self.end) {
            (Some(seat), None) => calls
                .into_iter()
                .filter(|c| self.refusal(seat, c).is_none())
                .collect(),
            _ => calls,
        };
        (seat, open)
    }

    /// Every call worth trying now (`HandState::candidates`): the pass and every bid of the ladder
    /// for the seat due (after a compelled end, his bid while the record has not shown it). `apply`
    /// judges them.
    pub fn candidates<V: Calls<L::Bid>>(&self) -> Vec<Action<V>> {
        let (Some(seat), calls) = self.due_calls() else {
            return Vec::new();
        };
        calls
            .into_iter()
            .map(|call| Action {
                seat,
                kind: V::of(call),
            })
            .collect()
    }

    /// Judges action `index` and, if it is a legal call, makes it. Returns how the auction ended
    /// when this call ended it. An action that is no call, or a call by a seat not due, does not
    /// fit the auction (README C11, C12); an illegal call is the record error `illegal_bid`.
    pub fn apply<V: Calls<L::Bid>>(
        &mut self,
        index: usize,
        action: &Action<V>,
    ) -> Result<Option<End<L::Bid>>, RecordError> {
        let seat = action.seat;
        let rule = self.conduct.rule;
        if let Some(End::Compelled { declarer, bid }) = &self.end {
            // Only the compelled seat's calls are still the auction's.
            return match action.kind.call().filter(|_| seat == *declarer) {
                None => Err(RecordError::out_of_phase(
                    index,
                    action,
                    *declarer,
                    &format!("the auction is over: {declarer} won it ({rule})"),
                )),
                Some(Call::Bid(b)) if b == *bid && !self.shown => {
                    self.shown = true;
                    Ok(None)
                }
                Some(_) => Err(RecordError::on(
                    "illegal_bid",
                    index,
                    action,
                    format!(
                        "nobody else bid, so {declarer} is compelled to bid {bid}{}: he may neither pass nor bid otherwise, and the auction is over ({rule})",
                        if self.shown {
                            ", as the record already shows"
                        } else {
                            ""
                        }
                    ),
                )),
            };
        }
        let Some(turn) = self.turn else {
            return Err(RecordError::out_of_phase(
                index,
                action,
                seat,
                &format!("the auction is over ({rule})"),
            ));
        };
        let call = match action.kind.call() {
            Some(call) if seat == turn => call,
            _ => {
                return Err(RecordError::out_of_phase(
                    index,
                    action,
                    turn,
                    &format!("the auction is not over: {turn} calls next ({rule})"),
                ));
            }
        };
        if let Some(why) = self.refusal(seat, &call) {
            let (_, open) = self.open_calls();
            let open: Vec<String> = open
                .iter()
                .map(|c| match c {
                    Call::Pass => "pass".to_string(),
                    Call::Bid(b) => b.to_string(),
                })
                .collect();
            let what = match &call {
                Call::Pass => "pass".to_string(),
                Call::Bid(b) => format!("bid {b}"),
            };
            return Err(RecordError::on(
                "illegal_bid",
                index,
                action,
                format!(
                    "{seat} may not {what}: {why}; his calls were {} ({rule})",
                    open.join(", ")
                ),
            ));
        }
        self.calls += 1;
        let mut closed = false;
        match call {
            Call::Pass => self.passed |= Self::bit(seat),
            Call::Bid(bid) => {
                closed = self
                    .ladder
                    .rank(&bid)
                    .is_some_and(|r| self.ladder.closes(&r));
                self.high = Some((seat, bid));
                if self.conduct.rounds == Rounds::PassesOpen {
                    self.passed = 0;
                }
            }
        }
        self.turn = None;
        let passes = self.passed.count_ones() as usize;
        let over = closed
            || match (self.conduct.rounds, &self.high) {
                (Rounds::One, _) => self.calls == self.table.size,
                (Rounds::PassesFinal, Some((h, _))) => {
                    self.passed == self.everyone() & !Self::bit(*h)
                }
                (Rounds::PassesOpen, Some(_)) => passes == self.table.size - 1,
                (_, None) => self.passed == self.everyone(),
            };
        let end = if over {
            Some(match (self.high.take(), &self.conduct.no_bid) {
                (Some((declarer, bid)), _) => End::Won { declarer, bid },
                (None, NoBid::Compelled(declarer, bid)) => End::Compelled {
                    declarer: *declarer,
                    bid: bid.clone(),
                },
                // The others cannot all pass here: `LastMustBid` refuses the last seat's pass and
                // `LastCompelled` ends the auction before his turn.
                (None, _) => End::Passed,
            })
        } else {
            let mut next = self.table.next(seat);
            while self.conduct.rounds == Rounds::PassesFinal && self.passed & Self::bit(next) != 0 {
                next = self.table.next(next);
            }
            match &self.conduct.no_bid {
                NoBid::LastCompelled(bid) if self.alone(next) => Some(End::Compelled {
                    declarer: next,
                    bid: bid.clone(),
                }),
                _ => {
                    self.turn = Some(next);
                    None
                }
            }
        };
        self.end.clone_from(&end);
        Ok(end)
    }
}

/// The bids of a game that bids a whole number (of points or tricks) from `low` to `high`.
#[derive(Clone, Copy, Debug)]
pub struct Numbers {
    pub low: u8,
    pub high: u8,
}

impl Ladder for Numbers {
    type Bid = Number;
    type Rank = u8;

    fn rank(&self, bid: &Number) -> Option<u8> {
        (self.low..=self.high).contains(&bid.0).then_some(bid.0)
    }

    fn bids(&self) -> Vec<Number> {
        (self.low..=self.high).map(Number).collect()
    }
}

/// A bid that is a whole number, of points or tricks: 0 to 99 on the wire (a number the game does
/// not bid is the record error `illegal_bid`, not a malformed record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Number(pub u8);

impl Number {
    const MAX: u64 = 99;

    /// Reads a bid sent as a JSON number.
    pub fn read<E: de::Error>(v: i128) -> Result<Number, E> {
        u8::try_from(v)
            .ok()
            .filter(|n| u64::from(*n) <= Number::MAX)
            .map(Number)
            .ok_or_else(|| E::custom(format!("{v} is not a bid: expected 0 to {}", Number::MAX)))
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl serde::Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a bid: a whole number from 0 to {}", Number::MAX)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
                Number::read(v.into())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
                Number::read(v.into())
            }
        }
        d.deserialize_any(V)
    }
}

impl PartialSchema for Number {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .maximum(Some(Number::MAX))
            .into()
    }
}

impl ToSchema for Number {}

impl Placeholder for Number {
    const PLACEHOLDER: &'static str = "<bid>";
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::verbs! {
        /// A test game's calls.
        enum Verb in "Test" {
            Pass(crate::record::Yes) = "pass": "A pass.",
            Bid(Number) = "bid": "A bid.",
            Play(crate::cards::Card) = "play": "A card.",
        }
    }

    impl Calls<Number> for Verb {
        fn call(&self) -> Option<Call<Number>> {
            match self {
                Verb::Pass(_) => Some(Call::Pass),
                Verb::Bid(b) => Some(Call::Bid(*b)),
                Verb::Play(_) => None,
            }
        }

        fn of(call: Call<Number>) -> Verb {
            match call {
                Call::Pass => Verb::Pass(crate::record::Yes),
                Call::Bid(b) => Verb::Bid(b),
            }
        }
    }

    fn conduct(rounds: Rounds, no_bid: NoBid<Number>) -> Conduct<Number> {
        Conduct {
            rounds,
            equal: None,
            no_bid,
            rule: "test §3",
        }
    }

    fn pass(seat: Seat) -> Action<Verb> {
        Action {
            seat,
            kind: Verb::Pass(crate::record::Yes),
        }
    }

    fn bid(seat: Seat, n: u8) -> Action<Verb> {
        Action {
            seat,
            kind: Verb::Bid(Number(n)),
        }
    }

    /// Plays `calls` in order, returning the last result.
    fn run<L: Ladder<Bid = Number>>(
        auction: &mut Auction<L>,
        calls: &[Action<Verb>],
    ) -> Result<Option<End<Number>>, RecordError> {
        let mut last = Ok(None);
        for (i, a) in calls.iter().enumerate() {
            last = auction.apply(i, a);
            if last.is_err() {
                break;
            }
        }
        last
    }

    /// The calls the auction takes now: its candidates that `apply` accepts on a copy.
    fn offered<L: Ladder<Bid = Number> + Clone>(auction: &Auction<L>) -> Vec<String> {
        auction
            .candidates::<Verb>()
            .iter()
            .filter(|a| auction.clone().apply(0, a).is_ok())
            .map(|a| serde_json::to_string(a).unwrap())
            .collect()
    }

    const SEVEN_UP: Numbers = Numbers { low: 7, high: 13 };

    #[test]
    fn passes_final_ends_when_all_others_passed_after_a_bid_skipping_passed_seats() {
        // Nomination Whist §3: from Eldest (E), a pass is final.
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            conduct(Rounds::PassesFinal, NoBid::Passed),
        );
        let r = run(
            &mut a,
            &[
                bid(Seat::E, 7),
                pass(Seat::S),
                bid(Seat::W, 8),
                pass(Seat::N),
            ],
        );
        assert_eq!(r.unwrap(), None);
        assert_eq!(a.due(), Some(Seat::E), "S and N passed: E speaks again");
        assert_eq!(
            a.apply(4, &bid(Seat::S, 9)).unwrap_err().code,
            "out_of_turn",
            "a passed seat is skipped"
        );
        assert_eq!(
            a.apply(4, &pass(Seat::E)).unwrap(),
            Some(End::Won {
                declarer: Seat::W,
                bid: Number(8)
            })
        );
        assert_eq!(a.due(), None);
    }

    #[test]
    fn passes_open_lets_a_seat_bid_again_and_ends_after_a_round_of_passes() {
        let mut a = Auction::new(
            Table::FOUR,
            Seat::N,
            SEVEN_UP,
            conduct(Rounds::PassesOpen, NoBid::Passed),
        );
        let calls = [
            bid(Seat::N, 7),
            pass(Seat::E),
            pass(Seat::S),
            bid(Seat::W, 8),
            pass(Seat::N),
            bid(Seat::E, 9), // E passed before and bids again
            pass(Seat::S),
            pass(Seat::W),
        ];
        assert_eq!(run(&mut a, &calls).unwrap(), None);
        assert_eq!(
            a.apply(8, &pass(Seat::N)).unwrap(),
            Some(End::Won {
                declarer: Seat::E,
                bid: Number(9)
            })
        );
        let mut a = Auction::new(
            Table::FOUR,
            Seat::N,
            SEVEN_UP,
            conduct(Rounds::PassesOpen, NoBid::Passed),
        );
        let all = [pass(Seat::N), pass(Seat::E), pass(Seat::S), pass(Seat::W)];
        assert_eq!(run(&mut a, &all).unwrap(), Some(End::Passed));
    }

    #[test]
    fn a_bid_after_three_passes_ends_the_auction_at_once() {
        // Auction Solo AS-a: nobody is left to overcall.
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            conduct(Rounds::PassesFinal, NoBid::Passed),
        );
        let calls = [pass(Seat::E), pass(Seat::S), pass(Seat::W), bid(Seat::N, 7)];
        assert_eq!(
            run(&mut a, &calls).unwrap(),
            Some(End::Won {
                declarer: Seat::N,
                bid: Number(7)
            })
        );
    }

    #[test]
    fn the_offer_is_what_the_judge_accepts_and_an_illegal_call_says_what_was_open() {
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            conduct(Rounds::PassesFinal, NoBid::Passed),
        );
        run(&mut a, &[bid(Seat::E, 11)]).unwrap();
        assert_eq!(
            offered(&a),
            [
                r#"{"seat":"S","pass":true}"#,
                r#"{"seat":"S","bid":12}"#,
                r#"{"seat":"S","bid":13}"#
            ]
        );
        for n in 0..=99 {
            let legal = a.clone().apply(1, &bid(Seat::S, n)).is_ok();
            assert_eq!(legal, (12..=13).contains(&n), "bid {n}");
        }
        let e = a.apply(1, &bid(Seat::S, 11)).unwrap_err();
        assert_eq!(
            (e.code, e.pointer.as_str()),
            ("illegal_bid", "/actions/1/bid")
        );
        assert!(e.detail.contains("E has bid 11"), "{}", e.detail);
        assert!(e.detail.contains("pass, 12, 13 (test §3)"), "{}", e.detail);
        let play = Action {
            seat: Seat::S,
            kind: Verb::Play("AS".parse().unwrap()),
        };
        assert_eq!(a.apply(1, &play).unwrap_err().code, "unexpected_action");
    }

    /// Imperial Tarot §3: a level and a multiplier; the first bid a Skirmish (level 1), each later
    /// bid exactly one level higher or the same level with a higher multiplier.
    #[derive(Clone, Debug)]
    struct Tarot;

    impl Ladder for Tarot {
        type Bid = Number; // level × 10 + multiplier (0 with, 1 without, 2 against the People)
        type Rank = (u8, u8);

        fn rank(&self, bid: &Number) -> Option<(u8, u8)> {
            let (level, multiplier) = (bid.0 / 10, bid.0 % 10);
            ((1..=5).contains(&level) && multiplier <= 2).then_some((level, multiplier))
        }

        fn bids(&self) -> Vec<Number> {
            (1..=5)
                .flat_map(|l| (0..=2).map(move |m| Number(l * 10 + m)))
                .collect()
        }

        fn follows(&self, _: Seat, bid: &(u8, u8), standing: Option<&(u8, u8)>) -> bool {
            match standing {
                None => bid.0 == 1,
                Some(s) => bid.0 == s.0 + 1 || (bid.0 == s.0 && bid.1 > s.1),
            }
        }
    }

    #[test]
    fn a_game_without_jump_bids_offers_one_step_up() {
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            Tarot,
            conduct(Rounds::PassesFinal, NoBid::Passed),
        );
        assert_eq!(
            a.clone().apply(0, &bid(Seat::E, 20)).unwrap_err().code,
            "illegal_bid"
        );
        run(&mut a, &[bid(Seat::E, 11)]).unwrap();
        let bids: Vec<String> = offered(&a).into_iter().skip(1).collect();
        assert_eq!(
            bids,
            [
                r#"{"seat":"S","bid":12}"#,
                r#"{"seat":"S","bid":20}"#,
                r#"{"seat":"S","bid":21}"#,
                r#"{"seat":"S","bid":22}"#
            ]
        );
        assert_eq!(
            a.apply(1, &bid(Seat::S, 30)).unwrap_err().code,
            "illegal_bid"
        );
    }

    #[test]
    fn the_last_seat_must_bid_or_is_compelled_or_a_named_seat_is() {
        let equal = |no_bid| Conduct {
            equal: Some(Seat::N),
            ..conduct(Rounds::One, no_bid)
        };
        let three = [pass(Seat::E), pass(Seat::S), pass(Seat::W)];
        // Pitch PI-a: the dealer must call the forced bid.
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            equal(NoBid::LastMustBid(Number(7))),
        );
        run(&mut a, &three).unwrap();
        assert_eq!(offered(&a), [r#"{"seat":"N","bid":7}"#]);
        assert_eq!(
            a.clone().apply(3, &pass(Seat::N)).unwrap_err().code,
            "illegal_bid"
        );
        assert_eq!(
            a.apply(3, &bid(Seat::N, 7)).unwrap(),
            Some(End::Won {
                declarer: Seat::N,
                bid: Number(7)
            })
        );
        // Pitch PI-3: the seat named may equal the standing bid; the others may not.
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            equal(NoBid::LastMustBid(Number(7))),
        );
        run(&mut a, &[bid(Seat::E, 9), pass(Seat::S)]).unwrap();
        assert_eq!(
            a.apply(2, &bid(Seat::W, 9)).unwrap_err().code,
            "illegal_bid"
        );
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            equal(NoBid::LastMustBid(Number(7))),
        );
        run(&mut a, &[bid(Seat::E, 9), pass(Seat::S), pass(Seat::W)]).unwrap();
        assert_eq!(
            a.apply(3, &bid(Seat::N, 9)).unwrap(),
            Some(End::Won {
                declarer: Seat::N,
                bid: Number(9)
            })
        );
        // Twenty-Nine §3: compelled without a call; the record may show the bid once.
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            conduct(Rounds::PassesFinal, NoBid::LastCompelled(Number(7))),
        );
        let end = Some(End::Compelled {
            declarer: Seat::N,
            bid: Number(7),
        });
        assert_eq!(run(&mut a, &three).unwrap(), end);
        assert_eq!(a.compelled(), Some(Seat::N));
        assert_eq!(offered(&a), [r#"{"seat":"N","bid":7}"#]);
        assert_eq!(
            a.clone().apply(3, &bid(Seat::N, 8)).unwrap_err().code,
            "illegal_bid"
        );
        assert_eq!(a.apply(3, &bid(Seat::N, 7)).unwrap(), None);
        assert!(offered(&a).is_empty());
        assert_eq!(
            a.apply(4, &bid(Seat::N, 7)).unwrap_err().code,
            "illegal_bid"
        );
        // Hasenpfeffer §2.3: all four pass, the named seat is compelled.
        let mut a = Auction::new(
            Table::FOUR,
            Seat::E,
            SEVEN_UP,
            conduct(Rounds::One, NoBid::Compelled(Seat::S, Number(9))),
        );
        let four = [pass(Seat::E), pass(Seat::S), pass(Seat::W), pass(Seat::N)];
        assert_eq!(
            run(&mut a, &four).unwrap(),
            Some(End::Compelled {
                declarer: Seat::S,
                bid: Number(9)
            })
        );
    }

    /// Calabrasella §2: three players pass or `play` (a bid of 1 here); the first play ends it.
    #[derive(Clone, Debug)]
    struct Play;

    impl Ladder for Play {
        type Bid = Number;
        type Rank = u8;

        fn rank(&self, bid: &Number) -> Option<u8> {
            (bid.0 == 1).then_some(1)
        }

        fn bids(&self) -> Vec<Number> {
            vec![Number(1)]
        }

        fn closes(&self, _: &u8) -> bool {
            true
        }
    }

    #[test]
    fn a_closing_bid_ends_the_auction_at_once() {
        let table = Table::solo(3);
        let (p1, p2) = (table.seat(0), table.seat(1));
        let mut a = Auction::new(table, p1, Play, conduct(Rounds::One, NoBid::Passed));
        let end = run(&mut a, &[pass(p1), bid(p2, 1)]).unwrap();
        assert_eq!(
            end,
            Some(End::Won {
                declarer: p2,
                bid: Number(1)
            })
        );
        assert_eq!(a.due(), None);
    }

    #[test]
    fn the_calls_go_as_the_table_plays_at_any_size() {
        // Calabrasella: three players; a counter-clockwise table passes the call to the right.
        let table = Table::solo(3).counterclockwise();
        let mut a = Auction::new(
            table,
            table.seat(0),
            SEVEN_UP,
            conduct(Rounds::One, NoBid::Passed),
        );
        run(&mut a, &[pass(table.seat(0))]).unwrap();
        assert_eq!(a.due(), Some(table.seat(2)));
        let end = run(&mut a, &[pass(table.seat(2)), pass(table.seat(1))]).unwrap();
        assert_eq!(end, Some(End::Passed));
    }

    #[test]
    fn numbers_read_from_0_to_99() {
        assert_eq!(serde_json::from_str::<Number>("99").unwrap(), Number(99));
        for bad in ["100", "-1", "\"smudge\"", "1.5"] {
            let e = serde_json::from_str::<Number>(bad).unwrap_err().to_string();
            assert!(e.contains("bid"), "{bad}: {e}");
        }
    }
}
