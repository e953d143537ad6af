//! Reading and writing the league's rows. Every function takes the caller's transaction, so a
//! request (or a whole sheet import) commits or rolls back as one.

use super::aggregates;
use super::db::{self, Arg, Row, Tx, args};
use super::keys::{self, ApiKey, KeyInfo};
use super::model::*;
use super::packed::Packed;
use super::{Result, StoreError};
use crate::engine::{
    self, Adjudication, FieldError, MatchState, Options, Outcome, PerSide, Seat, Side, Table,
};
use crate::games;
use crate::input::escape;
use crate::record::HandRecord;
use serde::Serialize;
use serde_json::Value;
use sha2::Digest;
use std::collections::BTreeMap;

fn not_found<T>(found: Option<T>, what: impl FnOnce() -> String) -> Result<T> {
    found.ok_or_else(|| StoreError::NotFound(what()))
}

/// A page of a list, read by keyset: `sql` selects the rows after `args`' cursor (`id > ?`) in
/// `ORDER BY id` with `LIMIT` as its last parameter, which is given here as one row more than
/// `limit` (that row says that a next page exists). Each row is read by `row`; `cursor` names the
/// page's last for the next page.
pub(super) fn page<T, E>(
    tx: &Tx,
    sql: &str,
    args: &[&dyn Arg],
    limit: u32,
    mut row: impl FnMut(&Row) -> std::result::Result<T, E>,
    cursor: impl FnOnce(&T) -> String,
) -> Result<Page<T>>
where
    StoreError: From<E>,
{
    let over = limit + 1;
    let mut all = args.to_vec();
    all.push(&over);
    let mut st = tx.prepare(sql)?;
    let mut rows = st.query(&all)?;
    let mut items = Vec::new();
    while let Some(r) = rows.next()? {
        items.push(row(&r)?);
    }
    Ok(Page::of(items, limit, cursor))
}

// ---- clubs and keys -------------------------------------------------------------------------

fn club_row(r: &Row) -> Result<Club> {
    Ok(Club {
        id: r.get(0)?,
        name: r.get(1)?,
        visibility: Visibility::from_stored(&r.get::<String>(2)?),
        created_at: r.get(3)?,
    })
}

const CLUB_COLUMNS: &str = "SELECT id, name, visibility, created_at FROM clubs";

/// Creates a club with its first key (shown once).
pub fn create_club(tx: &Tx, name: &str, visibility: Visibility) -> Result<(Club, ApiKey)> {
    let name = normal_name(name);
    let id = tx.insert_unique(
        "INSERT INTO clubs (name, visibility) VALUES (?1, ?2) RETURNING id",
        args![name, visibility.as_str()],
        || format!("a club named '{name}' exists"),
    )?;
    let club = get_club(tx, id)?;
    let key = keys::create(tx, club.id, "first key")?;
    Ok((club, key))
}

/// The clubs `reader` may see, by id after `after`: every public-results club, and the
/// members-only clubs it is a member of.
pub fn list_clubs(tx: &Tx, reader: Reader, after: i64, limit: u32) -> Result<Page<Club>> {
    // `Reader::is_member_of` in SQL, so that a page holds `limit` clubs the reader may see.
    let (every, own) = match reader {
        Reader::Operator => (true, None),
        Reader::KeyOf(club) => (false, Some(club)),
        Reader::Anyone => (false, None),
    };
    let public = Visibility::PublicResults.as_str();
    let sql = format!(
        "{CLUB_COLUMNS} WHERE id > ?1 AND (visibility = ?2 OR ?3 OR id = ?4) ORDER BY id LIMIT ?5"
    );
    let args: [&dyn Arg; 4] = [&after, &public, &every, &own];
    page(tx, &sql, &args, limit, club_row, |c| c.id.to_string())
}

pub fn get_club(tx: &Tx, id: i64) -> Result<Club> {
    let club = tx.query_opt(
        &format!("{CLUB_COLUMNS} WHERE id = ?1"),
        args![id],
        club_row,
    )?;
    not_found(club, || format!("no club {id}"))
}

/// Sets who may read `club`.
pub fn set_visibility(tx: &Tx, club: i64, visibility: Visibility) -> Result<Club> {
    get_club(tx, club)?;
    tx.execute(
        "UPDATE clubs SET visibility = ?2 WHERE id = ?1",
        args![club, visibility.as_str()],
    )?;
    get_club(tx, club)
}

/// Who is reading: anyone (no key), the operator, or the holder of a live key of a club.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reader {
    Anyone,
    Operator,
    KeyOf(i64),
}

impl Reader {
    /// The reader a request's bearer token names. An unknown or revoked key is refused (401)
    /// rather than read as no key, so that a client learns its key is wrong.
    pub fn named(tx: &Tx, secret: Option<&str>, operator: bool) -> Result<Reader> {
        match secret {
            None => Ok(Reader::Anyone),
            Some(_) if operator => Ok(Reader::Operator),
            Some(secret) => match keys::find(tx, secret)? {
                Some(key) => Ok(Reader::KeyOf(key.club)),
                None => Err(StoreError::Unauthorized(
                    "unknown or revoked API key".into(),
                )),
            },
        }
    }

    fn is_member_of(self, club: i64) -> bool {
        match self {
            Reader::Operator => true,
            Reader::KeyOf(c) => c == club,
            Reader::Anyone => false,
        }
    }
}

/// What a read shows of a club.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shows {
    /// The club, its players, partnerships, leagues, sessions, matches, hand lists and standings.
    Results,
    /// Hands' records and adjudications, the audit trail (notes, key ids), sheets.
    Records,
}

/// Checks that `reader` may read what `shows` of `club`. A members-only club is, to anyone but
/// its members, a club that does not exist (404), so that its ids cannot be walked; a
/// public-results club shows its results to anyone and its records to its members (401 without
/// a key, 403 with another club's).
pub fn may_read(tx: &Tx, club: i64, reader: Reader, shows: Shows) -> Result<()> {
    let visibility = get_club(tx, club)?.visibility;
    if reader.is_member_of(club) {
        return Ok(());
    }
    match (visibility, shows, reader) {
        (Visibility::MembersOnly, _, _) => Err(StoreError::NotFound(format!("no club {club}"))),
        (Visibility::PublicResults, Shows::Results, _) => Ok(()),
        (Visibility::PublicResults, Shows::Records, Reader::Anyone) => {
            Err(StoreError::Unauthorized(format!(
                "club {club}'s hand records, audit trail and sheets need one of its keys: \
                 Authorization: Bearer <key>"
            )))
        }
        (Visibility::PublicResults, Shows::Records, _) => Err(StoreError::Forbidden(format!(
            "this key belongs to another club; club {club}'s hand records, audit trail and \
             sheets need one of its keys"
        ))),
    }
}

/// Checks that `secret` is a live key of `club` and names it as the writer. An unknown or revoked
/// key is 401 whatever the club; another club's key is 403, or 404 for a members-only club (to
/// that key it does not exist).
pub fn authorize(tx: &Tx, club: i64, secret: &str) -> Result<Actor> {
    match keys::use_key(tx, secret)? {
        Some(key) if key.club == club => Ok(Actor::Key {
            id: key.id,
            row: key.row,
        }),
        Some(key) => match get_club(tx, club)?.visibility {
            Visibility::MembersOnly => Err(StoreError::NotFound(format!("no club {club}"))),
            Visibility::PublicResults => Err(StoreError::Forbidden(format!(
                "this key belongs to club {}; it cannot write to club {club}",
                key.club
            ))),
        },
        None => Err(StoreError::Unauthorized(
            "unknown or revoked API key".into(),
        )),
    }
}

