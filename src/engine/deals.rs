//! A match of an agreed number of deals (Calabrasella, the solo and whist games): the hands played
//! to a result count in `hands_played`; a deal that every player passes is thrown in and, where the
//! rules count it towards the agreed deals, is carried as the game's `passed_out`.

use crate::input::FieldError;
use crate::record::MatchState;

/// A bound on the carried count of passed-out deals, as the engine bounds `hands_played`.
pub const PASSED_OUT_LIMIT: u32 = 1_000_000;

/// The agreed length of a match in deals; 0: none agreed, the match goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgreedDeals(pub u32);

impl AgreedDeals {
    /// The deals done before this one: the hands played to a result and the deals thrown in.
    pub fn done(before: &MatchState, passed_out: u32) -> u32 {
        before.hands_played + passed_out
    }

    /// A carried count of passed-out deals beyond the bound is refused (README C14).
    pub fn check_passed_out(passed_out: u32) -> Option<FieldError> {
        (passed_out > PASSED_OUT_LIMIT).then(|| {
            FieldError::new(
                "/match_state/passed_out".into(),
                format!("passed-out deals are limited to {PASSED_OUT_LIMIT}"),
            )
        })
    }

    /// A match whose agreed deals are all done is refused (README C14): there is no next deal.
    /// `rule` names the rule that fixes the length (Calabrasella's CL-a).
    pub fn check_not_over(
        self,
        before: &MatchState,
        passed_out: u32,
        rule: &str,
    ) -> Option<FieldError> {
        let done = Self::done(before, passed_out);
        (self.0 > 0 && done >= self.0).then(|| {
            FieldError::new(
                "/match_state/hands_played".into(),
                format!(
                    "{done} of the {} agreed deals are done ({} played, {passed_out} passed out): the match is over, start a new one ({rule})",
                    self.0, before.hands_played
                ),
            )
        })
    }

    /// The carried state of a match of agreed deals whose every payment goes from one player to
    /// another, or into a `pool` the game holds beside the players (Boston's): refused (README C14)
    /// when the passed-out count is out of bounds, the scores and the pool do not add up to
    /// nothing, or the agreed deals are all done. `rule` names the rule that fixes the length.
    pub fn check_match(
        self,
        before: &MatchState,
        passed_out: u32,
        pool: i32,
        rule: &str,
    ) -> Result<(), Vec<FieldError>> {
        if let Some(e) = Self::check_passed_out(passed_out) {
            return Err(vec![e]);
        }
        let net: i64 = before
            .scores
            .sides()
            .map(|s| i64::from(before.scores[s]))
            .sum();
        if net + i64::from(pool) != 0 {
            let held = if pool == 0 {
                String::new()
            } else {
                format!(" and the pool holds {pool}")
            };
            return Err(vec![FieldError::new(
                "/match_state/scores".into(),
                format!(
                    "the scores add up to {net}{held}: every payment goes from one player to another{}, so they add up to 0",
                    if pool == 0 { "" } else { " or to the pool" }
                ),
            )]);
        }
        self.check_not_over(before, passed_out, rule)
            .map_or(Ok(()), |e| Err(vec![e]))
    }

    /// After a deal (`after` already counts it where it was played to a result; `passed_out`
    /// counts it where it was thrown in): when the agreed deals are done the highest score wins,
    /// a tie at the top nobody.
    pub fn close(self, after: &mut MatchState, passed_out: u32) {
        if self.0 > 0 && Self::done(after, passed_out) >= self.0 {
            after.highest_wins();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(hands: u32) -> MatchState {
        MatchState {
            hands_played: hands,
            ..MatchState::default()
        }
    }

    #[test]
    fn passed_out_deals_count_towards_the_agreed_deals() {
        let twelve = AgreedDeals(12);
        assert!(twelve.check_not_over(&played(9), 2, "BO-e").is_none());
        let over = twelve.check_not_over(&played(9), 3, "BO-e").unwrap();
        assert_eq!(over.pointer, "/match_state/hands_played");
        assert!(over.detail.contains("12 of the 12 agreed deals"));
        let mut after = played(10);
        twelve.close(&mut after, 1);
        assert!(!after.game_over);
        twelve.close(&mut after, 2);
        assert!(after.game_over);
    }

    #[test]
    fn payments_between_players_and_a_pool_add_up_to_nothing() {
        let mut before = played(2);
        before.scores = crate::seat::PerSide::over(crate::seat::Table::solo(3).sides());
        let [a, b, _] = [0, 1, 2].map(|i| crate::seat::Table::solo(3).sides().nth(i).unwrap());
        before.scores[a] = 7;
        before.scores[b] = -2;
        let twelve = AgreedDeals(12);
        let e = twelve.check_match(&before, 0, 0, "BO-e").unwrap_err();
        assert_eq!(e[0].pointer, "/match_state/scores");
        assert!(e[0].detail.contains("add up to 5"), "{}", e[0].detail);
        before.scores[b] = -7;
        assert!(twelve.check_match(&before, 0, 0, "BO-e").is_ok());
        before.scores[b] = -12;
        assert!(twelve.check_match(&before, 0, 5, "BO-e").is_ok());
        assert!(twelve.check_match(&before, 0, 0, "BO-e").is_err());
        let over = twelve.check_match(&before, 10, 5, "BO-e").unwrap_err();
        assert_eq!(over[0].pointer, "/match_state/hands_played");
        let bound = twelve
            .check_match(&before, PASSED_OUT_LIMIT + 1, 5, "BO-e")
            .unwrap_err();
        assert_eq!(bound[0].pointer, "/match_state/passed_out");
    }

    #[test]
    fn no_agreed_deals_no_end() {
        let none = AgreedDeals(0);
        assert!(none.check_not_over(&played(500), 500, "NW-c").is_none());
        let mut after = played(1000);
        none.close(&mut after, 10);
        assert!(!after.game_over);
    }

    #[test]
    fn the_passed_out_count_is_bounded() {
        assert!(AgreedDeals::check_passed_out(PASSED_OUT_LIMIT).is_none());
        let e = AgreedDeals::check_passed_out(PASSED_OUT_LIMIT + 1).unwrap();
        assert_eq!(e.pointer, "/match_state/passed_out");
    }
}
