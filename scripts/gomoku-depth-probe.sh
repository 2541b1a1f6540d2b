#!/bin/bash
# The depth and speed a Gomocup brain reaches in 1 s (15x15 freestyle) from 3 and from 8
# stones: its last MESSAGE line with "depth" for each (duel's and Rapfi's both print one).
# Usage: scripts/gomoku-depth-probe.sh "target/release/duel gomocup"
#        scripts/gomoku-depth-probe.sh /work/engines/rapfi/pbrain-rapfi
set -u
for pos in "7,7,2
8,8,1
8,7,2" "7,7,2
8,8,1
8,7,2
6,6,1
9,9,2
6,8,1
7,9,2
8,10,1"; do
    { echo "START 15"; echo "INFO timeout_turn 1000"; echo "INFO timeout_match 0"
      echo "INFO rule 0"; echo BOARD; echo "$pos"; echo DONE; sleep 1.5; echo END; } |
        $1 2>&1 | grep -i "depth" | tail -1
done
