//! Tresette (`docs/rules/tresette.md`): four players in partnerships, a 40-card pack dealt out,
//! no trumps, follow suit, 3 2 A K J Q 7 6 5 4. "Good play" before the first lead declares melds
//! of aces, 2s and 3s (three or four of a kind, the 3-2-A napoleon), scored when the declarer wins
//! a trick. Aces 1, every three 2s/3s/courts 1, last trick 1 (11 a hand). Limited, truthful table
//! talk. Game to 31.

use crate::cards::{Card, CardSet, Pack, Rank, Suit, packs};
use crate::engine::deal::{HandSize, Setup};
use crate::engine::{
    Adjudication, Decided, Effect, Ending, Event, Fault, FieldError, GameInfo, HandState,
    IgnoredAction, Irregularity, Locus, MatchState, NoDetails, OptionKind, OptionSpec, Options,
    PerSide, RankOrder, RecordError, Rules, ScoreSource, Seat, Side, Table, TableView, Trick,
    TrickPlay, TrickReport, deal, must_follow_suit,
};
use crate::record::{Action, HandRecord, Verbs, Yes};
use serde::de::{self, Visitor};
use std::fmt;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema};
use utoipa::{PartialSchema, ToSchema};

pub struct Tresette;

/// One meld a Tresette declarer can announce (`tresette.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldName {
    FourAces,
    FourTwos,
    FourThrees,
    ThreeAces,
    ThreeTwos,
    ThreeThrees,
    /// 3-2-A of one suit; a hand can hold several.
    Napoleon,
}

impl MeldName {
    const ALL: [MeldName; 7] = [
        MeldName::FourAces,
        MeldName::FourTwos,
        MeldName::FourThrees,
        MeldName::ThreeAces,
        MeldName::ThreeTwos,
        MeldName::ThreeThrees,
        MeldName::Napoleon,
    ];

    pub fn name(self) -> &'static str {
        [
            "four_aces",
            "four_twos",
            "four_threes",
            "three_aces",
            "three_twos",
            "three_threes",
            "napoleon",
        ][self as usize]
    }
}

/// The melds one Tresette player announces, as he says them ("three aces and a nap"): a list of
/// meld names, `napoleon` repeated once per nap. Order does not matter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Melds {
    /// Bit per of-a-kind meld (`MeldName as u8`).
    of_a_kind: u8,
    naps: u8,
}

impl Melds {
    /// Most naps a hand can hold: one per suit.
    const MAX_NAPS: u8 = 4;

    /// These melds and `meld`; `None` when that cannot be said (an of-a-kind meld twice, a fifth nap).
    pub fn with(self, meld: MeldName) -> Option<Melds> {
        match meld {
            MeldName::Napoleon if self.naps < Self::MAX_NAPS => Some(Melds {
                naps: self.naps + 1,
                ..self
            }),
            MeldName::Napoleon => None,
            m if self.of_a_kind >> m as u8 & 1 == 1 => None,
            m => Some(Melds {
                of_a_kind: self.of_a_kind | 1 << m as u8,
                ..self
            }),
        }
    }

    /// Every meld named, `Napoleon` once per nap, in the order of `MeldName`.
    pub fn iter(self) -> impl Iterator<Item = MeldName> {
        MeldName::ALL[..6]
            .iter()
            .copied()
            .filter(move |m| self.of_a_kind >> *m as u8 & 1 == 1)
            .chain((0..self.naps).map(|_| MeldName::Napoleon))
    }

    pub fn is_empty(self) -> bool {
        self == Melds::default()
    }
}

impl fmt::Display for Melds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("no meld");
        }
        let names: Vec<_> = self.iter().map(MeldName::name).collect();
        f.write_str(&names.join(", "))
    }
}

impl serde::Serialize for Melds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(MeldName::name))
    }
}

impl<'de> serde::Deserialize<'de> for Melds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Melds;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of meld names")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Melds, A::Error> {
                let mut melds = Melds::default();
                while let Some(name) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    let meld = MeldName::ALL
                        .into_iter()
                        .find(|m| m.name() == name)
                        .ok_or_else(|| {
                            de::Error::custom(format!(
                                "'{name}' is not a meld: expected {}",
                                MeldName::ALL.map(MeldName::name).join(", ")
                            ))
                        })?;
                    melds = melds.with(meld).ok_or_else(|| {
                        de::Error::custom(format!(
                            "'{name}' is named too often (an of-a-kind meld once, at most four naps)"
                        ))
                    })?;
                }
                Ok(melds)
            }
        }
        d.deserialize_seq(V)
    }
}

impl PartialSchema for Melds {
    fn schema() -> RefOr<Schema> {
        utoipa::openapi::schema::ArrayBuilder::new()
            .items(
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some(MeldName::ALL.map(MeldName::name))),
            )
            .max_items(Some(10))
            .into()
    }
}

impl ToSchema for Melds {}

impl crate::record::Placeholder for Melds {
    const PLACEHOLDER: &'static str = "<melds as JSON, e.g. [\"napoleon\"]>";
}