pub fn create_key(tx: &Tx, club: i64, label: &str) -> Result<ApiKey> {
    get_club(tx, club)?;
    keys::create(tx, club, label)
}

/// A page of the club's keys after the key `after` names (not found when it names none of the
/// club's).
pub fn list_keys(tx: &Tx, club: i64, after: Option<&str>, limit: u32) -> Result<Page<KeyInfo>> {
    get_club(tx, club)?;
    keys::list(tx, club, after, limit)
}

pub fn revoke_key(tx: &Tx, club: i64, id: &str) -> Result<()> {
    keys::revoke(tx, club, id)
}

// ---- players and partnerships ---------------------------------------------------------------

fn player_row(r: &Row) -> Result<Player> {
    Ok(Player {
        id: r.get(0)?,
        club: r.get(1)?,
        name: r.get(2)?,
        created_at: r.get(3)?,
    })
}

pub fn create_player(tx: &Tx, club: i64, name: &str) -> Result<Player> {
    get_club(tx, club)?;
    let name = normal_name(name);
    let taken = format!("club {club} has a player named '{name}'");
    if player_named(tx, club, &name)?.is_some() {
        return Err(StoreError::Conflict(taken));
    }
    let id = tx.insert_unique(
        "INSERT INTO players (club_id, name) VALUES (?1, ?2) RETURNING id",
        args![club, name],
        || taken,
    )?;
    get_player(tx, club, id)
}

pub fn list_players(tx: &Tx, club: i64, after: i64, limit: u32) -> Result<Page<Player>> {
    get_club(tx, club)?;
    let sql = "SELECT id, club_id, name, created_at FROM players \
               WHERE club_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3";
    let args: [&dyn Arg; 2] = [&club, &after];
    page(tx, sql, &args, limit, player_row, |p| p.id.to_string())
}

pub fn get_player(tx: &Tx, club: i64, id: i64) -> Result<Player> {
    let p = tx.query_opt(
        "SELECT id, club_id, name, created_at FROM players WHERE id = ?1 AND club_id = ?2",
        args![id, club],
        player_row,
    )?;
    not_found(p, || format!("no player {id} in club {club}"))
}

/// The player of `club` named `name`, compared as `normal_name` keeps names (a name stored before
/// names were kept so counts as it would be kept today): one name is one player, in sheets, on
/// creation and on renaming.
pub fn player_named(tx: &Tx, club: i64, name: &str) -> Result<Option<i64>> {
    let name = normal_name(name);
    // Names are kept normal now, so the index finds nearly every name; only a name that is not
    // there is looked for among the club's names as stored before.
    let kept = tx.query_opt(
        "SELECT id FROM players WHERE club_id = ?1 AND name = ?2",
        args![club, name],
        |r| r.get(0),
    )?;
    if kept.is_some() {
        return Ok(kept);
    }
    let mut st = tx.prepare("SELECT id, name FROM players WHERE club_id = ?1")?;
    let mut rows = st.query(args![club])?;
    while let Some(r) = rows.next()? {
        if normal_name(&r.get::<String>(1)?) == name {
            return Ok(Some(r.get(0)?));
        }
    }
    Ok(None)
}

fn partnership_row(tx: &Tx, r: &Row) -> Result<Partnership> {
    let id: i64 = r.get(0)?;
    let mut st = tx.prepare(
        "SELECT p.id, p.name FROM partnership_members m JOIN players p ON p.id = m.player_id \
         WHERE m.partnership_id = ?1 ORDER BY p.id",
    )?;
    let players = st.query_map(args![id], |r| {
        Ok(NameRef {
            id: r.get(0)?,
            name: r.get(1)?,
        })
    })?;
    Ok(Partnership {
        id,
        club: r.get(1)?,
        name: r.get(2)?,
        players,
        created_at: r.get(3)?,
    })
}

const PARTNERSHIP_COLUMNS: &str = "SELECT id, club_id, name, created_at FROM partnerships";

