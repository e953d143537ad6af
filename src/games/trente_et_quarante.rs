//! Trente et Quarante (`docs/rules/trente-et-quarante.md`): the bank against up to six punters
//! (README C15), from a shoe of six 52-card packs with a cut card. A record is one coup (TQ-f):
//! the punters bet on noir, rouge, couleur or inverse (and insure their new bets at 1 %); the
//! bank deals a black row until its total reaches 31, then a red row likewise; the lower total
//! wins, even money. Equal totals are a refait: at 32–40 every bet pushes, at 31 each new bet is
//! imprisoned or half surrendered, and an imprisoned bet waits for the next coup's result. Each
//! seat's chip balance is its score; the bank's is what the punters lost.

use crate::cards::{Card, CardCounts, Holding, Rank, packs};
use crate::details;
use crate::engine::{
    Adjudication, Effect, Ending, Event, FieldError, GameInfo, HandState, Irregularity, Locus,
    MatchState, OptionKind, OptionSpec, Options, Outcome, PerSide, RecordError, Rotation, Rules,
    ScoreSource, Seat, Table, TableView, deal,
};
use crate::record::{Action, Cards, HandRecord, Placeholder, Verbs, Yes};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub struct TrenteEtQuarante;

crate::verbs! {
    /// What a record of Trente et Quarante can say.
    pub enum Verb in "Trente et Quarante" {
        NewShoe(Yes) = "new_shoe": "The bank shuffles a new shoe, due when the last coup dealt the card behind the cut card (value `true`, TQ-e).",
        Bet(Stake) = "bet": "The seat, a punter, stakes chips on a spot: {\"kind\": \"noir\" | \"rouge\" | \"couleur\" | \"inverse\", \"amount\": <whole chips, 1 or more>}.",
        Insurance(Insure) = "insurance": "The punter insures his new bet on a spot: {\"on_bet\": <spot>, \"amount\": <chips>}, at most 1 % of that stake (TQ-c).",
        BlackRow(Cards) = "black_row": "The bank deals the black row: its cards in order, or `[]` to deal it from the recorded shoe by the rule.",
        RedRow(Cards) = "red_row": "The bank deals the red row: its cards in order, or `[]` to deal it from the recorded shoe by the rule.",
        Imprison(Choice) = "imprison": "After a refait of 31, the punter leaves his new bet imprisoned: {\"on_bet\": <spot>}.",
        SurrenderHalf(Choice) = "surrender_half": "After a refait of 31, the punter surrenders half his new bet and takes back the rest: {\"on_bet\": <spot>}.",
        Correct(Card) = "correct": "Every game's record has it; Trente et Quarante has nothing to correct, so it is always `invalid_correct` (TQ-g).",
    }
}

/// A bet as recorded: the spot and the stake are judged by the game (`bad_bet`, TQ-h), so any
/// value is read here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TrenteEtQuaranteBet)]
pub struct Stake {
    /// The spot: `noir`, `rouge`, `couleur` or `inverse`.
    pub kind: serde_json::Value,
    /// Whole chips, 1 to 100000.
    pub amount: serde_json::Value,
}

impl Placeholder for Stake {
    const PLACEHOLDER: &'static str =
        "{\"kind\": \"<noir|rouge|couleur|inverse>\", \"amount\": <chips>}";
}

/// An insurance as recorded: the spot of the new bet it insures, and its amount.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TrenteEtQuaranteInsurance)]
pub struct Insure {
    /// The spot of the punter's new bet this coup.
    pub on_bet: serde_json::Value,
    /// Whole chips, 1 or more; what passes 1 % of the stake is returned (TQ-c, TQ-i).
    pub amount: serde_json::Value,
}

impl Placeholder for Insure {
    const PLACEHOLDER: &'static str = "{\"on_bet\": \"<spot>\", \"amount\": <chips>}";
}

/// A punter's choice after a refait of 31: the spot of his new bet it concerns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TrenteEtQuaranteChoice)]
pub struct Choice {
    pub on_bet: serde_json::Value,
}

impl Placeholder for Choice {
    const PLACEHOLDER: &'static str = "{\"on_bet\": \"<spot>\"}";
}

/// The four spots of the table (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = TrenteEtQuaranteSpot)]
pub enum Spot {
    Noir,
    Rouge,
    Couleur,
    Inverse,
}

impl Spot {
    const ALL: [Spot; 4] = [Spot::Noir, Spot::Rouge, Spot::Couleur, Spot::Inverse];

    fn name(self) -> &'static str {
        match self {
            Spot::Noir => "noir",
            Spot::Rouge => "rouge",
            Spot::Couleur => "couleur",
            Spot::Inverse => "inverse",
        }
    }

    fn read(value: &serde_json::Value) -> Option<Spot> {
        let name = value.as_str()?;
        Spot::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A bet left imprisoned by a refait of 31, carried to the next coup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TrenteEtQuarantePrisoner)]
pub struct Prisoner {
    pub punter: Seat,
    pub spot: Spot,
    /// The chips on the spot (a punter's bets imprisoned on one spot add up).
    pub stake: i32,
}

/// What Trente et Quarante carries from coup to coup besides the balances (TQ-f).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TrenteEtQuaranteCarried)]
pub struct Carried {
    /// Bets imprisoned by a refait of 31 and not yet released or lost.
    #[serde(default)]
    pub imprisoned: Vec<Prisoner>,
    /// The cards dealt from the shoe in play, in order: its length is the shoe position.
    #[serde(default)]
    pub shoe_dealt: Vec<Card>,
    /// Where the cut card lies in the shoe in play: the number of cards before it.
    #[serde(default = "default_cut")]
    pub cut_card: u32,
    /// Whether the last coup dealt the card behind the cut card, so that the next coup begins with
    /// `new_shoe` (TQ-e).
    #[serde(default)]
    pub new_shoe_due: bool,
    /// Coups dealt, void ones included (TQ-f); `hands_played` counts the coups played to a result.
    #[serde(default)]
    pub coups: u32,
}

fn default_cut() -> u32 {
    DEFAULT_CUT
}

/// One row as dealt.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = TrenteEtQuaranteRow)]
pub struct Row {
    pub cards: Vec<Card>,
    pub total: u32,
    /// Stopped before 31 or continued after reaching it (TQ-j).
    pub misdeal: bool,
}

/// What became of a bet this coup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = TrenteEtQuaranteFate)]
pub enum Fate {
    /// Paid even money.
    Won,
    /// Collected by the bank.
    Lost,
    /// Returned: a refait of 32–40, or a void coup.
    Push,
    /// Imprisoned by a refait of 31 (carried to the next coup).
    Imprisoned,
    /// Half surrendered to the bank after a refait of 31, the rest returned.
    Surrendered,
    /// An imprisoned bet whose spot won: returned without payment.
    Released,
    /// An imprisoned bet that met another refait, or a void coup: still imprisoned.
    StillImprisoned,
    /// The coup is not decided (a record error, or the record stops).
    Open,
}