crate::verbs! {
    /// What a record of Tresette can say.
    #[derive(Copy)]
    pub enum Verb in "Tresette" {
        GoodPlay(bool) = "good_play": "Before the first lead, whether the seat says \"Good play\" (holds a meld).",
        Play(Card) = "play": "A card played to the current trick.",
        Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
        Announce(Melds) = "announce": "The melds a declarer announces after his first won trick (checked against his dealt hand).",
        AskBest(Yes) = "ask_best": "Table talk: the leader asks his partner to play his best card of the suit led (value `true`).",
        Count(u8) = "count": "Table talk: a player following to a trick states how many cards of the suit led he holds.",
        Holding(u8) = "holding": "Table talk: the seat states that it holds exactly this many (2, 1 or 0) cards in some suit.",
    }
}

static INFO: GameInfo = GameInfo {
    id: "tresette",
    name: "Tresette",
    // The `direction` option: clockwise by default, or the traditional counter-clockwise.
    tables: crate::engine::Tables(&[Table::FOUR, Table::FOUR.counterclockwise()]),
    deck: "40-card pack (A K Q J 7 6 5 4 3 2)",
    game_target: GAME,
    options: &[
        OptionSpec {
            name: "direction",
            kind: OptionKind::Choice {
                values: &["clockwise", "counterclockwise"],
                default: "clockwise",
            },
            description: "Direction of play, of the 'Good play' declarations and of the deal. \
                          `counterclockwise` (the traditional way): the dealer's right plays first.",
            rule: "tresette.md §6 TS-2, TR-a",
        },
        OptionSpec {
            name: "melds_score_without_trick",
            kind: OptionKind::Flag { default: false },
            description: "A declared meld scores even if its holder never wins a trick (by default it \
                          is announced, and scores, only once he wins one).",
            rule: "tresette.md §6 TS-3, TR-c",
        },
        OptionSpec {
            name: "card_in_one_meld_only",
            kind: OptionKind::Flag { default: false },
            description: "A card counts in one meld only (the holder is credited with the split worth \
                          most); by default a card may serve in one of-a-kind meld and in one napoleon.",
            rule: "tresette.md §6 TS-4",
        },
        OptionSpec {
            name: "revoke_penalty",
            kind: OptionKind::Choice {
                values: &["default", "none"],
                default: "default",
            },
            description: "`default`: the revoking side scores nothing for the hand, the other side 11 \
                          plus its valid melds; both sides revoking score nothing (the rulings' default, \
                          the text being silent); `none`: revokes are reported only.",
            rule: "tresette.md §5, TR-d",
        },
        OptionSpec {
            name: "false_information_penalty",
            kind: OptionKind::Flag { default: true },
            description: "Each untrue `count` or `holding` statement gives the opponents 1 point (the \
                          rulings' default, the text being silent); `false`: reported only.",
            rule: "tresette.md §5, TS-5, TR-e",
        },
    ],
    rules: "docs/rules/tresette.md",
    irregularities: &[
        "revoke",
        "false_information",
        "announce_mismatch",
        "improper_table_talk",
    ],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
    ],
    events: &["melds_due", "meld_not_scored"],
    score_codes: &[
        "card_points",
        "four_of_a_kind",
        "three_of_a_kind",
        "napoleon",
    ],
    titles: crate::engine::Titles(&[
        (
            "false_information",
            "Untrue statement of a count or holding",
        ),
        (
            "announce_mismatch",
            "Announced meld not matching the cards held",
        ),
        ("improper_table_talk", "Improper table talk"),
        ("melds_due", "Melds to be announced"),
        ("meld_not_scored", "Meld not scored"),
        ("four_of_a_kind", "Four of a kind"),
        ("three_of_a_kind", "Three of a kind"),
        ("napoleon", "Napoleon (ace, two and three of a suit)"),
    ]),
};

/// §1: in every suit 3 2 A K J Q 7 6 5 4, the 3 highest.
const ORDER: RankOrder = RankOrder::new(&[
    Rank::Three,
    Rank::Two,
    Rank::Ace,
    Rank::King,
    Rank::Jack,
    Rank::Queen,
    Rank::Seven,
    Rank::Six,
    Rank::Five,
    Rank::Four,
]);
const TRICKS: u8 = 10;
const GAME: i32 = 31;
/// TR-b: the card points of a whole hand; what the other side scores after a revoke (§5).
const HAND_POINTS: i32 = 11;
/// The ranks melds are made of (§3), in the order their names are announced.
const MELD_RANKS: [Rank; 3] = [Rank::Ace, Rank::Two, Rank::Three];

fn pack() -> Pack {
    packs::latin40()
}

/// §3: the kinds of meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MeldKind {
    FourOfAKind(Rank),
    ThreeOfAKind(Rank),
    Napoleon(Suit),
}

/// One meld in a dealt hand, with the cards it is made of.
#[derive(Clone, Copy, Debug)]
struct HeldMeld {
    kind: MeldKind,
    cards: CardSet,
}

