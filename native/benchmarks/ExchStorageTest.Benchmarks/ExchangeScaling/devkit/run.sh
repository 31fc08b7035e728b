#!/bin/bash
# Exchange-mix scaling kit: runs `exchange-scaling` (the bench behind `./build.sh Bench exchange`)
# on a bare Linux x86-64 machine. No .NET needed: kit.tar.xz holds the engine and the bench, both published
# self-contained for linux-x64 into one folder (one copy of the runtime), under a fake repository root.
#   bash out/devkit/run.sh [counts] [sessionsPerDatabase] [seconds] [warmupSeconds] [repeats] [databaseMiB]
# defaults: 1,2,4,8,16 8 10 3 2 256. Env: OUT (results folder, default /tmp/devkit-out), EST_KIT_FORCE_DIR=1
# (skip loop devices: plain directories), EST_KIT_DIR_PARENT (default /dev/shm), EST_KIT_TIMEOUT (s, default 400).
set -u
KIT_SRC="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/devkit-out}"; mkdir -p "$OUT"
COUNTS="${1:-1,2,4,8,16}"; SESS="${2:-8}"; SECS="${3:-10}"; WARM="${4:-3}"; REPS="${5:-2}"; MIB="${6:-256}"
LIMIT="${EST_KIT_TIMEOUT:-400}"
WORK=/tmp/estkit
LOG="$OUT/run-log.txt"; FACTS="$OUT/machine-facts.txt"
T0=$(date +%s)
say() { echo "[kit $(( $(date +%s) - T0 ))s] $*"; }

# ---- machine facts (every probe bounded) ----
{
  echo "date: $(date -u)"; echo "nproc: $(nproc)"; echo "uname -r: $(uname -r)"; echo "uname -a: $(uname -a)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
  free -g; df -h /dev/shm /tmp /var/tmp 2>&1
  echo "loadavg: $(cat /proc/loadavg)"
  echo "tools: losetup=$(command -v losetup || echo none) mkfs.ext4=$(command -v mkfs.ext4 || echo none) mount=$(command -v mount || echo none) xz=$(command -v xz || echo none)"
  echo "/dev/loop-control: $([ -e /dev/loop-control ] && echo present || echo absent)"
  echo "io_uring: $(timeout 10 python3 -c '
import ctypes,os
libc=ctypes.CDLL(None,use_errno=True)
p=(ctypes.c_ubyte*120)()
fd=libc.syscall(425,4,p)
print("works (io_uring_setup fd %d)"%fd if fd>=0 else "refused: "+os.strerror(ctypes.get_errno()))
' 2>&1 || echo 'probe failed/timed out')"
  echo "io_uring_disabled sysctl: $(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo n/a)"
  echo "O_DIRECT on /dev/shm: $(timeout 10 python3 -c '
import os,mmap
f="/dev/shm/estkit-odirect"
try:
  fd=os.open(f,os.O_CREAT|os.O_WRONLY|os.O_DIRECT); b=mmap.mmap(-1,4096); os.write(fd,b); os.close(fd); print("works")
except OSError as e: print("refused:",e)
finally:
  try: os.unlink(f)
  except OSError: pass
' 2>&1)"
} > "$FACTS" 2>&1
cat "$FACTS"

# ---- can we build ext4-on-loop RAM volumes? (what the bench uses by default) ----
LOOP_OK=0
if [ "${EST_KIT_FORCE_DIR:-0}" != 1 ] && [ -e /dev/loop-control ] && command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null; then
  IMG=/dev/shm/estkit-probe.img; MP=/tmp/estkit-probe-mnt; mkdir -p "$MP"
  if timeout 20 truncate -s 64M "$IMG" && timeout 30 mkfs.ext4 -q -F "$IMG" >/dev/null 2>&1 \
     && DEV=$(timeout 20 losetup -f --show "$IMG" 2>/dev/null) && [ -n "$DEV" ]; then
    if timeout 20 mount "$DEV" "$MP" 2>/dev/null; then
      timeout 10 python3 -c '
import os,mmap
fd=os.open("'"$MP"'/x",os.O_CREAT|os.O_WRONLY|os.O_DIRECT); os.write(fd,mmap.mmap(-1,4096)); os.close(fd)' 2>/dev/null && LOOP_OK=1
      timeout 20 umount "$MP" || timeout 20 umount -l "$MP"
    fi
    timeout 20 losetup -d "$DEV"
  fi
  rm -f "$IMG"; rmdir "$MP" 2>/dev/null
fi
if [ "$LOOP_OK" = 1 ]; then
  MODE="ext4 on loop devices over /dev/shm files, direct I/O (the bench's default)"
  unset EXCHSTORAGETEST_BENCH_VOLUMES EXCHSTORAGETEST_BENCH_BUFFERED
else
  PARENT="${EST_KIT_DIR_PARENT:-/dev/shm}"
  export EXCHSTORAGETEST_BENCH_VOLUMES="dir:$PARENT"
  # The engine refuses tmpfs for direct I/O (it would measure the page cache): opt in to buffered there.
  FSTYPE=$(stat -f -c %T "$PARENT" 2>/dev/null)
  if [ "$FSTYPE" = tmpfs ] || [ "$FSTYPE" = ramfs ]; then export EXCHSTORAGETEST_BENCH_BUFFERED=1; B="BUFFERED I/O"; else unset EXCHSTORAGETEST_BENCH_BUFFERED; B="direct I/O"; fi
  MODE="FALLBACK: plain directories under $PARENT ($FSTYPE), $B (no usable loop device/ext4 mount${EST_KIT_FORCE_DIR:+; forced by EST_KIT_FORCE_DIR})"
