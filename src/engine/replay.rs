//! The replay driver: prepares a record for its game (options, seats as the table names them, the
//! match state) and feeds it the actions, whole or step by step, hand by hand through a match.

use super::{
    Adjudication, FieldError, Game, HandState, Locus, MatchState, Options, PerSide, RecordError,
    Rules, Seat, Table, TableView, deal,
};
use crate::record::{Action, HandRecord, MatchRecord, Verbs};
use serde::Serialize;
use std::borrow::Cow;
use utoipa::ToSchema;

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
struct Prepared<'a, V: Verbs> {
    state: Box<dyn HandState<V>>,
    table: Table,
    /// The record's actions, seats as the table names them (`P1` is `N` at a four-seat table).
    actions: Cow<'a, [Action<V>]>,
}

impl<V: Verbs> Prepared<'_, V> {
    /// Replays the whole record and rules on it, unless an action showed it cannot be replayed.
    fn run(mut self) -> Result<Adjudication, Vec<FieldError>> {
        let error = self.state.replay(&self.actions).err();
        if let Some(refusal) = self.state.refusal() {
            return Err(refusal);
        }
        let locus = self.state.locus();
        debug_assert_eq!(
            locus,
            Locus::of(&self.state.view()),
            "the locus the view shows"
        );
        let mut adjudication = self.state.finish(error);
        locate(&mut adjudication, self.table, self.actions.len(), &locus);
        Ok(adjudication)
    }
}

/// Completes the ruling on a hand whose record held `actions` actions, the table standing at
/// `locus` where the record stopped (README C5 / the contract: an incomplete hand names where the next
/// action was due; C13: every record error states its trick; the trick on the table when a
/// record error or a deciding foul stopped the hand is listed, incomplete).
fn locate(adjudication: &mut Adjudication, table: Table, actions: usize, locus: &Locus) {
    let trick = in_progress(locus);
    if let Some(e) = &mut adjudication.record_error {
        e.trick = trick;
        if e.code == "incomplete_hand" {
            e.action_index = Some(actions);
        }
    }
    adjudication.locate_events(table, trick, locus.trick_led_at);
    let stopped = adjudication.record_error.is_some()
        || adjudication
            .irregularities
            .iter()
            .any(|i| i.effect.decides.is_some());
    if let (true, Some(n)) = (stopped, locus.trick_number) {
        adjudication.list_unfinished(n, locus.trick.plays());
    }
}

/// The trick in progress as the table shows it: none before the first card of trick 1 (README
/// C13), nor in a game whose unit is a turn; once the hand is over, its last trick.
fn in_progress(locus: &Locus) -> Option<u8> {
    let n = locus.trick_number?;
    let over = locus.over;
    match (locus.trick.is_empty(), n) {
        (false, _) => Some(n),
        (true, 1) => None,
        (true, _) if over => Some(n - 1),
        (true, _) => Some(n),
    }
}

/// A record read in its game's verbs (`Game::read`), ready to be ruled on.
pub trait Recorded {
    /// Replays the whole hand and rules on it.
    fn adjudicate(&self) -> Result<Adjudication, Vec<FieldError>>;

    /// Rules on this hand as the next of a match (see `adjudicate_next`).
    fn adjudicate_next(
        &self,
        options: &Options,
        state: &MatchState,
    ) -> Result<Adjudication, Vec<FieldError>>;

    /// Sets up the hand and applies its actions, to be continued step by step.
    fn replay(&self) -> Result<Replay, Vec<FieldError>>;
}

/// A record of the game `R`, read in its verbs.
pub(super) struct Read<'a, R: Rules> {
    pub rules: &'a R,
    pub record: HandRecord<R::Verb>,
}

impl<R: Rules> Recorded for Read<'_, R> {
    fn adjudicate(&self) -> Result<Adjudication, Vec<FieldError>> {
        prepare(self.rules, &self.record, None, None)?.run()
    }

    fn adjudicate_next(
        &self,
        options: &Options,
        state: &MatchState,
    ) -> Result<Adjudication, Vec<FieldError>> {
        prepare(self.rules, &self.record, Some(options), Some(state))?.run()
    }

    fn replay(&self) -> Result<Replay, Vec<FieldError>> {
        let mut hand = prepare(self.rules, &self.record, None, None)?;
        let replayed = hand.state.replay(&hand.actions);
        if let Some(refusal) = hand.state.refusal() {
            return Err(refusal);
        }
        replayed.map_err(|e| {
            vec![FieldError::new(
                e.pointer,
                format!("{} ({})", e.detail, e.code),
            )]
        })?;
        Ok(Replay {
            applied: hand.actions.len(),
            state: Box::new(Typed(hand.state)),
            table: hand.table,
        })
    }
}