/// A bet on the table this coup (a punter's new bets on one spot are one stake, TQ-i), or one
/// carried imprisoned from an earlier coup.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = TrenteEtQuaranteBetReport)]
pub struct BetReport {
    pub punter: Seat,
    pub spot: Spot,
    pub stake: i32,
    /// Carried imprisoned from an earlier coup.
    pub imprisoned_before: bool,
    /// Insurance in play on this bet (after any excess returned).
    pub insurance: i32,
    /// Insurance returned as over the 1 % limit (TQ-i).
    pub insurance_returned: i32,
    pub fate: Fate,
    /// What the punter wins (+) or loses (−) on this bet and its insurance this coup.
    pub net: i32,
}

/// What Trente et Quarante adds to the adjudication.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TrenteEtQuaranteDetails)]
pub struct Details {
    /// The bank: the seat that deals (the record's dealer).
    pub bank: Seat,
    /// Whether this coup began with a new shoe.
    pub new_shoe: bool,
    pub black_row: Option<Row>,
    pub red_row: Option<Row>,
    /// The first card of the black row, whose colour decides couleur and inverse (TQ-1).
    pub first_card: Option<Card>,
    /// `noir`, `rouge`, `refait` (equal totals) or `void` (a misdeal); `null` before the red row.
    pub result: Option<&'static str>,
    /// Whether couleur won (the winning row has the first card's colour); `null` on a refait or void.
    pub couleur_wins: Option<bool>,
    pub bets: Vec<BetReport>,
    /// Cards dealt from the shoe in play after this coup.
    pub shoe_position: u32,
    pub cut_card: u32,
}

/// What the table sees: the rows so far, the bets, and the bounds of a bet (legal actions name
/// one stake of each kind; any stake within these bounds is as legal).
#[derive(Debug, Serialize)]
struct ViewDetails {
    bank: Seat,
    black_row: Option<Row>,
    red_row: Option<Row>,
    bets: Vec<BetReport>,
    /// A bet: any spot, any whole stake from `min_stake` to `max_stake`.
    min_stake: i32,
    max_stake: i32,
    shoe_position: u32,
    cut_card: u32,
    new_shoe_due: bool,
}

static INFO: GameInfo = GameInfo {
    id: "trente-et-quarante",
    name: "Trente et Quarante",
    tables: crate::engine::Tables(&[
        Table::solo(7),
        Table::solo(2),
        Table::solo(3),
        Table::solo(4),
        Table::solo(5),
        Table::solo(6),
    ]),
    deck: "312-card shoe: six 52-card packs; the dealer is the bank and deals every coup",
    // No target: the session has no end in the rules (TQ-f).
    game_target: 0,
    options: &[
        OptionSpec {
            name: "punters",
            kind: OptionKind::Choice {
                values: &["1", "2", "3", "4", "5", "6"],
                default: "6",
            },
            description: "Punters at the table beside the bank (README C15: the bank and up to six punters, seats \
                          P1..Pn, at four N E S W); the record's dealer is the bank.",
            rule: "trente-et-quarante.md §1, README C15",
        },
        OptionSpec {
            name: "surrender",
            kind: OptionKind::Choice {
                values: &["allowed", "no_surrender"],
                default: "allowed",
            },
            description: "allowed: after a refait of 31 each punter may surrender half a new bet instead of \
                          leaving it imprisoned; no_surrender: every new bet is imprisoned (`surrender_half` \
                          is unexpected_action).",
            rule: "trente-et-quarante.md §6 TQ-4",
        },
    ],
    rules: "docs/rules/trente-et-quarante.md",
    irregularities: &["misdeal", "insurance_over_limit"],
    verbs: <Verb as crate::record::Verbs>::VERBS,
    record_errors: &[
        "out_of_turn",
        "unexpected_action",
        "invalid_correct",
        "action_after_end",
        "incomplete_hand",
        "late_bet",
        "bad_bet",
        "no_such_bet",
        "shoe_mismatch",
        "shoe_exhausted",
        "reshuffle_missing",
    ],
    events: &[
        "new_shoe",
        "bet",
        "insurance",
        "black_row",
        "red_row",
        "imprison",
        "surrender_half",
        "cut_card_reached",
    ],
    score_codes: &[
        BET_WON,
        BET_LOST,
        PRISONER_LOST,
        SURRENDERED,
        INSURANCE_WON,
        INSURANCE_LOST,
    ],
    titles: crate::engine::Titles(&[
        (
            "insurance_over_limit",
            "Insurance over 1 % of its bet: the excess returned",
        ),
        ("late_bet", "Bet after the first row was dealt"),
        ("bad_bet", "Stake or spot that is no bet"),
        ("no_such_bet", "No such new bet of that punter this coup"),
        ("shoe_mismatch", "Row that is not the shoe's next cards"),
        ("shoe_exhausted", "The shoe ran out mid-row"),
        ("reshuffle_missing", "New shoe due and not shuffled"),
        ("new_shoe", "New shoe shuffled"),
        ("bet", "Bet"),
        ("insurance", "Insurance"),
        ("black_row", "Black row dealt"),
        ("red_row", "Red row dealt"),
        ("imprison", "Bet imprisoned"),
        ("surrender_half", "Half the bet surrendered"),
        ("cut_card_reached", "Cut card reached: a new shoe is due"),
        (BET_WON, "Bet won, paid even money"),
        (BET_LOST, "Bet lost to the bank"),
        (PRISONER_LOST, "Imprisoned bet lost to the bank"),
        (SURRENDERED, "Half a bet surrendered after a refait of 31"),
        (INSURANCE_WON, "Insurance won 49 to 1 on a refait of 31"),
        (INSURANCE_LOST, "Insurance lost"),
    ]),
};

const BET_WON: &str = "bet_won";
const BET_LOST: &str = "bet_lost";
const PRISONER_LOST: &str = "imprisoned_lost";
const SURRENDERED: &str = "surrendered";
const INSURANCE_WON: &str = "insurance_won";
const INSURANCE_LOST: &str = "insurance_lost";

/// §1: six 52-card packs.
const PACKS: u8 = 6;
const SHOE_SIZE: usize = 312;
/// §1: the cut card "about one pack from the end", where a record does not say.
const DEFAULT_CUT: u32 = 260;
/// A row is dealt until its total reaches 31 (§3).
const THIRTY_ONE: u32 = 31;
/// Insurance wins 49 to 1 (§3).
const INSURANCE_ODDS: i32 = 49;
/// The table maximum: chips are whole and balances must stay exact (see the doc).
const MAX_STAKE: i32 = 100_000;
/// The stake legal actions name as the example of a bet (any stake in bounds is as legal).
const EXAMPLE_STAKE: i32 = 100;

fn shoe_pack() -> crate::cards::Pack {
    packs::standard52().times(PACKS, "six 52-card packs")
}

/// §1: A = 1, court cards 10, the others their pips.
fn value(card: Card) -> u32 {
    match card.rank_unchecked() {
        Rank::Ace => 1,
        Rank::King | Rank::Queen | Rank::Jack => 10,
        r => r as u32,
    }
}

/// A row's total, and whether it was dealt by the rule: stopped at the first card that brings it
/// to 31 or more (TQ-j).
fn judge_row(cards: &[Card]) -> Row {
    let mut total = 0;
    let mut reached_at = None;
    for (i, &c) in cards.iter().enumerate() {
        total += value(c);
        if total >= THIRTY_ONE && reached_at.is_none() {
            reached_at = Some(i);
        }
    }
    Row {
        cards: cards.to_vec(),
        total,
        misdeal: reached_at != Some(cards.len().wrapping_sub(1)),
    }
}

