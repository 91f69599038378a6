"""codelog.uncertainty: the paired difference, its standard error, its 95% interval and the word
every summary uses (train's conclusions, eval --compare, experiment's results)."""

from __future__ import annotations

import math

import pytest

from codelog.uncertainty import (
    Difference,
    mean_and_stderr,
    paired,
    plus_minus,
    t_quantile,
)

# pass@1 of four problems under two methods: every problem gains a little
BEFORE = [0.2, 0.4, 0.6, 0.8]
AFTER = [0.3, 0.5, 0.8, 0.9]


def test_the_paired_difference_by_hand():
    d = paired(BEFORE, AFTER)
    # differences 0.1, 0.1, 0.2, 0.1: mean 0.125; deviations -0.025 (x3), +0.075;
    # variance (3 * 0.000625 + 0.005625) / 3 = 0.0025, sd 0.05, standard error 0.05 / 2
    assert (d.mean, d.stderr, d.n) == (pytest.approx(0.125), pytest.approx(0.025), 4)
    # Student's t, 3 degrees of freedom: 3.182446305
    low, high = d.interval
    assert low == pytest.approx(0.125 - 3.182446305 * 0.025)
    assert high == pytest.approx(0.125 + 3.182446305 * 0.025)
    assert d.word == "better" and d.shown
    assert paired(AFTER, BEFORE).word == "worse"
    assert d.to_dict() == {
        "difference": d.mean,
        "stderr": d.stderr,
        "interval95": [low, high],
        "n": 4,
        "word": "better",
    }


def test_the_unpaired_rule_calls_noise_what_the_paired_one_shows():
    # The rule experiment's results.md used to give: a difference within about twice the two
    # standard errors combined is noise. Between problems the spread is large (0.2 to 0.9),
    # so the combined error is 0.189 and the rise of 0.125 looks like noise; within a problem
    # it is 0.1 or 0.2 every time.
    (mean_b, se_b), (mean_a, se_a) = mean_and_stderr(BEFORE), mean_and_stderr(AFTER)
    assert se_b == pytest.approx(math.sqrt(0.2 / 3) / 2)  # sd of 0.2..0.8: sqrt(0.2 / 3)
    assert se_a == pytest.approx(math.sqrt(0.2275 / 3) / 2)
    combined = math.sqrt(se_b**2 + se_a**2)
    assert combined == pytest.approx(0.18875, abs=1e-5)
    assert mean_a - mean_b == pytest.approx(0.125)
    assert mean_a - mean_b < 2 * combined  # unpaired: "noise"
    assert paired(BEFORE, AFTER).word == "better"  # paired: shown


def test_a_run_compared_with_itself_is_zero_plus_or_minus_zero():
    d = paired(BEFORE, BEFORE)
    assert (d.mean, d.stderr, d.interval, d.word) == (0.0, 0.0, (0.0, 0.0), "within noise")
    assert plus_minus(d.mean, d.stderr) == "+0.0000 ± 0.0000"
    assert d.needed() is None  # no number of problems shows a change of 0


def test_one_unit_has_no_standard_error_and_shows_nothing():
    d = paired([0.0], [1.0])
    assert (d.mean, d.stderr, d.interval, d.word) == (1.0, None, None, "within noise")
    assert mean_and_stderr([]) == (None, None) and mean_and_stderr([3.0]) == (3.0, None)
    with pytest.raises(ValueError, match="same units"):
        paired([1.0], [1.0, 2.0])


def test_a_change_inside_the_interval_is_noise_and_says_how_many_units_would_show_it():
    d = paired([0.0, 0.0, 0.0], [0.3, -0.1, 0.1])
    # mean 0.1, sd 0.2, standard error 0.2 / sqrt(3); t(2) = 4.303 -> 0.1 +- 0.497
    assert (d.mean, d.stderr) == (pytest.approx(0.1), pytest.approx(0.2 / math.sqrt(3)))
    assert d.word == "within noise"
    # at sd 0.2, n units show 0.1 when t(n - 1) * 0.2 / sqrt(n) < 0.1: n = 18 does
    # (2.1098 * 0.2 / 4.2426 = 0.0995), n = 17 does not (2.1199 * 0.2 / 4.1231 = 0.1028)
    assert d.needed() == 18
    assert Difference(0.1, 0.2 / math.sqrt(18), 18).word == "better"
    assert Difference(0.1, 0.2 / math.sqrt(17), 17).word == "within noise"


def test_a_change_within_the_measurement_resolution_is_noise_whatever_its_error():
    # float32 log-probs move by whole spacings: seven groups each up a spacing or two give a
    # tiny standard error, but the change is rounding
    before, after = [0.0] * 7, [6e-8, 4.8e-7, 3.6e-7, 6e-7, 7.2e-7, -2.4e-7, 7.8e-7]
    assert paired(before, after).word == "better"
    assert paired(before, after, resolution=9.5e-7).word == "within noise"
    assert paired(before, after, resolution=9.5e-7).needed() is None


def test_figures_keep_two_digits_of_their_standard_error():
    assert plus_minus(0.2411, 0.0312) == "+0.2411 ± 0.0312"
    assert plus_minus(3.9e-7, 1.4e-7) == "+0.00000039 ± 0.00000014"
    assert plus_minus(-0.0142, None) == "-0.0142"


@pytest.mark.parametrize("df", [1, 2, 3, 4, 6, 7, 30, 31, 200, 1000, 1001, 100_000])
def test_the_t_quantile_is_scipys(df):
    stats = pytest.importorskip("scipy.stats")
    assert t_quantile(df) == pytest.approx(stats.t.ppf(0.975, df), rel=1e-12)


def test_past_sixty_units_a_change_still_needs_two_standard_errors() -> None:
    # 100 units: t(99) = 1.984, so a change of 1.99 standard errors leaves 0 out of the 95%
    # interval, yet "shown" asks for more than two standard errors
    from codelog.uncertainty import Difference

    d = Difference(mean=1.99, stderr=1.0, n=100)
    assert d.interval[0] > 0
    assert d.word == "within noise" and not d.shown
    assert Difference(mean=2.01, stderr=1.0, n=100).word == "better"
