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

    /// A match state of a game settled between the players (and a `pool` where it has one) that no
    /// deal can produce is refused (README C14): balances and pool that do not add up to nothing
    /// (every payment goes from one player to another or to the pool, as `payments` rules), a
    /// carried count of passed-out deals beyond the bound, or a match whose agreed deals are all
    /// done (as `length` rules).
    pub fn check_match(
        self,
        before: &MatchState,
        passed_out: u32,
        pool: i64,
        payments: &str,
        length: &str,
    ) -> Result<(), Vec<FieldError>> {
        let mut errors: Vec<FieldError> = Self::check_passed_out(passed_out).into_iter().collect();
        errors.extend(check_net_zero(before, pool, payments));
        if errors.is_empty() {
            errors.extend(self.check_not_over(before, passed_out, length));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
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

/// Balances where every payment goes from one player to another or to a `pool` (Calabrasella's
/// chips, the solo and whist games' net units, Colour Whist's and Boston's pool) add up to nothing
/// with the pool: a match state whose balances do not is refused (README C14). `rule` names the
/// rule that settles the payments.
pub fn check_net_zero(before: &MatchState, pool: i64, rule: &str) -> Option<FieldError> {
    let sum: i64 = before
        .scores
        .sides()
        .map(|s| i64::from(before.scores[s]))
        .sum();
    (sum + pool != 0).then(|| {
        let held = match pool {
            0 => String::new(),
            _ => format!(" and the pool holds {pool}"),
        };
        FieldError::new(
            "/match_state/scores".into(),
            format!(
                "the balances add up to {sum}{held}: every payment goes from one player to another or to the pool, so together they add up to 0 ({rule})"
            ),
        )
    })
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
    fn no_agreed_deals_no_end() {
        let none = AgreedDeals(0);
        assert!(none.check_not_over(&played(500), 500, "NW-c").is_none());
        let mut after = played(1000);
        none.close(&mut after, 10);
        assert!(!after.game_over);
    }

    #[test]
    fn balances_paid_between_players_add_up_to_nothing() {
        let table = crate::seat::Table::solo(3);
        let mut before = MatchState {
            scores: crate::seat::PerSide::over(table.sides()),
            ..MatchState::default()
        };
        assert!(check_net_zero(&before, 0, "CL §4").is_none());
        let p1 = table.side(table.seat(0));
        before.scores[p1] = 5;
        let e = check_net_zero(&before, 0, "CL §4").unwrap();
        assert_eq!(e.pointer, "/match_state/scores");
        assert!(e.detail.contains("add up to 5"), "{}", e.detail);
    }

    #[test]
    fn balances_between_players_add_up_to_nothing() {
        let mut before = played(1);
        before.scores = crate::engine::PerSide::over([
            crate::engine::Side::alone(crate::engine::Seat::N),
            crate::engine::Side::alone(crate::engine::Seat::E),
        ]);
        before.scores[crate::engine::Side::alone(crate::engine::Seat::N)] = 5;
        let errors = AgreedDeals(3)
            .check_match(&before, 0, 0, "§4", "NW-c")
            .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].pointer, "/match_state/scores");
        before.scores[crate::engine::Side::alone(crate::engine::Seat::E)] = -5;
        assert!(
            AgreedDeals(3)
                .check_match(&before, 0, 0, "§4", "NW-c")
                .is_ok()
        );
        let over = AgreedDeals(3)
            .check_match(&before, 2, 0, "§4", "NW-c")
            .unwrap_err();
        assert_eq!(over[0].pointer, "/match_state/hands_played");
    }

    #[test]
    fn the_passed_out_count_is_bounded() {
        assert!(AgreedDeals::check_passed_out(PASSED_OUT_LIMIT).is_none());
        let e = AgreedDeals::check_passed_out(PASSED_OUT_LIMIT + 1).unwrap();
        assert_eq!(e.pointer, "/match_state/passed_out");
    }
}
