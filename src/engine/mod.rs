//! The rules engine shared by every game: seats and turn order, tricks and their winners, the
//! revoke-correction window, the irregularity log, options, match state, and the replay driver
//! that feeds a record's actions to a game one at a time.

pub mod deal;
mod log;
mod options;
mod play;
mod seat;
mod stock;
mod trick;

pub use log::{
    CorrectedRevoke, Decides, Effect, Fault, FirstDecides, IgnoredAction, Irregularity, RecordError,
};
pub use options::{OptionKind, OptionSpec, Options};
pub use play::{Established, TrickPlay};
pub use seat::{PerSide, Seat, Side, Table};
pub use stock::Stock;
pub use trick::{
    MAX_PLAYS, PlayedCard, RankOrder, Trick, TrickReport, must_follow_suit, trump_or_led,
};

use crate::cards::{Card, Holding, Suit};
use crate::record::{Action, Bid, HandRecord, MatchRecord};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A problem with one part of a request, refused before any adjudication (HTTP 4xx).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// JSON pointer (RFC 6901) to the offending value.
    pub pointer: String,
    /// What is wrong and what was expected.
    pub detail: String,
    /// In a CSV upload: the 1-based line of the offending cell (the header is line 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<u64>,
    /// In a CSV upload: the 1-based column of the offending cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
}

impl FieldError {
    pub fn new(pointer: String, detail: String) -> FieldError {
        FieldError {
            pointer,
            detail,
            row: None,
            column: None,
        }
    }

    /// Prefixes the pointer with `base` (an error inside a nested document).
    pub fn under(mut self, base: &str) -> FieldError {
        self.pointer = format!("{base}{}", self.pointer);
        self
    }
}

/// Describes a game for `GET /v1/games`.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameInfo {
    pub id: &'static str,
    pub name: &'static str,
    /// Number of players (the only count this service accepts for the game).
    pub players: u8,
    /// Seats in clockwise order.
    #[schema(value_type = Vec<String>)]
    pub seats: &'static [&'static str],
    pub partnerships: bool,
    pub deck: &'static str,
    /// The score that wins a game.
    pub game_target: i32,
    pub options: &'static [OptionSpec],
    /// The rule file this game implements, in the shared rules folder.
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
    /// Verbs a record of this game may use.
    #[schema(value_type = Vec<String>)]
    pub verbs: &'static [&'static str],
}

/// The match carried from hand to hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchState {
    /// Cumulative scores; absent sides count 0.
    #[serde(default)]
    #[schema(inline)]
    pub scores: PerSide<i32>,
    /// Who deals the next hand. On input, when given, it must be the hand's dealer.
    #[serde(default)]
    pub next_dealer: Option<Seat>,
    #[serde(default)]
    pub hands_played: u32,
    #[serde(default)]
    pub game_over: bool,
    #[serde(default)]
    pub winner: Option<Side>,
    /// The sides still contending in a tie-breaker hand (Briscola): set when the match's hands end
    /// with the lead tied; such a hand is scored on its own and decides among these sides only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contenders: Vec<Side>,
    /// Hands tied in a row just before the next hand, whose value the next decided hand carries
    /// (Couillon's `p`). Absent = 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pending_ties: u32,
    /// Consecutive hands won by one side (Court Piece's seven-hand streak); absent before the
    /// first hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streak: Option<Streak>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A run of consecutive hands won by one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Streak {
    pub side: Side,
    /// Hands in the run still counting towards the next streak reward.
    pub count: u32,
}

/// Scores beyond this size are refused: no real game gets near them, and they keep arithmetic safe.
const SCORE_LIMIT: i32 = 1_000_000;

