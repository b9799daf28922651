#!/bin/sh
# `make run`: the quick suite on the running kernel into ./mmbench.db, then
# the comparison with the kernel measured before this one, if any.
exec "${1:-build}/mmbench" run configs/quick.yaml --compare previous
