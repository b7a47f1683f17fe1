#!/usr/bin/env bash
# Run N identical Nova (daphne) processes on one port, one SO_REUSEPORT socket each.
#   scripts/run_cluster.sh 4                 # 4 processes on 127.0.0.1:8000
#   HOST=0.0.0.0 PORT=9000 scripts/run_cluster.sh 2 --migrate
# Production environment: DATABASE_URL (PostgreSQL), REDIS_URL, SECRET_KEY, ALLOWED_HOSTS,
# MODELS_FILE, DEBUG=false. See scripts/cluster.py and deploy/ for a proxy in front.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" scripts/cluster.py "$@"