impl MatchState {
    /// Checks a match state given in a request, for a hand dealt by `dealer` in `game`.
    fn check(&self, game: &dyn Game, dealer: Seat, base: &str) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        // A game-specific field that this game does not keep would be carried along unread.
        let kept = game.match_fields();
        for (field, set) in [
            ("contenders", !self.contenders.is_empty()),
            ("pending_ties", self.pending_ties != 0),
            ("streak", self.streak.is_some()),
        ] {
            if set && !kept.contains(&field) {
                errors.push(FieldError::new(
                    format!("{base}/{field}"),
                    format!("{} keeps no {field} in its match state", game.info().name),
                ));
            }
        }
        for side in self.scores.sides() {
            if !(-SCORE_LIMIT..=SCORE_LIMIT).contains(&self.scores[side]) {
                errors.push(FieldError::new(
                    format!("{base}/scores/{side}"),
                    format!("scores are limited to ±{SCORE_LIMIT}"),
                ));
            }
        }
        // Every game counts the hand it scores (`hands_played + 1`): keep that addition safe.
        if self.hands_played > SCORE_LIMIT as u32 {
            errors.push(FieldError::new(
                format!("{base}/hands_played"),
                format!("hands played are limited to {SCORE_LIMIT}"),
            ));
        }
        if self.pending_ties > SCORE_LIMIT as u32 {
            errors.push(FieldError::new(
                format!("{base}/pending_ties"),
                format!("pending ties are limited to {SCORE_LIMIT}"),
            ));
        }
        if let Some(side) = game.already_won(&self.scores) {
            errors.push(FieldError::new(
                format!("{base}/scores/{side}"),
                format!(
                    "{side} has {} and the game is won at {}: the game is over, start a new match",
                    self.scores[side],
                    game.info().game_target
                ),
            ));
        }
        if self.game_over || self.winner.is_some() {
            errors.push(FieldError::new(
                format!("{base}/game_over"),
                "the game is already over: start a new match".into(),
            ));
        }
        if let Some(d) = self.next_dealer
            && d != dealer
        {
            errors.push(FieldError::new(
                "/dealer".into(),
                format!("the match state says {d} deals this hand, but the record names {dealer}"),
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Played out and scored (0–0 included).
    Scored,
    /// An incorrect play lost the game for the offenders' side (Malilla).
    GameLost,
    /// A dealing irregularity: no play, no score; the deal passes on.
    Misdeal,
    /// No play and no score because the rules say so (Bacon's acquitted hand, Hasenpfeffer's four
    /// passes with the joker in the widow).
    Void,
    /// The record contradicts the deal or the turn order: no score, match unchanged.
    RecordError,
}

/// Stubs & Spoils' two modes, fixed by the Color Card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Black,
    Red,
}

/// A bonus outside the trick count (Malilla's trump-card bonus, Pitch's high, low, jack and game).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Bonus {
    pub code: &'static str,
    pub side: Side,
    pub card: Option<Card>,
    pub points: i32,
    pub status: BonusStatus,
}

/// Whether a bonus counts. One vocabulary for every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BonusStatus {
    /// In this hand's `hand_score` (and in `score_items` with source `bonus`).
    Scored,
    /// Earned but not counted: the rules withhold it (a game already decided, a side that cannot
    /// score it).
    NotScored,
    /// Not yet decided: its fate depends on how the hand ends (only before the hand is over).
    Held,
}

/// Who contracted for the hand, for what, and whether they made it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Contract {
    /// The seat whose bid, pick-up, acceptance or trump choice stands.
    pub declarer: Seat,
    pub side: Side,
    /// The winning bid as called, where there is an auction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<Bid>,
    /// What the declarers must reach, after any adjustment (Twenty-Nine's royals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
    /// Whether the declarer plays alone, his partner sitting out: always stated in a game that has
    /// going alone (Bacon), absent in the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alone: Option<bool>,
    /// Made or failed; `null` until the hand is scored, or when the record stops early.
    pub made: Option<bool>,
}

impl Contract {
    pub fn new(declarer: Seat, side: Side) -> Contract {
        Contract {
            declarer,
            side,
            bid: None,
            target: None,
            alone: None,
            made: None,
        }
    }
}

/// Something the rules made happen that is neither a trick nor an irregularity: a trump revealed,
/// an upcard turned, a stake raised, cards drawn from the stock. In record order.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Event {
    /// Stable code, e.g. `trump_revealed`, `upcard_turned`, `stake_raised`, `drew`.
    pub code: &'static str,
    /// The action that caused it, if one did.
    pub action_index: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trick: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<Card>,
    /// One sentence a director can read out.
    pub detail: String,
}

/// What one side took in the hand.
#[derive(Clone, Copy, Debug, Default, Serialize, ToSchema)]
pub struct Tally {
    pub tricks: u32,
    /// Card points plus trick points, where the game counts points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i32>,
    /// Stubs in front of the side's players (Stubs & Spoils).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stubs_won: Option<i32>,
    /// Stubs after revoke transfers: what is scored (Stubs & Spoils).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stubs: Option<i32>,
}

