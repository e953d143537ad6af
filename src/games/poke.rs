//! Poke (`docs/rules/poke.md`): two players each for himself, the 52-card pack ranked A K … 2,
//! five cards each and the rest a stock. A draw phase (the non-dealer first, then the dealer)
//! lets each discard one to three cards and replace them, at the price of being doubled or
//! redoubled: the opponent's tricks then count ×2 or ×4. Five tricks with no suit to follow; a
//! pair, three or four of a kind may be led as one set, answered card for card, and counts as that
//! many tricks. Trick points go below the line (game at 20); honours for the better poker hand,
//! the slam, the game and the rubber above it, and the above-the-line totals decide the rubber.

use crate::cards::{Card, CardSet, Rank, choices, packs};
use crate::details;
use crate::engine::deal::{Count, HandSize, Holds, Part, Setup};
use crate::engine::{
    Adjudication, Bonus, BonusStatus, Ending, Event, FieldError, GameInfo, HandState, Locus,
    MatchState, OptionKind, OptionSpec, Options, PerSide, RecordError, Rotation, Rules,
    ScoreSource, Seat, Table, TableView, Trick, TrickPlay, TrickReport, deal,
};
use crate::record::{Action, Cards, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

pub struct Poke;

/// §1: two players, each for himself.
const TABLE: Table = Table::solo(2);
/// §1: five cards each, and five tricks.
const HAND: usize = 5;
const TRICKS: u8 = 5;
/// §3, PO-1: each draw discards one to three cards.
const MOST_DISCARDS: usize = 3;
/// §2: the non-dealer draws at most twice, the dealer three times.
const NON_DEALER_DRAWS: u8 = 2;
const DEALER_DRAWS: u8 = 3;
/// §4: game at 20 below the line; its bonus, the slam, and the rubber's extra bonus.
const GAME: i32 = 20;
const GAME_BONUS: i32 = 100;
const SLAM: i32 = 250;
const RUBBER_AFTER_A_GAME_EACH: i32 = 500;
const RUBBER_TWO_NIL: i32 = 750;

crate::verbs! {
    /// What a record of Poke can say.
    pub enum Verb in "Poke" {
        Draw(Draw) = "draw": "The seat discards one to three cards and receives as many from the stock (§2, §3, PO-1): the non-dealer's first draw doubles him, his second redoubles him; the dealer's first is free, his second doubles, his third redoubles him.",
        Stand(Yes) = "stand": "The seat draws (no more) (value `true`); optional after a draw, implied by the next seat's action (PO-b).",
        Lead(Cards) = "lead": "The leader's cards: one card, or two, three or four of one rank led as a set that counts as that many tricks (§3, PO-a).",
        Reply(Cards) = "reply": "The other player's answer: as many cards as were led, any cards (§3).",
        Correct(Card) = "correct": "Every game's record has it; Poke has no play irregularity to correct, so it is always `invalid_correct` (PO-e, README C11).",
    }
}

/// A draw (§2): the cards discarded and, where the record has no stock, the cards received.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PokeDraw)]
pub struct Draw {
    /// The one to three cards discarded.
    pub discards: Vec<Card>,
    /// The cards received, as many as discarded. With a stock in the record they may be left out
    /// (they are its next cards) or stated (then they must be its next cards); without a stock
    /// they are required and must be cards not yet seen (PO-c, PO-e `wrong_draw`).
    #[serde(default)]
    pub drawn: Option<Vec<Card>>,
}

impl Placeholder for Draw {
    const PLACEHOLDER: &'static str = "{\"discards\": [\"2C\", \"7D\"], \"drawn\": [\"KS\", \"4H\"] (drawn: optional with a stock)}";
}

/// A player's price for drawing (§2, PO-2): his opponent's tricks count ×1, ×2 or ×4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = PokeDoubling)]
pub enum Doubling {
    Undoubled,
    Doubled,
    Redoubled,
}

impl Doubling {
    /// What each trick of the opponent counts.
    fn multiplier(self) -> i32 {
        match self {
            Doubling::Undoubled => 1,
            Doubling::Doubled => 2,
            Doubling::Redoubled => 4,
        }
    }
}

/// The poker hands (§4, standard ranking), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = PokePokerHand)]
pub enum Category {
    HighCard,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
    RoyalFlush,
}

impl Category {
    /// §4: the honours the better hand scores above the line.
    fn honours(self) -> i32 {
        match self {
            Category::RoyalFlush => 1000,
            Category::StraightFlush => 750,
            Category::FourOfAKind => 600,
            Category::FullHouse => 500,
            Category::Flush => 400,
            Category::Straight => 300,
            Category::ThreeOfAKind => 200,
            Category::TwoPair => 100,
            Category::OnePair => 50,
            Category::HighCard => 0,
        }
    }
}

/// A five-card poker hand's category and its tie-break ranks (A = 14; a wheel's top is 5).
/// Compared category first, then the ranks in order; suits never break ties (§4).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PokerValue {
    category: Category,
    ranks: Vec<u32>,
}

