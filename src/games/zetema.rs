//! Zetema (`docs/rules/zetema.md`): 2 to 6 players, in two partnerships at four and three at six,
//! otherwise each for himself; the 65-card pack (a second copy of the imperial suit). Six cards each
//! (five at six players), the rest the stock. Not a trick game: in his turn a player draws, may
//! declare one meld (shown, scored, kept in hand) or one or more marriages (scored and thrown to the
//! general wastepile, the hand drawn back up), and discards to the pile of the card's rank unless he
//! married; the fifth card on a rank pile is a zetema, scored by its discarder. Every score is
//! credited at once, and the game ends the moment a side reaches 300 (200 when four or more play),
//! mid-hand if need be. Turns, melds and piles use the rummy games' shared pieces (`rummy`).

use crate::cards::{Card, CardCounts, Holding, Rank, Suit, names, packs, subsets};
use crate::details;
use crate::engine::deal::{self, Count, HandSize, Holds, Part, Setup};
use crate::engine::rummy::{self, Ace, Phase, SetShape, Turns};
use crate::engine::{
    Adjudication, Effect, Ending, Event, FieldError, GameInfo, HandState, IgnoredAction,
    Irregularity, Locus, MatchState, NoDetails, OptionKind, OptionSpec, Options, PerSide,
    RecordError, Rotation, Rules, ScoreSource, Seat, Side, Stock, Table, TableView,
};
use crate::record::{Action, HandRecord, Placeholder};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub struct Zetema;

crate::verbs! {
    /// What a record of Zetema can say.
    pub enum Verb in "Zetema" {
        Draw(Card) = "draw": "The card the seat draws from the stock as its turn begins: derived from the stock, so it may be left out; when recorded it is checked (ZE-f).",
        Meld(Meld) = "meld": "A meld shown and scored at once (its cards stay in hand): its `type` and its `cards`.",
        Marriages(Pairs) = "marriages": "One or more marriages declared at once instead of a meld: each a king and a queen of one suit, one of them perhaps pulled from its rank pile.",
        DrawUp(Cards) = "draw_up": "The cards drawn after marriages to bring the hand back to six (five at six players): derived from the stock, so it may be left out; when recorded, right after the marriages, it is checked (ZE-f).",
        Discard(Discard) = "discard": "The card discarded to the pile of its rank, which ends the turn: a card, or {\"card\", \"pile\"} naming the pile (ZE-d).",
        Correct(Card) = "correct": "Every game's record has it; Zetema has nothing to correct, so it is always `invalid_correct` (ZE-f).",
    }
}

/// Cards drawn, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(as = ZetemaCards)]
pub struct Cards(pub Vec<Card>);

impl Placeholder for Cards {
    const PLACEHOLDER: &'static str = "<cards as a JSON array: [\"7H\", \"2S\"]>";
}

/// The kinds of meld (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ZetemaMeldType)]
pub enum MeldType {
    /// `m` cards of consecutive ranks, not all of one suit: 20.
    Sequence,
    /// `m` cards of one suit, not consecutive: 30.
    Flush,
    /// `m` consecutive cards of one suit: 50.
    FlushSequence,
    /// Five cards of one rank: K or Q 130, J 120, A or 5 110, any other rank 100.
    Assembly,
}

impl MeldType {
    fn code(self) -> &'static str {
        match self {
            MeldType::Sequence => "sequence",
            MeldType::Flush => "flush",
            MeldType::FlushSequence => "flush_sequence",
            MeldType::Assembly => "assembly",
        }
    }

    fn name(self) -> &'static str {
        match self {
            MeldType::FlushSequence => "flush sequence",
            t => t.code(),
        }
    }
}

/// A meld as declared: the kind claimed and its cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ZetemaMeld)]
pub struct Meld {
    #[serde(rename = "type")]
    pub kind: MeldType,
    pub cards: Vec<Card>,
}

impl Placeholder for Meld {
    const PLACEHOLDER: &'static str = "{\"type\": \"<sequence, flush, flush_sequence or assembly>\", \"cards\": [\"<card>\", ...]}";
}

/// Which card of a marriage is pulled from its rank pile (the other is in hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ZetemaPulled)]
pub enum Pulled {
    King,
    Queen,
}

/// One marriage as declared: a king and a queen (of one suit, when it is a true marriage), and
/// the one of them pulled from its rank pile, if any; the others come from the hand (ZE-6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ZetemaPair)]
pub struct Pair {
    pub king: Card,
    pub queen: Card,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pulled: Option<Pulled>,
}

/// The marriages of one declaration, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(as = ZetemaPairs)]
pub struct Pairs(pub Vec<Pair>);

impl Placeholder for Pairs {
    const PLACEHOLDER: &'static str = "[{\"king\": \"<card>\", \"queen\": \"<card>\", \"pulled\": \"<king, queen or leave out>\"}]";
}

/// A discard: the card alone, or the card and the pile it is laid on (ZE-d).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(as = ZetemaDiscard)]
pub enum Discard {
    Card(Card),
    Named(NamedDiscard),
}

/// A discard naming its pile: a rank (`A K Q J T 9 … 2`, `10` accepted) or `waste`, the general
/// wastepile; any pile but the card's own rank pile is the record error `wrong_pile` (ZE-d).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ZetemaNamedDiscard)]
pub struct NamedDiscard {
    pub card: Card,
    pub pile: String,
}

impl Discard {
    fn card(&self) -> Card {
        match self {
            Discard::Card(c) | Discard::Named(NamedDiscard { card: c, .. }) => *c,
        }
    }
}

impl<'de> Deserialize<'de> for Discard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = Discard;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a card (\"7H\") or {\"card\": \"7H\", \"pile\": \"7\"}")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Discard, E> {
                s.parse().map(Discard::Card).map_err(E::custom)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Discard, A::Error> {
                NamedDiscard::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(Discard::Named)
            }
        }
        d.deserialize_any(Either)
    }
}

