#!/usr/bin/env bash
# Run from the repository after `cargo build --release -p duel-cli`; prints one line per
# puzzle and the totals (docs/BENCHMARKS.md "Xiangqi").
# Each puzzle of mate-puzzles.txt searched for 3 s by `duel analyze xiangqi`: mate found (a
# "win in N" score) and first move equal to the published one.
f=${1:-data/xiangqi/mate-puzzles.txt}
total=0; mates=0; same=0; exact=0
while IFS='|' read -r id fen first plies rest; do
  fen=$(echo "$fen" | xargs); first=$(echo "$first" | xargs); plies=$(echo "$plies" | xargs)
  out=$(./target/release/duel analyze xiangqi -p "$fen" --time 3s 2>&1 | tail -1)
  mv=$(echo "$out" | sed -n 's/^best move \([a-i][0-9][a-i][0-9]\).*/\1/p')
  n=$(echo "$out" | sed -n 's/.*score win in \([0-9]*\).*/\1/p')
  total=$((total+1))
  [ -n "$n" ] && mates=$((mates+1))
  [ "$mv" = "$first" ] && same=$((same+1))
  [ -n "$n" ] && [ "$n" = "$plies" ] && exact=$((exact+1))
  echo "$id $first $plies -> $mv ${n:-none}"
done < <(grep -v '^#' "$f" | grep -v '^\s*$')
echo "puzzles $total, mates found $mates, of the stated length $exact, first move as published $same"
