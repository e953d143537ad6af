//! Standings and ratings, kept up to date with the stored hands and matches in the same
//! transaction as every write to them (`aggregates.rs`), so they never drift from the hands (a
//! readjudication shows at once) and reading them is a few indexed rows. A server keeps them until
//! the league's `generation` moves, which every write to what they read does. They hold for every table: each
//! player alone, fixed partnerships of any size, and games played in per-hand camps (where every
//! seat is its own side, so each player's points are his own).
//!
//! - points for and against: the match points each hand moved (`match_after − match_before`), so a
//!   bonus added to the match counts and a forfeited game counts nothing it did not score; "against"
//!   is every other side's;
//! - irregularities committed: by the player at the offending seat, or by the partnership;
//! - matches played, won, lost and places count finished games only. Each finished match has an
//!   order of finish: the sides the game names its winners first (its match state's `winners`,
//!   the one field every game says it in: a forfeit, Pitch's bidders, a tie-breaker, Big Two's
//!   shared win), then every other side by its final score, highest first, or lowest first in a
//!   game whose lowest total wins; equal scores share a place;
//! - camps: a player's hands and points in each role of a game played in camps (declarer,
//!   defenders, ...);
//! - ratings: Weng-Lin (OpenSkill) from that full order of finish, each side a team (a partnership
//!   of any size, or one player), folded over finished matches in the order they finished.

use super::Result;
use super::db::{Tx, args};
use super::model::NameRef;
use super::repo;
use crate::games;
use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A Weng-Lin rating: skill estimate `rating` (μ, 25 for a newcomer), its `uncertainty` (σ), and
/// `conservative` = μ − 3σ, the value standings sort by when they compare ratings.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct Rating {
    pub rating: f64,
    pub uncertainty: f64,
    pub conservative: f64,
}

impl From<WengLinRating> for Rating {
    fn from(r: WengLinRating) -> Rating {
        let round = |x: f64| (x * 1000.0).round() / 1000.0;
        Rating {
            rating: round(r.rating),
            uncertainty: round(r.uncertainty),
            conservative: round(r.rating - 3.0 * r.uncertainty),
        }
    }
}

/// The counts standings show for a player or a partnership.
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct Record {
    /// Finished matches.
    pub matches_played: u32,
    /// Finished matches the side won (the game named it among the match state's `winners`; a
    /// shared win counts for each side sharing it).
    pub won: u32,
    /// Finished matches another side won. A match the game ends with no winner (Imperial
    /// Tarot's tie at the top, Court Piece's draw) is neither won nor lost: `places` shows the
    /// shared first place.
    pub lost: u32,
    pub points_for: i64,
    /// Every other side's points in the same hands.
    pub points_against: i64,
    pub hands: u32,
    pub irregularities: u32,
    /// Finished matches by place in the order of finish: `places[0]` first places, `places[1]`
    /// second places, and so on (sides with equal final scores share the better place).
    pub places: Vec<u32>,
}

/// A player's hands and points in one role of a game played in camps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct CampRecord {
    pub hands: u32,
    /// His own points in those hands (every seat is its own side in a camp game).
    pub points: i64,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerStanding {
    /// 1 for the leader; equal records share a rank.
    pub rank: u32,
    pub player: NameRef,
    #[serde(flatten)]
    pub record: Record,
    pub rating: Rating,
    /// In a game played in per-hand camps: his hands and points by role (`declarer`,
    /// `defenders`, ... as the game names its camps). Absent otherwise.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub camps: BTreeMap<String, CampRecord>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PartnershipStanding {
    pub rank: u32,
    pub partnership: NameRef,
    #[serde(flatten)]
    pub record: Record,
}

/// A league's table: players, and registered partnerships that sat together as a side.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Standings {
    pub league: i64,
    pub game: String,
    pub players: Vec<PlayerStanding>,
    pub partnerships: Vec<PartnershipStanding>,
}

/// One side of a finished match: its players, the registered partnership sitting as it (if any),
/// its final score, and whether the game named it the winner.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct FinishedSide {
    pub players: Vec<i64>,
    pub partnership: Option<i64>,
    pub score: i64,
    pub winner: bool,
}

