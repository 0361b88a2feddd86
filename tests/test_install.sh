#!/usr/bin/env bash
# test_install.sh BUILD_DIR SOURCE_DIR - the installed library as a user meets it: `cmake --install`
# into a temporary prefix; the shared library exports exactly the functions the public headers
# declare; examples/use_library.c built outside the tree through find_package(PeerWave) (shared
# and static) and through pkg-config, each run and its answer checked, and the README's example;
# the Debian package built
# with CPack and unpacked into a clean directory tree, its command run.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# GATTACAGATTACA against TTACAGAT (match 2, mismatch -1, gaps 1): TTACAGAT is a[2..9] (its first
# and only occurrence), 8 matches x 2
want="score 16, ends at a[9] and b[7]"

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" || fail "cmake --install: $(tail -3 "$tmp/install.log")"
# every header of include/ installed (peerwave_task_cell.h was left out once)
for h in "$src"/include/*.h; do
  [ -f "$tmp/prefix/include/$(basename "$h")" ] || fail "$(basename "$h") is not installed"
done
echo "ok: $(ls "$src"/include/*.h | wc -l) headers installed"
lib=$(ls "$tmp"/prefix/lib*/libpeerwave.so.[0-9]*.[0-9]*.[0-9]* | head -1)
[ -f "$lib" ] || fail "no versioned libpeerwave.so installed"
libdir=$(dirname "$lib")
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libpeerwave.so.0 ] || fail "soname '$soname'"
# exports: the declarations `type pw_name(` at the start of a line of the public headers
grep -ohE '^[a-z_][a-z0-9_ *]*[^a-z0-9_]pw_[a-z0-9_]+\(' "$src/include/peerwave.h" "$src/include/peerwave_runtime.h" "$src/include/peerwave_align.h" "$src/include/peerwave_batch.h" "$src/include/peerwave_tasks.h" "$src/include/peerwave_dist.h" |
  grep -oE 'pw_[a-z0-9_]+\($' | tr -d '(' | sort -u > "$tmp/api"
nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | grep -v '^PEERWAVE_' | sort -u > "$tmp/exported"
diff "$tmp/api" "$tmp/exported" > "$tmp/diff" || fail "exports differ from the headers' API: $(head -5 "$tmp/diff" | tr '\n' ' ')"
echo "ok: $(wc -l < "$tmp/api") functions exported, soname $soname"

# the static library defines no global symbol outside the library's names (a user's own
# job_describe() collided with an internal one): pw_..., C++'s mangled ones, the compiler's
nm -g --defined-only "$libdir/libpeerwave.a" 2>/dev/null | awk '$2 ~ /^[TDBRVWGS]$/ {print $3}' |
  { grep -vE '^(pw_|PW_|_pw|_Z|DW\.ref\.)' || true; } | sort -u > "$tmp/static_names"
[ ! -s "$tmp/static_names" ] || fail "libpeerwave.a defines $(wc -l < "$tmp/static_names") names outside pw_: $(head -5 "$tmp/static_names" | tr '\n' ' ')"
echo "ok: libpeerwave.a defines pw_ names only"

for kind in shared static cxx-static; do
  static=$([ $kind = shared ] && echo OFF || echo ON)
  cxx=$([ $kind = cxx-static ] && echo ON || echo OFF)
  cmake -S "$src/tests/install" -B "$tmp/consumer-$kind" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DPEERWAVE_STATIC=$static \
    -DPEERWAVE_CXX=$cxx \
    > "$tmp/consumer-$kind.log" 2>&1 || fail "find_package ($kind): $(tail -5 "$tmp/consumer-$kind.log")"
  cmake --build "$tmp/consumer-$kind" >> "$tmp/consumer-$kind.log" 2>&1 || fail "build ($kind): $(tail -5 "$tmp/consumer-$kind.log")"
  out=$(LD_LIBRARY_PATH="$libdir" "$tmp/consumer-$kind/use_library")
  case "$out" in "$want"*) echo "ok: find_package, $kind: $out" ;; *) fail "find_package $kind printed: $out" ;; esac
