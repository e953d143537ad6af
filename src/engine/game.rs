//! One game's rules as the engine sees them: what it declares (`GameInfo`), its own verbs and
//! details, how it starts a hand (`Rules`) and how a hand takes its actions (`HandState`). `Game`
//! is the same game behind a pointer, for the registry, the API and the league, which hold records
//! in the game-agnostic form and have them read in the game's own verbs at the edge.

use super::deal::Setup;
use super::replay::{self, Recorded};
use super::{
    Adjudication, FieldError, Locus, MatchState, OptionSpec, Options, RecordError, TableView,
};
use crate::details::Details;
use crate::record::{Action, HandRecord, Verbs};
use crate::seat::{PerSide, Seat, Side, Table, TableShape};
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;
use utoipa::{PartialSchema, ToSchema};
use validator::Validate;

/// Describes a game for `GET /v1/games`.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameInfo {
    pub id: &'static str,
    pub name: &'static str,
    /// Every table the game is played at: the one its default options give first, then those its
    /// options choose (`Rules::table`). Also written as `players`, `seats` and `partnerships`,
    /// as before tables were listed.
    #[serde(flatten)]
    #[schema(inline)]
    pub tables: Tables,
    pub deck: &'static str,
    /// The score that ends a game (the default where an option sets it): in most games the first
    /// side to reach it wins; in a game whose lowest total wins (Big Two), reaching it ends the
    /// game and another player wins.
    pub game_target: i32,
    pub options: &'static [OptionSpec],
    /// The rule file this game implements: its path in the repository (`docs/rules/<game>.md`).
    /// The `rule` of an irregularity names a file of that folder and its section.
    pub rules: &'static str,
    /// Irregularity codes this game reports.
    #[schema(value_type = Vec<String>)]
    pub irregularities: &'static [&'static str],
    /// Record error codes this game reports (README "Legality outcomes", C12).
    #[schema(value_type = Vec<String>)]
    pub record_errors: &'static [&'static str],
    /// Event codes this game reports (`events[].code`).
    #[schema(value_type = Vec<String>)]
    pub events: &'static [&'static str],
    /// Codes of the parts of its hand score (`score_items[].code`) and of its bonuses.
    #[schema(value_type = Vec<String>)]
    pub score_codes: &'static [&'static str],
    /// Verbs a record of this game may use (its action schema gives their values).
    #[schema(value_type = Vec<String>)]
    pub verbs: &'static [&'static str],
    /// A title in words for every code this game's answers use (its irregularities, record
    /// errors, events, score codes, and every `outcome`), to show a person instead of the code.
    pub titles: Titles,
}

/// Titles of codes (`GameInfo.titles`): the game's own, then the engine's for the codes every
/// game shares (`SHARED_TITLES`); a game's own title of a shared code is the one given.
#[derive(Debug)]
pub struct Titles(pub &'static [(&'static str, &'static str)]);

/// Titles of the codes that several games report: the outcomes, the record errors of the replay
/// driver, and irregularities, events and score parts more than one game has.
pub const SHARED_TITLES: &[(&str, &str)] = &[
    // Outcomes (`Outcome`).
    ("scored", "Played out and scored"),
    ("game_lost", "Game lost by an incorrect play"),
    ("misdeal", "Misdeal"),
    ("void", "No play and no score, as the rules say"),
    ("record_error", "Record error: the record needs correcting"),
    // Record errors.
    ("out_of_turn", "Action out of turn"),
    ("card_not_held", "Card the player does not hold"),
    ("card_played_twice", "Card played twice"),
    ("invalid_correct", "Correction that is not allowed here"),
    ("action_after_end", "Action after the hand was over"),
    (
        "incomplete_hand",
        "The record stops before the hand is over",
    ),
    ("unexpected_action", "Action the hand does not expect here"),
    ("illegal_bid", "Bid the auction does not allow"),
    // Irregularities.
    ("revoke", "Revoke: did not follow suit when able"),
    // Events.
    ("upcard_turned", "Upcard turned"),
    ("trump_revealed", "Trump revealed"),
    ("forced_bid", "Forced bid"),
    (
        "hand_exposed",
        "The soloist's hand exposed: an open contract",
    ),
    ("all_passed", "Every player passed: the deal is thrown in"),
    // Score parts.
    ("card_points", "Card points"),
    ("contract_made", "Contract made"),
    ("contract_failed", "Contract failed"),
    ("hand_won", "Hand won"),
];

impl Titles {
    /// The title of `code`: the game's own, else the shared one.
    pub fn get(&self, code: &str) -> Option<&'static str> {
        self.0
            .iter()
            .chain(SHARED_TITLES)
            .find(|(c, _)| *c == code)
            .map(|(_, t)| *t)
    }
}

