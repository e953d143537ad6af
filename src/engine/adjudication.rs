//! The director's ruling on one hand: the one contract every game answers with
//! (`docs/records.md`, "The adjudication"), and the helpers that score a hand one way.

use super::{
    CorrectedRevoke, IgnoredAction, Irregularity, MatchState, PerSide, PlayedCard, RecordError,
    Seat, Side, Table, Trick, TrickReport,
};
use crate::cards::{Card, Suit};
use crate::details::Details;
use serde::Serialize;
use utoipa::ToSchema;

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
    /// The winning bid as called, where there is an auction (its form is the game's bid's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid: Option<serde_json::Value>,
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
    /// The trick in progress at its action: `null` before the first card of trick 1 (README C13)
    /// or when no action caused it. Filled by the replay driver where the game leaves it out.
    pub trick: Option<u8>,
    /// The seat it concerns, where one does.
    pub seat: Option<Seat>,
    /// The side it concerns: the seat's side where a seat is named (set by the replay driver), or
    /// a side's own event (Court Piece's `first_seven`); `null` when it concerns the whole table.
    pub side: Option<Side>,
    /// The cards it concerns (`[]` where none).
    pub cards: Vec<Card>,
    /// The game's own facts about it, beside the common ones (Big Two's `combination` and `led`).
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub details: Details,
    /// One sentence a director can read out.
    pub detail: String,
}

impl Event {
    /// An event with the facts every game gives; `trick` and `side` are left for the replay driver
    /// to fill (or for `in_trick`/`for_side` where the game knows better), details for `with`.
    pub fn new(
        code: &'static str,
        action_index: impl Into<Option<usize>>,
        seat: impl Into<Option<Seat>>,
        cards: Vec<Card>,
        detail: String,
    ) -> Event {
        Event {
            code,
            action_index: action_index.into(),
            trick: None,
            seat: seat.into(),
            side: None,
            cards,
            details: Details::new(),
            detail,
        }
    }

    /// The game's own facts about the event.
    pub fn with(mut self, details: Details) -> Event {
        self.details = details;
        self
    }

    /// The trick the event belongs to, where the game knows it better than the driver.
    pub fn in_trick(mut self, trick: impl Into<Option<u8>>) -> Event {
        self.trick = trick.into();
        self
    }

    /// The side the event concerns, where it is a side's own (no seat names it).
    pub fn for_side(mut self, side: Side) -> Event {
        self.side = Some(side);
        self
    }
}

/// What one side took in the hand.
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct Tally {
    pub tricks: u32,
    /// Card points plus trick points, where the game counts points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i32>,
    /// The game's own counts (Stubs & Spoils' `stubs_won` and `stubs`).
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub details: Details,
}

/// One camp of a hand, where the camps are not the fixed sides: a declarer and his partners
/// against the defenders, an ally made known by play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Camp {
    /// The camp's part in the hand, in the game's words (`declarer`, `defenders`).
    pub role: &'static str,
    pub seats: Vec<Seat>,
    /// The action that made the camp known (an ally revealed by his card), where one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revealed_at: Option<usize>,
}

/// The two camps' points in a game of a declarer against defenders whose points decide the hand
/// (a game's own details: Imperial Tarot's contract, Calabrasella's payment).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct CampPoints {
    pub declarer: i32,
    pub defenders: i32,
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
    /// The trump suit; `null` where none was made (or the game plays without trumps).
    pub trump: Option<Suit>,
    /// The game's own findings (Stubs & Spoils' `mode` and `special_suit`); its details schema
    /// names them.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub details: Details,
    pub tricks: Vec<TrickReport>,
    pub irregularities: Vec<Irregularity>,
    pub corrected_revokes: Vec<CorrectedRevoke>,
    pub record_error: Option<RecordError>,
    pub ignored_actions: Vec<IgnoredAction>,
    pub bonuses: Vec<Bonus>,
    /// `null` where no contract stands (none made yet, or the game has no declarer).
    pub contract: Option<Contract>,
    /// The hand's camps, in games where they are not the fixed sides (declarer against three):
    /// each player still scores his own points. Empty where the camps are the fixed sides.
    pub camps: Vec<Camp>,
    /// The side that won the hand, in games whose rules name one; `null` otherwise, for a tie, or
    /// when the hand is not scored.
    pub hand_winner: Option<Side>,
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

/// How a hand stands when its record ends (`Adjudication::conclude`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Decided: played out, or ended early by the rules (a misdeal, a foul, a concession).
    Over,
    /// Not decided: `due` is the seat to act, where one is known; `detail` says where play stopped.
    Open { due: Option<Seat>, detail: String },
}

