//! Standings kept up to date in the same transaction as every write (schema migration 14), so that
//! reading them is a few indexed rows at any size of league.
//!
//! - What a hand adds (hands, points for and against, irregularities, camps) is kept by triggers
//!   on the rows a ruling is written as (`hands`, `hand_scores`, `hand_irregularities`,
//!   `hand_camps`): every write path (post, import, amendment, void, readjudication) writes and
//!   deletes those rows, so none can forget one. A camp's points are a pair (the seat's camp, its
//!   side's score): they count while both rows exist, whichever is written or deleted first.
//! - What a finished match adds (matches played, won, lost, places) is kept as `match_finishes`,
//!   one row per side, written here each time a match's state is stored; triggers add its rows up.
//! - Ratings are order-dependent (Weng-Lin folded over matches in the order they finished, by
//!   their last hand): each finished match keeps every player's rating after it
//!   (`match_ratings`). When a match's finish changes (it finishes, an amendment or a void changes
//!   its order of finish, or the hand it finished on), the ratings are folded again from that
//!   match forward, starting from each player's rating after his last earlier match. A new hand
//!   that finishes a match is the latest, so the common case folds one match.

use super::Result;
use super::StoreError;
use super::db::{Tx, args};
use super::standings::{FinishedSide, order_of_finish, rate};
use crate::engine::{MatchState, Side};
use crate::games;
use skillratings::weng_lin::WengLinRating;
use std::collections::BTreeMap;

/// One side's finish in a finished match, as `match_finishes` keeps it.
#[derive(Debug, PartialEq)]
struct Finish {
    side: String,
    place: i64,
    won: bool,
    lost: bool,
    finished_by: i64,
}