impl Serialize for Titles {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = std::collections::BTreeMap::new();
        for (code, title) in SHARED_TITLES.iter().chain(self.0) {
            map.insert(*code, *title);
        }
        map.serialize(s)
    }
}

impl PartialSchema for Titles {
    fn schema() -> RefOr<Schema> {
        std::collections::BTreeMap::<String, String>::schema()
    }
}

impl ToSchema for Titles {}

/// The tables a game is played at (`GameInfo.tables`), the default first.
#[derive(Debug)]
pub struct Tables(pub &'static [Table]);

impl Tables {
    /// The table of the game's default options.
    pub fn default_table(&self) -> Table {
        self.0[0]
    }

    /// Every seat name any of the tables uses, the default table's first (Briscola: `N E S W`,
    /// then `P1 P2 P3` for two or three players).
    pub fn seats(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = Vec::new();
        for s in self.0.iter().flat_map(|t| t.seats()) {
            if !seats.contains(&s) {
                seats.push(s);
            }
        }
        seats
    }
}

/// The tables a game is played at, and the fields that described its one table before.
#[derive(Serialize, ToSchema)]
struct TablesWire {
    /// Every table the game is played at, the default options' first.
    tables: Vec<TableShape>,
    /// Players at the default table (`tables[0].players`); `tables` lists every count.
    players: usize,
    /// Every seat any of the tables uses, the default table's first in clockwise order.
    seats: Vec<Seat>,
    /// Whether the default table plays in fixed teams (`tables[0].sides`).
    partnerships: bool,
}

impl Serialize for Tables {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let default = self.default_table();
        TablesWire {
            tables: self.0.iter().map(|&t| t.into()).collect(),
            players: default.players(),
            seats: self.seats(),
            partnerships: default.team_size() > 1,
        }
        .serialize(s)
    }
}

impl PartialSchema for Tables {
    fn schema() -> RefOr<Schema> {
        TablesWire::schema()
    }
}

impl ToSchema for Tables {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        TablesWire::schemas(schemas);
    }
}

/// A game that the match state's scores have already decided (`Rules::already_won`).
#[derive(Debug, PartialEq, Eq)]
pub struct Decided {
    /// The side that has won the game; `None` when sides share the win (Big Two's tie).
    pub winner: Option<Side>,
    /// The side whose score decided it: the winner's, or the loser's where a side can lose.
    pub at: Side,
    /// Why that score decides the game, in the rules' words ("NS has -6 and has lost at -6").
    pub why: String,
}

/// Who deals the next hand after a hand played out (README C8), as a game declares it: the
/// conformance kit holds every game to its declaration over random hands, so a game that forgets
/// to name the next dealer (and so repeats this hand's) fails there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// The next seat in the direction of play.
    Next,
    /// The dealer's left-hand seat, whatever the direction of play (Truco's `deal_passes = left`).
    Left,
    /// The same seat deals every hand (Trente et Quarante's bank, TQ-f).
    Stays,
    /// The game's rule looks at the hand's result (Court Piece CP-1: the deal stays, passes left
    /// or to the partner); the rule is named here.
    ByResult(&'static str),
}

