//! Hand and Foot (`docs/rules/hand-and-foot.md`): four players in partnerships, N–S v E–W, with
//! five 52-card packs and their ten jokers (270 cards) split into two face-down stocks. Each player
//! deals himself a hand and a foot of 11 (a 100 bonus for pulling exactly 22); the upcard starts
//! the discard pile. Turns: draw two from a stock (or take the top 7 of the discard pile, melding
//! its top card at once), meld, discard. Melds are 3–7 cards of one rank with few wild cards;
//! seven make a pile (clean, dirty or wild). A player who empties his hand plays on from his foot;
//! a side goes out once it has two clean, two dirty and one wild pile, both partners are in their
//! feet, and the partner said "Yes" to "May I go out?". Four hands make a game, the opening
//! minimum rising each hand; the highest total wins.

use crate::cards::{Card, CardCounts, Holding, Rank, names, packs, subsets};
use crate::details;
use crate::engine::rummy::{self, SetShape, Turns};
use crate::engine::{
    Adjudication, Bonus, BonusStatus, Effect, Ending, Event, FieldError, GameInfo, HandState,
    Irregularity, Locus, MAX_PLAYS, MatchState, NoDetails, OptionKind, OptionSpec, Options,
    PerSide, RecordError, Rules, ScoreSource, Seat, Side, Table, TableView, deal,
};
use crate::record::{Action, HandRecord, Placeholder, Yes};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

pub struct HandAndFoot;

crate::verbs! {
    /// What a record of Hand and Foot can say.
    pub enum Verb in "Hand and Foot" {
        Pull(u8) = "pull": "How many cards the seat pulled from a stock to deal himself hand and foot (§1; 22 earns 100).",
        RedThree(RedThree) = "red_three": "A red 3 laid in the side's area and replaced from the stock named (1 or 2; the other when it is empty, HF-a).",
        PickUpFoot(Yes) = "pick_up_foot": "The seat takes up his foot: at once when he melded his hand away, else at the start of his next turn (§3.3, HF-6).",
        Draw(u8) = "draw": "The top two cards of stock 1 or 2 (§3.1, HF-5).",
        TakePile(TakePile) = "take_pile": "The top 7 cards of the discard pile, its top card melded at once with cards from hand (§3.1).",
        Meld(MeldCards) = "meld": "Cards from hand laid as a new meld, or added to the side's open meld named by `extend` (§3.2).",
        AskGoOut(Yes) = "ask_go_out": "\"May I go out?\", asked of the partner (§3.4).",
        Answer(Answer) = "answer": "The answer to \"May I go out?\": the partner's, or the opponents' when the partner said more than yes or no (§3.4, HF-c).",
        Discard(Card) = "discard": "The card that ends the turn, onto the discard pile.",
        Correct(Card) = "correct": "Every game's record has it; Hand and Foot has nothing to correct, so it is always `invalid_correct`.",
    }
}

/// A red 3 laid down, and the stock its replacement comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = HandAndFootRedThree)]
pub struct RedThree {
    /// The red 3 laid (`3H` or `3D`).
    pub card: Card,
    /// The stock the replacement is drawn from: 1 (`stock`) or 2 (`second_stock`).
    pub stock: u8,
}

impl Placeholder for RedThree {
    const PLACEHOLDER: &'static str = "{\"card\": \"3H\", \"stock\": <1 or 2>}";
}

/// Taking the discard pile: the cards from hand melded with its top card, and (for a side not yet
/// open) further melds from hand laid in the same action to reach the minimum (HF-f).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = HandAndFootTakePile)]
pub struct TakePile {
    /// The cards from hand melded with the top card: two naturals of its rank (two of its kind for
    /// a wild card), and any more of that meld.
    pub with: Vec<Card>,
    /// Further new melds from hand, each a list of cards.
    #[serde(default)]
    pub melds: Vec<Vec<Card>>,
}

impl Placeholder for TakePile {
    const PLACEHOLDER: &'static str = "{\"with\": [\"KS\", \"KD\"], \"melds\": []}";
}

/// A meld from hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = HandAndFootMeld)]
pub struct MeldCards {
    pub cards: Vec<Card>,
    /// The side's open meld these cards are added to (`"K"`, `"wild"`); absent for a new meld.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extend: Option<MeldOf>,
}

impl Placeholder for MeldCards {
    const PLACEHOLDER: &'static str =
        "{\"cards\": [\"KS\", \"KD\", \"KH\"], \"extend\": <rank or \"wild\", for an open meld>}";
}

/// What a meld is of: a rank from 4 to A, or wild cards only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = HandAndFootMeldOf)]
pub enum MeldOf {
    #[serde(rename = "4")]
    Four,
    #[serde(rename = "5")]
    Five,
    #[serde(rename = "6")]
    Six,
    #[serde(rename = "7")]
    Seven,
    #[serde(rename = "8")]
    Eight,
    #[serde(rename = "9")]
    Nine,
    #[serde(rename = "T", alias = "10")]
    Ten,
    #[serde(rename = "J")]
    Jack,
    #[serde(rename = "Q")]
    Queen,
    #[serde(rename = "K")]
    King,
    #[serde(rename = "A")]
    Ace,
    #[serde(rename = "wild")]
    Wild,
}

const MELD_RANKS: [(Rank, MeldOf); 11] = [
    (Rank::Four, MeldOf::Four),
    (Rank::Five, MeldOf::Five),
    (Rank::Six, MeldOf::Six),
    (Rank::Seven, MeldOf::Seven),
    (Rank::Eight, MeldOf::Eight),
    (Rank::Nine, MeldOf::Nine),
    (Rank::Ten, MeldOf::Ten),
    (Rank::Jack, MeldOf::Jack),
    (Rank::Queen, MeldOf::Queen),
    (Rank::King, MeldOf::King),
    (Rank::Ace, MeldOf::Ace),
];

impl MeldOf {
    /// The meld of natural cards of `rank`; `None` for a rank no meld is of (3s, §3.2).
    fn rank(rank: Rank) -> Option<MeldOf> {
        MELD_RANKS.iter().find(|(r, _)| *r == rank).map(|(_, m)| *m)
    }

    fn natural(self) -> Option<Rank> {
        MELD_RANKS.iter().find(|(_, m)| *m == self).map(|(r, _)| *r)
    }

    fn name(self) -> String {
        match self.natural() {
            Some(r) => format!("{}s", r.letter()),
            None => "wild cards".into(),
        }
    }
}

/// The answer to "May I go out?".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = HandAndFootAnswer)]
pub struct Answer {
    pub reply: Reply,
    /// The answer said more than "Yes" or "No" (§3.4): the opponents' answer binds instead.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extra_information: bool,
}

impl Placeholder for Answer {
    const PLACEHOLDER: &'static str = "{\"reply\": \"yes\" or \"no\"}";
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = HandAndFootReply)]
pub enum Reply {
    Yes,
    No,
}

/// A pile's kind (§3.2, HF-1): a closed meld of seven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = HandAndFootPile)]
pub enum Pile {
    Clean,
    Dirty,
    Wild,
}

/// A meld on the table.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = HandAndFootTableMeld)]
pub struct Meld {
    /// The rank of its natural cards, or `wild`.
    pub of: MeldOf,
    pub cards: Vec<Card>,
    /// The pile it makes once it holds seven cards; `null` while it is open.
    pub pile: Option<Pile>,
}

impl Meld {
    /// A meld laid on the table (`Turns::melds`), as the rules see it.
    fn of(cards: &[Card]) -> Meld {
        let (of, pile) = kind(cards);
        Meld {
            of,
            cards: cards.to_vec(),
            pile,
        }
    }
}

/// What a meld laid on the table is of, and the pile it makes (none while it is open): `Meld::of`
/// without copying its cards, for the questions asked of every meld of a side on every turn.
fn kind(cards: &[Card]) -> (MeldOf, Option<Pile>) {
    let of = match SetShape::of(cards, wild).and_then(|s| s.rank) {
        Some(r) => MeldOf::rank(r).expect("melds are judged before they are laid"),
        None => MeldOf::Wild,
    };
    let pile = (cards.len() == PILE).then(|| match (of, wilds(cards)) {
        (MeldOf::Wild, _) => Pile::Wild,
        (_, 0) => Pile::Clean,
        _ => Pile::Dirty,
    });
    (of, pile)
}

fn wilds(cards: &[Card]) -> usize {
    cards.iter().filter(|&&c| wild(c)).count()
}

/// What Hand and Foot adds to the adjudication.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = HandAndFootDetails)]
pub struct Details {
    /// The hand of the game (1 to 4), which sets the opening minimum (§3.2).
    pub hand_number: u32,
    /// The card value a side's first melds of the hand must reach (§3.2).
    pub opening_minimum: u32,
    /// The seat that went out; `null` when the hand ended with the stock (§3.5) or not at all.
    pub went_out: Option<Seat>,
    /// Each side's melds, in the order laid.
    #[schema(value_type = BTreeMap<String, Vec<Meld>>)]
    pub melds: BTreeMap<Side, Vec<Meld>>,
    /// Each side's red 3s laid down.
    #[schema(value_type = BTreeMap<String, Vec<Card>>)]
    pub red_threes: BTreeMap<Side, Vec<Card>>,
    /// How many cards each seat pulled for its self-deal (§1).
    #[schema(value_type = BTreeMap<String, u8>)]
    pub pulled: BTreeMap<Seat, u8>,
    /// The seats that have picked up their foot.
    pub feet_picked_up: Vec<Seat>,
    /// Cards left in stock 1 and stock 2.
    pub stocks: [usize; 2],
    /// The discard pile, bottom first.
    pub discard_pile: Vec<Card>,
}