/// The place of each side (1 for first) in a finished match: the winner the game named first, then
/// the others by final score, highest first (lowest first when `lowest_wins`); equal scores share
/// the better place (1, 2, 2, 4).
pub(super) fn order_of_finish(sides: &[FinishedSide], lowest_wins: bool) -> Vec<usize> {
    let ahead = |a: &FinishedSide, b: &FinishedSide| {
        !b.winner
            && (a.winner
                || if lowest_wins {
                    a.score < b.score
                } else {
                    a.score > b.score
                })
    };
    sides
        .iter()
        .map(|b| 1 + sides.iter().filter(|a| ahead(a, b)).count())
        .collect()
}

/// Folds one finished match into the ratings: every side a team of its players, at its place.
pub(super) fn rate(
    ratings: &mut BTreeMap<i64, WengLinRating>,
    sides: &[FinishedSide],
    places: &[usize],
) {
    let teams: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|s| {
            s.players
                .iter()
                .map(|p| ratings.get(p).copied().unwrap_or_default())
                .collect()
        })
        .collect();
    let input: Vec<_> = teams
        .iter()
        .zip(places)
        .map(|(t, &place)| (t.as_slice(), MultiTeamOutcome::new(place)))
        .collect();
    let rated = weng_lin_multi_team(&input, &WengLinConfig::new());
    for (side, team) in sides.iter().zip(rated) {
        for (p, r) in side.players.iter().zip(team) {
            ratings.insert(*p, r);
        }
    }
}

/// Sorted by matches won, then point difference, then points for (the lower the better where
/// the lowest total wins); equal records share a rank.
fn ranked<T>(mut rows: Vec<(Record, String, T)>, lowest_wins: bool) -> Vec<(u32, Record, T)> {
    let sign = if lowest_wins { -1 } else { 1 };
    let key = |r: &Record| {
        (
            std::cmp::Reverse(r.won),
            std::cmp::Reverse(sign * (r.points_for - r.points_against)),
            std::cmp::Reverse(sign * r.points_for),
        )
    };
    rows.sort_by(|a, b| key(&a.0).cmp(&key(&b.0)).then_with(|| a.1.cmp(&b.1)));
    let mut out: Vec<(u32, Record, T)> = Vec::with_capacity(rows.len());
    for (i, (rec, _, t)) in rows.into_iter().enumerate() {
        let rank = match out.last() {
            Some((r, prev, _)) if key(prev) == key(&rec) => *r,
            _ => i as u32 + 1,
        };
        out.push((rank, rec, t));
    }
    out
}

/// The generation of `league` of `club`: it moves with every write to what its standings are
/// computed from (schema migration 10), so standings computed at one generation hold until it
/// moves.
pub fn generation(tx: &Tx, club: i64, league: i64) -> Result<i64> {
    let g = tx.query_opt(
        "SELECT generation FROM leagues WHERE id = ?1 AND club_id = ?2",
        args![league, club],
        |r| r.get(0),
    )?;
    g.ok_or_else(|| super::StoreError::NotFound(format!("no league {league} in club {club}")))
}