/// §4: the standard ranking of a five-card hand. Written here: the rules set a royal flush apart
/// from the other straight flushes and pay honours per category, which the evaluators' opaque
/// strengths do not give without a table of our own beside them.
fn evaluate(cards: &[Card]) -> PokerValue {
    let flush = cards
        .iter()
        .all(|c| c.suit_unchecked() == cards[0].suit_unchecked());
    // Ranks grouped by how many of each, the larger groups first, then the higher rank.
    let mut groups: Vec<(usize, u32)> = Vec::new();
    for c in cards {
        let r = c.rank_unchecked() as u32;
        match groups.iter_mut().find(|(_, x)| *x == r) {
            Some((n, _)) => *n += 1,
            None => groups.push((1, r)),
        }
    }
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let ranks: Vec<u32> = groups.iter().map(|&(_, r)| r).collect();
    let straight_top = match ranks[..] {
        [14, 5, 4, 3, 2] => Some(5),
        [high, .., low] if ranks.len() == 5 && high - low == 4 => Some(high),
        _ => None,
    };
    let counts: Vec<usize> = groups.iter().map(|&(n, _)| n).collect();
    let category = match (straight_top, flush, &counts[..]) {
        (Some(14), true, _) => Category::RoyalFlush,
        (Some(_), true, _) => Category::StraightFlush,
        (_, _, [4, 1]) => Category::FourOfAKind,
        (_, _, [3, 2]) => Category::FullHouse,
        (_, true, _) => Category::Flush,
        (Some(_), false, _) => Category::Straight,
        (_, _, [3, 1, 1]) => Category::ThreeOfAKind,
        (_, _, [2, 2, 1]) => Category::TwoPair,
        (_, _, [2, 1, 1, 1]) => Category::OnePair,
        _ => Category::HighCard,
    };
    PokerValue {
        category,
        ranks: straight_top.map_or(ranks, |top| vec![top]),
    }
}

static OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "rubber_total_includes_below",
    kind: OptionKind::Flag { default: false },
    description: "false (the rule): only the points above the line count in the match scores and decide the \
                  rubber; true: the trick points scored below the line count in them too.",
    rule: "poke.md §6 PO-6",
}];

static INFO: GameInfo = GameInfo {
    id: "poke",
    name: "Poke",
    tables: crate::engine::Tables(&[TABLE]),
    deck: "52-card pack; 5 cards each, the rest a stock to draw from",
    // 20 below the line wins a game (§4); the match's scores are the points above the line, and
    // two games won end the rubber (`Rules::already_won`).
    game_target: GAME,
    options: OPTIONS,
    rules: "docs/rules/poke.md",
    irregularities: &[],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "too_many_draws",
        "wrong_number_of_cards",
        "invalid_lead",
        "wrong_draw",
        "stock_exhausted",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["drew", "doubled", "redoubled", "stood", "set_led"],
    score_codes: &["tricks", "honours", "slam", "game", "rubber"],
    titles: crate::engine::Titles(&[
        ("too_many_draws", "A draw beyond the seat's limit"),
        ("wrong_number_of_cards", "Wrong number of cards"),
        (
            "invalid_lead",
            "Cards led together that are not of one rank",
        ),
        ("wrong_draw", "Drawn cards that are not the ones due"),
        (
            "stock_exhausted",
            "The stock has too few cards for the draw",
        ),
        ("drew", "Discarded and drew"),
        ("doubled", "Doubled: the opponent's tricks count double"),
        (
            "redoubled",
            "Redoubled: the opponent's tricks count four times",
        ),
        ("stood", "Stood"),
        ("set_led", "A set led: several tricks at once"),
        ("tricks", "Trick points (below the line)"),
        ("honours", "Honours for the better poker hand"),
        ("slam", "Slam: all five tricks"),
        ("game", "Game: 20 below the line"),
        ("rubber", "Rubber bonus"),
    ]),
};

/// What Poke carries from hand to hand beside the above-the-line totals (`scores`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PokeCarried)]
pub struct Carried {
    /// Each player's points below the line in the game in progress (reset when a game is won).
    #[serde(default)]
    #[schema(value_type = BTreeMap<String, i32>)]
    pub below_line: BTreeMap<Seat, i32>,
    /// Games each player has won in the rubber in progress.
    #[serde(default)]
    #[schema(value_type = BTreeMap<String, u32>)]
    pub games: BTreeMap<Seat, u32>,
}

impl Carried {
    fn below(&self, seat: Seat) -> i32 {
        self.below_line.get(&seat).copied().unwrap_or(0)
    }

    fn games(&self, seat: Seat) -> u32 {
        self.games.get(&seat).copied().unwrap_or(0)
    }
}

/// One player's draws (§2).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = PokeDraws)]
pub struct Draws {
    pub draws: u8,
    pub doubling: Doubling,
}

/// The poker hand a player held for the play (PO-3).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = PokeHeld)]
pub struct Held {
    pub cards: Vec<Card>,
    pub category: Category,
}