static INFO: GameInfo = GameInfo {
    id: "hand-and-foot",
    name: "Hand and Foot",
    tables: crate::engine::Tables(&[Table::FOUR]),
    deck: "270-card pack: five 52-card packs and their ten jokers, in two stocks",
    // A game is four hands (§4): no score ends it.
    game_target: 0,
    options: &[
        OptionSpec {
            name: "discard_pair_may_include_wild",
            kind: OptionKind::Flag { default: false },
            description: "The two cards from hand that take the discard pile may be one natural of the top card's rank and one wild card (default: two naturals).",
            rule: "hand-and-foot.md §6 HF-2",
        },
        OptionSpec {
            name: "foot_not_counted",
            kind: OptionKind::Flag { default: false },
            description: "A foot never picked up is not deducted at the end of the hand (default: its cards count against the side, a red 3 in it -100).",
            rule: "hand-and-foot.md §6 HF-4",
        },
    ],
    rules: "docs/rules/hand-and-foot.md",
    irregularities: &["go_out_against_no", "failed_go_out", "illegal_discard_draw"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "card_not_held",
        "card_played_twice",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
        "malformed_meld",
        "opening_below_minimum",
        "go_out_without_permission",
        "red_three_not_laid",
    ],
    events: &[
        "upcard_turned",
        "red_three_laid",
        "foot_picked_up",
        "pile_taken",
        "pile_completed",
        "extra_information",
        "went_out",
    ],
    score_codes: &[
        "melded_cards",
        "clean_piles",
        "dirty_piles",
        "wild_piles",
        "cards_in_hand",
        "foot_not_picked_up",
        "red_three",
        "went_out",
        "exact_pull",
    ],
    titles: crate::engine::Titles(&[
        ("go_out_against_no", "Went out after the partner said no"),
        ("failed_go_out", "Asked to go out and could not"),
        (
            "illegal_discard_draw",
            "Took the discard pile without being able to",
        ),
        ("malformed_meld", "Meld the rules do not allow"),
        ("opening_below_minimum", "Opening melds below the minimum"),
        (
            "go_out_without_permission",
            "Went out without asking the partner",
        ),
        ("red_three_not_laid", "A red 3 was not laid down at once"),
        ("red_three_laid", "Red 3 laid down and replaced"),
        ("foot_picked_up", "Foot picked up"),
        ("pile_taken", "Discard pile taken"),
        ("pile_completed", "Pile of seven completed"),
        (
            "extra_information",
            "Answer with extra information: the opponents answer",
        ),
        ("went_out", "Went out"),
        ("melded_cards", "Melded cards"),
        ("clean_piles", "Clean piles"),
        ("dirty_piles", "Dirty piles"),
        ("wild_piles", "Wild piles"),
        ("cards_in_hand", "Cards left in hand"),
        ("foot_not_picked_up", "Foot not picked up"),
        ("red_three", "Red 3"),
        ("exact_pull", "Pulled exactly 22 cards"),
    ]),
};

/// §1: a hand and a foot of 11 each; the record gives both in the seat's deal, hand first (HF-a).
const PILE_OF_HAND: usize = 11;
/// §3.2: a meld of seven is a pile.
const PILE: usize = 7;
/// §3.1: the discard pile is taken seven cards at most.
const TAKEN: usize = 7;
/// §1: pulling exactly this many scores a bonus.
const EXACT_PULL: u8 = 22;
/// §4: a game is four hands.
const HANDS: u32 = 4;
/// §3.2: the opening minimum of hands 1 to 4.
const MINIMUM: [u32; 4] = [50, 90, 120, 150];
/// §4 bonuses and §5 penalties.
const WILD_PILE: i32 = 1500;
const CLEAN_PILE: i32 = 500;
const DIRTY_PILE: i32 = 300;
const RED_THREE: i32 = 100;
const GOING_OUT: i32 = 100;
const PULL_BONUS: i32 = 100;
const AGAINST_NO: i32 = 100;
const FAILED: i32 = 100;
const ILLEGAL_DRAW: i32 = 50;

/// Jokers and 2s are wild (§1).
fn wild(card: Card) -> bool {
    card.rank().is_none_or(|r| r == Rank::Two)
}

fn red_three(card: Card) -> bool {
    card.rank() == Some(Rank::Three) && card.suit().is_some_and(|s| s.is_red())
}

fn black_three(card: Card) -> bool {
    card.rank() == Some(Rank::Three) && !red_three(card)
}

/// §1: a card's value.
fn value(card: Card) -> u32 {
    match card.rank() {
        None => 50,
        Some(Rank::Two) | Some(Rank::Ace) => 20,
        Some(Rank::Three) if red_three(card) => 100,
        Some(r) if r >= Rank::Eight => 10,
        Some(_) => 5,
    }
}

fn values(cards: &[Card]) -> u32 {
    cards.iter().map(|&c| value(c)).sum()
}

/// §3.2: wild cards allowed in a meld of `len` cards.
fn wild_limit(len: usize) -> usize {
    if len <= 5 { 1 } else { 2 }
}

/// How `cards` cards of one kind are laid in one turn (§3.2): piles of seven closed first, then
/// at most one meld of 3 to 7 (a side holds one open meld of a kind): the number of piles and the
/// last meld's size; `None` when they make no melds.
fn shape(cards: usize) -> Option<(usize, usize)> {
    match cards % PILE {
        _ if cards == 0 => Some((0, 0)),
        0 => Some((cards / PILE - 1, PILE)),
        r if r >= 3 => Some((cards / PILE, r)),
        _ => None,
    }
}

/// Whether `naturals` cards of one rank and `wilds` wild cards make melds in one turn (`shape`),
/// each pile holding two wild cards at most and the last meld its share (§3.2); all wild when
/// there are no naturals.
fn splits(naturals: usize, wilds: usize) -> bool {
    shape(naturals + wilds)
        .is_some_and(|(piles, last)| naturals == 0 || wilds <= 2 * piles + wild_limit(last))
}

/// The melds of `splits`, as (naturals, wilds) per meld: the piles, then the last meld, which
/// takes the wild cards first.
fn split(naturals: usize, wilds: usize) -> Option<Vec<(usize, usize)>> {
    if !splits(naturals, wilds) {
        return None;
    }
    let (piles, last) = shape(naturals + wilds)?;
    let on_last = if naturals == 0 {
        last
    } else {
        wilds.min(wild_limit(last))
    };
    let mut left = wilds - on_last;
    let mut melds: Vec<(usize, usize)> = (0..piles)
        .map(|_| {
            let w = if naturals == 0 { PILE } else { left.min(2) };
            left -= w.min(left);
            (PILE - w, w)
        })
        .collect();
    if last > 0 {
        melds.push((last - on_last, on_last));
    }
    Some(melds)
}

/// The side's open meld of a kind as a turn plans on it: its length and its wild cards.
type OpenMeld = Option<(usize, usize)>;

/// §3.2: whether `n` naturals of kind `of` and `w` wild cards can all be laid this turn beside
/// the side's `open` meld of that kind: onto it (closing it as a pile at seven, then new melds of
/// the kind), or as new melds where none is open.
fn lays(of: MeldOf, open: OpenMeld, n: usize, w: usize) -> bool {
    let natural = of != MeldOf::Wild;
    let new = |n: usize, w: usize| (n == 0 && w == 0) || ((n > 0) == natural && splits(n, w));
    let Some((len, wilds)) = open else {
        return new(n, w);
    };
    let within = |len: usize, wilds: usize| !natural || wilds <= wild_limit(len);
    if len + n + w <= PILE {
        return within(len + n + w, wilds + w);
    }
    // Filled to a pile of seven, the rest as new melds.
    (0..=w.min(PILE - len)).any(|y| {
        let x = PILE - len - y;
        x <= n && within(PILE, wilds + y) && new(n - x, w - y)
    })
}

/// The side's open meld of kind `of` once `n` naturals and `w` wild cards more are laid beside
/// `open` (`lays`): the last meld of the kind while it holds fewer than seven. Where the wild cards
/// went is not followed: the last meld is taken to hold as many as it may (the fewest more it
/// can take).
fn open_after(of: MeldOf, open: OpenMeld, n: usize, w: usize) -> OpenMeld {
    let (len, had) = open.unwrap_or((0, 0));
    let (_, last) = shape(len + n + w)?;
    let most = if of == MeldOf::Wild {
        last
    } else {
        wild_limit(last)
    };
    (last > 0 && last < PILE).then(|| (last, (had + w).min(most)))
}

/// The most a turn can meld (§3.2, HF-7, HF-f): from `hand`, beside the side's open melds
/// (`open`), the first meld holding `top` (the discard pile's top card) with two naturals of its
/// rank from hand (two of its kind for a wild card; a natural and a wild card where `pair_wild`,
/// HF-2) when the pile is taken.
struct Plan {
    value: u32,
    /// The wild cards a wild top card needs (it and two of its kind), in an all-wild meld.
    required: Vec<Card>,
    /// The hand's other wild cards, the most valuable first (the first ones are used).
    wilds: Vec<Card>,
    /// Each rank's naturals (the top card among them) and wild cards laid.
    ranks: Vec<(Rank, usize, usize)>,
    /// Wild cards laid on naturals, and as wild cards only.
    on_naturals: usize,
    all_wild: usize,
}

fn plan(
    hand: &[Card],
    top: Option<Card>,
    pair_wild: bool,
    open: impl Fn(MeldOf) -> OpenMeld,
) -> Option<Plan> {
    let mut wilds: Vec<Card> = hand.iter().copied().filter(|&c| wild(c)).collect();
    let mut required: Vec<Card> = Vec::new();
    if let Some(t) = top.filter(|&t| wild(t)) {
        required.push(t);
        for _ in 0..2 {
            let at = wilds
                .iter()
                .position(|&c| (c == Card::JOKER) == (t == Card::JOKER))?;
            required.push(wilds.remove(at));
        }
    }
    wilds.sort_by_key(|&c| std::cmp::Reverse(value(c)));
    let total = wilds.len() + required.len();
    // best[used]: the greatest value of naturals melded with `used` wild cards among them;
    // steps[r][used]: the (naturals, wilds) rank r lays to get there.
    let mut best: Vec<Option<u32>> = vec![None; total + 1];
    best[0] = Some(0);
    let mut steps: Vec<Vec<(usize, usize)>> = Vec::with_capacity(MELD_RANKS.len());
    for (rank, of) in MELD_RANKS {
        let with_top = top.is_some_and(|t| t.rank() == Some(rank));
        let naturals = hand.iter().filter(|c| c.rank() == Some(rank)).count() + with_top as usize;
        let each = value(Card::new(rank, crate::cards::Suit::Spades));
        let open = open(of);
        let mut next = vec![None; total + 1];
        let mut step = vec![(0, 0); total + 1];
        for (used, v) in best.iter().enumerate() {
            let Some(v) = *v else { continue };
            for n in 0..=naturals {
                for w in 0..=(total - used) {
                    // The top card and two naturals from hand (or one and a wild, HF-2).
                    if with_top && !(n >= 3 || (pair_wild && n >= 2 && w >= 1)) {
                        continue;
                    }
                    if !lays(of, open, n, w) {
                        continue;
                    }
                    let value = v + each * n as u32;
                    if next[used + w].is_none_or(|b| b < value) {
                        next[used + w] = Some(value);
                        step[used + w] = (n, w);
                    }
                }
            }
        }
        best = next;
        steps.push(step);
    }
    let wild_value = |count: usize| -> u32 {
        values(&required) + values(&wilds[..count.saturating_sub(required.len())])
    };
    let open_wild = open(MeldOf::Wild);
    let mut found: Option<(u32, usize, usize)> = None;
    for (on_naturals, v) in best.iter().enumerate() {
        let Some(v) = *v else { continue };
        // The most wild cards the rest can lay as wild cards only.
        let Some(all_wild) = (required.len()..=total - on_naturals)
            .rev()
            .find(|&m| lays(MeldOf::Wild, open_wild, 0, m))
        else {
            continue;
        };
        let v = v + wild_value(on_naturals + all_wild);
        if found.is_none_or(|(b, _, _)| b < v) {
            found = Some((v, on_naturals, all_wild));
        }
    }
    let (value, on_naturals, all_wild) = found?;
    let mut ranks = Vec::new();
    let mut used = on_naturals;
    for (r, step) in steps.iter().enumerate().rev() {
        let (n, w) = step[used];
        if n > 0 {
            ranks.push((MELD_RANKS[r].0, n, w));
        }
        used -= w;
    }
    ranks.reverse();
    Some(Plan {
        value,
        required,
        wilds,
        ranks,
        on_naturals,
        all_wild,
    })
}