impl Placeholder for Discard {
    const PLACEHOLDER: &'static str = "<card, or {\"card\": \"<card>\", \"pile\": \"<rank>\"}>";
}

/// What Zetema adds to the adjudication.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ZetemaDetails)]
pub struct Details {
    /// The suit of which the pack has two copies (ZE-1).
    pub imperial_suit: Suit,
    /// The total that ends the game at this table: 300, or 200 when four or more play (§3).
    pub target: i32,
    /// The action whose credit brought a side to the target and ended the game; `null` when the
    /// game did not end in this hand.
    pub game_won_at: Option<usize>,
    /// Cards left in the stock where the record stops.
    pub stock_left: usize,
    /// Cards on each rank pile where the record stops (ranks with none left out).
    #[schema(value_type = std::collections::BTreeMap<String, usize>)]
    pub piles: std::collections::BTreeMap<String, usize>,
    /// Cards on the general wastepile where the record stops.
    pub wastepile: usize,
    /// The cards each seat holds where the record stops.
    #[schema(value_type = std::collections::BTreeMap<String, u32>)]
    pub cards_left: std::collections::BTreeMap<Seat, u32>,
}

/// What the table sees beside the hands.
#[derive(Debug, Serialize)]
struct ViewDetails {
    imperial_suit: Suit,
    target: i32,
    stock_left: usize,
    /// Each rank pile, bottom card first (ranks with none left out).
    piles: std::collections::BTreeMap<String, Vec<Card>>,
    wastepile: usize,
    /// The melds declared in this turn, whose cards the discard must come from.
    melds: Vec<Vec<Card>>,
    /// The totals of the sides, every credit of this hand so far included.
    totals: PerSide<i32>,
}

/// The tables of the `players` option, the default (four, in partnerships) first.
const TABLES: [Table; 5] = [
    Table::FOUR,
    Table::solo(2),
    Table::solo(3),
    Table::solo(5),
    Table::SIX_IN_PAIRS,
];

/// The stock as each player count leaves it: the 65 cards less six each (five each at six).
const STOCKS: [Holds; 5] = [
    stock(65 - 4 * 6),
    stock(65 - 2 * 6),
    stock(65 - 3 * 6),
    stock(65 - 5 * 6),
    stock(65 - 6 * 5),
];

const fn stock(cards: u32) -> Holds {
    Holds {
        part: Part::Stock,
        what: "the stock in drawing order, top card first: every card not dealt",
        count: Count::Rest { at_least: cards },
    }
}