impl HeldMeld {
    /// §4: 4 for a four of a kind, 3 for any other meld.
    fn points(self) -> i32 {
        match self.kind {
            MeldKind::FourOfAKind(_) => 4,
            _ => 3,
        }
    }

    fn code(self) -> &'static str {
        match self.kind {
            MeldKind::FourOfAKind(_) => "four_of_a_kind",
            MeldKind::ThreeOfAKind(_) => "three_of_a_kind",
            MeldKind::Napoleon(_) => "napoleon",
        }
    }

    /// The name the holder announces it by.
    fn name(self) -> MeldName {
        let of_rank = |r: Rank, four: bool| match (r, four) {
            (Rank::Ace, true) => MeldName::FourAces,
            (Rank::Two, true) => MeldName::FourTwos,
            (_, true) => MeldName::FourThrees,
            (Rank::Ace, false) => MeldName::ThreeAces,
            (Rank::Two, false) => MeldName::ThreeTwos,
            (_, false) => MeldName::ThreeThrees,
        };
        match self.kind {
            MeldKind::FourOfAKind(r) => of_rank(r, true),
            MeldKind::ThreeOfAKind(r) => of_rank(r, false),
            MeldKind::Napoleon(_) => MeldName::Napoleon,
        }
    }
}

fn nap_cards(suit: Suit) -> CardSet {
    CardSet::of(&[
        Card::new(Rank::Three, suit),
        Card::new(Rank::Two, suit),
        Card::new(Rank::Ace, suit),
    ])
}

fn of_rank(hand: CardSet, rank: Rank) -> CardSet {
    hand.iter().filter(|c| c.rank_unchecked() == rank).collect()
}

/// The of-a-kind melds among `cards`: a four of a kind is one meld, not also a three (§3).
fn of_a_kind(cards: CardSet) -> impl Iterator<Item = HeldMeld> {
    MELD_RANKS.into_iter().filter_map(move |rank| {
        let same = of_rank(cards, rank);
        match same.len() {
            4 => Some(HeldMeld {
                kind: MeldKind::FourOfAKind(rank),
                cards: same,
            }),
            3 => Some(HeldMeld {
                kind: MeldKind::ThreeOfAKind(rank),
                cards: same,
            }),
            _ => None,
        }
    })
}

/// Every way of counting the melds of a dealt hand that the rules allow and that is worth the most.
/// TS-4 default: a card may serve in one of-a-kind meld and in one nap, so there is one way. With
/// `card_in_one_meld_only`, each choice of naps leaves the rest for of-a-kind melds; the choices
/// worth the most are kept, the first (fewest naps) being the one scored.
fn meld_choices(hand: CardSet, one_meld_only: bool) -> Vec<Vec<HeldMeld>> {
    let naps: Vec<HeldMeld> = Suit::ALL
        .into_iter()
        .map(|s| HeldMeld {
            kind: MeldKind::Napoleon(s),
            cards: nap_cards(s),
        })
        .filter(|m| hand.intersect(m.cards) == m.cards)
        .collect();
    if !one_meld_only {
        return vec![of_a_kind(hand).chain(naps).collect()];
    }
    // Nap choices by number of naps, then by suit: the first of the best is the one scored.
    let mut choices: Vec<u32> = (0..1 << naps.len()).collect();
    choices.sort_by_key(|c| (c.count_ones(), *c));
    let mut best: Vec<Vec<HeldMeld>> = Vec::new();
    let mut best_points = 0;
    for chosen in choices {
        let picked: Vec<HeldMeld> = (0..naps.len())
            .filter(|i| chosen >> i & 1 == 1)
            .map(|i| naps[i])
            .collect();
        let used: CardSet = picked.iter().flat_map(|m| m.cards.iter()).collect();
        let melds: Vec<HeldMeld> = of_a_kind(hand.minus(used)).chain(picked).collect();
        let points = meld_points(&melds);
        if best.is_empty() || points > best_points {
            best = vec![melds];
            best_points = points;
        } else if points == best_points {
            best.push(melds);
        }
    }
    best
}

fn meld_points(melds: &[HeldMeld]) -> i32 {
    melds.iter().map(|m| m.points()).sum()
}

/// The melds as their holder would announce them.
fn announced_as(melds: &[HeldMeld]) -> Melds {
    melds.iter().fold(Melds::default(), |all, m| {
        all.with(m.name())
            .expect("a hand holds each meld once, at most four naps")
    })
}

/// "three_aces AS AH AD, napoleon 3S 2S AS" for a director to read out.
fn describe(melds: &[HeldMeld]) -> String {
    if melds.is_empty() {
        return "no meld".into();
    }
    melds
        .iter()
        .map(|m| format!("{} {}", m.name().name(), m.cards))
        .collect::<Vec<_>>()
        .join(", ")
}

/// §3: follow suit if able, otherwise any card. `None` = legal.
fn judge(table: Table, trick: &Trick, hand: CardSet, card: Card) -> Option<Fault> {
    must_follow_suit(table, "tresette.md §3", trick, hand, card)
}

