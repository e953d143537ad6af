//! The schema, as numbered migrations applied at start-up (SQLite's `user_version` holds the
//! number reached). Never edit a released migration: add the next one.

use super::db::Tx;
use rusqlite::{Connection, Transaction, params};
use rusqlite_migration::{HookResult, M, Migrations};

fn migrations() -> Vec<M<'static>> {
    vec![
        M::up(
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
        ),
        // 2: what a hand played (dealer, deal, face-up cards, stock and actions), digested, so that
        // a sheet or post repeating a hand already stored in the session is recognised.
        M::up_with_hook(
            r#"
ALTER TABLE hands ADD COLUMN play_digest BLOB;
CREATE INDEX hands_by_play ON hands (session_id, play_digest);
"#,
            digest_stored_hands,
        ),
        // 3: keys are named by a random public id (a row id would tell a club how many keys all
        // clubs hold), and remember when they were last used.
        M::up(
            r#"
ALTER TABLE api_keys ADD COLUMN public_id TEXT;
UPDATE api_keys SET public_id = 'key_' || lower(hex(randomblob(8)));
CREATE UNIQUE INDEX api_keys_by_public_id ON api_keys (public_id);
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
"#,
        ),
        // 4: the audit trail of corrections: who (a key's public id, or `operator`), when, what it
        // was before and after (JSON).
        M::up(
            r#"
CREATE TABLE amendments (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    by         TEXT NOT NULL,
    action     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    subject_id INTEGER NOT NULL,
    before     TEXT NOT NULL,
    after      TEXT NOT NULL,
    note       TEXT
);
CREATE INDEX amendments_by_club ON amendments (club_id, id);
"#,
        ),
        // 5: `revoke_penalty` means one thing in every game (issue 9): the old names of the rule
        // file's penalty become `default`; Truco's, which switched the face-down penalty, is now
        // `face_down_penalty`. Stored leagues and hand records keep playing as they did.
        M::up(
            r#"
UPDATE leagues SET options = json_set(options, '$.revoke_penalty', 'default')
 WHERE json_extract(options, '$.revoke_penalty') IN ('stub_transfer', 'lose_hand', 'forfeit', 'whole_hand');
UPDATE leagues SET options = json_remove(json_set(options, '$.face_down_penalty',
        CASE json_extract(options, '$.revoke_penalty') WHEN 'none' THEN 'none' ELSE 'default' END),
        '$.revoke_penalty')
 WHERE game = 'truco' AND json_extract(options, '$.revoke_penalty') IS NOT NULL;
UPDATE hands SET record = json_set(record, '$.options.revoke_penalty', 'default')
 WHERE json_extract(record, '$.options.revoke_penalty') IN ('stub_transfer', 'lose_hand', 'forfeit', 'whole_hand');
UPDATE hands SET record = json_remove(json_set(record, '$.options.face_down_penalty',
        CASE json_extract(record, '$.options.revoke_penalty') WHEN 'none' THEN 'none' ELSE 'default' END),
        '$.options.revoke_penalty')
 WHERE league_id IN (SELECT id FROM leagues WHERE game = 'truco')
   AND json_extract(record, '$.options.revoke_penalty') IS NOT NULL;
"#,
        ),
        // 6: tables of every shape (issue 10). A partnership is a fixed team of two or more players
        // (`partnership_members`), registered once per club by its roster (the members' ids in
        // ascending order, comma-separated); the pair columns go. Each hand's camps (a declarer
        // against three, an ally revealed in play) are kept by seat, from the stored adjudication.
        // SQLite cannot drop a column under a CHECK or UNIQUE: the two tables that name
        // partnerships are rebuilt, children first, so no foreign key is ever left dangling.
        M::up(
            r#"
CREATE TABLE partnerships_6 (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    name       TEXT NOT NULL,
    roster     TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (club_id, roster),
    UNIQUE (club_id, name)
);
INSERT INTO partnerships_6 (id, club_id, name, roster, created_at)
    SELECT id, club_id, name, first_player || ',' || second_player, created_at FROM partnerships;

CREATE TABLE partnership_members (
    partnership_id INTEGER NOT NULL REFERENCES partnerships_6(id),
    player_id      INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (partnership_id, player_id)
) WITHOUT ROWID;
CREATE INDEX partnership_members_by_player ON partnership_members (player_id);
INSERT INTO partnership_members (partnership_id, player_id)
    SELECT id, first_player FROM partnerships UNION ALL SELECT id, second_player FROM partnerships;

CREATE TABLE match_sides_6 (
    match_id       INTEGER NOT NULL REFERENCES matches(id),
    side           TEXT NOT NULL,
    partnership_id INTEGER REFERENCES partnerships_6(id),
    PRIMARY KEY (match_id, side)
) WITHOUT ROWID;
INSERT INTO match_sides_6 SELECT match_id, side, partnership_id FROM match_sides;

DROP TABLE match_sides;
DROP TABLE partnerships;
ALTER TABLE partnerships_6 RENAME TO partnerships;
ALTER TABLE match_sides_6 RENAME TO match_sides;

CREATE TABLE hand_camps (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    seat    TEXT NOT NULL,
    role    TEXT NOT NULL,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
INSERT OR IGNORE INTO hand_camps (hand_id, seat, role)
    SELECT h.id, s.value, json_extract(c.value, '$.role')
      FROM hands h,
           json_each(CASE WHEN json_valid(h.adjudication) THEN h.adjudication END, '$.camps') c,
           json_each(c.value, '$.seats') s;
"#,
        ),
        // 7: Big Two has no revoke, and its `revoke_penalty` switched the penalty points of its
        // irregularities: it is now `penalties`, with the same values (issue 9 B10, as Truco's in
        // migration 5). Stored leagues and hand records keep playing as they did.
        M::up(
            r#"
UPDATE leagues SET options = json_remove(json_set(options, '$.penalties',
        json_extract(options, '$.revoke_penalty')), '$.revoke_penalty')
 WHERE game = 'big-two' AND json_extract(options, '$.revoke_penalty') IS NOT NULL;
UPDATE hands SET record = json_remove(json_set(record, '$.options.penalties',
        json_extract(record, '$.options.revoke_penalty')), '$.options.revoke_penalty')
 WHERE league_id IN (SELECT id FROM leagues WHERE game = 'big-two')
   AND json_extract(record, '$.options.revoke_penalty') IS NOT NULL;
"#,
        ),
        // 8: an idempotent request's answer belongs to the key that sent it (`key_id`; NULL for the
        // operator) and is kept 24 hours (by `created_at`). Answers kept before cannot be tied to a
        // key, and a key creation's held its secret: they are dropped (a retry window, not
        // history).
        M::up(
            r#"
DELETE FROM idempotency_keys;
ALTER TABLE idempotency_keys ADD COLUMN key_id INTEGER REFERENCES api_keys(id);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
"#,
        ),
        // 9: who may read a club: its results public (as before), or every read for its members.
        M::up(
            r#"
ALTER TABLE clubs ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public_results'
    CHECK (visibility IN ('public_results', 'members_only'));
"#,
        ),
        // 10: each league's generation, bumped in the same transaction by every write to what its
        // standings are computed from (hands and their rulings, matches and who sat where, the
        // names standings show, the league's game and options), so that a server can keep computed
        // standings until the generation moves, and so can another process on the same file.
        // Triggers, not calls in each write: no write path can forget one. They sit on `hands` and
        // `matches`: a hand's ruling rows (`hand_scores`, `hand_irregularities`, `hand_camps`) are
        // written only with its row, a match's seats and sides only with its row, so a trigger on
        // each of those rows would only bump again, several times a hand. A migration that
        // rebuilds one of these tables must create its triggers again (a test pins them).
        M::up(
            r#"
ALTER TABLE leagues ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER hands_insert_bumps_league AFTER INSERT ON hands
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id = NEW.league_id; END;
CREATE TRIGGER hands_update_bumps_league AFTER UPDATE ON hands
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id IN (NEW.league_id, OLD.league_id); END;
CREATE TRIGGER hands_delete_bumps_league AFTER DELETE ON hands
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id = OLD.league_id; END;
CREATE TRIGGER matches_insert_bumps_league AFTER INSERT ON matches
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id = NEW.league_id; END;
CREATE TRIGGER matches_update_bumps_league AFTER UPDATE ON matches
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id IN (NEW.league_id, OLD.league_id); END;
CREATE TRIGGER matches_delete_bumps_league AFTER DELETE ON matches
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id = OLD.league_id; END;
CREATE TRIGGER players_rename_bumps_league AFTER UPDATE OF name ON players
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE club_id = NEW.club_id; END;
CREATE TRIGGER partnerships_rename_bumps_league AFTER UPDATE OF name ON partnerships
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE club_id = NEW.club_id; END;
CREATE TRIGGER leagues_rules_bump_league AFTER UPDATE OF game, options ON leagues
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id = NEW.id; END;
"#,
        ),
        // 11: one name per player (issue 19 item 13, README "Seats"): where each plays for himself
        // at four seats (Imperial Tarot, Big Two for four), a player's side is his seat's name,
        // N E S W, no longer P1..P4. Stored hands and matches of such leagues are renamed.
        M::up_with_hook("", name_solo_sides_as_seats),
        // 12: one answer shape (issue 20 B): who won a game is the match state's `winners` in
        // every game (no more `winner`, nor Big Two's own `winners`), and every field of a game's
        // match state is present. Stored match states (the matches' and the hands' `match_before`
        // and `match_after`) take that shape, the records' match states lose their `winner`
        // (`null`: a record with a winner was refused), and the standings read the state's
        // `winners`: the `winner` column goes.
        M::up_with_hook("", one_match_state_shape),
        // 13: every trick says whether it `counts` (issue 20 B). Tricks stored before say nothing:
        // the engine that ruled on them counted every one in its tally, so they are `true`, as
        // that stored tally has it (`readjudicate` applies today's rules, MA-15's `false` among
        // them).
        M::up(
            r#"
UPDATE hands SET adjudication = json_set(adjudication, '$.tricks', (
        SELECT json_group_array(CASE WHEN json_type(t.value, '$.counts') IS NULL
                                     THEN json_set(t.value, '$.counts', json('true'))
                                     ELSE json(t.value) END)
          FROM json_each(adjudication, '$.tricks') t))
 WHERE json_valid(adjudication)
   AND EXISTS (SELECT 1 FROM json_each(adjudication, '$.tricks') t
                WHERE json_type(t.value, '$.counts') IS NULL);
"#,
        ),
        // 14: standings kept up to date in the same transaction as every write (issue 26), so
        // that reading them is a few indexed rows (`aggregates.rs` says how). Triggers add up what
        // each hand's ruling rows bring; `match_finishes` (written by the store with each match
        // state) and `match_ratings` (each player's rating after each finished match) are filled
        // for stored leagues by the hook. A migration that rebuilds one of the tables these
        // triggers sit on must create them again.
        M::up_with_hook(STANDINGS_KEPT, keep_stored_standings),
        // 15: a hand's record and ruling stored compressed (`packed.rs`): the columns keep their
        // declared TEXT type (SQLite cannot alter it) and now hold BLOBs.
        M::up_with_hook("", pack_stored_hands),
        // 16: every list is paged by id (issue 26): a page of a club's keys, players,
        // partnerships or leagues reads the club's rows from the cursor on, in id order, instead
        // of all of them sorted.
        M::up(
            r#"
CREATE INDEX api_keys_by_club ON api_keys (club_id, id);
CREATE INDEX players_by_club ON players (club_id, id);
CREATE INDEX partnerships_by_club ON partnerships (club_id, id);
CREATE INDEX leagues_by_club ON leagues (club_id, id);
"#,
        ),
        // 17: a stored hand's own audit trail (`GET /v1/clubs/{club}/hands/{hand}/amendments`) is
        // read through an index, not by walking the club's whole trail.
        M::up(
            "CREATE INDEX amendments_by_subject ON amendments (club_id, subject, subject_id, id);",
        ),
        // 18: an import counts the hands it stores into the standings together (issue 26,
        // `aggregates::defer_counts`): the triggers that count a new hand's rows stand aside
        // while `counts_deferred` holds a row, which only such a write adds and removes again.
        M::up(
            r#"
CREATE TABLE counts_deferred (league_id INTEGER NOT NULL, since INTEGER NOT NULL);
DROP TRIGGER hands_insert_bumps_league;
CREATE TRIGGER hands_insert_bumps_league AFTER INSERT ON hands
    WHEN NOT EXISTS (SELECT 1 FROM counts_deferred)
    BEGIN UPDATE leagues SET generation = generation + 1 WHERE id = NEW.league_id; END;
DROP TRIGGER hands_insert_counts;
CREATE TRIGGER hands_insert_counts AFTER INSERT ON hands
    WHEN NOT EXISTS (SELECT 1 FROM counts_deferred) BEGIN
    INSERT INTO standing_totals (league_id, kind, who, hands)
        SELECT NEW.league_id, kind, who, 1 FROM participants WHERE match_id = NEW.match_id AND true
        ON CONFLICT DO UPDATE SET hands = hands + 1;
END;
DROP TRIGGER hand_scores_insert_counts;
CREATE TRIGGER hand_scores_insert_counts AFTER INSERT ON hand_scores
    WHEN NOT EXISTS (SELECT 1 FROM counts_deferred) BEGIN
    INSERT INTO standing_totals (league_id, kind, who, points_for, points_against)
        SELECT h.league_id, 'player', s.player_id,
               iif(s.side = NEW.side, NEW.points, 0), iif(s.side = NEW.side, 0, NEW.points)
          FROM hands h JOIN match_seats s ON s.match_id = h.match_id WHERE h.id = NEW.hand_id
        UNION ALL
        SELECT h.league_id, 'partnership', d.partnership_id,
               iif(d.side = NEW.side, NEW.points, 0), iif(d.side = NEW.side, 0, NEW.points)
          FROM hands h JOIN match_sides d ON d.match_id = h.match_id
         WHERE h.id = NEW.hand_id AND d.partnership_id IS NOT NULL
        ON CONFLICT DO UPDATE SET points_for = points_for + excluded.points_for,
                                  points_against = points_against + excluded.points_against;
    UPDATE camp_totals SET points = points + NEW.points
     WHERE (league_id, player_id, role) IN (
        SELECT h.league_id, s.player_id, c.role FROM hands h
          JOIN match_seats s ON s.match_id = h.match_id AND s.side = NEW.side
          JOIN hand_camps c ON c.hand_id = h.id AND c.seat = s.seat
         WHERE h.id = NEW.hand_id);
END;
DROP TRIGGER hand_irregularities_insert_counts;
CREATE TRIGGER hand_irregularities_insert_counts AFTER INSERT ON hand_irregularities
    WHEN NOT EXISTS (SELECT 1 FROM counts_deferred) BEGIN
    INSERT INTO standing_totals (league_id, kind, who, irregularities)
        SELECT h.league_id, 'player', o.player_id, 1 FROM hands h
          JOIN match_seats o ON o.match_id = h.match_id AND o.seat = NEW.seat
         WHERE h.id = NEW.hand_id
        UNION ALL
        SELECT h.league_id, 'partnership', d.partnership_id, 1 FROM hands h
          JOIN match_seats o ON o.match_id = h.match_id AND o.seat = NEW.seat
          JOIN match_sides d ON d.match_id = h.match_id AND d.side = o.side
         WHERE h.id = NEW.hand_id AND d.partnership_id IS NOT NULL
        ON CONFLICT DO UPDATE SET irregularities = irregularities + 1;
END;
DROP TRIGGER hand_camps_insert_counts;
CREATE TRIGGER hand_camps_insert_counts AFTER INSERT ON hand_camps
    WHEN NOT EXISTS (SELECT 1 FROM counts_deferred) BEGIN
    INSERT INTO camp_totals (league_id, player_id, role, hands, points)
        SELECT h.league_id, s.player_id, NEW.role, 1,
               coalesce((SELECT points FROM hand_scores WHERE hand_id = h.id AND side = s.side), 0)
          FROM hands h JOIN match_seats s ON s.match_id = h.match_id AND s.seat = NEW.seat
         WHERE h.id = NEW.hand_id AND true
        ON CONFLICT DO UPDATE SET hands = hands + 1, points = points + excluded.points;
END;
"#,
        ),
        // 19: an import counts the finishes of the matches it stores together too (issue 26): a
        // finish on a hand stored since the import began (`finished_by > since`) is counted by
        // `count_deferred`, and so is neither counted nor taken back by the triggers when the
        // same write stores it or deletes it again. A finish stored before counted on its own
        // and is still taken back when deleted.
        M::up(
            r#"
DROP TRIGGER match_finishes_insert_counts;
CREATE TRIGGER match_finishes_insert_counts AFTER INSERT ON match_finishes
    WHEN NOT EXISTS (SELECT 1 FROM counts_deferred
                      WHERE league_id = NEW.league_id AND NEW.finished_by > since) BEGIN
    INSERT INTO standing_totals (league_id, kind, who, matches_played, won, lost)
        SELECT NEW.league_id, kind, who, 1, NEW.won, NEW.lost FROM participants
         WHERE match_id = NEW.match_id AND side = NEW.side AND true
        ON CONFLICT DO UPDATE SET matches_played = matches_played + 1,
                                  won = won + excluded.won, lost = lost + excluded.lost;
    INSERT INTO standing_places (league_id, kind, who, place, count)
        SELECT NEW.league_id, kind, who, NEW.place, 1 FROM participants
         WHERE match_id = NEW.match_id AND side = NEW.side AND true
        ON CONFLICT DO UPDATE SET count = count + 1;
END;
DROP TRIGGER match_finishes_delete_counts;
CREATE TRIGGER match_finishes_delete_counts AFTER DELETE ON match_finishes
    WHEN NOT EXISTS (SELECT 1 FROM counts_deferred
                      WHERE league_id = OLD.league_id AND OLD.finished_by > since) BEGIN
    UPDATE standing_totals SET matches_played = matches_played - 1,
                               won = won - OLD.won, lost = lost - OLD.lost
     WHERE league_id = OLD.league_id AND (kind, who) IN (
        SELECT kind, who FROM participants WHERE match_id = OLD.match_id AND side = OLD.side);
    UPDATE standing_places SET count = count - 1
     WHERE league_id = OLD.league_id AND place = OLD.place AND (kind, who) IN (
        SELECT kind, who FROM participants WHERE match_id = OLD.match_id AND side = OLD.side);
END;
"#,
        ),
    ]
}