static INFO: GameInfo = GameInfo {
    id: "zetema",
    name: "Zetema",
    tables: crate::engine::Tables(&TABLES),
    deck: "65-card pack: the 52-card pack and a second copy of the imperial suit; 6 cards each (5 at six players), the rest the stock",
    // The default table's (four players): 200; 300 with two or three (`Rules::game_target`).
    game_target: 200,
    options: &[
        OptionSpec {
            name: "players",
            kind: OptionKind::Choice {
                values: &["2", "3", "4", "5", "6"],
                default: "4",
            },
            description: "Number of players: four in partnerships N–S v E–W (P1+P3 v P2+P4), six in three \
                          partnerships P1+P4, P2+P5, P3+P6, otherwise each for himself. The game is 300 \
                          points, 200 when four or more play.",
            rule: "zetema.md §1",
        },
        OptionSpec {
            name: "imperial_suit",
            kind: OptionKind::Choice {
                values: &["S", "H", "D", "C"],
                default: "H",
            },
            description: "The suit the pack holds twice (the imperial suit): its cards are in the pack \
                          twice and its marriages are imperial (+10 each).",
            rule: "zetema.md §6 ZE-1",
        },
        OptionSpec {
            name: "multi_meld_per_turn",
            kind: OptionKind::Flag { default: false },
            description: "A player may declare several melds in one turn (each a different set of cards; \
                          the discard then comes from one of them). Off: at most one meld (or one \
                          declaration of marriages) per turn.",
            rule: "zetema.md §6 ZE-3",
        },
        OptionSpec {
            name: "ace_low_only",
            kind: OptionKind::Flag { default: false },
            description: "The ace is low only in sequences (A-2-3…). Off: low or high (…Q-K-A), never both.",
            rule: "zetema.md §6 ZE-4",
        },
        OptionSpec {
            name: "penalties",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "default: a false declaration costs its side the value claimed, a discard not \
                          from the turn's meld cancels the meld's score (§5 DEFAULT); none: both are \
                          reported without points (a false declaration still scores nothing).",
            rule: "zetema.md §5",
        },
    ],
    rules: "docs/rules/zetema.md",
    irregularities: &["false_declaration", "discard_not_from_meld"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "card_not_held",
        "card_played_twice",
        "card_not_in_pile",
        "wrong_pile",
        "wrong_draw",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &[
        "drew",
        "melded",
        "married",
        "drew_up",
        "discarded",
        "zetema",
        "game_won",
    ],
    score_codes: &[
        "sequence",
        "flush",
        "flush_sequence",
        "assembly",
        "marriages",
        "zetema",
    ],
    titles: crate::engine::Titles(&[
        (
            "false_declaration",
            "Declaration of a meld or marriage that is not valid",
        ),
        (
            "discard_not_from_meld",
            "Discard not from the meld declared in the turn",
        ),
        (
            "card_not_in_pile",
            "Card pulled from a rank pile that does not hold it",
        ),
        (
            "wrong_pile",
            "Discard to a pile that is not the card's rank pile",
        ),
        ("wrong_draw", "Draw that is not the stock's next card"),
        ("drew", "Drew from the stock"),
        ("melded", "Meld declared"),
        ("married", "Marriages declared"),
        ("drew_up", "Drew back up after marriages"),
        ("discarded", "Discarded to a rank pile"),
        ("zetema", "Zetema: the fifth card of a rank on its pile"),
        ("game_won", "Game won: a side reached the target"),
        ("sequence", "Sequence"),
        ("flush", "Flush"),
        ("flush_sequence", "Flush sequence"),
        ("assembly", "Assembly"),
        ("marriages", "Marriages"),
    ]),
};

/// The rules of a hand under the record's options.
#[derive(Clone, Copy, Debug)]
struct Variant {
    /// Hand size `h`: 6, or 5 with six players (§1).
    hand: usize,
    /// Length of a sequence or flush, `m`: 6, or 5 with six players (ZE-7).
    meld: usize,
    ace: Ace,
    multi_meld: bool,
    penalties: bool,
    imperial: Suit,
    target: i32,
}

impl Variant {
    fn of(options: &Options, players: usize) -> Variant {
        let size = if players == 6 { 5 } else { 6 };
        Variant {
            hand: size,
            meld: size,
            ace: if options.flag("ace_low_only") {
                Ace::Low
            } else {
                Ace::LowOrHigh
            },
            multi_meld: options.flag("multi_meld_per_turn"),
            penalties: options.choice("penalties") == "default",
            imperial: imperial(options),
            target: target(players),
        }
    }
}

fn imperial(options: &Options) -> Suit {
    options
        .choice("imperial_suit")
        .parse()
        .expect("the option's values are suits")
}

/// §1: 300 points, 200 when four or more play.
fn target(players: usize) -> i32 {
    if players >= 4 { 200 } else { 300 }
}

fn table_of(options: &Options) -> Table {
    match options.choice("players") {
        "2" => TABLES[1],
        "3" => TABLES[2],
        "5" => TABLES[3],
        "6" => TABLES[4],
        _ => TABLES[0],
    }
}

/// §3: what a valid meld of `kind` made of `cards` scores (the kind's own value, an assembly's by
/// its rank); a false one claims the same (ZE-a: a false assembly its first card's rank).
fn meld_value(kind: MeldType, cards: &[Card]) -> i32 {
    match kind {
        MeldType::Sequence => 20,
        MeldType::Flush => 30,
        MeldType::FlushSequence => 50,
        MeldType::Assembly => match cards.first().and_then(|c| c.rank()) {
            Some(Rank::King | Rank::Queen) => 130,
            Some(Rank::Jack) => 120,
            Some(Rank::Ace | Rank::Five) => 110,
            _ => 100,
        },
    }
}

/// Why `cards` are not a meld of `kind` (`m` cards for a sequence or flush, five for an
/// assembly), or `None` when they are (§3, ZE-a: exactly the kind declared).
fn false_meld(kind: MeldType, cards: &[Card], m: usize, ace: Ace) -> Option<String> {
    let length = match kind {
        MeldType::Assembly => 5,
        _ => m,
    };
    if cards.len() != length {
        return Some(format!(
            "a {} is {length} cards, not {}",
            kind.name(),
            cards.len()
        ));
    }
    let suited = rummy::one_suit(cards).is_some();
    let consecutive = rummy::consecutive(cards, ace);
    let why = match kind {
        MeldType::Sequence if !consecutive => "the ranks are not consecutive",
        MeldType::Sequence if suited => {
            "the cards are all of one suit: a flush sequence, not a sequence"
        }
        MeldType::Flush if !suited => "the cards are not all of one suit",
        MeldType::Flush if consecutive => {
            "the ranks are consecutive: a flush sequence, not a flush"
        }
        MeldType::FlushSequence if !suited => "the cards are not all of one suit",
        MeldType::FlushSequence if !consecutive => "the ranks are not consecutive",
        MeldType::Assembly if SetShape::of(cards, |_| false).is_none_or(|s| s.rank.is_none()) => {
            "the cards are not all of one rank"
        }
        _ => return None,
    };
    Some(why.into())
}

/// §3: a declaration of `pairs` marriages at once scores 10, 30, 60 or 100, and 10 more for each
/// imperial one; all five at once 150 flat (ZE-5). A false declaration of more than five claims
/// the most the schedule gives, 150.
fn marriages_value(pairs: usize, imperial: usize) -> i32 {
    match pairs {
        1 => 10 + 10 * imperial as i32,
        2 => 30 + 10 * imperial as i32,
        3 => 60 + 10 * imperial as i32,
        4 => 100 + 10 * imperial as i32,
        _ => 150,
    }
}

/// §3: a zetema of jacks 20, of aces or fives 15, of kings or queens 50, of any other rank 5.
fn zetema_value(rank: Rank) -> i32 {
    match rank {
        Rank::Jack => 20,
        Rank::Ace | Rank::Five => 15,
        Rank::King | Rank::Queen => 50,
        _ => 5,
    }
}

/// The pile of `rank`: its place in the ranks of a standard pack (`rummy::RANKS`).
fn pile_of(rank: Rank) -> usize {
    rummy::RANKS
        .iter()
        .position(|&r| r == rank)
        .expect("a rank of the 52-card pack")
}

/// Whether `name` names the pile of `rank` (its letter, `10` too for the ten, either case).
fn names_pile(name: &str, rank: Rank) -> bool {
    name.eq_ignore_ascii_case(&rank.letter().to_string()) || (rank == Rank::Ten && name == "10")
}

impl Rules for Zetema {
    type Verb = Verb;
    type Details = Details;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn table(&self, options: &Options) -> Table {
        table_of(options)
    }

    fn setup(&self, options: &Options) -> Setup {
        let table = table_of(options);
        let at = TABLES.iter().position(|&t| t == table).expect("a table");
        Setup {
            pack: packs::zetema65(imperial(options)),
            hand: HandSize::Each(Variant::of(options, table.players()).hand),
            counted_by: None,
            parts: std::slice::from_ref(&STOCKS[at]),
        }
    }

    /// §1: 300, or 200 when four or more play.
    fn game_target(&self, options: &Options) -> i32 {
        target(table_of(options).players())
    }

    /// ZE-9, ZE-e: the deal passes to the left.
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::Next
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let variant = Variant::of(options, table.players());
        let pack = packs::zetema65(variant.imperial);
        // ZE-f, README C14: hands and stock that are not the 65-card pack are refused.
        let mut dealt = deal::check_holdings::<CardCounts, _>(record, table, &pack)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let mut adj = Adjudication::new(INFO.id, dealer, before, 0);
        adj.tally = PerSide::over(table.sides());
        let mut totals = PerSide::over(table.sides());
        for side in table.sides() {
            totals[side] = before.scores[side];
        }
        let first = table.next(dealer);
        let mut hand = Hand {
            table,
            variant,
            // The thirteen rank piles (`pile_of`) and the general wastepile (`WASTE`).
            turns: Turns::new(table, dealt.hands, &[&record.stock], 14, first, Phase::Draw),
            melds: Vec::new(),
            draw_up: None,
            totals,
            won: None,
            adj,
        };
        hand.begin_turn(first);
        Ok(Box::new(hand))
    }
}

