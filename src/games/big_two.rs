//! Big Two (`docs/rules/big-two.md`): 2 to 4 players each for himself, 13 cards each from the
//! 52-card pack (the rest set aside with fewer than four); ranks 2 A K Q J T 9 8 7 6 5 4 3, suits
//! ♠ > ♥ > ♣ > ♦. A climbing game: its unit is a turn, not a trick. The holder of the lowest card
//! in play starts; each play is a single, pair, triple or five-card hand beating the last one of
//! its size, or a pass; after n − 1 passes the last player to play leads anything. The first player
//! out ends the hand; the others score penalty points for their cards, and the lowest total wins
//! once someone reaches the target.

use crate::cards::{Card, CardSet, Rank, Suit, names, packs, subsets};
use crate::details::{self, NoDetails};
use crate::engine::{
    Adjudication, Decided, Effect, Ending, Event, FieldError, GameInfo, HandState, Irregularity,
    Locus, MatchState, OptionKind, OptionSpec, Options, PerSide, RecordError, Rules, ScoreSource,
    Seat, Side, Table, TableView, deal,
};
use crate::record::{Action, HandRecord, Placeholder};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub struct BigTwo;

crate::verbs! {
    /// What a record of Big Two can say.
    pub enum Verb in "Big Two" {
        Play(Cards) = "play": "The combination the seat puts on the table: one or more cards.",
        Pass(crate::record::Yes) = "pass": "The seat does not play this turn (value `true`).",
        CountQuery(CountQuery) = "count_query": "A player asked another how many cards he holds, and the answer given (takes no turn).",
        Correct(Card) = "correct": "Every game's record has it; Big Two has nothing to correct, so it is always `invalid_correct`.",
    }
}

/// The cards of one play, as recorded (the game judges them: a card not held, named twice or an
/// invalid shape are the record's or the player's faults, not a malformed request).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
pub struct Cards(pub Vec<Card>);

impl Placeholder for Cards {
    const PLACEHOLDER: &'static str = "<cards as a JSON array: [\"3D\", \"3S\"]>";
}

/// A count query (§2 item 3, BT-2, BT-c): who asked whom, and the answer given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CountQuery {
    /// The seat that asked: the action's own seat.
    pub asker: Seat,
    /// The seat asked how many cards it holds.
    pub asked: Seat,
    /// The answer given: a whole number; anything else is the record error `unexpected_action`
    /// (BT-f), so any value is read here.
    pub answer: serde_json::Value,
}

impl Placeholder for CountQuery {
    const PLACEHOLDER: &'static str =
        "{\"asker\": \"<seat>\", \"asked\": \"<seat>\", \"answer\": <number>}";
}

/// What Big Two adds to the adjudication.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = BigTwoDetails)]
pub struct Details {
    /// The seat that went out (no cards left); `null` when no one did.
    pub went_out: Option<Seat>,
    /// The cards each seat holds at the end of the replay.
    #[schema(value_type = std::collections::BTreeMap<String, u32>)]
    pub cards_left: std::collections::BTreeMap<Seat, u32>,
    /// The lowest card in play, which the first play must contain (§3).
    pub lowest_card: Card,
}

/// What the table sees beside the hands: the combination to beat.
#[derive(Debug, Serialize)]
struct ViewDetails {
    /// The combination on the table, `null` when the seat to act leads.
    current: Option<Standing>,
    /// Consecutive passes since it was played.
    passes: usize,
    lowest_card: Card,
}