/// The best opening a side not yet open can lay this turn: `plan`'s melds laid out, the top
/// card's meld first.
#[derive(Clone, Debug, PartialEq)]
struct Opening {
    value: u32,
    melds: Vec<Vec<Card>>,
}

fn best_opening(hand: &[Card], top: Option<Card>, pair_wild: bool) -> Option<Opening> {
    let p = plan(hand, top, pair_wild, |_| None)?;
    let mut pool: Vec<Card> = p.required.clone();
    pool.extend(&p.wilds[..(p.on_naturals + p.all_wild).saturating_sub(p.required.len())]);
    // The all-wild melds take the required cards (the first of the pool), the rest go on naturals.
    let mut wild_cards: Vec<Card> = pool.drain(..p.all_wild).collect();
    let mut melds = Vec::new();
    let mut spare: Vec<Card> = hand.to_vec();
    let mut ordered = p.ranks;
    ordered.sort_by_key(|&(r, _, _)| top.is_none_or(|t| t.rank() != Some(r)));
    for (rank, n, w) in ordered {
        let mut naturals: Vec<Card> = Vec::new();
        if top.is_some_and(|t| t.rank() == Some(rank)) {
            naturals.push(top.expect("the top card"));
        }
        while naturals.len() < n {
            let at = spare.iter().position(|c| c.rank() == Some(rank))?;
            naturals.push(spare.remove(at));
        }
        let mut wild_on: Vec<Card> = pool.drain(..w).collect();
        for (mn, mw) in split(n, w)? {
            let mut meld: Vec<Card> = naturals.drain(..mn).collect();
            meld.extend(wild_on.drain(..mw));
            melds.push(meld);
        }
    }
    let wild_melds: Vec<Vec<Card>> = split(0, p.all_wild)?
        .into_iter()
        .map(|(_, w)| wild_cards.drain(..w).collect())
        .collect();
    if top.is_some_and(wild) {
        // The top card's all-wild meld comes first.
        melds.splice(0..0, wild_melds);
    } else {
        melds.extend(wild_melds);
    }
    Some(Opening {
        value: p.value,
        melds,
    })
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before play: the pulls and the red 3s laid from the hands dealt (§2 items 1–3).
    Setup,
    /// The turn's start: the foot picked up if due (HF-6), then a draw.
    Start,
    /// The discard pile could not be taken: the player draws from a stock instead (§5).
    MustDrawStock,
    /// After the draw: melds, a question, the discard.
    Play,
    /// The hand was melded away: the foot is picked up at once (§3.3).
    FootDue,
    /// "May I go out?" waits for its answer: the partner's, or the opponents' (§3.4).
    Answer {
        opponents: bool,
    },
    /// A void going-out left two cards or more: the turn ends with a discard (HF-b).
    MustDiscard,
    Over,
}

/// What one turn has done so far.
#[derive(Clone, Debug, Default)]
struct Turn {
    /// The action that asked "May I go out?" (once per turn, HF-b).
    asked: Option<usize>,
    /// The binding answer, and the action that gave it.
    answer: Option<(Reply, usize)>,
    /// `failed_go_out` was charged for this turn's question.
    failed: bool,
    /// The value melded this turn by a side opening with a stock draw (HF-7).
    opening: Option<u32>,
}

#[derive(Clone)]
struct Hand {
    table: Table,
    pair_wild: bool,
    foot_counted: bool,
    hand_number: u32,
    minimum: u32,
    /// The hands, what each seat gave up, the two stocks, the discard pile, the melds (each
    /// belongs to the side of the seat that started it) and whose turn it is.
    turns: Turns<CardCounts>,
    /// A seat's foot until he picks it up.
    feet: [Option<CardCounts>; 4],
    pulled: [Option<u8>; 4],
    red_threes: [Vec<(Seat, Card, usize)>; 2],
    /// Where the turn of `turns.to_act()` stands (finer than `Turns`' draw and play).
    phase: Phase,
    turn: Turn,
    went_out: Option<(Seat, usize)>,
    /// The stock's last card was a red 3: its drawer may meld, and the hand ends without his
    /// discard (§3.5).
    last_turn: bool,
    adj: Adjudication,
}

/// A side's place in `melds` and `red_threes`.
fn side_of(seat: Seat) -> usize {
    seat.pos() % 2
}

impl Rules for HandAndFoot {
    type Verb = Verb;
    type Details = Details;
    type Carried = NoDetails;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, _: &Options) -> deal::Setup {
        deal::Setup {
            pack: packs::hand_and_foot270(),
            hand: deal::HandSize::Each(2 * PILE_OF_HAND),
            counted_by: None,
            parts: &[
                deal::Holds {
                    part: deal::Part::DiscardPile,
                    what: "the upcard that starts the discard pile (jokers, 2s and red 3s turned before it are buried in the stocks)",
                    count: deal::Count::Between(1, 1),
                },
                deal::Holds {
                    part: deal::Part::Stock,
                    what: "stock 1 as play starts, top card first",
                    count: deal::Count::Rest { at_least: 0 },
                },
                deal::Holds {
                    part: deal::Part::SecondStock,
                    what: "stock 2 as play starts, top card first",
                    count: deal::Count::Rest { at_least: 0 },
                },
            ],
        }
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        if before.hands_played >= HANDS {
            return Err(vec![FieldError::new(
                "/match_state/hands_played".into(),
                format!(
                    "a game of Hand and Foot is {HANDS} hands and {} have been played: the game is over, start a new match (§4)",
                    before.hands_played
                ),
            )]);
        }
        let pack = packs::hand_and_foot270();
        let mut dealt = deal::check_holdings::<CardCounts, _>(record, table, &pack)?;
        deal::check_undealt(&record.face_up, "face_up", &pack, &mut dealt)?;
        deal::check_undealt(&record.stock, "stock", &pack, &mut dealt)?;
        deal::check_undealt(&record.second_stock, "second_stock", &pack, &mut dealt)?;
        deal::check_whole_pack(&dealt, &pack)?;
        let upcard = record.face_up[0];
        if wild(upcard) || red_three(upcard) {
            return Err(vec![FieldError::new(
                "/face_up/0".into(),
                format!(
                    "{upcard} cannot be the upcard: jokers, 2s and red 3s turned are buried in a stock and another card turned (§1)"
                ),
            )]);
        }
        let dealer = table.resolve(record.dealer).expect("checked with the deal");
        let mut hands = [CardCounts::default(); MAX_PLAYS];
        let mut feet = [None; 4];
        for (seat, cards) in &record.deal {
            let at = table.resolve(*seat).expect("checked with the deal").pos();
            let (hand, foot) = cards.split_at(PILE_OF_HAND);
            let mut f = CardCounts::default();
            for &c in hand {
                hands[at].insert(c);
            }
            for &c in foot {
                f.insert(c);
            }
            feet[at] = Some(f);
        }
        let hand_number = before.hands_played + 1;
        let mut adj = Adjudication::new(INFO.id, dealer, before, 0);
        adj.tally = PerSide::over(table.sides());
        adj.events.push(Event::new(
            "upcard_turned",
            None,
            None,
            vec![upcard],
            format!("{upcard} is turned up to start the discard pile (§1)"),
        ));
        let mut turns = Turns::new(
            table,
            hands,
            &[&record.stock, &record.second_stock],
            1,
            table.next(dealer),
            rummy::Phase::Draw,
        );
        turns.piles[0].lay(upcard);
        Ok(Box::new(Hand {
            table,
            pair_wild: options.flag("discard_pair_may_include_wild"),
            foot_counted: !options.flag("foot_not_counted"),
            hand_number,
            minimum: MINIMUM[hand_number as usize - 1],
            turns,
            feet,
            pulled: [None; 4],
            red_threes: [Vec::new(), Vec::new()],
            phase: Phase::Setup,
            turn: Turn::default(),
            went_out: None,
            last_turn: false,
            adj,
        }))
    }
}

impl Hand {
    fn partner(&self, seat: Seat) -> Seat {
        self.table.next(self.table.next(seat))
    }
    fn stock_left(&self) -> usize {
        self.turns.stocks.iter().map(|s| s.len()).sum()
    }

    fn to_move(&self) -> Seat {
        self.turns.to_act()
    }

    fn hand(&self, seat: Seat) -> CardCounts {
        self.turns.hand(seat)
    }

    fn pile_top(&self) -> Option<Card> {
        self.turns.piles[0].top()
    }
    /// Draws the next card of stock `n` (0 or 1), or of the other when it is empty (HF-5, HF-a),
    /// into `seat`'s hand.
    fn draw_one(&mut self, at: (usize, Seat, &str), n: usize) -> Result<Option<Card>, RecordError> {
        let card = match self.turns.draw(at, n, None)? {
            Some(c) => Some(c),
            None => self.turns.draw(at, 1 - n, None)?,
        };
        if card.is_some_and(red_three) && self.stock_left() == 0 {
            self.last_turn = true;
        }
        Ok(card)
    }