#[derive(Clone)]
struct Hand {
    table: Table,
    variant: Variant,
    /// The hands, what each seat gave up, the stock, the fourteen piles and whose turn it is in
    /// which phase (the rummy games' shared turns): `Draw` while the turn's draw is due, `Play`
    /// once made (or when the stock is empty), `Over` when the hand has ended (ZE-2).
    turns: Turns<CardCounts>,
    /// The valid melds declared in the turn in progress (sorted cards, value, action).
    melds: Vec<(Vec<Card>, i32, usize)>,
    /// The draw-up of the marriages just declared (the seat, the cards): a `draw_up` recorded next
    /// by that seat is checked against it.
    draw_up: Option<(Seat, Vec<Card>)>,
    /// Each side's total, every credit of this hand included (ZE-c: tested after each credit).
    totals: PerSide<i32>,
    /// The side that reached the target, and the action of that credit (ZE-e).
    won: Option<(Side, usize)>,
    adj: Adjudication,
}

/// The general wastepile's place among the piles (after the thirteen rank piles).
const WASTE: usize = 13;

impl Hand {
    fn hand(&self, seat: Seat) -> CardCounts {
        self.turns.hand(seat)
    }

    fn stock(&self) -> &Stock {
        &self.turns.stocks[0]
    }

    /// `seat` begins its turn: with a draw while the stock lasts, else straight to its play (§3).
    fn begin_turn(&mut self, seat: Seat) {
        let phase = if self.stock().is_empty() {
            Phase::Play
        } else {
            Phase::Draw
        };
        self.turns.pass_to(seat, phase);
        self.melds.clear();
    }

    /// The turn is over: the next seat with a card, or any seat while the stock lasts (ZE-c); none
    /// when the stock is empty and no one holds a card, which ends the hand (ZE-2).
    fn end_turn(&mut self) {
        let mut seat = self.turns.to_act();
        for _ in 0..self.table.size {
            seat = self.table.next(seat);
            if !self.stock().is_empty() || !self.hand(seat).is_empty() {
                self.begin_turn(seat);
                return;
            }
        }
        self.turns.end();
    }

    /// Lays `cards` on the general wastepile (marriages, completed zetemas): never taken back.
    fn lay_on_wastepile(&mut self, cards: &[Card]) {
        for &card in cards {
            self.turns.piles[WASTE].lay(card);
        }
    }

    /// The turn's draw (§3), `recorded` where the record states it (ZE-f: checked): made when
    /// it is due, nothing when it has been made or the stock is empty.
    fn draw(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        recorded: Option<Card>,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        if recorded.is_some() && self.stock().is_empty() {
            return Err(RecordError::on(
                "wrong_draw",
                index,
                action,
                "the stock is empty: players no longer draw (§3, ZE-f)".into(),
            ));
        }
        if self.turns.phase() != Phase::Draw {
            return match recorded {
                Some(_) => self.turns.expect(
                    index,
                    action,
                    Phase::Draw,
                    &format!("{seat} has drawn already in this turn (§3)"),
                ),
                None => Ok(()),
            };
        }
        let drawn = self.turns.draw((index, seat, "draw"), 0, recorded)?;
        let top = drawn.expect("a draw is due only while the stock lasts");
        self.adj.events.push(Event::new(
            "drew",
            index,
            seat,
            vec![top],
            format!("{seat} draws {top}"),
        ));
        Ok(())
    }

    /// Credits `points` to `seat`'s side at action `index` (§4: at the moment of the declaration
    /// or zetema), and ends the game when its total reaches the target (ZE-c, ZE-e).
    fn credit(&mut self, seat: Seat, points: i32, code: &'static str, index: usize) {
        let side = self.table.side(seat);
        let source = match code {
            "zetema" => ScoreSource::Tricks,
            _ => ScoreSource::Meld,
        };
        self.adj.score(side, points, source, code, Some(index));
        self.totals[side] += points;
        if self.won.is_none() && self.totals[side] >= self.variant.target {
            self.won = Some((side, index));
            self.turns.end();
            self.adj.events.push(Event::new(
                "game_won",
                index,
                seat,
                Vec::new(),
                format!(
                    "{} reaches {} and wins the game at {}: the rest of the record is ignored (ZE-e)",
                    side.spoken(),
                    self.totals[side],
                    self.variant.target
                ),
            ));
        }
    }