static INFO: GameInfo = GameInfo {
    id: "big-two",
    name: "Big Two",
    // The `players` option: 4 (the default), 2 or 3, each for himself.
    tables: crate::engine::Tables(&[Table::solo(4), Table::solo(2), Table::solo(3)]),
    deck: "52-card pack; 13 cards each, the rest set aside with 2 or 3 players",
    // The total that ends the game (the `target` option, default 100); the lowest total wins.
    game_target: 100,
    options: &[
        OptionSpec {
            name: "players",
            kind: OptionKind::Choice {
                values: &["2", "3", "4"],
                default: "4",
            },
            description: "Number of players, each for himself (seats P1..Pn; at four, N E S W as at every \
                          four-seat table); each player's side has his seat's name.",
            rule: "big-two.md §1",
        },
        OptionSpec {
            name: "target",
            kind: OptionKind::Count {
                min: 1,
                max: 10_000,
                default: 100,
            },
            description: "The total of penalty points that ends the game when a player reaches it at the \
                          end of a hand (penalties included); the lowest total wins.",
            rule: "big-two.md §6 BT-6",
        },
        OptionSpec {
            name: "penalties",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "default: 10 penalty points to the offender per illegal_combination or \
                          false_count (§5 DEFAULT); none: irregularities are reported without points.",
            rule: "big-two.md §5",
        },
    ],
    rules: "docs/rules/big-two.md",
    irregularities: &["illegal_combination", "false_count"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "pass_on_lead",
        "card_not_held",
        "card_played_twice",
        "unexpected_action",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["played", "passed", "count_query"],
    score_codes: &["cards_left"],
    titles: crate::engine::Titles(&[
        ("illegal_combination", "Combination the rules do not allow"),
        ("false_count", "Wrong answer to a count of cards"),
        ("pass_on_lead", "Pass by the player who must lead"),
        ("played", "Played"),
        ("passed", "Passed"),
        ("count_query", "Count of cards asked"),
        ("cards_left", "Cards left in hand"),
    ]),
};

/// §1: 13 cards each.
const DEALT: usize = 13;
/// §5 DEFAULT: penalty points per irregularity.
const PENALTY: i32 = 10;

/// §1: 3 lowest … K, A, 2 highest.
fn rank_power(rank: Rank) -> u32 {
    match rank {
        Rank::Two => 12,
        r => r as u32 - Rank::Three as u32,
    }
}

/// §1: ♦ < ♣ < ♥ < ♠.
fn suit_power(suit: Suit) -> u32 {
    match suit {
        Suit::Diamonds => 0,
        Suit::Clubs => 1,
        Suit::Hearts => 2,
        Suit::Spades => 3,
    }
}

/// A card's place in the whole order: rank, then suit (singles, the lowest card in play).
fn power(card: Card) -> u32 {
    rank_power(card.rank_unchecked()) * 4 + suit_power(card.suit_unchecked())
}

/// The kinds of combination (BT-1), five-card hands from weakest to best (§3 4.6 … 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
enum Shape {
    Single,
    Pair,
    Triple,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
    RoyalFlush,
}

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::Single => "single",
            Shape::Pair => "pair",
            Shape::Triple => "triple",
            Shape::Straight => "straight",
            Shape::Flush => "flush",
            Shape::FullHouse => "full house",
            Shape::FourOfAKind => "four of a kind",
            Shape::StraightFlush => "straight flush",
            Shape::RoyalFlush => "royal flush",
        }
    }
}

/// What a `played` event adds (as fields, beside its text): the kind of combination (`null` for
/// an invalid one, BT-d) and whether the play led (the table was clear).
#[derive(Debug, Serialize)]
struct Play {
    combination: Option<Shape>,
    led: bool,
}

/// A valid combination and its strength, comparable with any valid combination of as many cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Combination {
    shape: Shape,
    strength: u32,
}

/// What a set of cards makes (§3), or `None` for an invalid shape.
fn classify(cards: &[Card]) -> Option<Combination> {
    let same_rank = cards
        .iter()
        .all(|c| c.rank_unchecked() == cards[0].rank_unchecked());
    let rank = cards.first().map(|c| rank_power(c.rank_unchecked()))?;
    let top_suit = cards.iter().map(|c| suit_power(c.suit_unchecked())).max()?;
    let (shape, strength) = match cards.len() {
        1 => (Shape::Single, power(cards[0])),
        // BT-5: equal ranks are decided by the higher-suited card of the pair.
        2 if same_rank => (Shape::Pair, rank * 4 + top_suit),
        3 if same_rank => (Shape::Triple, rank),
        5 => five(cards)?,
        _ => return None,
    };
    Some(Combination { shape, strength })
}