impl Adjudication {
    /// The one way every hand finishes (README C5): a record error leaves the hand unscored and the
    /// match as it was; a record that stops before the hand is decided is `incomplete_hand`;
    /// otherwise `score` rules on the hand. In place: the ruling is large, and moving it in and
    /// out of the scoring showed in the replay profile.
    pub fn conclude(
        &mut self,
        error: Option<RecordError>,
        ending: Ending,
        score: impl FnOnce(&mut Adjudication),
    ) {
        if !self.unscored(error, ending) {
            score(self);
        }
    }

    /// `conclude` for a game whose scoring needs its whole hand: rules the hand unscored (a record
    /// error, or `incomplete_hand`) and says so, or returns `false` for the game to score it.
    pub fn unscored(&mut self, error: Option<RecordError>, ending: Ending) -> bool {
        match (error, ending) {
            (Some(e), _) => self.record_error(e),
            (None, Ending::Open { due, detail }) => {
                self.record_error(RecordError::incomplete_hand(due, detail))
            }
            (None, Ending::Over) => return false,
        }
        true
    }

    /// Whether action `index` committed an established irregularity.
    pub fn faulted(&self, index: usize) -> bool {
        self.irregularities
            .iter()
            .any(|i| i.action_index == Some(index))
    }

    /// Whether action `index` was set aside with no effect (it is among `ignored_actions`).
    pub fn ignored(&self, index: usize) -> bool {
        self.ignored_actions.iter().any(|a| a.action_index == index)
    }

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
            details: Details::new(),
            tricks: Vec::with_capacity(tricks),
            irregularities: Vec::new(),
            corrected_revokes: Vec::new(),
            record_error: None,
            ignored_actions: Vec::new(),
            bonuses: Vec::new(),
            contract: None,
            camps: Vec::new(),
            hand_winner: None,
            events: Vec::new(),
            tally: PerSide::default(),
            hand_score: None,
            score_items: Vec::new(),
            match_before: before.clone(),
            match_after: before.clone(),
        }
    }

    /// The game counts card points: every side's tally states them, 0 until a card is taken (a
    /// misdeal, a record stopping in the auction).
    pub fn counts_card_points(&mut self, sides: impl IntoIterator<Item = Side>) {
        for side in sides {
            self.tally[side].points = Some(0);
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
            // The words follow the numbers: a penalty the record error leaves unscored says so.
            if i.effect.points.sides().next().is_some() {
                i.consequence.push_str(
                    " Not applied: the record has an error, so the hand is not scored (README C5).",
                );
            }
            i.effect.points = PerSide::over([]);
        }
        if let Some(c) = &mut self.contract {
            c.made = None;
        }
        self.match_after = self.match_before.clone();
    }

    /// Every event states its side and trick (`docs/records.md`, events): the side of its seat
    /// where the game named only the seat; the trick in progress at its action where the game
    /// left it out (README C13: none before the first card; after the last reported trick,
    /// `last`, the trick in progress when the record ends, whose first card was action
    /// `last_led_at`: it places the events of a trick 1 the record stopped in).
    pub fn locate_events(&mut self, table: Table, last: Option<u8>, last_led_at: Option<usize>) {
        if self.events.is_empty() {
            return; // most hands: no list of the tricks' ends to build
        }
        let ends: Vec<(u8, usize, usize)> = self
            .tricks
            .iter()
            .filter(|t| !t.plays.is_empty())
            .map(|t| {
                let p = &t.plays;
                (t.number, p.action_index(0), p.action_index(p.len() - 1))
            })
            .collect();
        let first_card = ends.first().map(|&(_, first, _)| first).or(last_led_at);
        for e in &mut self.events {
            if e.side.is_none() {
                e.side = e.seat.map(|s| table.side(s));
            }
            let (Some(i), None, Some(first)) = (e.action_index, e.trick, first_card) else {
                continue;
            };
            if i >= first {
                e.trick = ends
                    .iter()
                    .find(|&&(_, _, end)| end >= i)
                    .map(|&(n, _, _)| n)
                    .or(last);
            }
        }
    }

    /// Lists the cards on the table when the hand stopped (a record error, a deciding foul) as
    /// trick `number`, incomplete with no winner, unless the game reported that trick itself (a
    /// Truco run) or no card lies there.
    pub fn list_unfinished(&mut self, number: u8, plays: &[PlayedCard]) {
        if plays.is_empty() || self.tricks.iter().any(|t| t.number == number) {
            return;
        }
        let mut report = TrickReport::ruled(Trick::on_table(number, plays), None);
        report.complete = false;
        self.tricks.push(report);
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
        // One rule for zero parts: a part worth nothing is not listed.
        if points == 0 {
            return;
        }
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
        if points == 0 {
            return;
        }
        let i = &mut self.irregularities[irregularity];
        i.effect.points[side] += points;
        let (code, at) = (i.code, i.action_index);
        self.score(side, points, ScoreSource::Penalty, code, at);
    }

    /// Scores the payments `pay` makes with a settlement helper (`pay_each_from_each`,
    /// `pay_in_pairs`, given the source and code to use) as the penalty of irregularity
    /// `irregularity`: a revoke that settles a contract as made or failed (the whist family's §5
    /// defaults). Each payment becomes a score item of the irregularity, and its number goes into
    /// the irregularity's effect.
    pub fn penalize_payments(
        &mut self,
        irregularity: usize,
        pay: impl FnOnce(&mut Adjudication, ScoreSource, &'static str),
    ) {
        let from = self.score_items.len();
        let (code, at) = {
            let i = &self.irregularities[irregularity];
            (i.code, i.action_index)
        };
        pay(self, ScoreSource::Penalty, code);
        for item in &mut self.score_items[from..] {
            item.action_index = at;
            self.irregularities[irregularity].effect.points[item.side] += item.points;
        }
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

    /// Sets the hand's two camps: `seats` under `role` (a declarer with any partner known from the
    /// start; a bank) against every other seat still at `table` under `others` (`defenders`,
    /// `punters`).
    pub fn set_camps(
        &mut self,
        table: Table,
        role: &'static str,
        seats: &[Seat],
        others: &'static str,
    ) {
        let mut own = seats.to_vec();
        own.sort();
        self.camps = vec![
            Camp {
                role,
                seats: own,
                revealed_at: None,
            },
            Camp {
                role: others,
                seats: table.seats().filter(|s| !seats.contains(s)).collect(),
                revealed_at: None,
            },
        ];
    }

    /// `ally` is made known by play at action `index` (Nomination Whist's called card, Boston's
    /// supporter): he joins the camp `role` from the other. Nothing changes when he is in it
    /// already (a declarer who called his own card plays alone).
    pub fn reveal_ally(&mut self, role: &str, ally: Seat, index: usize) {
        if self.camp_of(ally) == Some(role) {
            return;
        }
        for camp in &mut self.camps {
            if camp.role == role {
                camp.seats.push(ally);
                camp.seats.sort();
                camp.revealed_at = Some(index);
            } else {
                camp.seats.retain(|&s| s != ally);
            }
        }
    }

    /// The role of the camp `seat` is in, this hand.
    pub fn camp_of(&self, seat: Seat) -> Option<&'static str> {
        self.camps
            .iter()
            .find(|c| c.seats.contains(&seat))
            .map(|c| c.role)
    }

    /// Each from each: every seat of the camp `payers` pays `points` to every seat of the camp
    /// `payees`, each on his own side (a declarer alone who makes his contract collects `points`
    /// from each of three defenders: +3 × `points` to him, −`points` to each of them). Negative
    /// `points` run the other way. One score item per seat, the payees first. Right for a player
    /// alone against the others; for partners each paid by one opponent, `pay_in_pairs`.
    pub fn pay_each_from_each(
        &mut self,
        table: Table,
        payers: &str,
        payees: &str,
        points: i32,
        source: ScoreSource,
        code: &'static str,
    ) {
        let (from, to) = (self.camp(payers), self.camp(payees));
        let (received, paid) = (points * from.len() as i32, points * to.len() as i32);
        self.pay_between(table, &from, &to, received, paid, source, code);
    }

    /// Pair settlement (the whist family: Nomination Whist's bidder and ally, Colour Whist's
    /// partnered contracts): the camps `payers` and `payees`, of the same size, are paired off in
    /// the table's seat order and each payee receives `points` from his one payer (negative: pays
    /// it to him). Each seat's amount is whole: nothing is halved, so an odd amount needs no split
    /// (paying the pair's total `each from each` would charge each opponent half of it). An amount
    /// a rule states for the pair together (Colour Whist's pool) is the game's to divide, with the
    /// odd unit where its rule puts it. One score item per seat, the payees first.
    pub fn pay_in_pairs(
        &mut self,
        table: Table,
        payers: &str,
        payees: &str,
        points: i32,
        source: ScoreSource,
        code: &'static str,
    ) {
        let (from, to) = (self.camp(payers), self.camp(payees));
        debug_assert_eq!(from.len(), to.len(), "pairs: camps of one size");
        self.pay_between(table, &from, &to, points, points, source, code);
    }

    /// Each seat of `to` receives `received` and each seat of `from` pays `paid`: one score item
    /// per seat, the payees first.
    #[allow(clippy::too_many_arguments)]
    fn pay_between(
        &mut self,
        table: Table,
        from: &[Seat],
        to: &[Seat],
        received: i32,
        paid: i32,
        source: ScoreSource,
        code: &'static str,
    ) {
        for &s in to {
            self.score(table.side(s), received, source, code, None);
        }
        for &s in from {
            self.score(table.side(s), -paid, source, code, None);
        }
    }

    /// The seats of the camp `role` (none when there is no such camp this hand).
    fn camp(&self, role: &str) -> Vec<Seat> {
        self.camps
            .iter()
            .find(|c| c.role == role)
            .map(|c| c.seats.clone())
            .unwrap_or_default()
    }

    /// Scores the hand (one way for every game): `hand_score` is the total of the score items, the
    /// match scores grow by it and the hand is counted, unless it is void (thrown in: what it
    /// moved, stakes or fines, stands, but no hand was played). Returns the hand score.
    pub fn settle(&mut self) -> PerSide<i32> {
        let total = self.total();
        self.hand_score = Some(total);
        let m = &mut self.match_after;
        for side in total.sides() {
            m.scores[side] += total[side];
        }
        if self.outcome != Outcome::Void {
            m.hands_played += 1;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One rule for zero parts: a part or a penalty worth nothing is not listed, and the penalty's
    /// effect names no side it did not move.
    #[test]
    fn a_part_worth_nothing_is_not_listed() {
        let mut a = Adjudication::new("test", Seat::S, &MatchState::default(), 0);
        a.score(Side::NS, 0, ScoreSource::Tricks, "card_points", None);
        a.irregularities.push(Irregularity {
            code: "revoke",
            action_index: Some(3),
            trick: Some(1),
            seat: Seat::E,
            card: None,
            rule: "",
            explanation: String::new(),
            consequence: String::new(),
            effect: Default::default(),
        });
        a.penalize(0, Side::EW, 0);
        assert!(a.score_items.is_empty());
        assert_eq!(a.irregularities[0].effect.points.sides().count(), 0);
        a.score(Side::EW, 2, ScoreSource::Tricks, "card_points", None);
        assert_eq!(a.score_items.len(), 1);
    }

    /// README C13: an event after the first card of trick 1 belongs to trick 1, also when the
    /// record stops before trick 1 is complete; an event before that card to no trick.
    #[test]
    fn events_of_an_unfinished_first_trick_are_placed_in_it() {
        let placed = |led_at: Option<usize>| {
            let mut a = Adjudication::new("test", Seat::S, &MatchState::default(), 0);
            for i in [2, 6] {
                a.events
                    .push(Event::new("x", i, Seat::W, Vec::new(), String::new()));
            }
            a.locate_events(Table::FOUR, Some(1), led_at);
            a.events.iter().map(|e| e.trick).collect::<Vec<_>>()
        };
        assert_eq!(placed(Some(4)), [None, Some(1)]);
        assert_eq!(placed(None), [None, None]);
    }

    /// A revoke that settles a contract: the helper's payments become the irregularity's score
    /// items, at its action, and its effect states them.
    #[test]
    fn payments_made_as_a_penalty_are_the_irregularitys() {
        let table = Table::solo(4);
        let mut a = Adjudication::new("test", Seat::W, &MatchState::default(), 0);
        a.set_camps(table, "bidder", &[Seat::N, Seat::S], "opponents");
        a.irregularities.push(Irregularity {
            code: "revoke",
            action_index: Some(5),
            trick: Some(2),
            seat: Seat::E,
            card: None,
            rule: "",
            explanation: String::new(),
            consequence: String::new(),
            effect: Default::default(),
        });
        a.penalize_payments(0, |a, source, code| {
            a.pay_in_pairs(table, "opponents", "bidder", 8, source, code)
        });
        assert_eq!(a.score_items.len(), 4);
        assert!(
            a.score_items
                .iter()
                .all(|i| i.source == ScoreSource::Penalty
                    && i.code == "revoke"
                    && i.action_index == Some(5))
        );
        let effect = &a.irregularities[0].effect.points;
        assert_eq!(effect[table.side(Seat::N)], 8);
        assert_eq!(effect[table.side(Seat::S)], 8);
        assert_eq!(effect[table.side(Seat::E)], -8);
        assert_eq!(effect[table.side(Seat::W)], -8);
    }
}