    /// Logs an irregularity by `seat` (with the card at fault, where one is), whose side loses
    /// `points` under the §5 DEFAULT penalties.
    #[allow(clippy::too_many_arguments)]
    fn offence(
        &mut self,
        code: &'static str,
        index: usize,
        seat: Seat,
        card: Option<Card>,
        explanation: String,
        points: i32,
        consequence: String,
    ) {
        let side = self.table.side(seat);
        let consequence = if self.variant.penalties {
            consequence
        } else {
            format!("{consequence}; no points are deducted (penalties none)")
        };
        self.adj.irregularities.push(Irregularity {
            code,
            action_index: Some(index),
            trick: None,
            seat,
            card,
            rule: "zetema.md §3, §5",
            explanation,
            consequence,
            effect: Effect::default(),
        });
        if self.variant.penalties {
            let at = self.adj.irregularities.len() - 1;
            self.adj.penalize(at, side, -points);
            self.totals[side] -= points;
        }
    }

    /// §5 DEFAULT, ZE-a, ZE-b: a false declaration scores nothing, costs its side the value
    /// claimed, and leaves the turn as if nothing had been declared.
    fn false_declaration(&mut self, index: usize, seat: Seat, what: String, claimed: i32) {
        let side = self.table.side(seat);
        self.offence(
            "false_declaration",
            index,
            seat,
            None,
            format!("{seat} declares {what}"),
            claimed,
            format!(
                "the declaration scores nothing and {} loses the {claimed} claimed (§5 DEFAULT, ZE-a); \
                 the turn goes on as if nothing had been declared (ZE-b)",
                side.spoken()
            ),
        );
    }

    fn meld(&mut self, index: usize, seat: Seat, meld: &Meld) -> Result<(), RecordError> {
        if meld.cards.is_empty() {
            return Err(RecordError::at(
                "unexpected_action",
                index,
                seat,
                "meld/cards",
                "a meld names its cards".into(),
            ));
        }
        // Shown, and kept in hand: checked on copies of the hand.
        self.turns
            .after_giving_up((index, seat, "meld/cards"), &meld.cards)?;
        let claimed = meld_value(meld.kind, &meld.cards);
        let shown = names(&meld.cards);
        let what = format!("a {} of {shown}", meld.kind.name());
        let mut cards = meld.cards.clone();
        cards.sort_unstable();
        let why = if !self.melds.is_empty() && !self.variant.multi_meld {
            Some("a second declaration in one turn, after a valid meld (ZE-3, ZE-b)".to_string())
        } else if self.melds.iter().any(|(m, _, _)| *m == cards) {
            Some("the same cards as a meld already declared in this turn (ZE-3)".to_string())
        } else {
            false_meld(meld.kind, &meld.cards, self.variant.meld, self.variant.ace)
        };
        if let Some(why) = why {
            self.false_declaration(
                index,
                seat,
                format!("{what}, which is false: {why}"),
                claimed,
            );
            return Ok(());
        }
        self.melds.push((cards, claimed, index));
        self.adj.events.push(Event::new(
            "melded",
            index,
            seat,
            meld.cards.clone(),
            format!(
                "{seat} declares a {} ({shown}) for {claimed}",
                meld.kind.name()
            ),
        ));
        self.credit(seat, claimed, meld.kind.code(), index);
        Ok(())
    }

    fn marriages(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        pairs: &[Pair],
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        if pairs.is_empty() {
            return Err(RecordError::unexpected(
                index,
                action,
                "a declaration of marriages names one or more pairs".into(),
            ));
        }
        // ZE-f: the cards from hand are held, each pulled card lies in its rank pile.
        let mut from_hand = Vec::new();
        let mut pulled: Vec<(Card, String)> = Vec::new();
        for (i, p) in pairs.iter().enumerate() {
            for (card, which, field) in [
                (p.king, Pulled::King, "king"),
                (p.queen, Pulled::Queen, "queen"),
            ] {
                let at = (card, format!("marriages/{i}/{field}"));
                if p.pulled == Some(which) {
                    pulled.push(at);
                } else {
                    from_hand.push(at);
                }
            }
        }
        let held = from_hand.iter().map(|(card, field)| (*card, field));
        self.turns.check_holds(index, seat, held)?;
        let mut taken = CardCounts::default();
        for (card, field) in &pulled {
            taken.insert(*card);
            let on_pile = card
                .rank()
                .filter(|r| rummy::RANKS.contains(r))
                .map_or(0, |r| self.turns.piles[pile_of(r)].count(*card));
            if on_pile < taken.count(*card) as usize {
                return Err(RecordError::at(
                    "card_not_in_pile",
                    index,
                    seat,
                    field,
                    format!("{card} is not on its rank pile to be pulled (ZE-f)"),
                ));
            }
        }
        let imperial = self.variant.imperial;
        let is_imperial =
            |p: &Pair| p.king.suit() == Some(imperial) && p.queen.suit() == Some(imperial);
        let claimed_imperial = pairs.iter().filter(|p| is_imperial(p)).count();
        let claimed = marriages_value(pairs.len(), claimed_imperial);
        let shown = pairs
            .iter()
            .map(|p| format!("{}+{}", p.king, p.queen))
            .collect::<Vec<_>>()
            .join(", ");
        let what = format!(
            "{} marriage{} ({shown})",
            pairs.len(),
            if pairs.len() == 1 { "" } else { "s" }
        );
        let false_pair = pairs.iter().find(|p| {
            p.king.rank() != Some(Rank::King)
                || p.queen.rank() != Some(Rank::Queen)
                || p.king.suit() != p.queen.suit()
        });
        let why = if !self.melds.is_empty() {
            Some("marriages after a valid meld in the same turn (ZE-10, ZE-b)".to_string())
        } else {
            false_pair
                .map(|p| format!("{}+{} is not a king and queen of one suit", p.king, p.queen))
        };
        if let Some(why) = why {
            // ZE-b: nothing moves, no draw-up; the player discards.
            self.false_declaration(
                index,
                seat,
                format!("{what}, which is false: {why}"),
                claimed,
            );
            return Ok(());
        }
        let in_hand: Vec<Card> = from_hand.iter().map(|(c, _)| *c).collect();
        self.turns
            .give_up((index, seat, "marriages"), &in_hand)
            .expect("checked above");
        for (card, _) in &pulled {
            let rank = card.rank().expect("a king or queen");
            self.turns.piles[pile_of(rank)].pull(*card);
        }
        let married: Vec<Card> = pairs.iter().flat_map(|p| [p.king, p.queen]).collect();
        self.lay_on_wastepile(&married);
        let imperial_note = match claimed_imperial {
            0 => String::new(),
            n => format!(", {n} imperial"),
        };
        self.adj.events.push(Event::new(
            "married",
            index,
            seat,
            married,
            format!(
                "{seat} declares {what}{imperial_note} for {claimed}; the cards go to the wastepile"
            ),
        ));
        self.credit(seat, claimed, "marriages", index);
        if self.won.is_some() {
            return Ok(());
        }
        // §3: draw back up to the hand size, as far as the stock goes; the turn ends.
        let mut drawn = Vec::new();
        while (self.hand(seat).len() as usize) < self.variant.hand {
            match self.turns.draw((index, seat, "draw_up"), 0, None)? {
                Some(card) => drawn.push(card),
                None => break,
            }
        }
        if !drawn.is_empty() {
            let detail = format!("{seat} draws back up: {}", names(&drawn));
            self.adj
                .events
                .push(Event::new("drew_up", index, seat, drawn.clone(), detail));
        }
        self.draw_up = Some((seat, drawn));
        self.end_turn();
        Ok(())
    }