/// A five-card hand: its shape and, within the shape, its strength (§3 4, BT-3, BT-4).
fn five(cards: &[Card]) -> Option<(Shape, u32)> {
    let flush = cards
        .iter()
        .all(|c| c.suit_unchecked() == cards[0].suit_unchecked());
    // Natural order, the ace high (14); A2345 is the one run with the ace low (BT-3).
    let mut natural: Vec<u32> = cards.iter().map(|c| c.rank_unchecked() as u32).collect();
    natural.sort_unstable();
    let distinct = natural.windows(2).all(|w| w[0] != w[1]);
    let top = match natural[..] {
        _ if !distinct => None,
        [2, 3, 4, 5, 14] => Some(5),
        [low, .., high] if high - low == 4 => Some(high),
        _ => None,
    };
    if let Some(top) = top {
        let top_card = cards
            .iter()
            .find(|c| c.rank_unchecked() as u32 == top)
            .expect("the top card is in the run");
        // Straights by top card, then its suit.
        let run = top << 2 | suit_power(top_card.suit_unchecked());
        return Some(match (flush, top) {
            (true, 14) => (Shape::RoyalFlush, suit_power(top_card.suit_unchecked())),
            (true, _) => (Shape::StraightFlush, run),
            (false, _) => (Shape::Straight, run),
        });
    }
    // Runs of equal ranks, longest first.
    let mut counts: Vec<(usize, Rank)> = Vec::with_capacity(2);
    for c in cards {
        let r = c.rank_unchecked();
        match counts.iter_mut().find(|(_, x)| *x == r) {
            Some((n, _)) => *n += 1,
            None => counts.push((1, r)),
        }
    }
    counts.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
    match counts[..] {
        [(4, r), _] => Some((Shape::FourOfAKind, rank_power(r))),
        [(3, r), (2, _)] => Some((Shape::FullHouse, rank_power(r))),
        _ if flush => {
            // BT-4: by suit, then the highest card in Big Two order, then the next, …
            let mut ranks: Vec<u32> = cards
                .iter()
                .map(|c| rank_power(c.rank_unchecked()))
                .collect();
            ranks.sort_unstable_by(|a, b| b.cmp(a));
            let by_rank = ranks.iter().fold(0, |acc, r| acc << 4 | r);
            Some((
                Shape::Flush,
                suit_power(cards[0].suit_unchecked()) << 20 | by_rank,
            ))
        }
        _ => None,
    }
}

impl Combination {
    /// The strength across five-card shapes (a flush beats any straight, …): shape first.
    fn rank(self) -> u64 {
        (self.shape as u64) << 32 | self.strength as u64
    }
}

/// Why a play is an illegal combination (BT-a, checked in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    InvalidShape,
    WrongSize,
    NotHigher,
    MissingLowest,
}

/// The combination on the table: who played it, its cards, and what it is (`None`: a standing
/// invalid shape, BT-d).
#[derive(Clone, Debug, Serialize)]
struct Standing {
    seat: Seat,
    cards: Vec<Card>,
    shape: Option<Shape>,
    #[serde(skip)]
    combination: Option<Combination>,
}