/// A hand of some game being replayed, taking actions as sent (read in the game's verbs here).
trait Step {
    fn apply(&mut self, index: usize, action: &Action) -> Result<(), RecordError>;
    /// The view with the legal actions, `index` being the next action's.
    fn view(&self, index: usize) -> TableView;
    /// The table as it stands, without the legal actions.
    fn table(&self) -> TableView;
    /// Where the hand stands (`HandState::locus`).
    fn locus(&self) -> Locus;
    /// `action` (`index` in its record) as the game reads it and offers it (`offered_as`), written
    /// back; `None` if it does not read.
    fn canonical(&self, index: usize, action: &Action) -> Option<Action>;
    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication;
}

/// A game's hand taking actions as sent.
struct Typed<V>(Box<dyn HandState<V>>);

impl<V: Verbs> Step for Typed<V> {
    fn apply(&mut self, index: usize, action: &Action) -> Result<(), RecordError> {
        match action.read::<V>(index) {
            Ok(action) => self.0.apply(index, &action),
            // An action the game has no verb for does not fit any point of its hand.
            Err(e) => Err(RecordError {
                code: "unexpected_action",
                action_index: Some(index),
                trick: None,
                seat: Some(action.seat),
                pointer: e.pointer,
                detail: e.detail,
            }),
        }
    }

    fn view(&self, index: usize) -> TableView {
        let mut view = self.0.view();
        view.legal = super::game::legal(self.0.as_ref(), index)
            .iter()
            .map(Action::any)
            .collect();
        view
    }

    fn table(&self) -> TableView {
        self.0.view()
    }

    fn locus(&self) -> Locus {
        self.0.locus()
    }

    fn canonical(&self, index: usize, action: &Action) -> Option<Action> {
        let action = action.read::<V>(index).ok()?;
        Some(self.0.offered_as(action).any())
    }

    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication {
        self.0.finish(error)
    }
}

/// A hand replayed step by step: the driver keeps the game's state between actions, so a client
/// walking a hand (the conformance kit, a what-if) does not replay the record at every step.
pub struct Replay {
    state: Box<dyn Step>,
    table: Table,
    /// Actions applied so far: the index of the next one.
    applied: usize,
}

impl Replay {
    /// Sets up `record`'s hand and applies its actions. A record error among them is a refusal:
    /// the position does not exist.
    pub fn start(game: &dyn Game, record: &HandRecord) -> Result<Replay, Vec<FieldError>> {
        game.read(record)?.replay()
    }

    /// The table as the next player to act sees it, with every legal action.
    pub fn view(&self) -> TableView {
        self.state.view(self.applied)
    }

    /// The table as it stands, without the legal actions (cheaper than `view`): who is due, the
    /// trick in progress.
    pub fn table(&self) -> TableView {
        self.state.table()
    }

    /// Where the hand stands, as `table` shows it: the trick on the table, and whether any seat
    /// is to act (said without building the view).
    pub fn locus(&self) -> Locus {
        self.state.locus()
    }

    /// The next action as the game reads it, written back the way the legal actions are: its
    /// seat as the table names it (`P1` is `N` at four seats), every field of its value given
    /// (an optional one at its default), and as the member of a family the game offers
    /// (`HandState::offered_as`). `None` if the game cannot read it.
    pub fn canonical(&self, action: &Action) -> Option<Action> {
        self.state
            .canonical(self.applied, &self.seated(action.clone()))
    }

    /// Applies the next action (its seat as the record may name it: `P1` is `N` at four seats).
    /// A record error ends the replay: pass it to `finish`.
    pub fn apply(&mut self, action: Action) -> Result<(), RecordError> {
        let action = self.seated(action);
        self.applied += 1;
        self.state.apply(self.applied - 1, &action)
    }

    /// `action` with its seat as the table names it.
    fn seated(&self, action: Action) -> Action {
        Action {
            seat: self.table.resolve(action.seat).unwrap_or(action.seat),
            ..action
        }
    }

    /// Ends the replay and rules on the hand (`error`: the record error that ended it, if any).
    pub fn finish(self, error: Option<RecordError>) -> Adjudication {
        let locus = self.state.locus();
        let mut adjudication = self.state.finish(error);
        locate(&mut adjudication, self.table, self.applied, &locus);
        adjudication
    }
}