/// One game's rules, in its own verbs.
pub trait Rules: Send + Sync + 'static {
    /// What a record of this game can say: its verbs and their values (`verbs!`).
    type Verb: Verbs;
    /// The fields this game adds to the adjudication (`Adjudication.details`), for its schema.
    type Details: ToSchema;
    /// The fields this game carries in the match state from hand to hand (`MatchState.details`);
    /// a match state given with any other field is refused.
    type Carried: ToSchema + Serialize + DeserializeOwned + Clone + Send + Sync + 'static;

    fn info(&self) -> &'static GameInfo;

    /// The table this game is played at under `options` (players, direction of play): four
    /// players in partnerships, clockwise, unless the game says otherwise.
    fn table(&self, _options: &Options) -> Table {
        Table::FOUR
    }

    /// What a record of this game holds beside the deal under `options`: its pack, the cards each
    /// seat is dealt, and the parts it reads (a stock, a widow, face-up cards, ...) with their
    /// bounds. The replay driver refuses any other part before `start`.
    fn setup(&self, options: &Options) -> Setup;

    /// The score that ends a game under `options`: `GameInfo.game_target` unless an option sets
    /// it (Big Two's `target`).
    fn game_target(&self, _options: &Options) -> i32 {
        self.info().game_target
    }

    /// Whether the scores `scores` have already decided the game under `options`, so that no hand
    /// can follow (a request with such a match state is refused, at the score that decided it): by
    /// default a side at or past `game_target` has won. A game whose target does not end it by
    /// itself (Pitch: only the pitchers win at 21) says so; one that is also lost (Twenty-Nine at
    /// −6), decided between two totals past the target (Tresette) or shared (Big Two) says how.
    /// The engine asks this: a game does not check it again in `start`.
    fn already_won(&self, scores: &PerSide<i32>, options: &Options) -> Option<Decided> {
        let target = self.game_target(options);
        let side = scores
            .sides()
            .find(|&s| target > 0 && scores[s] >= target)?;
        Some(Decided {
            winner: Some(side),
            at: side,
            why: format!(
                "{side} has {} and the game is won at {target}",
                scores[side]
            ),
        })
    }

    /// Whether the lowest total wins the game (Big Two's penalty points), so that a league ranks
    /// the order of finish from the lowest score up; by default the highest total wins.
    fn lowest_total_wins(&self) -> bool {
        false
    }

    /// Who deals after a hand played out under `options` (README C8): by default the next seat in
    /// the direction of play. Every game names the next dealer in `match_after`; this declares the
    /// rule it follows.
    fn rotation(&self, _options: &Options) -> Rotation {
        Rotation::Next
    }

    /// Whether the hand after the match state `before` moves the match by its hand score (the
    /// match scores grow by `hand_score`): by default always. Briscola's tie-breaker hand is scored
    /// on its own and leaves the totals as they are (BR-b).
    fn hand_moves_match(&self, _options: &Options, _before: &MatchState) -> bool {
        true
    }

    /// Checks the deal and sets up the hand at `table`: the game's table under `options`, without
    /// the seats that have left it (`MatchState.out`), so a game never works that out again. The
    /// replay driver has already checked the record's parts against `setup` and each seat's count
    /// (unless `Setup.counted_by`). Problems are refusals with pointers.
    fn start(
        &self,
        record: &HandRecord<Self::Verb>,
        options: &Options,
        table: Table,
        before: &MatchState,
    ) -> Result<Box<dyn HandState<Self::Verb>>, Vec<FieldError>>;
}

/// A hand being replayed, one action at a time. `apply` is the one judge: the legal actions a
/// position offers are the `candidates` that `apply` takes on a `fork` of the hand without a
/// record error, without an irregularity at that action (`faulted`) and without setting it aside
/// (`ignored`).
pub trait HandState<V>: Fork<V> {
    /// Applies action `index`. A record error stops the replay.
    fn apply(&mut self, index: usize, action: &Action<V>) -> Result<(), RecordError>;