impl Rules for BigTwo {
    type Verb = Verb;
    type Details = Details;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, options: &Options) -> Table {
        match options.choice("players") {
            "2" => Table::solo(2),
            "3" => Table::solo(3),
            _ => Table::solo(4),
        }
    }

    fn setup(&self, _: &Options) -> deal::Setup {
        deal::Setup {
            pack: packs::standard52(),
            hand: deal::HandSize::Each(DEALT),
            counted_by: None,
            // With 2 or 3 players the rest is set aside; a record may list it (all of it).
            parts: &[deal::Holds {
                part: deal::Part::Stock,
                what: "the cards set aside with 2 or 3 players",
                count: deal::Count::Rest { at_least: 0 },
            }],
        }
    }

    /// BT-6: the target is an option.
    fn game_target(&self, options: &Options) -> i32 {
        options.count("target") as i32
    }

    /// §4, BT-b: a total at the target (an option) has ended the game; the lowest total wins, and
    /// ties share the win.
    fn already_won(&self, scores: &PerSide<i32>, options: &Options) -> Option<Decided> {
        let target = self.game_target(options);
        let at = scores.sides().find(|&s| scores[s] >= target)?;
        let low = scores.sides().map(|s| scores[s]).min()?;
        let mut lowest = scores.sides().filter(|&s| scores[s] == low);
        let winner = match (lowest.next(), lowest.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        };
        Some(Decided {
            winner,
            at,
            why: format!("{at} has {} and the game ends at {target}", scores[at]),
        })
    }

    /// §4: the lowest total wins (a league places players from the lowest score up).
    fn lowest_total_wins(&self) -> bool {
        true
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::standard52();
        let mut dealt = deal::check_cards(record, table, &pack)?;
        // §1: the set-aside cards may be stated, but then all of them (`setup` bounds the stock by
        // what the pack leaves: none at four).
        if !record.stock.is_empty() {
            deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
            if dealt.all.len() != pack.len() {
                return Err(vec![FieldError::new(
                    "/stock".into(),
                    format!(
                        "the set-aside cards are stated all or not at all: {} are set aside, the stock lists {}",
                        pack.len() as usize - DEALT * table.size,
                        record.stock.len()
                    ),
                )]);
            }
        }
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let hands: Vec<CardSet> = table.seats().map(|s| dealt.hands[s.pos()]).collect();
        // §2: the lowest card dealt (3D if dealt, else 3C, 3H, 3S, 4D, …).
        let lowest = hands
            .iter()
            .flat_map(|h| h.iter())
            .min_by_key(|&c| power(c))
            .expect("13 cards each are dealt");
        let first = table
            .seats()
            .find(|s| hands[s.pos()].contains(lowest))
            .expect("the lowest card is dealt");
        let mut adj = Adjudication::new(INFO.id, dealer, before, 0);
        adj.tally = PerSide::over(table.sides());
        Ok(Box::new(Hand {
            table,
            dealt: hands.clone(),
            hands,
            lowest,
            to_act: first,
            current: None,
            passes: 0,
            played: false,
            out: None,
            target: self.game_target(options),
            penalties: options.choice("penalties") == "default",
            adj,
        }))
    }
}

#[derive(Clone)]
struct Hand {
    table: Table,
    /// Every seat's dealt cards, by table position.
    dealt: Vec<CardSet>,
    /// Every seat's cards now.
    hands: Vec<CardSet>,
    lowest: Card,
    to_act: Seat,
    /// The combination to beat; `None` when `to_act` leads.
    current: Option<Standing>,
    /// Consecutive passes since `current` was played.
    passes: usize,
    /// Whether any play has been made (the first must contain the lowest card).
    played: bool,
    out: Option<Seat>,
    target: i32,
    penalties: bool,
    adj: Adjudication,
}

impl Hand {
    /// §3, BT-a, BT-d: why `cards` may not be played now, or `None` if they may.
    fn judge(&self, cards: &[Card]) -> Option<Reason> {
        let Some(combination) = classify(cards) else {
            return Some(Reason::InvalidShape);
        };
        if let Some(current) = &self.current {
            if cards.len() != current.cards.len() {
                return Some(Reason::WrongSize);
            }
            // A standing invalid shape is beaten by any valid combination of its size (BT-d).
            if current
                .combination
                .is_some_and(|c| combination.rank() <= c.rank())
            {
                return Some(Reason::NotHigher);
            }
        }
        if !self.played && !cards.contains(&self.lowest) {
            return Some(Reason::MissingLowest);
        }
        None
    }

