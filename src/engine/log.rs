//! What a director reports: irregularities (rules broken at the table, penalised, replay goes on),
//! record errors (the record contradicts the deal or the turn order: replay stops), corrected revokes
//! and actions ignored after a hand was decided (`docs/rules/README.md`, "Legality outcomes", C2–C6).

use crate::cards::Card;
use crate::record::{Action, Verbs};
use crate::seat::{PerSide, Seat, Side};
use serde::Serialize;
use std::fmt;
use utoipa::ToSchema;

/// A rule broken at the table, with its evidence and the consequence applied.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Irregularity {
    /// Stable code named by the game's rule file, e.g. `revoke`, `illegal_seven`.
    pub code: &'static str,
    /// Index (0-based) of the action that put the offending card on the table (after a `correct`,
    /// the `correct`'s: README C10); `null` for a fault of the deal itself (a misdeal).
    pub action_index: Option<usize>,
    /// Trick number (1-based), when the irregularity happened in a trick.
    pub trick: Option<u8>,
    pub seat: Seat,
    pub card: Option<Card>,
    /// The rule broken: rule file and section.
    pub rule: &'static str,
    /// One sentence a director can read out.
    pub explanation: String,
    /// What follows from it under the game's rules, in words.
    pub consequence: String,
    /// What follows from it, as numbers.
    pub effect: Effect,
}

/// What a penalty moved, as numbers: the points it put into the hand score (listed in `score_items`
/// too, with the irregularity's code and action index) and whether it decided the hand or the game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Effect {
    /// Points per side the penalty put into `hand_score`; only the sides it moved (empty: none).
    #[schema(inline)]
    pub points: PerSide<i32>,
    /// `hand`: the penalty fixed the hand's result whatever the remaining play (README C9);
    /// `game`: it decided the game (Malilla); `null`: neither.
    pub decides: Option<Decides>,
}

impl Default for Effect {
    fn default() -> Effect {
        Effect {
            points: PerSide::over([]),
            decides: None,
        }
    }
}

/// What a penalty decided at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decides {
    Hand,
    Game,
}

/// A rule broken by a card, as the legality check finds it (before any consequence is known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub code: &'static str,
    pub rule: &'static str,
    pub explanation: String,
}

impl Fault {
    pub fn new(code: &'static str, rule: &'static str, explanation: String) -> Fault {
        Fault {
            code,
            rule,
            explanation,
        }
    }
}

/// The record is inconsistent with the deal or the turn order (README "Record error"): the replay
/// stops, the hand gets no score and the match state is unchanged (C5).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RecordError {
    /// Stable code, e.g. `card_not_held`, `out_of_turn`, `ineligible_spoil`.
    pub code: &'static str,
    pub action_index: Option<usize>,
    /// The trick in progress when the record went wrong (1-based); `null` before the first card of
    /// trick 1 (README C13). Always present; the replay driver fills it in.
    pub trick: Option<u8>,
    pub seat: Option<Seat>,
    /// JSON pointer to the offending part of the record.
    pub pointer: String,
    pub detail: String,
}

impl RecordError {
    /// An error about action `index` (its `field` is the verb, e.g. `play`): any text, so that a
    /// caller whose field is a path (`meld/2`) writes it only when there is an error.
    pub fn at(
        code: &'static str,
        index: usize,
        seat: Seat,
        field: impl std::fmt::Display,
        detail: String,
    ) -> RecordError {
        RecordError {
            code,
            action_index: Some(index),
            trick: None,
            seat: Some(seat),
            pointer: format!("/actions/{index}/{field}"),
            detail,
        }
    }
}

impl RecordError {
    /// An error about action `index`, at its verb.
    pub fn on<V: Verbs>(
        code: &'static str,
        index: usize,
        action: &Action<V>,
        detail: String,
    ) -> RecordError {
        RecordError::at(code, index, action.seat, action.kind.verb(), detail)
    }

    /// Action `index` does not fit the phase of the hand (`detail` says what was due instead).
    pub fn unexpected<V: Verbs>(index: usize, action: &Action<V>, detail: String) -> RecordError {
        RecordError::on("unexpected_action", index, action, detail)
    }

    /// Action `index` comes after the hand ended (`detail` says how it ended). A `correct` there is
    /// `invalid_correct` (README C2: its trick is complete); anything else `action_after_end`.
    pub fn after_end<V: Verbs>(index: usize, action: &Action<V>, detail: &str) -> RecordError {
        match action.kind.verb() {
            "correct" => RecordError::on(
                "invalid_correct",
                index,
                action,
                format!("{detail}: a revoke can only be corrected before its trick is complete"),
            ),
            _ => RecordError::on("action_after_end", index, action, detail.to_string()),
        }
    }

    /// A `correct` before any card is played (README C11): nobody is entitled to correct yet.
    pub fn correct_before_play<V: Verbs>(index: usize, action: &Action<V>) -> RecordError {
        RecordError::on(
            "invalid_correct",
            index,
            action,
            "no card has been played yet: only a card of the trick in progress can be corrected (README C3, C11)".into(),
        )
    }

    /// The record stops before the hand is decided (`seat`: who was due to act, if known). The
    /// replay driver sets `action_index` to where the next action was due (README C5).
    pub fn incomplete_hand(seat: Option<Seat>, detail: String) -> RecordError {
        RecordError {
            code: "incomplete_hand",
            action_index: None,
            trick: None,
            seat,
            pointer: "/actions".into(),
            detail,
        }
    }
}