/// Where a part of the hand score comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScoreSource {
    /// What the play itself earned: tricks, card points, the hand won.
    Tricks,
    /// A contract made or failed (the bid's value, a set).
    Contract,
    /// A bonus (also listed in `bonuses` with status `scored`).
    Bonus,
    /// A penalty for an irregularity (also in that irregularity's `effect`).
    Penalty,
    /// Declared combinations (Tresette's melds).
    Meld,
}

/// One part of the hand score: `hand_score` is the sum of these, side by side.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ScoreItem {
    pub side: Side,
    pub points: i32,
    pub source: ScoreSource,
    /// Stable code of what was scored: the irregularity's code for a penalty, the bonus's code for a
    /// bonus, else the game's own (listed in `GameInfo.score_codes`).
    pub code: &'static str,
    /// The action that earned or cost it, where one did (a penalty: the irregularity's action).
    pub action_index: Option<usize>,
}

/// A director's ruling on one hand.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Adjudication {
    pub game: &'static str,
    pub dealer: Seat,
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<Suit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Stubs & Spoils: the Color Card's suit (trump in black mode, trojan in red mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special_suit: Option<Suit>,
    pub tricks: Vec<TrickReport>,
    pub irregularities: Vec<Irregularity>,
    pub corrected_revokes: Vec<CorrectedRevoke>,
    pub record_error: Option<RecordError>,
    pub ignored_actions: Vec<IgnoredAction>,
    pub bonuses: Vec<Bonus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Contract>,
    /// The side that won the hand, in games whose rules name one; `null` otherwise, for a tie, or
    /// when the hand is not scored.
    pub hand_winner: Option<Side>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
    #[schema(inline)]
    pub tally: PerSide<Tally>,
    /// What the hand adds to the match score, per side: everything included (tricks, contract,
    /// bonuses, penalties, melds), so `match_after.scores = match_before.scores + hand_score`
    /// (Briscola's tie-breaker hands: see its doc). `null` when the record has an error.
    #[schema(inline)]
    pub hand_score: Option<PerSide<i32>>,
    /// The parts of `hand_score`; per side they add up to it. Empty when the record has an error.
    pub score_items: Vec<ScoreItem>,
    pub match_before: MatchState,
    pub match_after: MatchState,
}

impl Adjudication {
    pub fn new(
        game: &'static str,
        dealer: Seat,
        before: &MatchState,
        tricks: usize,
    ) -> Adjudication {
        Adjudication {
            game,
            dealer,
            outcome: Outcome::Scored,
            trump: None,
            mode: None,
            special_suit: None,
            tricks: Vec::with_capacity(tricks),
            irregularities: Vec::new(),
            corrected_revokes: Vec::new(),
            record_error: None,
            ignored_actions: Vec::new(),
            bonuses: Vec::new(),
            contract: None,
            hand_winner: None,
            events: Vec::new(),
            tally: PerSide::default(),
            hand_score: None,
            score_items: Vec::new(),
            match_before: before.clone(),
            match_after: before.clone(),
        }
    }

    /// README C5: a record error leaves no score and the match as it was.
    pub fn record_error(&mut self, error: RecordError) {
        self.outcome = Outcome::RecordError;
        self.record_error = Some(error);
        self.hand_score = None;
        self.score_items.clear();
        self.hand_winner = None;
        self.bonuses.clear();
        for i in &mut self.irregularities {
            i.effect.points = PerSide::over([]);
        }
        if let Some(c) = &mut self.contract {
            c.made = None;
        }
        self.match_after = self.match_before.clone();
    }

    /// Adds a part of the hand score.
    pub fn score(
        &mut self,
        side: Side,
        points: i32,
        source: ScoreSource,
        code: &'static str,
        action_index: Option<usize>,
    ) {
        self.score_items.push(ScoreItem {
            side,
            points,
            source,
            code,
            action_index,
        });
    }

    /// Scores `points` to `side` as the penalty of irregularity `irregularity` (its index in
    /// `irregularities`): a score item, and the number in the irregularity's effect.
    pub fn penalize(&mut self, irregularity: usize, side: Side, points: i32) {
        let i = &mut self.irregularities[irregularity];
        i.effect.points[side] += points;
        let (code, at) = (i.code, i.action_index);
        self.score(side, points, ScoreSource::Penalty, code, at);
    }

