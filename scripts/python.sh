#!/usr/bin/env bash
# Prints the Python the project's venv is made from (`make setup`, `make run`):
# - $PYTHON when it is set;
# - else Debian's python3.11, where it can make a venv (its venv module is installed when apt is there);
# - else python3 on the PATH.
#
# Debian builds its Python with profile-guided and link-time optimisation and links the interpreter statically.
# A Python built from source without them (pyenv's default: --enable-shared, no PGO) spends ~1.1x the CPU on each
# tap of the app, measured tap by tap with `bench/paired.py --python` (bench/README.md, twentieth stop).
set -euo pipefail

if [ -n "${PYTHON:-}" ]; then
  echo "$PYTHON"
  exit 0
fi
debian=/usr/bin/python3.11
makes_venvs() { "$debian" -c 'import ensurepip, venv' >/dev/null 2>&1; }
if [ -x "$debian" ]; then
  if ! makes_venvs && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi  # never a password prompt: without it, python3 below
    {
      $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3.11-venv
    } >/dev/null 2>&1 </dev/null || true
  fi
  if makes_venvs; then
    echo "$debian"
    exit 0
  fi
fi
echo python3