impl RecordError {
    /// Action `index` does not fit the phase, in which `due` is to act (`expected` says what is
    /// due): a `correct` is `invalid_correct` (README C11: no card of the seat's own is open to
    /// correction), an action by another seat `out_of_turn` whatever its verb (C12: the seat is
    /// checked first), else `unexpected_action`.
    pub fn out_of_phase<V: Verbs>(
        index: usize,
        action: &Action<V>,
        due: Seat,
        expected: &str,
    ) -> RecordError {
        let seat = action.seat;
        match action.kind.verb() {
            "correct" => RecordError::on(
                "invalid_correct",
                index,
                action,
                format!("{seat} has no revoke of his own to correct here: {expected}"),
            ),
            _ if seat != due => RecordError::on(
                "out_of_turn",
                index,
                action,
                format!("it is not {seat}'s turn: {expected}"),
            ),
            _ => RecordError::unexpected(index, action, expected.to_string()),
        }
    }
}

impl RecordError {
    /// Action `index` does not fit the hand where `due` is to act (`expected` says what is due):
    /// `out_of_phase` while a seat is due, `after_end` once none is (the hand is over).
    pub fn misfit<V: Verbs>(
        index: usize,
        action: &Action<V>,
        due: Option<Seat>,
        expected: &str,
    ) -> RecordError {
        match due {
            Some(due) => RecordError::out_of_phase(index, action, due, expected),
            None => RecordError::after_end(index, action, expected),
        }
    }
}

/// README C7: of the established irregularities whose penalties would each decide the hand, the
/// first decides; later ones are reported with no further effect.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstDecides(Option<(Side, usize, &'static str)>);

impl FirstDecides {
    /// The offending side and the action of the irregularity that decided the hand.
    pub fn decided(&self) -> Option<(Side, usize)> {
        self.0.map(|(side, at, _)| (side, at))
    }

    /// README C9, C6: once an irregularity has decided the hand, action `index` (whatever it is, a
    /// late `correct` included) is ignored; the reason names that irregularity's code and `rule`,
    /// the penalty that decided it.
    pub fn ignores(&self, index: usize, rule: &'static str) -> Option<IgnoredAction> {
        self.0.map(|(_, at, code)| IgnoredAction {
            action_index: index,
            reason: Reason::Decided { at, code, rule },
        })
    }

    /// An irregularity `code` by `offenders` at action `index` is established: `None` when it
    /// decides the hand (the game states its penalty), else the consequence to report.
    pub fn offence(&mut self, offenders: Side, index: usize, code: &'static str) -> Option<String> {
        match self.0 {
            Some((first, at, _)) => Some(format!(
                "no further effect: the irregularity by {} at action {at} already decided the hand (README C7)",
                first.spoken()
            )),
            None => {
                self.0 = Some((offenders, index, code));
                None
            }
        }
    }
}

/// A revoke cancelled by a `correct` action before its trick was complete (README C4: no penalty).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CorrectedRevoke {
    pub action_index: usize,
    pub correct_index: usize,
    pub trick: u8,
    pub seat: Seat,
    pub card: Card,
    pub corrected_to: Card,
    pub code: &'static str,
}

/// An action that had no effect, and why.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct IgnoredAction {
    pub action_index: usize,
    #[schema(value_type = String)]
    pub reason: Reason,
}

/// Why an action was set aside, in words. A hand decided by a revoke sets aside every later
/// action for the same reason: it is written out when the ruling is, not once per action.
#[derive(Clone, Debug)]
pub enum Reason {
    Said(String),
    /// README C9, C6: the irregularity `code` at action `at` decided the hand under `rule`.
    Decided {
        at: usize,
        code: &'static str,
        rule: &'static str,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Reason::Said(words) => f.write_str(words),
            Reason::Decided { at, code, rule } => write!(
                f,
                "the {code} at action {at} decided the hand ({rule}): later actions are ignored (README C9, C6)"
            ),
        }
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl From<String> for Reason {
    fn from(words: String) -> Reason {
        Reason::Said(words)
    }
}

impl From<&str> for Reason {
    fn from(words: &str) -> Reason {
        Reason::Said(words.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::verbs! {
        /// A test game's card verbs.
        enum Verb in "Test" {
            Play(crate::cards::Card) = "play": "A card.",
            Correct(crate::cards::Card) = "correct": "A correction.",
        }
    }

    #[test]
    fn a_misfit_is_out_of_turn_unexpected_or_after_the_end() {
        let card = "AS".parse().unwrap();
        let play = Action {
            seat: Seat::N,
            kind: Verb::Play(card),
        };
        let code = |a: &Action<Verb>, due| RecordError::misfit(3, a, due, "what is due").code;
        assert_eq!(code(&play, Some(Seat::E)), "out_of_turn");
        assert_eq!(code(&play, Some(Seat::N)), "unexpected_action");
        assert_eq!(code(&play, None), "action_after_end");
        let correct = Action {
            seat: Seat::N,
            kind: Verb::Correct(card),
        };
        assert_eq!(code(&correct, Some(Seat::E)), "invalid_correct");
        assert_eq!(code(&correct, None), "invalid_correct");
    }
}