/// §4: what a side's captured cards are worth.
#[derive(Clone, Copy, Debug, Default)]
struct Captured {
    aces: i32,
    /// 2s, 3s, kings, queens and jacks: every three make a point, the remainder is lost.
    figures: i32,
    last_trick: bool,
}

impl Captured {
    fn add(&mut self, card: Card) {
        match card.rank_unchecked() {
            Rank::Ace => self.aces += 1,
            Rank::Two | Rank::Three | Rank::King | Rank::Queen | Rank::Jack => self.figures += 1,
            _ => {}
        }
    }

    fn points(self) -> i32 {
        self.aces + self.figures / 3 + i32::from(self.last_trick)
    }
}

/// The club's choices among the rule file's variants, from the options.
#[derive(Clone, Copy, Debug)]
struct Variants {
    melds_score_without_trick: bool,
    card_in_one_meld_only: bool,
    revoke_penalty: bool,
    false_information_penalty: bool,
}

/// §4: the first side with 31 or more after a hand wins; if both are, the higher total; equal
/// totals play another hand.
fn game_winner(scores: &PerSide<i32>) -> Option<Side> {
    let (ns, ew) = (scores[Side::NS], scores[Side::EW]);
    ((ns >= GAME || ew >= GAME) && ns != ew).then_some(if ns > ew { Side::NS } else { Side::EW })
}

impl Rules for Tresette {
    type Verb = Verb;
    type Details = NoDetails;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    /// §4: past 31 the game is decided unless both sides stand at 31 or more with equal totals,
    /// which play another hand (fixture 12's 33–33 goes on).
    fn already_won(&self, scores: &PerSide<i32>, _: &Options) -> Option<Decided> {
        let winner = game_winner(scores)?;
        let other = winner.other();
        let why = if scores[other] >= GAME {
            format!(
                "{winner} has {} and {other} {}: both are at {GAME} or more and the higher total wins",
                scores[winner], scores[other]
            )
        } else {
            format!(
                "{winner} has {} and the game is won at {GAME}",
                scores[winner]
            )
        };
        Some(Decided {
            winner: Some(winner),
            at: winner,
            why,
        })
    }

    /// TS-2, TR-a: clockwise by default; the traditional way plays to the right.
    fn table(&self, options: &Options) -> Table {
        if options.choice("direction") == "counterclockwise" {
            Table::FOUR.counterclockwise()
        } else {
            Table::FOUR
        }
    }

    fn setup(&self, _: &Options) -> Setup {
        Setup {
            pack: pack(),
            hand: HandSize::Each(TRICKS as usize),
            counted_by: None,
            parts: &[],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let pack = pack();
        let dealt = deal::check_cards(record, table, &pack)?;
        // §1: the whole pack is dealt, ten each.
        deal::check_whole_pack(&dealt, &pack)?;
        let rules = Variants {
            melds_score_without_trick: options.flag("melds_score_without_trick"),
            card_in_one_meld_only: options.flag("card_in_one_meld_only"),
            revoke_penalty: options.choice("revoke_penalty") == "default",
            false_information_penalty: options.flag("false_information_penalty"),
        };
        // TR-a: the first player, the Good play order and the first lead follow the direction of play.
        let first = table.next(record.dealer);
        let mut order = [first; 4];
        for i in 1..4 {
            order[i] = table.next(order[i - 1]);
        }
        let melds =
            std::array::from_fn(|p| meld_choices(dealt.hands[p], rules.card_in_one_meld_only));
        let mut adj = Adjudication::new(INFO.id, record.dealer, before, TRICKS as usize);
        adj.counts_card_points(Side::BOTH);
        Ok(Box::new(TresetteHand {
            table,
            rules,
            order,
            good_play_from: 0,
            good_play: [None; 4],
            announce_due: None,
            melds,
            play: TrickPlay::new(table, dealt.hands, first),
            won: [0; 4],
            announced: [false; 4],
            captured: PerSide::default(),
            revokes: Vec::new(),
            false_information: Vec::new(),
            adj,
        }))
    }
}

#[derive(Clone)]
struct TresetteHand {
    table: Table,
    rules: Variants,
    /// The seats in the order they say Good play, from the first player (§2.2, TR-a).
    order: [Seat; 4],
    /// Position in `order` of the first seat that may still say Good play.
    good_play_from: usize,
    /// Per seat position: the action at which the seat said Good play, if it did.
    good_play: [Option<usize>; 4],
    /// TR-i: the declarer who has just won his first trick and may announce, until the next card.
    announce_due: Option<Seat>,
    /// Per seat position: the ways of counting the dealt hand's melds worth the most (TR-c); the
    /// first is the one scored.
    melds: [Vec<Vec<HeldMeld>>; 4],
    play: TrickPlay,
    /// Tricks won by each seat position (a meld needs its holder to win one, TR-c).
    won: [u32; 4],
    announced: [bool; 4],
    captured: PerSide<Captured>,
    /// Indexes in `adj.irregularities` of established revokes; their consequence is known at the end.
    revokes: Vec<usize>,
    /// The offending side and the irregularity of each untrue statement.
    false_information: Vec<(Side, usize)>,
    adj: Adjudication,
}

impl TresetteHand {
    /// The seats that may act: once the hand is over, a declarer who may still announce (§2 item
    /// 3: once he has won a trick, by option also after the last trick without one, the last
    /// trick included); while Good play is declared, the seat due to; else the player to play.
    fn to_act(&self) -> Vec<Seat> {
        if self.is_over() {
            self.order
                .into_iter()
                .filter(|&s| self.may_announce(s))
                .collect()
        } else if self.declaring() {
            vec![self.order[self.good_play_from]]
        } else {
            self.play.to_play().into_iter().collect()
        }
    }

