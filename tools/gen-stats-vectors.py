#!/usr/bin/python3
"""Write the statistics test vectors (tests/fixtures/stats-vectors.json).

    tools/gen-stats-vectors.py [OUT]        (default: stdout)

The values come from numpy and scipy (Debian's python3-scipy, installed by
`tools/install-deps.sh test`), not from mmbench's C code, so
tests/unit/test_stats.c checks harness/compare/stats.c against an independent
implementation.  `make stats-vectors` runs this and diffs the result against
the committed file.

The inputs are fixed: the aim9 brk_test samples of the 0-day report that
the parser fixtures use, and samples drawn from a seeded generator that is
written out here (Box-Muller over random.Random), rounded to a few digits so
the JSON shows them as written.  Each case exercises something the C code
must get right: the exact Mann-Whitney table, ties, unequal sizes and
variances, p-values far in the tail.
"""
import json
import math
import random
import sys

import numpy as np
from scipy import stats


def normal_sample(seed, n, mean, sd, digits):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        u1, u2 = rng.random(), rng.random()
        z = math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
        out.append(round(mean + sd * z, digits))
    return out


# name, higher_is_better, base, new
CASES = [
    # aim9.brk_test.ops_per_sec of the 0-day report (fc21959f74 vs cacded5e42)
    ("aim9_brk_0day", True,
     [1351624.95, 1316322.79, 1330363.33, 1289563.33, 1314100.0, 1335475.48],
     [1268030.0, 1277110.76, 1226452.45, 1275850.0, 1249628.35, 1242148.6]),
    # fork latency in seconds, 30% faster: p far in the tail
    ("fork_latency_s", False,
     normal_sample(11, 10, 0.0142, 0.00018, 7),
     normal_sample(12, 10, 0.0101, 0.00015, 7)),
    # small integer scores with ties: normal approximation with tie correction
    ("ties_small", True, [3, 4, 4, 5, 5, 5, 6], [5, 6, 6, 7, 7, 8, 8]),
    # A/A: same distribution both sides
    ("same_dist", False,
     normal_sample(21, 8, 500.0, 9.0, 4),
     normal_sample(22, 8, 500.0, 9.0, 4)),
    # unequal sizes, both above 8: asymptotic
    ("unequal_n", True,
     normal_sample(31, 9, 2000.0, 30.0, 3),
     normal_sample(32, 11, 2050.0, 28.0, 3)),
    # unequal variances, a shift of about one base stddev
    ("unequal_var", False,
     normal_sample(41, 10, 80.0, 1.5, 4),
     normal_sample(42, 12, 81.2, 4.0, 4)),
    # 4 vs 7, no ties: the exact table with unequal sizes
    ("exact_4v7", True,
     normal_sample(51, 4, 10.0, 0.4, 4),
     normal_sample(52, 7, 10.6, 0.4, 4)),
    # 30 vs 30, a small shift
    ("large_n", True,
     normal_sample(61, 30, 1.0e6, 2.0e4, 1),
     normal_sample(62, 30, 1.01e6, 2.0e4, 1)),
]


def t_quantile(p, df):
    """Student t quantile to full double precision.

    scipy 1.10's t.ppf (cephes stdtrit) is off by up to ~1e-9 relative
    (t.cdf(t.ppf(0.975, 50), 50) = 0.97499999987); Newton steps on the
    accurate t.sf fix that, else the vectors would be less exact than the
    C code they check."""
    x = float(stats.t.ppf(p, df))
    for _ in range(3):
        x += (float(stats.t.sf(x, df)) - (1.0 - p)) / float(stats.t.pdf(x, df))
    return x