/// How a team is registered once: its members' ids, ascending, comma-separated.
fn roster(players: &[i64]) -> String {
    let mut ids = players.to_vec();
    ids.sort_unstable();
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

pub fn create_partnership(tx: &Tx, club: i64, new: &NewPartnership) -> Result<Partnership> {
    get_club(tx, club)?;
    let mut names = Vec::new();
    let mut errors = Vec::new();
    for (i, id) in new.players.iter().enumerate() {
        let pointer = format!("/players/{i}");
        if let Some(first) = new.players[..i].iter().position(|p| p == id) {
            errors.push(FieldError::new(
                pointer,
                format!("player {id} is already the partnership's player {first}: a partnership is different players"),
            ));
            continue;
        }
        match get_player(tx, club, *id) {
            Ok(p) => names.push(p.name),
            Err(StoreError::NotFound(d)) => errors.push(FieldError::new(pointer, d)),
            Err(e) => return Err(e),
        }
    }
    if !errors.is_empty() {
        return Err(StoreError::Invalid(errors));
    }
    let name = new.name.clone().unwrap_or_else(|| names.join(" & "));
    let id = tx.insert_unique(
        "INSERT INTO partnerships (club_id, name, roster) VALUES (?1, ?2, ?3) RETURNING id",
        args![club, normal_name(&name), roster(&new.players)],
        || "these players or this partnership name are already registered".into(),
    )?;
    for player in &new.players {
        tx.execute(
            "INSERT INTO partnership_members (partnership_id, player_id) VALUES (?1, ?2)",
            args![id, player],
        )?;
    }
    get_partnership(tx, club, id)
}

pub fn list_partnerships(tx: &Tx, club: i64, after: i64, limit: u32) -> Result<Page<Partnership>> {
    get_club(tx, club)?;
    let sql = format!("{PARTNERSHIP_COLUMNS} WHERE club_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
    let args: [&dyn Arg; 2] = [&club, &after];
    let row = |r: &Row| partnership_row(tx, r);
    page(tx, &sql, &args, limit, row, |p| p.id.to_string())
}

pub fn get_partnership(tx: &Tx, club: i64, id: i64) -> Result<Partnership> {
    let mut st = tx.prepare(&format!(
        "{PARTNERSHIP_COLUMNS} WHERE id = ?1 AND club_id = ?2"
    ))?;
    let mut rows = st.query(args![id, club])?;
    match rows.next()? {
        Some(r) => partnership_row(tx, &r),
        None => Err(StoreError::NotFound(format!(
            "no partnership {id} in club {club}"
        ))),
    }
}

// ---- leagues and sessions -------------------------------------------------------------------

fn league_row(r: &Row) -> Result<League> {
    let options: String = r.get(5)?;
    Ok(League {
        id: r.get(0)?,
        club: r.get(1)?,
        name: r.get(2)?,
        season: r.get(3)?,
        game: r.get(4)?,
        options: serde_json::from_str(&options).unwrap_or_default(),
        created_at: r.get(6)?,
    })
}

pub fn create_league(tx: &Tx, club: i64, new: &NewLeague) -> Result<League> {
    get_club(tx, club)?;
    let game = games::find(&new.game).ok_or_else(|| {
        let ids: Vec<_> = games::all().iter().map(|g| g.info().id).collect();
        StoreError::invalid(
            "/game",
            format!(
                "unknown game '{}': expected one of {}",
                new.game,
                ids.join(", ")
            ),
        )
    })?;
    Options::resolve(game.info().options, &new.options, "/options").map_err(StoreError::Invalid)?;
    let id = tx.insert_unique(
        "INSERT INTO leagues (club_id, name, season, game, options) VALUES (?1, ?2, ?3, ?4, ?5) \
         RETURNING id",
        args![
            club,
            normal_name(&new.name),
            normal_name(&new.season),
            new.game,
            crate::json::to_string(&new.options).expect("JSON")
        ],
        || {
            format!(
                "club {club} has a league '{}' for season '{}'",
                new.name, new.season
            )
        },
    )?;
    get_league(tx, club, id)
}

const LEAGUE_COLUMNS: &str =
    "SELECT id, club_id, name, season, game, options, created_at FROM leagues";

pub fn list_leagues(tx: &Tx, club: i64, after: i64, limit: u32) -> Result<Page<League>> {
    get_club(tx, club)?;
    let sql = format!("{LEAGUE_COLUMNS} WHERE club_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3");
    let args: [&dyn Arg; 2] = [&club, &after];
    page(tx, &sql, &args, limit, league_row, |l| l.id.to_string())
}

pub fn get_league(tx: &Tx, club: i64, id: i64) -> Result<League> {
    let l = tx.query_opt(
        &format!("{LEAGUE_COLUMNS} WHERE id = ?1 AND club_id = ?2"),
        args![id, club],
        league_row,
    )?;
    not_found(l, || format!("no league {id} in club {club}"))
}

fn session_row(r: &Row) -> Result<Session> {
    Ok(Session {
        id: r.get(0)?,
        league: r.get(1)?,
        name: r.get(2)?,
        played_on: r.get(3)?,
        created_at: r.get(4)?,
    })
}

pub fn create_session(tx: &Tx, club: i64, league: i64, new: &NewSession) -> Result<Session> {
    get_league(tx, club, league)?;
    let id = tx.insert(
        "INSERT INTO sessions (league_id, name, played_on) VALUES (?1, ?2, ?3) RETURNING id",
        args![league, normal_name(&new.name), new.played_on],
    )?;
    get_session(tx, club, id)
}

const SESSION_COLUMNS: &str = "SELECT s.id, s.league_id, s.name, s.played_on, s.created_at \
     FROM sessions s JOIN leagues l ON l.id = s.league_id";

pub fn list_sessions(
    tx: &Tx,
    club: i64,
    league: i64,
    after: i64,
    limit: u32,
) -> Result<Page<Session>> {
    get_league(tx, club, league)?;
    let sql =
        format!("{SESSION_COLUMNS} WHERE s.league_id = ?1 AND s.id > ?2 ORDER BY s.id LIMIT ?3");
    let args: [&dyn Arg; 2] = [&league, &after];
    page(tx, &sql, &args, limit, session_row, |s| s.id.to_string())
}

pub fn get_session(tx: &Tx, club: i64, id: i64) -> Result<Session> {
    let s = tx.query_opt(
        &format!("{SESSION_COLUMNS} WHERE s.id = ?1 AND l.club_id = ?2"),
        args![id, club],
        session_row,
    )?;
    not_found(s, || format!("no session {id} in club {club}"))
}

// ---- matches --------------------------------------------------------------------------------

/// Creates a match in `session` with the players at their seats. Pointers are relative to `base`
/// (the request body, or a sheet's match).
pub fn create_match(tx: &Tx, club: i64, new: &NewMatch) -> Result<Match> {
    let seated = seat_match(tx, club, new)?;
    let id = insert_match(tx, club, &seated, 0, &seated.fresh_state())?;
    get_match(tx, club, id)
}

/// A new match, checked and not yet stored: its league, session, table and the player at each
/// seat.
pub(super) struct SeatedMatch {
    league: i64,
    session: i64,
    table: Table,
    seats: BTreeMap<Seat, i64>,
}

impl SeatedMatch {
    /// The match before its first hand: every side of the table at 0, named as the table names
    /// them.
    pub(super) fn fresh_state(&self) -> MatchState {
        MatchState {
            scores: PerSide::over(self.table.sides()),
            ..MatchState::default()
        }
    }

    /// The sides its seats sit as, each once.
    pub(super) fn sides(&self) -> Vec<Side> {
        let mut sides: Vec<Side> = self
            .seats
            .keys()
            .map(|&seat| self.table.side(seat))
            .collect();
        sides.sort_unstable();
        sides.dedup();
        sides
    }
}

/// Checks `new` as `create_match` stores it, without storing it.
pub(super) fn seat_match(tx: &Tx, club: i64, new: &NewMatch) -> Result<SeatedMatch> {
    Venue::of(tx, club, new.session)?.seat(tx, club, &new.seats, false)
}

/// Where a session's matches are played: its league, the league's game and options, and the table
/// they make, read once for a sheet's many matches.
pub(super) struct Venue {
    league: i64,
    session: i64,
    game: &'static dyn engine::Game,
    options: Options,
    table: Table,
}

impl Venue {
    /// Session `session` of `club`, its league and table (a session not found is a problem of
    /// `/session`, as a new match names it).
    pub(super) fn of(tx: &Tx, club: i64, session: i64) -> Result<Venue> {
        let session = get_session(tx, club, session).map_err(|e| match e {
            StoreError::NotFound(d) => StoreError::invalid("/session", d),
            e => e,
        })?;
        Venue::at(tx, club, &session)
    }

    /// `session`'s (found already) league and table.
    pub(super) fn at(tx: &Tx, club: i64, session: &Session) -> Result<Venue> {
        let league = get_league(tx, club, session.league)?;
        let (game, options) = league_rules(&league)?;
        Ok(Venue {
            league: league.id,
            session: session.id,
            game,
            table: game.table(&options),
            options,
        })
    }

    pub(super) fn league(&self) -> i64 {
        self.league
    }

    pub(super) fn session(&self) -> i64 {
        self.session
    }

    pub(super) fn game(&self) -> &'static dyn engine::Game {
        self.game
    }

    pub(super) fn options(&self) -> &Options {
        &self.options
    }

    pub(super) fn table(&self) -> Table {
        self.table
    }

    /// A new match of the session with the player at each seat named in `seats`, checked as
    /// `create_match` stores it; when `players_found`, every player in `seats` was found in this
    /// transaction already (a sheet seats them by name) and is not read again.
    pub(super) fn seat(
        &self,
        tx: &Tx,
        club: i64,
        seats: &BTreeMap<String, i64>,
        players_found: bool,
    ) -> Result<SeatedMatch> {
        let (game, table) = (self.game, self.table);
        let mut errors = Vec::new();
        // Seats are read here, where the table is known, so that a name that is no seat is
        // answered with this table's seats.
        let mut seated = BTreeMap::new();
        for (name, player) in seats {
            let pointer = format!("/seats/{}", escape(name));
            match name.parse::<Seat>() {
                Ok(seat) if table.resolve(seat).is_some() => {
                    if seated.insert(seat, *player).is_some() {
                        errors.push(FieldError::new(
                            pointer,
                            format!("seat {seat} is given twice"),
                        ));
                    }
                }
                _ => errors.push(FieldError::new(
                    pointer,
                    format!("no seat {name} at this table: expected {}", table.names()),
                )),
            }
        }
        for seat in table.seats() {
            if !seated.contains_key(&seat) {
                errors.push(FieldError::new(
                    format!("/seats/{seat}"),
                    format!("{} needs a player at {seat}", game.info().name),
                ));
            }
        }
        let mut seen = BTreeMap::new();
        for (seat, player) in &seated {
            let pointer = format!("/seats/{seat}");
            let missing = if players_found {
                None
            } else {
                match get_player(tx, club, *player) {
                    Ok(_) => None,
                    Err(StoreError::NotFound(d)) => Some(d),
                    Err(e) => return Err(e),
                }
            };
            if let Some(d) = missing {
                errors.push(FieldError::new(pointer, d));
            } else if let Some(other) = seen.insert(*player, *seat) {
                errors.push(FieldError::new(
                    pointer,
                    format!("player {player} already sits at {other}"),
                ));
            }
        }
        if !errors.is_empty() {
            return Err(StoreError::Invalid(errors));
        }
        Ok(SeatedMatch {
            league: self.league,
            session: self.session,
            table,
            seats: seated,
        })
    }
}

/// Stores a match `seat_match` checked, as it stands after its first `hands` hands (`state`; an
/// import stores them in the same write); returns its id.
pub(super) fn insert_match(
    tx: &Tx,
    club: i64,
    m: &SeatedMatch,
    hands: u32,
    state: &MatchState,
) -> Result<i64> {
    let SeatedMatch {
        league,
        session,
        table,
        ref seats,
    } = *m;
    let id = tx.insert(
        "INSERT INTO matches (league_id, session_id, state, hands, game_over) \
         VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        args![
            league,
            session,
            crate::json::to_string(state).expect("JSON"),
            hands,
            state.game_over
        ],
    )?;
    for (seat, player) in seats {
        tx.execute(
            "INSERT INTO match_seats (match_id, seat, side, player_id) VALUES (?1, ?2, ?3, ?4)",
            args![id, seat.code(), table.side(*seat).code(), player],
        )?;
    }
    // A side of two or more players that is a registered partnership counts for it.
    for side in table.sides() {
        let team: Vec<i64> = table
            .members(side)
            .filter_map(|seat| seats.get(&seat).copied())
            .collect();
        if team.len() >= 2 {
            tx.execute(
                "INSERT INTO match_sides (match_id, side, partnership_id) \
                 SELECT ?1, ?2, id FROM partnerships WHERE club_id = ?3 AND roster = ?4",
                args![id, side.code(), club, roster(&team)],
            )?;
        }
    }
    Ok(id)
}