    fn explain(&self, seat: Seat, reason: Reason) -> String {
        match (reason, &self.current) {
            (Reason::InvalidShape, _) => format!(
                "{seat}'s play is no combination: a single, a pair, a triple or one of the six five-card hands (§3)"
            ),
            (Reason::WrongSize, Some(c)) => format!(
                "{seat} must play {} cards, the size of {}'s combination, or pass (§3)",
                c.cards.len(),
                c.seat
            ),
            (Reason::NotHigher, Some(c)) => format!(
                "{seat}'s combination does not beat {}'s {} (§3)",
                c.seat,
                names(&c.cards)
            ),
            (Reason::MissingLowest, _) => format!(
                "the first play of the hand must contain the lowest card in play, {} (§3)",
                self.lowest
            ),
            _ => unreachable!("size and strength are judged against a combination on the table"),
        }
    }

    fn play(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        cards: &[Card],
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        if cards.is_empty() {
            return Err(RecordError::unexpected(
                index,
                action,
                "a play names one or more cards; a seat that does not play passes (BT-f)".into(),
            ));
        }
        for (j, &card) in cards.iter().enumerate() {
            let fault = if !self.dealt[seat.pos()].contains(card) {
                Some(("card_not_held", format!("{seat} was not dealt {card}")))
            } else if cards[..j].contains(&card) {
                Some((
                    "unexpected_action",
                    format!("{card} is named twice in one play"),
                ))
            } else if !self.hands[seat.pos()].contains(card) {
                Some(("card_played_twice", format!("{seat} already played {card}")))
            } else {
                None
            };
            if let Some((code, detail)) = fault {
                return Err(RecordError::at(
                    code,
                    index,
                    seat,
                    format_args!("play/{j}"),
                    detail,
                ));
            }
        }
        let leads = self.current.is_none();
        let reason = self.judge(cards);
        let combination = classify(cards);
        for &card in cards {
            self.hands[seat.pos()].remove(card);
        }
        if let Some(reason) = reason {
            self.offence(
                "illegal_combination",
                index,
                seat,
                self.explain(seat, reason),
                "its cards stand as the combination to beat, and its player as the last who played (BT-d)",
            );
        }
        let what = combination.map_or("an invalid combination", |c| c.shape.name());
        self.adj.events.push(
            Event::new(
                "played",
                index,
                seat,
                cards.to_vec(),
                format!(
                    "{seat} {} {} ({what})",
                    if leads { "leads" } else { "plays" },
                    names(cards)
                ),
            )
            .with(details::Details::of(Play {
                combination: combination.map(|c| c.shape),
                led: leads,
            })),
        );
        self.current = Some(Standing {
            seat,
            cards: cards.to_vec(),
            shape: combination.map(|c| c.shape),
            combination,
        });
        self.passes = 0;
        self.played = true;
        if self.hands[seat.pos()].is_empty() {
            // §4, BT-b: the first player out ends the hand, even with an illegal combination.
            self.out = Some(seat);
        }
        self.to_act = self.table.next(seat);
        Ok(())
    }

    fn pass(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.current.is_none() {
            return Err(RecordError::on(
                "pass_on_lead",
                index,
                action,
                format!("{seat} must lead a combination: the player who leads cannot pass (BT-b)"),
            ));
        }
        self.passes += 1;
        self.adj.events.push(Event::new(
            "passed",
            index,
            seat,
            Vec::new(),
            format!("{seat} passes"),
        ));
        // §3: after n − 1 passes the last player who played leads anything.
        if self.passes == self.table.size - 1 {
            self.current = None;
        }
        self.to_act = self.table.next(seat);
        Ok(())
    }