done
if ldd "$tmp/consumer-static/use_library" | grep -q libpeerwave; then fail "the static build needs libpeerwave.so"; fi

export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc "$src/examples/use_library.c" -o "$tmp/pc_shared" $(pkg-config --cflags --libs peerwave) || fail "pkg-config build"
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/pc_shared")
case "$out" in "$want"*) echo "ok: pkg-config, shared: $out" ;; *) fail "pkg-config build printed: $out" ;; esac
cc "$src/examples/use_library.c" -o "$tmp/pc_static" $(pkg-config --cflags peerwave) "$libdir/libpeerwave.a" \
  $(pkg-config --libs --static peerwave | sed 's/-lpeerwave//') || fail "pkg-config --static build"
out=$("$tmp/pc_static")
case "$out" in "$want"*) echo "ok: pkg-config, static: $out" ;; *) fail "pkg-config static build printed: $out" ;; esac

# the README's example ("Use the library"), as printed there
sed -n '/^    #include <peerwave.h>/,/^    }$/p' "$src/README.md" | sed 's/^    //' > "$tmp/readme.c"
[ -s "$tmp/readme.c" ] || fail "no example in README.md"
cc -std=c11 -Wall -Werror "$tmp/readme.c" -o "$tmp/readme" $(pkg-config --cflags --libs peerwave) || fail "the README's example does not build"
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/readme")
case "$out" in "$want"*) echo "ok: the README's example: $out" ;; *) fail "the README's example printed: $out" ;; esac

(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" > cpack.log 2>&1) || fail "cpack: $(tail -5 "$tmp/cpack.log")"
deb=$(ls "$tmp"/peerwave_*.deb)
dpkg-deb -f "$deb" Package Version Depends | sed 's/^/deb: /'
# every shared library the package's library and command need comes from a package it depends on
# (libmpi's package was missing)
for so in $(readelf -d "$lib" "$build/peerwave" 2>/dev/null | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sort -u); do
  case "$so" in libc.so* | libm.so* | ld-linux* | libpthread* | libdl* | libgcc_s* | libstdc++* | libcuda* | libcudart* | libnvrtc* | libnccl*) continue ;; esac
  path=$(ldd "$lib" "$build/peerwave" 2>/dev/null | awk -v s="$so" '$1 == s {print $3; exit}' || true)
  [ -n "$path" ] || continue
  owner=$({ dpkg -S "$(readlink -f "$path")" 2>/dev/null || true; } | head -1 | cut -d: -f1)
  # (merged /usr: a file under /usr/lib may be registered under /lib)
  [ -n "$owner" ] || owner=$({ dpkg -S "$(readlink -f "$path" | sed 's|^/usr||')" 2>/dev/null || true; } | head -1 | cut -d: -f1)
  [ -z "$owner" ] || dpkg-deb -f "$deb" Depends | grep -qw "$owner" || fail "the package needs $so ($owner) and does not depend on $owner"
done
dpkg-deb -x "$deb" "$tmp/root"
for f in usr/bin/peerwave usr/include/peerwave.h usr/lib/x86_64-linux-gnu/pkgconfig/peerwave.pc usr/share/man/man1/peerwave.1; do
  [ -e "$tmp/root/$f" ] || [ -e "$tmp/root/${f/x86_64-linux-gnu\//}" ] || fail "the package lacks $f"
done
# the manual page: a section a subcommand, and it renders without warnings
sections=$(grep -c '^\.SH "PEERWAVE ' "$tmp/root/usr/share/man/man1/peerwave.1")
[ "$sections" -ge 8 ] || fail "peerwave.1 has $sections command sections"
if command -v groff > /dev/null; then
  warn=$(groff -man -Tascii -ww "$tmp/root/usr/share/man/man1/peerwave.1" 2>&1 > /dev/null | head -3)
  [ -z "$warn" ] || fail "peerwave.1: $warn"
fi
ver=$("$tmp/root/usr/bin/peerwave" --version 2>&1 | head -1)
echo "ok: $(basename "$deb") unpacked; its peerwave --version: $ver"
echo "1 passed, 0 failed"