def summary(x, higher):
    a = np.asarray(x, dtype=float)
    n = len(a)
    am = float(np.mean(a))
    hm = float(stats.hmean(a))
    sd = float(np.std(a, ddof=1))
    hsd = math.sqrt(hm ** 4 * float(np.sum((1.0 / a - 1.0 / hm) ** 2)) / n)
    k = max(1, int(0.95 * n))
    s = np.sort(a)
    best = float(stats.hmean(s[n - k:])) if higher else float(np.mean(s[:k]))
    return {
        "n": n,
        "min": float(s[0]),
        "max": float(s[-1]),
        "median": float(np.percentile(a, 50)),
        "q1": float(np.percentile(a, 25)),
        "q3": float(np.percentile(a, 75)),
        "amean": am,
        "stddev": sd,
        "pstddev": float(np.std(a, ddof=0)),
        "hmean": hm,
        "gmean": float(stats.gmean(a)),
        "hstddev": hsd,
        "coeffvar_amean": 100.0 * sd / am,
        "best95": best,
    }


def compare(base, new):
    b = np.asarray(base, dtype=float)
    x = np.asarray(new, dtype=float)
    vb = float(np.var(b, ddof=1)) / len(b)
    vn = float(np.var(x, ddof=1)) / len(x)
    se = math.sqrt(vb + vn)
    df = (vb + vn) ** 2 / (vb ** 2 / (len(b) - 1) + vn ** 2 / (len(x) - 1))
    t = stats.ttest_ind(x, b, equal_var=False)
    diff = float(np.mean(x)) - float(np.mean(b))
    half = t_quantile(0.975, df) * se
    lo, hi = diff - half, diff + half
    ref = abs(float(np.mean(b)))
    # method="auto": exact when one side has at most 8 values and no ties
    u = stats.mannwhitneyu(x, b, alternative="two-sided", use_continuity=True,
                           method="auto")
    return {
        "welch_t": float(t.statistic),
        "welch_df": df,
        "welch_p": float(t.pvalue),
        "diff": diff,
        "diff_ci95": [lo, hi],
        "rel_change_pct": 100.0 * diff / ref,
        "rel_change_ci95_pct": [100.0 * lo / ref, 100.0 * hi / ref],
        "mwu_u": float(u.statistic),
        "mwu_p": float(u.pvalue),
    }


def bh(p):
    """Benjamini-Hochberg adjusted p-values, in input order."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    q = [0.0] * m
    run = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        run = min(run, p[i] * m / rank)
        q[i] = run
    return q


def main():
    cases = []
    for name, higher, base, new in CASES:
        cases.append({
            "name": name,
            "higher_is_better": higher,
            "base": [float(v) for v in base],
            "new": [float(v) for v in new],
            "base_stats": summary(base, higher),
            "new_stats": summary(new, higher),
            "compare": compare(base, new),
        })
    doc = {
        "notes": {
            "generator": "tools/gen-stats-vectors.py (numpy + scipy); do not edit by hand",
            "quartiles": "numpy.percentile, linear between order statistics (R type 7)",
            "stddev": "divides by n - 1; pstddev divides by n",
            "hstddev": "mmtests' spread of a harmonic mean H: sqrt(H^4 * sum((1/x - 1/H)^2) / n)",
            "best95": "the best max(1, floor(0.95 n)) values: their hmean if higher is better, else their amean",
            "welch": "scipy.stats.ttest_ind(new, base, equal_var=False); df from Welch-Satterthwaite",
            "ci95": "diff = amean(new) - amean(base), +/- t(0.975, df) * sqrt(var_b/n_b + var_n/n_n); "
                    "the *_pct fields divide by |amean(base)|",
            "mwu": "scipy.stats.mannwhitneyu(new, base), two-sided, method auto (exact when one side "
                   "has at most 8 values and there are no ties, else normal with tie and continuity "
                   "corrections); U is the statistic of new",
            "bh_q": "Benjamini-Hochberg q of the welch_p values, in case order",
        },
        "cases": cases,
        "bh_q": bh([c["compare"]["welch_p"] for c in cases]),
    }
    text = json.dumps(doc, indent=1) + "\n"
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
