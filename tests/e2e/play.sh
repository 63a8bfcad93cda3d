#!/usr/bin/env bash
# SPDX-License-Identifier: Zlib
# End-to-end tests of `patrol play`: the real game window on a virtual X display (Xvfb),
# driven by xdotool as a player would, observed through what a player or a script sees:
# the `--log` lines on stdout, stderr, the progress file and screenshots (ImageMagick).
#
#   tests/e2e/play.sh PATROL [OUTDIR]      (ctest -R e2e_play runs it)
#
# PATROL is the patrol binary; OUTDIR (default: a temporary folder) keeps every game's
# stdout, stderr and screenshots, for a look after a failure. Exit 0: all passed; 1: a
# check failed (what and where on stderr); 77: Xvfb, xdotool or ImageMagick is missing
# (scripts/install-deps installs them), the test is skipped.
#
# The level is tests/data/e2e/corridor.map: a corridor to the exit with a guard in a side
# room who hears a walk (and catches the walker) but not a sneak (corridor.test proves it).
#
# Timing: nothing waits on a fixed sleep for the game to have done something; every step
# polls for its log line (or file) with a generous timeout, so a loaded machine is only
# slower. Sleeps are only the real time a check is about (the clock not moving for 1.5 s
# while the help is shown). About 50 s on an idle machine, 75 s on a busy one.
set -uo pipefail

SKIP=77
PATROL=${1:?usage: tests/e2e/play.sh PATROL [OUTDIR]}
OUT=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$HERE/../data/e2e
MAP=$DATA/corridor.map

for tool in Xvfb xdotool import convert identify; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "e2e: SKIP: $tool is missing (scripts/install-deps installs xvfb, xauth, xdotool, imagemagick)"
    exit $SKIP
  fi