/// The cards the rule deals from `shoe`: until the total reaches 31; `None` if it runs out first.
fn row_by_rule(shoe: &[Card]) -> Option<Vec<Card>> {
    let mut total = 0;
    for (i, &c) in shoe.iter().enumerate() {
        total += value(c);
        if total >= THIRTY_ONE {
            return Some(shoe[..=i].to_vec());
        }
    }
    None
}

impl Rules for TrenteEtQuarante {
    type Verb = Verb;
    type Details = Details;
    type Carried = Carried;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    /// README C15: the bank and the punters, each for himself.
    fn table(&self, options: &Options) -> Table {
        let punters: usize = options.choice("punters").parse().unwrap_or(6);
        Table::solo(punters + 1)
    }

    fn setup(&self, _: &Options) -> deal::Setup {
        deal::Setup {
            pack: shoe_pack(),
            // Nothing is dealt to a seat: the rows are dealt by the bank as actions.
            hand: deal::HandSize::Each(0),
            counted_by: None,
            parts: &[
                deal::Holds {
                    part: deal::Part::Shoe,
                    what: "the shoe in play, all 312 cards in order, where the record gives it",
                    count: deal::Count::Rest { at_least: 0 },
                },
                deal::Holds {
                    part: deal::Part::CutCard,
                    what: "the cut card's position in the shoe in play",
                    count: deal::Count::Rest { at_least: 0 },
                },
            ],
        }
    }

    /// TQ-f: the session has no end in the rules; no balance ends it.
    fn already_won(&self, _: &PerSide<i32>, _: &Options) -> Option<crate::engine::Decided> {
        None
    }

    /// TQ-f: the bank deals every coup.
    fn rotation(&self, _: &Options) -> Rotation {
        Rotation::Stays
    }

    fn start(
        &self,
        record: &HandRecord<Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Verb>>, Vec<FieldError>> {
        let mut errors = Vec::new();
        let Some(bank) = table.resolve(record.dealer) else {
            return Err(vec![FieldError::new(
                "/dealer".into(),
                format!(
                    "'{}' is not a seat here: expected {}",
                    record.dealer,
                    table.names()
                ),
            )]);
        };
        for seat in record.deal.keys().chain(record.players.keys()) {
            if table.resolve(*seat).is_none() {
                errors.push(FieldError::new(
                    "/deal".into(),
                    format!("no seat {seat} at this table: expected {}", table.names()),
                ));
            }
        }
        let carried: Carried = details::read(&before.details, "/match_state")?;
        errors.extend(check_carried(&carried, table, bank));
        if carried.coups < before.hands_played {
            errors.push(FieldError::new(
                "/match_state/coups".into(),
                format!(
                    "{} coups dealt cannot have played {} to a result (hands_played)",
                    carried.coups, before.hands_played
                ),
            ));
        }
        let pack = shoe_pack();
        let shoe = (!record.shoe.is_empty()).then(|| record.shoe.clone());
        if let Some(shoe) = &shoe {
            let mut counts = CardCounts::default();
            for &c in shoe {
                counts.add(c, 1);
            }
            let whole =
                shoe.len() == SHOE_SIZE && shoe.iter().all(|&c| counts.count(c) == pack.count(c));
            if !whole {
                errors.push(FieldError::new(
                    "/shoe".into(),
                    "bad_shoe: a shoe is six 52-card packs, 312 cards, six of each (TQ-j)".into(),
                ));
            } else if !carried.new_shoe_due
                && shoe[..carried.shoe_dealt.len()] != carried.shoe_dealt[..]
            {
                errors.push(FieldError::new(
                    "/shoe".into(),
                    format!(
                        "bad_shoe: the shoe in play has dealt {} cards (match_state shoe_dealt), \
                         and this shoe does not begin with them",
                        carried.shoe_dealt.len()
                    ),
                ));
            }
        }
        // The cut card of the shoe in play; a new shoe due takes the record's (TQ-e).
        let fresh = carried.new_shoe_due || carried.shoe_dealt.is_empty();
        let cut = match record.cut_card {
            Some(c) if !(1..SHOE_SIZE as u32).contains(&c) => {
                errors.push(FieldError::new(
                    "/cut_card".into(),
                    format!("bad_shoe: the cut card lies within the shoe, 1 to 311 cards before it, not {c}"),
                ));
                carried.cut_card
            }
            Some(c) if !fresh && c != carried.cut_card => {
                errors.push(FieldError::new(
                    "/cut_card".into(),
                    format!(
                        "the shoe in play has its cut card at {} (match_state cut_card); a new cut comes with a new shoe",
                        carried.cut_card
                    ),
                ));
                c
            }
            Some(c) => c,
            None if carried.new_shoe_due => DEFAULT_CUT,
            None => carried.cut_card,
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut adj = Adjudication::new(INFO.id, bank, before, 0);
        adj.tally = PerSide::over(table.sides());
        Ok(Box::new(Coup {
            table,
            bank,
            surrender: options.choice("surrender") == "allowed",
            shoe,
            dealt: carried.shoe_dealt.clone(),
            cut,
            due: carried.new_shoe_due,
            shuffled: false,
            prisoners: carried.imprisoned,
            coups: carried.coups,
            bets: Vec::new(),
            choices: Vec::new(),
            black: None,
            red: None,
            phase: Phase::Betting,
            adj,
        }))
    }
}

/// A carried state no coup can reach is refused (README C14).
fn check_carried(c: &Carried, table: Table, bank: Seat) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let at = |field: &str| format!("/match_state/{field}");
    for (i, p) in c.imprisoned.iter().enumerate() {
        let punter = table.resolve(p.punter);
        if punter.is_none() || punter == Some(bank) {
            errors.push(FieldError::new(
                at(&format!("imprisoned/{i}/punter")),
                format!(
                    "{} is no punter at this table (the bank is {bank})",
                    p.punter
                ),
            ));
        }
        if !(1..=MAX_STAKE).contains(&p.stake) {
            errors.push(FieldError::new(
                at(&format!("imprisoned/{i}/stake")),
                format!("a stake is 1 to {MAX_STAKE} whole chips"),
            ));
        }
        if c.imprisoned[..i]
            .iter()
            .any(|q| table.resolve(q.punter) == punter && q.spot == p.spot)
        {
            errors.push(FieldError::new(
                at(&format!("imprisoned/{i}")),
                "a punter's imprisoned bets on one spot are one stake: list it once".into(),
            ));
        }
    }
    let pack = shoe_pack();
    let mut counts = CardCounts::default();
    for (i, &card) in c.shoe_dealt.iter().enumerate() {
        counts.add(card, 1);
        if counts.count(card) > pack.count(card) {
            errors.push(FieldError::new(
                at(&format!("shoe_dealt/{i}")),
                format!("bad_shoe: {card} is not in the six packs, or dealt more than six times"),
            ));
        }
    }
    if !(1..SHOE_SIZE as u32).contains(&c.cut_card) {
        errors.push(FieldError::new(
            at("cut_card"),
            "the cut card lies 1 to 311 cards into the shoe".into(),
        ));
    }
    if c.new_shoe_due != (c.shoe_dealt.len() as u32 > c.cut_card) {
        errors.push(FieldError::new(
            at("new_shoe_due"),
            format!(
                "a new shoe is due exactly when the card behind the cut card ({}) was dealt: {} cards were",
                c.cut_card,
                c.shoe_dealt.len()
            ),
        ));
    }
    errors
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Bets, insurance and the shuffle, until the black row.
    Betting,
    /// Between the rows: the bank deals the red row.
    Rows,
    /// After a refait of 31: the punters' choices (TQ-g).
    Choices,
    Over,
}

/// A punter's new bet on one spot this coup (his bets there add up, TQ-i).
#[derive(Clone, Debug)]
struct NewBet {
    punter: Seat,
    spot: Spot,
    stake: i32,
    insurance: i32,
    returned: i32,
}

#[derive(Clone)]
struct Coup {
    table: Table,
    bank: Seat,
    surrender: bool,
    /// The recorded shoe in play, if the record gives it.
    shoe: Option<Vec<Card>>,
    /// Cards dealt from the shoe in play, this coup's included.
    dealt: Vec<Card>,
    cut: u32,
    /// A new shoe was due when the coup began, and `shuffled` once the bank did.
    due: bool,
    shuffled: bool,
    prisoners: Vec<Prisoner>,
    /// Coups dealt before this one.
    coups: u32,
    bets: Vec<NewBet>,
    /// Choices after a refait of 31: bet index, surrendered.
    choices: Vec<(usize, bool)>,
    black: Option<Row>,
    red: Option<Row>,
    phase: Phase,
    adj: Adjudication,
}

impl Coup {
    fn punters(&self) -> impl Iterator<Item = Seat> + '_ {
        self.table.seats().filter(move |&s| s != self.bank)
    }

