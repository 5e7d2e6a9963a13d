#!/bin/sh
# Runs a command and passes only if it exits with CODE and its output (stdout
# and stderr) matches the grep pattern PATTERN; prints the output either way.
# Usage: expect-exit.sh CODE PATTERN COMMAND [ARGS...]
code="$1"
pattern="$2"
shift 2
out="$("$@" 2>&1)"
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$code" ]; then
  echo "expect-exit: exit $rc, expected $code" >&2
  exit 1
fi
if ! printf '%s\n' "$out" | grep -q -e "$pattern"; then
  echo "expect-exit: the output does not match '$pattern'" >&2
  exit 1
fi