    /// Records a bonus; a `scored` one is also a part of the hand score.
    pub fn bonus(&mut self, bonus: Bonus) {
        if bonus.status == BonusStatus::Scored {
            self.score(
                bonus.side,
                bonus.points,
                ScoreSource::Bonus,
                bonus.code,
                None,
            );
        }
        self.bonuses.push(bonus);
    }

    /// The hand score: the score items added up per side, every side of the match included.
    pub fn total(&self) -> PerSide<i32> {
        let mut total = PerSide::over(self.match_before.scores.sides());
        for item in &self.score_items {
            total[item.side] += item.points;
        }
        total
    }

    /// Scores the hand (one way for every game): `hand_score` is the total of the score items, the
    /// match scores grow by it and the hand is counted. Returns the hand score.
    pub fn settle(&mut self) -> PerSide<i32> {
        let total = self.total();
        self.hand_score = Some(total);
        let m = &mut self.match_after;
        for side in total.sides() {
            m.scores[side] += total[side];
        }
        m.hands_played += 1;
        total
    }
}

/// What a player at the table could see before the next action, and every legal next action.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TableView {
    /// `gallery`, `play`, `spoil` or `over`.
    pub phase: &'static str,
    /// Seats that may act now (several while gallery discards are made in any order).
    pub to_act: Vec<Seat>,
    pub trick_number: Option<u8>,
    /// The cards of the trick in progress.
    pub trick: Vec<PlayedCard>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trump: Option<Suit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special_suit: Option<Suit>,
    /// The cards held by the (first) seat to act: its entry in `hands` (kept for compatibility).
    pub hand: Vec<Card>,
    /// The cards every seat holds now, by seat, in the same order as `hand`: cards taken in (a
    /// spoil, a widow, a draw from the stock) included, cards played or discarded left out. While
    /// only part of the deal has been dealt (the first round of Twenty-Nine, the first packet of
    /// Court Piece), only that part.
    #[schema(value_type = BTreeMap<String, Vec<Card>>)]
    pub hands: BTreeMap<Seat, Vec<Card>>,
    /// How many cards each seat holds (the length of its entry in `hands`).
    #[schema(value_type = BTreeMap<String, u32>)]
    pub hand_sizes: BTreeMap<Seat, u32>,
    #[schema(inline)]
    pub tally: PerSide<Tally>,
    /// Irregularities established so far.
    pub irregularities: Vec<Irregularity>,
    pub match_state: MatchState,
    /// Every legal next action, computed by the adjudicator's own legality checks.
    pub legal: Vec<Action>,
}

impl TableView {
    pub fn new<H: Holding>(
        phase: &'static str,
        to_act: Vec<Seat>,
        play: &TrickPlay<H>,
        match_state: &MatchState,
    ) -> TableView {
        let mut view = TableView {
            phase,
            to_act,
            trick_number: Some(play.trick.number),
            trick: play.trick.plays().to_vec(),
            trump: None,
            mode: None,
            special_suit: None,
            hand: Vec::new(),
            hands: BTreeMap::new(),
            hand_sizes: BTreeMap::new(),
            tally: PerSide::default(),
            irregularities: Vec::new(),
            match_state: match_state.clone(),
            legal: Vec::new(),
        };
        view.set_hands(play.table.seats().map(|s| (s, play.hand(s).to_vec())));
        view
    }

    /// Sets what every seat holds, and `hand` and `hand_sizes` with it. `new` takes the hands of
    /// the `TrickPlay`; a game whose seats hold less than that so far (part of the deal, cards
    /// not yet drawn) states them here.
    pub fn set_hands(&mut self, hands: impl IntoIterator<Item = (Seat, Vec<Card>)>) {
        self.hands = hands.into_iter().collect();
        self.hand_sizes = self
            .hands
            .iter()
            .map(|(&s, cards)| (s, cards.len() as u32))
            .collect();
        self.hand = self
            .to_act
            .first()
            .and_then(|s| self.hands.get(s))
            .cloned()
            .unwrap_or_default();
    }