    /// A whole positive stake within the table maximum (TQ-h).
    fn amount(
        index: usize,
        action: &Action<Verb>,
        field: &str,
        value: &serde_json::Value,
    ) -> Result<i32, RecordError> {
        value
            .as_i64()
            .filter(|n| (1..=MAX_STAKE as i64).contains(n))
            .map(|n| n as i32)
            .ok_or_else(|| {
                RecordError::at(
                    "bad_bet",
                    index,
                    action.seat,
                    format!("{}/{field}", action.kind.verb()),
                    format!("{value} is no stake: whole chips, 1 to {MAX_STAKE} (TQ-h)"),
                )
            })
    }

    fn new_bet(&self, punter: Seat, spot: Spot) -> Option<usize> {
        self.bets
            .iter()
            .position(|b| b.punter == punter && b.spot == spot)
    }

    fn bet(&mut self, index: usize, action: &Action<Verb>, b: &Stake) -> Result<(), RecordError> {
        let spot = Spot::read(&b.kind).ok_or_else(|| {
            RecordError::at(
                "bad_bet",
                index,
                action.seat,
                "bet/kind",
                format!(
                    "{} is no spot: noir, rouge, couleur or inverse (TQ-h)",
                    b.kind
                ),
            )
        })?;
        let amount = Self::amount(index, action, "amount", &b.amount)?;
        let punter = action.seat;
        match self.new_bet(punter, spot) {
            Some(i) if self.bets[i].stake + amount > MAX_STAKE => {
                return Err(RecordError::at(
                    "bad_bet",
                    index,
                    punter,
                    "bet/amount",
                    format!(
                        "{punter}'s stake on {} would pass the table maximum of {MAX_STAKE}",
                        spot.name()
                    ),
                ));
            }
            Some(i) => self.bets[i].stake += amount,
            None => self.bets.push(NewBet {
                punter,
                spot,
                stake: amount,
                insurance: 0,
                returned: 0,
            }),
        }
        self.adj.events.push(Event::new(
            "bet",
            index,
            punter,
            Vec::new(),
            format!("{punter} bets {amount} on {}", spot.name()),
        ));
        Ok(())
    }

    fn insure(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        ins: &Insure,
    ) -> Result<(), RecordError> {
        let punter = action.seat;
        let amount = Self::amount(index, action, "amount", &ins.amount)?;
        let Some(i) = Spot::read(&ins.on_bet).and_then(|s| self.new_bet(punter, s)) else {
            return Err(RecordError::at(
                "no_such_bet",
                index,
                punter,
                "insurance/on_bet",
                format!(
                    "{punter} has no new bet on {} this coup to insure (TQ-c, TQ-h)",
                    ins.on_bet
                ),
            ));
        };
        // TQ-c, TQ-i: at most stake / 100 (rounded down) over all insurance on that stake.
        let bet = &self.bets[i];
        let limit = bet.stake / 100;
        let room = (limit - bet.insurance).max(0);
        let excess = (amount - room).max(0);
        let (spot, stake) = (bet.spot, bet.stake);
        self.bets[i].insurance += amount - excess;
        self.bets[i].returned += excess;
        self.adj.events.push(Event::new(
            "insurance",
            index,
            punter,
            Vec::new(),
            format!(
                "{punter} insures his {stake} on {} for {amount}",
                spot.name()
            ),
        ));
        if excess > 0 {
            self.adj.irregularities.push(Irregularity {
                code: "insurance_over_limit",
                action_index: Some(index),
                trick: None,
                seat: punter,
                card: None,
                rule: "trente-et-quarante.md §3, §5, TQ-c, TQ-i",
                explanation: format!(
                    "{punter} insures {amount} on his {stake} on {}: the limit is 1 % of the stake, {limit}, of which {} was insured before",
                    spot.name(),
                    limit - room
                ),
                consequence: format!(
                    "DEFAULT (text silent): the excess of {excess} is returned before settlement; {} stays in play (§5)",
                    amount - excess
                ),
                effect: Effect::default(),
            });
        }
        Ok(())
    }

    /// Deals a row (TQ-j): the cards given, checked against a recorded shoe, or the rule's cards
    /// from it; a faulty row is a misdeal.
    /// The next row the rule deals (§3): from the recorded shoe; without one, from the cards of
    /// the six packs not yet dealt, in the cards' order (the record states its own). From a new shoe's
    /// start while one is due.
    fn rule_row(&self) -> Option<Vec<Card>> {
        let fresh = self.due && !self.shuffled;
        match &self.shoe {
            Some(shoe) => row_by_rule(shoe.get(if fresh { 0 } else { self.dealt.len() }..)?),
            None => {
                let mut left = CardCounts::repeat(shoe_pack().cards, PACKS);
                if !fresh {
                    for &c in &self.dealt {
                        left.remove(c);
                    }
                }
                row_by_rule(&left.iter().collect::<Vec<_>>())
            }
        }
    }