    fn judge(&self) -> impl Fn(&Trick, CardSet, Card) -> Option<Fault> + use<> {
        let table = self.table;
        move |trick, hand, card| judge(table, trick, hand, card)
    }

    /// Good play is still being declared: before the first lead, a seat has yet to speak (§2.2).
    fn declaring(&self) -> bool {
        !self.play.started() && self.good_play_from < 4
    }

    fn is_over(&self) -> bool {
        self.adj.tricks.len() == TRICKS as usize
    }

    /// The melds of `seat` that are scored (TR-c: those of the dealt hand).
    fn held(&self, seat: Seat) -> &[HeldMeld] {
        &self.melds[seat.pos()][0]
    }

    /// The trick being played or about to be led, once play has begun and until it ends.
    fn trick_now(&self) -> Option<u8> {
        (self.play.started() && !self.is_over()).then_some(self.play.trick.number)
    }

    /// Logs a statement-made irregularity (the revoke is logged when its trick closes).
    fn report(
        &mut self,
        code: &'static str,
        index: usize,
        trick: Option<u8>,
        seat: Seat,
        explanation: String,
        consequence: String,
    ) -> usize {
        let rule = match code {
            "announce_mismatch" => "tresette.md TR-f",
            "false_information" => "tresette.md §3, TR-g",
            _ => "tresette.md §3, §2 item 4",
        };
        self.adj.irregularities.push(Irregularity {
            code,
            action_index: Some(index),
            trick,
            seat,
            card: None,
            rule,
            explanation,
            consequence,
            effect: Effect::default(),
        });
        self.adj.irregularities.len() - 1
    }

    /// §2.2: Good play, in turn from the first player, before the first lead; a seat left out has
    /// made no declaration (TR-g).
    fn good_play(&mut self, index: usize, seat: Seat, says: bool) -> Result<(), RecordError> {
        if self.play.started() {
            let late = format!(
                "{seat} says whether he has Good play after the first lead; it is said before it (§2)"
            );
            // README C12: from a seat not due to play, the seat is the fault.
            return Err(match self.play.to_play() {
                Some(due) if due != seat => RecordError::at(
                    "out_of_turn",
                    index,
                    seat,
                    "good_play",
                    format!("{due} is due to play, not {seat} ({late})"),
                ),
                _ => RecordError::at("unexpected_action", index, seat, "good_play", late),
            });
        }
        let at = self.order.iter().position(|&s| s == seat).unwrap_or(0);
        if at < self.good_play_from {
            return Err(RecordError::at(
                "out_of_turn",
                index,
                seat,
                "good_play",
                format!(
                    "Good play is declared in turn from {}, and {} has already spoken after {seat}'s turn",
                    self.order[0],
                    self.order[self.good_play_from - 1]
                ),
            ));
        }
        self.good_play[seat.pos()] = says.then_some(index);
        self.good_play_from = at + 1;
        Ok(())
    }

    fn close_trick(&mut self) {
        // §3: no trumps: the highest card of the led suit.
        let winner = self
            .play
            .trick
            .trump_or_led_winner(None, &ORDER)
            .expect("a complete trick");
        let (trick, established) = self.play.close_trick(winner);
        for e in established {
            // The consequence depends on whether the other side revokes too (TR-d): set in `finish`.
            self.adj.irregularities.push(e.irregularity(String::new()));
            self.revokes.push(self.adj.irregularities.len() - 1);
        }
        let side = Table::FOUR.side(winner);
        let had = self.captured[side].points();
        for p in trick.plays() {
            self.captured[side].add(p.card);
        }
        if trick.number == TRICKS {
            self.captured[side].last_trick = true;
            self.play.stop();
        }
        // §4 counts figures in thirds of the side's whole pile: a trick's points are what it
        // added to its winners' count, so the tricks' points add up to the tally's.
        let points = self.captured[side].points() - had;
        for s in Side::BOTH {
            self.adj.tally[s].points = Some(self.captured[s].points());
        }
        self.adj.tally[side].tricks += 1;
        self.won[winner.pos()] += 1;
        if self.won[winner.pos()] == 1 && self.good_play[winner.pos()].is_some() {
            self.announce_due = Some(winner);
            let melds = self.held(winner);
            let detail = format!(
                "{winner} said Good play and won his first trick: he announces his melds now; he holds {} ({} points)",
                describe(melds),
                meld_points(melds)
            );
            let cards: CardSet = melds.iter().flat_map(|m| m.cards.iter()).collect();
            let index = trick.action_index(trick.len() - 1);
            let event = Event::new("melds_due", index, winner, cards.iter().collect(), detail);
            self.adj.events.push(event.in_trick(trick.number));
        }
        let mut report = TrickReport::new(trick, winner);
        report.points = Some(points);
        self.adj.tricks.push(report);
    }

