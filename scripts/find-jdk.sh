# Sourced by ./jpbs, scripts/test and bench scripts: sets JAVA_HOME to a JDK 25.
# Order: $JAVA_HOME, then `java` on PATH, then /usr/lib/jvm/*25*. Fails with a message.
jpbs_java_major() {
  # the JDK's `release` file names its version (cheap); else ask the JVM (about 0.2 s)
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n1
  else
    "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1
  fi
}
jpbs_find_jdk() {
  local cand
  local -a cands=()
  [ -n "${JAVA_HOME:-}" ] && cands+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    cands+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for cand in /usr/lib/jvm/*25*; do [ -d "$cand" ] && cands+=("$cand"); done
  for cand in "${cands[@]}"; do
    if [ -x "$cand/bin/java" ] && [ -x "$cand/bin/javac" ] && [ "$(jpbs_java_major "$cand")" = "25" ]; then
      export JAVA_HOME="$cand"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  echo "jpbs: no JDK 25 found (looked at \$JAVA_HOME, java on PATH, /usr/lib/jvm/*25*); install a JDK 25 and set JAVA_HOME" >&2
  return 1
}
# Maven's own guava warns about sun.misc.Unsafe on JDK 25; silence that noise.
case " ${MAVEN_OPTS:-} " in *sun-misc-unsafe*) ;; *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;; esac