/// Migration 15's hook: every stored hand's record and ruling, compressed.
fn pack_stored_hands(tx: &Transaction) -> HookResult {
    use super::packed::Packed;
    let mut read = tx.prepare("SELECT id, record, adjudication FROM hands")?;
    let mut write = tx.prepare("UPDATE hands SET record = ?2, adjudication = ?3 WHERE id = ?1")?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let (id, record, ruling): (i64, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
        write.execute(params![id, Packed(record), Packed(ruling)])?;
    }
    Ok(())
}

/// Migration 14's tables and triggers, and its backfill of what stored hands add up to.
const STANDINGS_KEPT: &str = r#"
-- Who stands in a match: each seated player, and each registered partnership sitting as a side.
CREATE VIEW participants AS
    SELECT match_id, 'player' AS kind, player_id AS who, side, seat FROM match_seats
    UNION ALL
    SELECT match_id, 'partnership', partnership_id, side, NULL FROM match_sides
     WHERE partnership_id IS NOT NULL;

-- A participant's running totals in a league; `rating` and `uncertainty` (players only) are his
-- Weng-Lin rating after his last finished match (NULL: none yet, a newcomer's).
CREATE TABLE standing_totals (
    league_id      INTEGER NOT NULL REFERENCES leagues(id),
    kind           TEXT NOT NULL CHECK (kind IN ('player', 'partnership')),
    who            INTEGER NOT NULL,
    hands          INTEGER NOT NULL DEFAULT 0,
    points_for     INTEGER NOT NULL DEFAULT 0,
    points_against INTEGER NOT NULL DEFAULT 0,
    irregularities INTEGER NOT NULL DEFAULT 0,
    matches_played INTEGER NOT NULL DEFAULT 0,
    won            INTEGER NOT NULL DEFAULT 0,
    lost           INTEGER NOT NULL DEFAULT 0,
    rating         REAL,
    uncertainty    REAL,
    PRIMARY KEY (league_id, kind, who)
) WITHOUT ROWID;

CREATE TABLE standing_places (
    league_id INTEGER NOT NULL REFERENCES leagues(id),
    kind      TEXT NOT NULL,
    who       INTEGER NOT NULL,
    place     INTEGER NOT NULL,
    count     INTEGER NOT NULL,
    PRIMARY KEY (league_id, kind, who, place)
) WITHOUT ROWID;

CREATE TABLE camp_totals (
    league_id INTEGER NOT NULL REFERENCES leagues(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    role      TEXT NOT NULL,
    hands     INTEGER NOT NULL DEFAULT 0,
    points    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, player_id, role)
) WITHOUT ROWID;

-- Each side's finish in a finished match, on its last hand (`finished_by`, the order of finish).
CREATE TABLE match_finishes (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    side        TEXT NOT NULL,
    league_id   INTEGER NOT NULL REFERENCES leagues(id),
    place       INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    lost        INTEGER NOT NULL,
    finished_by INTEGER NOT NULL,
    PRIMARY KEY (match_id, side)
) WITHOUT ROWID;
CREATE INDEX match_finishes_in_order ON match_finishes (league_id, finished_by);

-- Each player's rating after each finished match, to fold again from any match forward.
CREATE TABLE match_ratings (
    league_id   INTEGER NOT NULL REFERENCES leagues(id),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    finished_by INTEGER NOT NULL,
    rating      REAL NOT NULL,
    uncertainty REAL NOT NULL,
    PRIMARY KEY (league_id, player_id, finished_by)
) WITHOUT ROWID;
CREATE INDEX match_ratings_in_order ON match_ratings (league_id, finished_by);

CREATE TRIGGER hands_insert_counts AFTER INSERT ON hands BEGIN
    INSERT INTO standing_totals (league_id, kind, who, hands)
        SELECT NEW.league_id, kind, who, 1 FROM participants WHERE match_id = NEW.match_id AND true
        ON CONFLICT DO UPDATE SET hands = hands + 1;
END;
CREATE TRIGGER hands_delete_counts AFTER DELETE ON hands BEGIN
    UPDATE standing_totals SET hands = hands - 1
     WHERE league_id = OLD.league_id
       AND (kind, who) IN (SELECT kind, who FROM participants WHERE match_id = OLD.match_id);
END;

-- The triggers on a hand's ruling rows reach the hand's participants through `hands` and each
-- of the view's two tables by its primary key: joined to the view, SQLite would read every match's
-- seats for each row (the view's match is not a constant there).
CREATE TRIGGER hand_scores_insert_counts AFTER INSERT ON hand_scores BEGIN
    INSERT INTO standing_totals (league_id, kind, who, points_for, points_against)
        SELECT h.league_id, 'player', s.player_id,
               iif(s.side = NEW.side, NEW.points, 0), iif(s.side = NEW.side, 0, NEW.points)
          FROM hands h JOIN match_seats s ON s.match_id = h.match_id WHERE h.id = NEW.hand_id
        UNION ALL
        SELECT h.league_id, 'partnership', d.partnership_id,
               iif(d.side = NEW.side, NEW.points, 0), iif(d.side = NEW.side, 0, NEW.points)
          FROM hands h JOIN match_sides d ON d.match_id = h.match_id
         WHERE h.id = NEW.hand_id AND d.partnership_id IS NOT NULL
        ON CONFLICT DO UPDATE SET points_for = points_for + excluded.points_for,
                                  points_against = points_against + excluded.points_against;
    UPDATE camp_totals SET points = points + NEW.points
     WHERE (league_id, player_id, role) IN (
        SELECT h.league_id, s.player_id, c.role FROM hands h
          JOIN match_seats s ON s.match_id = h.match_id AND s.side = NEW.side
          JOIN hand_camps c ON c.hand_id = h.id AND c.seat = s.seat
         WHERE h.id = NEW.hand_id);
END;
CREATE TRIGGER hand_scores_delete_counts AFTER DELETE ON hand_scores BEGIN
    UPDATE standing_totals
       SET points_for = points_for - iif(p.side = OLD.side, OLD.points, 0),
           points_against = points_against - iif(p.side = OLD.side, 0, OLD.points)
      FROM (SELECT h.league_id, 'player' AS kind, s.player_id AS who, s.side FROM hands h
              JOIN match_seats s ON s.match_id = h.match_id WHERE h.id = OLD.hand_id
            UNION ALL
            SELECT h.league_id, 'partnership', d.partnership_id, d.side FROM hands h
              JOIN match_sides d ON d.match_id = h.match_id
             WHERE h.id = OLD.hand_id AND d.partnership_id IS NOT NULL) AS p
     WHERE standing_totals.league_id = p.league_id AND standing_totals.kind = p.kind
       AND standing_totals.who = p.who;
    UPDATE camp_totals SET points = points - OLD.points
     WHERE (league_id, player_id, role) IN (
        SELECT h.league_id, s.player_id, c.role FROM hands h
          JOIN match_seats s ON s.match_id = h.match_id AND s.side = OLD.side
          JOIN hand_camps c ON c.hand_id = h.id AND c.seat = s.seat
         WHERE h.id = OLD.hand_id);
END;

-- An irregularity counts against the player at its seat and the partnership on that seat's side.
CREATE TRIGGER hand_irregularities_insert_counts AFTER INSERT ON hand_irregularities BEGIN
    INSERT INTO standing_totals (league_id, kind, who, irregularities)
        SELECT h.league_id, 'player', o.player_id, 1 FROM hands h
          JOIN match_seats o ON o.match_id = h.match_id AND o.seat = NEW.seat
         WHERE h.id = NEW.hand_id
        UNION ALL
        SELECT h.league_id, 'partnership', d.partnership_id, 1 FROM hands h
          JOIN match_seats o ON o.match_id = h.match_id AND o.seat = NEW.seat
          JOIN match_sides d ON d.match_id = h.match_id AND d.side = o.side
         WHERE h.id = NEW.hand_id AND d.partnership_id IS NOT NULL
        ON CONFLICT DO UPDATE SET irregularities = irregularities + 1;
END;
CREATE TRIGGER hand_irregularities_delete_counts AFTER DELETE ON hand_irregularities BEGIN
    UPDATE standing_totals SET irregularities = irregularities - 1
      FROM (SELECT h.league_id, 'player' AS kind, o.player_id AS who FROM hands h
              JOIN match_seats o ON o.match_id = h.match_id AND o.seat = OLD.seat
             WHERE h.id = OLD.hand_id
            UNION ALL
            SELECT h.league_id, 'partnership', d.partnership_id FROM hands h
              JOIN match_seats o ON o.match_id = h.match_id AND o.seat = OLD.seat
              JOIN match_sides d ON d.match_id = h.match_id AND d.side = o.side
             WHERE h.id = OLD.hand_id AND d.partnership_id IS NOT NULL) AS p
     WHERE standing_totals.league_id = p.league_id AND standing_totals.kind = p.kind
       AND standing_totals.who = p.who;
END;

CREATE TRIGGER hand_camps_insert_counts AFTER INSERT ON hand_camps BEGIN
    INSERT INTO camp_totals (league_id, player_id, role, hands, points)
        SELECT h.league_id, s.player_id, NEW.role, 1,
               coalesce((SELECT points FROM hand_scores WHERE hand_id = h.id AND side = s.side), 0)
          FROM hands h JOIN match_seats s ON s.match_id = h.match_id AND s.seat = NEW.seat
         WHERE h.id = NEW.hand_id AND true
        ON CONFLICT DO UPDATE SET hands = hands + 1, points = points + excluded.points;
END;
CREATE TRIGGER hand_camps_delete_counts AFTER DELETE ON hand_camps BEGIN
    UPDATE camp_totals
       SET hands = hands - 1,
           points = points - coalesce((SELECT sc.points FROM hands h
                 JOIN match_seats s ON s.match_id = h.match_id AND s.seat = OLD.seat
                 JOIN hand_scores sc ON sc.hand_id = h.id AND sc.side = s.side
                WHERE h.id = OLD.hand_id), 0)
     WHERE (league_id, player_id, role) IN (
        SELECT h.league_id, s.player_id, OLD.role FROM hands h
          JOIN match_seats s ON s.match_id = h.match_id AND s.seat = OLD.seat
         WHERE h.id = OLD.hand_id);
END;

CREATE TRIGGER match_finishes_insert_counts AFTER INSERT ON match_finishes BEGIN
    INSERT INTO standing_totals (league_id, kind, who, matches_played, won, lost)
        SELECT NEW.league_id, kind, who, 1, NEW.won, NEW.lost FROM participants
         WHERE match_id = NEW.match_id AND side = NEW.side AND true
        ON CONFLICT DO UPDATE SET matches_played = matches_played + 1,
                                  won = won + excluded.won, lost = lost + excluded.lost;
    INSERT INTO standing_places (league_id, kind, who, place, count)
        SELECT NEW.league_id, kind, who, NEW.place, 1 FROM participants
         WHERE match_id = NEW.match_id AND side = NEW.side AND true
        ON CONFLICT DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER match_finishes_delete_counts AFTER DELETE ON match_finishes BEGIN
    UPDATE standing_totals SET matches_played = matches_played - 1,
                               won = won - OLD.won, lost = lost - OLD.lost
     WHERE league_id = OLD.league_id AND (kind, who) IN (
        SELECT kind, who FROM participants WHERE match_id = OLD.match_id AND side = OLD.side);
    UPDATE standing_places SET count = count - 1
     WHERE league_id = OLD.league_id AND place = OLD.place AND (kind, who) IN (
        SELECT kind, who FROM participants WHERE match_id = OLD.match_id AND side = OLD.side);
END;

-- What the hands stored so far add up to (the triggers count the ones written from now on).
INSERT INTO standing_totals (league_id, kind, who, hands)
    SELECT h.league_id, p.kind, p.who, count(*) FROM hands h
      JOIN participants p ON p.match_id = h.match_id GROUP BY h.league_id, p.kind, p.who;
UPDATE standing_totals SET
    points_for = coalesce((SELECT sum(s.points) FROM hands h
        JOIN participants p ON p.match_id = h.match_id JOIN hand_scores s ON s.hand_id = h.id
       WHERE h.league_id = standing_totals.league_id AND p.kind = standing_totals.kind
         AND p.who = standing_totals.who AND s.side = p.side), 0),
    points_against = coalesce((SELECT sum(s.points) FROM hands h
        JOIN participants p ON p.match_id = h.match_id JOIN hand_scores s ON s.hand_id = h.id
       WHERE h.league_id = standing_totals.league_id AND p.kind = standing_totals.kind
         AND p.who = standing_totals.who AND s.side <> p.side), 0),
    irregularities = (SELECT count(*) FROM hand_irregularities i JOIN hands h ON h.id = i.hand_id
        JOIN match_seats o ON o.match_id = h.match_id AND o.seat = i.seat
        JOIN participants p ON p.match_id = h.match_id AND p.side = o.side
                           AND (p.seat IS NULL OR p.seat = o.seat)
       WHERE h.league_id = standing_totals.league_id AND p.kind = standing_totals.kind
         AND p.who = standing_totals.who);
INSERT INTO camp_totals (league_id, player_id, role, hands, points)
    SELECT h.league_id, p.player_id, c.role, count(*), coalesce(sum(s.points), 0)
      FROM hand_camps c JOIN hands h ON h.id = c.hand_id
      JOIN match_seats p ON p.match_id = h.match_id AND p.seat = c.seat
      LEFT JOIN hand_scores s ON s.hand_id = h.id AND s.side = p.side
     GROUP BY h.league_id, p.player_id, c.role;
"#;

/// Migration 14's hook: the finish of every finished match stored, and the ratings folded over
/// them, league by league.
fn keep_stored_standings(tx: &Transaction) -> HookResult {
    let failed = |e: super::StoreError| rusqlite_migration::HookError::Hook(format!("{e:?}"));
    let finished: Vec<i64> = tx
        .prepare("SELECT id FROM matches WHERE game_over ORDER BY id")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for m in finished {
        super::aggregates::finish(&Tx::sqlite(tx), m).map_err(failed)?;
    }
    let leagues: Vec<i64> = tx
        .prepare("SELECT id FROM leagues")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for league in leagues {
        super::aggregates::rerate(&Tx::sqlite(tx), league, 0).map_err(failed)?;
    }
    Ok(())
}

/// Each game's carried match-state fields at a match's start, as issue 20 B made them always
/// present (a field the stored state left out was at this value).
const CARRIED_AT_START: [(&str, &str, &str); 3] = [
    ("briscola", "contenders", "[]"),
    ("couillon", "pending_ties", "0"),
    ("court-piece", "streak", "null"),
];

/// A stored match state of `game` in migration 12's shape: `winners` from its `winners` (Big Two),
/// else its `winner`, else `column` (the match's `winner` column); `out` and the game's carried
/// fields at their starting value where left out.
fn shape_match_state(state: &mut serde_json::Value, game: &str, column: Option<&str>) {
    use serde_json::{Value, json};
    let Some(o) = state.as_object_mut() else {
        return;
    };
    let winner = o.remove("winner");
    if !o.get("winners").is_some_and(Value::is_array) {
        let one = winner
            .as_ref()
            .and_then(Value::as_str)
            .or(column)
            .map(|w| json!([w]));
        o.insert("winners".into(), one.unwrap_or_else(|| json!([])));
    }
    o.entry("out").or_insert_with(|| json!({}));
    for (g, field, start) in CARRIED_AT_START {
        if g == game {
            o.entry(field)
                .or_insert_with(|| serde_json::from_str(start).expect("JSON"));
        }
    }
}

/// Migration 12: the stored match states in one shape (see `shape_match_state`). A stored JSON
/// that does not parse is left.
fn one_match_state_shape(tx: &Transaction) -> HookResult {
    let matches: Vec<(i64, String, String, Option<String>)> = tx
        .prepare(
            "SELECT m.id, l.game, m.state, m.winner FROM matches m JOIN leagues l ON l.id = m.league_id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, game, state, winner) in matches {
        if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&state) {
            shape_match_state(&mut v, &game, winner.as_deref());
            tx.execute(
                "UPDATE matches SET state = ?2 WHERE id = ?1",
                params![id, v.to_string()],
            )?;
        }
    }
    let hands: Vec<(i64, String, String, String)> = tx
        .prepare(
            "SELECT h.id, l.game, h.record, h.adjudication FROM hands h JOIN leagues l ON l.id = h.league_id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, game, record, adjudication) in hands {
        if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&adjudication) {
            for which in ["match_before", "match_after"] {
                if let Some(state) = v.get_mut(which) {
                    shape_match_state(state, &game, None);
                }
            }
            tx.execute(
                "UPDATE hands SET adjudication = ?2 WHERE id = ?1",
                params![id, v.to_string()],
            )?;
        }
        if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&record)
            && let Some(state) = v.get_mut("match_state").and_then(|s| s.as_object_mut())
            && state.remove("winner").is_some()
        {
            tx.execute(
                "UPDATE hands SET record = ?2 WHERE id = ?1",
                params![id, v.to_string()],
            )?;
        }
    }
    tx.execute_batch("ALTER TABLE matches DROP COLUMN winner;")?;
    Ok(())
}