    fn count_query(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        q: &CountQuery,
    ) -> Result<(), RecordError> {
        let at = |field: &str, detail: String| {
            RecordError::at(
                "unexpected_action",
                index,
                action.seat,
                format!("count_query/{field}"),
                detail,
            )
        };
        let names = self.table.names();
        let Some(asker) = self.table.resolve(q.asker) else {
            return Err(at(
                "asker",
                format!("no seat {} at this table: expected {names}", q.asker),
            ));
        };
        let Some(asked) = self.table.resolve(q.asked) else {
            return Err(at(
                "asked",
                format!("no seat {} at this table: expected {names}", q.asked),
            ));
        };
        if asker != action.seat {
            return Err(at(
                "asker",
                format!("the asker is the action's seat, {}", action.seat),
            ));
        }
        if asked == asker {
            return Err(at(
                "asked",
                "a player asks another player how many cards he holds".into(),
            ));
        }
        let Some(answer) = whole_number(&q.answer) else {
            return Err(at(
                "answer",
                format!("{} is not a whole number of cards (BT-f)", q.answer),
            ));
        };
        let held = self.hands[asked.pos()].len();
        self.adj.events.push(Event::new(
            "count_query",
            index,
            asker,
            Vec::new(),
            format!("{asker} asks {asked} how many cards he holds: {answer} (he holds {held})"),
        ));
        if answer != i128::from(held) {
            self.offence(
                "false_count",
                index,
                asked,
                format!("{asked} answered {answer} when asked how many cards he holds, and holds {held} (BT-2, BT-c)"),
                "every player must answer truthfully",
            );
        }
        Ok(())
    }

    /// Logs an irregularity; its penalty is scored at the end of the hand (§5 DEFAULT).
    fn offence(
        &mut self,
        code: &'static str,
        index: usize,
        seat: Seat,
        explanation: String,
        why: &str,
    ) {
        let consequence = if self.penalties {
            format!("{PENALTY} penalty points to {seat} at the end of the hand (§5 DEFAULT); {why}")
        } else {
            format!("no penalty points (penalties none); {why}")
        };
        self.adj.irregularities.push(Irregularity {
            code,
            action_index: Some(index),
            trick: None,
            seat,
            card: None,
            rule: "big-two.md §3, §5",
            explanation,
            consequence,
            effect: Effect::default(),
        });
    }

    /// Every combination `seat` holds, legal now or not: each single, pair, triple and five-card
    /// set (§3), weakest first; `apply` judges them.
    fn combinations(&self, seat: Seat) -> Vec<Vec<Card>> {
        let mut hand: Vec<Card> = self.hands[seat.pos()].iter().collect();
        hand.sort_unstable_by_key(|&c| power(c));
        let mut out = Vec::new();
        for size in [1, 2, 3, 5] {
            subsets(&hand, size, &mut |cards| {
                // A pair or a triple is of one rank; a five-card set is any five.
                if size == 5 || cards.iter().all(|c| c.rank() == cards[0].rank()) {
                    out.push(cards.to_vec());
                }
            });
        }
        out
    }

    /// §4: 1 per card left at 9 or fewer, 2 per card at 10–12, 39 for all 13.
    fn card_points(cards: u32) -> i32 {
        match cards as i32 {
            13 => 39,
            n @ 10..=12 => 2 * n,
            n => n,
        }
    }

    /// §4, §5: the cards left, the penalties and the game, once `out` has gone out.
    fn score(
        adj: &mut Adjudication,
        hands: &[CardSet],
        out: Seat,
        table: Table,
        target: i32,
        penalties: bool,
    ) {
        for seat in table.seats().filter(|&s| s != out) {
            let points = Self::card_points(hands[seat.pos()].len());
            adj.score(
                table.side(seat),
                points,
                ScoreSource::Tricks,
                "cards_left",
                None,
            );
        }
        if penalties {
            for i in 0..adj.irregularities.len() {
                let side = table.side(adj.irregularities[i].seat);
                adj.penalize(i, side, PENALTY);
            }
        }
        adj.settle();
        adj.hand_winner = Some(table.side(out));
        let m = &mut adj.match_after;
        m.next_dealer = Some(table.left(adj.dealer));
        // §4, BT-b: the game ends when a total reaches the target; the lowest total wins, ties
        // share the win (every side tied for the lowest total is among the `winners`).
        if table.sides().any(|s| m.scores[s] >= target) {
            let low = table
                .sides()
                .map(|s| m.scores[s])
                .min()
                .expect("a table has seats");
            let winners: Vec<Side> = table.sides().filter(|&s| m.scores[s] == low).collect();
            m.end_game(winners);
        }
    }