    /// The seats that may act: the seats due in the setup, the opponents answering a request to go
    /// out, else the seat to move; none once the hand is over.
    fn to_act(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Setup => match self.setup_due() {
                Some((_, seats)) => seats,
                None => vec![self.to_move()],
            },
            Phase::Answer { opponents } => self.answerers(opponents),
            _ => vec![self.to_move()],
        }
    }

    /// The red 3 `seat` still holds in his hand, if any (HF-e: it is laid before anything else).
    fn red_three_held(&self, seat: Seat) -> Option<Card> {
        self.hand(seat).iter().find(|&c| red_three(c))
    }
    /// README C12, HF-g: every card of `cards` (named at `field/0`, `field/1`, …) is in `seat`'s
    /// hand; nothing leaves it here.
    fn check_held(&self, at: (usize, Seat, &str), cards: &[Card]) -> Result<(), RecordError> {
        self.turns.after_giving_up(at, cards).map(drop)
    }
    /// The melds of side `side` (0: N–S), with their places in `turns.melds`.
    fn melds_of(&self, side: usize) -> impl Iterator<Item = (usize, &[Card])> + '_ {
        self.turns
            .melds
            .iter()
            .enumerate()
            .filter(move |(_, m)| side_of(m.owner) == side)
            .map(|(i, m)| (i, m.cards.as_slice()))
    }

    /// The side's open meld of `of` (fewer than seven cards), by its place in `turns.melds`.
    fn open_meld(&self, side: usize, of: MeldOf) -> Option<usize> {
        self.melds_of(side)
            .find(|(_, cards)| kind(cards) == (of, None))
            .map(|(i, _)| i)
    }

    /// A copy of the hand to try a meld on, without the events logged so far: trying one only
    /// adds to them, and copying them was about half of a copy's cost. What the copy
    /// logs is kept when it is adopted.
    fn trial(&mut self) -> Hand {
        let events = std::mem::take(&mut self.adj.events);
        let trial = self.clone();
        self.adj.events = events;
        trial
    }

    /// The hand as `trial` left it, after the events logged before it.
    fn adopt(&mut self, mut trial: Hand) {
        let mut events = std::mem::take(&mut self.adj.events);
        events.append(&mut trial.adj.events);
        trial.adj.events = events;
        *self = trial;
    }

    /// Side `side`'s clean, dirty and wild piles (§3.2).
    fn piles(&self, side: usize) -> [usize; 3] {
        let mut n = [0; 3];
        for (_, cards) in self.melds_of(side) {
            match kind(cards).1 {
                Some(Pile::Clean) => n[0] += 1,
                Some(Pile::Dirty) => n[1] += 1,
                Some(Pile::Wild) => n[2] += 1,
                None => {}
            }
        }
        n
    }

    /// §3.2: `cards` as a new meld of `side`, or the reason they are none.
    fn new_meld(&self, side: usize, cards: &[Card]) -> Result<MeldOf, String> {
        let names = names(cards);
        let shape = SetShape::of(cards, wild)
            .ok_or_else(|| format!("{names} are not of one rank (with wild cards)"))?;
        let of = match shape.rank {
            None => MeldOf::Wild,
            Some(r) => {
                MeldOf::rank(r).ok_or_else(|| format!("{names}: 3s are never melded (§1, §3.2)"))?
            }
        };
        if !(3..=PILE).contains(&cards.len()) {
            return Err(format!("{names}: a meld is 3 to 7 cards (§3.2)"));
        }
        if shape.naturals > 0 && shape.wilds > wild_limit(cards.len()) {
            return Err(format!(
                "{names}: a meld of {} cards holds at most {} wild card(s) (§3.2)",
                cards.len(),
                wild_limit(cards.len())
            ));
        }
        if self.open_meld(side, of).is_some() {
            return Err(format!(
                "the side already has an open meld of {}: a side may not hold two (§3.2)",
                of.name()
            ));
        }
        Ok(of)
    }

    /// §3.2: whether `cards` may be added to the side's open meld `at`.
    fn extension(&self, at: usize, cards: &[Card]) -> Result<(), String> {
        let meld = &self.turns.melds[at].cards;
        let (of, _) = kind(meld);
        let fits = cards
            .iter()
            .all(|&c| wild(c) || (of.natural().is_some() && c.rank() == of.natural()));
        if !fits || cards.is_empty() {
            return Err(format!(
                "{} cannot be added to the meld of {}",
                names(cards),
                of.name()
            ));
        }
        let len = meld.len() + cards.len();
        let wilds = wilds(meld) + wilds(cards);
        if len > PILE {
            return Err(format!(
                "the meld of {} would hold {len} cards: 7 at most (§3.2)",
                of.name()
            ));
        }
        if of != MeldOf::Wild && wilds > wild_limit(len) {
            return Err(format!(
                "the meld of {} would hold {wilds} wild cards in {len}: at most {} (§3.2)",
                of.name(),
                wild_limit(len)
            ));
        }
        Ok(())
    }
    /// Lays `cards` from `seat`'s hand (judged already) as a meld of his side: new, or onto the
    /// side's open meld of their kind. Returns the melded value.
    fn lay(
        &mut self,
        index: usize,
        seat: Seat,
        of: MeldOf,
        cards: &[Card],
        field: &str,
    ) -> Result<u32, RecordError> {
        let at = match self.open_meld(side_of(seat), of) {
            Some(at) => {
                for (j, &c) in cards.iter().enumerate() {
                    self.turns
                        .lay_off((index, seat, format_args!("{field}/{j}")), c, at)?;
                }
                at
            }
            None => self.turns.meld((index, seat, field), cards, false)?,
        };
        let meld = Meld::of(&self.turns.melds[at].cards);
        if let Some(pile) = meld.pile {
            let kind = match pile {
                Pile::Clean => "clean",
                Pile::Dirty => "dirty",
                Pile::Wild => "wild",
            };
            self.adj.events.push(Event::new(
                "pile_completed",
                index,
                seat,
                meld.cards.clone(),
                format!(
                    "{seat}'s side completes a {kind} pile of {} (§3.2)",
                    of.name()
                ),
            ));
        }
        Ok(values(cards))
    }

    fn offence(
        &mut self,
        code: &'static str,
        index: usize,
        seat: Seat,
        rule: &'static str,
        explanation: String,
        consequence: String,
    ) {
        self.adj.irregularities.push(Irregularity {
            code,
            action_index: Some(index),
            trick: None,
            seat,
            card: None,
            rule,
            explanation,
            consequence,
            effect: Effect::default(),
        });
    }

    /// §3.4, HF-e: whether `seat`'s side may go out: its piles (counted after `melds`) and both
    /// partners in their feet.
    fn may_go_out(&self, seat: Seat, [clean, dirty, wild]: [usize; 3]) -> Result<(), String> {
        if clean < 2 || dirty < 2 || wild < 1 {
            return Err(format!(
                "the side has {clean} clean, {dirty} dirty and {wild} wild piles: going out needs 2, 2 and 1 (§3.4)"
            ));
        }
        let partner = self.partner(seat);
        if self.feet[partner.pos()].is_some() {
            return Err(format!(
                "{partner} has not picked up his foot: both partners must play from their feet (§3.4, HF-e)"
            ));
        }
        Ok(())
    }

    /// The judgement of an action that would leave `seat` in his foot with no card (§3.3, §3.4):
    /// `Ok(true)` when he goes out, `Ok(false)` when the attempt is void (penalised; the cards stay
    /// in his hand), an error when he never asked (HF-c).
    fn going_out(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        piles_after: [usize; 3],
    ) -> Result<bool, RecordError> {
        let seat = action.seat;
        let Some(_) = self.turn.asked else {
            return Err(RecordError::on(
                "go_out_without_permission",
                index,
                action,
                format!(
                    "{seat} would play his last card without asking \"May I go out?\" (§3.3, HF-c)"
                ),
            ));
        };
        let void = |hand: &Hand| {
            let left = hand.hand(seat).len();
            if left >= 2 {
                format!(
                    "the going-out is void: the cards go back into {seat}'s hand and his turn ends with a discard (§5, HF-b)"
                )
            } else {
                format!(
                    "the going-out is void: the card goes back into {seat}'s hand and his turn ends without a discard (§5, HF-b)"
                )
            }
        };
        match self.turn.answer {
            Some((Reply::No, _)) => {
                let consequence =
                    format!("-{AGAINST_NO} to {}; {}", self.table.side(seat), void(self));
                self.offence(
                    "go_out_against_no",
                    index,
                    seat,
                    "hand-and-foot.md §5",
                    format!("{seat} goes out although the answer to \"May I go out?\" was no"),
                    consequence,
                );
                Ok(false)
            }
            Some((Reply::Yes, answered)) => match self.may_go_out(seat, piles_after) {
                Ok(()) => Ok(true),
                Err(why) => {
                    if !self.turn.failed {
                        self.turn.failed = true;
                        let consequence =
                            format!("-{FAILED} to {}; {}", self.table.side(seat), void(self));
                        self.offence(
                            "failed_go_out",
                            answered,
                            seat,
                            "hand-and-foot.md §5",
                            format!("{seat} asked to go out and cannot: {why}"),
                            consequence,
                        );
                    }
                    Ok(false)
                }
            },
            None => unreachable!("a question is answered before its asker acts again"),
        }
    }

    /// After a void going-out: a discard if two cards or more are left, else the turn ends (HF-b).
    fn after_void(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        if self.hand(action.seat).len() >= 2 {
            self.phase = Phase::MustDiscard;
            Ok(())
        } else {
            self.end_turn(index, action)
        }
    }

    /// The turn ends: an opening below the minimum is a record error (HF-c), a question answered
    /// yes without going out costs `failed_go_out` (HF-b).
    fn end_turn(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = self.to_move();
        if let Some(value) = self.turn.opening
            && value < self.minimum
        {
            return Err(RecordError::on(
                "opening_below_minimum",
                index,
                action,
                format!(
                    "{seat}'s side opened with melds worth {value}: hand {} needs {} (§3.2, HF-7)",
                    self.hand_number, self.minimum
                ),
            ));
        }
        if let (Some((Reply::Yes, answered)), false, None) =
            (self.turn.answer, self.turn.failed, self.went_out)
        {
            self.offence(
                "failed_go_out",
                answered,
                seat,
                "hand-and-foot.md §5",
                format!("{seat} asked to go out, was told yes, and did not go out this turn"),
                format!("-{FAILED} to {} (§5, HF-b)", self.table.side(seat)),
            );
        }
        self.turn = Turn::default();
        if self.went_out.is_some() || self.last_turn {
            self.phase = Phase::Over;
            self.turns.end();
            return Ok(());
        }
        self.turns.next_turn();
        self.phase = Phase::Start;
        Ok(())
    }

    /// Whether the hand may end with the record here (§3.5): the stock is exhausted and the player
    /// to move has not taken the pile, or the stock's last card was a red 3.
    fn may_end_here(&self) -> bool {
        match self.phase {
            Phase::Over => true,
            Phase::Start => self.stock_left() == 0,
            Phase::Play => self.last_turn && self.red_three_held(self.to_move()).is_none(),
            _ => false,
        }
    }

    /// §3.1, HF-d: why `seat` cannot take the discard pile now, or `None` if he can.
    fn cannot_take(&self, seat: Seat) -> Option<String> {
        let Some(top) = self.pile_top() else {
            return Some("the discard pile is empty".into());
        };
        if black_three(top) {
            return Some(format!(
                "a black 3 ({top}) is on top of the discard pile (§3.1)"
            ));
        }
        let side = side_of(seat);
        let hand = self.hand(seat).to_vec();
        let of = if wild(top) {
            let kind = hand
                .iter()
                .filter(|&&c| wild(c) && (c == Card::JOKER) == (top == Card::JOKER))
                .count();
            if kind < 2 {
                return Some(format!(
                    "{seat} does not hold two {} to meld with the wild {top} (§3.1)",
                    if top == Card::JOKER { "jokers" } else { "2s" }
                ));
            }
            MeldOf::Wild
        } else {
            let rank = top.rank_unchecked();
            let naturals = hand.iter().filter(|c| c.rank() == Some(rank)).count();
            let wilds = hand.iter().filter(|&&c| wild(c)).count();
            let pair = naturals >= 2 || (self.pair_wild && naturals >= 1 && wilds >= 1);
            if !pair {
                return Some(format!(
                    "{seat} does not hold two natural {}s to meld with {top} (§3.1, HF-2)",
                    rank.letter()
                ));
            }
            MeldOf::rank(rank).expect("a natural card other than a 3")
        };
        if let Some(at) = self.open_meld(side, of) {
            let meld = &self.turns.melds[at].cards;
            // Two naturals, or (HF-2) a natural and a wild card, as the hand allows.
            let fits = meld.len() + 3 <= PILE
                && (of == MeldOf::Wild
                    || hand.iter().filter(|c| c.rank() == of.natural()).count() >= 2
                    || wilds(meld) < wild_limit(meld.len() + 3));
            if !fits {
                return Some(format!(
                    "the side's open meld of {} has no room for the top card and two more (HF-d)",
                    of.name()
                ));
            }
        }
        if !self.opened(side) {
            let best = best_opening(&hand, Some(top), self.pair_wild).map_or(0, |o| o.value);
            if best < self.minimum {
                return Some(format!(
                    "the side has not opened and the top card with {seat}'s hand makes at most {best}: hand {} needs {} (HF-d, HF-f)",
                    self.hand_number, self.minimum
                ));
            }
        }
        None
    }

    fn opened(&self, side: usize) -> bool {
        self.melds_of(side).next().is_some()
    }

    /// The seats that have not pulled yet, from the dealer's left: they pull at once (§1 names no
    /// order), so each is due and the record takes them in any order.
    fn yet_to_pull(&self) -> Vec<Seat> {
        let eldest = self.table.next(self.adj.dealer);
        std::iter::successors(Some(eldest), |&s| Some(self.table.next(s)))
            .take(4)
            .filter(|s| self.pulled[s.pos()].is_none())
            .collect()
    }

    /// The seats due before play (§2 items 1 and 3), in the view's words: every seat yet to pull
    /// (`pull`), then every seat still holding a red 3 dealt (`red_three`, in any order); `None`
    /// once play is due.
    fn setup_due(&self) -> Option<(&'static str, Vec<Seat>)> {
        let pulls = self.yet_to_pull();
        if !pulls.is_empty() {
            return Some(("pull", pulls));
        }
        let holders: Vec<Seat> = self
            .table
            .seats()
            .filter(|&s| self.red_three_held(s).is_some())
            .collect();
        (!holders.is_empty()).then_some(("red_three", holders))
    }

    fn pull(&mut self, index: usize, action: &Action<Verb>, n: u8) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.pulled[seat.pos()].is_some() {
            return Err(RecordError::unexpected(
                index,
                action,
                format!("{seat}'s pull is already recorded"),
            ));
        }
        if n == 0 {
            return Err(RecordError::unexpected(
                index,
                action,
                "a pull is at least one card".into(),
            ));
        }
        self.pulled[seat.pos()] = Some(n);
        Ok(())
    }

    fn lay_red_three(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        r: &RedThree,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        if !red_three(r.card) {
            return Err(RecordError::at(
                "unexpected_action",
                index,
                seat,
                "red_three/card",
                format!("{} is not a red 3", r.card),
            ));
        }
        if !(1..=2).contains(&r.stock) {
            return Err(RecordError::at(
                "unexpected_action",
                index,
                seat,
                "red_three/stock",
                format!("there are stocks 1 and 2, not {}", r.stock),
            ));
        }
        self.turns
            .give_up((index, seat, "red_three/card"), &[r.card])
            .map_err(|mut e| {
                e.pointer = format!("/actions/{index}/red_three/card");
                e
            })?;
        self.red_threes[side_of(seat)].push((seat, r.card, index));
        let replacement = self.draw_one((index, seat, "red_three"), usize::from(r.stock) - 1)?;
        self.adj.events.push(Event::new(
            "red_three_laid",
            index,
            seat,
            vec![r.card],
            match replacement {
                Some(_) => format!(
                    "{seat} lays down {} and replaces it from the stock (§1, §3.1)",
                    r.card
                ),
                None => format!(
                    "{seat} lays down {}; the stock is exhausted, so no card replaces it (§3.5)",
                    r.card
                ),
            },
        ));
        Ok(())
    }

    fn pick_up_foot(&mut self, index: usize, seat: Seat) {
        let foot = self.feet[seat.pos()]
            .take()
            .expect("a foot not yet picked up");
        for c in foot.to_vec() {
            self.turns.hands[seat.pos()].insert(c);
        }
        self.adj.events.push(Event::new(
            "foot_picked_up",
            index,
            seat,
            Vec::new(),
            format!("{seat} picks up his foot (§3.3)"),
        ));
    }

    fn draw(&mut self, index: usize, action: &Action<Verb>, n: u8) -> Result<(), RecordError> {
        let seat = action.seat;
        if !(1..=2).contains(&n) {
            return Err(RecordError::unexpected(
                index,
                action,
                format!("there are stocks 1 and 2, not {n}"),
            ));
        }
        if self.stock_left() == 0 {
            return Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "the stocks are exhausted: {seat} takes the discard pile, or the hand ends (§3.5)"
                ),
            ));
        }
        for _ in 0..2 {
            // HF-5: the named stock's top card, then the other's once it is empty.
            self.draw_one((index, seat, "draw"), usize::from(n) - 1)?;
        }
        self.phase = Phase::Play;
        Ok(())
    }

    fn take_pile(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        t: &TakePile,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        let side = side_of(seat);
        if let Some(why) = self.cannot_take(seat) {
            let stock_out = self.stock_left() == 0;
            self.offence(
                "illegal_discard_draw",
                index,
                seat,
                "hand-and-foot.md §3.1, §5",
                format!("{seat} tries to take the discard pile: {why}"),
                format!(
                    "-{ILLEGAL_DRAW} to {}; the draw is cancelled and {} (§5)",
                    self.table.side(seat),
                    if stock_out {
                        "with the stock exhausted he cannot draw: the hand ends (§3.5)"
                    } else {
                        "he draws from a stock instead"
                    }
                ),
            );
            // The card he tried to take, for the table to mark.
            let irregularity = self.adj.irregularities.last_mut().expect("just logged");
            irregularity.card = self.turns.piles[0].top();
            self.phase = if stock_out {
                self.turns.end();
                Phase::Over
            } else {
                Phase::MustDrawStock
            };
            return Ok(());
        }
        let top = self
            .pile_top()
            .expect("a pile that can be taken has a top card");
        // Every card he names is his, before the melds are judged.
        let melds = t.melds.iter().enumerate();
        let lists = std::iter::once(("take_pile/with".to_string(), &t.with[..]))
            .chain(melds.map(|(m, cards)| (format!("take_pile/melds/{m}"), &cards[..])));
        self.turns.after_giving_up_all(index, seat, lists)?;
        let malformed = |detail: String, at: &str| {
            RecordError::at(
                "malformed_meld",
                index,
                seat,
                format!("take_pile/{at}"),
                detail,
            )
        };
        // The top card's meld: two naturals of its rank (two of its kind for a wild card), HF-2.
        let of = if wild(top) {
            let kind = t
                .with
                .iter()
                .filter(|&&c| wild(c) && (c == Card::JOKER) == (top == Card::JOKER))
                .count();
            if kind < 2 || !t.with.iter().all(|&c| wild(c)) {
                return Err(malformed(
                    format!(
                        "the wild {top} is melded with two more of its kind and wild cards only (§3.1)"
                    ),
                    "with",
                ));
            }
            MeldOf::Wild
        } else {
            let rank = top.rank_unchecked();
            let naturals = t.with.iter().filter(|c| c.rank() == Some(rank)).count();
            let wilds = wilds(&t.with);
            let pair = naturals >= 2 || (self.pair_wild && naturals >= 1 && wilds >= 1);
            if !pair || naturals + wilds != t.with.len() {
                return Err(malformed(
                    format!(
                        "{top} is melded with two natural {}s from hand{} (§3.1, HF-2)",
                        rank.letter(),
                        if self.pair_wild {
                            " (or one and a wild card)"
                        } else {
                            ""
                        }
                    ),
                    "with",
                ));
            }
            MeldOf::rank(rank).expect("a natural card other than a 3")
        };
        let mut first = vec![top];
        first.extend(&t.with);
        let check = match self.open_meld(side, of) {
            Some(at) => self.extension(at, &first),
            None => self.new_meld(side, &first).map(|_| ()),
        };
        check.map_err(|why| malformed(why, "with"))?;
        // Taken and laid on a copy of the hand: the further melds are judged as they would be
        // laid after the first, and the minimum over them all (HF-f).
        let mut after = self.trial();
        let taken = after
            .turns
            .take_from_pile((index, seat, "take_pile"), 0, TAKEN, None)?
            .expect("a pile that can be taken has a top card");
        after.adj.events.push(Event::new(
            "pile_taken",
            index,
            seat,
            taken.clone(),
            format!(
                "{seat} takes the top {} of the discard pile and melds {top} at once (§3.1)",
                taken.len()
            ),
        ));
        let mut value = after.lay(index, seat, of, &first, "take_pile/with")?;
        for (m, cards) in t.melds.iter().enumerate() {
            let of = after
                .new_meld(side, cards)
                .map_err(|why| malformed(why, &format!("melds/{m}")))?;
            value += after.lay(index, seat, of, cards, &format!("take_pile/melds/{m}"))?;
        }
        if !self.opened(side) && value < self.minimum {
            return Err(RecordError::on(
                "opening_below_minimum",
                index,
                action,
                format!(
                    "{seat}'s side opens with the top card and melds from hand worth {value}: hand {} needs {} (§3.2, HF-f)",
                    self.hand_number, self.minimum
                ),
            ));
        }
        self.adopt(after);
        self.phase = Phase::Play;
        self.after_meld(index, action)
    }

    fn meld(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        m: &MeldCards,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        let side = side_of(seat);
        self.check_held((index, seat, "meld/cards"), &m.cards)?;
        let malformed =
            |detail: String| RecordError::at("malformed_meld", index, seat, "meld/cards", detail);
        let of = match m.extend {
            Some(of) => {
                let Some(at) = self.open_meld(side, of) else {
                    return Err(RecordError::at(
                        "malformed_meld",
                        index,
                        seat,
                        "meld/extend",
                        format!(
                            "the side has no open meld of {} to add to (§3.2)",
                            of.name()
                        ),
                    ));
                };
                self.extension(at, &m.cards).map_err(malformed)?;
                of
            }
            None => self.new_meld(side, &m.cards).map_err(malformed)?,
        };
        let empties = m.cards.len() as u32 == self.hand(seat).len();
        if empties && self.feet[seat.pos()].is_none() {
            // Going out by this meld: the piles it completes count (HF-e).
            let mut trial = self.trial();
            trial.lay(index, seat, of, &m.cards, "meld/cards")?;
            if !self.going_out(index, action, trial.piles(side))? {
                return self.after_void(index, action);
            }
        }
        let was_open = self.opened(side);
        let value = self.lay(index, seat, of, &m.cards, "meld/cards")?;
        if !was_open {
            self.turn.opening = Some(0);
        }
        if let Some(v) = &mut self.turn.opening {
            *v += value;
        }
        self.after_meld(index, action)
    }

    /// A hand melded away: the foot at once, or out (§3.3, §3.4).
    fn after_meld(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if !self.hand(seat).is_empty() {
            return Ok(());
        }
        if self.feet[seat.pos()].is_some() {
            self.phase = Phase::FootDue;
            return Ok(());
        }
        self.out(index, action)
    }

    fn out(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        self.went_out = Some((seat, index));
        self.adj.events.push(Event::new(
            "went_out",
            index,
            seat,
            Vec::new(),
            format!("{seat} goes out and the hand ends (§3.4)"),
        ));
        self.end_turn(index, action)
    }

    fn discard(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        card: Card,
    ) -> Result<(), RecordError> {
        let seat = action.seat;
        if self.last_turn {
            return Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "the stock's last card was a red 3: {seat} may meld, and the hand ends without his discard (§3.5)"
                ),
            ));
        }
        self.check_held((index, seat, "discard"), &[card])
            .map_err(|mut e| {
                e.pointer = format!("/actions/{index}/discard");
                e
            })?;
        let last = self.hand(seat).len() == 1;
        if last && self.feet[seat.pos()].is_none() {
            if !self.going_out(index, action, self.piles(side_of(seat)))? {
                return self.after_void(index, action);
            }
            self.turns.discard((index, seat, "discard"), card, 0)?;
            return self.out(index, action);
        }
        self.turns.discard((index, seat, "discard"), card, 0)?;
        self.end_turn(index, action)
    }

    fn answer(&mut self, index: usize, action: &Action<Verb>, a: &Answer, opponents: bool) {
        let asker = self.to_move();
        if a.extra_information && !opponents {
            self.adj.events.push(Event::new(
                "extra_information",
                index,
                action.seat,
                Vec::new(),
                format!("{}'s answer to {asker} says more than yes or no: the opponents' answer binds (§3.4, HF-c)", action.seat),
            ));
            self.phase = Phase::Answer { opponents: true };
            return;
        }
        self.turn.answer = Some((a.reply, index));
        self.phase = Phase::Play;
    }

    /// Told no, the player to move holds one card in his foot: he cannot discard it (that would
    /// go out), so his turn ends without a discard unless he goes out against the answer (HF-b).
    fn turn_may_end(&self) -> bool {
        let seat = self.to_move();
        self.phase == Phase::Play
            && matches!(self.turn.answer, Some((Reply::No, _)))
            && self.feet[seat.pos()].is_none()
            && self.hand(seat).len() == 1
    }

    /// Whether the partner's yes lets `asker` go out now: one card left in his foot, to discard,
    /// and the side's piles and feet ready (§3.4). A yes elsewhere leads to `failed_go_out` unless
    /// the player finds his way out: the legal actions do not offer it.
    fn can_go_out_now(&self, asker: Seat) -> bool {
        !self.last_turn
            && self.feet[asker.pos()].is_none()
            && self.hand(asker).len() == 1
            && self.may_go_out(asker, self.piles(side_of(asker))).is_ok()
    }

    /// The seats that answer now.
    fn answerers(&self, opponents: bool) -> Vec<Seat> {
        let asker = self.to_move();
        if opponents {
            vec![self.table.next(asker), self.table.right(asker)]
        } else {
            vec![self.partner(asker)]
        }
    }

    fn expected(&self) -> String {
        let seat = self.to_move();
        match self.phase {
            Phase::Setup => match self.setup_due() {
                Some((due, seats)) => {
                    let who: Vec<String> = seats.iter().map(Seat::to_string).collect();
                    let who = who.join(", ");
                    if due == "pull" {
                        format!(
                            "the pulls of {who}, in any order (§1), then the red 3s dealt, then {seat} plays first"
                        )
                    } else {
                        format!("the red 3s {who} hold are laid down (§2), then {seat} plays first")
                    }
                }
                None => format!("{seat} draws from a stock or takes the discard pile (§3.1)"),
            },
            Phase::Start if self.hand(seat).is_empty() && self.feet[seat.pos()].is_some() => {
                format!("{seat} picks up his foot before he draws (§3.3, HF-6)")
            }
            Phase::Start => format!("{seat} draws from a stock or takes the discard pile (§3.1)"),
            Phase::MustDrawStock => format!("{seat} draws from a stock (§5)"),
            Phase::Play => format!("{seat} melds, asks to go out or discards"),
            Phase::FootDue => format!("{seat} picks up his foot at once (§3.3)"),
            Phase::Answer { opponents: false } => {
                format!(
                    "{} answers {seat}'s \"May I go out?\" (§3.4)",
                    self.partner(seat)
                )
            }
            Phase::Answer { opponents: true } => {
                format!("an opponent answers {seat}'s \"May I go out?\" (§3.4, HF-c)")
            }
            Phase::MustDiscard => format!("{seat} discards (HF-b)"),
            Phase::Over => "the hand is over".into(),
        }
    }

    fn setup_action(&mut self, index: usize, action: &Action<Verb>) -> Result<bool, RecordError> {
        match &action.kind {
            Verb::Pull(n) => self.pull(index, action, *n).map(|()| true),
            Verb::RedThree(_) if !self.yet_to_pull().is_empty() => Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "{} has not pulled yet: the red 3s dealt are laid once every seat has dealt himself (§2)",
                    self.yet_to_pull()[0]
                ),
            )),
            Verb::RedThree(r) => self.lay_red_three(index, action, r).map(|()| true),
            _ if action.seat != self.to_move() => Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!(
                    "before play only pulls and red 3s are recorded; then {} plays first",
                    self.to_move()
                ),
            )),
            _ => {
                if let Some(&s) = self.yet_to_pull().first() {
                    return Err(RecordError::unexpected(
                        index,
                        action,
                        format!(
                            "{s}'s pull is not recorded: every seat's pull comes before play (§2)"
                        ),
                    ));
                }
                if let Some((s, c)) = self
                    .table
                    .seats()
                    .find_map(|s| self.red_three_held(s).map(|c| (s, c)))
                {
                    return Err(RecordError::on(
                        "red_three_not_laid",
                        index,
                        action,
                        format!(
                            "{s} still holds {c}: red 3s in hand are laid down and replaced before play (§1)"
                        ),
                    ));
                }
                self.phase = Phase::Start;
                Ok(false)
            }
        }
    }

    fn scored(&mut self) {
        let table = self.table;
        for seat in table.seats() {
            let side = table.side(seat);
            if self.pulled[seat.pos()] == Some(EXACT_PULL) {
                self.adj.bonus(Bonus {
                    code: "exact_pull",
                    side,
                    card: None,
                    points: PULL_BONUS,
                    status: BonusStatus::Scored,
                });
            }
        }
        for s in 0..2 {
            let side = table.side(table.seat(s));
            let melded = self
                .melds_of(s)
                .map(|(_, m)| rummy::value_of(m.iter().copied(), value))
                .sum::<u32>();
            self.adj
                .score(side, melded as i32, ScoreSource::Meld, "melded_cards", None);
            let piles = self.piles(s);
            for (n, code, each) in [
                (piles[0], "clean_piles", CLEAN_PILE),
                (piles[1], "dirty_piles", DIRTY_PILE),
                (piles[2], "wild_piles", WILD_PILE),
            ] {
                self.adj
                    .score(side, n as i32 * each, ScoreSource::Meld, code, None);
            }
            for &(_, card, _) in &self.red_threes[s].clone() {
                self.adj.bonus(Bonus {
                    code: "red_three",
                    side,
                    card: Some(card),
                    points: RED_THREE,
                    status: BonusStatus::Scored,
                });
            }
        }
        if let Some((seat, at)) = self.went_out {
            let side = table.side(seat);
            self.adj.bonus(Bonus {
                code: "went_out",
                side,
                card: None,
                points: GOING_OUT,
                status: BonusStatus::Scored,
            });
            if let Some(b) = self.adj.score_items.last_mut() {
                b.action_index = Some(at);
            }
        }
        for seat in table.seats() {
            let side = table.side(seat);
            let left = values(&self.hand(seat).to_vec()) as i32;
            self.adj
                .score(side, -left, ScoreSource::Tricks, "cards_in_hand", None);
            if self.foot_counted
                && let Some(foot) = &self.feet[seat.pos()]
            {
                let left = values(&foot.to_vec()) as i32;
                self.adj
                    .score(side, -left, ScoreSource::Tricks, "foot_not_picked_up", None);
            }
        }
        for i in 0..self.adj.irregularities.len() {
            let irr = &self.adj.irregularities[i];
            let points = match irr.code {
                "go_out_against_no" => AGAINST_NO,
                "failed_go_out" => FAILED,
                _ => ILLEGAL_DRAW,
            };
            let side = table.side(irr.seat);
            self.adj.penalize(i, side, -points);
        }
        self.adj.settle();
        let m = &mut self.adj.match_after;
        m.next_dealer = Some(table.next(self.adj.dealer));
        if m.hands_played >= HANDS {
            // §4, HF-e: the highest total wins; equal totals are a draw.
            m.highest_wins();
        }
    }

    fn details(&self) -> Details {
        let table = self.table;
        Details {
            hand_number: self.hand_number,
            opening_minimum: self.minimum,
            went_out: self.went_out.map(|(s, _)| s),
            melds: (0..2)
                .map(|s| {
                    (
                        table.side(table.seat(s)),
                        self.melds_of(s).map(|(_, m)| Meld::of(m)).collect(),
                    )
                })
                .collect(),
            red_threes: (0..2)
                .map(|s| {
                    (
                        table.side(table.seat(s)),
                        self.red_threes[s].iter().map(|r| r.1).collect(),
                    )
                })
                .collect(),
            pulled: table
                .seats()
                .filter_map(|s| self.pulled[s.pos()].map(|n| (s, n)))
                .collect(),
            feet_picked_up: table
                .seats()
                .filter(|s| self.feet[s.pos()].is_none())
                .collect(),
            stocks: [self.turns.stocks[0].len(), self.turns.stocks[1].len()],
            discard_pile: self.turns.piles[0].cards().to_vec(),
        }
    }

    /// Every meld `seat` may lay now (§3.2), new or onto the side's open meld of its kind, each
    /// choice of cards once (copies of a card are one card to choose, `subsets`). A side opening
    /// this turn is offered only the melds after which its turn can still reach the minimum
    /// (`opening_reachable`); a player in his foot, a meld of his last cards only once his
    /// partner said yes (`apply` judges the going-out).
    fn meld_candidates(&self, seat: Seat) -> Vec<MeldCards> {
        let side = side_of(seat);
        let hand = self.hand(seat).to_vec();
        let wild_cards: Vec<Card> = hand.iter().copied().filter(|&c| wild(c)).collect();
        let opening = !self.opened(side) || self.turn.opening.is_some_and(|v| v < self.minimum);
        let yes = matches!(self.turn.answer, Some((Reply::Yes, _)));
        let out_of_cards = |k: usize| k == hand.len() && self.feet[seat.pos()].is_none() && !yes;
        let mut out = Vec::new();
        for of in MELD_RANKS
            .map(|(_, of)| of)
            .into_iter()
            .chain([MeldOf::Wild])
        {
            let naturals: Vec<Card> = match of.natural() {
                Some(r) => hand
                    .iter()
                    .copied()
                    .filter(|c| c.rank() == Some(r))
                    .collect(),
                None => Vec::new(),
            };
            let open = self.open_meld(side, of).map(|at| {
                let cards = &self.turns.melds[at].cards;
                (cards.len(), wilds(cards))
            });
            let (len, had) = open.unwrap_or((0, 0));
            // Whether the opening can still be reached, by the meld's shape: its naturals, jokers
            // and 2s (which cards of each does not change what the rest can meld).
            let mut reachable: BTreeMap<(usize, usize, usize), bool> = BTreeMap::new();
            for k in 0..=naturals.len().min(PILE - len) {
                for w in 0..=wild_cards.len().min(PILE - len - k) {
                    let size = len + k + w;
                    let fits = match (open, of) {
                        (Some(_), MeldOf::Wild) => k + w > 0,
                        (Some(_), _) => k + w > 0 && had + w <= wild_limit(size),
                        (None, MeldOf::Wild) => size >= 3,
                        (None, _) => size >= 3 && k > 0 && w <= wild_limit(size),
                    };
                    if !fits || out_of_cards(k + w) {
                        continue;
                    }
                    subsets(&naturals, k, &mut |nat| {
                        subsets(&wild_cards, w, &mut |wl| {
                            let mut cards = nat.to_vec();
                            cards.extend_from_slice(wl);
                            let jokers = wl.iter().filter(|&&c| c == Card::JOKER).count();
                            if opening
                                && !*reachable
                                    .entry((k, w, jokers))
                                    .or_insert_with(|| self.opening_reachable(seat, of, &cards))
                            {
                                return;
                            }
                            out.push(MeldCards {
                                cards,
                                extend: open.map(|_| of),
                            });
                        })
                    });
                }
            }
        }
        out
    }

    /// §3.2, HF-7: whether `seat`'s side, opening this turn, can still reach the minimum once
    /// `cards` are laid as a meld of `of` (new, or onto its open meld): what it laid this turn,
    /// `cards`, and the most the rest of his hand can meld this turn (`plan`); when that is the
    /// whole hand and his foot is still down, he picks it up and melds on from it, keeping a card
    /// to discard (no side goes out in the turn it opens: it has no piles before).
    fn opening_reachable(&self, seat: Seat, of: MeldOf, cards: &[Card]) -> bool {
        let side = side_of(seat);
        let so_far = self.turn.opening.unwrap_or(0) + values(cards);
        if so_far >= self.minimum {
            return true;
        }
        let mut rest = self.hand(seat);
        for &c in cards {
            rest.remove(c);
        }
        let rest = rest.to_vec();
        let open = |kind: MeldOf| -> OpenMeld {
            let now = self.open_meld(side, kind).map(|at| {
                let cards = &self.turns.melds[at].cards;
                (cards.len(), wilds(cards))
            });
            if kind != of {
                return now;
            }
            let naturals = cards.len() - wilds(cards);
            open_after(kind, now, naturals, wilds(cards))
        };
        let Some(p) = plan(&rest, None, self.pair_wild, open) else {
            return false;
        };
        let mut most = so_far + p.value;
        if let Some(foot) = &self.feet[seat.pos()]
            && p.value == values(&rest)
        {
            let laid = |kind: MeldOf| -> (usize, usize) {
                match kind.natural() {
                    Some(r) => p
                        .ranks
                        .iter()
                        .find(|(rank, _, _)| *rank == r)
                        .map_or((0, 0), |&(_, n, w)| (n, w)),
                    None => (0, p.all_wild),
                }
            };
            let after = |kind: MeldOf| {
                let (n, w) = laid(kind);
                open_after(kind, open(kind), n, w)
            };
            let mut foot = foot.to_vec();
            let mut f = plan(&foot, None, self.pair_wild, after);
            if f.as_ref().is_some_and(|f| f.value == values(&foot)) {
                // One card kept for the discard: the least.
                foot.sort_by_key(|&c| value(c));
                foot.remove(0);
                f = plan(&foot, None, self.pair_wild, after);
            }
            most += f.map_or(0, |f| f.value);
        }
        most >= self.minimum
    }

    /// The take of the discard pile worth offering to `seat`.
    fn take_candidate(&self, seat: Seat) -> Option<TakePile> {
        let top = self.pile_top()?;
        if self.cannot_take(seat).is_some() {
            return None;
        }
        let hand = self.hand(seat).to_vec();
        if !self.opened(side_of(seat)) {
            let o = best_opening(&hand, Some(top), self.pair_wild)?;
            let mut with = o.melds[0].clone();
            let at = with.iter().position(|&c| c == top)?;
            with.remove(at);
            return Some(TakePile {
                with,
                melds: o.melds[1..].to_vec(),
            });
        }
        let kind: Vec<Card> = if wild(top) {
            hand.iter()
                .copied()
                .filter(|&c| wild(c) && (c == Card::JOKER) == (top == Card::JOKER))
                .collect()
        } else {
            let mut n: Vec<Card> = hand
                .iter()
                .copied()
                .filter(|c| c.rank() == top.rank())
                .collect();
            if n.len() < 2 {
                n.extend(hand.iter().copied().filter(|&c| wild(c)).take(1));
            }
            n
        };
        Some(TakePile {
            with: kind.into_iter().take(2).collect(),
            melds: Vec::new(),
        })
    }

    fn turn_candidates(&self) -> Vec<Action<Verb>> {
        let seat = self.to_move();
        let act = |kind| Action { seat, kind };
        let mut out = Vec::new();
        if let Some(c) = self.red_three_held(seat) {
            return (1..=2)
                .map(|n| act(Verb::RedThree(RedThree { card: c, stock: n })))
                .collect();
        }
        match self.phase {
            Phase::Start if self.hand(seat).is_empty() && self.feet[seat.pos()].is_some() => {
                out.push(act(Verb::PickUpFoot(Yes)));
            }
            Phase::Start => {
                if self.stock_left() > 0 {
                    out.push(act(Verb::Draw(1)));
                    out.push(act(Verb::Draw(2)));
                }
                if let Some(t) = self.take_candidate(seat) {
                    out.push(act(Verb::TakePile(t)));
                }
            }
            Phase::MustDrawStock => {
                out.push(act(Verb::Draw(1)));
                out.push(act(Verb::Draw(2)));
            }
            Phase::FootDue => out.push(act(Verb::PickUpFoot(Yes))),
            Phase::MustDiscard | Phase::Play => {
                let hand = self.hand(seat);
                if self.phase == Phase::Play {
                    out.extend(
                        self.meld_candidates(seat)
                            .into_iter()
                            .map(|m| act(Verb::Meld(m))),
                    );
                    if self.turn.asked.is_none() {
                        out.push(act(Verb::AskGoOut(Yes)));
                    }
                }
                if !self.last_turn {
                    out.extend(hand.distinct().iter().map(|c| act(Verb::Discard(c))));
                }
                if self.turn_may_end() {
                    // The next seat's turn may begin.
                    let mut next = self.clone();
                    next.turn = Turn::default();
                    next.turns.next_turn();
                    next.phase = Phase::Start;
                    out.extend(next.turn_candidates());
                }
            }
            Phase::Answer { opponents } => {
                let replies: &[Reply] = if self.can_go_out_now(seat) {
                    &[Reply::Yes, Reply::No]
                } else {
                    &[Reply::No]
                };
                for s in self.answerers(opponents) {
                    for &reply in replies {
                        out.push(Action {
                            seat: s,
                            kind: Verb::Answer(Answer {
                                reply,
                                extra_information: false,
                            }),
                        });
                    }
                    // The partner may say more than yes or no (§3.4): logged, the opponents then
                    // answer; his reply binds nothing, so either is offered.
                    if !opponents {
                        out.extend([Reply::Yes, Reply::No].map(|reply| Action {
                            seat: s,
                            kind: Verb::Answer(Answer {
                                reply,
                                extra_information: true,
                            }),
                        }));
                    }
                }
            }
            Phase::Setup | Phase::Over => {}
        }
        out
    }
}