/// The leagues whose table seats four players each for himself.
const SOLO_FOUR_LEAGUES: &str = "SELECT id FROM leagues WHERE game = 'imperial-tarot' \
     OR (game = 'big-two' AND coalesce(json_extract(options, '$.players'), '4') = '4')";

/// The old name of a side at four seats each for himself, and its seat's name.
const SOLO_FOUR_RENAMES: [(&str, &str); 4] = [("P1", "N"), ("P2", "E"), ("P3", "S"), ("P4", "W")];

/// `name` with P1..P4 renamed N E S W: the whole string, or a word within a sentence ("the
/// irregularity by P2 at action 12").
fn solo_four_name(name: &str) -> String {
    if let Some((_, seat)) = SOLO_FOUR_RENAMES.iter().find(|(old, _)| *old == name) {
        return seat.to_string();
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '+');
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find('P') {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let renamed = SOLO_FOUR_RENAMES.iter().find(|(old, _)| {
            from.starts_with(old)
                && !word(out.chars().next_back())
                && !word(from[old.len()..].chars().next())
        });
        match renamed {
            Some((old, seat)) => {
                out.push_str(seat);
                rest = &from[old.len()..];
            }
            None => {
                out.push('P');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every key and string of `v` renamed by `solo_four_name`. At four seats P1..P4 also name the
/// seats N E S W, so a P1..P4 anywhere in a ruling or a match state (a side, a seat, a sentence)
/// is renamed to the one name the engine now gives that player.
fn rename_solo_four(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::String(s) => *s = solo_four_name(s),
        Value::Array(a) => a.iter_mut().for_each(rename_solo_four),
        Value::Object(o) => {
            *o = std::mem::take(o)
                .into_iter()
                .map(|(k, mut v)| {
                    rename_solo_four(&mut v);
                    (solo_four_name(&k), v)
                })
                .collect()
        }
        _ => {}
    }
}

/// Migration 11: the hands and matches of leagues seating four each for himself, sides renamed
/// P1..P4 to N E S W in every adjudication, in the match state a record carries (not the rest of
/// the record: its seats P1..P4 stay as posted, and its play digest with them), in the matches'
/// states and winners, and in the per-side columns. A stored JSON that does not parse is left.
fn name_solo_sides_as_seats(tx: &Transaction) -> HookResult {
    let rename = |column: &str| {
        SOLO_FOUR_RENAMES
            .iter()
            .fold(column.to_string(), |sql, (old, seat)| {
                format!("replace({sql}, '{old}', '{seat}')")
            })
    };
    let matches = format!("SELECT id FROM matches WHERE league_id IN ({SOLO_FOUR_LEAGUES})");
    tx.execute_batch(&format!(
        "UPDATE match_seats SET side = {} WHERE match_id IN ({matches}) AND side IN ('P1', 'P2', 'P3', 'P4');
         UPDATE matches SET winner = {} WHERE id IN ({matches}) AND winner IN ('P1', 'P2', 'P3', 'P4');
         UPDATE hand_scores SET side = {} WHERE side IN ('P1', 'P2', 'P3', 'P4')
            AND hand_id IN (SELECT id FROM hands WHERE league_id IN ({SOLO_FOUR_LEAGUES}));",
        rename("side"),
        rename("winner"),
        rename("side"),
    ))?;
    // The new text, where anything was renamed.
    let renamed = |json: &str, part: Option<&str>| -> Option<String> {
        let mut v: serde_json::Value = serde_json::from_str(json).ok()?;
        let before = v.clone();
        match part {
            Some(p) => rename_solo_four(v.get_mut(p)?),
            None => rename_solo_four(&mut v),
        }
        (v != before).then(|| v.to_string())
    };
    let states: Vec<(i64, String)> = tx
        .prepare(&format!(
            "SELECT id, state FROM matches WHERE id IN ({matches})"
        ))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, state) in states {
        if let Some(state) = renamed(&state, None) {
            tx.execute(
                "UPDATE matches SET state = ?2 WHERE id = ?1",
                params![id, state],
            )?;
        }
    }
    let hands: Vec<(i64, String, String)> = tx
        .prepare(&format!(
            "SELECT id, record, adjudication FROM hands WHERE league_id IN ({SOLO_FOUR_LEAGUES})"
        ))?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, record, adjudication) in hands {
        if let Some(record) = renamed(&record, Some("match_state")) {
            tx.execute(
                "UPDATE hands SET record = ?2 WHERE id = ?1",
                params![id, record],
            )?;
        }
        if let Some(adjudication) = renamed(&adjudication, None) {
            tx.execute(
                "UPDATE hands SET adjudication = ?2 WHERE id = ?1",
                params![id, adjudication],
            )?;
        }
    }
    Ok(())
}

/// Fills `play_digest` for the hands stored before migration 2.
fn digest_stored_hands(tx: &Transaction) -> HookResult {
    let hands: Vec<(i64, String)> = tx
        .prepare("SELECT id, record FROM hands")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, record) in hands {
        // A stored record always parses; one that does not keeps no digest (it matches nothing).
        if let Ok(record) = serde_json::from_str::<crate::record::HandRecord>(&record) {
            tx.execute(
                "UPDATE hands SET play_digest = ?2 WHERE id = ?1",
                params![id, super::repo::play_digest(&record)],
            )?;
        }
    }
    Ok(())
}