    fn discard(&mut self, index: usize, seat: Seat, discard: &Discard) -> Result<(), RecordError> {
        let card = discard.card();
        let field = match discard {
            Discard::Card(_) => "discard",
            Discard::Named(_) => "discard/card",
        };
        self.turns.check_holds(index, seat, [(card, field)])?;
        let rank = card.rank().expect("a held card is a card of the pack");
        if let Discard::Named(NamedDiscard { pile, .. }) = discard
            && !names_pile(pile, rank)
        {
            return Err(RecordError::at(
                "wrong_pile",
                index,
                seat,
                "discard/pile",
                format!(
                    "{card} goes to the {} pile, not to '{pile}' (§3, ZE-d)",
                    rank.letter()
                ),
            ));
        }
        if !self.melds.is_empty() && !self.melds.iter().any(|(m, _, _)| m.contains(&card)) {
            // §5 DEFAULT: the turn's meld score is cancelled.
            let cancelled: i32 = self.melds.iter().map(|(_, v, _)| v).sum();
            self.offence(
                "discard_not_from_meld",
                index,
                seat,
                Some(card),
                format!(
                    "{seat} discards {card}, which is not a card of the meld declared in this turn"
                ),
                cancelled,
                format!("the meld's {cancelled} is deducted again (§5 DEFAULT)"),
            );
        }
        let pile = pile_of(rank);
        self.turns
            .discard((index, seat, field), card, pile)
            .expect("checked above");
        let on_pile = self.turns.piles[pile].len();
        self.adj.events.push(Event::new(
            "discarded",
            index,
            seat,
            vec![card],
            format!(
                "{seat} discards {card} to the {} pile ({on_pile} there)",
                rank.letter()
            ),
        ));
        if on_pile == 5 {
            // §3: the fifth card is a zetema; the five go to the wastepile (ZE-11).
            let five = self.turns.piles[pile].take(5);
            self.lay_on_wastepile(&five);
            let points = zetema_value(rank);
            self.adj.events.push(Event::new(
                "zetema",
                index,
                seat,
                five,
                format!(
                    "{seat} completes a zetema of {}s for {points}",
                    rank.letter()
                ),
            ));
            self.credit(seat, points, "zetema", index);
        }
        // A game won at this zetema has ended the hand with it (ZE-e).
        if self.won.is_none() {
            self.end_turn();
        }
        Ok(())
    }

    fn ignore(&mut self, index: usize) {
        let (side, at) = self.won.expect("the game is won");
        self.adj.ignored_actions.push(IgnoredAction {
            action_index: index,
            reason: format!(
                "{} reached the target at action {at} and won the game: the rest of the record is ignored (ZE-e, README C6)",
                side.spoken()
            )
            .into(),
        });
    }

    fn set_details(&mut self) {
        let piles = rummy::RANKS
            .iter()
            .zip(&self.turns.piles)
            .filter(|(_, p)| !p.is_empty())
            .map(|(r, p)| (r.letter().to_string(), p.len()))
            .collect();
        let cards_left = self
            .table
            .seats()
            .map(|s| (s, self.hand(s).len()))
            .collect();
        self.adj.details = details::Details::of(Details {
            imperial_suit: self.variant.imperial,
            target: self.variant.target,
            game_won_at: self.won.map(|(_, at)| at),
            stock_left: self.stock().len(),
            piles,
            wastepile: self.turns.piles[WASTE].len(),
            cards_left,
        });
    }

    /// The melds `hand` can show (`m` cards, or five for an assembly), each once, as what it is.
    fn melds_in(&self, hand: &[Card]) -> Vec<Meld> {
        let mut out: Vec<Meld> = Vec::new();
        let mut sizes = vec![self.variant.meld];
        if self.variant.meld != 5 {
            sizes.push(5);
        }
        for size in sizes {
            subsets(hand, size, &mut |cards| {
                for kind in [
                    MeldType::Sequence,
                    MeldType::Flush,
                    MeldType::FlushSequence,
                    MeldType::Assembly,
                ] {
                    // `subsets` gives each choice once (the imperial suit's copies are one card).
                    if false_meld(kind, cards, self.variant.meld, self.variant.ace).is_none() {
                        out.push(Meld {
                            kind,
                            cards: cards.to_vec(),
                        });
                    }
                }
            });
        }
        out
    }

