#!/usr/bin/env bash
# The server's resident memory while it serves a large league under mixed load (issue 26's
# target 7: under 64 MB at 1,000,000 stored hands). Builds the league bench's database
# (`LEAGUE_HANDS` random legal Malilla hands, imported as sheets; or reuses `LEAGUE_DB`, a copy of
# one kept by `LEAGUE_KEEP`), starts the release server on it, and for `DURATION` seconds runs at
# once: standings reads, hand-list pages, sheet exports and stored-hand reads (wrk), posts of new
# matches and hands (a loop of curl), and sheet imports (a loop of curl: a new session, then the
# league bench's first sheet of 2,000 hands imported into it; `LEAGUE_SHEET` names the sheet when
# `LEAGUE_DB` is given, none is imported without one). Prints the resident memory at start and its
# peak, read from /proc every 0.2 s, and the requests each part served.
#
#   bash benches/memory.sh                          # 1,000,000 hands: the import takes a while
#   LEAGUE_HANDS=100000 DURATION=30 bash benches/memory.sh
#   LEAGUE_DB=/path/league.db LEAGUE_KEY=... LEAGUE_SHEET=/path/sheet.csv bash benches/memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."

LEAGUE_HANDS=${LEAGUE_HANDS:-1000000}
DURATION=${DURATION:-60}
PORT=${PORT:-18182}

source benches/serve.sh
if [ -n "${LEAGUE_DB:-}" ]; then
  cp "$LEAGUE_DB" "$DIR/league.db"
  KEY=${LEAGUE_KEY:?LEAGUE_KEY: the club key of LEAGUE_DB}
  if [ -n "${LEAGUE_SHEET:-}" ]; then cp "$LEAGUE_SHEET" "$DIR/sheet.csv"; fi
else
  LEAGUE_HANDS=$LEAGUE_HANDS LEAGUE_KEEP=$DIR cargo bench --quiet --bench league
  KEY=$(cat "$DIR/key")
fi

serve "$DIR/league.db"
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$SERVER/status"; }
START=$(rss)

# The bench's league: club 1, league 1, sessions from 1, players 1 to 8, Malilla.
AUTH="Authorization: Bearer $KEY"
python3 - "$DIR/body.json" <<'PY'
import glob, json, sys
path = sorted(glob.glob("fixtures/malilla/01-*.json"))[0]
json.dump(json.load(open(path))["record"], open(sys.argv[1], "w"))
PY
cat >"$DIR/auth.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $KEY"
LUA

(
  while kill -0 "$SERVER" 2>/dev/null; do
    rss
    sleep 0.2
  done
) >"$DIR/rss.txt" &
LOAD=()
w() {
  wrk -t1 -c"$1" -d"${DURATION}s" -s "$DIR/auth.lua" "$2" >"$DIR/$3.txt" 2>&1 &
  LOAD+=($!)
}
w 2 "$URL/v1/clubs/1/leagues/1/standings" standings
w 2 "$URL/v1/clubs/1/leagues/1/hands?cursor=$((LEAGUE_HANDS / 2))&limit=100" pages
w 1 "$URL/v1/clubs/1/sessions/1/sheet" sheets
w 1 "$URL/v1/clubs/1/hands/$((LEAGUE_HANDS / 3))" hands
END=$((SECONDS + DURATION))
# Imports, one after another; one refused as busy (the expensive work's queue is full) is not
# counted.
if [ -f "$DIR/sheet.csv" ]; then
  (
    imports=0
    while [ "$SECONDS" -lt "$END" ]; do
      s=$(curl -fsS -X POST -H "$AUTH" -H 'content-type: application/json' \
        --data "{\"name\": \"import $imports\"}" "$URL/v1/clubs/1/leagues/1/sessions" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])') || continue
      if curl -fsS -o /dev/null -X POST -H "$AUTH" -H 'content-type: text/csv' \
        --data-binary @"$DIR/sheet.csv" "$URL/v1/clubs/1/sessions/$s/sheet"; then
        imports=$((imports + 1))
      fi
    done
    echo "$imports" >"$DIR/imports.txt"
  ) &
  LOAD+=($!)
fi
POSTS=0
while [ "$SECONDS" -lt "$END" ]; do
  m=$(curl -fsS -X POST -H "$AUTH" -H 'content-type: application/json' \
    --data '{"session": 1, "seats": {"N": 1, "E": 2, "S": 3, "W": 4}}' "$URL/v1/clubs/1/matches" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
  curl -fsS -o /dev/null -X POST -H "$AUTH" -H 'content-type: application/json' \
    --data-binary @"$DIR/body.json" "$URL/v1/clubs/1/matches/$m/hands"
  POSTS=$((POSTS + 1))
done
wait "${LOAD[@]}"
PEAK=$(sort -n "$DIR/rss.txt" | tail -1)
served() { awk '/requests in/ {print $1}' "$DIR/$1.txt"; }
awk -v s="$START" -v p="$PEAK" -v d="$DURATION" \
  'BEGIN {printf "resident memory: %.1f MB at start, %.1f MB at peak (%s s of mixed load)\n", s / 1024, p / 1024, d}'
printf 'served: %s standings, %s hand pages, %s sheet pages, %s stored hands, %s matches posted with a hand, %s sheets of 2,000 hands imported\n' \
  "$(served standings)" "$(served pages)" "$(served sheets)" "$(served hands)" "$POSTS" \
  "$(cat "$DIR/imports.txt" 2>/dev/null || echo 0)"
