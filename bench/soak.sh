#!/usr/bin/env bash
# Soak test (issue 12): one datastore shared by many processes at once -- local backups
# ('jpbs backup'), backups through a 'jpbs serve' process on loopback, 'jpbs gc' with a zero
# cutoff, 'jpbs prune' and 'jpbs verify' -- while seeded random kill -9s hit any of them (the
# server too, which is restarted). Prints a table of outcomes per kind of process (ok, killed,
# refused because of GC, server down, other error) and ends with one more GC and a verify of
# every visible snapshot. Exit 0 if no backup was refused because of GC, nothing failed except
# by being killed, and every visible snapshot verifies.
# Usage: bench/soak.sh [SECONDS] [SEED] [DIR]
#   SECONDS  how long the loops run (default 180)
#   SEED     seeds image contents, which process is killed and when (default 1)
#   DIR      work directory (default /dev/shm/jpbs-soak; emptied first, kept afterwards with
#            one log per process in DIR/logs)
# The interleaving itself is the scheduler's: a seed gives the same choices, not the same run.
# A bounded version (15 to 30 s) runs in the test suite: cli SoakTest.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
secs=${1:-180}
seed=${2:-1}
work=${3:-/dev/shm/jpbs-soak}
# shellcheck source=../scripts/find-jdk.sh
. "$root/scripts/find-jdk.sh"
jpbs_find_jdk
"$root/jpbs" --version >/dev/null   # builds the jar and its lib/ on first use
cp="$root/cli/target/jpbs-cli.jar:$root/cli/target/lib/*"
rm -rf "$work"
mkdir -p "$work/classes"
"$JAVA_HOME/bin/javac" -nowarn -d "$work/classes" -cp "$cp" "$root/cli/src/test/java/org/jpbs/cli/soak/Soak.java"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$work/classes:$cp" org.jpbs.cli.soak.Soak \
  "$work/run" "$secs" "$seed" "$JAVA_HOME/bin/java" "$cp"