    fn row(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        given: &[Card],
        black: bool,
    ) -> Result<Row, RecordError> {
        let seat = action.seat;
        let verb = if black { "black_row" } else { "red_row" };
        let from = self.dealt.len();
        let cards = match (&self.shoe, given.is_empty()) {
            (Some(shoe), true) => row_by_rule(&shoe[from..]).ok_or_else(|| {
                RecordError::on(
                    "shoe_exhausted",
                    index,
                    action,
                    format!("the shoe runs out before the {verb} reaches 31 (TQ-j)"),
                )
            })?,
            (None, true) => {
                return Err(RecordError::unexpected(
                    index,
                    action,
                    "without a recorded shoe a row names its cards".into(),
                ));
            }
            (shoe, false) => {
                let pack = shoe_pack();
                let mut counts = CardCounts::default();
                for &c in &self.dealt {
                    counts.add(c, 1);
                }
                for (j, &c) in given.iter().enumerate() {
                    let at = from + j;
                    let fault = match shoe {
                        _ if at >= SHOE_SIZE => Some((
                            "shoe_exhausted",
                            format!("the shoe's {SHOE_SIZE} cards are all dealt (TQ-j)"),
                        )),
                        Some(shoe) if shoe[at] != c => Some((
                            "shoe_mismatch",
                            format!(
                                "card {} of the shoe is {}, not {c} (TQ-j)",
                                at + 1,
                                shoe[at]
                            ),
                        )),
                        _ => {
                            counts.add(c, 1);
                            (counts.count(c) > pack.count(c)).then(|| {
                                (
                                    "shoe_mismatch",
                                    format!("{c} is not a card of the six packs, or a seventh {c} from one shoe (TQ-e)"),
                                )
                            })
                        }
                    };
                    if let Some((code, detail)) = fault {
                        return Err(RecordError::at(
                            code,
                            index,
                            seat,
                            format!("{verb}/{j}"),
                            detail,
                        ));
                    }
                }
                given.to_vec()
            }
        };
        self.dealt.extend_from_slice(&cards);
        let row = judge_row(&cards);
        let name = if black { "black" } else { "red" };
        self.adj.events.push(Event::new(
            verb,
            index,
            seat,
            cards.clone(),
            format!("{seat} deals the {name} row: {}", row.total),
        ));
        if row.misdeal {
            let how = if row.total < THIRTY_ONE {
                format!("stopped at {} before reaching 31", row.total)
            } else {
                "continued after reaching 31".to_string()
            };
            self.adj.irregularities.push(Irregularity {
                code: "misdeal",
                action_index: Some(index),
                trick: None,
                seat,
                card: None,
                rule: "trente-et-quarante.md §3, §5, TQ-b, TQ-j",
                explanation: format!("the {name} row was {how} (a row is dealt until its total reaches 31)"),
                consequence: "DEFAULT (text silent): the coup is void; the bets and insurances of this coup are returned, \
                              imprisoned bets stay imprisoned, and the cards dealt are spent (§5, TQ-b, TQ-j)"
                    .into(),
                effect: Effect::default(),
            });
        }
        Ok(row)
    }

    /// After the red row: the coup's result, and whether choices are due (TQ-g).
    fn after_rows(&mut self) {
        if self.dealt.len() as u32 > self.cut {
            let at = self.adj.events.last().and_then(|e| e.action_index);
            self.adj.events.push(Event::new("cut_card_reached", at, self.bank, Vec::new(), format!(
                    "the card behind the cut card ({}) was dealt: the coup is finished, then a new shoe (TQ-3, TQ-e)",
                    self.cut
                )));
        }
        self.phase = match self.refait() {
            Some(THIRTY_ONE) if !self.void() && !self.bets.is_empty() => Phase::Choices,
            _ => Phase::Over,
        };
    }

    fn void(&self) -> bool {
        self.black.as_ref().is_some_and(|r| r.misdeal)
            || self.red.as_ref().is_some_and(|r| r.misdeal)
    }

    /// Equal totals: the refait's total.
    fn refait(&self) -> Option<u32> {
        match (&self.black, &self.red) {
            (Some(b), Some(r)) if b.total == r.total => Some(b.total),
            _ => None,
        }
    }

    /// The winning spots when the coup is decided: (noir won, couleur won).
    fn result(&self) -> Option<(bool, bool)> {
        let (b, r) = (self.black.as_ref()?, self.red.as_ref()?);
        if self.void() || b.total == r.total {
            return None;
        }
        let noir = b.total < r.total;
        // TQ-1: couleur wins when the winning row has the colour of the black row's first card.
        let first_black = !b.cards[0].suit_unchecked().is_red();
        Some((noir, noir == first_black))
    }

    fn choose(
        &mut self,
        index: usize,
        action: &Action<Verb>,
        c: &Choice,
        surrender: bool,
    ) -> Result<(), RecordError> {
        let punter = action.seat;
        let verb = if surrender {
            "surrender_half"
        } else {
            "imprison"
        };
        let Some(i) = Spot::read(&c.on_bet).and_then(|s| self.new_bet(punter, s)) else {
            return Err(RecordError::at(
                "no_such_bet",
                index,
                punter,
                format!("{verb}/on_bet"),
                format!(
                    "{punter} has no new bet on {} this coup: only new bets are imprisoned or surrendered (TQ-g)",
                    c.on_bet
                ),
            ));
        };
        if surrender && !self.surrender {
            return Err(RecordError::unexpected(
                index,
                action,
                "under no_surrender every new bet is imprisoned (TQ-4)".into(),
            ));
        }
        if self.choices.iter().any(|&(b, _)| b == i) {
            return Err(RecordError::unexpected(
                index,
                action,
                format!(
                    "{punter} has already chosen for his bet on {} (TQ-g)",
                    self.bets[i].spot.name()
                ),
            ));
        }
        self.choices.push((i, surrender));
        let spot = self.bets[i].spot.name();
        let what = if surrender {
            "surrenders half his bet on"
        } else {
            "leaves imprisoned his bet on"
        };
        self.adj.events.push(Event::new(
            verb,
            index,
            punter,
            Vec::new(),
            format!("{punter} {what} {spot}"),
        ));
        if self.choices.len() == self.bets.len() {
            self.phase = Phase::Over;
        }
        Ok(())
    }

    fn surrendered(&self, bet: usize) -> bool {
        self.choices.iter().any(|&(b, s)| b == bet && s)
    }