fn prepare<'a, R: Rules>(
    game: &R,
    record: &'a HandRecord<R::Verb>,
    options: Option<&Options>,
    before: Option<&MatchState>,
) -> Result<Prepared<'a, R::Verb>, Vec<FieldError>> {
    let info = Rules::info(game);
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
    let table = options.as_ref().map(|o| Rules::table(game, o));
    let before = match (before, &record.match_state) {
        (Some(m), None) => with_every_field::<R>(m.clone())?,
        (Some(m), Some(r)) if r.scores == m.scores => {
            if let Some(t) = table {
                errors.extend(check_sides(t, &r.scores, "/match_state"));
            }
            with_every_field::<R>(m.clone())?
        }
        (Some(_), Some(_)) => {
            errors.push(FieldError::new(
                "/match_state".into(),
                "a hand of a match may not carry a different match state".into(),
            ));
            MatchState::default()
        }
        // No match state: every match's start, which holds nothing to check.
        (None, None) => with_every_field::<R>(MatchState::default())?,
        (None, Some(state)) => {
            let mut state = state.clone();
            let named = |s: Seat| table.and_then(|t| t.resolve(s)).unwrap_or(s);
            state.next_dealer = state.next_dealer.map(named);
            if let Err(e) = check_match_state(
                game,
                options.as_ref(),
                table,
                &mut state,
                named(record.dealer),
                "/match_state",
            ) {
                errors.extend(e);
            }
            state.out = state.out.into_iter().map(|(s, n)| (named(s), n)).collect();
            state
        }
    };
    // The seats still in: a seat that has left the table is dealt nothing and acts no more.
    let table = table.map(|t| t.without(before.out.keys().copied()));
    // A seat not at the table is refused, and a seat the table names otherwise (`P1` for `N`)
    // means the record is read renamed: the names the actions use are gathered in one mask, with
    // no branch per action, and the actions looked at one by one only to name a refused seat.
    let mut renamed_actions = false;
    if let Some(table) = table {
        let (known, renamed) = table.name_bits();
        let named = (record.actions.iter()).fold(0, |names, a| names | a.seat.name_bit());
        renamed_actions = named & renamed != 0;
        let refused = (named & !known != 0)
            .then(|| (record.actions.iter()).position(|a| table.resolve(a.seat).is_none()))
            .flatten();
        if let Some(a) = refused {
            errors.push(FieldError::new(
                format!("/actions/{a}/seat"),
                format!(
                    "no seat {} at this table: expected {}",
                    record.actions[a].seat,
                    table.names()
                ),
            ));
        }
    }
    let (options, table) = match (options, table) {
        (Some(o), Some(t)) if errors.is_empty() => (o, t),
        _ => return Err(errors),
    };
    let scores = before.scores.restrict(table.sides()).map_err(|side| {
        vec![FieldError::new(
            format!("/match_state/scores/{side}"),
            format!(
                "{side} does not score at this table: expected {}",
                table.side_names()
            ),
        )]
    })?;
    // Games see the dealer and the acting seats as their table names them (`P1` is `N` at a
    // four-seat table). The deal keeps its keys: `deal::check_cards` refuses a seat given twice.
    let named = |s: Seat| table.resolve(s).unwrap_or(s);
    let renamed = (named(record.dealer) != record.dealer || renamed_actions).then(|| {
        let mut r = record.clone();
        r.dealer = named(r.dealer);
        for a in &mut r.actions {
            a.seat = named(a.seat);
        }
        r
    });
    let seen = renamed.as_ref().unwrap_or(record);
    let setup = Rules::setup(game, &options);
    deal::check_setup(seen, &setup, info.name)?;
    if setup.counted_by.is_none() {
        deal::check_counts(seen, table, setup.hand)?;
    }
    let state = game.start(
        seen,
        &options,
        table,
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
    game.read(record)?.adjudicate()
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
    game.read(record)?.adjudicate_next(options, state)
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
    check_match_state(
        game,
        Some(&options),
        Some(table),
        &mut state,
        first_dealer,
        "/match_state",
    )
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
    state.out = state
        .out
        .into_iter()
        .map(|(s, n)| (resolve(s), n))
        .collect();
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

/// `state` with every carried field of the game `R`, those it lacks at their starting values
/// (records.md, "Presence"): a match's start, or a match state a league kept.
/// Taken by value: a match's start is made for it, and not copied again (every hand without a
/// match state comes here).
fn with_every_field<R: Rules>(state: MatchState) -> Result<MatchState, Vec<FieldError>> {
    Ok(MatchState {
        details: crate::details::checked::<R::Carried>(&state.details, "/match_state")?,
        ..state
    })
}

/// Scores beyond this size are refused: no real game gets near them, and they keep arithmetic safe.
const SCORE_LIMIT: i32 = 1_000_000;

/// Checks a match state given in a request, for a hand dealt by `dealer` in `game` under `options`
/// at `table` (when the options are valid); the game's own fields are then held as the game reads them.
fn check_match_state(
    game: &dyn Game,
    options: Option<&Options>,
    table: Option<Table>,
    state: &mut MatchState,
    dealer: Seat,
    base: &str,
) -> Result<(), Vec<FieldError>> {
    let mut errors = Vec::new();
    // A field of the game's own that it does not keep would be carried along unread.
    match game.read_carried(&state.details, base) {
        Ok(details) => state.details = details,
        Err(e) => errors.extend(e),
    }
    let state = &*state;
    for side in state.scores.sides() {
        if !(-SCORE_LIMIT..=SCORE_LIMIT).contains(&state.scores[side]) {
            errors.push(FieldError::new(
                format!("{base}/scores/{side}"),
                format!("scores are limited to ±{SCORE_LIMIT}"),
            ));
        }
    }
    // Every game counts the hand it scores (`hands_played + 1`): keep that addition safe.
    if state.hands_played > SCORE_LIMIT as u32 {
        errors.push(FieldError::new(
            format!("{base}/hands_played"),
            format!("hands played are limited to {SCORE_LIMIT}"),
        ));
    }
    if let Some(d) = options.and_then(|o| game.already_won(&state.scores, o)) {
        let won = match d.winner {
            Some(w) => format!("{w} has won the game"),
            None => "the game is over".into(),
        };
        errors.push(FieldError::new(
            format!("{base}/scores/{}", d.at),
            format!("{}: {won}, start a new match", d.why),
        ));
    }
    if state.game_over || !state.winners.is_empty() {
        let field = if state.game_over {
            "game_over"
        } else {
            "winners"
        };
        errors.push(FieldError::new(
            format!("{base}/{field}"),
            "the game is already over: start a new match".into(),
        ));
    }
    if let Some(table) = table {
        errors.extend(check_sides(table, &state.scores, base));
        errors.extend(check_out(table, state, dealer, base));
    }
    if let Some(d) = state.next_dealer
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

/// The scores of a match state given in a request name the sides of `table` only, whatever their
/// value: a player has one name (README "Seats"), so at four seats where each plays for himself the
/// sides are `N E S W`, and `P1`..`P4` (the seats' other spelling) are refused.
fn check_sides(table: Table, scores: &PerSide<i32>, base: &str) -> Vec<FieldError> {
    scores
        .sides()
        .filter(|&side| table.sides().all(|s| s != side))
        .map(|side| {
            FieldError::new(
                format!("{base}/scores/{side}"),
                format!(
                    "{side} is not a side of this table: expected {}",
                    table.side_names()
                ),
            )
        })
        .collect()
}

/// The seats a match state says have left `table`: seats of a table whose seats leave, each left
/// after a hand already played, at least two still in, the dealer among them.
fn check_out(table: Table, state: &MatchState, dealer: Seat, base: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if state.out.is_empty() {
        return errors;
    }
    if !table.shrinks() {
        errors.push(FieldError::new(
            format!("{base}/out"),
            "no seat leaves the table in this game: expected no `out`".into(),
        ));
        return errors;
    }
    let mut positions = 0u8;
    for (&seat, &after) in &state.out {
        let at = format!("{base}/out/{seat}");
        match table.resolve(seat) {
            None => errors.push(FieldError::new(
                at,
                format!("no seat {seat} at this table: expected {}", table.names()),
            )),
            Some(s) if positions >> s.pos() & 1 == 1 => errors.push(FieldError::new(
                at,
                format!("seat {s} is named twice (as {seat} and under another name)"),
            )),
            Some(s) if after > state.hands_played => {
                positions |= 1 << s.pos();
                errors.push(FieldError::new(
                    at,
                    format!(
                        "{seat} cannot have left after hand {after}: {} hands played",
                        state.hands_played
                    ),
                ))
            }
            Some(s) => positions |= 1 << s.pos(),
        }
    }
    if errors.is_empty() {
        if table.players() - (positions.count_ones() as usize) < 2 {
            errors.push(FieldError::new(
                format!("{base}/out"),
                "fewer than two seats are left at the table: the game is over, start a new match"
                    .into(),
            ));
        } else if table
            .resolve(dealer)
            .is_some_and(|d| positions >> d.pos() & 1 == 1)
        {
            errors.push(FieldError::new(
                "/dealer".into(),
                format!("{dealer} has left the table ({base}/out) and deals no more"),
            ));
        }
    }
    errors
}
