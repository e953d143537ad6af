//! The schema, as numbered migrations applied at start-up (SQLite's `user_version` holds the
//! number reached). Never edit a released migration: add the next one.

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

const MIGRATIONS: &[M] = &[M::up(
    r#"
CREATE TABLE clubs (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- Keys are shown once; only their SHA-256 digest is kept.
CREATE TABLE api_keys (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    digest     BLOB NOT NULL UNIQUE,
    label      TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    revoked_at TEXT
);

CREATE TABLE players (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (club_id, name)
);

-- A fixed pair; stored with the lower player id first so a pair exists once.
CREATE TABLE partnerships (
    id             INTEGER PRIMARY KEY,
    club_id        INTEGER NOT NULL REFERENCES clubs(id),
    name           TEXT NOT NULL,
    first_player   INTEGER NOT NULL REFERENCES players(id),
    second_player  INTEGER NOT NULL REFERENCES players(id),
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    CHECK (first_player < second_player),
    UNIQUE (club_id, first_player, second_player),
    UNIQUE (club_id, name)
);

-- A league plays one game with fixed options (a JSON object, validated against the game).
CREATE TABLE leagues (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    name       TEXT NOT NULL,
    season     TEXT NOT NULL,
    game       TEXT NOT NULL,
    options    TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (club_id, name, season)
);

CREATE TABLE sessions (
    id         INTEGER PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues(id),
    name       TEXT NOT NULL,
    played_on  TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX sessions_by_league ON sessions (league_id, id);

-- One game to its end. `state` is the engine's match state after the last hand (JSON).
CREATE TABLE matches (
    id         INTEGER PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues(id),
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    state      TEXT NOT NULL,
    hands      INTEGER NOT NULL DEFAULT 0,
    game_over  INTEGER NOT NULL DEFAULT 0,
    winner     TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX matches_by_league ON matches (league_id, id);
CREATE INDEX matches_by_session ON matches (session_id, id);

CREATE TABLE match_seats (
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    seat      TEXT NOT NULL,
    side      TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_seats_by_player ON match_seats (player_id);

-- The registered partnership sitting as a side, when the side's players are one.
CREATE TABLE match_sides (
    match_id       INTEGER NOT NULL REFERENCES matches(id),
    side           TEXT NOT NULL,
    partnership_id INTEGER REFERENCES partnerships(id),
    PRIMARY KEY (match_id, side)
) WITHOUT ROWID;

-- A hand as posted (`record`) and as ruled (`adjudication`), both JSON. League and session are
-- copied from the match so that lists page by (league, id) and (session, id) on an index.
CREATE TABLE hands (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    league_id    INTEGER NOT NULL REFERENCES leagues(id),
    session_id   INTEGER NOT NULL REFERENCES sessions(id),
    number       INTEGER NOT NULL,
    dealer       TEXT NOT NULL,
    outcome      TEXT NOT NULL,
    record       TEXT NOT NULL,
    adjudication TEXT NOT NULL,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (match_id, number)
);
CREATE INDEX hands_by_league ON hands (league_id, id);
CREATE INDEX hands_by_session ON hands (session_id, id);

-- The hand's score per side, and each irregularity by seat: what standings add up.
CREATE TABLE hand_scores (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    side    TEXT NOT NULL,
    points  INTEGER NOT NULL,
    PRIMARY KEY (hand_id, side)
) WITHOUT ROWID;

CREATE TABLE hand_irregularities (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    ordinal INTEGER NOT NULL,
    code    TEXT NOT NULL,
    seat    TEXT,
    PRIMARY KEY (hand_id, ordinal)
) WITHOUT ROWID;

-- A POST retried with the same Idempotency-Key gets the first answer again.
CREATE TABLE idempotency_keys (
    club_id     INTEGER NOT NULL REFERENCES clubs(id),
    key         TEXT NOT NULL,
    fingerprint BLOB NOT NULL,
    status      INTEGER NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (club_id, key)
) WITHOUT ROWID;
"#,
)];

pub fn migrate(conn: &mut Connection) -> rusqlite_migration::Result<()> {
    Migrations::from_slice(MIGRATIONS).to_latest(conn)
}

#[cfg(test)]
mod tests {
    #[test]
    fn migrations_are_valid() {
        rusqlite_migration::Migrations::from_slice(super::MIGRATIONS)
            .validate()
            .unwrap();
    }
}
