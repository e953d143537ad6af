#!/usr/bin/env bash
# Instructions a hand, in-engine and end to end, over each game's 100 full random legal hands (the
# replay bench's `random` set), counted by valgrind's callgrind (installed from Debian when
# missing): the machine's load does not change a count, where the replay bench's times move by a
# third between two runs on a shared machine. For comparing two builds on a change of a few
# percent; the replay bench gives the times.
#
#   bash benches/instructions.sh                       # every game
#   bash benches/instructions.sh malilla court-piece   # some
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq valgrind >/dev/null
fi
cargo build --release --quiet --example instructions
BIN=target/release/examples/instructions

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
if [ "$#" -gt 0 ]; then games=("$@"); else mapfile -t games < <("$BIN" games); fi
printf '%-26s %8s %22s %22s\n' game hands "in-engine instr/hand" "end-to-end instr/hand"
for game in "${games[@]}"; do
  line=$(printf '%-26s' "$game")
  for path in in-engine end-to-end; do
    hands=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
      --toggle-collect="instructions::${path//-/_}" "$BIN" "$game" "$path" 2>"$LOG")
    collected=$(awk '/Collected :/ {print $NF}' "$LOG")
    [ "$path" = in-engine ] && line+=$(printf ' %8s' "$hands")
    line+=$(printf ' %22.0f' "$((collected / hands))")
  done
  echo "$line"
done