    /// TR-i: a declarer announces right after his first won trick (before the next card; after the
    /// hand when that trick was the last), or, with `melds_score_without_trick`, after the hand when
    /// he won none.
    fn may_announce(&self, seat: Seat) -> bool {
        let p = seat.pos();
        let without_trick =
            self.rules.melds_score_without_trick && self.is_over() && self.won[p] == 0;
        self.good_play[p].is_some()
            && !self.announced[p]
            && (self.announce_due == Some(seat) || without_trick)
    }

    /// §2.3, TR-f: after his first won trick a declarer names his melds; the engine knows them from
    /// the deal, so a wrong announcement is reported and changes nothing.
    fn announce(&mut self, index: usize, seat: Seat, said: Melds) -> Result<(), RecordError> {
        let p = seat.pos();
        let refuse = |detail: String| {
            Err(RecordError::at(
                "unexpected_action",
                index,
                seat,
                "announce",
                detail,
            ))
        };
        if self.good_play[p].is_none() {
            return refuse(format!(
                "{seat} did not say Good play before the first lead: he has no melds to announce (§2)"
            ));
        }
        if self.announced[p] {
            return refuse(format!("{seat} has already announced his melds"));
        }
        if !self.may_announce(seat) {
            return refuse(if self.won[p] == 0 {
                format!(
                    "{seat} announces his melds upon winning his first trick, and has won none yet (§3)"
                )
            } else {
                format!(
                    "{seat} announces his melds right after winning his first trick, before the next card (TR-i): that moment has passed"
                )
            });
        }
        self.announced[p] = true;
        let held: Vec<Melds> = self.melds[p].iter().map(|m| announced_as(m)).collect();
        if !held.contains(&said) {
            let melds = describe(self.held(seat));
            // The trick just won, whose winner announces (the last one once the hand is over).
            let trick = self.play.trick.number.min(TRICKS + 1) - 1;
            self.report(
                "announce_mismatch",
                index,
                Some(trick),
                seat,
                format!("{seat} announced {said}, but his dealt hand holds {melds}"),
                format!("none: the melds actually held ({melds}) are scored (TR-f)"),
            );
        }
        Ok(())
    }

    /// §2 item 4, §3: table talk is limited to what §2 allows and must be true.
    fn talk(&mut self, index: usize, seat: Seat, kind: Verb) {
        let trick = self.play.trick;
        let led = trick.led();
        let hand = self.play.hand(seat);
        let improper = match kind {
            Verb::AskBest(Yes) if seat == trick.leader => None,
            Verb::AskBest(Yes) => Some(format!(
                "only the leader may ask his partner to play his best, and {} leads trick {}",
                trick.leader, trick.number
            )),
            Verb::Count(n) => match led {
                Some(card) if seat != trick.leader => {
                    let suit = card.suit_unchecked();
                    let held = hand.of_suit(suit).len();
                    if held != u32::from(n) {
                        self.untrue(
                            index,
                            seat,
                            format!(
                                "{seat} said he holds {n} {}, but he holds {held}",
                                suit.letter()
                            ),
                        );
                    }
                    None
                }
                Some(_) => Some(format!(
                    "{seat} led trick {}: only a player following may count the suit led",
                    trick.number
                )),
                None => Some("no trick is being played: a count is of the suit led".into()),
            },
            Verb::Holding(n) if n <= 2 => {
                if !Suit::ALL
                    .into_iter()
                    .any(|s| hand.of_suit(s).len() == u32::from(n))
                {
                    self.untrue(
                            index,
                            seat,
                            format!(
                                "{seat} said he holds exactly {n} cards in a suit, but no suit of his has {n} ({})",
                                hand
                            ),
                        );
                }
                None
            }
            Verb::Holding(n) => Some(format!(
                "{seat} declared {n} cards in a suit: only two, one or none may be declared"
            )),
            _ => unreachable!("only table talk comes here"),
        };
        if let Some(why) = improper {
            self.report(
                "improper_table_talk",
                index,
                self.trick_now(),
                seat,
                format!("{seat}'s `{}`: {why} (§2 item 4)", kind.verb()),
                "none prescribed: reported for the director (§5 names no penalty)".into(),
            );
        }
    }