    /// Applies a whole record's `actions` in turn, up to the first record error. Not for a game
    /// to override: made for each game from its `apply`, so the loop over a hand's actions calls
    /// the game's own `apply` directly (inlined where the game marks it so), not through the
    /// trait object at every card.
    fn replay(&mut self, actions: &[Action<V>]) -> Result<(), RecordError> {
        for (i, a) in actions.iter().enumerate() {
            self.apply(i, a)?;
        }
        Ok(())
    }

    /// The table as the next player to act sees it (the engine adds the legal actions).
    fn view(&self) -> TableView;

    /// Where the hand stands, as its `view` shows it, without building the view: the replay
    /// driver asks it of every hand, and a whole view (every hand, the tally, the irregularities)
    /// was a tenth to a fifth of a trick game's replay. `Locus::of_play` for a trick game,
    /// `Locus::of_turns` for one whose unit is a turn. The conformance kit checks it against the
    /// view at every step of random legal play (`play_on`), debug builds at the end of every replay.
    fn locus(&self) -> Locus;

    /// Every action worth trying now, legal or not: the cards of the seat to play, every call of
    /// an auction, every choice of a decision. Empty when the hand is over.
    fn candidates(&self) -> Vec<Action<V>>;

    /// Whether action `index` committed an irregularity (established, or pending correction).
    fn faulted(&self, index: usize) -> bool;

    /// Why a whole record cannot be replayed, found at an action rather than in `start` (a stock
    /// that lacks the card an action turns): a refusal with pointers, as `start` refuses a deal.
    /// Asked once the record's actions are applied, so `start` need not read ahead in them.
    fn refusal(&self) -> Option<Vec<FieldError>> {
        None
    }

    /// The offered action that stands for `action` where the game offers one of a family and
    /// documents it so (an optional declaration that is the bidder's to add, data the record may
    /// state, one stake for any): by default the action itself. Lets a client, and the
    /// conformance kit, find an action among the legal ones.
    fn offered_as(&self, action: Action<V>) -> Action<V> {
        action
    }

    /// Whether action `index` was set aside with no effect (an ignored action: a claim rejected,
    /// table talk after the hand): the table may say it, but it is no legal action.
    fn ignored(&self, _index: usize) -> bool {
        false
    }

    /// Ends the replay (after the last action, or at a record error) and rules on the hand: with
    /// `Adjudication::conclude`, the one way every game finishes.
    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication;
}

/// A copy of a hand to try a candidate on: every hand that can be cloned has one, so no game
/// writes its own.
pub trait Fork<V> {
    fn fork(&self) -> Box<dyn HandState<V>>;
}

impl<V, T: HandState<V> + Clone + 'static> Fork<V> for T {
    fn fork(&self) -> Box<dyn HandState<V>> {
        Box::new(self.clone())
    }
}

/// The legal actions of a hand whose next action is `index`: its candidates that `apply` takes
/// without a record error, an irregularity or being ignored.
pub fn legal<V: Verbs>(hand: &dyn HandState<V>, index: usize) -> Vec<Action<V>> {
    hand.candidates()
        .into_iter()
        .filter(|a| {
            let mut trial = hand.fork();
            trial.apply(index, a).is_ok() && !trial.faulted(index) && !trial.ignored(index)
        })
        .collect()
}

/// A game behind a pointer: what the registry holds. Every `Rules` is one.
pub trait Game: Send + Sync {
    fn info(&self) -> &'static GameInfo;

    /// See `Rules::table`.
    fn table(&self, options: &Options) -> Table;

    /// See `Rules::setup`.
    fn setup(&self, options: &Options) -> Setup;

    /// See `Rules::game_target`.
    fn game_target(&self, options: &Options) -> i32;

    /// See `Rules::already_won`.
    fn already_won(&self, scores: &PerSide<i32>, options: &Options) -> Option<Decided>;

    /// See `Rules::lowest_total_wins`.
    fn lowest_total_wins(&self) -> bool;

    /// See `Rules::rotation`.
    fn rotation(&self, options: &Options) -> Rotation;

    /// See `Rules::hand_moves_match`.
    fn hand_moves_match(&self, options: &Options, before: &MatchState) -> bool;