/// What a Poke adjudication adds.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = PokeDetails)]
pub struct Details {
    /// Each player's draws and what they cost him.
    #[schema(value_type = BTreeMap<String, Draws>)]
    pub draws: BTreeMap<Seat, Draws>,
    /// Each player's five cards at the end of the draw, with their poker hand (`{}` until play).
    #[schema(value_type = BTreeMap<String, Held>)]
    pub poker_hands: BTreeMap<Seat, Held>,
    /// The player whose poker hand was better; `null` before play, on equal hands (PO-4), or
    /// when the better hand is only a high card (it scores nothing).
    pub honours: Option<Seat>,
    /// Each player's trick points this hand, below the line (`{}` until scored).
    #[schema(value_type = BTreeMap<String, i32>)]
    pub trick_points: BTreeMap<Seat, i32>,
    /// The points below the line after the hand, before a game won resets them (`{}` until scored).
    #[schema(value_type = BTreeMap<String, i32>)]
    pub below_line: BTreeMap<Seat, i32>,
    /// The player who won a game with this hand; `null` when none did.
    pub game_won_by: Option<Seat>,
    /// The player who won the rubber's second game with this hand; `null` when none did. The
    /// match's winner is then the higher above-the-line total (PO-6).
    pub rubber_won_by: Option<Seat>,
}

impl Rules for Poke {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, _: &Options) -> Table {
        TABLE
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: packs::standard52(),
            hand: HandSize::Each(HAND),
            counted_by: None,
            parts: &[Holds {
                part: Part::Stock,
                what: "the stock, top card first: all of it or its top cards (optional: without it \
                       each draw names the cards drawn, PO-c)",
                count: Count::Rest { at_least: 0 },
            }],
        }
    }

    /// §4: the match's scores are above the line, which never decide a game; the rubber ends when
    /// a player wins his second game, which the carried `games` say (`start` refuses a finished
    /// rubber).
    fn already_won(&self, _: &PerSide<i32>, _: &Options) -> Option<crate::engine::Decided> {
        None
    }

    /// §1: after each hand the non-dealer deals, the next seat of two.
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::Next
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        _: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = packs::standard52();
        let mut dealt = deal::check_cards(record, TABLE, &pack)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        let carried: Carried = details::read(&before.details, "/match_state")?;
        check_match(before, &carried)?;
        let dealer = record.dealer;
        let non_dealer = TABLE.next(dealer);
        let mut adj = Adjudication::new(INFO.id, dealer, before, TRICKS as usize);
        adj.tally = PerSide::over(TABLE.sides());
        let seen = dealt.hands[..2].iter().flat_map(|h| h.iter()).collect();
        Ok(Box::new(Hand {
            includes_below: options.flag("rubber_total_includes_below"),
            dealer,
            non_dealer,
            phase: Phase::NonDealerDraws,
            draws: [0; 2],
            stock: (!record.stock.is_empty()).then(|| record.stock.clone()),
            drawn_from_stock: 0,
            seen,
            poker: Vec::new(),
            led: None,
            leader: non_dealer,
            tricks_done: 0,
            carried,
            play: TrickPlay::new(TABLE, dealt.hands, non_dealer),
            details: None,
            adj,
        }))
    }
}