    /// An untrue `count` or `holding` (§3, TR-g).
    fn untrue(&mut self, index: usize, seat: Seat, explanation: String) {
        let side = Table::FOUR.side(seat);
        let consequence = if self.rules.false_information_penalty {
            format!(
                "{} score 1 point, added to any other penalty (tresette.md §5 DEFAULT, TR-e)",
                side.other().spoken()
            )
        } else {
            "none: the false_information_penalty option is off".into()
        };
        let at = self.report(
            "false_information",
            index,
            self.trick_now(),
            seat,
            explanation,
            consequence,
        );
        self.false_information.push((side, at));
    }
}

impl HandState<Verb> for TresetteHand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.is_over() {
            return match action.kind {
                // TR-h: table talk after the tenth trick has no effect and is no irregularity.
                Verb::AskBest(_) | Verb::Count(_) | Verb::Holding(_) => {
                    self.adj.ignored_actions.push(IgnoredAction {
                        action_index: index,
                        reason: "table talk after the tenth trick has no effect (TR-h)".into(),
                    });
                    Ok(())
                }
                Verb::Announce(melds) if self.may_announce(seat) => {
                    self.announce(index, seat, melds)
                }
                // README C12: anything else after the hand is action_after_end (a correct:
                // invalid_correct).
                _ => Err(RecordError::after_end(
                    index,
                    action,
                    "the hand is over: all ten tricks are played",
                )),
            };
        }
        match action.kind {
            Verb::GoodPlay(says) => self.good_play(index, seat, says),
            Verb::Play(card) => {
                self.play.play_judged(index, seat, card, self.judge())?;
                // TR-i: the moment to announce passes with the next card.
                self.announce_due = None;
                if self.play.is_complete() {
                    self.close_trick();
                }
                Ok(())
            }
            Verb::Correct(card) => {
                let judge = self.judge();
                self.play.correct(index, seat, card, judge)
            }
            Verb::Announce(melds) => self.announce(index, seat, melds),
            kind @ (Verb::AskBest(_) | Verb::Count(_) | Verb::Holding(_)) => {
                self.talk(index, seat, kind);
                Ok(())
            }
        }
    }

    fn view(&self) -> TableView {
        let phase = if self.is_over() {
            "over"
        } else if self.declaring() {
            "good_play"
        } else {
            "play"
        };
        let mut view = TableView::new(phase, self.to_act(), &self.play, &self.adj.match_after);
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_play(&self.play, self.to_act().is_empty())
    }

    /// Every seat's Good play answers, its announcement of the melds its dealt hand holds (every
    /// way of counting them worth the most, TR-c) and its table talk with every value; the cards of
    /// the seat to play. The judge keeps what may be said now: Good play in turn (a seat may be
    /// left out, TR-g) before the first lead, true statements, an announcement when due (TR-i).
    fn candidates(&self) -> Vec<Action<Verb>> {
        let mut out = Vec::new();
        for seat in self.order {
            let at = |kind| Action { seat, kind };
            out.extend(
                self.melds[seat.pos()]
                    .iter()
                    .map(|m| at(Verb::Announce(announced_as(m)))),
            );
            if self.is_over() {
                continue;
            }
            out.extend([true, false].map(|says| at(Verb::GoodPlay(says))));
            out.push(at(Verb::AskBest(Yes)));
            let held = self.play.hand(seat).len() as u8;
            out.extend((0..=held).map(|n| at(Verb::Count(n))));
            out.extend((0..=2).map(|n| at(Verb::Holding(n))));
        }
        out.extend(self.play.candidates(Verb::Play, Verb::Correct));
        out
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index) || self.play.faulted(index)
    }

    fn ignored(&self, index: usize) -> bool {
        self.adj.ignored(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = if self.is_over() {
            Ending::Over
        } else {
            Ending::Open {
                due: self.play.to_play(),
                detail: if self.play.started() {
                    format!(
                        "the record stops in trick {} of {TRICKS}",
                        self.play.trick.number
                    )
                } else {
                    "the record stops before the first lead".into()
                },
            }
        };
        self.adj.corrected_revokes = std::mem::take(&mut self.play.corrected);
        // The scoring of a decided hand reads the whole hand, not only its adjudication.
        if !self.adj.unscored(error, ending) {
            self.score();
        }
        self.adj
    }
}