fi
echo "volumes: $MODE" | tee -a "$FACTS"

# ---- unpack ----
rm -rf "$WORK"; mkdir -p "$WORK"
say "unpacking $(du -h "$KIT_SRC/kit.tar.xz" | cut -f1) to $WORK"
# tar -J needs the xz program; python3's lzma reads the same archive where xz is missing.
if command -v xz >/dev/null; then UNPACK=(tar -C "$WORK" -xJf "$KIT_SRC/kit.tar.xz"); else UNPACK=(python3 -c 'import sys,tarfile; tarfile.open(sys.argv[1],"r:xz").extractall(sys.argv[2])' "$KIT_SRC/kit.tar.xz" "$WORK"); fi
if ! timeout 180 "${UNPACK[@]}"; then echo "UNPACK FAILED" | tee -a "$FACTS"; exit 3; fi
BIN="$WORK/root/bin/linux-x64"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 HOME="${HOME:-/root}"
# Without ICU on a bare box the runtime would refuse to start; the bench needs no culture data.
[ -n "$(ls /usr/lib/x86_64-linux-gnu/libicuuc.so.* 2>/dev/null)" ] || export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
say "runtime check: $(timeout 30 "$BIN/exchstoragetest-engine" --version 2>&1 </dev/null | head -c 200 || true)"
# A kit made with a baseline commit: that engine is this folder with its own assemblies laid over (hard links for the
# shared runtime), and the bench pairs every Exchange run with it.
BASELINE=-
if [ -d "$WORK/root/baseline-overlay" ]; then
  cp -al "$BIN" "$WORK/root/bin/baseline"
  for f in "$WORK/root/baseline-overlay"/*; do [ "$(basename "$f")" = COMMIT ] || cp --remove-destination "$f" "$WORK/root/bin/baseline/"; done
  BASELINE="$WORK/root/bin/baseline/exchstoragetest-engine"
  say "baseline engine: commit $(cat "$WORK/root/baseline-overlay/COMMIT")"
fi

# ---- the measurement ----
say "exchange-scaling $COUNTS $SESS $SECS $WARM $REPS $MIB (limit ${LIMIT}s)"
# Own process group (setsid), so a timeout ends the bench AND the engine it is waiting on.
setsid "$BIN/ExchStorageTest.Benchmarks" exchange-scaling "$COUNTS" "$SESS" "$SECS" "$WARM" "$REPS" "$MIB" "$BASELINE" >"$OUT/bench-stdout.txt" 2>"$LOG" </dev/null &
BPID=$!
( sleep "$LIMIT"; echo timeout > "$WORK/timed-out"; kill -TERM -- -$BPID; sleep 10; kill -KILL -- -$BPID ) >/dev/null 2>&1 </dev/null &
WD=$!
wait $BPID; RC=$?
kill $WD 2>/dev/null; pkill -P $WD sleep 2>/dev/null
[ -f "$WORK/timed-out" ] && RC=124
sleep 1
say "bench exit $RC$([ $RC = 124 ] && echo ' (TIMED OUT: partial results only)')"
grep '^done:' "$LOG" | cut -c1-200
[ $RC = 0 ] || [ $RC = 1 ] || tail -c 3000 "$LOG"

# Leftovers when the bench was killed (its own cleanup did not run): mounts, loop devices, images, folders.
for m in /var/tmp/est-bench-xdb*; do [ -d "$m" ] || continue; mountpoint -q "$m" && { timeout 20 umount "$m" || timeout 20 umount -l "$m"; }; rm -rf "$m"; done
for d in $(losetup -a 2>/dev/null | grep est-bench-xdb | cut -d: -f1); do timeout 20 losetup -d "$d"; done
rm -rf /dev/shm/est-bench-xdb* "${EST_KIT_DIR_PARENT:-/dev/shm}"/est-bench-xdb* 2>/dev/null

# ---- results into $OUT (<= 8 files) ----
RES="$WORK/root/out/bench"
[ -f "$RES/exchange-scaling.md" ] && cp "$RES/exchange-scaling.md" "$OUT/"
if [ -d "$RES/exchange-results" ]; then
  if command -v xz >/dev/null; then timeout 120 tar -C "$RES" -cJf "$OUT/exchange-results.tar.xz" exchange-results; else timeout 120 tar -C "$RES" -czf "$OUT/exchange-results.tar.gz" exchange-results; fi
fi
ls -la "$OUT"
echo "=============== volumes: $MODE"
grep -v '^done:' "$LOG" | tail -c 1500
if [ -f "$RES/exchange-scaling.md" ]; then cat "$RES/exchange-scaling.md"; else echo "NO TABLE (bench exit $RC)"; tail -c 2000 "$OUT/bench-stdout.txt"; fi
say "total $(( $(date +%s) - T0 ))s"
exit $RC
