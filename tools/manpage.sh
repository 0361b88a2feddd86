#!/usr/bin/env bash
# manpage.sh PEERWAVE OUT - write the manual page peerwave(1) from the command's own help texts
# (`peerwave --help` and `peerwave COMMAND --help`), so the page and the command never disagree:
# a section a subcommand, the options every command shares once.
set -euo pipefail
pw=$1
out=$2
commands="sw dtw sat inthist heat sor tune run batch bfs"
# verbatim text for roff: backslashes doubled, a line's leading dot or quote escaped
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
{
  echo ".TH PEERWAVE 1 \"\" \"peerwave $("$pw" --version | head -1 | cut -d' ' -f2)\" \"User Commands\""
  echo ".SH NAME"
  echo "peerwave \\- wavefront computations (alignment, time warping, summed-area tables, Gauss-Seidel sweeps, your own recurrences) on GPUs and CPU threads"
  echo ".SH SYNOPSIS"
  echo ".B peerwave"
  echo ".I COMMAND"
  echo "[options] ..."
  echo ".SH DESCRIPTION"
  echo ".nf"
  "$pw" --help | roff
  echo ".fi"
  for c in $commands; do
    echo ".SH \"PEERWAVE $(echo $c | tr a-z A-Z)\""
    echo ".nf"
    "$pw" $c --help | sed '/^Common options:/,$d' | roff
    echo ".fi"
  done
  echo ".SH \"COMMON OPTIONS\""
  echo ".nf"
  "$pw" sat --help | sed -n '/^Common options:/,$p' | sed 1d | roff
  echo ".fi"
  echo ".SH BUILD"
  echo "$("$pw" --version | sed -n 's/^build: //p')" | roff
  echo ".SH SEE ALSO"
  echo "README.md (the manual), docs/EXTENDING.md (your own cells), docs/PERFORMANCE.md, docs/RELIABILITY.md in the source tree."
} > "$out"