    /// Adds `play` actions for `seat` and `correct` actions for the seats allowed to correct, using
    /// the game's legality judge (`None` = legal).
    pub fn add_plays<H: Holding>(
        &mut self,
        play: &TrickPlay<H>,
        judge: impl Fn(&Trick, H, Card) -> Option<Fault>,
    ) {
        if let Some(seat) = play.to_play() {
            let hand = play.hand(seat);
            for card in hand
                .distinct()
                .iter()
                .filter(|&c| judge(&play.trick, hand, c).is_none())
            {
                self.legal.push(Action {
                    seat,
                    kind: crate::record::ActionKind::Play(card),
                });
            }
        }
        for (seat, before) in play.correctable() {
            let current = play.trick.plays()[before.len()].card;
            let mut hand = play.hand(seat);
            hand.insert(current);
            for card in hand
                .distinct()
                .iter()
                .filter(|&c| c != current && judge(&before, hand, c).is_none())
            {
                self.legal.push(Action {
                    seat,
                    kind: crate::record::ActionKind::Correct(card),
                });
            }
        }
    }
}

/// One game's rules.
pub trait Game: Send + Sync {
    fn info(&self) -> &'static GameInfo;

    /// The table this game is played at under `options` (players, direction of play): four
    /// players in partnerships, clockwise, unless the game says otherwise.
    fn table(&self, _options: &Options) -> Table {
        Table::FOUR
    }

    /// The game-specific fields of `MatchState` this game carries between hands (`contenders`,
    /// `pending_ties`, `streak`); a request that sets any other is refused.
    fn match_fields(&self) -> &'static [&'static str] {
        &[]
    }

    /// The record's fields for cards not dealt to a seat that this game uses (`face_up`, `stock`);
    /// its `start` refuses the others unless empty.
    fn undealt_fields(&self) -> &'static [&'static str] {
        &[]
    }

    /// The side that has already won a game whose scores are `scores`, so that no hand can follow
    /// (a request with such a match state is refused): by default a side at or past `game_target`.
    /// A game whose target does not end it by itself (Pitch: only the pitchers win at 21) says so.
    fn already_won(&self, scores: &PerSide<i32>) -> Option<Side> {
        let target = self.info().game_target;
        scores.sides().find(|&s| target > 0 && scores[s] >= target)
    }

    /// Checks the deal and sets up the hand. Problems are refusals with pointers.
    fn start(
        &self,
        record: &HandRecord,
        options: &Options,
        before: &MatchState,
    ) -> Result<Box<dyn HandState>, Vec<FieldError>>;
}

/// A hand being replayed, one action at a time.
pub trait HandState {
    /// Applies action `index`. A record error stops the replay.
    fn apply(&mut self, index: usize, action: &Action) -> Result<(), RecordError>;

    /// The table as the next player to act sees it, with every legal action.
    fn view(&self) -> TableView;

    /// Ends the replay (after the last action, or at a record error) and rules on the hand.
    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication;
}

/// A record naming its game must be sent to that game.
fn check_game_id(named: &Option<String>, game: &dyn Game) -> Result<(), FieldError> {
    match named {
        Some(id) if id != game.info().id => Err(FieldError::new(
            "/game".into(),
            format!(
                "this record is for '{id}' but was sent to '{}'",
                game.info().id
            ),
        )),
        _ => Ok(()),
    }
}

/// A hand set up for replay, with the table its seats are named by.
struct Prepared<'a> {
    state: Box<dyn HandState>,
    table: Table,
    /// The record's actions, seats as the table names them (`P1` is `N` at a four-seat table).
    actions: Cow<'a, [Action]>,
}

impl Prepared<'_> {
    /// Applies every action.
    fn replay(&mut self) -> Result<(), RecordError> {
        for (i, a) in self.actions.iter().enumerate() {
            self.state.apply(i, a)?;
        }
        Ok(())
    }

    fn run(mut self) -> Adjudication {
        let error = self.replay().err();
        rule(self.state, error, self.actions.len())
    }
}

/// The ruling on a hand whose record held `actions` actions (README C5 / the contract: an
/// incomplete hand names where the next action was due).
fn rule(state: Box<dyn HandState>, error: Option<RecordError>, actions: usize) -> Adjudication {
    let mut adjudication = state.finish(error);
    if let Some(e) = &mut adjudication.record_error
        && e.code == "incomplete_hand"
    {
        e.action_index = Some(actions);
    }
    adjudication
}