done
case $PATROL in /*) ;; *) PATROL=$PWD/$PATROL ;; esac
[ -x "$PATROL" ] || { echo "e2e: error: $PATROL is not an executable" >&2; exit 1; }

if [ -n "$OUT" ]; then
  case $(cd "$OUT" 2>/dev/null && pwd) in /|"$HOME") echo "e2e: error: OUTDIR $OUT would be emptied" >&2; exit 1 ;; esac
  rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
else
  OUT=$(mktemp -d "${TMPDIR:-/tmp}/patrol-e2e.XXXXXX") || exit 1
fi
OUT=$(cd "$OUT" && pwd)

XVFB_PID=
GAME_PID=
cleanup() {
  if [ -n "$GAME_PID" ] && kill -0 "$GAME_PID" 2>/dev/null; then
    kill "$GAME_PID" 2>/dev/null
    wait "$GAME_PID" 2>/dev/null
  fi
  if [ -n "$XVFB_PID" ] && kill -0 "$XVFB_PID" 2>/dev/null; then
    kill "$XVFB_PID" 2>/dev/null
    wait "$XVFB_PID" 2>/dev/null
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now_ms() { echo $(($(date +%s%N) / 1000000)); }
T0=$(now_ms)
note() {
  local t=$(($(now_ms) - T0))
  printf 'e2e [%3d.%d s] %s\n' $((t / 1000)) $((t / 100 % 10)) "$*"
}

CUR=      # the running game's name: its files are $OUT/$CUR.out, .err, -*.png
fail() {
  echo "e2e: FAIL: $*" >&2
  if [ -n "$CUR" ]; then
    for f in "$OUT/$CUR.out" "$OUT/$CUR.err"; do
      [ -f "$f" ] && { echo "--- $f (last 30 lines)" >&2; tail -n 30 "$f" >&2; }
    done
  fi
  echo "e2e: the games' output and screenshots are in $OUT" >&2
  exit 1
}

# ---- the display ---------------------------------------------------------------------------
# A display of its own: the first number from 90 up with neither a socket nor a lock file,
# and if another process takes it first (Xvfb then exits), the next one.
start_xvfb() {
  local n tries=0
  for n in $(seq 90 140); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
    tries=$((tries + 1))
    [ $tries -le 5 ] || break
    Xvfb ":$n" -screen 0 1024x768x24 -nolisten tcp -noreset >"$OUT/xvfb.log" 2>&1 &
    XVFB_PID=$!
    local i
    for i in $(seq 100); do
      if ! kill -0 "$XVFB_PID" 2>/dev/null; then
        wait "$XVFB_PID" 2>/dev/null
        XVFB_PID=
        break
      fi
      # Answering, and still ours (an Xvfb that lost the race for the number exits).
      if [ -e "/tmp/.X11-unix/X$n" ] && DISPLAY=":$n" xdotool getmouselocation >/dev/null 2>&1 &&
        sleep 0.2 && kill -0 "$XVFB_PID" 2>/dev/null; then
        export DISPLAY=":$n"
        xdotool mousemove 0 0 # off the windows (centred): no pointer over a menu's rows
        return 0
      fi
      sleep 0.1
    done
    if [ -n "$XVFB_PID" ]; then # up but not answering in 10 s: give up on this one
      kill "$XVFB_PID" 2>/dev/null
      wait "$XVFB_PID" 2>/dev/null
      XVFB_PID=
    fi
  done
  echo "e2e: error: Xvfb did not start on a free display from :90 up ($OUT/xvfb.log)" >&2
  exit 1
}

# ---- the game ------------------------------------------------------------------------------
# game NAME [VAR=VALUE...] -- ARGS...: starts `patrol play ARGS --log` with those variables
# set, and waits until its window (WID) answers keys. The window is not final when it first
# shows: SDL makes it again for an OpenGL renderer, and again when the game turns that down
# for its software renderer (patrol play, make_renderer), so the keys go to the window found
# last until one answers: M (sound off, logged as "sound off"; it answers on every screen),
# then M again.
game() {
  CUR=$1
  shift
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" "$PATROL" play "$@" --log >"$OUT/$CUR.out" 2>"$OUT/$CUR.err" &
  GAME_PID=$!
  WID=
  MARK=0
  local n
  for _ in $(seq 60); do
    kill -0 "$GAME_PID" 2>/dev/null || fail "$CUR: patrol play exited before its window answered"
    WID=$(xdotool search --all --onlyvisible --pid "$GAME_PID" --name '^patrol' 2>/dev/null | tail -1)
    if [ -n "$WID" ]; then
      n=$(grep -c '^sound o' "$OUT/$CUR.out")
      keys m
      for _ in $(seq 10); do
        [ "$(grep -c '^sound o' "$OUT/$CUR.out")" -gt "$n" ] && break 2
        sleep 0.1
      done
    else
      sleep 0.5
    fi
  done
  [ "$(grep -c '^sound o' "$OUT/$CUR.out")" -gt 0 ] || fail "$CUR: no window titled 'patrol' answered a key in 30 s"
  n=$(grep -c '^sound o' "$OUT/$CUR.out")
  keys m
  for _ in $(seq 100); do
    [ "$(grep -c '^sound o' "$OUT/$CUR.out")" -gt "$n" ] && break
    sleep 0.1
  done
  note "$CUR: window $WID"
}

# wait_for REGEX [FILE [SECONDS]]: until a line of FILE (default: the game's stdout, from the
# last key press sent on: MARK) matches the extended REGEX; the line is left in $LINE.
MARK=0
wait_for() {
  local re=$1 file=${2:-$OUT/$CUR.out} secs=${3:-30} from=1
  [ "$file" = "$OUT/$CUR.out" ] && from=$((MARK + 1))
  for _ in $(seq $((secs * 10))); do
    LINE=$(tail -n +$from "$file" 2>/dev/null | grep -E -m1 -- "$re")
    [ -n "$LINE" ] && return 0
    if [ -n "$GAME_PID" ] && ! kill -0 "$GAME_PID" 2>/dev/null; then
      LINE=$(tail -n +$from "$file" 2>/dev/null | grep -E -m1 -- "$re")
      [ -n "$LINE" ] && return 0
      fail "$CUR: the game ended before a line matching '$re' in $file"
    fi
    sleep 0.1
  done
  fail "$CUR: no line matching '$re' in $file within $secs s"
}

# xdotool's calls and their errors go to $OUT/xdotool.log.
xdo() {
  echo "$CUR: xdotool $*" >>"$OUT/xdotool.log"
  xdotool "$@" >>"$OUT/xdotool.log" 2>&1 || echo "$CUR: xdotool failed: status $?" >>"$OUT/xdotool.log"
}
# A press starts a new MARK: what it does is logged after it. A release does not (the held
# key's effect may be logged already).
mark() { MARK=$(wc -l <"$OUT/$CUR.out"); }
keys() { mark; xdo key --window "$WID" --delay 80 "$@"; }
down() { mark; xdo keydown --window "$WID" "$@"; }
up() { xdo keyup --window "$WID" "$@"; }

# Esc, then the game must end by itself with status 0 and print the player's tile. The game
# quits on the key press, so the release may find no window (xdotool then reports an X error);
# a press that got lost is sent again after 3 s.
quit_game() {
  local i
  for i in $(seq 150); do
    [ $((i % 30)) -eq 1 ] && keys Escape
    kill -0 "$GAME_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$GAME_PID" 2>/dev/null && fail "$CUR: still running 15 s after Esc"
  # When the window had the focus xdotool pressed Esc through XTest, and its release found no
  # window: the server would keep Esc down and the next game see it held (and quit).
  xdo keyup Escape
  wait "$GAME_PID"
  local rc=$?
  GAME_PID=
  [ $rc -eq 0 ] || fail "$CUR: exit status $rc after Esc"
  grep -qE '^player [0-9]+,[0-9]+$' "$OUT/$CUR.out" || fail "$CUR: no 'player X,Y' line on exit"
  note "$CUR: quit, status 0, $(tail -n 1 "$OUT/$CUR.out")"
}

shot() { import -window "$WID" "$OUT/$CUR-$1.png" || fail "$CUR: screenshot $1 failed"; }
# The HUD clock: the top bar's right end (the status line is right-aligned, the clock last).
clock_sig() { convert "$OUT/$CUR-$1.png" -gravity NorthEast -crop 10%x4%+0+0 +repage -format '%#' info:; }

# "best time 0:05.9 ..." -> tenths of a second (59)
tenths_of() {
  local m s d
  read -r m s d <<<"$(printf '%s\n' "$1" | sed -nE 's/^best time ([0-9]+):([0-9]{2})\.([0-9]).*/\1 \2 \3/p')"
  [ -n "$d" ] || return 1
  echo $(((10#$m * 60 + 10#$s) * 10 + 10#$d))
}

# The progress file's level lines as "BEST_MS GHOST CALM NO_STONES", one a line; status 1 (and
# why on stderr) unless the file is the header and N (default 1) level lines as documented.
progress_lines() {
  local f=$1/patrol/patrol/progress.txt n=${2:-1}
  [ -f "$f" ] || { echo "no progress file $f" >&2; return 1; }
  head -n 1 "$f" | grep -qx 'patrol-progress 1' || { echo "$f does not start with 'patrol-progress 1'" >&2; return 1; }
  if [ "$(grep -c '^level ' "$f")" -ne "$n" ] || [ "$(wc -l <"$f")" -ne $((n + 1)) ]; then
    echo "$f is not a header and $n level line(s): $(cat "$f")" >&2
    return 1
  fi
  local re='^level [0-9a-f]{16} best_ms ([0-9]+) ghost ([01]) calm ([01]) no_stones ([01])$'
  if [ "$(grep -cE "$re" "$f")" -ne "$n" ]; then
    echo "$f: a level line is not as documented: $(cat "$f")" >&2
    return 1
  fi
  sed -nE "s/$re/\\1 \\2 \\3 \\4/p" "$f"
}

# Sneak (Ctrl held) east along the corridor to the exit; the escape's log line in $LINE.
sneak_to_exit() {
  down ctrl
  sleep 0.2
  down Right
  wait_for '^(escaped [0-9]+|caught .*)$' "" 30
  up Right
  up ctrl
  case $LINE in caught*) fail "$CUR: $LINE (heard: was the sneak key held?)" ;; esac
}

# ---- the scenarios -------------------------------------------------------------------------

# 1. Sneak past the guard and throw a stone, win; the best time is saved (progress file in
#    $XDG_DATA_HOME) and shown. A second game on the same save shows the saved best.
scenario_win() {
  local data=$OUT/win-data
  mkdir -p "$data"
  game win XDG_DATA_HOME="$data" SDL_AUDIODRIVER=dummy -- "$MAP"
  shot start
  keys space                              # facing west: the stone lands on 1,1, unheard
  wait_for '^throw 1,1$'
  sneak_to_exit
  wait_for '^best time [0-9]+:[0-9]{2}\.[0-9] \(new\)$'
  local best=$LINE
  sleep 0.3
  shot won
  grep -qE '^(spotted|caught) ' "$OUT/win.out" && fail "win: a guard noticed the sneak: $(grep -E '^(spotted|caught) ' "$OUT/win.out" | head -1)"
  grep -qx 'move 13,1' "$OUT/win.out" || fail "win: the player never reached the exit 13,1"
  quit_game
  local p
  p=$(progress_lines "$data") || fail "win: the progress file (above)"
  local ms ghost calm no_stones t
  read -r ms ghost calm no_stones <<<"$p"
  t=$(tenths_of "$best") || fail "win: no time in '$best'"
  if [ $((ms / 100 - t)) -lt -1 ] || [ $((ms / 100 - t)) -gt 1 ]; then
    fail "win: saved best_ms $ms, shown '$best'"
  fi
  [ "$ghost $calm $no_stones" = "1 1 0" ] ||
    fail "win: badges ghost $ghost calm $calm no_stones $no_stones, expected 1 1 0 (unseen, no alarm, a stone thrown)"
  # The win banner was drawn: the screen's middle changed from the start.
  [ "$(convert "$OUT/win-start.png" -gravity Center -crop 50%x30%+0+0 +repage -format '%#' info:)" != \
    "$(convert "$OUT/win-won.png" -gravity Center -crop 50%x30%+0+0 +repage -format '%#' info:)" ] ||
    fail "win: no banner drawn (the window's middle is as at the start)"
  note "win: escaped unseen with a stone thrown; '$best'; progress: best_ms $ms ghost 1 calm 1 no_stones 0"

  # The same level again, in a new game: the banner compares with the saved best.
  game win-again XDG_DATA_HOME="$data" SDL_AUDIODRIVER=dummy -- "$MAP"
  sneak_to_exit
  wait_for '^best time '
  local again=$LINE t2 ms2
  t2=$(tenths_of "$again") || fail "win-again: no time in '$again'"
  quit_game
  p=$(progress_lines "$data") || fail "win-again: the progress file (above)"
  read -r ms2 ghost calm no_stones <<<"$p"
  if [ $((t2 * 100)) -lt "$ms" ] && [ "$ms2" -lt "$ms" ]; then
    printf '%s\n' "$again" | grep -q 'NEW BEST!' || fail "win-again: a faster time without NEW BEST!: '$again'"
  else
    local want
    want=$(printf '%d:%02d.%d' $((ms / 60000)) $((ms / 1000 % 60)) $((ms / 100 % 10)))
    printf '%s\n' "$again" | grep -q "best $want\$" || fail "win-again: '$again' does not show the saved best $want"
    [ "$ms2" -eq "$ms" ] || fail "win-again: a slower time changed the saved best ($ms -> $ms2)"
  fi
  [ "$no_stones" = 1 ] || fail "win-again: no_stones not earned by a round without a stone (got $no_stones)"
  [ "$ghost" = 1 ] || fail "win-again: the ghost badge was lost"
  note "win-again: '$again'; the saved best read back; no_stones earned"
}

# 2. The clock starts at the first move, and pause and help stop it: the HUD clock's pixels
#    do not change before the first move, while the game is paused (P) or while the help (F1)
#    is shown, and do while it runs; and the escape's time is at most the real time since the
#    game started less the time paused and in the help.
# stopped KEY ON OFF NAME: KEY, then 2 s in that state (the clock's pixels the same 1.5 s
# apart), then KEY again; $STOPPED_MS gets the time between the two log lines, $STOPPED 1
# when the clock stood still.
stopped() {
  local key=$1 on=$2 off=$3 name=$4 t0
  keys "$key"
  wait_for "^$on\$"
  t0=$(now_ms)
  sleep 0.3
  shot "$name"0
  sleep 1.5
  shot "$name"1
  sleep 0.2
  STOPPED=0
  [ "$(clock_sig "$name"0)" = "$(clock_sig "$name"1)" ] && STOPPED=1
  keys "$key"
  wait_for "^$off\$"
  STOPPED_MS=$(($(now_ms) - t0))
}
scenario_clock() {
  local data=$OUT/clock-data
  mkdir -p "$data"
  local t_start
  t_start=$(now_ms)
  game clock XDG_DATA_HOME="$data" SDL_AUDIODRIVER=dummy -- "$MAP"
  sleep 0.3
  shot idle0
  sleep 0.6
  shot idle1
  [ "$(clock_sig idle0)" = "$(clock_sig idle1)" ] || fail "clock: the clock ran before the first move"
  keys Right                                # the first move (the clock runs from here)
  wait_for '^move 3,1$'
  sleep 0.3
  shot run0
  sleep 0.6
  shot run1
  [ "$(clock_sig run0)" != "$(clock_sig run1)" ] || fail "clock: the HUD clock did not move in 0.6 s of play"

  stopped p paused resumed pause
  [ $STOPPED = 1 ] || fail "clock: the clock moved while paused"
  local paused_ms=$STOPPED_MS
  stopped F1 'help on' 'help off' help
  local help_ok=$STOPPED help_ms=$STOPPED_MS
  sleep 0.3
  shot run2
  sleep 0.6
  shot run3
  [ "$(clock_sig run2)" != "$(clock_sig run3)" ] || fail "clock: the clock did not run again after the help"

  sneak_to_exit
  local real_ms=$(($(now_ms) - t_start))
  wait_for '^best time '
  local t
  t=$(tenths_of "$LINE") || fail "clock: no time in '$LINE'"
  quit_game
  # Real time since the launch, less the time stopped, bounds the clock; 1 s for the log
  # lines' polling and the keys' way to the game. A stop that counted adds 2 s.
  [ "$help_ok" = 1 ] || fail "clock: the clock moved while the help was shown"
  local max=$(((real_ms - paused_ms - help_ms) / 100 + 10))
  [ "$t" -le $max ] ||
    fail "clock: escaped at $t tenths of a second, $((real_ms / 100)) since the launch: the pause ($((paused_ms / 100))) or the help ($((help_ms / 100))) was counted"
  note "clock: stood still while paused and in the help; escaped at $t tenths of a second, $((real_ms / 100)) since the launch"
}

# 3. A corrupt progress file: the game starts and plays, reports the file (file:line:
#    error), keeps it as progress.txt.bad, and writes a new one at the escape.
scenario_corrupt() {
  local data=$OUT/corrupt-data
  local dir=$data/patrol/patrol
  mkdir -p "$dir"
  printf 'patrol-progress 1\nlevel not-a-hash best_ms soon\n' >"$dir/progress.txt"
  cp "$dir/progress.txt" "$OUT/corrupt-original.txt"
  game corrupt XDG_DATA_HOME="$data" SDL_AUDIODRIVER=dummy -- "$MAP"
  sneak_to_exit
  wait_for '^best time '
  wait_for 'progress\.txt:2: error: .*kept as .*progress\.txt\.bad' "$OUT/corrupt.err" 10
  quit_game
  [ -f "$dir/progress.txt.bad" ] || fail "corrupt: no progress.txt.bad"
  cmp -s "$dir/progress.txt.bad" "$OUT/corrupt-original.txt" || fail "corrupt: progress.txt.bad is not the old file"
  local p
  p=$(progress_lines "$data") || fail "corrupt: the new progress file (above)"
  note "corrupt: reported ($(sed -E 's/^patrol play: //' <<<"$LINE" | cut -c1-90)...), kept aside, new file written"
}

# 4. No audio device: SDL's dummy driver, then a driver that cannot open: the game plays,
#    the sound keys answer, and it says why it is silent (one line on stderr).
scenario_audio() {
  local drv
  for drv in dummy e2e_no_such_driver; do
    local data=$OUT/audio-$drv-data
    mkdir -p "$data"
    game "audio-$drv" XDG_DATA_HOME="$data" SDL_AUDIODRIVER=$drv -- "$MAP"
    keys Right
    wait_for '^move 3,1$'
    keys m
    wait_for '^sound off$'
    keys m
    wait_for '^sound on$'
    down Right
    wait_for '^move 6,1$'
    up Right
    quit_game
    if [ $drv = dummy ]; then
      ! grep -q 'no sound' "$OUT/$CUR.err" || fail "$CUR: '$(grep 'no sound' "$OUT/$CUR.err")' with the dummy driver"
    else
      grep -q '^patrol play: no sound: ' "$OUT/$CUR.err" || fail "$CUR: no 'patrol play: no sound: ...' line on stderr"
    fi
    note "$CUR: played, sound keys answered${drv:+ (SDL_AUDIODRIVER=$drv)}"
  done
}

# 5. (1 again, from the title screen) The title, the level select and a level list (--levels): Enter on the title,
#    Down to the second level (e2e yard), Enter, walk to its exit; the result screen, then
#    back to the level select, which now shows the yard's best time and badges (its row's
#    pixels changed); Up to the corridor, a stone and a sneak to its exit; the progress file
#    holds both levels; Esc back to the list, the title, and out.
scenario_levels() {
  local data=$OUT/levels-data p
  mkdir -p "$data"
  game levels XDG_DATA_HOME="$data" SDL_AUDIODRIVER=dummy -- --levels "$DATA/levels.txt"
  shot title
  keys Return
  wait_for '^screen levels$'
  sleep 0.5
  shot select0
  sleep 0.5
  shot select1
  # The second row (the yard's; not selected, so not pulsing) stands still: the same pixels.
  [ "$(row2_sig select0)" = "$(row2_sig select1)" ] || fail "levels: the level select's second row changed by itself"
  keys Down
  sleep 0.3
  keys Return
  wait_for '^level 2 .*yard\.map$'
  down Right
  wait_for '^(escaped [0-9]+|caught .*)$'
  up Right
  wait_for '^screen result$'
  sleep 0.3
  shot result
  p=$(progress_lines "$data" 1) || fail "levels: the progress file after the yard (above)"
  [ "${p#* }" = "1 1 1" ] || fail "levels: the yard's badges are '${p#* }', expected ghost, calm and no stones"
  keys Escape
  wait_for '^screen levels$'
  keys Up
  sleep 0.5
  shot select2
  [ "$(row2_sig select0)" != "$(row2_sig select2)" ] || fail "levels: the yard's row looks the same after its escape (no best time shown)"

  keys Return
  wait_for '^level 1 .*corridor\.map$'
  keys space
  wait_for '^throw 1,1$'
  sneak_to_exit
  wait_for '^escaped "e2e corridor" in [0-9.]+ s'
  wait_for '^screen result$'
  p=$(progress_lines "$data" 2) || fail "levels: the progress file after both levels (above)"
  [ "$(printf '%s\n' "$p" | cut -d' ' -f2- | sort | tr '\n' ' ')" = "1 1 0 1 1 1 " ] ||
    fail "levels: badges $(printf '%s\n' "$p" | cut -d' ' -f2- | tr '\n' ';'), expected 1 1 0 (corridor) and 1 1 1 (yard)"
  keys Escape
  wait_for '^screen levels$'
  keys Escape
  wait_for '^screen title$'
  quit_game
  grep -qx 'screen quit' "$OUT/levels.out" || fail "levels: no 'screen quit' on the way out"
  note "levels: title -> level select -> yard -> result -> level select (best shown) -> corridor (stone, sneak) -> out"
}
# The level select's second row (of two): a band from 59% to 64% of the window's height, the
# middle half of its width (the list is centred).
row2_sig() {
  local w h
  read -r w h <<<"$(identify -format '%w %h' "$OUT/$CUR-$1.png")"
  convert "$OUT/$CUR-$1.png" -crop "$((w / 2))x$((h * 5 / 100))+$((w / 4))+$((h * 59 / 100))" +repage -format '%#' info:
}

# ---- main ----------------------------------------------------------------------------------
export SDL_VIDEODRIVER=x11         # ctest's environment may name the dummy driver
unset WAYLAND_DISPLAY
export ASAN_OPTIONS=${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0 # X11's libraries leak
start_xvfb
note "Xvfb on $DISPLAY; output in $OUT"
"$PATROL" test -q "$DATA/corridor.test" >"$OUT/level-test.out" 2>&1 ||
  { cat "$OUT/level-test.out" >&2; fail "the e2e level does not do what the test needs (corridor.test)"; }

scenarios=${E2E_SCENARIOS:-win clock corrupt audio levels}
for s in $scenarios; do
  "scenario_$s"
done
note "all passed ($scenarios)"