impl HandState<Verb> for Hand {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        if let Verb::Correct(_) = action.kind {
            return Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                "Hand and Foot has no correction (README C11)".into(),
            ));
        }
        if self.phase == Phase::Over {
            let why = match self.went_out {
                Some((s, _)) => format!("{s} went out and the hand is over (§3.4)"),
                None => "the hand is over (§3.5)".to_string(),
            };
            return Err(RecordError::after_end(index, action, &why));
        }
        if self.phase == Phase::Setup && self.setup_action(index, action)? {
            return Ok(());
        }
        if let Phase::Answer { opponents } = self.phase {
            let answerers = self.answerers(opponents);
            return match &action.kind {
                Verb::Answer(a) if answerers.contains(&seat) => {
                    self.answer(index, action, a, opponents);
                    Ok(())
                }
                _ if answerers.contains(&seat) => {
                    Err(RecordError::unexpected(index, action, self.expected()))
                }
                _ => Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    format!("it is not {seat}'s turn: {}", self.expected()),
                )),
            };
        }
        if seat != self.to_move() {
            if self.phase == Phase::Play && self.last_turn {
                return Err(RecordError::after_end(
                    index,
                    action,
                    "the stock's last card was a red 3 and its drawer's turn ended the hand (§3.5)",
                ));
            }
            if self.phase == Phase::Start && self.stock_left() == 0 {
                return Err(RecordError::after_end(
                    index,
                    action,
                    &format!(
                        "the stock is exhausted and {} did not take the discard pile: the hand is over (§3.5)",
                        self.to_move()
                    ),
                ));
            }
            if self.turn_may_end() && seat == self.table.next(self.to_move()) {
                self.end_turn(index, action)?;
            } else {
                return Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    format!("it is not {seat}'s turn: {}", self.expected()),
                ));
            }
        }
        if let Verb::RedThree(r) = &action.kind {
            return self.lay_red_three(index, action, r);
        }
        if let Some(c) = self.red_three_held(seat) {
            return Err(RecordError::on(
                "red_three_not_laid",
                index,
                action,
                format!(
                    "{seat} holds {c}: a red 3 is laid down and replaced before its holder's next action (§3.1, HF-e)"
                ),
            ));
        }
        let foot_due = self.hand(seat).is_empty() && self.feet[seat.pos()].is_some();
        match (self.phase, &action.kind) {
            (Phase::Start, Verb::PickUpFoot(_)) | (Phase::FootDue, Verb::PickUpFoot(_))
                if foot_due =>
            {
                self.pick_up_foot(index, seat);
                if self.phase == Phase::FootDue {
                    self.phase = Phase::Play;
                }
                Ok(())
            }
            (Phase::Start, _) if foot_due => {
                Err(RecordError::unexpected(index, action, self.expected()))
            }
            (Phase::Start | Phase::MustDrawStock, Verb::Draw(n)) => self.draw(index, action, *n),
            (Phase::Start, Verb::TakePile(t)) => self.take_pile(index, action, t),
            (Phase::Play, Verb::Meld(m)) => self.meld(index, action, m),
            (Phase::Play, Verb::AskGoOut(_)) if self.turn.asked.is_none() => {
                self.turn.asked = Some(index);
                self.phase = Phase::Answer { opponents: false };
                Ok(())
            }
            (Phase::Play, Verb::AskGoOut(_)) => Err(RecordError::unexpected(
                index,
                action,
                format!("{seat} has already asked this turn: once per turn (HF-b)"),
            )),
            (Phase::Play | Phase::MustDiscard, Verb::Discard(c)) => self.discard(index, action, *c),
            _ => Err(RecordError::unexpected(index, action, self.expected())),
        }
    }

    fn view(&self) -> TableView {
        let over = self.may_end_here();
        let setup = self.setup_due().filter(|_| self.phase == Phase::Setup);
        let phase = match self.phase {
            _ if over => "over",
            Phase::Setup if setup.is_some() => setup.expect("checked").0,
            Phase::Setup | Phase::Start | Phase::MustDrawStock => "draw",
            Phase::FootDue => "foot",
            Phase::Answer { .. } => "answer",
            Phase::Play | Phase::MustDiscard | Phase::Over => "play",
        };
        let mut view = TableView::turns(
            phase,
            self.to_act(),
            self.table.seats().map(|s| (s, self.hand(s).to_vec())),
            &self.adj.match_after,
        );
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(self.details());
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_turns(self.to_act().is_empty())
    }

    fn candidates(&self) -> Vec<Action<Verb>> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Setup => {
                match self.setup_due() {
                    // Any number of cards may be pulled (22 earns the bonus).
                    Some(("pull", seats)) => seats
                        .into_iter()
                        .flat_map(|seat| {
                            (1..=u8::MAX).map(move |n| Action {
                                seat,
                                kind: Verb::Pull(n),
                            })
                        })
                        .collect(),
                    Some((_, seats)) => seats
                        .into_iter()
                        .flat_map(|seat| {
                            let card = self.red_three_held(seat).expect("a red 3 held");
                            (1..=2).map(move |stock| Action {
                                seat,
                                kind: Verb::RedThree(RedThree { card, stock }),
                            })
                        })
                        .collect(),
                    None => {
                        let mut next = self.clone();
                        next.phase = Phase::Start;
                        next.turn_candidates()
                    }
                }
            }
            _ => self.turn_candidates(),
        }
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.adj.details = details::Details::of(self.details());
        let mut error = error;
        // The stock's last card was a red 3 and the record ends after its drawer's melds (§3.5):
        // his opening, if any, is judged as at any turn's end.
        if error.is_none()
            && self.phase == Phase::Play
            && self.may_end_here()
            && let Some(v) = self.turn.opening
            && v < self.minimum
        {
            error = Some(RecordError {
                code: "opening_below_minimum",
                action_index: None,
                trick: None,
                seat: Some(self.to_move()),
                pointer: "/actions".into(),
                detail: format!(
                    "{}'s side opened with melds worth {v}: hand {} needs {} (§3.2, HF-7)",
                    self.to_move(),
                    self.hand_number,
                    self.minimum
                ),
            });
        }
        let ending = if self.may_end_here() {
            Ending::Over
        } else {
            let due = match self.phase {
                // Several seats are due at once until one is left.
                Phase::Setup => match self.setup_due() {
                    Some((_, seats)) => (seats.len() == 1).then(|| seats[0]),
                    None => Some(self.to_move()),
                },
                Phase::Answer { opponents: true } => None,
                Phase::Answer { opponents: false } => Some(self.partner(self.to_move())),
                _ => Some(self.to_move()),
            };
            Ending::Open {
                due,
                detail: format!(
                    "the record stops before the hand is over: {}",
                    self.expected()
                ),
            }
        };
        if !self.adj.unscored(error, ending) {
            self.scored();
        }
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn card_values() {
        // §1: red 3 100, joker 50, 2 and A 20, K-8 10, 7-4 and black 3 5.
        let v: Vec<u32> = cards("3H 3D JK 2C AS KD 8H 7C 4S 3S 3C")
            .into_iter()
            .map(value)
            .collect();
        assert_eq!(v, vec![100, 100, 50, 20, 20, 10, 10, 5, 5, 5, 5]);
    }

    #[test]
    fn melds_of_three_to_seven_with_few_wild_cards() {
        // §3.2: one wild card in 3-5 cards, two in 6-7; all wild allowed.
        assert!(splits(2, 1) && splits(4, 1) && !splits(3, 2));
        assert!(splits(4, 2) && splits(5, 2) && !splits(4, 3));
        assert!(splits(0, 3) && splits(0, 7) && !splits(0, 2) && !splits(8, 0));
        assert!(!splits(1, 2));
        // Nine naturals: a pile of seven, then two with a wild card.
        assert_eq!(split(9, 1), Some(vec![(7, 0), (2, 1)]));
        // Eight wild cards: a wild pile and one left, which makes no meld.
        assert_eq!(split(0, 8), None);
        assert_eq!(split(8, 0), None);
    }

    #[test]
    fn the_best_opening_counts_every_meld_a_hand_can_lay() {
        // KKK (30) + 88 with a joker (20 + 50) = 100; the black 3 and the lone 5 are left.
        let hand = cards("KS KH KD 8S 8C JK 3C 5D");
        let o = best_opening(&hand, None, false).unwrap();
        assert_eq!(o.value, 100);
        assert_eq!(o.melds.len(), 2);
        // Taking the pile with a Q on top and QQ in hand: QQQ (30) and the KKK (30) = 60.
        let hand = cards("QS QH KS KH KD 4C");
        let o = best_opening(&hand, Some(cards("QD")[0]), false).unwrap();
        assert_eq!(o.value, 60);
        assert!(o.melds[0].contains(&cards("QD")[0]));
        // One Q in hand: no pair for the top card, unless a wild card may make it (HF-2).
        let hand = cards("QS 2H 4C");
        assert!(best_opening(&hand, Some(cards("QD")[0]), false).is_none());
        assert_eq!(
            best_opening(&hand, Some(cards("QD")[0]), true)
                .unwrap()
                .value,
            40
        );
    }
}