    /// §4: settles the coup between the bank and each punter.
    fn settle(&mut self) -> (Vec<BetReport>, Vec<Prisoner>) {
        let mut reports = Vec::new();
        let mut prisoners = Vec::new();
        let mut payments: Vec<(Seat, i32, &'static str)> = Vec::new();
        let decided = self.result();
        let refait = if self.void() { None } else { self.refait() };
        let wins = |spot: Spot, (noir, couleur): (bool, bool)| match spot {
            Spot::Noir => noir,
            Spot::Rouge => !noir,
            Spot::Couleur => couleur,
            Spot::Inverse => !couleur,
        };
        for p in &self.prisoners {
            let fate = match decided {
                Some(r) if wins(p.spot, r) => Fate::Released,
                Some(_) => {
                    payments.push((p.punter, -p.stake, PRISONER_LOST));
                    Fate::Lost
                }
                // TQ-2, TQ-d, TQ-b: another refait or a void coup leaves it imprisoned.
                None => {
                    prisoners.push(p.clone());
                    Fate::StillImprisoned
                }
            };
            reports.push(BetReport {
                punter: p.punter,
                spot: p.spot,
                stake: p.stake,
                imprisoned_before: true,
                insurance: 0,
                insurance_returned: 0,
                net: if fate == Fate::Lost { -p.stake } else { 0 },
                fate,
            });
        }
        for (i, b) in self.bets.iter().enumerate() {
            let mut net = 0;
            let fate = match (decided, refait) {
                (Some(r), _) => {
                    let won = wins(b.spot, r);
                    let (x, code) = if won {
                        (b.stake, BET_WON)
                    } else {
                        (-b.stake, BET_LOST)
                    };
                    payments.push((b.punter, x, code));
                    net += x;
                    if b.insurance > 0 {
                        payments.push((b.punter, -b.insurance, INSURANCE_LOST));
                        net -= b.insurance;
                    }
                    if won { Fate::Won } else { Fate::Lost }
                }
                (None, Some(THIRTY_ONE)) => {
                    // TQ-i: the insurance wins whatever the choice.
                    if b.insurance > 0 {
                        payments.push((b.punter, INSURANCE_ODDS * b.insurance, INSURANCE_WON));
                        net += INSURANCE_ODDS * b.insurance;
                    }
                    if self.surrendered(i) {
                        // TQ-c: an odd stake returns half rounded down.
                        let lost = b.stake - b.stake / 2;
                        payments.push((b.punter, -lost, SURRENDERED));
                        net -= lost;
                        Fate::Surrendered
                    } else {
                        match prisoners
                            .iter_mut()
                            .find(|p| p.punter == b.punter && p.spot == b.spot)
                        {
                            Some(p) => p.stake += b.stake,
                            None => prisoners.push(Prisoner {
                                punter: b.punter,
                                spot: b.spot,
                                stake: b.stake,
                            }),
                        }
                        Fate::Imprisoned
                    }
                }
                // A refait of 32–40 or a void coup: bets and insurance returned.
                _ => Fate::Push,
            };
            reports.push(BetReport {
                punter: b.punter,
                spot: b.spot,
                stake: b.stake,
                imprisoned_before: false,
                insurance: b.insurance,
                insurance_returned: b.returned,
                fate,
                net,
            });
        }
        let bank = self.table.side(self.bank);
        for (punter, x, code) in payments {
            self.adj
                .score(self.table.side(punter), x, ScoreSource::Tricks, code, None);
            self.adj.score(bank, -x, ScoreSource::Tricks, code, None);
        }
        (reports, prisoners)
    }

    fn open_reports(&self) -> Vec<BetReport> {
        let carried = self.prisoners.iter().map(|p| BetReport {
            punter: p.punter,
            spot: p.spot,
            stake: p.stake,
            imprisoned_before: true,
            insurance: 0,
            insurance_returned: 0,
            fate: Fate::Open,
            net: 0,
        });
        let new = self.bets.iter().map(|b| BetReport {
            punter: b.punter,
            spot: b.spot,
            stake: b.stake,
            imprisoned_before: false,
            insurance: b.insurance,
            insurance_returned: b.returned,
            fate: Fate::Open,
            net: 0,
        });
        carried.chain(new).collect()
    }

    fn due_seats(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Betting => {
                let mut seats = vec![self.bank];
                seats.extend(self.punters());
                seats
            }
            Phase::Rows => vec![self.bank],
            Phase::Choices => {
                let mut seats: Vec<Seat> = Vec::new();
                for (i, b) in self.bets.iter().enumerate() {
                    if !self.choices.iter().any(|&(c, _)| c == i) && !seats.contains(&b.punter) {
                        seats.push(b.punter);
                    }
                }
                seats
            }
            Phase::Over => Vec::new(),
        }
    }
}