    /// Reads the game's own fields of a match state given in a request (pointers under `base`):
    /// they are checked, and held as the game reads them from then on, every field present (one
    /// not given at its starting value: `Details::new()` reads as the match's start).
    fn read_carried(&self, details: &Details, base: &str) -> Result<Details, Vec<FieldError>>;

    /// Reads `record` in this game's verbs: a verb the game does not have, or a value that is not
    /// what the verb takes, is refused with a pointer to it.
    fn read<'a>(&'a self, record: &HandRecord) -> Result<Box<dyn Recorded + 'a>, Vec<FieldError>>;

    /// Reads a record of this game from its JSON text straight into the game's verbs, without the
    /// game-agnostic record between: the way a well-formed body is read. `None` when the text
    /// does not read or breaks a bound; `read` of the game-agnostic record then names what is
    /// wrong (it takes everything this takes, and reads it the same). `None` too for a key given
    /// twice in any object or anything after the document (`json::read_unique`).
    fn read_json<'a>(&'a self, json: &[u8]) -> Option<Box<dyn Recorded + 'a>>;

    /// The schemas of this game's actions, details and carried match state.
    fn schemas(&self) -> GameSchemas;

    /// How a value of `verb` is written in a spreadsheet cell.
    fn placeholder(&self, verb: &str) -> &'static str;
}

/// The schemas a game owns, for the OpenAPI document.
pub struct GameSchemas {
    pub action: RefOr<Schema>,
    pub details: (String, RefOr<Schema>),
    pub carried: (String, RefOr<Schema>),
    /// The schemas these refer to (`Streak`, `Mode`).
    pub nested: Vec<(String, RefOr<Schema>)>,
}

impl<R: Rules> Game for R {
    fn info(&self) -> &'static GameInfo {
        Rules::info(self)
    }

    fn table(&self, options: &Options) -> Table {
        Rules::table(self, options)
    }

    fn setup(&self, options: &Options) -> Setup {
        Rules::setup(self, options)
    }

    fn game_target(&self, options: &Options) -> i32 {
        Rules::game_target(self, options)
    }

    fn already_won(&self, scores: &PerSide<i32>, options: &Options) -> Option<Decided> {
        Rules::already_won(self, scores, options)
    }

    fn lowest_total_wins(&self) -> bool {
        Rules::lowest_total_wins(self)
    }

    fn rotation(&self, options: &Options) -> Rotation {
        Rules::rotation(self, options)
    }

    fn hand_moves_match(&self, options: &Options, before: &MatchState) -> bool {
        Rules::hand_moves_match(self, options, before)
    }

    fn read_carried(&self, details: &Details, base: &str) -> Result<Details, Vec<FieldError>> {
        crate::details::checked::<R::Carried>(details, base)
    }

    fn read<'a>(&'a self, record: &HandRecord) -> Result<Box<dyn Recorded + 'a>, Vec<FieldError>> {
        Ok(Box::new(replay::Read {
            rules: self,
            record: record.read::<R::Verb>()?,
        }))
    }

    fn read_json<'a>(&'a self, json: &[u8]) -> Option<Box<dyn Recorded + 'a>> {
        let record: HandRecord<R::Verb> = crate::json::read_unique(json)?;
        record.validate().ok()?;
        Some(Box::new(replay::Read {
            rules: self,
            record,
        }))
    }

    fn schemas(&self) -> GameSchemas {
        let mut nested = Vec::new();
        R::Verb::nested_schemas(&mut nested);
        R::Details::schemas(&mut nested);
        R::Carried::schemas(&mut nested);
        GameSchemas {
            nested,
            action: <Action<R::Verb> as utoipa::PartialSchema>::schema(),
            details: (
                R::Details::name().into_owned(),
                <R::Details as PartialSchema>::schema(),
            ),
            carried: (
                R::Carried::name().into_owned(),
                <R::Carried as PartialSchema>::schema(),
            ),
        }
    }

    fn placeholder(&self, verb: &str) -> &'static str {
        R::Verb::placeholder(verb)
    }
}
