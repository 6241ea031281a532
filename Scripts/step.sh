#!/usr/bin/env bash
# Runs one step of `make test` and prints how long it took: `Scripts/step.sh NAME COMMAND [ARG…]`.
# The step's own output comes through as it is; its exit status is the script's.
name=$1
shift
start=$(date +%s)
"$@"
status=$?
echo "step $name: $(( $(date +%s) - start )) s (exit $status)"
exit $status
