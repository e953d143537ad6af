-- A league stored by schema 5 (before issue 10's teams and camps), written by arbiter's own API
-- (club 'Old club', key below in tests/league.rs), dumped with sqlite3 .dump; user_version set as
-- the migrations left it.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE clubs (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO clubs VALUES(1,'Old club','2026-11-26T19:48:09Z');
CREATE TABLE api_keys (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    digest     BLOB NOT NULL UNIQUE,
    label      TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    revoked_at TEXT
, public_id TEXT, last_used_at TEXT);
INSERT INTO api_keys VALUES(1,1,X'00872a98dea07a4dcf7c28a1e4ada33b60c2233801edd79d2bdfe43e486c0c91','first key','2026-11-26T19:48:09Z',NULL,'key_af32edec324e9ba0','2026-11-26T19:48:15Z');
CREATE TABLE players (
    id         INTEGER PRIMARY KEY,
    club_id    INTEGER NOT NULL REFERENCES clubs(id),
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (club_id, name)
);
INSERT INTO players VALUES(1,1,'Ana','2026-11-26T19:48:15Z');
INSERT INTO players VALUES(2,1,'Ben','2026-11-26T19:48:15Z');
INSERT INTO players VALUES(3,1,'Cai','2026-11-26T19:48:15Z');
INSERT INTO players VALUES(4,1,'Dee','2026-11-26T19:48:15Z');
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
INSERT INTO partnerships VALUES(1,1,'Ana & Cai',1,3,'2026-11-26T19:48:15Z');
INSERT INTO partnerships VALUES(2,1,'Ben & Dee',2,4,'2026-11-26T19:48:15Z');
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
INSERT INTO leagues VALUES(1,1,'Thursday','2025','malilla','{}','2026-11-26T19:48:15Z');
INSERT INTO leagues VALUES(2,1,'Sunday','2025','briscola','{"players":"3","removed_two":"2S"}','2026-11-26T19:48:15Z');
CREATE TABLE sessions (
    id         INTEGER PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues(id),
    name       TEXT NOT NULL,
    played_on  TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO sessions VALUES(1,1,'Evening 1','2025-11-20','2026-11-26T19:48:15Z');
INSERT INTO sessions VALUES(2,2,'Afternoon',NULL,'2026-11-26T19:48:15Z');
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
INSERT INTO matches VALUES(1,1,1,'{"scores":{"NS":0,"EW":0},"next_dealer":"N","hands_played":1,"game_over":true,"winner":"NS"}',1,1,'NS','2026-11-26T19:48:15Z');
INSERT INTO matches VALUES(2,1,1,'{"scores":{"NS":1,"EW":0},"next_dealer":"S","hands_played":1,"game_over":false,"winner":null}',1,0,NULL,'2026-11-26T19:48:15Z');
INSERT INTO matches VALUES(3,2,2,'{"scores":{"P1":63,"P2":32,"P3":25},"next_dealer":"P1","hands_played":1,"game_over":false,"winner":null}',1,0,NULL,'2026-11-26T19:48:15Z');
CREATE TABLE match_seats (
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    seat      TEXT NOT NULL,
    side      TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
INSERT INTO match_seats VALUES(1,'E','EW',2);
INSERT INTO match_seats VALUES(1,'N','NS',1);
INSERT INTO match_seats VALUES(1,'S','NS',3);
INSERT INTO match_seats VALUES(1,'W','EW',4);
INSERT INTO match_seats VALUES(2,'E','EW',2);
INSERT INTO match_seats VALUES(2,'N','NS',1);
INSERT INTO match_seats VALUES(2,'S','NS',3);
INSERT INTO match_seats VALUES(2,'W','EW',4);
INSERT INTO match_seats VALUES(3,'P1','P1',1);
INSERT INTO match_seats VALUES(3,'P2','P2',2);
INSERT INTO match_seats VALUES(3,'P3','P3',3);
CREATE TABLE match_sides (
    match_id       INTEGER NOT NULL REFERENCES matches(id),
    side           TEXT NOT NULL,
    partnership_id INTEGER REFERENCES partnerships(id),
    PRIMARY KEY (match_id, side)
) WITHOUT ROWID;
INSERT INTO match_sides VALUES(1,'EW',2);
INSERT INTO match_sides VALUES(1,'NS',1);
INSERT INTO match_sides VALUES(2,'EW',2);
INSERT INTO match_sides VALUES(2,'NS',1);
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
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), play_digest BLOB,
    UNIQUE (match_id, number)
);
INSERT INTO hands VALUES(1,1,1,1,1,'W','game_lost','{"game":"malilla","options":{},"players":{},"dealer":"W","deal":{"N":["7S","AS","KS","QS","JS","6S","5S","4S","3S","2S"],"E":["7H","AH","KH","QH","JH","6H","5H","4H","3H","2H"],"S":["7D","AD","KD","QD","JD","6D","5D","4D","3D","2D"],"W":["7C","AC","KC","QC","JC","6C","5C","4C","3C","2C"]},"face_up":["2C"],"actions":[{"seat":"N","play":"2S"},{"seat":"E","play":"2H"},{"seat":"S","play":"2D"},{"seat":"W","play":"2C"},{"seat":"W","play":"3C"},{"seat":"N","play":"7S"},{"seat":"E","play":"7H"}],"match_state":null}','{"game":"malilla","dealer":"W","outcome":"game_lost","trump":"C","tricks":[{"number":1,"leader":"N","plays":[{"seat":"N","card":"2S"},{"seat":"E","card":"2H"},{"seat":"S","card":"2D"},{"seat":"W","card":"2C"}],"winner":"W","points":1,"complete":true}],"irregularities":[{"code":"illegal_seven","action_index":6,"trick":2,"seat":"E","card":"7H","rule":"malilla.md §3.2","explanation":"E discarded 7H, the 7 of a suit not yet led, while holding other cards","consequence":"E–W lose the game at once; N–S win it and the hand is not scored (malilla.md §5)","effect":{"points":{},"decides":"game"}}],"corrected_revokes":[],"record_error":null,"ignored_actions":[],"bonuses":[],"hand_winner":null,"tally":{"NS":{"tricks":0,"points":0},"EW":{"tricks":1,"points":1}},"hand_score":{"NS":0,"EW":0},"score_items":[],"match_before":{"scores":{"NS":0,"EW":0},"next_dealer":"W","hands_played":0,"game_over":false,"winner":null},"match_after":{"scores":{"NS":0,"EW":0},"next_dealer":"N","hands_played":1,"game_over":true,"winner":"NS"}}','2026-11-26T19:48:15Z',X'd684514bb3b8f7e309928c438b79d6896df096dc31664be9bb12d92a731c0c2f');
INSERT INTO hands VALUES(2,2,1,1,1,'E','scored','{"game":"malilla","options":{},"players":{},"dealer":"E","deal":{"N":["JS","6S","4S","6H","5H","QD","JD","4D","7C","2C"],"E":["AS","KS","5S","4H","3H","6D","5D","KC","QC","JC"],"S":["7S","2S","7H","AH","KH","2D","3D","4C","5C","6C"],"W":["QS","3S","QH","JH","2H","7D","AD","KD","AC","3C"]},"face_up":["5S"],"actions":[{"seat":"S","play":"7H"},{"seat":"W","play":"2H"},{"seat":"N","play":"5H"},{"seat":"E","play":"3H"},{"seat":"S","play":"AH"},{"seat":"W","play":"JH"},{"seat":"N","play":"6H"},{"seat":"E","play":"4H"},{"seat":"S","play":"KH"},{"seat":"W","play":"QH"},{"seat":"N","play":"4D"},{"seat":"E","play":"5S"},{"seat":"E","play":"KC"},{"seat":"S","play":"4C"},{"seat":"W","play":"3C"},{"seat":"N","play":"7C"},{"seat":"N","play":"2C"},{"seat":"E","play":"JC"},{"seat":"S","play":"5C"},{"seat":"W","play":"AC"},{"seat":"W","play":"7D"},{"seat":"N","play":"JD"},{"seat":"E","play":"5D"},{"seat":"S","play":"2D"},{"seat":"W","play":"AD"},{"seat":"N","play":"QD"},{"seat":"E","play":"6D"},{"seat":"S","play":"3D"},{"seat":"W","play":"KD"},{"seat":"N","play":"4S"},{"seat":"E","play":"KS"},{"seat":"S","play":"7S"},{"seat":"S","play":"6C"},{"seat":"W","play":"3S"},{"seat":"N","play":"6S"},{"seat":"E","play":"QC"},{"seat":"N","play":"JS"},{"seat":"E","play":"AS"},{"seat":"S","play":"2S"},{"seat":"W","play":"QS"}],"match_state":null}','{"game":"malilla","dealer":"E","outcome":"scored","trump":"S","tricks":[{"number":1,"leader":"S","plays":[{"seat":"S","card":"7H"},{"seat":"W","card":"2H"},{"seat":"N","card":"5H"},{"seat":"E","card":"3H"}],"winner":"S","points":6,"complete":true},{"number":2,"leader":"S","plays":[{"seat":"S","card":"AH"},{"seat":"W","card":"JH"},{"seat":"N","card":"6H"},{"seat":"E","card":"4H"}],"winner":"S","points":6,"complete":true},{"number":3,"leader":"S","plays":[{"seat":"S","card":"KH"},{"seat":"W","card":"QH"},{"seat":"N","card":"4D"},{"seat":"E","card":"5S"}],"winner":"E","points":6,"complete":true},{"number":4,"leader":"E","plays":[{"seat":"E","card":"KC"},{"seat":"S","card":"4C"},{"seat":"W","card":"3C"},{"seat":"N","card":"7C"}],"winner":"N","points":9,"complete":true},{"number":5,"leader":"N","plays":[{"seat":"N","card":"2C"},{"seat":"E","card":"JC"},{"seat":"S","card":"5C"},{"seat":"W","card":"AC"}],"winner":"W","points":6,"complete":true},{"number":6,"leader":"W","plays":[{"seat":"W","card":"7D"},{"seat":"N","card":"JD"},{"seat":"E","card":"5D"},{"seat":"S","card":"2D"}],"winner":"W","points":7,"complete":true},{"number":7,"leader":"W","plays":[{"seat":"W","card":"AD"},{"seat":"N","card":"QD"},{"seat":"E","card":"6D"},{"seat":"S","card":"3D"}],"winner":"W","points":7,"complete":true},{"number":8,"leader":"W","plays":[{"seat":"W","card":"KD"},{"seat":"N","card":"4S"},{"seat":"E","card":"KS"},{"seat":"S","card":"7S"}],"winner":"S","points":12,"complete":true},{"number":9,"leader":"S","plays":[{"seat":"S","card":"6C"},{"seat":"W","card":"3S"},{"seat":"N","card":"6S"},{"seat":"E","card":"QC"}],"winner":"N","points":3,"complete":true},{"number":10,"leader":"N","plays":[{"seat":"N","card":"JS"},{"seat":"E","card":"AS"},{"seat":"S","card":"2S"},{"seat":"W","card":"QS"}],"winner":"E","points":8,"complete":true}],"irregularities":[],"corrected_revokes":[],"record_error":null,"ignored_actions":[],"bonuses":[],"hand_winner":"NS","tally":{"NS":{"tricks":5,"points":36},"EW":{"tricks":5,"points":34}},"hand_score":{"NS":1,"EW":0},"score_items":[{"side":"NS","points":1,"source":"tricks","code":"hand_result","action_index":null}],"match_before":{"scores":{"NS":0,"EW":0},"next_dealer":"E","hands_played":0,"game_over":false,"winner":null},"match_after":{"scores":{"NS":1,"EW":0},"next_dealer":"S","hands_played":1,"game_over":false,"winner":null}}','2026-11-26T19:48:15Z',X'64e72da9ba512bf73392a1e60be665b57189fa665b933fd8694a2ca40b55668b');
INSERT INTO hands VALUES(3,3,2,2,1,'P3','scored','{"game":"briscola","options":{"players":"3","removed_two":"2S"},"players":{},"dealer":"P3","deal":{"P1":["AH","3H","KH"],"P2":["AS","3S","KS"],"P3":["AC","3C","2D"]},"face_up":["5D"],"stock":["QH","QS","KC","JH","JS","QC","JC","7H","4D","7C","6H","7S","6C","5H","6S","5S","5C","4H","4S","4C","2H","AD","3D","KD","QD","JD","7D","6D","2C"],"actions":[{"seat":"P1","play":"AH"},{"seat":"P2","play":"AS"},{"seat":"P3","play":"AC"},{"seat":"P1","play":"3H"},{"seat":"P2","play":"3S"},{"seat":"P3","play":"3C"},{"seat":"P1","play":"KH"},{"seat":"P2","play":"KS"},{"seat":"P3","play":"2D"},{"seat":"P3","play":"KC"},{"seat":"P1","play":"QH"},{"seat":"P2","play":"QS"},{"seat":"P3","play":"QC"},{"seat":"P1","play":"JH"},{"seat":"P2","play":"JS"},{"seat":"P3","play":"JC"},{"seat":"P1","play":"7H"},{"seat":"P2","play":"4D"},{"seat":"P2","play":"7S"},{"seat":"P3","play":"7C"},{"seat":"P1","play":"6H"},{"seat":"P2","play":"6S"},{"seat":"P3","play":"6C"},{"seat":"P1","play":"5H"},{"seat":"P2","play":"5S"},{"seat":"P3","play":"5C"},{"seat":"P1","play":"4H"},{"seat":"P2","play":"4S"},{"seat":"P3","play":"4C"},{"seat":"P1","play":"2H"},{"seat":"P2","play":"AD"},{"seat":"P3","play":"3D"},{"seat":"P1","play":"KD"},{"seat":"P2","play":"QD"},{"seat":"P3","play":"JD"},{"seat":"P1","play":"7D"},{"seat":"P2","play":"6D"},{"seat":"P3","play":"2C"},{"seat":"P1","play":"5D"}],"match_state":null}','{"game":"briscola","dealer":"P3","outcome":"scored","trump":"D","tricks":[{"number":1,"leader":"P1","plays":[{"seat":"P1","card":"AH"},{"seat":"P2","card":"AS"},{"seat":"P3","card":"AC"}],"winner":"P1","points":33,"draws":[{"seat":"P1","card":"QH"},{"seat":"P2","card":"QS"},{"seat":"P3","card":"KC"}],"complete":true},{"number":2,"leader":"P1","plays":[{"seat":"P1","card":"3H"},{"seat":"P2","card":"3S"},{"seat":"P3","card":"3C"}],"winner":"P1","points":30,"draws":[{"seat":"P1","card":"JH"},{"seat":"P2","card":"JS"},{"seat":"P3","card":"QC"}],"complete":true},{"number":3,"leader":"P1","plays":[{"seat":"P1","card":"KH"},{"seat":"P2","card":"KS"},{"seat":"P3","card":"2D"}],"winner":"P3","points":8,"draws":[{"seat":"P3","card":"JC"},{"seat":"P1","card":"7H"},{"seat":"P2","card":"4D"}],"complete":true},{"number":4,"leader":"P3","plays":[{"seat":"P3","card":"KC"},{"seat":"P1","card":"QH"},{"seat":"P2","card":"QS"}],"winner":"P3","points":10,"draws":[{"seat":"P3","card":"7C"},{"seat":"P1","card":"6H"},{"seat":"P2","card":"7S"}],"complete":true},{"number":5,"leader":"P3","plays":[{"seat":"P3","card":"QC"},{"seat":"P1","card":"JH"},{"seat":"P2","card":"JS"}],"winner":"P3","points":7,"draws":[{"seat":"P3","card":"6C"},{"seat":"P1","card":"5H"},{"seat":"P2","card":"6S"}],"complete":true},{"number":6,"leader":"P3","plays":[{"seat":"P3","card":"JC"},{"seat":"P1","card":"7H"},{"seat":"P2","card":"4D"}],"winner":"P2","points":2,"draws":[{"seat":"P2","card":"5S"},{"seat":"P3","card":"5C"},{"seat":"P1","card":"4H"}],"complete":true},{"number":7,"leader":"P2","plays":[{"seat":"P2","card":"7S"},{"seat":"P3","card":"7C"},{"seat":"P1","card":"6H"}],"winner":"P2","points":0,"draws":[{"seat":"P2","card":"4S"},{"seat":"P3","card":"4C"},{"seat":"P1","card":"2H"}],"complete":true},{"number":8,"leader":"P2","plays":[{"seat":"P2","card":"6S"},{"seat":"P3","card":"6C"},{"seat":"P1","card":"5H"}],"winner":"P2","points":0,"draws":[{"seat":"P2","card":"AD"},{"seat":"P3","card":"3D"},{"seat":"P1","card":"KD"}],"complete":true},{"number":9,"leader":"P2","plays":[{"seat":"P2","card":"5S"},{"seat":"P3","card":"5C"},{"seat":"P1","card":"4H"}],"winner":"P2","points":0,"draws":[{"seat":"P2","card":"QD"},{"seat":"P3","card":"JD"},{"seat":"P1","card":"7D"}],"complete":true},{"number":10,"leader":"P2","plays":[{"seat":"P2","card":"4S"},{"seat":"P3","card":"4C"},{"seat":"P1","card":"2H"}],"winner":"P2","points":0,"draws":[{"seat":"P2","card":"6D"},{"seat":"P3","card":"2C"},{"seat":"P1","card":"5D"}],"complete":true},{"number":11,"leader":"P2","plays":[{"seat":"P2","card":"AD"},{"seat":"P3","card":"3D"},{"seat":"P1","card":"KD"}],"winner":"P2","points":25,"complete":true},{"number":12,"leader":"P2","plays":[{"seat":"P2","card":"QD"},{"seat":"P3","card":"JD"},{"seat":"P1","card":"7D"}],"winner":"P2","points":5,"complete":true},{"number":13,"leader":"P2","plays":[{"seat":"P2","card":"6D"},{"seat":"P3","card":"2C"},{"seat":"P1","card":"5D"}],"winner":"P2","points":0,"complete":true}],"irregularities":[],"corrected_revokes":[],"record_error":null,"ignored_actions":[],"bonuses":[],"hand_winner":null,"events":[{"code":"upcard_turned","action_index":null,"seat":"P3","cards":["5D"],"detail":"P3 turns up 5D: diamonds are trumps, and 5D is the last card drawn (§1)"}],"tally":{"P1":{"tricks":2,"points":63},"P2":{"tricks":8,"points":32},"P3":{"tricks":3,"points":25}},"hand_score":{"P1":63,"P2":32,"P3":25},"score_items":[{"side":"P1","points":63,"source":"tricks","code":"card_points","action_index":null},{"side":"P2","points":32,"source":"tricks","code":"card_points","action_index":null},{"side":"P3","points":25,"source":"tricks","code":"card_points","action_index":null}],"match_before":{"scores":{"P1":0,"P2":0,"P3":0},"next_dealer":"P3","hands_played":0,"game_over":false,"winner":null},"match_after":{"scores":{"P1":63,"P2":32,"P3":25},"next_dealer":"P1","hands_played":1,"game_over":false,"winner":null}}','2026-11-26T19:48:15Z',X'b24d7c4f6fc7aeb95bb1ed3e19a36bb5f1a22218fa1f5098ef39fdc489806330');
CREATE TABLE hand_scores (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    side    TEXT NOT NULL,
    points  INTEGER NOT NULL,
    PRIMARY KEY (hand_id, side)
) WITHOUT ROWID;
INSERT INTO hand_scores VALUES(1,'EW',0);
INSERT INTO hand_scores VALUES(1,'NS',0);
INSERT INTO hand_scores VALUES(2,'EW',0);
INSERT INTO hand_scores VALUES(2,'NS',1);
INSERT INTO hand_scores VALUES(3,'P1',63);
INSERT INTO hand_scores VALUES(3,'P2',32);
INSERT INTO hand_scores VALUES(3,'P3',25);
CREATE TABLE hand_irregularities (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    ordinal INTEGER NOT NULL,
    code    TEXT NOT NULL,
    seat    TEXT,
    PRIMARY KEY (hand_id, ordinal)
) WITHOUT ROWID;
INSERT INTO hand_irregularities VALUES(1,0,'illegal_seven','E');
CREATE TABLE idempotency_keys (
    club_id     INTEGER NOT NULL REFERENCES clubs(id),
    key         TEXT NOT NULL,
    fingerprint BLOB NOT NULL,
    status      INTEGER NOT NULL,
    body        TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (club_id, key)
) WITHOUT ROWID;
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
CREATE INDEX sessions_by_league ON sessions (league_id, id);
CREATE INDEX matches_by_league ON matches (league_id, id);
CREATE INDEX matches_by_session ON matches (session_id, id);
CREATE INDEX match_seats_by_player ON match_seats (player_id);
CREATE INDEX hands_by_league ON hands (league_id, id);
CREATE INDEX hands_by_session ON hands (session_id, id);
CREATE INDEX hands_by_play ON hands (session_id, play_digest);
CREATE UNIQUE INDEX api_keys_by_public_id ON api_keys (public_id);
CREATE INDEX amendments_by_club ON amendments (club_id, id);
COMMIT;
PRAGMA user_version = 5;
