#!/usr/bin/env bash
# A small build script with a bug in its version parsing.
set -u

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

declare -A targets=([app]=src/app [lib]=src/lib [docs]=docs)

parse_version() {
  local v=$1
  local major=${v%%.*}
  local rest=${v#*.}
  local minor=${rest%%.*}
  echo $(( major * 100 + minor ))
}

for name in "${!targets[@]}"; do
  case $name in
    app) log "building ${targets[$name]}" ;;
    lib) log "library ${targets[$name]}" ;;
    *) log "skipping $name" ;;
  esac
done

check() {
  local want=$1 have
  have=$(parse_version "$2")
  if (( have < want )); then
    log "too old: $2"
    return 1
  fi
}

if [[ -n "${CI:-}" ]]; then
  log "in CI"
fi

check 300 "3.x"
echo done