impl TresetteHand {
    /// §4, §5: card points or the revoke penalty, false-information points, melds, the game; each a
    /// part of the hand score, in that order.
    fn score(&mut self) {
        let revoking: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|&s| {
                self.revokes
                    .iter()
                    .any(|&i| Table::FOUR.side(self.adj.irregularities[i].seat) == s)
            })
            .collect();
        let penalised = |s: Side| self.rules.revoke_penalty && revoking.contains(&s);
        let consequence = match (self.rules.revoke_penalty, revoking.as_slice()) {
            (false, _) => "none: the revoke_penalty option is 'none'".to_string(),
            (true, [offenders]) => format!(
                "{} score nothing for the hand, melds included; {} score {HAND_POINTS} plus their valid melds (tresette.md §5 DEFAULT)",
                offenders.spoken(),
                offenders.other().spoken()
            ),
            _ => "both sides revoked: neither side scores for the hand (TR-d)".into(),
        };
        for &i in &self.revokes {
            self.adj.irregularities[i].consequence = consequence.clone();
        }
        match (self.rules.revoke_penalty, revoking.as_slice()) {
            // §5 DEFAULT: the whole hand to the other side, once however many revokes (the first).
            (true, [offenders]) => {
                let first = self
                    .revokes
                    .iter()
                    .copied()
                    .find(|&i| Table::FOUR.side(self.adj.irregularities[i].seat) == *offenders)
                    .expect("a revoke by the offenders");
                self.adj.penalize(first, offenders.other(), HAND_POINTS);
            }
            // TR-d: both sides revoked: nobody scores.
            (true, [_, _]) => {}
            _ => {
                for s in Side::BOTH {
                    let points = self.captured[s].points();
                    self.adj
                        .score(s, points, ScoreSource::Tricks, "card_points", None);
                }
            }
        }
        if self.rules.false_information_penalty {
            for (side, at) in self.false_information.clone() {
                self.adj.penalize(at, side.other(), 1);
            }
        }
        // §3, TR-c: a declarer's melds score once he wins a trick (or at once, by option), in Good
        // play order; each is a part of the hand score (source meld), at his Good play action.
        for seat in self.order {
            let p = seat.pos();
            let Some(declared) = self.good_play[p] else {
                continue;
            };
            let won = self.won[p] > 0;
            let valid = won || self.rules.melds_score_without_trick;
            let side = Table::FOUR.side(seat);
            if !won && valid {
                let held = self.held(seat);
                let detail = format!(
                    "{seat} said Good play and won no trick; his melds still count (melds_score_without_trick): {}",
                    describe(held)
                );
                let cards: CardSet = held.iter().flat_map(|m| m.cards.iter()).collect();
                let event = Event::new("melds_due", declared, seat, cards.iter().collect(), detail);
                self.adj.events.push(event);
            }
            for m in self.melds[p][0].clone() {
                if valid && !penalised(side) {
                    let code = m.code();
                    self.adj
                        .score(side, m.points(), ScoreSource::Meld, code, Some(declared));
                    continue;
                }
                let why = if valid {
                    format!("{} revoked (tresette.md §5 DEFAULT, TR-d)", side.spoken())
                } else {
                    format!("{seat} won no trick (TR-c)")
                };
                // At the Good play that declared it, as the meld's score item would be.
                self.adj.events.push(Event::new(
                    "meld_not_scored",
                    declared,
                    seat,
                    m.cards.iter().collect(),
                    format!(
                        "{seat}'s {} {} ({} points) does not score: {why}",
                        m.name().name(),
                        m.cards,
                        m.points()
                    ),
                ));
            }
        }
        let next_dealer = self.table.next(self.adj.dealer);
        self.adj.settle();
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(next_dealer);
        if let Some(winner) = game_winner(&m.scores) {
            m.end_game([winner]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(cards: &str) -> CardSet {
        cards
            .split(' ')
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    fn points(choices: &[Vec<HeldMeld>]) -> Vec<i32> {
        choices.iter().map(|m| meld_points(m)).collect()
    }

    #[test]
    fn a_card_serves_in_one_of_a_kind_meld_and_one_nap_by_default() {
        let h = hand("3S 2S AS 3H 3D 3C 7H 6H 5H 4H");
        let melds = meld_choices(h, false);
        assert_eq!(points(&melds), [7]);
        assert_eq!(
            announced_as(&melds[0]),
            Melds::default()
                .with(MeldName::FourThrees)
                .and_then(|m| m.with(MeldName::Napoleon))
                .unwrap()
        );
        // TS-4 variant: the nap and the three other 3s (6) beat the four 3s alone (4).
        let one = meld_choices(h, true);
        assert_eq!(points(&one), [6]);
        assert_eq!(one[0][0].kind, MeldKind::ThreeOfAKind(Rank::Three));
    }

    #[test]
    fn one_meld_only_keeps_every_best_split() {
        // Two naps (6) or the three aces (3) with no nap: the naps are worth more.
        let h = hand("3S 2S AS 3H 2H AH AD 4C 5C 6C");
        assert_eq!(points(&meld_choices(h, false)), [9]);
        assert_eq!(points(&meld_choices(h, true)), [6]);
        // Three aces and one nap sharing AS: nap S (3) or three aces (3) are worth the same.
        let h = hand("3S 2S AS AH AD 4C 5C 6C 7C KC");
        let both = meld_choices(h, true);
        assert_eq!(points(&both), [3, 3]);
        assert_eq!(both[0][0].kind, MeldKind::ThreeOfAKind(Rank::Ace));
    }

    #[test]
    fn card_points_count_thirds_and_lose_the_remainder() {
        let mut c = Captured::default();
        for card in hand("AS 2S 3S KS QS JS 2H 7H").iter() {
            c.add(card);
        }
        assert_eq!(c.points(), 1 + 6 / 3);
        c.add("3H".parse().unwrap());
        c.last_trick = true;
        assert_eq!(c.points(), 1 + 7 / 3 + 1);
    }
}