/// Brings the schema up to date, in one transaction. Several replicas may start on one database
/// at once. Each reads the schema's version before its transaction writes, so all but the first
/// fail on finding the first's work ("table ... already exists"), and their transactions roll
/// back. A replica whose migration failed that way finds the schema up to date and goes on.
pub fn migrate(conn: &mut Connection) -> rusqlite_migration::Result<()> {
    match Migrations::new(migrations()).to_latest(conn) {
        Err(_) if at_latest(conn).is_ok() => Ok(()),
        done => done,
    }
}

/// The schema's version, when it is the one `migrate` brings a database to; otherwise what it is.
/// A database migrated by a newer arbiter is ahead of this one's schema (its binary may not read
/// what that one writes); one no migration has run on is behind.
pub fn at_latest(conn: &Connection) -> std::result::Result<usize, String> {
    let all = migrations();
    let latest = all.len();
    let found: usize = Migrations::new(all)
        .current_version(conn)
        .map_err(|e| e.to_string())?
        .into();
    if found == latest {
        Ok(found)
    } else {
        Err(format!(
            "the schema is at version {found}, and this arbiter's is {latest}"
        ))
    }
}

#[cfg(test)]
mod tests {
    /// The text values of the first column `sql` selects, in order (a hand's record and ruling
    /// unpacked, as migration 15 stores them).
    fn column(conn: &rusqlite::Connection, sql: &str) -> Vec<String> {
        conn.prepare(sql)
            .unwrap()
            .query_map([], |r| match r.get_ref(0)? {
                rusqlite::types::ValueRef::Blob(_) => {
                    Ok(r.get::<_, super::super::packed::Packed>(0)?.0)
                }
                _ => r.get(0),
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn migrations_are_valid() {
        rusqlite_migration::Migrations::new(super::migrations())
            .validate()
            .unwrap();
    }

    /// Hands stored before migration 2 get their play digest when it is applied.
    #[test]
    fn migration_2_digests_stored_hands() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 1).unwrap();
        let record = r#"{"dealer":"E","deal":{"N":["AS"]},"actions":[{"seat":"N","play":"AS"}]}"#;
        conn.execute_batch(&format!(
            "INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES (1, 1, 'l', 's', 'malilla', '{{}}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e');
             INSERT INTO matches (id, league_id, session_id, state) VALUES (1, 1, 1, '{{}}');
             INSERT INTO hands (match_id, league_id, session_id, number, dealer, outcome, record, adjudication)
                 VALUES (1, 1, 1, 1, 'E', 'scored', '{record}', '{{}}');"
        ))
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let digest: Vec<u8> = conn
            .query_row("SELECT play_digest FROM hands", [], |r| r.get(0))
            .unwrap();
        let parsed: crate::record::HandRecord = serde_json::from_str(record).unwrap();
        assert_eq!(digest, crate::league::repo::play_digest(&parsed));
    }

    /// Keys stored before migration 3 get a random public id each.
    #[test]
    fn migration_3_names_stored_keys() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 2).unwrap();
        conn.execute_batch(
            "INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO api_keys (club_id, digest, label) VALUES (1, x'01', 'a'), (1, x'02', 'b');",
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let ids = column(&conn, "SELECT public_id FROM api_keys");
        assert_eq!(ids.len(), 2);
        assert_ne!(ids[0], ids[1]);
        for id in ids {
            let hex = id.strip_prefix("key_").unwrap();
            assert!(
                hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
                "{id}"
            );
        }
    }