/// Stores match `match_id`'s finish from its stored state. Returns the league and the point
/// (`finished_by`, its last hand) from which ratings must be folded again, when its finish changed.
pub(super) fn finish(tx: &Tx, match_id: i64) -> Result<Option<(i64, i64)>> {
    let (league, game_over, state): (i64, bool, String) = tx.query_row(
        "SELECT league_id, game_over, state FROM matches WHERE id = ?1",
        args![match_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let before: Vec<Finish> = tx.query_map(
        "SELECT side, place, won, lost, finished_by FROM match_finishes \
         WHERE match_id = ?1 ORDER BY side",
        args![match_id],
        |r| {
            Ok(Finish {
                side: r.get(0)?,
                place: r.get(1)?,
                won: r.get(2)?,
                lost: r.get(3)?,
                finished_by: r.get(4)?,
            })
        },
    )?;
    if !game_over && before.is_empty() {
        return Ok(None);
    }
    let after = if game_over {
        finishes(tx, league, match_id, &state)?
    } else {
        Vec::new()
    };
    if after == before {
        return Ok(None);
    }
    tx.execute(
        "DELETE FROM match_finishes WHERE match_id = ?1",
        args![match_id],
    )?;
    insert_finishes(tx, league, match_id, &after)?;
    let from = before.iter().chain(&after).map(|f| f.finished_by).min();
    Ok(from.map(|from| (league, from)))
}

/// `finish` for a match stored finished in this write with `state`, whose finish was never stored
/// (an import's new match): made from what the caller holds (the sides of its seats, its game's
/// `lowest_wins`, its last hand `finished_by`), not read back from what was just written.
pub(super) fn first_finish(
    tx: &Tx,
    league: i64,
    match_id: i64,
    state: &MatchState,
    sides: impl IntoIterator<Item = Side>,
    lowest_wins: bool,
    finished_by: i64,
) -> Result<Option<(i64, i64)>> {
    if !state.game_over {
        return Ok(None);
    }
    let mut sides: Vec<(String, i64, bool)> = sides
        .into_iter()
        .map(|side| {
            let won = state.winners.contains(&side);
            (side.to_string(), state.scores[side].into(), won)
        })
        .collect();
    // As `finishes` reads them: by name.
    sides.sort();
    let after = placed(sides, lowest_wins, finished_by);
    insert_finishes(tx, league, match_id, &after)?;
    Ok(Some((league, finished_by)))
}

fn insert_finishes(tx: &Tx, league: i64, match_id: i64, finishes: &[Finish]) -> Result<()> {
    let mut insert = tx.prepare(
        "INSERT INTO match_finishes (match_id, side, league_id, place, won, lost, finished_by) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for f in finishes {
        insert.execute(args![
            match_id,
            f.side,
            league,
            f.place,
            f.won,
            f.lost,
            f.finished_by
        ])?;
    }
    Ok(())
}

/// The finish of a finished match: its sides in order of side name, placed by `order_of_finish`
/// from the stored state's final `scores` and `winners` (the one field every game names who won
/// in), on its last hand.
fn finishes(tx: &Tx, league: i64, match_id: i64, state: &str) -> Result<Vec<Finish>> {
    let state: serde_json::Value = serde_json::from_str(state)
        .map_err(|e| StoreError::Database(format!("match {match_id}: {e}")))?;
    let game: String = tx.query_row(
        "SELECT game FROM leagues WHERE id = ?1",
        args![league],
        |r| r.get(0),
    )?;
    let lowest_wins = games::find(&game).is_some_and(|g| g.lowest_total_wins());
    let finished_by: Option<i64> = tx.query_row(
        "SELECT max(id) FROM hands WHERE match_id = ?1",
        args![match_id],
        |r| r.get(0),
    )?;
    let names: Vec<String> = tx.query_map(
        "SELECT DISTINCT side FROM match_seats WHERE match_id = ?1 ORDER BY side",
        args![match_id],
        |r| r.get(0),
    )?;
    let winners = state["winners"].as_array().map(Vec::as_slice);
    let sides = names
        .into_iter()
        .map(|side| {
            let score = state["scores"][&side].as_i64().unwrap_or(0);
            let won = winners.unwrap_or_default().iter().any(|w| *w == *side);
            (side, score, won)
        })
        .collect();
    // A match over before any hand (none in any game) rates first.
    Ok(placed(sides, lowest_wins, finished_by.unwrap_or(0)))
}

/// A finished match's finish, from its sides in order of name, each with its final score and
/// whether the state names it a winner: placed by `order_of_finish`, on its last hand
/// `finished_by`.
fn placed(sides: Vec<(String, i64, bool)>, lowest_wins: bool, finished_by: i64) -> Vec<Finish> {
    let finished: Vec<FinishedSide> = sides
        .iter()
        .map(|(_, score, won)| FinishedSide {
            score: *score,
            winner: *won,
            ..FinishedSide::default()
        })
        .collect();
    let any_winner = finished.iter().any(|s| s.winner);
    let places = order_of_finish(&finished, lowest_wins);
    sides
        .into_iter()
        .zip(places)
        .map(|((side, _, won), place)| Finish {
            side,
            place: place as i64,
            won,
            lost: any_winner && !won,
            finished_by,
        })
        .collect()
}

/// Folds the ratings of `league` again over every match finished on or after hand `from`, in the
/// order they finished, each player starting from his rating after his last earlier match.
pub(super) fn rerate(tx: &Tx, league: i64, from: i64) -> Result<()> {
    // Everyone whose current rating may change: who played the matches folded before or now.
    let mut touched: Vec<i64> = tx.query_map(
        "SELECT DISTINCT player_id FROM match_ratings WHERE league_id = ?1 AND finished_by >= ?2",
        args![league, from],
        |r| r.get(0),
    )?;
    tx.execute(
        "DELETE FROM match_ratings WHERE league_id = ?1 AND finished_by >= ?2",
        args![league, from],
    )?;
    let mut matches: Vec<(i64, Vec<FinishedSide>, Vec<usize>)> = Vec::new();
    {
        let mut st = tx.prepare(
            "SELECT f.finished_by, f.side, f.place, s.player_id FROM match_finishes f \
             JOIN match_seats s ON s.match_id = f.match_id AND s.side = f.side \
             WHERE f.league_id = ?1 AND f.finished_by >= ?2 \
             ORDER BY f.finished_by, f.side, s.player_id",
        )?;
        let mut rows = st.query(args![league, from])?;
        let mut last_side: Option<String> = None;
        while let Some(r) = rows.next()? {
            let (by, side, place, player): (i64, String, i64, i64) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            if matches.last().is_none_or(|m| m.0 != by) {
                matches.push((by, Vec::new(), Vec::new()));
                last_side = None;
            }
            let m = matches.last_mut().expect("pushed");
            if last_side.as_deref() != Some(side.as_str()) {
                m.1.push(FinishedSide::default());
                m.2.push(place as usize);
                last_side = Some(side);
            }
            m.1.last_mut().expect("pushed").players.push(player);
            touched.push(player);
        }
    }
    touched.sort_unstable();
    touched.dedup();
    let mut ratings: BTreeMap<i64, WengLinRating> = BTreeMap::new();
    {
        let mut earlier = tx.prepare(
            "SELECT rating, uncertainty FROM match_ratings \
             WHERE league_id = ?1 AND player_id = ?2 ORDER BY finished_by DESC LIMIT 1",
        )?;
        for &p in &touched {
            let r = earlier.query_opt(args![league, p], |r| {
                Ok(WengLinRating {
                    rating: r.get(0)?,
                    uncertainty: r.get(1)?,
                })
            })?;
            if let Some(r) = r {
                ratings.insert(p, r);
            }
        }
    }
    let mut keep = tx.prepare(
        "INSERT INTO match_ratings (league_id, player_id, finished_by, rating, uncertainty) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (league_id, player_id, finished_by) \
         DO UPDATE SET rating = excluded.rating, uncertainty = excluded.uncertainty",
    )?;
    for (by, sides, places) in &matches {
        rate(&mut ratings, sides, places);
        for p in sides.iter().flat_map(|s| &s.players) {
            let r = ratings[p];
            keep.execute(args![league, p, by, r.rating, r.uncertainty])?;
        }
    }
    // Written whether or not the player's totals have a row yet: an import counts its hands and
    // finishes into the standings at its end, and may fold ratings before.
    let mut current = tx.prepare(
        "INSERT INTO standing_totals (league_id, kind, who, rating, uncertainty) \
         VALUES (?1, 'player', ?2, ?3, ?4) ON CONFLICT (league_id, kind, who) \
         DO UPDATE SET rating = excluded.rating, uncertainty = excluded.uncertainty",
    )?;
    for p in touched {
        let r = ratings.get(&p);
        current.execute(args![
            league,
            p,
            r.map(|r| r.rating),
            r.map(|r| r.uncertainty)
        ])?;
    }
    Ok(())
}

/// Sets aside, for the rest of the write, the triggers that count each new hand's rows into the
/// standings (migration 18): a write that stores many hands (an import) counts them together with
/// `count_deferred`, in a few statements, instead of a dozen row updates a hand on the same few
/// totals; and the finishes of matches on those new hands (migration 19), each counted once as it
/// stands at the end, however often the write stored or deleted it. Only new hands are deferred;
/// a deferred write stores hands of `league` and deletes none.
pub(super) fn defer_counts(tx: &Tx, league: i64) -> Result<()> {
    tx.execute(
        "INSERT INTO counts_deferred (league_id, since) SELECT ?1, coalesce(max(id), 0) FROM hands",
        args![league],
    )?;
    Ok(())
}

/// Counts every hand stored since `defer_counts` into the standings, as the triggers would have
/// one by one (hands, points for and against, irregularities, camps, the leagues' generation),
/// and every match finish on one of them (matches played, won, lost, places), and sets the
/// triggers back.
pub(super) fn count_deferred(tx: &Tx) -> Result<()> {
    let (league, since): (i64, i64) = tx.query_row(
        "DELETE FROM counts_deferred RETURNING league_id, since",
        args![],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    for statement in COUNT_HANDS_SINCE {
        tx.execute(statement, args![league, since])?;
    }
    Ok(())
}

/// `count_deferred`'s statements, for the hands of league `?1` after hand `?2`: what the insert
/// triggers on `hands`, `hand_scores`, `hand_irregularities` and `hand_camps` add, grouped by what
/// they add to. Each reads the new hands by `hands_by_league` and their participants by primary
/// key (the `participants` view would be read whole), as a query plan test pins. Hands and points
/// are first added up per match (and side): an import's match has several hands, and each of a
/// match's seats and sides is then joined once, not once per hand (half the time of the join per
/// hand, on an import of 2,000 Malilla hands in 420 matches). The finishes are read by
/// `match_finishes_in_order`: a finish on a new hand is a match's finish the write stored.
pub(super) const COUNT_HANDS_SINCE: [&str; 7] = [
    "INSERT INTO standing_totals (league_id, kind, who, hands)
         WITH per_match AS (
             SELECT match_id, count(*) AS hands FROM hands
              WHERE league_id = ?1 AND id > ?2 GROUP BY match_id)
         SELECT ?1, 'player', s.player_id, sum(m.hands) FROM per_match m
           JOIN match_seats s ON s.match_id = m.match_id
          GROUP BY s.player_id
         UNION ALL
         SELECT ?1, 'partnership', d.partnership_id, sum(m.hands) FROM per_match m
           JOIN match_sides d ON d.match_id = m.match_id
          WHERE d.partnership_id IS NOT NULL GROUP BY d.partnership_id
         ON CONFLICT (league_id, kind, who) DO UPDATE SET hands = standing_totals.hands + excluded.hands",
    "INSERT INTO standing_totals (league_id, kind, who, points_for, points_against)
         WITH per_side AS (
             SELECT h.match_id, s.side, sum(s.points) AS points FROM hands h
               JOIN hand_scores s ON s.hand_id = h.id
              WHERE h.league_id = ?1 AND h.id > ?2 GROUP BY h.match_id, s.side)
         SELECT ?1, 'player', p.player_id,
                sum(CASE WHEN p.side = g.side THEN g.points ELSE 0 END),
                sum(CASE WHEN p.side = g.side THEN 0 ELSE g.points END)
           FROM per_side g JOIN match_seats p ON p.match_id = g.match_id
          GROUP BY p.player_id
         UNION ALL
         SELECT ?1, 'partnership', d.partnership_id,
                sum(CASE WHEN d.side = g.side THEN g.points ELSE 0 END),
                sum(CASE WHEN d.side = g.side THEN 0 ELSE g.points END)
           FROM per_side g JOIN match_sides d ON d.match_id = g.match_id
          WHERE d.partnership_id IS NOT NULL GROUP BY d.partnership_id
         ON CONFLICT (league_id, kind, who)
         DO UPDATE SET points_for = standing_totals.points_for + excluded.points_for,
                       points_against = standing_totals.points_against + excluded.points_against",
    // The player at the irregularity's seat, and the partnership sitting as that seat's side.
    "INSERT INTO standing_totals (league_id, kind, who, irregularities)
         SELECT ?1, 'player', o.player_id, count(*) FROM hands h
           JOIN hand_irregularities i ON i.hand_id = h.id
           JOIN match_seats o ON o.match_id = h.match_id AND o.seat = i.seat
          WHERE h.league_id = ?1 AND h.id > ?2 GROUP BY o.player_id
         UNION ALL
         SELECT ?1, 'partnership', d.partnership_id, count(*) FROM hands h
           JOIN hand_irregularities i ON i.hand_id = h.id
           JOIN match_seats o ON o.match_id = h.match_id AND o.seat = i.seat
           JOIN match_sides d ON d.match_id = h.match_id AND d.side = o.side
          WHERE h.league_id = ?1 AND h.id > ?2 AND d.partnership_id IS NOT NULL
          GROUP BY d.partnership_id
         ON CONFLICT (league_id, kind, who)
         DO UPDATE SET irregularities = standing_totals.irregularities + excluded.irregularities",
    // A camp's points: its seat's side's score in the hand.
    "INSERT INTO camp_totals (league_id, player_id, role, hands, points)
         SELECT ?1, p.player_id, c.role, count(*), coalesce(sum(s.points), 0) FROM hands h
           JOIN hand_camps c ON c.hand_id = h.id
           JOIN match_seats p ON p.match_id = h.match_id AND p.seat = c.seat
           LEFT JOIN hand_scores s ON s.hand_id = h.id AND s.side = p.side
          WHERE h.league_id = ?1 AND h.id > ?2 GROUP BY p.player_id, c.role
         ON CONFLICT (league_id, player_id, role)
         DO UPDATE SET hands = camp_totals.hands + excluded.hands,
                       points = camp_totals.points + excluded.points",
    "UPDATE leagues SET generation = generation + 1
      WHERE id = ?1 AND EXISTS (SELECT 1 FROM hands WHERE league_id = ?1 AND id > ?2)",
    // What `match_finishes_insert_counts` adds: each side's players and partnership.
    "INSERT INTO standing_totals (league_id, kind, who, matches_played, won, lost)
         SELECT ?1, 'player', s.player_id, count(*), sum(f.won), sum(f.lost) FROM match_finishes f
           JOIN match_seats s ON s.match_id = f.match_id AND s.side = f.side
          WHERE f.league_id = ?1 AND f.finished_by > ?2 GROUP BY s.player_id
         UNION ALL
         SELECT ?1, 'partnership', d.partnership_id, count(*), sum(f.won), sum(f.lost)
           FROM match_finishes f
           JOIN match_sides d ON d.match_id = f.match_id AND d.side = f.side
          WHERE f.league_id = ?1 AND f.finished_by > ?2 AND d.partnership_id IS NOT NULL
          GROUP BY d.partnership_id
         ON CONFLICT (league_id, kind, who)
         DO UPDATE SET matches_played = standing_totals.matches_played + excluded.matches_played,
                       won = standing_totals.won + excluded.won,
                       lost = standing_totals.lost + excluded.lost",
    "INSERT INTO standing_places (league_id, kind, who, place, count)
         SELECT ?1, 'player', s.player_id, f.place, count(*) FROM match_finishes f
           JOIN match_seats s ON s.match_id = f.match_id AND s.side = f.side
          WHERE f.league_id = ?1 AND f.finished_by > ?2 GROUP BY s.player_id, f.place
         UNION ALL
         SELECT ?1, 'partnership', d.partnership_id, f.place, count(*) FROM match_finishes f
           JOIN match_sides d ON d.match_id = f.match_id AND d.side = f.side
          WHERE f.league_id = ?1 AND f.finished_by > ?2 AND d.partnership_id IS NOT NULL
          GROUP BY d.partnership_id, f.place
         ON CONFLICT (league_id, kind, who, place)
         DO UPDATE SET count = standing_places.count + excluded.count",
];

/// Keeps a match's finish and the ratings after its state was stored (the store does it in
/// `repo::set_match_state`; tests that store a state by hand do it here).
#[cfg(test)]
pub(super) fn settle(tx: &Tx, match_id: i64) -> Result<()> {
    if let Some((league, from)) = finish(tx, match_id)? {
        rerate(tx, league, from)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The kept standings against the oracle (`standings::tests::recomputed`, every stored hand
    //! added up again) after every write of random sequences of posts, amendments, voids,
    //! readjudications and imports (posts counted together), written to the tables as the store
    //! writes them.
    use super::super::repo;
    use super::super::standings::tests::{kept, league_db};
    use super::*;
    use crate::engine::MatchState;
    use proptest::prelude::*;

    /// One write: `kind` picks post, amend, void, readjudicate or import; the others pick what it
    /// writes.
    type Op = (u8, u8, i16, i16, u8, u8);

    struct Table {
        /// Stored matches: id, their sides.
        matches: Vec<(i64, Vec<String>)>,
        next_match: i64,
    }

    /// A new match of four of the six players: two pairs or four alone, where a pair is
    /// registered (1 & 3, 2 & 4) it sits as its partnership.
    fn new_match(tx: &Tx, t: &mut Table, pick: u8) -> i64 {
        let id = t.next_match;
        t.next_match += 1;
        tx.execute(
            "INSERT INTO matches (id, league_id, session_id, state) VALUES (?1, 1, 1, '{}')",
            args![id],
        )
        .unwrap();
        let players: Vec<i64> = (0..4).map(|i| (i64::from(pick) + i) % 6 + 1).collect();
        let pairs = pick.is_multiple_of(2);
        let seats = ["N", "E", "S", "W"];
        let side_of = |i: usize| {
            if pairs {
                ["NS", "EW"][i % 2].to_string()
            } else {
                seats[i].to_string()
            }
        };
        for (i, p) in players.iter().enumerate() {
            tx.execute(
                "INSERT INTO match_seats (match_id, seat, side, player_id) VALUES (?1, ?2, ?3, ?4)",
                args![id, seats[i], side_of(i), p],
            )
            .unwrap();
        }
        let mut sides: Vec<String> = (0..4).map(side_of).collect();
        sides.sort();
        sides.dedup();
        if pairs {
            for (i, side) in sides.iter().enumerate() {
                let mut pair = [players[i], players[i + 2]];
                pair.sort();
                let team = match pair {
                    [1, 3] => Some(1),
                    [2, 4] => Some(2),
                    _ => None,
                };
                tx.execute(
                    "INSERT INTO match_sides (match_id, side, partnership_id) VALUES (?1, ?2, ?3)",
                    args![id, side, team],
                )
                .unwrap();
            }
        }
        t.matches.push((id, sides));
        id
    }

    /// A hand's ruling rows as `write_ruling` writes them: a score per side, an irregularity at
    /// a seat, a camp per seat where `camps`.
    fn write_ruling(tx: &Tx, hand: i64, sides: &[String], a: i16, b: i16, extra: u8) {
        for table in repo::RULING_TABLES {
            tx.execute(
                &format!("DELETE FROM {table} WHERE hand_id = ?1"),
                args![hand],
            )
            .unwrap();
        }
        for (i, side) in sides.iter().enumerate() {
            let points = if i % 2 == 0 { a } else { b } as i64 + i as i64;
            tx.execute(
                "INSERT INTO hand_scores (hand_id, side, points) VALUES (?1, ?2, ?3)",
                args![hand, side, points],
            )
            .unwrap();
        }
        if extra.is_multiple_of(3) {
            let seat = ["N", "E", "S", "W"][usize::from(extra) % 4];
            tx.execute(
                "INSERT INTO hand_irregularities (hand_id, ordinal, code, seat) VALUES (?1, 0, 'revoke', ?2)",
                args![hand, seat],
            )
            .unwrap();
        }
        if extra.is_multiple_of(2) {
            let declarer = ["N", "E", "S", "W"][usize::from(extra / 2) % 4];
            let ruling = serde_json::json!({"camps": [
                {"role": "declarer", "seats": [declarer]},
                {"role": "defenders", "seats": ["N", "E", "S", "W"]},
            ]});
            repo::write_camps(tx, hand, &ruling).unwrap();
        }
    }

    /// The match's state as the store writes it: its scores the sum of its hands, over when
    /// `over`, its winner named (the first side's best score) when `named`. A post, an amendment
    /// or a void stores it through `repo::set_match_state` (which settles the finish when the
    /// match was or is over); a readjudication writes it alone and settles the league after.
    fn store_state(tx: &Tx, match_id: i64, over: bool, named: bool, through_set: bool) {
        let scores: BTreeMap<String, i64> = tx
            .prepare(
                "SELECT s.side, sum(s.points) FROM hand_scores s JOIN hands h ON h.id = s.hand_id \
                 WHERE h.match_id = ?1 GROUP BY s.side",
            )
            .unwrap()
            .query_map(args![match_id], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .into_iter()
            .collect();
        // A match is over on a hand: never before its first.
        let over = over && !scores.is_empty();
        let best = scores
            .iter()
            .max_by_key(|(_, p)| **p)
            .map(|(s, _)| s.clone());
        let winners: Vec<String> = best.into_iter().filter(|_| over && named).collect();
        let state = serde_json::json!({"scores": scores, "game_over": over, "winners": winners});
        if through_set {
            let before: String = tx
                .query_row(
                    "SELECT state FROM matches WHERE id = ?1",
                    args![match_id],
                    |r| r.get(0),
                )
                .unwrap();
            let before: MatchState = serde_json::from_str(&before).unwrap();
            let state: MatchState = serde_json::from_value(state).unwrap();
            let hands = hands_of(tx, match_id);
            let finishes: i64 = tx
                .query_row(
                    "SELECT count(*) FROM match_finishes WHERE match_id = ?1",
                    args![match_id],
                    |r| r.get(0),
                )
                .unwrap();
            if finishes == 0 && !before.game_over && match_id % 2 == 0 {
                // As an import stores a new match: its finish from what is in hand.
                as_publish(tx, || {
                    repo::write_match_state(tx, match_id, hands.len() as u32, &state).unwrap()
                });
                let sides: Vec<Side> = tx
                    .query_map(
                        "SELECT DISTINCT side FROM match_seats WHERE match_id = ?1",
                        args![match_id],
                        |r| Ok(r.get::<String>(0)?.parse().unwrap()),
                    )
                    .unwrap();
                let game: String = tx
                    .query_row("SELECT game FROM leagues WHERE id = 1", args![], |r| {
                        r.get(0)
                    })
                    .unwrap();
                let lowest_wins = games::find(&game).unwrap().lowest_total_wins();
                let last = hands.iter().max().copied().unwrap_or(0);
                let finish = as_publish(tx, || {
                    first_finish(tx, 1, match_id, &state, sides, lowest_wins, last).unwrap()
                });
                if let Some((league, from)) = finish {
                    rerate(tx, league, from).unwrap();
                }
            } else {
                repo::set_match_state(tx, match_id, hands.len() as u32, &before, &state).unwrap();
            }
        } else {
            tx.execute(
                "UPDATE matches SET state = ?2, game_over = ?3 WHERE id = ?1",
                args![match_id, state.to_string(), over],
            )
            .unwrap();
        }
    }

    /// Runs `f` as `csv::publish` writes an import's hand rows and a new match's state and
    /// finish: with the triggers off while an import defers its counts.
    fn as_publish<T>(tx: &Tx, f: impl FnOnce() -> T) -> T {
        let deferred: i64 = tx
            .query_row("SELECT count(*) FROM counts_deferred", args![], |r| {
                r.get(0)
            })
            .unwrap();
        if deferred == 0 {
            return f();
        }
        tx.with_idle_triggers_off(|| Ok(f())).unwrap()
    }

    fn hands_of(tx: &Tx, match_id: i64) -> Vec<i64> {
        tx.prepare("SELECT id FROM hands WHERE match_id = ?1 ORDER BY number")
            .unwrap()
            .query_map(args![match_id], |r| r.get(0))
            .unwrap()
            .into_iter()
            .collect()
    }

    fn write(tx: &Tx, t: &mut Table, (kind, pick, a, b, extra, flags): Op) {
        let over = flags % 3 == 0;
        let named = flags % 2 == 0;
        let open: Vec<usize> = (0..t.matches.len()).collect();
        let chosen = (!open.is_empty()).then(|| usize::from(pick) % open.len());
        match (kind % 5, chosen) {
            // an import: several posts, new matches among them, their hands counted together
            (4, _) => {
                defer_counts(tx, 1).unwrap();
                for i in 0..=extra % 5 {
                    let pick = pick.wrapping_add(i.wrapping_mul(37));
                    let ruling = extra.wrapping_add(i);
                    write(
                        tx,
                        t,
                        (
                            0,
                            pick,
                            a.wrapping_add(i16::from(i)),
                            b,
                            ruling,
                            flags.wrapping_add(i),
                        ),
                    );
                }
                count_deferred(tx).unwrap();
            }
            // post a hand to a match (a new one now and then), as `insert_hand` does
            (0, _) | (_, None) => {
                let i = match chosen {
                    Some(i) if pick % 4 != 0 => i,
                    _ => {
                        new_match(tx, t, pick);
                        t.matches.len() - 1
                    }
                };
                let (match_id, sides) = t.matches[i].clone();
                let number: i64 = tx
                    .query_row(
                        "SELECT coalesce(max(number), 0) + 1 FROM hands WHERE match_id = ?1",
                        args![match_id],
                        |r| r.get(0),
                    )
                    .unwrap();
                as_publish(tx, || {
                    let hand = tx
                        .insert(
                            "INSERT INTO hands (match_id, league_id, session_id, number, dealer, outcome, record, adjudication) \
                             VALUES (?1, 1, 1, ?2, 'N', 'scored', '{}', '{}') RETURNING id",
                            args![match_id, number],
                        )
                        .unwrap();
                    write_ruling(tx, hand, &sides, a, b, extra);
                });
                store_state(tx, match_id, over, named, true);
            }
            // amend a hand (any, an old one too), as `correct` does
            (1, Some(i)) => {
                let (match_id, sides) = t.matches[i].clone();
                let hands = hands_of(tx, match_id);
                if let Some(&hand) = hands.get(usize::from(extra) % hands.len().max(1)) {
                    write_ruling(tx, hand, &sides, a, b, extra / 3);
                    store_state(tx, match_id, over, named, true);
                }
            }
            // void a hand, as `correct` does
            (2, Some(i)) => {
                let (match_id, _) = t.matches[i].clone();
                let hands = hands_of(tx, match_id);
                if let Some(&hand) = hands.get(usize::from(extra) % hands.len().max(1)) {
                    for table in repo::RULING_TABLES {
                        tx.execute(
                            &format!("DELETE FROM {table} WHERE hand_id = ?1"),
                            args![hand],
                        )
                        .unwrap();
                    }
                    tx.execute("DELETE FROM hands WHERE id = ?1", args![hand])
                        .unwrap();
                    store_state(tx, match_id, over && hands.len() > 1, named, true);
                }
            }
            // readjudicate: every match's ruling and state again, ratings folded once, as
            // `readjudicate` does
            (_, Some(_)) => {
                let mut from: Option<i64> = None;
                for (j, (match_id, sides)) in t.matches.clone().into_iter().enumerate() {
                    let changes = j % 2 == usize::from(pick % 2);
                    if changes {
                        for hand in hands_of(tx, match_id) {
                            write_ruling(tx, hand, &sides, b, a, extra);
                        }
                        store_state(tx, match_id, over, named, false);
                    }
                    if let Some((_, f)) = finish(tx, match_id).unwrap() {
                        from = Some(from.map_or(f, |x: i64| x.min(f)));
                    }
                }
                if let Some(from) = from {
                    rerate(tx, 1, from).unwrap();
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn kept_standings_equal_a_full_recompute_after_every_write(
            ops in proptest::collection::vec(any::<Op>(), 1..40),
            lowest_wins in any::<bool>(),
        ) {
            let mut conn = league_db(if lowest_wins { "big-two" } else { "briscola" });
            let sqlite = conn.transaction().unwrap();
            let tx = Tx::sqlite(&sqlite);
            tx.execute_batch(
                "INSERT INTO partnerships (id, club_id, name, roster) VALUES (1, 1, 'odd', '1,3'), (2, 1, 'even', '2,4');
                 INSERT INTO partnership_members VALUES (1, 1), (1, 3), (2, 2), (2, 4);",
            )
            .unwrap();
            let mut t = Table { matches: Vec::new(), next_match: 1 };
            for op in ops {
                write(&tx, &mut t, op);
                kept(&tx, 1);
            }
        }
    }
}
