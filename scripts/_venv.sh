# Shared by scripts/run and scripts/test: make .venv (Python >= 3.11) and install tatlock into it.
# Usage: source scripts/_venv.sh [EXTRAS]   e.g. "test"
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=$root/.venv
python=${PYTHON:-python3}
if [[ ! -x $venv/bin/python ]]; then
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "tatlock needs Python 3.11 or newer (found $("$python" --version 2>&1)); set PYTHON=..." >&2; exit 2; }
  echo "creating $venv" >&2
  "$python" -m venv "$venv"
fi
extras=${1:-}
stamp=$venv/.installed-${extras:-base}
# reinstall only when the project definition changed (fast re-runs)
if [[ ! -f $stamp || $root/pyproject.toml -nt $stamp ]]; then
  echo "installing tatlock${extras:+[$extras]} into $venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$root${extras:+[$extras]}"
  touch "$stamp"
fi