/// The standings of `league`, read from what every write keeps up to date (`aggregates.rs`).
pub fn standings(tx: &Tx, club: i64, league: i64) -> Result<Standings> {
    let l = repo::get_league(tx, club, league)?;
    let lowest_wins = games::find(&l.game).is_some_and(|g| g.lowest_total_wins());
    let mut places: BTreeMap<(String, i64), Vec<u32>> = BTreeMap::new();
    {
        let mut st = tx.prepare(
            "SELECT kind, who, place, count FROM standing_places \
             WHERE league_id = ?1 AND count > 0 ORDER BY kind, who, place",
        )?;
        let mut rows = st.query(args![league])?;
        while let Some(r) = rows.next()? {
            let (place, count): (u32, u32) = (r.get(2)?, r.get(3)?);
            let place = place as usize;
            let p = places.entry((r.get(0)?, r.get(1)?)).or_default();
            p.resize(place, 0);
            p[place - 1] = count;
        }
    }
    let mut camps: BTreeMap<i64, BTreeMap<String, CampRecord>> = BTreeMap::new();
    {
        let mut st = tx.prepare(
            "SELECT player_id, role, hands, points FROM camp_totals \
             WHERE league_id = ?1 AND hands > 0",
        )?;
        let mut rows = st.query(args![league])?;
        while let Some(r) = rows.next()? {
            camps.entry(r.get(0)?).or_default().insert(
                r.get(1)?,
                CampRecord {
                    hands: r.get(2)?,
                    points: r.get(3)?,
                },
            );
        }
    }
    let mut player_rows = Vec::new();
    let mut partnership_rows = Vec::new();
    let mut st = tx.prepare(
        "SELECT t.kind, t.who, coalesce(p.name, s.name), t.hands, t.points_for, t.points_against, \
                t.irregularities, t.matches_played, t.won, t.lost, t.rating, t.uncertainty \
         FROM standing_totals t \
         LEFT JOIN players p ON t.kind = 'player' AND p.id = t.who \
         LEFT JOIN partnerships s ON t.kind = 'partnership' AND s.id = t.who \
         WHERE t.league_id = ?1 AND (t.hands > 0 OR t.matches_played > 0)",
    )?;
    let mut rows = st.query(args![league])?;
    while let Some(r) = rows.next()? {
        let (kind, id, name): (String, i64, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
        let record = Record {
            hands: r.get(3)?,
            points_for: r.get(4)?,
            points_against: r.get(5)?,
            irregularities: r.get(6)?,
            matches_played: r.get(7)?,
            won: r.get(8)?,
            lost: r.get(9)?,
            places: places.remove(&(kind.clone(), id)).unwrap_or_default(),
        };
        let who = NameRef {
            id,
            name: name.clone(),
        };
        if kind == "player" {
            let rating = match (r.get(10)?, r.get(11)?) {
                (Some(rating), Some(uncertainty)) => WengLinRating {
                    rating,
                    uncertainty,
                },
                _ => WengLinRating::default(),
            };
            let camps = camps.remove(&id).unwrap_or_default();
            player_rows.push((record, name, (who, rating.into(), camps)));
        } else {
            partnership_rows.push((record, name, who));
        }
    }
    Ok(table(
        league,
        l.game,
        player_rows,
        partnership_rows,
        lowest_wins,
    ))
}

/// A league's standings table from every player's and partnership's record, ranked.
fn table(
    league: i64,
    game: String,
    player_rows: Vec<PlayerRow>,
    partnership_rows: Vec<(Record, String, NameRef)>,
    lowest_wins: bool,
) -> Standings {
    Standings {
        league,
        game,
        players: ranked(player_rows, lowest_wins)
            .into_iter()
            .map(|(rank, record, (player, rating, camps))| PlayerStanding {
                rank,
                player,
                record,
                rating,
                camps,
            })
            .collect(),
        partnerships: ranked(partnership_rows, lowest_wins)
            .into_iter()
            .map(|(rank, record, partnership)| PartnershipStanding {
                rank,
                partnership,
                record,
            })
            .collect(),
    }
}

/// A player's row before ranking: his record, his name (the tie-break), who he is, his rating and
/// his record in each camp.
type PlayerRow = (
    Record,
    String,
    (NameRef, Rating, BTreeMap<String, CampRecord>),
);

#[cfg(test)]
pub(super) mod tests {
    //! Shapes no registered game has yet (teams of three, three pairs, a declarer against three),
    //! on synthetic results. Expected ratings are Weng & Lin's Bradley-Terry full-pairing update
    //! worked by hand with skillratings' defaults (μ 25, σ 25/3, β 25/6): for two sides at an equal
    //! start, c = √(2β² + σ²ᵢ + σ²ⱼ), p = ½, a side's Ω = Σ σ²ᵢ/c · (s − ½) (s = 1 for each side
    //! it finished ahead of, ½ for a tie, 0 behind) and a player moves by (σ²/σ²ᵢ) · Ω.
    use super::*;

    use crate::league::model::NewPartnership;
    use rusqlite::Connection;

    fn side(players: &[i64], score: i64, winner: bool) -> FinishedSide {
        FinishedSide {
            players: players.to_vec(),
            partnership: None,
            score,
            winner,
        }
    }

    #[test]
    fn every_side_is_placed_ties_sharing_and_the_named_winner_first() {
        let by_score = [
            side(&[1], 90, false),
            side(&[2], 120, true),
            side(&[3], 90, false),
            side(&[4], 30, false),
        ];
        assert_eq!(order_of_finish(&by_score, false), [2, 1, 2, 4]);
        // A winner the game names although outscored (a forfeit, Pitch's bidders) is still first.
        let forfeit = [side(&[1], 10, true), side(&[2], 40, false)];
        assert_eq!(order_of_finish(&forfeit, false), [1, 2]);
        // A tie at the top with no winner named: both first.
        let tie = [
            side(&[1], 50, false),
            side(&[2], 50, false),
            side(&[3], 9, false),
        ];
        assert_eq!(order_of_finish(&tie, false), [1, 1, 3]);
        // Big Two: the lowest total first.
        let penalties = [
            side(&[1], 104, false),
            side(&[2], 12, true),
            side(&[3], 57, false),
        ];
        assert_eq!(order_of_finish(&penalties, true), [3, 1, 2]);
    }

    fn rated(sides: &[FinishedSide], lowest_wins: bool) -> Vec<f64> {
        let mut ratings = BTreeMap::new();
        rate(&mut ratings, sides, &order_of_finish(sides, lowest_wins));
        sides
            .iter()
            .flat_map(|s| &s.players)
            .map(|p| Rating::from(ratings[p]).rating)
            .collect()
    }

    #[test]
    fn ratings_come_from_the_full_order_of_finish() {
        // Three alone, 1st, 2nd, 3rd: c = √173.61 = 13.176, σ²/c · ½ = 2.635 per opponent. The
        // second is ahead of one and behind one (25.000); the winner against everyone else would
        // have left the second and third equal at 22.365.
        let three = [
            side(&[1], 130, true),
            side(&[2], 120, false),
            side(&[3], 110, false),
        ];
        assert_eq!(rated(&three, false), [30.27, 25.0, 19.73]);
        // The same finish where the lowest total wins (Big Two): the order reverses.
        let low = [
            side(&[1], 110, true),
            side(&[2], 120, false),
            side(&[3], 130, false),
        ];
        assert_eq!(rated(&low, true), [30.27, 25.0, 19.73]);
        // Four alone finishing 1, 2, 2, 4: the tied pair gains as much as it loses.
        let four = [
            side(&[1], 70, true),
            side(&[2], -10, false),
            side(&[3], -10, false),
            side(&[4], -50, false),
        ];
        assert_eq!(rated(&four, false), [32.906, 25.0, 25.0, 17.094]);
    }

    #[test]
    fn teams_of_any_size_are_rated_as_teams() {
        // Two teams of three: σ²ᵢ = 208.33, c = √451.39 = 21.246, Ω = 4.903, a third each.
        let threes = [side(&[1, 3, 5], 200, true), side(&[2, 4, 6], 150, false)];
        assert_eq!(
            rated(&threes, false),
            [26.634, 26.634, 26.634, 23.366, 23.366, 23.366]
        );
        // Three pairs at six seats, 1st, 2nd, 3rd: σ²ᵢ = 138.89, c = 17.678, Ω = ±7.857, half each.
        let pairs = [
            side(&[1, 4], 300, true),
            side(&[2, 5], 250, false),
            side(&[3, 6], 120, false),
        ];
        assert_eq!(
            rated(&pairs, false),
            [28.928, 28.928, 25.0, 25.0, 21.072, 21.072]
        );
    }

    #[test]
    fn the_lowest_total_ranks_first_where_the_game_says_so() {
        let rec = |won, points_for, points_against| Record {
            won,
            points_for,
            points_against,
            ..Record::default()
        };
        let rows = vec![
            (rec(0, 80, 40), "a".to_string(), 'a'),
            (rec(0, 20, 100), "b".to_string(), 'b'),
            (rec(1, 30, 90), "c".to_string(), 'c'),
        ];
        let order = |lowest| -> Vec<char> {
            ranked(rows.clone(), lowest)
                .into_iter()
                .map(|r| r.2)
                .collect()
        };
        assert_eq!(order(false), ['c', 'a', 'b']);
        assert_eq!(order(true), ['c', 'b', 'a']);
        // Big Two says so (§4: the lowest total wins); the others keep the highest first.
        let lowest = |id| games::find(id).unwrap().lowest_total_wins();
        assert!(lowest("big-two") && !lowest("malilla") && !lowest("briscola"));
    }

    /// A league database with four players (1 Ana, 2 Ben, 3 Cai, 4 Dee; 5 Eve, 6 Fay), one session.
    pub(crate) fn league_db(game: &str) -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO players (id, club_id, name) VALUES
                 (1, 1, 'Ana'), (2, 1, 'Ben'), (3, 1, 'Cai'), (4, 1, 'Dee'), (5, 1, 'Eve'), (6, 1, 'Fay');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES (1, 1, 'l', 's', '{game}', '{{}}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e');"
        ))
        .unwrap();
        conn
    }

    /// The standings the store keeps, checked against the oracle's recomputation.
    pub(crate) fn kept(tx: &Tx, league: i64) -> Standings {
        let kept = standings(tx, 1, league).unwrap();
        let recomputed = recomputed(tx, 1, league).unwrap();
        assert_eq!(
            serde_json::to_value(&kept).unwrap(),
            serde_json::to_value(&recomputed).unwrap()
        );
        kept
    }

    /// A finished match with `seats` (seat, side, player), the registered partnerships sitting as
    /// `sides`, and its hands as per-side points, stored as the store writes them.
    fn finished_match(
        tx: &Tx,
        state: &str,
        seats: &[(&str, &str, i64)],
        sides: &[(&str, i64)],
        hands: &[(&[(&str, i64)], &str)],
    ) {
        tx.execute(
            "INSERT INTO matches (id, league_id, session_id, state, hands, game_over) \
             VALUES (1, 1, 1, ?1, ?2, 1)",
            args![state, hands.len() as i64],
        )
        .unwrap();
        for (seat, side, player) in seats {
            tx.execute(
                "INSERT INTO match_seats (match_id, seat, side, player_id) VALUES (1, ?1, ?2, ?3)",
                args![seat, side, player],
            )
            .unwrap();
        }
        for (side, team) in sides {
            tx.execute(
                "INSERT INTO match_sides (match_id, side, partnership_id) VALUES (1, ?1, ?2)",
                args![side, team],
            )
            .unwrap();
        }
        for (i, (points, ruling)) in hands.iter().enumerate() {
            tx.execute(
                "INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, record, adjudication) \
                 VALUES (?1, 1, 1, 1, ?1, 'P1', 'scored', '{}', ?2)",
                args![i as i64 + 1, ruling],
            )
            .unwrap();
            for (side, p) in *points {
                tx.execute(
                    "INSERT INTO hand_scores (hand_id, side, points) VALUES (?1, ?2, ?3)",
                    args![i as i64 + 1, side, p],
                )
                .unwrap();
            }
            let ruling: serde_json::Value = serde_json::from_str(ruling).unwrap();
            repo::write_camps(tx, i as i64 + 1, &ruling).unwrap();
        }
        super::super::aggregates::settle(tx, 1).unwrap();
    }

    #[test]
    fn a_camp_game_stands_per_player_with_each_role() {
        // A declarer against three at a solo four-seat table, zero-sum. Hand 1: P1 declares and
        // makes it, each defender pays him 20. Hand 2: P2 declares and fails, paying each defender
        // 10. Totals P1 70, P2 −50, P3 −10, P4 −10: P1 first, P3 and P4 share second, P2 fourth.
        let mut conn = league_db("imperial-tarot");
        let sqlite = conn.transaction().unwrap();
        let tx = Tx::sqlite(&sqlite);
        let solo: Vec<(&str, &str, i64)> = vec![
            ("P1", "P1", 1),
            ("P2", "P2", 2),
            ("P3", "P3", 3),
            ("P4", "P4", 4),
        ];
        finished_match(
            &tx,
            r#"{"scores": {"P1": 70, "P2": -50, "P3": -10, "P4": -10}, "game_over": true, "winners": ["P1"]}"#,
            &solo,
            &[],
            &[
                (
                    &[("P1", 60), ("P2", -20), ("P3", -20), ("P4", -20)],
                    r#"{"camps": [{"role": "declarer", "seats": ["P1"], "revealed_at": null},
                                  {"role": "defenders", "seats": ["P2", "P3", "P4"], "revealed_at": null}]}"#,
                ),
                (
                    &[("P1", 10), ("P2", -30), ("P3", 10), ("P4", 10)],
                    r#"{"camps": [{"role": "declarer", "seats": ["P2"]},
                                  {"role": "defenders", "seats": ["P1", "P3", "P4"]}]}"#,
                ),
            ],
        );
        let st = kept(&tx, 1);
        let row = |name: &str| st.players.iter().find(|p| p.player.name == name).unwrap();
        let camp = |hands, points| CampRecord { hands, points };
        // Ana: 60 + 10 for; the others' −60 and −10 against.
        let ana = row("Ana");
        assert_eq!(
            (ana.rank, ana.record.points_for, ana.record.points_against),
            (1, 70, -70)
        );
        assert_eq!((ana.record.won, ana.record.lost), (1, 0));
        assert_eq!(ana.record.places, [1]);
        assert_eq!(
            ana.camps,
            BTreeMap::from([
                ("declarer".into(), camp(1, 60)),
                ("defenders".into(), camp(1, 10))
            ])
        );
        let ben = row("Ben");
        assert_eq!(
            ben.camps,
            BTreeMap::from([
                ("declarer".into(), camp(1, -30)),
                ("defenders".into(), camp(1, -20))
            ])
        );
        assert_eq!(
            (ben.rank, ben.record.places.as_slice()),
            (4, &[0, 0, 0, 1][..])
        );
        for name in ["Cai", "Dee"] {
            let r = row(name);
            // −20 + 10 for; (60 − 20 − 20) + (10 − 30 + 10) = 10 against.
            assert_eq!(
                (r.rank, r.record.points_for, r.record.points_against),
                (2, -10, 10)
            );
            assert_eq!((r.record.won, r.record.lost), (0, 1));
            assert_eq!(r.record.places, [0, 1]);
            assert_eq!(
                r.camps,
                BTreeMap::from([("defenders".into(), camp(2, -10))])
            );
            assert_eq!(r.rating.rating, 25.0);
        }
        assert_eq!((ana.rating.rating, ben.rating.rating), (32.906, 17.094));
        assert!(st.partnerships.is_empty());
    }

    /// Who won is read from the match state's `winners`, the one field every game says it in: a
    /// Big Two tie at the lowest total shares the win (§4), so both count it won and share first
    /// place; the other player lost. A game ended with no winner (`winners: []`) is neither.
    #[test]
    fn standings_read_the_winners_of_the_match_state() {
        let mut conn = league_db("big-two");
        let sqlite = conn.transaction().unwrap();
        let tx = Tx::sqlite(&sqlite);
        let seats: Vec<(&str, &str, i64)> = vec![("P1", "P1", 1), ("P2", "P2", 2), ("P3", "P3", 3)];
        finished_match(
            &tx,
            r#"{"scores": {"P1": 38, "P2": 53, "P3": 38}, "game_over": true, "winners": ["P1", "P3"]}"#,
            &seats,
            &[],
            &[(&[("P1", 38), ("P2", 53), ("P3", 38)], "{}")],
        );
        let st = kept(&tx, 1);
        let record = |name: &str| {
            let r = &st
                .players
                .iter()
                .find(|p| p.player.name == name)
                .unwrap()
                .record;
            (r.won, r.lost, r.places.clone())
        };
        assert_eq!(record("Ana"), (1, 0, vec![1]));
        assert_eq!(record("Cai"), (1, 0, vec![1]));
        assert_eq!(record("Ben"), (0, 1, vec![0, 0, 1]));
        // The same match ended with no winner: nobody won or lost, places by score alone.
        tx.execute(
            "UPDATE matches SET state = json_set(state, '$.winners', json('[]'))",
            args![],
        )
        .unwrap();
        super::super::aggregates::settle(&tx, 1).unwrap();
        let st = kept(&tx, 1);
        let won_lost: Vec<(u32, u32)> = st
            .players
            .iter()
            .map(|p| (p.record.won, p.record.lost))
            .collect();
        assert_eq!(won_lost, [(0, 0); 3]);
    }

    #[test]
    fn a_registered_team_of_three_stands_as_one_partnership() {
        let mut conn = league_db("briscola");
        let sqlite = conn.transaction().unwrap();
        let tx = Tx::sqlite(&sqlite);
        let team = |players: Vec<i64>| {
            repo::create_partnership(
                &tx,
                1,
                &NewPartnership {
                    name: None,
                    players,
                },
            )
            .unwrap()
        };
        let odd = team(vec![5, 1, 3]);
        let even = team(vec![2, 4, 6]);
        assert_eq!(odd.name, "Eve & Ana & Cai");
        assert_eq!(
            odd.players.iter().map(|p| p.id).collect::<Vec<_>>(),
            [1, 3, 5]
        );
        // The same three in another order are the same team.
        assert!(matches!(
            repo::create_partnership(
                &tx,
                1,
                &NewPartnership {
                    name: Some("again".into()),
                    players: vec![3, 5, 1]
                }
            ),
            Err(super::super::StoreError::Conflict(_))
        ));
        // Two teams of three at six seats (a shape no registered game has yet: its side names are
        // the store's text), one hand: odd 200, even 150, odd wins.
        let (a, b) = ("P1+P3+P5", "P2+P4+P6");
        let seats: Vec<(&str, &str, i64)> = (1..=6)
            .map(|p| {
                let seat = ["P1", "P2", "P3", "P4", "P5", "P6"][p as usize - 1];
                (seat, if p % 2 == 1 { a } else { b }, p)
            })
            .collect();
        finished_match(
            &tx,
            &format!(r#"{{"scores": {{"{a}": 200, "{b}": 150}}, "winners": ["{a}"]}}"#),
            &seats,
            &[(a, odd.id), (b, even.id)],
            &[(&[(a, 200), (b, 150)], "{}")],
        );
        let st = kept(&tx, 1);
        let p = &st.partnerships;
        assert_eq!(
            p.iter()
                .map(|p| (p.rank, p.partnership.id))
                .collect::<Vec<_>>(),
            [(1, odd.id), (2, even.id)]
        );
        assert_eq!(
            (
                p[0].record.won,
                p[0].record.points_for,
                p[0].record.points_against,
                p[0].record.places.as_slice()
            ),
            (1, 200, 150, &[1][..])
        );
        assert_eq!(
            (p[1].record.lost, p[1].record.places.as_slice()),
            (1, &[0, 1][..])
        );
        for s in &st.players {
            let expected = if s.player.id % 2 == 1 { 26.634 } else { 23.366 };
            assert_eq!(
                (s.record.hands, s.rating.rating),
                (1, expected),
                "{}",
                s.player.name
            );
        }
    }

    // ---- the oracle: standings recomputed from every stored hand, as they were before the
    // store kept them (issue 26). Every kind of write must leave the kept ones equal to it.

    /// Who took part in each match and on which side: players (with their seat) or partnerships.
    const PLAYERS: &str = "SELECT match_id, player_id AS who, side, seat FROM match_seats";
    const PARTNERSHIPS: &str = "SELECT match_id, partnership_id AS who, side, NULL AS seat \
         FROM match_sides WHERE partnership_id IS NOT NULL";

    /// Adds up hands, points and irregularities for the participants `part` of league `league`.
    fn records(tx: &Tx, league: i64, part: &str) -> Result<BTreeMap<i64, Record>> {
        let mut out: BTreeMap<i64, Record> = BTreeMap::new();
        let queries = [
            // hands
            "SELECT p.who, count(*), 0, 0 FROM hands h JOIN p ON p.match_id = h.match_id \
             WHERE h.league_id = ?1 GROUP BY p.who",
            // points
            "SELECT p.who, 0, \
                    coalesce(sum(CASE WHEN s.side = p.side THEN s.points END), 0), \
                    coalesce(sum(CASE WHEN s.side <> p.side THEN s.points END), 0) \
             FROM hands h JOIN p ON p.match_id = h.match_id JOIN hand_scores s ON s.hand_id = h.id \
             WHERE h.league_id = ?1 GROUP BY p.who",
            // irregularities: the offending seat's player, or its side's partnership
            "SELECT p.who, count(*), 0, 0 FROM hand_irregularities i JOIN hands h ON h.id = i.hand_id \
             JOIN match_seats o ON o.match_id = h.match_id AND o.seat = i.seat \
             JOIN p ON p.match_id = h.match_id AND p.side = o.side AND (p.seat IS NULL OR p.seat = o.seat) \
             WHERE h.league_id = ?1 GROUP BY p.who",
        ];
        for (q, sql) in queries.iter().enumerate() {
            let mut st = tx.prepare(&format!("WITH p AS ({part}) {sql}"))?;
            let mut rows = st.query(args![league])?;
            while let Some(r) = rows.next()? {
                let rec = out.entry(r.get(0)?).or_default();
                let (a, b, c): (i64, i64, i64) = (r.get(1)?, r.get(2)?, r.get(3)?);
                match q {
                    0 => rec.hands = a as u32,
                    1 => (rec.points_for, rec.points_against) = (b, c),
                    _ => rec.irregularities = a as u32,
                }
            }
        }
        Ok(out)
    }

    /// The finished matches of `league` in the order they finished (by their last hand), each as its
    /// sides.
    fn finished_matches(tx: &Tx, league: i64) -> Result<Vec<Vec<FinishedSide>>> {
        let mut st = tx.prepare(
            "SELECT m.id, m.state, s.side, s.player_id, t.partnership_id \
             FROM matches m JOIN match_seats s ON s.match_id = m.id \
             LEFT JOIN match_sides t ON t.match_id = m.id AND t.side = s.side \
             WHERE m.league_id = ?1 AND m.game_over \
             ORDER BY (SELECT max(h.id) FROM hands h WHERE h.match_id = m.id), m.id, s.side, s.player_id",
        )?;
        let mut rows = st.query(args![league])?;
        let mut out: Vec<Vec<FinishedSide>> = Vec::new();
        let (mut current, mut sides): (Option<i64>, Vec<(String, FinishedSide)>) =
            (None, Vec::new());
        // The match state after its last hand: the final scores, and `winners`, the one field every
        // game names who won in (records.md, "Presence").
        let mut state = serde_json::Value::Null;
        let mut flush = |sides: &mut Vec<(String, FinishedSide)>| {
            if !sides.is_empty() {
                out.push(sides.drain(..).map(|(_, s)| s).collect());
            }
        };
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            if current != Some(id) {
                flush(&mut sides);
                current = Some(id);
                let stored: String = r.get(1)?;
                state = serde_json::from_str::<serde_json::Value>(&stored)
                    .map_err(|e| super::super::StoreError::Database(format!("match {id}: {e}")))?;
            }
            let side: String = r.get(2)?;
            let player: i64 = r.get(3)?;
            match sides.last_mut() {
                Some((s, f)) if *s == side => f.players.push(player),
                _ => {
                    let score = state["scores"][&side].as_i64().unwrap_or(0);
                    let winners = state["winners"].as_array().map(Vec::as_slice);
                    let f = FinishedSide {
                        players: vec![player],
                        partnership: r.get(4)?,
                        score,
                        winner: winners.unwrap_or_default().iter().any(|w| *w == *side),
                    };
                    sides.push((side, f));
                }
            }
        }
        flush(&mut sides);
        Ok(out)
    }

    /// Counts a finished match, at `place`, in a record.
    fn count_finish(rec: &mut Record, side: &FinishedSide, place: usize, any_winner: bool) {
        rec.matches_played += 1;
        rec.won += u32::from(side.winner);
        rec.lost += u32::from(any_winner && !side.winner);
        if rec.places.len() < place {
            rec.places.resize(place, 0);
        }
        rec.places[place - 1] += 1;
    }

    /// Each player's hands and points by camp role.
    fn camps(tx: &Tx, league: i64) -> Result<BTreeMap<i64, BTreeMap<String, CampRecord>>> {
        let mut st = tx.prepare(
            "SELECT p.player_id, c.role, count(*), coalesce(sum(s.points), 0) \
             FROM hand_camps c JOIN hands h ON h.id = c.hand_id \
             JOIN match_seats p ON p.match_id = h.match_id AND p.seat = c.seat \
             LEFT JOIN hand_scores s ON s.hand_id = h.id AND s.side = p.side \
             WHERE h.league_id = ?1 GROUP BY p.player_id, c.role",
        )?;
        let mut rows = st.query(args![league])?;
        let mut out: BTreeMap<i64, BTreeMap<String, CampRecord>> = BTreeMap::new();
        while let Some(r) = rows.next()? {
            out.entry(r.get(0)?).or_default().insert(
                r.get(1)?,
                CampRecord {
                    hands: r.get(2)?,
                    points: r.get(3)?,
                },
            );
        }
        Ok(out)
    }

    pub(crate) fn recomputed(tx: &Tx, club: i64, league: i64) -> Result<Standings> {
        let l = repo::get_league(tx, club, league)?;
        let lowest_wins = games::find(&l.game).is_some_and(|g| g.lowest_total_wins());
        let mut players = records(tx, league, PLAYERS)?;
        let mut partnerships = records(tx, league, PARTNERSHIPS)?;
        let mut ratings = BTreeMap::new();
        for sides in finished_matches(tx, league)? {
            let places = order_of_finish(&sides, lowest_wins);
            let any_winner = sides.iter().any(|s| s.winner);
            for (side, &place) in sides.iter().zip(&places) {
                for p in &side.players {
                    count_finish(players.entry(*p).or_default(), side, place, any_winner);
                }
                if let Some(t) = side.partnership {
                    count_finish(partnerships.entry(t).or_default(), side, place, any_winner);
                }
            }
            rate(&mut ratings, &sides, &places);
        }
        let mut camps = camps(tx, league)?;
        let mut player_rows = Vec::new();
        for (id, rec) in players {
            let name = repo::get_player(tx, club, id)?.name;
            let rating = ratings.get(&id).copied().unwrap_or_default().into();
            let camps = camps.remove(&id).unwrap_or_default();
            player_rows.push((rec, name.clone(), (NameRef { id, name }, rating, camps)));
        }
        let mut partnership_rows = Vec::new();
        for (id, rec) in partnerships {
            let name = repo::get_partnership(tx, club, id)?.name;
            partnership_rows.push((rec, name.clone(), NameRef { id, name }));
        }
        Ok(table(
            league,
            l.game,
            player_rows,
            partnership_rows,
            lowest_wins,
        ))
    }
}