    /// Every declaration of marriages `seat` could make with `hand`: for each suit, up to as many
    /// pairs as the pack has, each from hand or with one card pulled from its pile.
    fn marriages_in(&self, hand: &CardCounts) -> Vec<Vec<Pair>> {
        let mut per_suit: Vec<Vec<Vec<Pair>>> = Vec::new();
        for suit in Suit::ALL {
            let king = Card::new(Rank::King, suit);
            let queen = Card::new(Rank::Queen, suit);
            let copies = if suit == self.variant.imperial { 2 } else { 1 };
            let (kh, qh) = (hand.count(king) as usize, hand.count(queen) as usize);
            let kp = self.turns.piles[pile_of(Rank::King)].count(king);
            let qp = self.turns.piles[pile_of(Rank::Queen)].count(queen);
            let mut options = vec![Vec::new()];
            let sources = [None, Some(Pulled::King), Some(Pulled::Queen)];
            for n in 1..=copies {
                // Multisets of `n` sources, in order.
                let mut picks: Vec<Vec<usize>> = vec![Vec::new()];
                for _ in 0..n {
                    picks = picks
                        .into_iter()
                        .flat_map(|p| {
                            let from = p.last().copied().unwrap_or(0);
                            (from..3).map(move |s| {
                                let mut q = p.clone();
                                q.push(s);
                                q
                            })
                        })
                        .collect();
                }
                for pick in picks {
                    let pk = pick.iter().filter(|&&s| s == 1).count();
                    let pq = pick.iter().filter(|&&s| s == 2).count();
                    if pk > kp || pq > qp || n - pk > kh || n - pq > qh {
                        continue;
                    }
                    options.push(
                        pick.iter()
                            .map(|&s| Pair {
                                king,
                                queen,
                                pulled: sources[s],
                            })
                            .collect(),
                    );
                }
            }
            per_suit.push(options);
        }
        let mut all: Vec<Vec<Pair>> = vec![Vec::new()];
        for options in per_suit {
            all = all
                .into_iter()
                .flat_map(|chosen| {
                    options.iter().map(move |o| {
                        let mut c = chosen.clone();
                        c.extend(o.iter().cloned());
                        c
                    })
                })
                .collect();
        }
        all.retain(|c| !c.is_empty());
        all
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        // ZE-e, README C6: once the game is won, the rest of the record is ignored.
        if self.won.is_some() {
            self.ignore(index);
            return Ok(());
        }
        let draw_up = self.draw_up.take();
        let seat = action.seat;
        // ZE-f: the draw-up of the marriages just declared, by the seat that married.
        if let Verb::DrawUp(Cards(cards)) = &action.kind
            && let Some((by, drawn)) = draw_up.filter(|(by, _)| *by == seat)
        {
            let (mut given, mut due) = (cards.clone(), drawn.clone());
            given.sort_unstable();
            due.sort_unstable();
            if given != due {
                return Err(RecordError::on(
                    "wrong_draw",
                    index,
                    action,
                    format!(
                        "{by} draws back up [{}] from the stock, not [{}] (ZE-f)",
                        names(&drawn),
                        names(cards)
                    ),
                ));
            }
            return Ok(());
        }
        // README C12, through the shared turns: nothing after the hand (ZE-2), the seat to act
        // first, no `correct` (ZE-f).
        let due = match self.turns.phase() {
            Phase::Draw => "its draw, a declaration or its discard is due",
            _ => "a declaration or its discard is due",
        };
        self.turns.expect(index, action, self.turns.phase(), due)?;
        match &action.kind {
            Verb::Draw(card) => self.draw(index, action, Some(*card)),
            Verb::DrawUp(_) => Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "a draw-up follows the seat's own marriages at once; {seat} is to draw, declare or discard"
                ),
            )),
            Verb::Meld(meld) => {
                self.draw(index, action, None)?;
                self.meld(index, seat, meld)
            }
            Verb::Marriages(Pairs(pairs)) => {
                self.draw(index, action, None)?;
                self.marriages(index, action, pairs)
            }
            Verb::Discard(discard) => {
                self.draw(index, action, None)?;
                self.discard(index, seat, discard)
            }
            Verb::Correct(_) => unreachable!("answered above"),
        }
    }

    fn view(&self) -> TableView {
        let mut view = self.turns.view(&self.adj.match_after);
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(ViewDetails {
            imperial_suit: self.variant.imperial,
            target: self.variant.target,
            stock_left: self.stock().len(),
            piles: rummy::RANKS
                .iter()
                .zip(&self.turns.piles)
                .filter(|(_, p)| !p.is_empty())
                .map(|(r, p)| (r.letter().to_string(), p.cards().to_vec()))
                .collect(),
            wastepile: self.turns.piles[WASTE].len(),
            melds: self.melds.iter().map(|(m, _, _)| m.clone()).collect(),
            totals: self.totals,
        });
        view
    }

    fn locus(&self) -> Locus {
        self.turns.locus()
    }

    /// The draw-up just made, the draw when due, and what the seat to act can do once it has
    /// drawn: every meld and declaration of marriages its cards allow, and each card discarded.
    fn candidates(&self) -> Vec<Action<Verb>> {
        if self.turns.phase() == Phase::Over {
            return Vec::new();
        }
        let mut out = Vec::new();
        if let Some((seat, cards)) = &self.draw_up {
            out.push(Action {
                seat: *seat,
                kind: Verb::DrawUp(Cards(cards.clone())),
            });
        }
        let seat = self.turns.to_act();
        let mut hand = self.hand(seat);
        if self.turns.phase() == Phase::Draw {
            let top = self.stock().top().expect("a draw is due");
            out.push(Action {
                seat,
                kind: Verb::Draw(top),
            });
            hand.insert(top);
        }
        let cards = hand.to_vec();
        if self.melds.is_empty() || self.variant.multi_meld {
            for meld in self.melds_in(&cards) {
                out.push(Action {
                    seat,
                    kind: Verb::Meld(meld),
                });
            }
        }
        if self.melds.is_empty() {
            for pairs in self.marriages_in(&hand) {
                out.push(Action {
                    seat,
                    kind: Verb::Marriages(Pairs(pairs)),
                });
            }
        }
        for card in hand.distinct().iter() {
            out.push(Action {
                seat,
                kind: Verb::Discard(Discard::Card(card)),
            });
        }
        out
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index)
    }

    fn ignored(&self, index: usize) -> bool {
        self.adj.ignored(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.set_details();
        let ending = match self.turns.phase() {
            Phase::Over => Ending::Over,
            phase => Ending::Open {
                due: Some(self.turns.to_act()),
                detail: format!(
                    "the record stops before the hand is over ({} cards in the stock); {} is to {}",
                    self.stock().len(),
                    self.turns.to_act(),
                    match phase {
                        Phase::Draw => "draw",
                        _ => "declare or discard",
                    }
                ),
            },
        };
        let (table, won) = (self.table, self.won);
        self.adj.conclude(error, ending, |adj| {
            adj.settle();
            let m = &mut adj.match_after;
            // ZE-e, README C8: the deal passes to the left, also after a hand that ends the game.
            m.next_dealer = Some(table.left(adj.dealer));
            if let Some((side, _)) = won {
                m.end_game([side]);
            }
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

    fn judge(kind: MeldType, s: &str) -> Option<String> {
        false_meld(kind, &cards(s), 6, Ace::LowOrHigh)
    }

    #[test]
    fn melds_are_exactly_the_kind_declared() {
        use MeldType::*;
        // §3: six consecutive ranks not of one suit; the ace low or high (ZE-4).
        assert_eq!(judge(Sequence, "4S 5H 6D 7C 8S 9S"), None);
        assert_eq!(judge(Sequence, "9S TH JD QC KS AS"), None);
        assert!(
            judge(Sequence, "QS KH AD 2C 3S 4S").is_some(),
            "no wrap-round"
        );
        assert!(
            judge(Sequence, "4H 5H 6H 7H 8H 9H").is_some(),
            "a flush sequence"
        );
        assert!(judge(Sequence, "4S 5H 6D 7C 8S").is_some(), "five cards");
        // A flush: one suit, not consecutive; the imperial duplicates may both appear.
        assert_eq!(judge(Flush, "2H 5H 7H 7H JH KH"), None);
        assert!(judge(Flush, "4H 5H 6H 7H 8H 9H").is_some());
        assert!(judge(Flush, "2H 5H 7H 7S JH KH").is_some());
        assert_eq!(judge(FlushSequence, "AH 2H 3H 4H 5H 6H"), None);
        assert!(judge(FlushSequence, "AH 2H 3H 4H 5H 6S").is_some());
        // An assembly: five of one rank, always five cards.
        assert_eq!(judge(Assembly, "7S 7H 7H 7D 7C"), None);
        assert!(judge(Assembly, "7S 7H 7D 7C").is_some());
        assert!(judge(Assembly, "7S 7H 7D 7C 8C").is_some());
        // ZE-7: five-card sequences and flushes with six players.
        assert_eq!(
            false_meld(Sequence, &cards("4S 5H 6D 7C 8S"), 5, Ace::Low),
            None
        );
        // ZE-4 variant: the ace low only.
        assert!(false_meld(Sequence, &cards("9S TH JD QC KS AS"), 6, Ace::Low).is_some());
    }

    #[test]
    fn scores_follow_section_three() {
        use MeldType::*;
        assert_eq!(meld_value(Sequence, &[]), 20);
        assert_eq!(meld_value(Flush, &[]), 30);
        assert_eq!(meld_value(FlushSequence, &[]), 50);
        assert_eq!(meld_value(Assembly, &cards("KS KH KD KC KH")), 130);
        assert_eq!(meld_value(Assembly, &cards("QS")), 130);
        assert_eq!(meld_value(Assembly, &cards("JS")), 120);
        assert_eq!(meld_value(Assembly, &cards("AS")), 110);
        assert_eq!(meld_value(Assembly, &cards("5S")), 110);
        assert_eq!(meld_value(Assembly, &cards("9S")), 100);
        // Marriages: 10, 30, 60, 100, +10 each imperial; all five 150 flat (ZE-5).
        assert_eq!(marriages_value(1, 0), 10);
        assert_eq!(marriages_value(1, 1), 20);
        assert_eq!(marriages_value(2, 2), 50);
        assert_eq!(marriages_value(3, 0), 60);
        assert_eq!(marriages_value(4, 1), 110);
        assert_eq!(marriages_value(5, 2), 150);
        assert_eq!(zetema_value(Rank::Jack), 20);
        assert_eq!(zetema_value(Rank::Ace), 15);
        assert_eq!(zetema_value(Rank::Five), 15);
        assert_eq!(zetema_value(Rank::King), 50);
        assert_eq!(zetema_value(Rank::Two), 5);
        assert_eq!((target(3), target(4), target(6)), (300, 200, 200));
    }

    #[test]
    fn piles_are_named_by_rank() {
        assert!(names_pile("T", Rank::Ten) && names_pile("10", Rank::Ten));
        assert!(names_pile("k", Rank::King) && !names_pile("Q", Rank::King));
        assert!(!names_pile("waste", Rank::Seven));
    }
}