#[cfg(test)]
mod legal {
    use crate::engine;
    use crate::record::HandRecord;
    use serde_json::{Value, json};

    /// Fixture 01 (W deals; W holds 3H) with `actions` for its actions.
    fn record(actions: Value) -> HandRecord {
        let text = include_str!("../../fixtures/hand-and-foot/01-going-out-with-every-pile.json");
        let mut v: Value = serde_json::from_str(text).unwrap();
        v["record"]["actions"] = actions;
        serde_json::from_value(v["record"].take()).unwrap()
    }

    /// Fixture 01's first `n` actions, as hand `hand_number` of the game.
    fn melds_offered(n: usize, hand_number: u32) -> Vec<Vec<String>> {
        let text = include_str!("../../fixtures/hand-and-foot/01-going-out-with-every-pile.json");
        let mut v: Value = serde_json::from_str(text).unwrap();
        v["record"]["actions"].as_array_mut().unwrap().truncate(n);
        v["record"]["match_state"] = json!({"hands_played": hand_number - 1});
        let record: HandRecord = serde_json::from_value(v["record"].take()).unwrap();
        let game = crate::games::find("hand-and-foot").unwrap();
        let view = engine::legal_actions(game, &record).unwrap();
        view.legal
            .iter()
            .filter(|a| a.kind.verb == "meld")
            .map(|a| serde_json::from_value(a.kind.value["cards"].clone()).unwrap())
            .collect()
    }

