//! Standings and ratings, computed from the stored hands and matches on every read, so they can
//! never drift from the hands (a readjudication shows at once).
//!
//! - points for and against: the match points each hand moved (`match_after − match_before`), so a
//!   bonus added to the match counts and a forfeited game counts nothing it did not score;
//! - matches played, won and lost count finished games only;
//! - irregularities committed: by the player at the offending seat, or by the partnership;
//! - ratings: Weng-Lin (OpenSkill) with the sides as teams (two partnerships, or each player alone),
//!   folded over finished matches in the order they finished.

use super::Result;
use super::model::NameRef;
use super::repo;
use rusqlite::{Transaction, params};
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
#[derive(Clone, Copy, Debug, Default, Serialize, ToSchema)]
pub struct Record {
    /// Finished matches.
    pub matches_played: u32,
    pub won: u32,
    pub lost: u32,
    pub points_for: i64,
    pub points_against: i64,
    pub hands: u32,
    pub irregularities: u32,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerStanding {
    /// 1 for the leader; equal records share a rank.
    pub rank: u32,
    pub player: NameRef,
    #[serde(flatten)]
    pub record: Record,
    pub rating: Rating,
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

/// Who took part in each match and on which side: players (with their seat) or partnerships.
const PLAYERS: &str = "SELECT match_id, player_id AS who, side, seat FROM match_seats";
const PARTNERSHIPS: &str = "SELECT match_id, partnership_id AS who, side, NULL AS seat \
     FROM match_sides WHERE partnership_id IS NOT NULL";

/// Adds up `Record`s for the participants `part` of league `league`.
fn records(tx: &Transaction, league: i64, part: &str) -> Result<BTreeMap<i64, Record>> {
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
        // finished matches
        "SELECT p.who, count(*), sum(m.winner = p.side), sum(m.winner <> p.side) \
         FROM matches m JOIN p ON p.match_id = m.id WHERE m.league_id = ?1 AND m.game_over GROUP BY p.who",
    ];
    for (q, sql) in queries.iter().enumerate() {
        let mut st = tx.prepare_cached(&format!("WITH p AS ({part}) {sql}"))?;
        let mut rows = st.query(params![league])?;
        while let Some(r) = rows.next()? {
            let rec = out.entry(r.get(0)?).or_default();
            let (a, b, c): (i64, Option<i64>, Option<i64>) = (r.get(1)?, r.get(2)?, r.get(3)?);
            let (b, c) = (b.unwrap_or(0), c.unwrap_or(0));
            match q {
                0 => rec.hands = a as u32,
                1 => (rec.points_for, rec.points_against) = (b, c),
                2 => rec.irregularities = a as u32,
                _ => (rec.matches_played, rec.won, rec.lost) = (a as u32, b as u32, c as u32),
            }
        }
    }
    Ok(out)
}

/// Weng-Lin ratings of every player who finished a match of the league: each side a team, the
/// winning side ranked first and every other side second (all equal when nobody won).
fn ratings(tx: &Transaction, league: i64) -> Result<BTreeMap<i64, WengLinRating>> {
    let mut st = tx.prepare_cached(
        "SELECT m.id, m.winner, s.side, group_concat(s.player_id) \
         FROM matches m JOIN match_seats s ON s.match_id = m.id \
         WHERE m.league_id = ?1 AND m.game_over \
         GROUP BY m.id, s.side \
         ORDER BY (SELECT max(h.id) FROM hands h WHERE h.match_id = m.id), s.side",
    )?;
    let mut rows = st.query(params![league])?;
    let config = WengLinConfig::new();
    let mut out: BTreeMap<i64, WengLinRating> = BTreeMap::new();
    // One finished match at a time: its sides as (players, rank).
    let mut current: Option<i64> = None;
    let mut sides: Vec<(Vec<i64>, usize)> = Vec::new();
    let rate = |sides: &mut Vec<(Vec<i64>, usize)>, out: &mut BTreeMap<i64, WengLinRating>| {
        let teams: Vec<Vec<WengLinRating>> = sides
            .iter()
            .map(|(ids, _)| {
                ids.iter()
                    .map(|p| out.get(p).copied().unwrap_or_default())
                    .collect()
            })
            .collect();
        let input: Vec<_> = teams
            .iter()
            .zip(sides.iter())
            .map(|(t, (_, rank))| (t.as_slice(), MultiTeamOutcome::new(*rank)))
            .collect();
        let rated = weng_lin_multi_team(&input, &config);
        for ((ids, _), team) in sides.iter().zip(rated) {
            for (p, r) in ids.iter().zip(team) {
                out.insert(*p, r);
            }
        }
        sides.clear();
    };
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let winner: Option<String> = r.get(1)?;
        let side: String = r.get(2)?;
        let ids: String = r.get(3)?;
        if current.is_some_and(|c| c != id) {
            rate(&mut sides, &mut out);
        }
        current = Some(id);
        let rank = match winner {
            Some(w) if w != side => 2,
            _ => 1,
        };
        sides.push((
            ids.split(',').filter_map(|x| x.parse().ok()).collect(),
            rank,
        ));
    }
    if !sides.is_empty() {
        rate(&mut sides, &mut out);
    }
    Ok(out)
}

/// Sorted by matches won, then point difference, then points for; equal records share a rank.
fn ranked<T>(mut rows: Vec<(Record, String, T)>) -> Vec<(u32, Record, T)> {
    let key = |r: &Record| {
        (
            std::cmp::Reverse(r.won),
            std::cmp::Reverse(r.points_for - r.points_against),
            std::cmp::Reverse(r.points_for),
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

pub fn standings(tx: &Transaction, club: i64, league: i64) -> Result<Standings> {
    let l = repo::get_league(tx, club, league)?;
    let ratings = ratings(tx, league)?;
    let mut players = Vec::new();
    for (id, rec) in records(tx, league, PLAYERS)? {
        let name = repo::get_player(tx, club, id)?.name;
        let rating = ratings.get(&id).copied().unwrap_or_default().into();
        players.push((rec, name.clone(), (NameRef { id, name }, rating)));
    }
    let mut partnerships = Vec::new();
    for (id, rec) in records(tx, league, PARTNERSHIPS)? {
        let name = repo::get_partnership(tx, club, id)?.name;
        partnerships.push((rec, name.clone(), NameRef { id, name }));
    }
    Ok(Standings {
        league,
        game: l.game,
        players: ranked(players)
            .into_iter()
            .map(|(rank, record, (player, rating))| PlayerStanding {
                rank,
                player,
                record,
                rating,
            })
            .collect(),
        partnerships: ranked(partnerships)
            .into_iter()
            .map(|(rank, record, partnership)| PartnershipStanding {
                rank,
                partnership,
                record,
            })
            .collect(),
    })
}