    fn set_details(&mut self) {
        let cards_left = self
            .table
            .seats()
            .map(|s| (s, self.hands[s.pos()].len()))
            .collect();
        self.adj.details = details::Details::of(Details {
            went_out: self.out,
            cards_left,
            lowest_card: self.lowest,
        });
    }
}

/// A count query's answer as a whole number (`5` or `5.0`), or `None` (BT-f).
fn whole_number(value: &serde_json::Value) -> Option<i128> {
    let n = value.as_number()?;
    n.as_i64()
        .map(i128::from)
        .or(n.as_u64().map(i128::from))
        .or(n
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
            .map(|f| f as i128))
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if let Some(out) = self.out {
            return Err(RecordError::after_end(
                index,
                action,
                &format!("{out} has gone out and the hand is over (BT-f)"),
            ));
        }
        match &action.kind {
            // BT-c: a query takes no turn.
            Verb::CountQuery(q) => self.count_query(index, action, q),
            // BT-f, README C11: nothing in Big Two can be corrected.
            Verb::Correct(_) => Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                "Big Two has no correction: every play stands (BT-d, BT-f, README C11)".into(),
            )),
            _ if action.seat != self.to_act => Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("it is {}'s turn (§2, §3)", self.to_act),
            )),
            Verb::Play(Cards(cards)) => self.play(index, action, cards),
            Verb::Pass(_) => self.pass(index, action),
        }
    }

    fn view(&self) -> TableView {
        let over = self.out.is_some();
        let mut view = TableView::turns(
            if over { "over" } else { "play" },
            if over { Vec::new() } else { vec![self.to_act] },
            self.table.seats().map(|s| {
                let mut cards: Vec<Card> = self.hands[s.pos()].iter().collect();
                cards.sort_unstable_by_key(|&c| power(c));
                (s, cards)
            }),
            &self.adj.match_after,
        );
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(ViewDetails {
            current: self.current.clone(),
            passes: self.passes,
            lowest_card: self.lowest,
        });
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_turns(self.out.is_some())
    }

    /// The combinations of the seat to act, and his pass. Count queries are table talk the record
    /// states as it happened: they are not offered.
    fn candidates(&self) -> Vec<Action<Verb>> {
        if self.out.is_some() {
            return Vec::new();
        }
        let seat = self.to_act;
        let mut out: Vec<Action<Verb>> = self
            .combinations(seat)
            .into_iter()
            .map(|cards| Action {
                seat,
                kind: Verb::Play(Cards(cards)),
            })
            .collect();
        out.push(Action {
            seat,
            kind: Verb::Pass(crate::record::Yes),
        });
        out
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.set_details();
        let ending = match self.out {
            Some(_) => Ending::Over,
            None => Ending::Open {
                due: Some(self.to_act),
                detail: format!(
                    "the record stops before anyone has gone out; {} is to act",
                    self.to_act
                ),
            },
        };
        let Hand {
            table,
            ref hands,
            out,
            target,
            penalties,
            ref mut adj,
            ..
        } = *self;
        adj.conclude(error, ending, |adj| {
            let out = out.expect("a decided hand has a seat out");
            Hand::score(adj, hands, out, table, target, penalties)
        });
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    fn shape(s: &str) -> Option<Shape> {
        classify(&cards(s)).map(|c| c.shape)
    }

    /// Whether `a` beats `b` (two valid combinations of as many cards).
    fn beats(a: &str, b: &str) -> bool {
        classify(&cards(a)).unwrap().rank() > classify(&cards(b)).unwrap().rank()
    }

    #[test]
    fn the_order_of_ranks_and_suits() {
        assert!(beats("2D", "AS"));
        assert!(beats("3S", "3H") && beats("3H", "3C") && beats("3C", "3D"));
        assert!(beats("4D", "3S"));
        // BT-5: the pair with the higher-suited card.
        assert!(beats("7S 7D", "7H 7C"));
        assert!(beats("2D 2C", "AS AH"));
    }

    #[test]
    fn shapes() {
        assert_eq!(shape("5D"), Some(Shape::Single));
        assert_eq!(shape("5D 6D"), None);
        assert_eq!(shape("5D 5C 5S 5H"), None);
        assert_eq!(shape("AS 2D 3H 4C 5S"), Some(Shape::Straight));
        assert_eq!(shape("2D 3H 4C 5S 6S"), Some(Shape::Straight));
        assert_eq!(shape("TS JH QC KS AS"), Some(Shape::Straight));
        // BT-3: no wrapping.
        assert_eq!(shape("JS QH KC AS 2S"), None);
        assert_eq!(shape("QS KH AC 2S 3S"), None);
        assert_eq!(shape("KS AH 2C 3S 4S"), None);
        assert_eq!(shape("TH JH QH KH AH"), Some(Shape::RoyalFlush));
        assert_eq!(shape("AH 2H 3H 4H 5H"), Some(Shape::StraightFlush));
        assert_eq!(shape("9C 9D 9S 9H 3D"), Some(Shape::FourOfAKind));
        assert_eq!(shape("9C 9D 9S 3H 3D"), Some(Shape::FullHouse));
        assert_eq!(shape("9C 9D 9S 3H 4D"), None);
        assert_eq!(shape("9C 9D 3S 3H 4D"), None);
        assert_eq!(shape("2C 5C 8C JC KC"), Some(Shape::Flush));
    }

    #[test]
    fn five_card_hands_rank_by_shape_then_within() {
        let ladder = [
            "AS 2D 3H 4C 5S", // straight, top 5
            "2D 3H 4C 5S 6D", // straight, top 6 (diamond)
            "2S 3H 4C 5S 6C", // straight, top 6 (club)
            "TS JH QC KS AD", // straight, top A
            "3D 5D 7D 9D JD", // flush, diamonds
            "3D 5D 7D 9D 2D", // flush, diamonds, a 2 on top (BT-4)
            "3C 5C 7C 9C JC", // clubs beat diamonds, whatever the cards
            "4S 5S 7S 9S JS", // spades
            "3D 3C 3H 2S 2D", // full house, threes
            "2D 2C 2H 3S 3H", // full house, twos
            "4D 4C 4H 4S 3S", // four fours
            "2D 2C 2H 2S 3C", // four twos
            "AD 2D 3D 4D 5D", // straight flush, top 5
            "9S TS JS QS KS", // straight flush, top K
            "TD JD QD KD AD", // royal flush, diamonds
            "TS JS QS KS AS", // royal flush, spades
        ];
        for pair in ladder.windows(2) {
            assert!(beats(pair[1], pair[0]), "{} beats {}", pair[1], pair[0]);
        }
    }

    #[test]
    fn card_points() {
        assert_eq!(Hand::card_points(1), 1);
        assert_eq!(Hand::card_points(9), 9);
        assert_eq!(Hand::card_points(10), 20);
        assert_eq!(Hand::card_points(12), 24);
        assert_eq!(Hand::card_points(13), 39);
    }

    #[test]
    fn whole_numbers() {
        let n = |v: serde_json::Value| whole_number(&v);
        assert_eq!(n(serde_json::json!(5)), Some(5));
        assert_eq!(n(serde_json::json!(5.0)), Some(5));
        assert_eq!(n(serde_json::json!(-1)), Some(-1));
        assert_eq!(n(serde_json::json!(5.5)), None);
        assert_eq!(n(serde_json::json!("5")), None);
        assert_eq!(n(serde_json::json!(null)), None);
    }
}
