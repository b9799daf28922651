#!/bin/sh
# `make run`: the quick suite on the running kernel into ./mmbench.db, then
# the comparison with the kernel measured before this one, if any.
# WAIT_QUIET=TIMEOUT (`make run WAIT_QUIET=10m`; yes: the default 30m)
# first waits for a quiet machine (run --wait-quiet): on a busy one every
# iteration would be disturbed and no verdict possible.
case "${WAIT_QUIET:-}" in
'' | no | 0) exec "${1:-build}/mmbench" run configs/quick.yaml --compare previous ;;
yes | 1) exec "${1:-build}/mmbench" run --wait-quiet configs/quick.yaml --compare previous ;;
*) exec "${1:-build}/mmbench" run "--wait-quiet=$WAIT_QUIET" configs/quick.yaml --compare previous ;;
esac