    #[test]
    fn every_meld_a_hand_can_open_with_is_offered_once() {
        // After a5 N holds KS KS KH KH KD KD KC and QS QS QH QH QD QD, no wild card; his side
        // has not opened. New melds of 3 to 7 kings: the choices of k among copies 2, 2, 2, 1
        // (coefficients of (1+x+x²)³(1+x)): 13 + 13 + 9 + 4 + 1 = 40; of 3 to 6 queens among
        // 2, 2, 2 ((1+x+x²)³): 7 + 6 + 3 + 1 = 17. Each leaves the rest to meld this turn (the
        // kings onto it, six queens: 130 in all, over 50): 57 melds, each once.
        let melds = melds_offered(6, 1);
        assert_eq!(melds.len(), 57, "{melds:?}");
        let mut distinct = melds.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 57);
        // Hand 4 needs 150 (§3.2): the hand alone melds 130, but melded away it lets him pick up
        // his foot and meld on (the J pile with JK JK 150, 9S 9H 2C 40: HF-7's 220 in fixture
        // 03), so every one of them is still offered.
        assert_eq!(melds_offered(6, 4).len(), 57);
    }

    fn due(actions: Value) -> (&'static str, Vec<String>, usize) {
        let game = crate::games::find("hand-and-foot").unwrap();
        let view = engine::legal_actions(game, &record(actions)).unwrap();
        let seats = view.to_act.iter().map(|s| s.to_string()).collect();
        (view.phase, seats, view.legal.len())
    }

    #[test]
    fn the_view_names_the_seats_yet_to_pull_then_the_red_threes_then_the_first_player() {
        // §1 names no order of pulling: every seat that has not pulled is due, each with any pull.
        assert_eq!(
            due(json!([])),
            (
                "pull",
                vec!["N".into(), "E".into(), "S".into(), "W".into()],
                4 * 255
            )
        );
        let pulls = json!([{"seat": "S", "pull": 22}, {"seat": "N", "pull": 20}]);
        assert_eq!(due(pulls), ("pull", vec!["E".into(), "W".into()], 2 * 255));
        // §2 item 3: then the red 3s dealt (W's 3H, replaced from stock 1 or 2).
        let all = json!([
            {"seat": "W", "pull": 25}, {"seat": "E", "pull": 23},
            {"seat": "S", "pull": 22}, {"seat": "N", "pull": 22}
        ]);
        assert_eq!(due(all.clone()), ("red_three", vec!["W".into()], 2));
        let mut laid = all.as_array().unwrap().clone();
        laid.push(json!({"seat": "W", "red_three": {"card": "3H", "stock": 2}}));
        let (phase, seats, _) = due(Value::Array(laid));
        assert_eq!((phase, seats), ("draw", vec!["N".to_string()]));
    }

    #[test]
    fn a_red_three_before_every_pull_is_unexpected() {
        let game = crate::games::find("hand-and-foot").unwrap();
        let a = engine::adjudicate(
            game,
            &record(json!([
                {"seat": "N", "pull": 22},
                {"seat": "W", "red_three": {"card": "3H", "stock": 2}}
            ])),
        )
        .unwrap();
        let e = a.record_error.unwrap();
        assert_eq!((e.code, e.action_index), ("unexpected_action", Some(1)));
    }
}