/// A hand replayed step by step: the driver keeps the game's state between actions, so a client
/// walking a hand (the conformance kit, a what-if) does not replay the record at every step.
pub struct Replay {
    state: Box<dyn HandState>,
    table: Table,
    /// Actions applied so far: the index of the next one.
    applied: usize,
}

impl Replay {
    /// Sets up `record`'s hand and applies its actions. A record error among them is a refusal:
    /// the position does not exist.
    pub fn start(game: &dyn Game, record: &HandRecord) -> Result<Replay, Vec<FieldError>> {
        let mut hand = prepare(game, record, None, None)?;
        hand.replay().map_err(|e| {
            vec![FieldError::new(
                e.pointer,
                format!("{} ({})", e.detail, e.code),
            )]
        })?;
        Ok(Replay {
            applied: hand.actions.len(),
            state: hand.state,
            table: hand.table,
        })
    }

    /// The table as the next player to act sees it, with every legal action.
    pub fn view(&self) -> TableView {
        self.state.view()
    }

    /// Applies the next action (its seat as the record may name it: `P1` is `N` at four seats).
    /// A record error ends the replay: pass it to `finish`.
    pub fn apply(&mut self, action: Action) -> Result<(), RecordError> {
        let action = Action {
            seat: self.table.resolve(action.seat).unwrap_or(action.seat),
            ..action
        };
        self.applied += 1;
        self.state.apply(self.applied - 1, &action)
    }

    /// Ends the replay and rules on the hand (`error`: the record error that ended it, if any).
    pub fn finish(self, error: Option<RecordError>) -> Adjudication {
        rule(self.state, error, self.applied)
    }
}

fn prepare<'a>(
    game: &dyn Game,
    record: &'a HandRecord,
    options: Option<&Options>,
    before: Option<&MatchState>,
) -> Result<Prepared<'a>, Vec<FieldError>> {
    let info = game.info();
    let mut errors = Vec::new();
    if let Err(e) = check_game_id(&record.game, game) {
        errors.push(e);
    }
    let options = match (
        options,
        Options::resolve(info.options, &record.options, "/options"),
    ) {
        (None, Ok(o)) => Some(o),
        (Some(m), Ok(o)) if record.options.is_empty() || *m == o => Some(m.clone()),
        (Some(_), Ok(_)) => {
            errors.push(FieldError::new(
                "/options".into(),
                "a hand of a match may repeat the match's options but not change them".into(),
            ));
            None
        }
        (_, Err(e)) => {
            errors.extend(e);
            None
        }
    };
    let table = options.as_ref().map(|o| game.table(o));
    if let Some(table) = table
        && let Some(a) = record
            .actions
            .iter()
            .position(|a| table.resolve(a.seat).is_none())
    {
        errors.push(FieldError::new(
            format!("/actions/{a}/seat"),
            format!(
                "no seat {} at this table: expected {}",
                record.actions[a].seat,
                table.names()
            ),
        ));
    }
    if let Some(a) = record
        .actions
        .iter()
        .position(|a| !info.verbs.contains(&a.kind.verb()))
    {
        errors.push(FieldError::new(
            format!("/actions/{a}/{}", record.actions[a].kind.verb()),
            format!(
                "'{}' is not an action in {}: expected one of {}",
                record.actions[a].kind.verb(),
                info.name,
                info.verbs.join(", ")
            ),
        ));
    }
    let before = match (before, &record.match_state) {
        (Some(m), None) => m.clone(),
        (Some(m), Some(r)) if r.scores == m.scores => m.clone(),
        (Some(_), Some(_)) => {
            errors.push(FieldError::new(
                "/match_state".into(),
                "a hand of a match may not carry a different match state".into(),
            ));
            MatchState::default()
        }
        (None, state) => {
            let mut state = state.clone().unwrap_or_default();
            let named = |s: Seat| table.and_then(|t| t.resolve(s)).unwrap_or(s);
            state.next_dealer = state.next_dealer.map(named);
            if let Err(e) = state.check(game, named(record.dealer), "/match_state") {
                errors.extend(e);
            }
            state
        }
    };
    let (options, table) = match (options, table) {
        (Some(o), Some(t)) if errors.is_empty() => (o, t),
        _ => return Err(errors),
    };
    let scores = before.scores.restrict(table.sides()).map_err(|side| {
        vec![FieldError::new(
            format!("/match_state/scores/{side}"),
            format!(
                "{side} does not score at this table: expected {}",
                table
                    .sides()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )]
    })?;
    // Games see the dealer and the acting seats as their table names them (`P1` is `N` at a
    // four-seat table). The deal keeps its keys: `deal::check_cards` refuses a seat given twice.
    let named = |s: Seat| table.resolve(s).unwrap_or(s);
    let renamed = (named(record.dealer) != record.dealer
        || record.actions.iter().any(|a| named(a.seat) != a.seat))
    .then(|| {
        let mut r = record.clone();
        r.dealer = named(r.dealer);
        for a in &mut r.actions {
            a.seat = named(a.seat);
        }
        r
    });
    let seen = renamed.as_ref().unwrap_or(record);
    let state = game.start(
        seen,
        &options,
        &MatchState {
            next_dealer: Some(seen.dealer),
            scores,
            ..before
        },
    )?;
    let actions = match renamed {
        Some(r) => Cow::Owned(r.actions),
        None => Cow::Borrowed(&record.actions[..]),
    };
    Ok(Prepared {
        state,
        table,
        actions,
    })
}

