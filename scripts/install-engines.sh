#!/usr/bin/env bash
# Installs the sparring partners duel is measured against (Debian/Ubuntu packages), for
# `duel match` and the strength figures in docs/BENCHMARKS.md. The tests that play one skip
# with a message when it is absent, except under DUEL_ENGINE_TESTS=require: `.ci/run` installs
# fairymax, phalanx and sjaakii and sets it, so CI tests the xboard path on every run.
#
#   UCI:    stockfish (15.1; UCI_LimitStrength/UCI_Elo 1350-2850), glaurung, toga2,
#           ethereal-chess
#   xboard: fairymax, phalanx, sjeng, gnuchess, hoichess
#   xiangqi: fairy-stockfish (UCI, UCI_Variant xiangqi), sjaakii (xboard)
#
# Usage: scripts/install-engines.sh [PACKAGE...]   (default: all of the above)
set -euo pipefail

packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
  packages=(stockfish glaurung toga2 ethereal-chess fairymax phalanx sjeng gnuchess hoichess
            fairy-stockfish sjaakii)
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi

$sudo apt-get update -qq
# Debian installs the engines under /usr/games; put it on PATH for the tools that look there.
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}"

for p in "${packages[@]}"; do
  bin="$p"
  case "$p" in
    ethereal-chess) bin=ethereal ;;
    fairy-stockfish) bin=fairy-stockfish ;;
  esac
  if command -v "$bin" >/dev/null 2>&1 || [ -x "/usr/games/$bin" ]; then
    echo "installed: $p ($(command -v "$bin" || echo "/usr/games/$bin"))"
  else
    echo "installed: $p (binary name differs; see dpkg -L $p)"
  fi
done
