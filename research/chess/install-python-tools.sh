#!/usr/bin/env bash
# Installs the Python packages the analysis scripts use (research/chess/loss-phases.py): python-chess,
# to read PGN and drive a UCI engine. Nothing in the build or the test suite needs them.
#
# Usage: research/chess/install-python-tools.sh
set -euo pipefail
python3 -m pip install --quiet --user "chess==1.11.2" 2>/dev/null \
  || python3 -m pip install --quiet --break-system-packages --user "chess==1.11.2" \
  || python3 -m pip install --quiet "chess==1.11.2"
python3 -c "import chess; print('installed: python-chess', chess.__version__)"