    /// Leagues and hands stored with the old names of `revoke_penalty` play on under migration 5.
    #[test]
    fn migration_5_renames_revoke_penalty_values() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 4).unwrap();
        conn.execute_batch(
            r#"INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES
                 (1, 1, 'a', 's', 'couillon', '{"revoke_penalty": "lose_hand"}'),
                 (2, 1, 'b', 's', 'truco', '{"revoke_penalty": "none"}'),
                 (3, 1, 'c', 's', 'truco', '{"revoke_penalty": "tento"}'),
                 (4, 1, 'd', 's', 'pitch', '{"revoke_penalty": "none"}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 3, 'e');
             INSERT INTO matches (id, league_id, session_id, state) VALUES (1, 3, 1, '{}');
             INSERT INTO hands (match_id, league_id, session_id, number, dealer, outcome, record, adjudication)
                 VALUES (1, 3, 1, 1, 'E', 'scored', '{"dealer": "E", "options": {"revoke_penalty": "tento"}}', '{}');"#,
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let options = column(&conn, "SELECT options FROM leagues ORDER BY id");
        assert_eq!(
            options,
            [
                r#"{"revoke_penalty":"default"}"#,
                r#"{"face_down_penalty":"none"}"#,
                r#"{"face_down_penalty":"default"}"#,
                r#"{"revoke_penalty": "none"}"#,
            ]
        );
        let [record] = &column(&conn, "SELECT record FROM hands")[..] else {
            panic!("one hand")
        };
        assert_eq!(
            record,
            r#"{"dealer":"E","options":{"face_down_penalty":"default"}}"#
        );
    }

    /// Big Two leagues and hands stored with `revoke_penalty` play on under migration 7, as
    /// `penalties` with the same value; another game's `revoke_penalty` is left alone.
    #[test]
    fn migration_7_renames_big_two_revoke_penalty_to_penalties() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 6).unwrap();
        conn.execute_batch(
            r#"INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES
                 (1, 1, 'a', 's', 'big-two', '{"players": "3", "revoke_penalty": "none"}'),
                 (2, 1, 'b', 's', 'big-two', '{"target": 50}'),
                 (3, 1, 'c', 's', 'pitch', '{"revoke_penalty": "none"}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e'), (2, 3, 'f');
             INSERT INTO matches (id, league_id, session_id, state) VALUES (1, 1, 1, '{}'), (2, 3, 2, '{}');
             INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, record, adjudication)
                 VALUES (1, 1, 1, 1, 1, 'P1', 'scored', '{"options": {"revoke_penalty": "default"}}', '{}'),
                        (2, 2, 3, 2, 1, 'E', 'scored', '{"options": {"revoke_penalty": "none"}}', '{}');"#,
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let column = |sql: &str| column(&conn, sql);
        assert_eq!(
            column("SELECT options FROM leagues ORDER BY id"),
            [
                r#"{"players":"3","penalties":"none"}"#,
                r#"{"target": 50}"#,
                r#"{"revoke_penalty": "none"}"#,
            ]
        );
        assert_eq!(
            column("SELECT record FROM hands ORDER BY id"),
            [
                r#"{"options":{"penalties":"default"}}"#,
                r#"{"options": {"revoke_penalty": "none"}}"#,
            ]
        );
    }

    /// Migration 8 drops the answers kept before (one held a key's secret) and ties the next to
    /// a key; migration 9 leaves every club's results public.
    #[test]
    fn migrations_8_and_9_drop_kept_answers_and_keep_clubs_public() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 7).unwrap();
        conn.execute_batch(
            r#"INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO idempotency_keys (club_id, key, fingerprint, status, body)
                 VALUES (1, 'k', x'00', 201, '{"id": "key_0", "secret": "arb_00"}');"#,
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        assert!(column(&conn, "SELECT body FROM idempotency_keys").is_empty());
        conn.execute_batch(
            "INSERT INTO api_keys (id, club_id, digest, label, public_id) VALUES (5, 1, x'01', 'a', 'key_1');
             INSERT INTO idempotency_keys (club_id, key, fingerprint, status, body, key_id)
                 VALUES (1, 'k', x'00', 201, '{}', 5);",
        )
        .unwrap();
        assert_eq!(
            column(
                &conn,
                "SELECT key_id || ' ' || created_at FROM idempotency_keys"
            )[0]
            .len(),
            "5 2026-01-01T00:00:00Z".len()
        );
        assert_eq!(
            column(&conn, "SELECT visibility FROM clubs"),
            ["public_results"]
        );
        let refused = conn.execute("UPDATE clubs SET visibility = 'secret'", []);
        assert!(refused.is_err());
    }

    /// Migration 11 names the sides of four players each for himself as their seats (issue 19 item
    /// 13): an Imperial Tarot and a four-player Big Two league's hands (adjudication, the record's
    /// match state, hand scores), matches (state, winner) and seats are renamed P1 = N .. P4 = W;
    /// the records' seats, a three-player Big Two league and a partnership game are left alone.
    #[test]
    fn migration_11_names_solo_sides_at_four_seats_as_seats() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 7).unwrap();
        let adjudication = r#"{"contract": {"declarer": "W", "side": "P4"}, "hand_score": {"P1": -15, "P2": -15, "P3": -15, "P4": 45},
            "hand_winner": "P4", "irregularities": [{"code": "revoke", "seat": "E", "consequence": "no further effect: the irregularity by P2 at action 12 already decided the hand (README C7)",
            "effect": {"points": {"P2": -40, "P1+P4": 1}}}], "match_after": {"scores": {"P1": 15, "P4": 25}, "winner": "P4", "winners": ["P4"]}}"#;
        conn.execute_batch(&format!(
            r#"INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO players (id, club_id, name) VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 1, 'c'), (4, 1, 'd');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES
                 (1, 1, 'a', 's', 'imperial-tarot', '{{}}'),
                 (2, 1, 'b', 's', 'big-two', '{{"players": "4"}}'),
                 (3, 1, 'c', 's', 'big-two', '{{"players": "3"}}'),
                 (4, 1, 'd', 's', 'briscola', '{{"players": "3"}}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e'), (2, 2, 'e'), (3, 3, 'e'), (4, 4, 'e');
             INSERT INTO matches (id, league_id, session_id, state, winner) VALUES
                 (1, 1, 1, '{{"scores": {{"P1": 15, "P2": -5, "P3": -35, "P4": 25}}, "next_dealer": "W", "winner": "P4"}}', 'P4'),
                 (2, 2, 2, '{{"scores": {{"P1": 0, "P2": 39}}, "winners": ["P1"]}}', NULL),
                 (3, 3, 3, '{{"scores": {{"P1": 0, "P2": 39}}}}', 'P1'),
                 (4, 4, 4, '{{"scores": {{"P3": 2}}}}', 'P3');
             INSERT INTO match_seats (match_id, seat, side, player_id) VALUES
                 (1, 'N', 'P1', 1), (1, 'E', 'P2', 2), (1, 'S', 'P3', 3), (1, 'W', 'P4', 4), (3, 'P1', 'P1', 1);
             INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, record, adjudication) VALUES
                 (1, 1, 1, 1, 1, 'S', 'scored', '{{"dealer": "P3", "deal": {{"P1": ["T1"]}}, "match_state": {{"scores": {{"P1": 30, "P4": -20}}}}}}', '{adjudication}'),
                 (2, 2, 2, 2, 1, 'P4', 'scored', '{{"dealer": "P4", "deal": {{"P1": ["3D"]}}}}', '{{"hand_score": {{"P1": 0, "P2": 39}}}}'),
                 (3, 3, 3, 3, 1, 'P3', 'scored', '{{"dealer": "P3", "match_state": {{"scores": {{"P1": 1}}}}}}', '{{"hand_score": {{"P1": 0}}}}'),
                 (4, 4, 4, 4, 1, 'P3', 'scored', '{{}}', '{{"hand_score": {{"P3": 2}}}}');
             INSERT INTO hand_scores (hand_id, side, points) VALUES (1, 'P1', -15), (1, 'P4', 45), (2, 'P2', 39), (3, 'P1', 0), (4, 'P3', 2);"#
        ))
        .unwrap();
        m.to_version(&mut conn, 11).unwrap();
        let rows = |sql: &str| column(&conn, sql);
        let json = |sql: &str| -> Vec<serde_json::Value> {
            rows(sql)
                .iter()
                .map(|s| serde_json::from_str(s).unwrap())
                .collect()
        };
        assert_eq!(
            json("SELECT adjudication FROM hands ORDER BY id"),
            [
                serde_json::json!({"contract": {"declarer": "W", "side": "W"}, "hand_score": {"N": -15, "E": -15, "S": -15, "W": 45},
                    "hand_winner": "W", "irregularities": [{"code": "revoke", "seat": "E", "consequence": "no further effect: the irregularity by E at action 12 already decided the hand (README C7)",
                    "effect": {"points": {"E": -40, "P1+P4": 1}}}], "match_after": {"scores": {"N": 15, "W": 25}, "winner": "W", "winners": ["W"]}}),
                serde_json::json!({"hand_score": {"N": 0, "E": 39}}),
                serde_json::json!({"hand_score": {"P1": 0}}),
                serde_json::json!({"hand_score": {"P3": 2}}),
            ]
        );
        // The record's seats stay as posted (its play digest with them); its match state is renamed.
        assert_eq!(
            json("SELECT record FROM hands ORDER BY id"),
            [
                serde_json::json!({"dealer": "P3", "deal": {"P1": ["T1"]}, "match_state": {"scores": {"N": 30, "W": -20}}}),
                serde_json::json!({"dealer": "P4", "deal": {"P1": ["3D"]}}),
                serde_json::json!({"dealer": "P3", "match_state": {"scores": {"P1": 1}}}),
                serde_json::json!({}),
            ]
        );
        assert_eq!(
            json("SELECT state FROM matches ORDER BY id"),
            [
                serde_json::json!({"scores": {"N": 15, "E": -5, "S": -35, "W": 25}, "next_dealer": "W", "winner": "W"}),
                serde_json::json!({"scores": {"N": 0, "E": 39}, "winners": ["N"]}),
                serde_json::json!({"scores": {"P1": 0, "P2": 39}}),
                serde_json::json!({"scores": {"P3": 2}}),
            ]
        );
        assert_eq!(
            rows("SELECT id || ':' || coalesce(winner, '-') FROM matches ORDER BY id"),
            ["1:W", "2:-", "3:P1", "4:P3"]
        );
        assert_eq!(
            rows(
                "SELECT match_id || ' ' || seat || ' ' || side FROM match_seats ORDER BY match_id, player_id"
            ),
            ["1 N N", "1 E E", "1 S S", "1 W W", "3 P1 P1"]
        );
        assert_eq!(
            rows("SELECT hand_id || ' ' || side FROM hand_scores ORDER BY hand_id, side"),
            ["1 N", "1 W", "2 E", "3 P1", "4 P3"]
        );
        assert_eq!(
            super::solo_four_name("P1 and P12, P4+P1, AP2, P3."),
            "N and P12, P4+P1, AP2, S."
        );
    }

    /// A match state as today's engine writes it, in the shape stored before migration 12: `winner`
    /// (one side or `null`; Big Two also kept its own `winners` at game end), and neither `out` nor
    /// a carried field at its starting value.
    fn before_12(state: &serde_json::Value, game: &str) -> serde_json::Value {
        let mut old = state.as_object().unwrap().clone();
        let winners = old.remove("winners").unwrap();
        let winners = winners.as_array().unwrap();
        old.insert(
            "winner".into(),
            match &winners[..] {
                [one] => one.clone(),
                _ => serde_json::Value::Null,
            },
        );
        if game == "big-two" && !winners.is_empty() {
            old.insert("winners".into(), serde_json::json!(winners));
        }
        let at_start = [
            ("out", "{}"),
            ("contenders", "[]"),
            ("pending_ties", "0"),
            ("streak", "null"),
        ];
        for (field, start) in at_start {
            if old.get(field) == Some(&serde_json::from_str(start).unwrap()) {
                old.remove(field);
            }
        }
        serde_json::Value::Object(old)
    }

    /// Migration 12 (issue 20 B): hands and matches stored in the old shape read, after it, as
    /// today's engine answers them: the fixtures below are adjudicated now, stored in the shape
    /// before migration 12 (`before_12`), migrated, and compared field by field. A finished Big
    /// Two tie keeps both winners; the `winner` column is gone; a record's `"winner": null` too.
    #[test]
    fn migration_12_stored_match_states_read_as_the_engine_answers_today() {
        let fixtures = [
            ("couillon", "06-two-ties-mark-and-game-over"),
            ("couillon", "05-win-after-one-tie-erases-two"),
            ("big-two", "11-target-50-ends-game-tie-shares-the-win"),
            ("briscola", "10-four-players-tie-breaker-inferred"),
            ("court-piece", "21-match-end-most-courts-wins"),
            ("malilla", "10-revoke-game-lost-held-bonus-dropped"),
        ];
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 11).unwrap();
        conn.execute_batch("INSERT INTO clubs (id, name) VALUES (1, 'c');")
            .unwrap();
        let mut today = Vec::new();
        for (i, (game, name)) in fixtures.iter().enumerate() {
            let path = format!("{}/fixtures/{game}/{name}.json", env!("CARGO_MANIFEST_DIR"));
            let fixture: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            let record: crate::record::HandRecord =
                serde_json::from_value(fixture["record"].clone()).unwrap();
            let a = crate::engine::adjudicate(crate::games::find(game).unwrap(), &record).unwrap();
            let a = serde_json::to_value(&a).unwrap();
            let mut old = a.clone();
            for which in ["match_before", "match_after"] {
                old[which] = before_12(&a[which], game);
            }
            let mut old_record = fixture["record"].clone();
            if let Some(state) = old_record.get_mut("match_state") {
                state["winner"] = serde_json::Value::Null;
            }
            let id = i as i64 + 1;
            let winner = old["match_after"]["winner"].as_str().map(str::to_string);
            conn.execute(
                "INSERT INTO leagues (id, club_id, name, season, game, options) VALUES (?1, 1, ?1, 's', ?2, '{}')",
                rusqlite::params![id, game],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO sessions (id, league_id, name) VALUES (?1, ?1, 'e')",
                rusqlite::params![id],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO matches (id, league_id, session_id, state, winner) VALUES (?1, ?1, ?1, ?2, ?3)",
                rusqlite::params![id, old["match_after"].to_string(), winner],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, record, adjudication) \
                 VALUES (?1, ?1, ?1, ?1, 1, 'N', 'scored', ?2, ?3)",
                rusqlite::params![id, old_record.to_string(), old.to_string()],
            )
            .unwrap();
            today.push((a, fixture["record"].clone()));
        }
        m.to_latest(&mut conn).unwrap();
        let json = |sql: &str| -> Vec<serde_json::Value> {
            column(&conn, sql)
                .iter()
                .map(|s| serde_json::from_str(s).unwrap())
                .collect()
        };
        let states = json("SELECT state FROM matches ORDER BY id");
        let rulings = json("SELECT adjudication FROM hands ORDER BY id");
        let records = json("SELECT record FROM hands ORDER BY id");
        for (i, (a, record)) in today.iter().enumerate() {
            let (game, name) = fixtures[i];
            assert_eq!(states[i], a["match_after"], "{game} {name}: the match");
            assert_eq!(rulings[i], *a, "{game} {name}: the hand");
            assert_eq!(records[i], *record, "{game} {name}: the record");
        }
        assert_eq!(states[2]["winners"], serde_json::json!(["P1", "P3"]));
        assert!(
            column(&conn, "SELECT name FROM pragma_table_info('matches')")
                .iter()
                .all(|c| c != "winner")
        );
        let fk = column(&conn, "SELECT \"table\" FROM pragma_foreign_key_check");
        assert!(fk.is_empty(), "{fk:?}");
    }

    /// Migration 16: a page of each of a club's lists is read from the cursor on through an index
    /// in id order (the lists that had one already: sessions, matches, hands, amendments).
    #[test]
    fn migration_16_pages_each_list_of_a_club_by_an_index() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        super::migrate(&mut conn).unwrap();
        let lists = [
            ("api_keys", "api_keys_by_club"),
            ("players", "players_by_club"),
            ("partnerships", "partnerships_by_club"),
            ("leagues", "leagues_by_club"),
        ];
        for (table, index) in lists {
            let plan: Vec<String> = conn
                .prepare(&format!(
                    "EXPLAIN QUERY PLAN SELECT * FROM {table} \
                     WHERE club_id = 1 AND id > 5 ORDER BY id LIMIT 11"
                ))
                .unwrap()
                .query_map([], |r| r.get(3))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            assert_eq!(
                plan,
                [format!(
                    "SEARCH {table} USING INDEX {index} (club_id=? AND id>?)"
                )],
                "{table}"
            );
        }
    }

    /// Migration 17: a page of a hand's audit trail is read through an index from the cursor on.
    #[test]
    fn migration_17_pages_a_hands_audit_trail_by_an_index() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        super::migrate(&mut conn).unwrap();
        let plan: Vec<String> = conn
            .prepare(&format!(
                "EXPLAIN QUERY PLAN {}",
                super::super::amend::HAND_AMENDMENTS
            ))
            .unwrap()
            .query_map(rusqlite::params![1, 5, 7, 11], |r| r.get(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            plan,
            ["SEARCH amendments USING INDEX amendments_by_subject \
              (club_id=? AND subject=? AND subject_id=? AND id>?)"]
        );
    }

    /// Migration 18: an import's deferred counts read its new hands through `hands_by_league`
    /// from the first new one on, and their rows by primary key: never a scan of what was stored
    /// before, which grows with the league. What is scanned is only what they added up per match
    /// of the new hands (`per_match`, `per_side`, read as `m` and `g`). Migration 19: the finishes
    /// on those hands are read through `match_finishes_in_order` from the first new hand on.
    #[test]
    fn migrations_18_and_19_count_an_imports_hands_from_its_first() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        super::migrate(&mut conn).unwrap();
        for statement in super::super::aggregates::COUNT_HANDS_SINCE {
            let plan: Vec<String> = conn
                .prepare(&format!("EXPLAIN QUERY PLAN {statement}"))
                .unwrap()
                .query_map(rusqlite::params![1, 5], |r| r.get(3))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            let reads: Vec<&String> = plan
                .iter()
                .filter(|step| step.starts_with("SEARCH") || step.starts_with("SCAN"))
                .collect();
            let new_hands = "USING INDEX hands_by_league (league_id=? AND id>?)";
            let new_finishes =
                "SEARCH f USING INDEX match_finishes_in_order (league_id=? AND finished_by>?)";
            assert!(
                reads[0].starts_with(&format!("SEARCH h {new_hands}"))
                    || reads[0].starts_with(&format!("SEARCH hands {new_hands}"))
                    || reads[0].starts_with(new_finishes)
                    || reads[0].starts_with("SEARCH leagues USING INTEGER PRIMARY KEY"),
                "{plan:?}"
            );
            let per_match = |step: &&String| *step == "SCAN m" || *step == "SCAN g";
            assert!(
                reads.iter().all(|step| per_match(step)
                    || step.starts_with(new_finishes)
                    || (step.starts_with("SEARCH")
                        && (step.contains("PRIMARY KEY") || step.contains("hands_by_league")))),
                "{plan:?}"
            );
            assert!(
                plan.iter()
                    .filter(|step| step.contains("MATERIALIZE"))
                    .all(|step| step == "MATERIALIZE per_match" || step == "MATERIALIZE per_side"),
                "{plan:?}"
            );
        }
    }

    /// Migration 13: a stored trick without `counts` counts (the tally stored with it counted it);
    /// a trick that says already is left as it is, and so is everything else in the ruling.
    #[test]
    fn migration_13_stored_tricks_say_they_count() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 12).unwrap();
        let path = format!(
            "{}/fixtures/malilla/10-revoke-game-lost-held-bonus-dropped.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let fixture: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let record: crate::record::HandRecord =
            serde_json::from_value(fixture["record"].clone()).unwrap();
        let game = crate::games::find("malilla").unwrap();
        let today = crate::engine::adjudicate(game, &record).unwrap();
        let today = serde_json::to_value(&today).unwrap();
        let counts: Vec<_> = today["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["counts"].clone())
            .collect();
        assert!(counts.contains(&serde_json::json!(false)), "{counts:?}");
        let mut old = today.clone();
        for t in old["tricks"].as_array_mut().unwrap() {
            if t["counts"] == serde_json::json!(true) {
                t.as_object_mut().unwrap().remove("counts");
            }
        }
        conn.execute_batch(
            "INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES (1, 1, 'l', 's', 'malilla', '{}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e');
             INSERT INTO matches (id, league_id, session_id, state) VALUES (1, 1, 1, '{}');",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, record, adjudication) \
             VALUES (1, 1, 1, 1, 1, 'N', 'scored', ?1, ?2)",
            rusqlite::params![fixture["record"].to_string(), old.to_string()],
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let stored: serde_json::Value =
            serde_json::from_str(&column(&conn, "SELECT adjudication FROM hands")[0]).unwrap();
        assert_eq!(stored, today);
    }

    /// Migration 15 packs each stored hand's record and ruling, which read back as they were.
    #[test]
    fn migration_15_packs_stored_hands_which_read_back_exactly() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 14).unwrap();
        let record = r#"{"game":null,"options":{},"players":{},"dealer":"N","deal":{"N":["AC","7H","2S","4H","4S","5D","7S","JD","QC","QD"],"E":["7D","JC","2H","6S","5S","JS","KD","3C","AD","6H"],"S":["QH","QS","3S","6D","2D","5H","2C","AH","4D","6C"],"W":["KH","AS","JH","KS","7C","4C","3H","KC","3D","5C"]},"face_up":["QD"],"actions":[{"seat":"E","play":"2H"},{"seat":"S","play":"QH"},{"seat":"W","play":"KH"},{"seat":"N","play":"7H"}],"match_state":null}"#;
        conn.execute_batch(
            r#"INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES (1, 1, 'l', 's', 'malilla', '{}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e');
             INSERT INTO matches (id, league_id, session_id, state) VALUES (1, 1, 1, '{}');"#,
        )
        .unwrap();
        conn.execute(
            "INSERT INTO hands (match_id, league_id, session_id, number, dealer, outcome, record, adjudication) \
             VALUES (1, 1, 1, 1, 'N', 'scored', ?1, '{\"outcome\": \"scored\"}')",
            [record],
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let (kind, size): (String, i64) = conn
            .query_row(
                "SELECT typeof(record), length(record) FROM hands",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(kind, "blob");
        assert!(
            size * 3 < record.len() as i64,
            "{size} bytes from {}",
            record.len()
        );
        assert_eq!(column(&conn, "SELECT record FROM hands"), [record]);
        assert_eq!(
            column(&conn, "SELECT adjudication FROM hands"),
            [r#"{"outcome": "scored"}"#]
        );
    }

    /// Migration 14 keeps the standings of leagues stored before it: what their hands add up to,
    /// the finish of their finished matches and the ratings folded over them, as a full
    /// recompute has them.
    #[test]
    fn migration_14_keeps_the_standings_of_stored_leagues() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 13).unwrap();
        // Ana & Cai (NS) against Ben & Dee (EW). Match 1 is over, NS 30 to EW 10 and named the
        // winner; match 2 goes on (EW 7). Ben revoked in hand 2.
        conn.execute_batch(
            r#"INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO players (id, club_id, name) VALUES (1, 1, 'Ana'), (2, 1, 'Ben'), (3, 1, 'Cai'), (4, 1, 'Dee');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES (1, 1, 'l', 's', 'briscola', '{}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e');
             INSERT INTO matches (id, league_id, session_id, state, hands, game_over) VALUES
                 (1, 1, 1, '{"scores": {"NS": 30, "EW": 10}, "game_over": true, "winners": ["NS"]}', 2, 1),
                 (2, 1, 1, '{"scores": {"NS": 0, "EW": 7}, "game_over": false, "winners": []}', 1, 0);
             INSERT INTO match_seats (match_id, seat, side, player_id) VALUES
                 (1, 'N', 'NS', 1), (1, 'E', 'EW', 2), (1, 'S', 'NS', 3), (1, 'W', 'EW', 4),
                 (2, 'N', 'NS', 1), (2, 'E', 'EW', 2), (2, 'S', 'NS', 3), (2, 'W', 'EW', 4);
             INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, record, adjudication) VALUES
                 (1, 1, 1, 1, 1, 'N', 'scored', '{}', '{}'), (2, 1, 1, 1, 2, 'E', 'scored', '{}', '{}'),
                 (3, 2, 1, 1, 1, 'N', 'scored', '{}', '{}');
             INSERT INTO hand_scores (hand_id, side, points) VALUES
                 (1, 'NS', 20), (1, 'EW', 5), (2, 'NS', 10), (2, 'EW', 5), (3, 'NS', 0), (3, 'EW', 7);
             INSERT INTO hand_irregularities (hand_id, ordinal, code, seat) VALUES (2, 0, 'revoke', 'E');"#,
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let sqlite = conn.transaction().unwrap();
        let tx = crate::league::Tx::sqlite(&sqlite);
        let st = crate::league::standings::tests::kept(&tx, 1);
        let row = |name: &str| st.players.iter().find(|p| p.player.name == name).unwrap();
        let (ana, ben) = (row("Ana"), row("Ben"));
        // Ana: 3 hands, 20 + 10 + 0 for, 5 + 5 + 7 against, match 1 won, first.
        let r = &ana.record;
        assert_eq!(
            (r.hands, r.points_for, r.points_against, r.irregularities),
            (3, 30, 17, 0)
        );
        assert_eq!(
            (r.matches_played, r.won, r.lost, r.places.as_slice()),
            (1, 1, 0, &[1][..])
        );
        let r = &ben.record;
        assert_eq!((r.hands, r.points_for, r.irregularities), (3, 17, 1));
        assert_eq!((r.won, r.lost, r.places.as_slice()), (0, 1, &[0, 1][..]));
        // Two pairs at an equal start: c = √(2β² + 2·2σ²) = 17.678, each pair's Ω = ±138.89/c · ½
        // = ±3.928, half of it each player's.
        assert_eq!((ana.rating.rating, ben.rating.rating), (26.964, 23.036));
    }

    /// Migration 6 keeps each pair as a partnership of two members with its roster and its
    /// matches, and reads the camps of hands already stored.
    #[test]
    fn migration_6_keeps_pairs_and_reads_stored_camps() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        let m = rusqlite_migration::Migrations::new(super::migrations());
        m.to_version(&mut conn, 5).unwrap();
        conn.execute_batch(
            r#"INSERT INTO clubs (id, name) VALUES (1, 'c');
             INSERT INTO players (id, club_id, name) VALUES (2, 1, 'a'), (10, 1, 'b');
             INSERT INTO partnerships (id, club_id, name, first_player, second_player) VALUES (7, 1, 'a & b', 2, 10);
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES (1, 1, 'l', 's', 'malilla', '{}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e');
             INSERT INTO matches (id, league_id, session_id, state) VALUES (1, 1, 1, '{}');
             INSERT INTO match_sides (match_id, side, partnership_id) VALUES (1, 'NS', 7), (1, 'EW', NULL);
             INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, record, adjudication)
                 VALUES (1, 1, 1, 1, 1, 'E', 'scored', '{}',
                         '{"camps": [{"role": "declarer", "seats": ["N"]}, {"role": "defenders", "seats": ["E", "S", "W"]}]}'),
                        (2, 1, 1, 1, 2, 'S', 'scored', '{}', '{}');"#,
        )
        .unwrap();
        m.to_latest(&mut conn).unwrap();
        let rows = |sql: &str| column(&conn, sql);
        assert_eq!(
            rows("SELECT id || ' ' || name || ' ' || roster FROM partnerships"),
            ["7 a & b 2,10"]
        );
        assert_eq!(
            rows(
                "SELECT partnership_id || ':' || player_id FROM partnership_members ORDER BY player_id"
            ),
            ["7:2", "7:10"]
        );
        assert_eq!(
            rows(
                "SELECT side || ':' || coalesce(partnership_id, '-') FROM match_sides ORDER BY side"
            ),
            ["EW:-", "NS:7"]
        );
        assert_eq!(
            rows("SELECT hand_id || ' ' || seat || ' ' || role FROM hand_camps ORDER BY seat"),
            [
                "1 E defenders",
                "1 N declarer",
                "1 S defenders",
                "1 W defenders"
            ]
        );
        let fk: Vec<String> = rows("SELECT \"table\" FROM pragma_foreign_key_check");
        assert!(fk.is_empty(), "{fk:?}");
    }

    /// The tables whose every change bumps the league's generation (migration 10): the rows the
    /// other tables standings read are written with.
    const STANDINGS_TABLES: [&str; 2] = ["hands", "matches"];

    /// Every insert, update and delete of a hand or a match, and a rename of a player or
    /// partnership of the club, moves the league's generation, and only that league's (a rename:
    /// the club's leagues).
    #[test]
    fn migration_10_every_change_standings_read_moves_the_generation() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        super::migrate(&mut conn).unwrap();
        for table in STANDINGS_TABLES {
            for op in ["INSERT", "UPDATE", "DELETE"] {
                let found = column(
                    &conn,
                    &format!(
                        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '{table}' \
                         AND sql LIKE '%AFTER {op} ON {table}%generation = generation + 1%'"
                    ),
                );
                assert_eq!(found.len(), 1, "{op} on {table}");
            }
        }
        conn.execute_batch(
            "INSERT INTO clubs (id, name) VALUES (1, 'c'), (2, 'd');
             INSERT INTO players (id, club_id, name) VALUES (1, 1, 'Ana'), (2, 2, 'Ben');
             INSERT INTO partnerships (id, club_id, name, roster) VALUES (1, 1, 'p', '1');
             INSERT INTO leagues (id, club_id, name, season, game, options) VALUES
                 (1, 1, 'a', 's', 'malilla', '{}'), (2, 1, 'b', 's', 'malilla', '{}'),
                 (3, 2, 'c', 's', 'malilla', '{}');
             INSERT INTO sessions (id, league_id, name) VALUES (1, 1, 'e');",
        )
        .unwrap();
        let generations = |conn: &rusqlite::Connection| {
            column(
                conn,
                "SELECT CAST(generation AS TEXT) FROM leagues ORDER BY id",
            )
        };
        let mut expected = [0, 0, 0];
        let steps: [(&str, [i64; 3]); 9] = [
            (
                "INSERT INTO matches (id, league_id, session_id, state) VALUES (1, 1, 1, '{}')",
                [1, 0, 0],
            ),
            (
                "INSERT INTO hands (id, match_id, league_id, session_id, number, dealer, outcome, \
                 record, adjudication) VALUES (1, 1, 1, 1, 1, 'N', 'scored', '{}', '{}')",
                [1, 0, 0],
            ),
            ("UPDATE hands SET outcome = 'misdeal'", [1, 0, 0]),
            ("UPDATE matches SET hands = 1", [1, 0, 0]),
            // A rename shows in every league of the club, and in no other club's.
            ("UPDATE players SET name = 'Ann' WHERE id = 1", [1, 1, 0]),
            ("UPDATE partnerships SET name = 'q'", [1, 1, 0]),
            (
                "UPDATE leagues SET options = '{\"target\": 21}' WHERE id = 2",
                [0, 1, 0],
            ),
            ("DELETE FROM hands", [1, 0, 0]),
            ("DELETE FROM matches", [1, 0, 0]),
        ];
        for (sql, moved) in steps {
            conn.execute_batch(sql).unwrap();
            for (e, m) in expected.iter_mut().zip(moved) {
                *e += m;
            }
            let want: Vec<String> = expected.iter().map(i64::to_string).collect();
            assert_eq!(generations(&conn), want, "after {sql}");
        }
        // What standings do not read leaves it alone: a session, a key, a new player.
        conn.execute_batch(
            "UPDATE sessions SET name = 'f'; INSERT INTO players (club_id, name) VALUES (1, 'Cai');",
        )
        .unwrap();
        let want: Vec<String> = expected.iter().map(i64::to_string).collect();
        assert_eq!(generations(&conn), want);
    }
}