/// Replays a whole hand and rules on it.
pub fn adjudicate(game: &dyn Game, record: &HandRecord) -> Result<Adjudication, Vec<FieldError>> {
    Ok(prepare(game, record, None, None)?.run())
}

/// Replays a partial record and reports the table and the legal next actions.
/// A record error in the partial record is a refusal (the position does not exist).
pub fn legal_actions(game: &dyn Game, record: &HandRecord) -> Result<TableView, Vec<FieldError>> {
    Ok(Replay::start(game, record)?.view())
}

/// Every hand of a match, adjudicated in order with the match state folded from hand to hand.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MatchReport {
    pub hands: Vec<Adjudication>,
    /// The match after the last hand.
    #[serde(rename = "final")]
    pub final_state: MatchState,
}

/// Adjudicates the next hand of a game whose match state is `state` (`played` hands so far), under
/// the match's options: the hand must come before the game ends and be dealt by the next dealer.
/// Pointers are relative to the hand record.
pub fn adjudicate_next(
    game: &dyn Game,
    options: &Options,
    state: &MatchState,
    record: &HandRecord,
    played: usize,
) -> Result<Adjudication, Vec<FieldError>> {
    if state.game_over {
        return Err(vec![FieldError::new(
            String::new(),
            format!("the game ended at hand {played}; no more hands can be played"),
        )]);
    }
    let table = game.table(options);
    if let Some(d) = state.next_dealer
        && table.resolve(d) != table.resolve(record.dealer)
    {
        return Err(vec![FieldError::new(
            "/dealer".into(),
            format!("{d} deals this hand, not {}", record.dealer),
        )]);
    }
    Ok(prepare(game, record, Some(options), Some(state))?.run())
}

/// Adjudicates a sequence of hands as one game.
pub fn adjudicate_match(game: &dyn Game, m: &MatchRecord) -> Result<MatchReport, Vec<FieldError>> {
    check_game_id(&m.game, game).map_err(|e| vec![e])?;
    let options = Options::resolve(game.info().options, &m.options, "/options")?;
    let table = game.table(&options);
    let resolve = |seat: Seat| table.resolve(seat).unwrap_or(seat);
    let first_dealer = m.hands.first().map_or(Seat::N, |h| resolve(h.dealer));
    let mut state = m.match_state.clone().unwrap_or_default();
    state.next_dealer = state.next_dealer.map(resolve);
    state
        .check(game, first_dealer, "/match_state")
        .map_err(|e| {
            e.into_iter()
                .map(|f| {
                    if f.pointer == "/dealer" {
                        f.under("/hands/0")
                    } else {
                        f
                    }
                })
                .collect::<Vec<_>>()
        })?;
    let mut hands = Vec::with_capacity(m.hands.len());
    for (i, record) in m.hands.iter().enumerate() {
        let adjudication = adjudicate_next(game, &options, &state, record, i).map_err(|e| {
            let base = format!("/hands/{i}");
            e.into_iter().map(|f| f.under(&base)).collect::<Vec<_>>()
        })?;
        state = adjudication.match_after.clone();
        hands.push(adjudication);
    }
    Ok(MatchReport {
        hands,
        final_state: state,
    })
}