impl HandState<Verb> for Coup {
    fn apply(&mut self, index: usize, action: &Action<Verb>) -> Result<(), RecordError> {
        let seat = action.seat;
        let bank = self.bank;
        if self.phase == Phase::Over {
            return Err(RecordError::after_end(
                index,
                action,
                "the coup is over (TQ-g)",
            ));
        }
        if let Verb::Correct(_) = action.kind {
            return Err(RecordError::on(
                "invalid_correct",
                index,
                action,
                "Trente et Quarante has nothing to correct (TQ-g)".into(),
            ));
        }
        let by_bank = matches!(
            action.kind,
            Verb::NewShoe(_) | Verb::BlackRow(_) | Verb::RedRow(_)
        );
        if by_bank != (seat == bank) {
            let who = if by_bank {
                format!("the bank, {bank}, deals and shuffles")
            } else {
                format!("the punters bet, insure and choose; {bank} is the bank")
            };
            return Err(RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("{who} (TQ-h)"),
            ));
        }
        match (&action.kind, self.phase) {
            (Verb::NewShoe(_), Phase::Betting) if self.due && !self.shuffled => {
                self.shuffled = true;
                self.dealt.clear();
                self.adj.events.push(Event::new(
                    "new_shoe",
                    index,
                    seat,
                    Vec::new(),
                    format!("{seat} shuffles a new shoe; cut card at {}", self.cut),
                ));
            }
            (Verb::NewShoe(_), _) => {
                return Err(RecordError::unexpected(
                    index,
                    action,
                    "a new shoe is due only before the first row of the coup after the cut card was reached (TQ-e, TQ-h)".into(),
                ));
            }
            (Verb::BlackRow(cards), Phase::Betting) => {
                if self.due && !self.shuffled {
                    return Err(RecordError::on(
                        "reshuffle_missing",
                        index,
                        action,
                        "the last coup reached the cut card: the record has a new_shoe before the rows (TQ-e)".into(),
                    ));
                }
                let row = self.row(index, action, &cards.0, true)?;
                self.black = Some(row);
                self.phase = Phase::Rows;
            }
            (Verb::RedRow(cards), Phase::Rows) => {
                let row = self.row(index, action, &cards.0, false)?;
                self.red = Some(row);
                self.after_rows();
            }
            (Verb::BlackRow(_) | Verb::RedRow(_), _) => {
                return Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    "the black row is dealt once, then the red row (TQ-h)".into(),
                ));
            }
            (Verb::Bet(b), Phase::Betting) => self.bet(index, action, b)?,
            (Verb::Insurance(i), Phase::Betting) => self.insure(index, action, i)?,
            (Verb::Bet(_) | Verb::Insurance(_), _) => {
                return Err(RecordError::on(
                    "late_bet",
                    index,
                    action,
                    "bets and insurance are made before the first row is dealt (TQ-a)".into(),
                ));
            }
            (Verb::Imprison(c), Phase::Choices) => self.choose(index, action, c, false)?,
            (Verb::SurrenderHalf(c), Phase::Choices) => self.choose(index, action, c, true)?,
            (Verb::Imprison(_) | Verb::SurrenderHalf(_), Phase::Rows) => {
                return Err(RecordError::on(
                    "out_of_turn",
                    index,
                    action,
                    "between the rows only the bank acts (TQ-h)".into(),
                ));
            }
            (Verb::Imprison(_) | Verb::SurrenderHalf(_), _) => {
                return Err(RecordError::unexpected(
                    index,
                    action,
                    "a choice follows a refait of 31 only (TQ-g)".into(),
                ));
            }
            (Verb::Correct(_), _) => unreachable!("refused above"),
        }
        Ok(())
    }

    fn view(&self) -> TableView {
        let phase = match self.phase {
            Phase::Betting => "betting",
            Phase::Rows => "red_row",
            Phase::Choices => "choices",
            Phase::Over => "over",
        };
        let mut view = TableView::turns(
            phase,
            self.due_seats(),
            self.table.seats().map(|s| (s, Vec::new())),
            &self.adj.match_after,
        );
        view.tally = self.adj.tally.clone();
        view.irregularities = self.adj.irregularities.clone();
        view.details = details::Details::of(ViewDetails {
            bank: self.bank,
            black_row: self.black.clone(),
            red_row: self.red.clone(),
            bets: self.open_reports(),
            min_stake: 1,
            max_stake: MAX_STAKE,
            shoe_position: self.dealt.len() as u32,
            cut_card: self.cut,
            new_shoe_due: self.due && !self.shuffled,
        });
        view
    }

    fn locus(&self) -> Locus {
        Locus::of_turns(self.due_seats().is_empty())
    }

    /// A bet of any stake stands for the bet of `EXAMPLE_STAKE` on its spot that the legal
    /// actions name (any stake within the view's bounds is as legal); without a recorded shoe, a
    /// row's cards are data the record states, and it stands for the row offered (`rule_row`).
    fn offered_as(&self, action: Action<Verb>) -> Action<Verb> {
        let seat = action.seat;
        let dealt = |row: fn(Cards) -> Verb, cards: Cards| {
            let cards = match (&self.shoe, self.rule_row()) {
                (None, Some(offered)) if !cards.0.is_empty() => Cards(offered),
                _ => cards,
            };
            Action {
                seat,
                kind: row(cards),
            }
        };
        match action.kind {
            Verb::Bet(Stake { kind, .. }) => Action {
                seat,
                kind: Verb::Bet(Stake {
                    kind,
                    amount: EXAMPLE_STAKE.into(),
                }),
            },
            Verb::BlackRow(cards) => dealt(Verb::BlackRow, cards),
            Verb::RedRow(cards) => dealt(Verb::RedRow, cards),
            kind => Action { kind, ..action },
        }
    }

    /// One action of each kind, as the view's bounds describe: a bet of 100 on each spot by each
    /// punter (any stake within the bounds is as legal), every insurance within each new bet's
    /// limit, the shuffle when due, the rows the rule deals from a recorded shoe, and each choice
    /// after a refait of 31.
    fn candidates(&self) -> Vec<Action<Verb>> {
        let mut out = Vec::new();
        let spot = |s: Spot| serde_json::Value::from(s.name());
        // The row the rule deals, named or left to a recorded shoe (`[]`).
        let by_rule = |row: fn(Cards) -> Verb| {
            self.rule_row()
                .into_iter()
                .flat_map(move |cards| [row(Cards(cards)), row(Cards(Vec::new()))])
                .map(|kind| Action {
                    seat: self.bank,
                    kind,
                })
        };
        match self.phase {
            Phase::Betting => {
                if self.due && !self.shuffled {
                    out.push(Action {
                        seat: self.bank,
                        kind: Verb::NewShoe(Yes),
                    });
                }
                out.extend(by_rule(Verb::BlackRow));
                for p in self.punters() {
                    for s in Spot::ALL {
                        out.push(Action {
                            seat: p,
                            kind: Verb::Bet(Stake {
                                kind: spot(s),
                                amount: EXAMPLE_STAKE.into(),
                            }),
                        });
                    }
                }
                for b in &self.bets {
                    // Every insurance within the limit: a stake's insurance has few values.
                    for amount in 1..=b.stake / 100 - b.insurance {
                        out.push(Action {
                            seat: b.punter,
                            kind: Verb::Insurance(Insure {
                                on_bet: spot(b.spot),
                                amount: amount.into(),
                            }),
                        });
                    }
                }
            }
            Phase::Rows => out.extend(by_rule(Verb::RedRow)),
            Phase::Choices => {
                for b in &self.bets {
                    let on = || Choice {
                        on_bet: spot(b.spot),
                    };
                    out.push(Action {
                        seat: b.punter,
                        kind: Verb::Imprison(on()),
                    });
                    out.push(Action {
                        seat: b.punter,
                        kind: Verb::SurrenderHalf(on()),
                    });
                }
            }
            Phase::Over => {}
        }
        out
    }

    fn faulted(&self, index: usize) -> bool {
        self.adj.faulted(index)
    }

    fn finish(mut self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        let ending = match self.phase {
            // TQ-g: after a refait of 31 the coup ends at the record's end; a bet without a
            // choice stays imprisoned.
            Phase::Choices | Phase::Over => Ending::Over,
            Phase::Betting | Phase::Rows => Ending::Open {
                due: Some(self.bank),
                detail: format!(
                    "the record stops before the {} row is dealt (TQ-g)",
                    if self.phase == Phase::Betting {
                        "black"
                    } else {
                        "red"
                    }
                ),
            },
        };
        let mut bets = self.open_reports();
        if !self.adj.unscored(error, ending) {
            let (reports, prisoners) = self.settle();
            bets = reports;
            if self.void() {
                // No payment; the coup counts in `coups`, not among the hands played to a result.
                self.adj.outcome = Outcome::Misdeal;
                self.adj.hand_score = Some(self.adj.total());
            } else {
                self.adj.settle();
            }
            let m = &mut self.adj.match_after;
            m.next_dealer = Some(self.bank);
            m.details = details::Details::of(Carried {
                imprisoned: prisoners,
                shoe_dealt: self.dealt.clone(),
                cut_card: self.cut,
                new_shoe_due: self.dealt.len() as u32 > self.cut,
                coups: self.coups + 1,
            });
        }
        let result = match (&self.black, &self.red, self.result()) {
            (_, _, Some((true, _))) => Some("noir"),
            (_, _, Some((false, _))) => Some("rouge"),
            (Some(_), Some(_), None) if self.void() => Some("void"),
            (Some(_), Some(_), None) => Some("refait"),
            _ => None,
        };
        self.adj.details = details::Details::of(Details {
            bank: self.bank,
            new_shoe: self.shuffled,
            first_card: self.black.as_ref().and_then(|r| r.cards.first().copied()),
            couleur_wins: self.result().map(|(_, c)| c),
            result,
            black_row: self.black.clone(),
            red_row: self.red.clone(),
            bets,
            shoe_position: self.dealt.len() as u32,
            cut_card: self.cut,
        });
        self.adj
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, adjudicate};

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(card).collect()
    }

    #[test]
    fn rows_are_judged_by_the_rule() {
        // KS QS 9S 2S = 31, dealt by the rule.
        let r = judge_row(&cards("KS QS 9S 2S"));
        assert_eq!((r.total, r.misdeal), (31, false));
        // Stopped at 29: a misdeal.
        assert!(judge_row(&cards("KS QS 9S")).misdeal);
        // Continued after 31: a misdeal.
        assert!(judge_row(&cards("KS QS 9S 2S AS")).misdeal);
        // 40 reached by the last card: fine.
        let r = judge_row(&cards("KS QS 9S TS"));
        assert_eq!((r.total, r.misdeal), (39, false));
        assert_eq!(
            row_by_rule(&cards("KS QS 9S 2S AS")),
            Some(cards("KS QS 9S 2S"))
        );
        assert_eq!(row_by_rule(&cards("KS QS")), None);
    }

    fn coup(actions: serde_json::Value, state: Option<serde_json::Value>) -> Adjudication {
        let mut record = serde_json::json!({
            "game": "trente-et-quarante",
            "options": {"punters": "2"},
            "dealer": "P1",
            "deal": {},
            "actions": actions,
        });
        if let Some(s) = state {
            record["match_state"] = s;
        }
        let record = serde_json::from_value(record).unwrap();
        adjudicate(&TrenteEtQuarante as &dyn Game, &record).unwrap()
    }

    fn balances(a: &Adjudication) -> Vec<i32> {
        let h = a.hand_score.as_ref().expect("scored");
        h.sides().map(|s| h[s]).collect()
    }

    /// The same bets and black row KS QS 9S 2S (31) against the red row `red`.
    fn against(red: &[&str]) -> Adjudication {
        coup(
            serde_json::json!([
                {"seat": "P2", "bet": {"kind": "noir", "amount": 100}},
                {"seat": "P3", "bet": {"kind": "inverse", "amount": 50}},
                {"seat": "P3", "bet": {"kind": "rouge", "amount": 20}},
                {"seat": "P1", "black_row": ["KS", "QS", "9S", "2S"]},
                {"seat": "P1", "red_row": red},
            ]),
            None,
        )
    }

    #[test]
    fn a_coup_pays_even_money_and_adds_up_to_zero() {
        // Red KH QH TH AH = 31 too: a refait of 31; no choice given, so the three bets are
        // imprisoned and nothing is paid.
        let a = against(&["KH", "QH", "TH", "AH"]);
        assert_eq!(a.record_error.as_ref().map(|e| e.code), None);
        assert_eq!(balances(&a), vec![0, 0, 0]);
        let carried: Carried = details::read(&a.match_after.details, "").unwrap();
        assert_eq!(carried.imprisoned.len(), 3);
        // The red row stopped at 30: a misdeal, every bet returned.
        let a = against(&["KH", "QH", "TH"]);
        assert_eq!(a.outcome, Outcome::Misdeal);
        assert_eq!(balances(&a), vec![0, 0, 0]);
        // Black 31 < red 32: noir wins; the first card KS is black, so couleur wins and inverse
        // loses. P2 +100; P3 −50 −20; the bank −100 + 70.
        let a = against(&["KH", "QH", "TH", "2H"]);
        assert_eq!(balances(&a), vec![-30, 100, -70]);
    }

    /// Without a recorded shoe each row is still offered (the record states its own cards): the
    /// row the rule deals (§3) from the cards not yet dealt, never `[]`, which needs a shoe.
    #[test]
    fn rows_are_offered_without_a_recorded_shoe() {
        let offered_rows = |actions: serde_json::Value, verb: &str| {
            let record = serde_json::from_value(serde_json::json!({
                "game": "trente-et-quarante",
                "options": {"punters": "2"},
                "dealer": "P1",
                "deal": {},
                "actions": actions,
            }))
            .unwrap();
            crate::engine::legal_actions(&TrenteEtQuarante as &dyn Game, &record)
                .unwrap()
                .legal
                .into_iter()
                .filter_map(|a| a.kind.of::<Vec<Card>>(verb))
                .collect::<Vec<_>>()
        };
        let bet = serde_json::json!([{"seat": "P2", "bet": {"kind": "noir", "amount": 100}}]);
        let black = offered_rows(bet.clone(), "black_row");
        assert_eq!(black.len(), 1, "{black:?}");
        let row = judge_row(&black[0]);
        assert!(!row.misdeal && (31..=40).contains(&row.total), "{black:?}");
        let mut dealt = bet;
        dealt
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"seat": "P1", "black_row": black[0]}));
        let red = offered_rows(dealt, "red_row");
        assert_eq!(red.len(), 1, "{red:?}");
        assert!(!judge_row(&red[0]).misdeal, "{red:?}");
    }

    /// A small deterministic generator for random coups.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as usize
        }
    }

    /// §4: every coup's payments add up to zero between the bank and the punters, over a session
    /// of random coups from one random shoe and the next (imprisonment, surrender, insurance, the
    /// cut card and the new shoe included), and the balances with them.
    #[test]
    fn every_coup_adds_up_to_zero_between_bank_and_punters() {
        let pack = shoe_pack();
        let mut rng = Lcg(7);
        let shoe = || {
            let mut cards: Vec<Card> = pack
                .cards
                .iter()
                .flat_map(|c| std::iter::repeat_n(c, 6))
                .collect();
            for i in (1..cards.len()).rev() {
                let j = Lcg(i as u64 * 977 + cards.len() as u64).below(i + 1);
                cards.swap(i, j);
            }
            cards
        };
        let mut current = shoe();
        let mut state: Option<serde_json::Value> = None;
        let (mut refaits, mut shoes, mut coups) = (0, 0, 0);
        for _ in 0..400 {
            let due = state
                .as_ref()
                .is_some_and(|s| s["new_shoe_due"] == serde_json::json!(true));
            let mut actions = Vec::new();
            if due {
                current.rotate_left(rng.below(300) + 1);
                actions.push(serde_json::json!({"seat": "P1", "new_shoe": true}));
                shoes += 1;
            }
            for _ in 0..rng.below(6) {
                let punter = ["P2", "P3", "P4"][rng.below(3)];
                let spot = Spot::ALL[rng.below(4)].name();
                let amount = rng.below(400) + 1;
                actions.push(
                    serde_json::json!({"seat": punter, "bet": {"kind": spot, "amount": amount}}),
                );
                if rng.below(2) == 0 {
                    let insured = rng.below(5) + 1;
                    actions.push(serde_json::json!({"seat": punter, "insurance": {"on_bet": spot, "amount": insured}}));
                }
            }
            actions.push(serde_json::json!({"seat": "P1", "black_row": []}));
            actions.push(serde_json::json!({"seat": "P1", "red_row": []}));
            let mut record = serde_json::json!({
                "game": "trente-et-quarante", "options": {"punters": "3"}, "dealer": "P1",
                "deal": {}, "shoe": current, "cut_card": 200, "actions": actions,
            });
            if let Some(s) = &state {
                record["match_state"] = s.clone();
            }
            let parsed = serde_json::from_value(record.clone()).unwrap();
            let mut a = adjudicate(&TrenteEtQuarante as &dyn Game, &parsed).unwrap();
            let details = serde_json::to_value(&a.details).unwrap();
            if details["result"] == "refait" && details["black_row"]["total"] == 31 {
                refaits += 1;
                // Choose for each new bet at random (unchosen ones stay imprisoned).
                let mut actions = record["actions"].as_array().unwrap().clone();
                for b in details["bets"].as_array().unwrap() {
                    if b["imprisoned_before"] == false && rng.below(3) > 0 {
                        let verb = ["imprison", "surrender_half"][rng.below(2)];
                        actions.push(
                            serde_json::json!({"seat": b["punter"], verb: {"on_bet": b["spot"]}}),
                        );
                    }
                }
                record["actions"] = actions.into();
                let parsed = serde_json::from_value(record).unwrap();
                a = adjudicate(&TrenteEtQuarante as &dyn Game, &parsed).unwrap();
            }
            assert!(a.record_error.is_none(), "{:?}", a.record_error);
            let score = a.hand_score.as_ref().unwrap();
            assert_eq!(score.sides().map(|s| score[s]).sum::<i32>(), 0, "{score:?}");
            let after = &a.match_after.scores;
            assert_eq!(after.sides().map(|s| after[s]).sum::<i32>(), 0);
            coups += 1;
            let carried: Carried = details::read(&a.match_after.details, "").unwrap();
            assert_eq!(carried.coups, coups);
            state = Some(serde_json::to_value(&a.match_after).unwrap());
        }
        assert!(refaits > 0 && shoes > 0, "{refaits} refaits, {shoes} shoes");
    }
}