/// Match `id`'s hands and its state as stored (the text): what changes when any hand of it is
/// posted, amended, voided or readjudicated.
pub(super) fn match_version(tx: &Tx, id: i64) -> Result<(u32, String)> {
    tx.query_row(
        "SELECT hands, state FROM matches WHERE id = ?1",
        args![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

pub fn get_match(tx: &Tx, club: i64, id: i64) -> Result<Match> {
    let m = tx.query_opt(
        "SELECT m.id, m.league_id, m.session_id, m.hands, m.state, m.created_at \
         FROM matches m JOIN leagues l ON l.id = m.league_id WHERE m.id = ?1 AND l.club_id = ?2",
        args![id, club],
        |r| {
            Ok(Match {
                id: r.get(0)?,
                league: r.get(1)?,
                session: r.get(2)?,
                hands: r.get(3)?,
                state: serde_json::from_str(&r.get::<String>(4)?).unwrap_or_default(),
                created_at: r.get(5)?,
                seats: BTreeMap::new(),
                partnerships: BTreeMap::new(),
            })
        },
    )?;
    let mut m = not_found(m, || format!("no match {id} in club {club}"))?;
    let mut st = tx.prepare(
        "SELECT ms.seat, p.id, p.name FROM match_seats ms JOIN players p ON p.id = ms.player_id WHERE ms.match_id = ?1",
    )?;
    let mut rows = st.query(args![id])?;
    while let Some(r) = rows.next()? {
        let seat: Seat = parse_stored(&r.get::<String>(0)?)?;
        m.seats.insert(
            seat,
            NameRef {
                id: r.get(1)?,
                name: r.get(2)?,
            },
        );
    }
    let mut st = tx.prepare(
        "SELECT side, partnership_id FROM match_sides WHERE match_id = ?1 AND partnership_id IS NOT NULL",
    )?;
    let mut rows = st.query(args![id])?;
    while let Some(r) = rows.next()? {
        m.partnerships
            .insert(parse_stored(&r.get::<String>(0)?)?, r.get(1)?);
    }
    Ok(m)
}

/// A session's matches above an id (`?2`), in order, at most `?3` (`i64::MAX`: all of them; SQLite's
/// -1 for all is not PostgreSQL's).
const SESSION_MATCHES: &str =
    "SELECT id FROM matches WHERE session_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3";

pub fn list_matches(
    tx: &Tx,
    club: i64,
    session: i64,
    after: i64,
    limit: u32,
) -> Result<Page<Match>> {
    get_session(tx, club, session)?;
    let args: [&dyn Arg; 2] = [&session, &after];
    let ids = page(
        tx,
        SESSION_MATCHES,
        &args,
        limit,
        |r| r.get(0),
        i64::to_string,
    )?;
    Ok(Page {
        items: (ids.items.into_iter())
            .map(|id| get_match(tx, club, id))
            .collect::<Result<_>>()?,
        next_cursor: ids.next_cursor,
    })
}

/// The ids of `club`'s session's matches above `after`, in order: a sheet's page reads only the
/// matches it writes.
pub(super) fn match_ids(tx: &Tx, club: i64, session: i64, after: i64) -> Result<Vec<i64>> {
    get_session(tx, club, session)?;
    tx.query_map(SESSION_MATCHES, args![session, after, i64::MAX], |r| {
        r.get(0)
    })
}

/// A seat or side name written by this store.
fn parse_stored<T: std::str::FromStr>(s: &str) -> Result<T> {
    s.parse()
        .map_err(|_| StoreError::Database(format!("unreadable stored value '{s}'")))
}

pub(super) fn league_game(league: &League) -> Result<&'static dyn engine::Game> {
    games::find(&league.game).ok_or_else(|| {
        StoreError::Database(format!(
            "league {} plays '{}', which this build does not know",
            league.id, league.game
        ))
    })
}

/// The league's game and its options, as every hand of the league is ruled. The options were
/// checked when the league was created; failing now means the game's options changed since.
pub(super) fn league_rules(league: &League) -> Result<(&'static dyn engine::Game, Options)> {
    let game = league_game(league)?;
    let options =
        Options::resolve(game.info().options, &league.options, "/options").map_err(|e| {
            StoreError::Conflict(format!(
                "the league's options are no longer valid: {}",
                e[0].detail
            ))
        })?;
    Ok((game, options))
}

// ---- hands ----------------------------------------------------------------------------------

/// Adjudicates `record` as the next hand of `match_id` and stores it with the new match state.
/// A record error (the record contradicts itself) is refused, like a malformed deal: a stored hand
/// is one that was played. Irregularities are stored with the hand.
pub fn post_hand(tx: &Tx, club: i64, match_id: i64, record: &HandRecord) -> Result<HandSummary> {
    let m = get_match(tx, club, match_id)?;
    let (game, options) = league_rules(&get_league(tx, club, m.league)?)?;
    let errors = check_players(&m, record);
    if !errors.is_empty() {
        return Err(StoreError::Invalid(errors));
    }
    let a = adjudicate(game, &options, &m.state, record, m.hands)?;
    let at = HandPlace {
        match_id: m.id,
        league: m.league,
        session: m.session,
        number: m.hands + 1,
        created_at: &db::now(),
    };
    let summary = store_hand(
        tx,
        &at,
        &StoredForm::of(record, play_digest(record), &a),
        &RulingRows::of(&a),
    )?;
    set_match_state(tx, m.id, at.number, &m.state, &a.match_after)?;
    Ok(summary)
}

/// Player names, when a record gives them, must be the players seated in the match.
pub(super) fn check_players(m: &Match, record: &HandRecord) -> Vec<FieldError> {
    let match_id = m.id;
    let mut errors = Vec::new();
    for (seat, name) in &record.players {
        match m.seats.get(seat) {
            Some(p) if normal_name(&p.name) == normal_name(name) => {}
            Some(p) => errors.push(FieldError::new(
                format!("/players/{seat}"),
                format!(
                    "{} sits at {seat} in match {match_id}, not '{name}'",
                    p.name
                ),
            )),
            None => errors.push(FieldError::new(
                format!("/players/{seat}"),
                format!("no one sits at {seat} in match {match_id}"),
            )),
        }
    }
    errors
}

/// What identifies a hand as played: SHA-256 of its dealer, deal, face-up cards, stock (second
/// stock, shoe, cut card and later deals, where it has them) and actions (not the player names, which a sheet does
/// not repeat on every hand). Kept with every hand, so that a sheet repeating stored hands is
/// recognised.
///
/// The bytes hashed are the compact JSON text of `[dealer, deal, face_up, stock, actions]`, then
/// `[shoe, cut_card, deals]` where a record has any of them (so that the digests stored before they
/// existed still name their hands), then `{"second_stock": ...}` where it has one (two hands that
/// differ only in it are two hands), every object's keys in byte order: the text serde_json's
/// `Value` writes, which the stored digests were made of. Written straight into the hash.
pub fn play_digest(record: &HandRecord) -> Vec<u8> {
    let actions = record.actions.iter();
    play_digest_with(
        record,
        actions.map(|a| (a.seat, a.kind.verb.as_str(), &a.kind.value)),
    )
}

/// `play_digest` of `record` with `actions` (each action's seat, verb and value) in place of its
/// own: a sheet digests its hands before it makes their records.
pub fn play_digest_with<'a, V: Serialize>(
    record: &HandRecord,
    actions: impl Iterator<Item = (Seat, &'a str, V)>,
) -> Vec<u8> {
    let mut h = Hashed(sha2::Sha256::new());
    h.put("[");
    h.json(&record.dealer);
    h.put(",");
    h.seat_map(&record.deal);
    h.put(",");
    h.json(&record.face_up);
    h.put(",");
    h.json(&record.stock);
    h.put(",[");
    for (i, (seat, verb, value)) in actions.enumerate() {
        h.put(if i == 0 { "{" } else { ",{" });
        // Its two keys in order: the verb, and "seat" (no verb is named "seat").
        let put_seat = |h: &mut Hashed| {
            h.put("\"seat\":");
            h.json(&seat);
        };
        if verb > "seat" {
            put_seat(&mut h);
            h.put(",");
        }
        h.json(&verb);
        h.put(":");
        h.json(&value);
        if verb < "seat" {
            h.put(",");
            put_seat(&mut h);
        }
        h.put("}");
    }
    h.put("]");
    if !record.shoe.is_empty() || record.cut_card.is_some() || !record.deals.is_empty() {
        h.put(",[");
        h.json(&record.shoe);
        h.put(",");
        h.json(&record.cut_card);
        h.put(",[");
        for (i, deal) in record.deals.iter().enumerate() {
            if i > 0 {
                h.put(",");
            }
            h.seat_map(deal);
        }
        h.put("]]");
    }
    if !record.second_stock.is_empty() {
        h.put(",{\"second_stock\":");
        h.json(&record.second_stock);
        h.put("}");
    }
    h.put("]");
    h.0.finalize().to_vec()
}

/// A digest being made of JSON text.
struct Hashed(sha2::Sha256);

impl Hashed {
    fn put(&mut self, text: &str) {
        self.0.update(text.as_bytes());
    }

    fn json(&mut self, value: &impl Serialize) {
        serde_json::to_writer(&mut *self, value).expect("a record's parts serialize");
    }

    /// A map by seat, its keys (the seats' codes) in byte order.
    fn seat_map(&mut self, map: &BTreeMap<Seat, Vec<crate::cards::Card>>) {
        let mut entries: Vec<_> = map.iter().collect();
        entries.sort_unstable_by_key(|(seat, _)| seat.code());
        self.put("{");
        for (i, (seat, cards)) in entries.into_iter().enumerate() {
            if i > 0 {
                self.put(",");
            }
            self.json(seat);
            self.put(":");
            self.json(cards);
        }
        self.put("}");
    }
}

impl std::io::Write for Hashed {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether session `session` stores any hand.
pub(super) fn session_has_hands(tx: &Tx, session: i64) -> Result<bool> {
    tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM hands WHERE session_id = ?1)",
        args![session],
        |r| r.get(0),
    )
}

/// The hand of `session` that played exactly this (by `play_digest`), named for a problem.
pub fn stored_play(tx: &Tx, session: i64, digest: &[u8]) -> Result<Option<String>> {
    tx.query_opt(
        "SELECT id, match_id, number FROM hands WHERE session_id = ?1 AND play_digest = ?2",
        args![session, digest],
        |r| {
            Ok(format!(
                "hand {} (match {}, hand {})",
                r.get::<i64>(0)?,
                r.get::<i64>(1)?,
                r.get::<i64>(2)?
            ))
        },
    )
}

/// The engine's ruling on the next hand; a record error is a refusal.
pub(super) fn adjudicate(
    game: &dyn engine::Game,
    options: &Options,
    state: &MatchState,
    record: &HandRecord,
    played: u32,
) -> Result<Adjudication> {
    let a = engine::adjudicate_next(game, options, state, record, played as usize)
        .map_err(StoreError::Invalid)?;
    match &a.record_error {
        Some(e) => Err(StoreError::Invalid(vec![FieldError::new(
            e.pointer.clone(),
            format!(
                "{} ({}): correct the record; a hand with a record error is not stored",
                e.detail, e.code
            ),
        )])),
        None => Ok(a),
    }
}

fn outcome_name(o: Outcome) -> String {
    serde_json::to_value(o)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// Where a hand is stored: its match, the match's league and session, its number in the match,
/// and when (`db::now`: a sheet's hands are stored at one time, read once).
pub(super) struct HandPlace<'a> {
    pub match_id: i64,
    pub league: i64,
    pub session: i64,
    pub number: u32,
    pub created_at: &'a str,
}

/// A hand as the store keeps it: its dealer, its record and ruling packed, its play digest. Made
/// before the write where it can be (an import makes it outside the writer).
pub(super) struct StoredForm {
    dealer: Seat,
    record: Vec<u8>,
    ruling: Vec<u8>,
    digest: Vec<u8>,
}

impl StoredForm {
    pub(super) fn digest(&self) -> &[u8] {
        &self.digest
    }

    pub(super) fn of(record: &HandRecord, digest: Vec<u8>, a: &Adjudication) -> StoredForm {
        StoredForm {
            dealer: record.dealer,
            record: Packed::json(record).pack(),
            ruling: Packed::json(a).pack(),
            digest,
        }
    }
}

/// Stores hand `at` in the form `form`, and the rows standings add up from its ruling `a`; the
/// match's state is the caller's to store. The summary is made from what was written, not read
/// back.
pub(super) fn store_hand(
    tx: &Tx,
    at: &HandPlace,
    form: &StoredForm,
    rows: &RulingRows,
) -> Result<HandSummary> {
    let hand = tx.insert(
        "INSERT INTO hands (match_id, league_id, session_id, number, dealer, outcome, record, \
         adjudication, play_digest, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
         RETURNING id",
        args![
            at.match_id,
            at.league,
            at.session,
            at.number,
            form.dealer.code(),
            outcome_name(rows.outcome),
            form.record,
            form.ruling,
            form.digest,
            at.created_at
        ],
    )?;
    write_ruling(tx, hand, rows)?;
    Ok(HandSummary {
        id: hand,
        match_id: at.match_id,
        session: at.session,
        league: at.league,
        number: at.number,
        dealer: form.dealer,
        outcome: outcome_name(rows.outcome),
        hand_score: rows.hand_score,
        irregularities: rows
            .irregularities
            .iter()
            .map(|(code, _)| code.to_string())
            .collect(),
        match_after: rows.match_after.clone(),
        created_at: at.created_at.to_string(),
    })
}

/// What storing a hand writes of its ruling besides the packed text: the rows the standings count
/// (each side's points, the irregularities, the camps) and what the answer names. An import holds
/// these for every hand of a sheet until it publishes, rather than each whole ruling.
pub(super) struct RulingRows {
    outcome: Outcome,
    hand_score: Option<PerSide<i32>>,
    /// Each side's points in the hand: how far the match scores moved.
    points: Vec<(Side, i32)>,
    irregularities: Vec<(&'static str, Seat)>,
    camps: Vec<(&'static str, Vec<Seat>)>,
    pub match_after: MatchState,
}

impl RulingRows {
    pub fn of(a: &Adjudication) -> RulingRows {
        let (before, after) = (&a.match_before.scores, &a.match_after.scores);
        RulingRows {
            outcome: a.outcome,
            hand_score: a.hand_score,
            points: after
                .sides()
                .map(|side| (side, after[side] - before[side]))
                .collect(),
            irregularities: a.irregularities.iter().map(|i| (i.code, i.seat)).collect(),
            camps: a.camps.iter().map(|c| (c.role, c.seats.clone())).collect(),
            match_after: a.match_after.clone(),
        }
    }
}

/// Stores hand `hand` as number `number` of its match with `record` and its ruling `a` (a
/// readjudication or a correction).
pub(super) fn store_ruling(
    tx: &Tx,
    hand: i64,
    number: u32,
    record: &HandRecord,
    a: &Adjudication,
) -> Result<()> {
    let form = StoredForm::of(record, play_digest(record), a);
    tx.execute(
        "UPDATE hands SET number = ?2, dealer = ?3, outcome = ?4, record = ?5, adjudication = ?6, \
         play_digest = ?7 WHERE id = ?1",
        args![
            hand,
            number,
            form.dealer.code(),
            outcome_name(a.outcome),
            form.record,
            form.ruling,
            form.digest
        ],
    )?;
    for table in RULING_TABLES {
        tx.execute(
            &format!("DELETE FROM {table} WHERE hand_id = ?1"),
            args![hand],
        )?;
    }
    write_ruling(tx, hand, &RulingRows::of(a))
}

/// The tables a hand's ruling is added up from, which a void deletes with it.
pub(super) const RULING_TABLES: [&str; 3] = ["hand_scores", "hand_irregularities", "hand_camps"];

/// What standings add up: the match points the hand moved per side (its score plus any bonus the
/// match received; nothing for a misdeal or a forfeited game), the irregularities by seat, and
/// each seat's camp in a hand played in camps (the hand has none stored yet).
fn write_ruling(tx: &Tx, hand: i64, rows: &RulingRows) -> Result<()> {
    let mut score =
        tx.prepare("INSERT INTO hand_scores (hand_id, side, points) VALUES (?1, ?2, ?3)")?;
    for (side, points) in &rows.points {
        score.execute(args![hand, side.code(), points])?;
    }
    let mut irregularity = tx.prepare(
        "INSERT INTO hand_irregularities (hand_id, ordinal, code, seat) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (i, (code, seat)) in rows.irregularities.iter().enumerate() {
        irregularity.execute(args![hand, i as i64, code, seat.code()])?;
    }
    for (role, seats) in &rows.camps {
        write_camp(tx, hand, role, seats)?;
    }
    Ok(())
}

/// Each seat's camp in hand `hand`, from a stored ruling's `camps` (none when it has none).
#[cfg(test)]
pub(super) fn write_camps(tx: &Tx, hand: i64, ruling: &Value) -> Result<()> {
    #[derive(serde::Deserialize)]
    struct StoredCamp {
        role: String,
        seats: Vec<Seat>,
    }
    let camps: Option<Vec<StoredCamp>> = match ruling.get("camps") {
        Some(c) => serde_json::from_value(c.clone())
            .map_err(|e| StoreError::Database(format!("unreadable camps in a ruling: {e}")))?,
        None => None,
    };
    for camp in camps.unwrap_or_default() {
        write_camp(tx, hand, &camp.role, &camp.seats)?;
    }
    Ok(())
}

/// The seats of one camp of hand `hand`.
fn write_camp(tx: &Tx, hand: i64, role: &str, seats: &[Seat]) -> Result<()> {
    let mut st = tx.prepare(
        "INSERT INTO hand_camps (hand_id, seat, role) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
    )?;
    for seat in seats {
        // A seat is in one camp of a hand (the engine's contract); the first one named counts.
        st.execute(args![hand, seat.code(), role])?;
    }
    Ok(())
}

/// Stores match `match_id`'s state after `hands` hands (its stored state was `before`), and what
/// its finish brings to the standings (the ratings folded again from it where its finish changed).
pub(super) fn set_match_state(
    tx: &Tx,
    match_id: i64,
    hands: u32,
    before: &MatchState,
    state: &MatchState,
) -> Result<()> {
    if let Some((league, from)) = keep_match_state(tx, match_id, hands, before, state)? {
        aggregates::rerate(tx, league, from)?;
    }
    Ok(())
}

/// `set_match_state` but for the ratings: returns the league and the point from which they must
/// be folded again, when the match's finish changed, for a caller that stores several matches to
/// fold them once.
pub(super) fn keep_match_state(
    tx: &Tx,
    match_id: i64,
    hands: u32,
    before: &MatchState,
    state: &MatchState,
) -> Result<Option<(i64, i64)>> {
    write_match_state(tx, match_id, hands, state)?;
    // A match's finish is kept while its stored state is over (`aggregates::finish`): a write
    // that leaves it unfinished, as it was, changes none.
    if before.game_over || state.game_over {
        aggregates::finish(tx, match_id)
    } else {
        Ok(None)
    }
}

/// Stores match `match_id`'s state after `hands` hands, and nothing else: the caller keeps its
/// finish (`keep_match_state`, or an import's `aggregates::first_finish` for a new match).
pub(super) fn write_match_state(
    tx: &Tx,
    match_id: i64,
    hands: u32,
    state: &MatchState,
) -> Result<()> {
    tx.execute(
        "UPDATE matches SET state = ?2, hands = ?3, game_over = ?4 WHERE id = ?1",
        args![
            match_id,
            crate::json::to_string(state).expect("JSON"),
            hands,
            state.game_over,
        ],
    )?;
    Ok(())
}

/// What a hand's summary is read from (its ruling, not its record: a list has no use for the
/// record, which would be decompressed for nothing).
const HAND_COLUMNS: &str =
    "id, match_id, session_id, league_id, number, dealer, outcome, adjudication, created_at";

/// A hand's summary and its ruling's text, from a row of `HAND_COLUMNS`.
fn hand_row(r: &Row) -> Result<(HandSummary, String)> {
    let Packed(adjudication) = r.get(7)?;
    let ruling: Ruling = serde_json::from_str(&adjudication)
        .map_err(|e| StoreError::Database(format!("unreadable stored adjudication: {e}")))?;
    Ok((
        HandSummary {
            id: r.get(0)?,
            match_id: r.get(1)?,
            session: r.get(2)?,
            league: r.get(3)?,
            number: r.get(4)?,
            dealer: parse_stored(&r.get::<String>(5)?)?,
            outcome: r.get(6)?,
            hand_score: ruling.hand_score,
            irregularities: ruling.irregularities.into_iter().map(|i| i.code).collect(),
            match_after: ruling.match_after,
            created_at: r.get(8)?,
        },
        adjudication,
    ))
}

/// One stored hand of `club`, with its record and adjudication.
pub fn get_hand(tx: &Tx, club: i64, id: i64) -> Result<StoredHand> {
    let mut st = tx.prepare(&format!(
        "SELECT {HAND_COLUMNS}, record FROM hands \
         WHERE id = ?1 AND league_id IN (SELECT id FROM leagues WHERE club_id = ?2)"
    ))?;
    let mut rows = st.query(args![id, club])?;
    let r = rows
        .next()?
        .ok_or_else(|| StoreError::NotFound(format!("no hand {id} in club {club}")))?;
    let (summary, adjudication) = hand_row(&r)?;
    let Packed(record) = r.get(9)?;
    let json = |s: &str| serde_json::from_str(s).map_err(|e| StoreError::Database(e.to_string()));
    Ok(StoredHand {
        summary,
        record: json(&record)?,
        adjudication: json(&adjudication)?,
    })
}

/// Which hands a list covers.
#[derive(Clone, Copy, Debug)]
pub enum HandScope {
    Match(i64),
    Session(i64),
    League(i64),
}

/// Hands in `scope` with an id above `after`, oldest first, at most `limit`.
pub fn list_hands(
    tx: &Tx,
    club: i64,
    scope: HandScope,
    after: i64,
    limit: u32,
) -> Result<Page<HandSummary>> {
    let (column, id) = match scope {
        HandScope::Match(id) => ("match_id", get_match(tx, club, id)?.id),
        HandScope::Session(id) => ("session_id", get_session(tx, club, id)?.id),
        HandScope::League(id) => ("league_id", get_league(tx, club, id)?.id),
    };
    let sql = format!(
        "SELECT {HAND_COLUMNS} FROM hands WHERE {column} = ?1 AND id > ?2 ORDER BY id LIMIT ?3"
    );
    let args: [&dyn Arg; 2] = [&id, &after];
    page(
        tx,
        &sql,
        &args,
        limit,
        |r| hand_row(r).map(|(h, _)| h),
        |h| h.id.to_string(),
    )
}

/// The records of a match's first `hands` stored hands, by number (for the sheet export).
pub fn match_records(tx: &Tx, match_id: i64, hands: u32) -> Result<Vec<HandRecord>> {
    let records: Vec<Packed> = tx.query_map(
        "SELECT record FROM hands WHERE match_id = ?1 ORDER BY number LIMIT ?2",
        args![match_id, hands],
        |r| r.get(0),
    )?;
    records
        .iter()
        .map(|Packed(s)| {
            serde_json::from_str(s)
                .map_err(|e| StoreError::Database(format!("unreadable stored record: {e}")))
        })
        .collect()
}

// ---- readjudication -------------------------------------------------------------------------

/// Replays every stored hand of `league`, match by match, through today's engine. The new rulings
/// are stored only when every hand still replays (and not on a dry run); otherwise nothing changes
/// and the conflict names the hands that no longer do.
pub fn readjudicate(tx: &Tx, club: i64, league_id: i64, dry_run: bool) -> Result<Readjudication> {
    let (game, options) = league_rules(&get_league(tx, club, league_id)?)?;
    let matches: Vec<i64> = tx.query_map(
        "SELECT id FROM matches WHERE league_id = ?1 ORDER BY id",
        args![league_id],
        |r| r.get(0),
    )?;
    let mut report = Readjudication {
        league: league_id,
        applied: !dry_run,
        hands_replayed: 0,
        changed: Vec::new(),
    };
    let mut failures = Vec::new();
    let mut refold_from: Option<i64> = None;
    for match_id in matches {
        let rows: Vec<(i64, u32, Packed, Packed)> = tx.query_map(
            "SELECT id, number, record, adjudication FROM hands WHERE match_id = ?1 ORDER BY number",
            args![match_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let hands = rows.len() as u32;
        let mut state = MatchState::default();
        for (hand, number, Packed(record), Packed(stored)) in rows {
            report.hands_replayed += 1;
            let unreadable =
                |e: serde_json::Error| StoreError::Database(format!("hand {hand}: {e}"));
            let record: HandRecord = serde_json::from_str(&record).map_err(unreadable)?;
            let before: Ruling = serde_json::from_str(&stored).map_err(unreadable)?;
            let a = match adjudicate(game, &options, &state, &record, number - 1) {
                Ok(a) => a,
                Err(StoreError::Invalid(e)) => {
                    failures.push(format!(
                        "hand {hand} (match {match_id}, number {number}): {}",
                        e[0].detail
                    ));
                    break;
                }
                Err(e) => return Err(e),
            };
            let after: Ruling = serde_json::from_value(serde_json::to_value(&a).expect("JSON"))
                .map_err(unreadable)?;
            if before != after {
                if !dry_run {
                    store_ruling(tx, hand, number, &record, &a)?;
                }
                report.changed.push(HandChange {
                    hand,
                    match_id,
                    number,
                    before,
                    after: after.clone(),
                });
            }
            state = a.match_after;
        }
        if !dry_run {
            write_match_state(tx, match_id, hands, &state)?;
            if let Some((_, from)) = aggregates::finish(tx, match_id)? {
                refold_from = Some(refold_from.map_or(from, |f: i64| f.min(from)));
            }
        }
    }
    // The ratings folded again once, from the first match whose finish changed.
    if let Some(from) = refold_from {
        aggregates::rerate(tx, league_id, from)?;
    }
    if !failures.is_empty() {
        return Err(StoreError::Conflict(format!(
            "{} stored hand(s) no longer replay under today's rules; nothing was changed: {}",
            failures.len(),
            failures.join("; ")
        )));
    }
    Ok(report)
}

// ---- idempotency ----------------------------------------------------------------------------

/// How long an answer is kept for a retry with the same `Idempotency-Key`.
const KEPT_FOR: time::Duration = time::Duration::hours(24);

/// The largest answer kept (as JSON); a larger one is kept as its status only.
pub const MAX_KEPT: usize = 64 * 1024;

/// What an `Idempotency-Key` keeps of an answer, and how a replay answers from it: by default the
/// answer whole (replayed as it was).
pub trait Kept: Serialize + Sized {
    fn kept(&self) -> Value {
        serde_json::to_value(self).expect("an answer serializes")
    }

    fn replayed(_tx: &Tx, kept: Value) -> Result<Value> {
        Ok(kept)
    }
}

impl Kept for () {}
impl Kept for Club {}
impl Kept for Player {}
impl Kept for Partnership {}
impl Kept for League {}
impl Kept for Session {}
impl Kept for Match {}
impl Kept for HandSummary {}
impl Kept for Correction {}
impl Kept for Readjudication {}

/// A key's secret is never kept: a replay answers the key's id and label, and that the secret
/// was shown once.
impl Kept for ApiKey {
    fn kept(&self) -> Value {
        serde_json::json!({"id": self.id, "club": self.club, "label": self.label})
    }

    fn replayed(_tx: &Tx, mut kept: Value) -> Result<Value> {
        kept["secret_shown_once"] = Value::Bool(true);
        Ok(kept)
    }
}

/// An import keeps the matches it created and the range of the hands it stored (one transaction
/// stores them with consecutive ids, in sheet order); a replay reads those hands again, as they
/// stand (a hand voided since is left out, an amended one shows its new ruling).
impl Kept for ImportReport {
    fn kept(&self) -> Value {
        let ids = self.hands.first().zip(self.hands.last());
        serde_json::json!({
            "matches_created": self.matches_created,
            "hands": ids.map(|(first, last)| [first.id, last.id]),
        })
    }

    fn replayed(tx: &Tx, kept: Value) -> Result<Value> {
        let mut hands = Vec::new();
        if let Some([first, last]) =
            serde_json::from_value::<Option<[i64; 2]>>(kept["hands"].clone())
                .map_err(|e| StoreError::Database(format!("unreadable kept answer: {e}")))?
        {
            let mut st = tx.prepare(&format!(
                "SELECT {HAND_COLUMNS} FROM hands WHERE id BETWEEN ?1 AND ?2 ORDER BY id"
            ))?;
            let mut rows = st.query(args![first, last])?;
            while let Some(r) = rows.next()? {
                hands.push(hand_row(&r)?.0);
            }
        }
        Ok(serde_json::json!({"matches_created": kept["matches_created"], "hands": hands}))
    }
}

/// An answer kept for an `Idempotency-Key`: the request's fingerprint, the answer (empty when it
/// was too large to keep), the key that sent it, and when.
struct KeptRow {
    fingerprint: Vec<u8>,
    status: u16,
    body: String,
    sender: Option<i64>,
    at: String,
}

/// A write's `Idempotency-Key`, scoped to the club and to the key that sent it, with the
/// fingerprint of the request it named.
pub struct Idempotency {
    pub club: i64,
    pub key: String,
    pub fingerprint: Vec<u8>,
}

impl Idempotency {
    /// The answer to replay for an earlier request with this key by the same writer (`by`: its
    /// key's row, `None` for the operator): `Ok(Some)` to replay it; `Ok(None)` when there is none
    /// (answers are kept 24 hours; older ones are dropped here); 409 when another key of the club
    /// sent it, or the answer was too large to keep; 422 when it named a different request.
    pub fn replay<T: Kept>(&self, tx: &Tx, by: Option<i64>) -> Result<Option<(u16, Value)>> {
        tx.execute(
            "DELETE FROM idempotency_keys WHERE created_at < ?1",
            args![db::timestamp(time::OffsetDateTime::now_utc() - KEPT_FOR)],
        )?;
        let found = tx.query_opt(
            "SELECT fingerprint, status, body, key_id, created_at FROM idempotency_keys \
             WHERE club_id = ?1 AND key = ?2",
            args![self.club, self.key],
            |r| {
                Ok(KeptRow {
                    fingerprint: r.get(0)?,
                    status: r.get(1)?,
                    body: r.get(2)?,
                    sender: r.get(3)?,
                    at: r.get(4)?,
                })
            },
        )?;
        let Some(kept) = found else { return Ok(None) };
        if kept.sender != by {
            return Err(StoreError::Conflict(
                "another key of the club sent a request with this Idempotency-Key: a key's \
                 retries are its own; use a new Idempotency-Key"
                    .into(),
            ));
        }
        if kept.fingerprint != self.fingerprint {
            return Err(StoreError::invalid(
                "/headers/idempotency-key",
                "this Idempotency-Key was used for a different request: use a new key for a new request",
            ));
        }
        if kept.body.is_empty() {
            return Err(StoreError::Conflict(format!(
                "this request was applied at {} (status {}), but its answer was larger than \
                 {MAX_KEPT} bytes and was not kept: read the result from the store",
                kept.at, kept.status
            )));
        }
        let body = serde_json::from_str(&kept.body).unwrap_or(Value::Null);
        Ok(Some((kept.status, T::replayed(tx, body)?)))
    }

    /// Keeps what `T::kept` keeps of a successful answer (its status only when that is over
    /// `MAX_KEPT`), in the same transaction as the write it answers.
    pub fn save<T: Kept>(&self, tx: &Tx, by: Option<i64>, status: u16, answer: &T) -> Result<()> {
        let mut body = answer.kept().to_string();
        if body.len() > MAX_KEPT {
            body.clear();
        }
        tx.execute(
            "INSERT INTO idempotency_keys (club_id, key, fingerprint, status, body, key_id) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            args![self.club, self.key, self.fingerprint, status, body, by],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod idempotency_tests {
    use super::*;

    /// An answer of `n` bytes.
    #[derive(Serialize)]
    struct Answer(String);
    impl Kept for Answer {}

    /// An answer over `MAX_KEPT` is kept as its status only: a replay is 409, not a second write;
    /// one under it replays whole.
    #[test]
    fn an_answer_too_large_to_keep_is_not_replayed_or_run_again() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        super::super::schema::migrate(&mut conn).unwrap();
        let sqlite = conn.transaction().unwrap();
        let tx = Tx::sqlite(&sqlite);
        tx.execute("INSERT INTO clubs (id, name) VALUES (1, 'c')", args![])
            .unwrap();
        let idem = |key: &str| Idempotency {
            club: 1,
            key: key.into(),
            fingerprint: vec![1],
        };
        let small = Answer("x".repeat(MAX_KEPT - 10));
        idem("small").save(&tx, None, 200, &small).unwrap();
        let replayed = idem("small").replay::<Answer>(&tx, None).unwrap();
        assert_eq!(replayed, Some((200, Value::String(small.0))));
        idem("large")
            .save(&tx, None, 200, &Answer("x".repeat(MAX_KEPT)))
            .unwrap();
        match idem("large").replay::<Answer>(&tx, None) {
            Err(StoreError::Conflict(d)) => assert!(d.contains("not kept"), "{d}"),
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
}

#[cfg(test)]
mod digest_tests {
    use super::*;

    fn record(v: Value) -> HandRecord {
        serde_json::from_value(v).unwrap()
    }

    /// Two hands that differ only in their second stock are two hands; a hand without one keeps the
    /// digest it was stored with before the second stock existed (SHA-256 of its dealer, deal,
    /// face-up cards, stock and actions, as written then).
    #[test]
    fn the_second_stock_tells_hands_apart_and_old_digests_stand() {
        let base = serde_json::json!({"dealer": "N", "deal": {"N": ["AS"], "E": ["KS"]},
                                      "stock": ["QS", "JS"]});
        let plain = record(base.clone());
        let stored_before = sha2::Sha256::digest(
            serde_json::json!(["N", {"E": ["KS"], "N": ["AS"]}, [], ["QS", "JS"], []])
                .to_string()
                .as_bytes(),
        )
        .to_vec();
        assert_eq!(play_digest(&plain), stored_before);
        let with = |second: &[&str]| {
            let mut v = base.clone();
            v["second_stock"] = serde_json::json!(second);
            play_digest(&record(v))
        };
        assert_ne!(with(&["TS"]), play_digest(&plain));
        assert_ne!(with(&["TS"]), with(&["9S"]));
        assert_eq!(with(&["TS"]), with(&["TS"]));
    }
}