/// README C14: a carried state no hand can reach is refused: a finished rubber (two games won),
/// negative points, or a player at 20 or more below the line whom a game did not reset (only an
/// exact tie stays there, PO-7, PO-g).
fn check_match(before: &MatchState, carried: &Carried) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    for (seat, games) in &carried.games {
        if TABLE.resolve(*seat).is_none() || *games >= 2 {
            errors.push(FieldError::new(
                format!("/match_state/games/{seat}"),
                "a rubber in progress: P1 or P2 with 0 or 1 games (two games end the rubber, §4)"
                    .into(),
            ));
        }
    }
    for (seat, points) in &carried.below_line {
        if TABLE.resolve(*seat).is_none() || *points < 0 {
            errors.push(FieldError::new(
                format!("/match_state/below_line/{seat}"),
                "points below the line of P1 or P2, 0 or more".into(),
            ));
        }
    }
    let (p1, p2) = (carried.below(TABLE.seat(0)), carried.below(TABLE.seat(1)));
    if errors.is_empty() && p1.max(p2) >= GAME && p1 != p2 {
        errors.push(FieldError::new(
            "/match_state/below_line".into(),
            format!(
                "{p1} and {p2} below the line: the higher of two unequal scores at {GAME} or more has won the game and both were reset (§4, PO-7)"
            ),
        ));
    }
    for side in before.scores.sides() {
        if before.scores[side] < 0 {
            errors.push(FieldError::new(
                format!("/match_state/scores/{}", side.spoken()),
                "points above the line are never negative (§4)".into(),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    NonDealerDraws,
    DealerDraws,
    Play,
    Over,
}

/// A lead waiting for its reply.
#[derive(Clone, Debug)]
struct Led {
    cards: Vec<Card>,
    index: usize,
}

#[derive(Clone)]
struct Hand {
    /// PO-6's variant: trick points count in the match scores too.
    includes_below: bool,
    dealer: Seat,
    non_dealer: Seat,
    phase: Phase,
    /// Draws made, by seat position.
    draws: [u8; 2],
    /// The stock as recorded, top card first; `None` when the record has none (PO-c).
    stock: Option<Vec<Card>>,
    drawn_from_stock: usize,
    /// Every card seen so far: both hands as dealt and every card drawn (PO-c).
    seen: CardSet,
    /// Each seat's five cards when play began (PO-3), by seat position.
    poker: Vec<Vec<Card>>,
    led: Option<Led>,
    /// The seat to lead (the non-dealer first, then the winner of the last trick or set).
    leader: Seat,
    tricks_done: u8,
    carried: Carried,
    play: TrickPlay,
    details: Option<Scored>,
    adj: Adjudication,
}

/// What the scoring found, for the details.
#[derive(Clone, Debug)]
struct Scored {
    honours: Option<Seat>,
    trick_points: BTreeMap<Seat, i32>,
    below_line: BTreeMap<Seat, i32>,
    game_won_by: Option<Seat>,
    rubber_won_by: Option<Seat>,
}

impl Hand {
    fn other(seat: Seat) -> Seat {
        TABLE.next(seat)
    }

    /// §2: what `seat`'s draws so far cost him.
    fn doubling(&self, seat: Seat) -> Doubling {
        let free = u8::from(seat == self.dealer);
        match self.draws[seat.pos()].saturating_sub(free) {
            0 => Doubling::Undoubled,
            1 => Doubling::Doubled,
            _ => Doubling::Redoubled,
        }
    }

    fn limit(&self, seat: Seat) -> u8 {
        if seat == self.dealer {
            DEALER_DRAWS
        } else {
            NON_DEALER_DRAWS
        }
    }

    /// The seat due to act: the one whose turn it is (another may act where PO-b implies a stand).
    fn due(&self) -> Option<Seat> {
        match self.phase {
            Phase::NonDealerDraws => Some(self.non_dealer),
            Phase::DealerDraws => Some(self.dealer),
            Phase::Play if self.led.is_some() => Some(Self::other(self.leader)),
            Phase::Play => Some(self.leader),
            Phase::Over => None,
        }
    }

    /// PO-b: after a seat's draws his stand is implied by the next seat's action: the seat that
    /// may act next in his place.
    fn implied_next(&self) -> Option<Seat> {
        match self.phase {
            Phase::NonDealerDraws if self.draws[self.non_dealer.pos()] > 0 => Some(self.dealer),
            Phase::DealerDraws if self.draws[self.dealer.pos()] > 0 => Some(self.non_dealer),
            _ => None,
        }
    }

    fn expected(&self) -> String {
        match self.phase {
            Phase::NonDealerDraws => {
                format!("{} (the non-dealer) draws or stands (§2)", self.non_dealer)
            }
            Phase::DealerDraws => format!(
                "{} (the dealer) draws or stands; {} has finished drawing (§2, PO-b)",
                self.dealer, self.non_dealer
            ),
            Phase::Play if self.led.is_some() => format!(
                "{} replies to {}'s lead (§3)",
                Self::other(self.leader),
                self.leader
            ),
            Phase::Play => format!("{} leads (§3)", self.leader),
            Phase::Over => "the hand is over".into(),
        }
    }

    /// §2 and PO-b: a stand ends the seat's draws.
    fn stand(&mut self, index: usize, seat: Seat) {
        self.adj.events.push(Event::new(
            "stood",
            index,
            seat,
            Vec::new(),
            format!("{seat} stands"),
        ));
        self.end_draws(seat);
    }

    fn end_draws(&mut self, seat: Seat) {
        if seat == self.non_dealer {
            self.phase = Phase::DealerDraws;
        } else {
            self.begin_play();
        }
    }

    /// PO-3: the hands as the draw left them are the poker hands; the non-dealer leads (§3).
    fn begin_play(&mut self) {
        self.poker = TABLE
            .seats()
            .map(|s| self.play.hand(s).iter().collect())
            .collect();
        self.phase = Phase::Play;
    }

    fn draw(&mut self, index: usize, seat: Seat, draw: &Draw) -> Result<(), RecordError> {
        let err = |code, field: &str, detail| RecordError::at(code, index, seat, field, detail);
        let limit = self.limit(seat);
        if self.draws[seat.pos()] >= limit {
            return Err(err(
                "too_many_draws",
                "draw",
                format!(
                    "{seat} has drawn {limit} times, as often as the {} may (§2, PO-b)",
                    if seat == self.dealer {
                        "dealer"
                    } else {
                        "non-dealer"
                    }
                ),
            ));
        }
        let n = draw.discards.len();
        if !(1..=MOST_DISCARDS).contains(&n) {
            return Err(err(
                "wrong_number_of_cards",
                "draw/discards",
                format!("a draw discards one to three cards, not {n} (§3, PO-1)"),
            ));
        }
        for (j, &card) in draw.discards.iter().enumerate() {
            self.play
                .give_up(index, seat, card, &format!("draw/discards/{j}"))?;
        }
        let drawn = self.drawn(index, seat, draw)?;
        for &card in &drawn {
            self.play.hand_mut(seat).insert(card);
            self.seen.insert(card);
        }
        self.draws[seat.pos()] += 1;
        let now = self.doubling(seat);
        let drawn_names = names(&drawn);
        self.adj.events.push(Event::new(
            "drew",
            index,
            seat,
            draw.discards.clone(),
            format!(
                "{seat} discards {} and draws {drawn_names} (draw {} of at most {limit})",
                names(&draw.discards),
                self.draws[seat.pos()]
            ),
        ));
        let free = seat == self.dealer && self.draws[seat.pos()] == 1;
        if !free {
            let (code, times) = match now {
                Doubling::Redoubled => ("redoubled", 4),
                _ => ("doubled", 2),
            };
            let opponent = Self::other(seat);
            self.adj.events.push(Event::new(
                code,
                index,
                seat,
                Vec::new(),
                format!("{seat} is {code}: {opponent}'s tricks count ×{times} (§2, PO-2)"),
            ));
        }
        Ok(())
    }

    /// §3, PO-c, PO-e: the cards a draw of `draw.discards.len()` receives.
    fn drawn(&mut self, index: usize, seat: Seat, draw: &Draw) -> Result<Vec<Card>, RecordError> {
        let n = draw.discards.len();
        let wrong =
            |detail: String| RecordError::at("wrong_draw", index, seat, "draw/drawn", detail);
        if let Some(stock) = &self.stock {
            let left = stock.len() - self.drawn_from_stock;
            if left < n {
                return Err(RecordError::at(
                    "stock_exhausted",
                    index,
                    seat,
                    "draw",
                    format!("{seat} draws {n} cards and the recorded stock has {left} left"),
                ));
            }
            let next = stock[self.drawn_from_stock..self.drawn_from_stock + n].to_vec();
            if let Some(drawn) = &draw.drawn
                && *drawn != next
            {
                return Err(wrong(format!(
                    "the stock's next cards are {}, not {}",
                    names(&next),
                    names(drawn)
                )));
            }
            self.drawn_from_stock += n;
            return Ok(next);
        }
        let Some(drawn) = &draw.drawn else {
            return Err(wrong(
                "without a stock in the record, a draw names the cards drawn (PO-c)".into(),
            ));
        };
        if drawn.len() != n {
            return Err(wrong(format!(
                "{n} cards discarded and {} drawn: as many are drawn as discarded (§3)",
                drawn.len()
            )));
        }
        for (j, &card) in drawn.iter().enumerate() {
            if self.seen.contains(card) || drawn[..j].contains(&card) {
                return Err(wrong(format!(
                    "{card} has been seen already: a draw receives cards from the stock (PO-c)"
                )));
            }
        }
        Ok(drawn.clone())
    }

    /// PO-e: a lead is checked for its number of cards, then that every card is held, then its rank.
    fn lead(&mut self, index: usize, seat: Seat, cards: &[Card]) -> Result<(), RecordError> {
        let left = TRICKS - self.tricks_done;
        let n = cards.len();
        if n == 0 || n > 4 || n > left as usize {
            return Err(RecordError::at(
                "wrong_number_of_cards",
                index,
                seat,
                "lead",
                format!(
                    "a lead is one card or a set of two to four of one rank, no more than the {left} tricks left (§3, PO-e); {n} led"
                ),
            ));
        }
        for (j, &card) in cards.iter().enumerate() {
            self.play.give_up(index, seat, card, &format!("lead/{j}"))?;
        }
        let rank = cards[0].rank_unchecked();
        if cards.iter().any(|c| c.rank_unchecked() != rank) {
            return Err(RecordError::at(
                "invalid_lead",
                index,
                seat,
                "lead",
                format!(
                    "{} are not all of one rank: only a pair, three or four of a kind are led together (§3)",
                    names(cards)
                ),
            ));
        }
        if n > 1 {
            let first = self.tricks_done + 1;
            let event = Event::new(
                "set_led",
                index,
                seat,
                cards.to_vec(),
                format!(
                    "{seat} leads {} as one set: tricks {first} to {}, answered card for card (§3, PO-a)",
                    names(cards),
                    first + n as u8 - 1
                ),
            );
            // A set led is several tricks: the event belongs to the first of them.
            self.adj.events.push(event.in_trick(first));
        }
        self.led = Some(Led {
            cards: cards.to_vec(),
            index,
        });
        Ok(())
    }

    /// §3, PO-5: a single card is beaten by a higher rank; a set only by a set of as many cards of
    /// a higher rank; equal ranks go to the leader. A set counts as that many tricks, reported as
    /// as many tricks of two cards each: the lead's cards and the reply's in their recorded order.
    fn reply(&mut self, index: usize, seat: Seat, cards: &[Card]) -> Result<(), RecordError> {
        let led = self.led.clone().expect("a reply answers a lead");
        let n = led.cards.len();
        if cards.len() != n {
            return Err(RecordError::at(
                "wrong_number_of_cards",
                index,
                seat,
                "reply",
                format!(
                    "{} led {n} cards and {seat} replies with {} (§3, PO-5)",
                    self.leader,
                    cards.len()
                ),
            ));
        }
        for (j, &card) in cards.iter().enumerate() {
            self.play
                .give_up(index, seat, card, &format!("reply/{j}"))?;
        }
        let led_rank = led.cards[0].rank_unchecked();
        let reply_rank = cards[0].rank_unchecked();
        let one_rank = cards.iter().all(|c| c.rank_unchecked() == reply_rank);
        let winner = if one_rank && rank_power(reply_rank) > rank_power(led_rank) {
            seat
        } else {
            self.leader
        };
        for (i, (&led_card, &reply_card)) in led.cards.iter().zip(cards).enumerate() {
            let mut trick = Trick::new(self.tricks_done + 1 + i as u8, self.leader);
            trick.push(self.leader, led_card, led.index);
            trick.push(seat, reply_card, index);
            self.adj.tricks.push(TrickReport::new(trick, winner));
            self.adj.tally[TABLE.side(winner)].tricks += 1;
        }
        self.tricks_done += n as u8;
        self.leader = winner;
        self.led = None;
        if self.tricks_done == TRICKS {
            self.phase = Phase::Over;
        }
        Ok(())
    }

    /// §4: trick points below the line, honours, the slam, the game and the rubber.
    fn score(&mut self) {
        let mut trick_points = BTreeMap::new();
        let mut below = BTreeMap::new();
        for seat in TABLE.seats() {
            let tricks = self.adj.tally[TABLE.side(seat)].tricks as i32;
            let points = tricks * self.doubling(Self::other(seat)).multiplier();
            trick_points.insert(seat, points);
            below.insert(seat, self.carried.below(seat) + points);
            if self.includes_below {
                self.adj.score(
                    TABLE.side(seat),
                    points,
                    ScoreSource::Tricks,
                    "tricks",
                    None,
                );
            }
        }
        // §4, PO-3, PO-4: the better poker hand scores its honours; equal hands none.
        let (a, b) = (evaluate(&self.poker[0]), evaluate(&self.poker[1]));
        let better = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some((TABLE.seat(0), a.category)),
            std::cmp::Ordering::Less => Some((TABLE.seat(1), b.category)),
            std::cmp::Ordering::Equal => None,
        };
        let honours = better.filter(|(_, c)| c.honours() > 0);
        if let Some((seat, category)) = honours {
            self.bonus("honours", seat, category.honours());
        }
        for seat in TABLE.seats() {
            if self.adj.tally[TABLE.side(seat)].tricks == u32::from(TRICKS) {
                self.bonus("slam", seat, SLAM);
            }
        }
        // §4, PO-7, PO-g: 20 or more below the line wins the game, the higher of two such
        // scores; an exact tie wins nothing and both scores stay.
        let (s0, s1) = (TABLE.seat(0), TABLE.seat(1));
        let game_won_by = match (below[&s0], below[&s1]) {
            (x, y) if x.max(y) >= GAME && x != y => Some(if x > y { s0 } else { s1 }),
            _ => None,
        };
        let mut games: BTreeMap<Seat, u32> =
            TABLE.seats().map(|s| (s, self.carried.games(s))).collect();
        let mut below_after = below.clone();
        let mut rubber_won_by = None;
        if let Some(w) = game_won_by {
            self.bonus("game", w, GAME_BONUS);
            *games.get_mut(&w).expect("both seats") += 1;
            below_after.values_mut().for_each(|v| *v = 0);
            if games[&w] == 2 {
                rubber_won_by = Some(w);
                let extra = if games[&Self::other(w)] == 1 {
                    RUBBER_AFTER_A_GAME_EACH
                } else {
                    RUBBER_TWO_NIL
                };
                self.bonus("rubber", w, extra);
            }
        }
        self.adj.settle();
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(self.non_dealer);
        m.details = details::Details::of(Carried {
            below_line: below_after,
            games,
        });
        // §4, PO-6: the rubber over, the higher total above the line wins; equal is a draw.
        if rubber_won_by.is_some() {
            m.highest_wins();
        }
        self.details = Some(Scored {
            honours: honours.map(|(s, _)| s),
            trick_points,
            below_line: below,
            game_won_by,
            rubber_won_by,
        });
    }

    fn bonus(&mut self, code: &'static str, seat: Seat, points: i32) {
        self.adj.bonus(Bonus {
            code,
            side: TABLE.side(seat),
            card: None,
            points,
            status: BonusStatus::Scored,
        });
    }

    fn details(&self) -> Details {
        let scored = self.details.clone();
        Details {
            draws: TABLE
                .seats()
                .map(|s| {
                    (
                        s,
                        Draws {
                            draws: self.draws[s.pos()],
                            doubling: self.doubling(s),
                        },
                    )
                })
                .collect(),
            poker_hands: self
                .poker
                .iter()
                .enumerate()
                .map(|(i, cards)| {
                    (
                        TABLE.seat(i),
                        Held {
                            cards: cards.clone(),
                            category: evaluate(cards).category,
                        },
                    )
                })
                .collect(),
            honours: scored.as_ref().and_then(|s| s.honours),
            trick_points: scored
                .as_ref()
                .map(|s| s.trick_points.clone())
                .unwrap_or_default(),
            below_line: scored
                .as_ref()
                .map(|s| s.below_line.clone())
                .unwrap_or_default(),
            game_won_by: scored.as_ref().and_then(|s| s.game_won_by),
            rubber_won_by: scored.as_ref().and_then(|s| s.rubber_won_by),
        }
    }

    /// Every draw `seat` could make now (each set of one to three of his cards; without a stock,
    /// receiving the first unseen cards in pack order), and his stand.
    fn draw_candidates(&self, seat: Seat) -> Vec<Action<Verb>> {
        let hand: Vec<Card> = self.play.hand(seat).iter().collect();
        let mut out = vec![Action {
            seat,
            kind: Verb::Stand(Yes),
        }];
        for discards in choices(&hand, 1..=MOST_DISCARDS) {
            out.push(Action {
                seat,
                kind: Verb::Draw(self.offered_draw(discards)),
            });
        }
        out
    }

    /// The draw of `discards` as offered: without a stock it receives the first unseen cards in
    /// pack order (the record states its own); with one, the stock's next cards, left out.
    fn offered_draw(&self, discards: Vec<Card>) -> Draw {
        let drawn = self.stock.is_none().then(|| {
            packs::standard52()
                .cards
                .iter()
                .filter(|&c| !self.seen.contains(c))
                .take(discards.len())
                .collect()
        });
        Draw { discards, drawn }
    }

    /// Every lead `seat` could make: each card, and each set of two to four of one rank (PO-a).
    fn lead_candidates(&self, seat: Seat) -> Vec<Action<Verb>> {
        let hand: Vec<Card> = self.play.hand(seat).iter().collect();
        choices(&hand, 1..=4)
            .into_iter()
            .filter(|cards| cards.iter().all(|c| c.rank() == cards[0].rank()))
            .map(|cards| Action {
                seat,
                kind: Verb::Lead(Cards(cards)),
            })
            .collect()
    }
}

/// §1: A high, 2 low (`Rank` counts 2 to 14 already).
fn rank_power(rank: Rank) -> u32 {
    rank as u32
}

/// Cards as a director says them: "7S 7H".
fn names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.phase == Phase::Over {
            return Err(RecordError::after_end(
                index,
                action,
                "the five tricks have been played and the hand is over",
            ));
        }
        if let Verb::Correct(_) = action.kind {
            return Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                "Poke has no play irregularity: there is nothing to correct (§3, PO-b, README C11)"
                    .into(),
            ));
        }
        // PO-b: the next seat's action implies the stand of a seat that has drawn: the dealer's
        // draw or stand, the non-dealer's lead (his draw then is out of turn).
        let next_verb = matches!(
            (self.phase, &action.kind),
            (Phase::NonDealerDraws, Verb::Draw(_) | Verb::Stand(_))
                | (Phase::DealerDraws, Verb::Lead(_))
        );
        if next_verb && self.implied_next() == Some(seat) {
            let due = self.due().expect("a seat is due in the draw");
            self.end_draws(due);
        }
        let due = self.due().expect("the hand is not over");
        if seat != due {
            return Err(RecordError::out_of_phase(
                index,
                action,
                due,
                &self.expected(),
            ));
        }
        match (self.phase, &action.kind) {
            (Phase::NonDealerDraws | Phase::DealerDraws, Verb::Draw(d)) => {
                self.draw(index, seat, d)
            }
            (Phase::NonDealerDraws | Phase::DealerDraws, Verb::Stand(_)) => {
                self.stand(index, seat);
                Ok(())
            }
            (Phase::Play, Verb::Lead(Cards(cards))) if self.led.is_none() => {
                self.lead(index, seat, cards)
            }
            (Phase::Play, Verb::Reply(Cards(cards))) if self.led.is_some() => {
                self.reply(index, seat, cards)
            }
            _ => Err(RecordError::unexpected(index, action, self.expected())),
        }
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::NonDealerDraws | Phase::DealerDraws => "draw",
            Phase::Play => "play",
            Phase::Over => "over",
        };
        let mut to_act: Vec<Seat> = self.due().into_iter().collect();
        to_act.extend(self.implied_next());
        let mut view = TableView::turns(
            phase,
            to_act,
            TABLE
                .seats()
                .map(|s| (s, self.play.hand(s).iter().collect())),
            &self.adj.match_before,
        );
        let locus = self.locus();
        view.trick_number = locus.trick_number;
        view.trick = locus.trick.plays().to_vec();
        view.tally = self.adj.tally.clone();
        view.details = details::Details::of(self.details());
        view
    }

    /// README C13: once play has begun the trick in progress is the next one to be completed; the
    /// lead waiting for its reply is on the table (at most four cards, PO-e).
    fn locus(&self) -> Locus {
        let mut locus = Locus::of_turns(self.due().is_none());
        if matches!(self.phase, Phase::Play | Phase::Over) {
            locus.trick_number = Some(self.tricks_done + 1);
        }
        if let Some(led) = &self.led {
            let mut trick = Trick::new(locus.trick_number.unwrap_or(0), self.leader);
            for &card in &led.cards {
                trick.push(self.leader, card, led.index);
            }
            locus.trick = trick;
        }
        locus
    }

    /// A draw stands for the draw of the same discards offered (`offered_draw`): the cards
    /// received are data the record states (PO-c).
    fn offered_as(&self, action: Action<Verb>) -> Action<Verb> {
        match action.kind {
            Verb::Draw(Draw { discards, .. }) => Action {
                seat: action.seat,
                kind: Verb::Draw(self.offered_draw(discards)),
            },
            kind => Action { kind, ..action },
        }
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        let Some(due) = self.due() else {
            return Vec::new();
        };
        let mut out = match self.phase {
            Phase::Play => match &self.led {
                None => self.lead_candidates(due),
                Some(led) => {
                    let hand: Vec<Card> = self.play.hand(due).iter().collect();
                    let n = led.cards.len();
                    choices(&hand, n..=n)
                        .into_iter()
                        .map(|cards| Action {
                            seat: due,
                            kind: Verb::Reply(Cards(cards)),
                        })
                        .collect()
                }
            },
            _ => self.draw_candidates(due),
        };
        match (self.phase, self.implied_next()) {
            (Phase::NonDealerDraws, Some(dealer)) => out.extend(self.draw_candidates(dealer)),
            (Phase::DealerDraws, Some(leader)) => out.extend(self.lead_candidates(leader)),
            _ => {}
        }
        out
    }

    fn faulted(&self, _: usize) -> bool {
        false
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = match self.phase {
            Phase::Over => Ending::Over,
            _ => Ending::Open {
                due: if self.implied_next().is_some() {
                    None
                } else {
                    self.due()
                },
                detail: format!(
                    "the record stops before the hand is over ({} of {TRICKS} tricks played): {}",
                    self.tricks_done,
                    self.expected()
                ),
            },
        };
        if !self.adj.unscored(error, ending) {
            self.score();
        }
        self.adj.details = details::Details::of(self.details());
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    fn category(s: &str) -> Category {
        evaluate(&cards(s)).category
    }

    fn beats(a: &str, b: &str) -> bool {
        evaluate(&cards(a)) > evaluate(&cards(b))
    }

    #[test]
    fn categories() {
        assert_eq!(category("TH JH QH KH AH"), Category::RoyalFlush);
        assert_eq!(category("AH 2H 3H 4H 5H"), Category::StraightFlush);
        assert_eq!(category("9C 9D 9S 9H 3D"), Category::FourOfAKind);
        assert_eq!(category("9C 9D 9S 3H 3D"), Category::FullHouse);
        assert_eq!(category("2C 5C 8C JC KC"), Category::Flush);
        assert_eq!(category("AS 2D 3H 4C 5S"), Category::Straight);
        assert_eq!(category("TS JH QC KS AS"), Category::Straight);
        // No wrapping round the ace.
        assert_eq!(category("QS KH AC 2S 3S"), Category::HighCard);
        assert_eq!(category("9C 9D 9S 3H 4D"), Category::ThreeOfAKind);
        assert_eq!(category("9C 9D 3S 3H 4D"), Category::TwoPair);
        assert_eq!(category("9C 9D 3S 5H 4D"), Category::OnePair);
        assert_eq!(category("9C 7D 3S 5H 4D"), Category::HighCard);
    }

    /// §4: standard ranking and tie-breaks; the wheel is the lowest straight; suits never count.
    #[test]
    fn ranking_and_tie_breaks() {
        let ladder = [
            "9C 7D 3S 5H 4D",
            "9C 8D 3S 5H 4D",
            "2C 2D 3S 5H AD",
            "3C 3D 2S 4H 5D",
            "3C 3D 2S 2H AD",
            "4C 4D 2S 2H 3D",
            "2C 2D 2S 4H 5D",
            "AS 2D 3H 4C 5S",
            "2D 3H 4C 5S 6D",
            "TS JH QC KS AD",
            "2C 3C 4C 5C 7C",
            "2C 2D 2S 3H 3D",
            "3C 3D 3S 2H 2D",
            "2C 2D 2S 2H 3D",
            "AD 2D 3D 4D 5D",
            "9S TS JS QS KS",
            "TD JD QD KD AD",
        ];
        for pair in ladder.windows(2) {
            assert!(beats(pair[1], pair[0]), "{} beats {}", pair[1], pair[0]);
        }
        assert_eq!(
            evaluate(&cards("TS JS QS KS AS")),
            evaluate(&cards("TH JH QH KH AH"))
        );
        assert_eq!(
            evaluate(&cards("9C 9D 3S 5H 4D")),
            evaluate(&cards("9S 9H 3C 5D 4S"))
        );
    }

    #[test]
    fn honours_by_category() {
        assert_eq!(Category::RoyalFlush.honours(), 1000);
        assert_eq!(Category::OnePair.honours(), 50);
        assert_eq!(Category::HighCard.honours(), 0);
    }
}
