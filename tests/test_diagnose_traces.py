"""The loss-curve signatures of entries whose loss goes wrong without a warning:
a climb after a long descent, a plateau from the start, a stall after a drop --
and the healthy curves that must not be mistaken for them."""
import dataclasses
import io
import math

import numpy as np
import pytest

from conftest import ROOT, load_snippet, real_catalog
from trainwreck.catalog import Catalog
from trainwreck.curve_shape import DESCENT_FALL, DESCENT_MIN, FLAT, PLATEAU_FALL, SHAPE_MIN, STALL_LEVEL
from trainwreck.diagnose import diagnose, signature_of
from trainwreck.logscan import scan

CATALOG = real_catalog()


def log_of(values, key="loss", start=0):
    return "".join(f"epoch {i} {key} {v}\n" for i, v in enumerate(values, start=start))


def signature(values, **kw):
    return signature_of(scan(io.BytesIO(log_of(values, **kw).encode()), "log"))


# ---- descent then climb -------------------------------------------------------------------

def descent_then_climb():
    fall = [0.7 * 0.9 ** i for i in range(12)]
    climb = [fall[-1] * 1.2 ** (k * k / 2) for k in range(1, 8)]   # each rise larger than the last
    return fall + climb + [math.inf, math.nan, math.nan]


def test_a_climb_after_a_long_descent_is_descent_then_climb():
    sig = signature(descent_then_climb())
    assert sig.name == "descent-then-climb"
    assert sig.facts[0].startswith("the loss first fell for 11 values, from 0.7 at epoch 0 to 0.2197 at epoch 11")
    assert "first inf at epoch 19" in sig.facts[1]


def test_a_climb_from_the_start_stays_climb_then_nonfinite():
    values = [0.7 * 2 ** k for k in range(6)] + [math.inf]
    assert signature(values).name == "climb-then-nonfinite"


@pytest.mark.parametrize("low_at, fall", [(DESCENT_MIN - 1, 0.5), (DESCENT_MIN + 3, DESCENT_FALL / 2)])
def test_a_short_or_shallow_descent_is_not_enough(low_at, fall):
    """Both limits of the rule: the low must come late enough and be low enough."""
    fall_part = list(np.linspace(1.0, 1.0 - fall, low_at + 1))
    values = fall_part + [fall_part[-1] * 2 ** k for k in range(1, 5)] + [math.nan]
    assert signature(values).name == "climb-then-nonfinite"


# ---- plateau from the start ---------------------------------------------------------------

def test_a_loss_that_never_leaves_its_first_value_is_a_plateau():
    rng = np.random.default_rng(3)
    values = list(2.3026 - 0.05 * rng.random(40))      # ten classes, chance level, a little noise
    sig = signature(values)
    assert sig.name == "plateau-from-start"
    assert "over 40 values (epoch 0 to epoch 39) the loss stayed within 10% of its first value" in sig.facts[0]


def test_a_plateau_needs_enough_values_and_the_start_of_the_run():
    assert signature([2.30, 2.29, 2.31] * 3).name == "healthy"                       # too few values to judge
    assert signature([2.30] * SHAPE_MIN, start=50).name == "healthy"                  # the log starts mid-run
    assert signature([2.30] * SHAPE_MIN).name == "plateau-from-start"


def test_a_slow_loss_that_keeps_falling_is_healthy():
    values = [2.3 * (1 - PLATEAU_FALL) ** (i / 10) for i in range(12)]   # falls just past the limit by the end
    assert signature(values).name == "healthy"


# ---- stall after a drop -------------------------------------------------------------------

def stalled(level=0.45, drop_epochs=8, flat_epochs=30):
    fall = list(np.geomspace(0.69, level, drop_epochs))
    return fall + [level] * flat_epochs


def test_a_loss_that_falls_then_freezes_is_a_stall():
    sig = signature(stalled())
    assert sig.name == "stall-after-drop"
    assert sig.facts[0] == ("the loss fell from 0.69 at epoch 0 to 0.45 at epoch 7, then stopped: the last 31 values "
                            "(epoch 7 to epoch 37) stay within 1% of 0.45, 65% of where it started")


def test_a_stall_that_covers_less_than_half_the_run_is_not_one():
    assert signature(stalled(drop_epochs=30, flat_epochs=20)).name == "healthy"


def test_a_run_that_converges_low_is_healthy_not_stalled():
    assert signature(stalled(level=0.69 * STALL_LEVEL * 0.9)).name == "healthy"


def test_a_noisy_tail_is_not_a_stall():
    rng = np.random.default_rng(0)
    values = stalled()
    values[10:] = [v * (1 + 3 * FLAT * rng.standard_normal()) for v in values[10:]]
    assert signature(values).name == "healthy"


# ---- healthy curves stay healthy ----------------------------------------------------------

@pytest.mark.parametrize("name, values", [
    ("noisy mini-batch descent", list(2.3 * np.exp(-np.arange(200) / 60)
                                      * (1 + 0.15 * np.random.default_rng(1).standard_normal(200)))),
    ("starts very high and falls", list(1e5 * np.exp(-np.arange(40) / 3) + 0.2)),
    ("slow but steady", list(0.69 * 0.99 ** np.arange(60))),
    ("long, converged low", list(0.69 * 0.97 ** np.arange(400))),
    ("negative log-likelihood below zero", list(1.0 - 0.05 * np.arange(40))),
])
def test_healthy_curves_stay_healthy(name, values):
    assert signature(values).name == "healthy", name


def test_the_new_signatures_survive_the_parallel_scan(tmp_path, monkeypatch):
    """The lowest and highest values behind them are merged exactly across processes."""
    import trainwreck.logscan.reader as logscan
    monkeypatch.setattr(logscan, "PARALLEL_MIN", 0)
    monkeypatch.setattr(logscan, "CHUNK", 256)
    for values in (descent_then_climb(), stalled(), [2.3] * 40):
        path = tmp_path / "run.log"
        path.write_text(log_of(values))
        sequential = scan(path.open("rb"), str(path))
        parallel = logscan.scan_path(str(path), workers=3)
        assert repr(vars(parallel)) == repr(vars(sequential))     # repr: nan == nan


# ---- an entry that declares the signature is named ----------------------------------------

@pytest.mark.parametrize("trace, values", [
    ("descent-then-climb", descent_then_climb()),
    ("plateau-from-start", [2.3026] * 20),
    ("stall-after-drop", stalled()),
])
def test_an_entry_declaring_the_signature_is_named_first(trace, values):
    template = CATALOG.entries["WR-250"]
    entry = dataclasses.replace(template, id="WR-999", trace=trace, messages=[])
    catalog = Catalog(root=ROOT, folder=ROOT / "catalog", entries={**undeclared().entries, "WR-999": entry},
                      modules=CATALOG.modules)
    d = diagnose(scan(io.BytesIO(log_of(values).encode()), "log"), catalog)
    assert d.matches[0].entry.id == "WR-999"
    assert d.unweighed == []
    if trace == "descent-then-climb":    # the general climb keeps part credit
        assert [m.entry.id for m in d.matches][1] == "WR-220"


def undeclared() -> Catalog:
    """The catalogue without the entries that declare these signatures (WR-260 declares the
    descent then climb), so the tests keep asking what an undeclared signature gets."""
    new = {"descent-then-climb", "plateau-from-start", "stall-after-drop"}
    return Catalog(root=ROOT, folder=ROOT / "catalog", modules=CATALOG.modules,
                   entries={k: e for k, e in CATALOG.entries.items() if e.trace not in new})


def test_until_an_entry_declares_them_they_are_reported_not_guessed():
    for values in (descent_then_climb(), [2.3026] * 20, stalled()):
        d = diagnose(scan(io.BytesIO(log_of(values).encode()), "log"), undeclared())
        if d.signature.name == "descent-then-climb":
            assert d.matches[0].entry.id == "WR-220"     # part credit only
        else:
            assert d.matches == [] and d.verdict == "unexplained"
        assert any("no entry declares this signature yet" in u for u in d.unweighed)


# ---- a first loss already enormous ------------------------------------------------------------

def test_an_enormous_first_loss_is_a_fact_for_the_broken_start_entries_not_a_new_shape():
    """A first loss of 9e6 that then climbs to inf is still a climb; the enormous start is one more
    fact, weighed for the entries broken from the start."""
    climb = [9.06e6, 3.8e7, 9.4e14, 9.3e38, math.inf, math.nan]
    sig = signature(climb)
    assert sig.name == "climb-then-nonfinite"
    assert sig.enormous_start.startswith("the first loss (9.06e+06) is already enormous")
    d = diagnose(scan(io.BytesIO(log_of(climb).encode()), "log"), CATALOG)
    start_entries = {m.entry.id for m in d.matches if "start" in m.parts}
    assert start_entries and all(CATALOG.entries[i].trace == "nonfinite-from-start" for i in start_entries)
    assert all("start" not in m.parts for m in d.matches if m.entry.trace != "nonfinite-from-start")
    # and the climb that follows is not held against them: no "does not look like this entry's" beside "already
    # enormous" (review_session27_words W3)
    for m in d.matches:
        if "start" in m.parts:
            assert m.parts.get("curve", 0) >= 0 and not any("does not look like" in a for a in m.against), m.entry.id


def test_a_summed_loss_that_climbs_or_learns_keeps_its_own_story():
    """A loss summed over an epoch starts in the tens of thousands in a healthy run: a climb from
    there is still the rate's, and a run that fell to half its first loss was not broken at the start."""
    summed_climb = [23026.0 * 3.2 ** k for k in range(8)] + [math.inf, math.nan]
    d = diagnose(scan(io.BytesIO(log_of(summed_climb, start=1).encode()), "log"), CATALOG)
    assert d.signature.name == "climb-then-nonfinite" and d.matches[0].entry.id == "WR-220"
    descent = [23026.0 * 0.97 ** k for k in range(40)]
    summed_descent = descent + [descent[-1] * 4 ** k for k in range(1, 6)] + [math.nan]
    sig = signature(summed_descent, start=1)
    assert sig.name == "descent-then-climb" and not sig.enormous_start
    assert not signature([5000.0, 8000.0, 2e4, 9e4, math.inf]).enormous_start      # below the threshold
    assert not signature([9.06e6, 3.8e7, 9.4e14, math.inf], start=40).enormous_start  # not the run's start


# ---- a nan in the first value an epoch prints ------------------------------------------------

def _weighed(text):
    """The diagnosis, and every entry's (parts, evidence, against) -- also those too weak to be listed."""
    from trainwreck.weighing import WEIGHTS, context_of, weigh, weigher
    ev = scan(io.BytesIO(text.encode()), "log")
    w = weigher(CATALOG)
    c = context_of(ev, w, signature_of(ev), WEIGHTS)
    return diagnose(ev, CATALOG), {e.id: weigh(e, c, w, WEIGHTS) for e in w.entries}


def test_a_nan_in_the_first_epochs_value_is_a_broken_first_epoch_not_a_broken_first_step():
    """An epoch's value is its mean (or last batch): nan once any step of the epoch was. The entries
    broken from the start keep their curve; the ones that break after some steps are not ruled out by it."""
    keras = "".join(f"Epoch {i}/10\n32/32 [==============================] - 0s 3ms/step - loss: nan\n" for i in (1, 2, 3))
    d, weighed = _weighed(keras)
    assert d.signature.name == "nonfinite-from-start" and d.signature.first_epoch
    assert d.signature.facts[0].startswith("the first loss value, for epoch 1/10, is already nan: a value printed "
                                           "with no step number stands for many steps")
    assert weighed["WR-120"][0]["curve"] > 0
    for later in ("WR-220", "WR-310", "WR-030"):          # failures that need some updates first
        parts, _, against = weighed[later]
        assert parts.get("curve", 0) >= 0 and "when" not in parts and not against, later
    assert weighed["WR-130"][0]["curve"] < 0             # a failure that never makes the loss nan still does not fit
    assert d.verdict == "uncertain" and d.ask.startswith("the loss of each step from the start")


def test_a_nan_in_the_first_steps_value_still_rules_out_the_failures_that_need_updates():
    d, weighed = _weighed("".join(f"step {i} loss nan\n" for i in (1, 2, 3)))
    assert d.signature.name == "nonfinite-from-start" and not d.signature.first_epoch
    assert d.signature.facts[0].startswith("the very first loss value is nan: there was no healthy start")
    parts, _, against = weighed["WR-220"]
    assert parts["curve"] < 0 and parts["when"] < 0 and against


def test_a_first_value_its_line_calls_an_average_stands_for_the_steps_it_averages():
    """'Average Training loss: nan' at the end of epoch 0 says some step of it was nan, not that the first
    was -- even when the log restarts and prints epoch 0 again (the next value is not in another epoch)."""
    restarts = "Model initialized\nEpoch 0 complete! Average Training loss: nan\n" * 3
    d, weighed = _weighed(restarts)
    assert d.signature.first_epoch
    assert d.signature.facts[0].startswith("the first loss value, for epoch 0, is already nan: the log calls it an "
                                           "average, so it stands for the steps it averages")
    parts, _, against = weighed["WR-220"]
    assert "when" not in parts and not against
    for line in ("step 0 avg loss nan\n", "epoch 0 loss nan\n", "Epoch 0 mean_squared_error: 1.2 loss nan\n"):
        d = _diagnosed(line * 3)            # a step number, no word of an average, or the word inside a name
        assert not d.signature.first_epoch, line


def test_a_jump_to_nan_quotes_the_two_values_before_it_not_a_pair_that_reads_as_a_climb():
    """The signature is about the last moves before the nan: a run that doubled, fell back and then went nan
    was not climbing into it, and the two values quoted say so; one small last rise is said as such."""
    values = ["74090.6", "77959.6", "76822.8", "166910.8", "131479.0", "nan", "nan"]
    d = _diagnosed("".join(f"epoch {427 + i}: loss {v}\n" for i, v in enumerate(values)))
    assert d.signature.name == "descent-then-nonfinite"
    assert d.signature.facts[0].startswith("the loss fell at its last printed step (1.669e+05 at epoch 430, then "
                                           "1.315e+05 at epoch 431) and jumped straight to nan: first nan at epoch 432")
    d = _diagnosed("".join(f"epoch {i}: loss {v}\n" for i, v in enumerate(["0.5", "0.4", "0.3", "0.36", "nan"])))
    assert d.signature.facts[0].startswith("the loss rose only once at the end, by x1.2 (0.3 at epoch 2, then "
                                           "0.36 at epoch 3) and jumped straight to nan")
    # a small rise keeps its digits ("by x1" said nothing), and one step printed by two processes is no rise at all
    # (review_session27_logs K4)
    d = _diagnosed("".join(f"epoch {i}: loss {v}\n" for i, v in enumerate(["0.5", "0.4", "0.3", "0.314", "nan"])))
    assert "rose only once at the end, by x1.05 (0.3 at epoch 2" in d.signature.facts[0]
    ranks = "".join(f"[rank{r}] epoch 2, step {s}/2500, loss {v}\n" for s, r, v in
                    [(1100, 0, "2.21"), (1100, 1, "2.24"), (1200, 0, "2.1"), (1200, 1, "2.13"), (1300, 0, "1.968"),
                     (1300, 1, "2.058"), (1300, 2, "nan")])
    d = _diagnosed(ranks)
    assert d.signature.facts[0].startswith("the loss was printed twice for its last step before the nan (1.968 and "
                                           "2.058, both at epoch 2, step 1300/2500)")


def test_an_enormous_first_loss_is_judged_against_the_values_right_after_it():
    """1e4 then 2.3 is a broken start; 2.2 falling to 0.01 over a run that learnt, or to 0, is not."""
    def log(values):
        return "".join(f"step {i} loss {v}\n" for i, v in enumerate(values))

    d = _diagnosed(log(["12000", "2.31", "2.25", "2.2", "2.1", "nan"]))
    assert d.signature.name == "nonfinite-from-start"
    assert d.signature.facts[0].startswith("the first loss (1.2e+04) is over 100x the values right after it "
                                           "(their median, 2.25): no healthy start")
    learnt = ["2.214", "1.1", "0.62", "0.31", "0.12", "0.05", "0.0187", "0.0102", "nan"]
    for values in (learnt, ["0.6934", "0.2", "0.01", "0.0004", "0.0", "nan"]):
        d = _diagnosed(log(values))
        assert d.signature.name == "descent-then-nonfinite", values
        assert "no healthy start" not in " ".join(d.signature.facts)


def test_runs_pasted_one_after_another_are_not_one_curve():
    """A restart or a second fold starts the log's count again: the run that broke is read, not a made-up
    fall-then-climb across the two; a count that starts again each epoch, or a summary quoting an earlier
    epoch, is no new run."""
    from trainwreck.diagnose_report import header

    calm = ["6.93", "5.12", "4.44", "4.03", "3.89", "3.70"]
    wild = ["6.93", "4.88", "7.55", "23.1", "301.2", "nan"]
    two = ("== run 1 ==\n" + "".join(f"step {50 * i} loss {v}\n" for i, v in enumerate(calm))
           + "== run 2, rate x10 ==\n" + "".join(f"step {50 * i} loss {v}\n" for i, v in enumerate(wild)))
    d = _diagnosed(two)
    assert d.signature.name == "climb-then-nonfinite" and d.matches[0].entry.id == "WR-220"
    assert d.evidence.count == 6 and "from 4.88 at step 50 to 301.2 at step 200" in d.signature.facts[0]
    assert ("2 runs one after another (the log's count starts again at line 9): run 2, the first whose loss "
            "turned non-finite, is read (line 9 to line 14)") in header(d)
    folds = "".join(f"== fold {k} ==\n" + "".join(f"Epoch {e}: train loss {v}\n" for e, v in enumerate(run, 1))
                    for k, run in enumerate([calm[:4], wild[-4:], calm[2:]], 1))
    d = _diagnosed(folds)
    assert d.evidence.count == 4 and d.evidence.runs.startswith("3 runs") and "run 2, the first whose" in d.evidence.runs
    # a batch index that starts again each epoch, on the next line, and a summary that quotes an earlier epoch
    batches = "".join(f"batch {50 * (i % 3)} loss {v}\n" for i, v in enumerate(calm))
    summary = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(calm)) + "\nAt epoch 2, loss 4.44 and 4.44\n"
    for log in (batches, summary):
        d = _diagnosed(log)
        assert not d.evidence.runs and d.evidence.count >= 6, log


def test_the_header_names_the_loss_read_when_it_is_not_the_plain_loss():
    """A GAN's two named losses, or a loss of its own: the report says which one its numbers are."""
    from trainwreck.diagnose_report import header

    gan = "".join(f"[Batch {i}] [D loss: {d}] [G loss: {g}]\n" for i, (d, g) in enumerate([("0.69", "0.70"), ("0.40", "1.3"),
                                                                                      ("0.35", "nan"), ("nan", "nan")]))
    own = "".join(f"epoch {i}: genloss {v} latloss 12.0\n" for i, v in enumerate(["741.2", "702.5", "688.1"]))
    assert ("(the loss read is `G loss`, the first of the losses each line names to turn non-finite)"
            in header(_diagnosed(gan)))
    d_first = gan.replace("[D loss: 0.35]", "[D loss: nan]")
    assert "(the loss read is `D loss`, the first of the losses each line names)" in header(_diagnosed(d_first))
    assert "(the loss read is `genloss`, the first loss of its own the log prints)" in header(_diagnosed(own))
    assert "the loss read is" not in header(_diagnosed("".join(f"step {i} loss 0.{9 - i}\n" for i in range(5))))
    # a loss only named in the words, with no value read, is no loss the log prints (review_session27_words W6)
    from trainwreck.diagnose_report import as_json

    words = _diagnosed("It goes nan after 4 epochs. With nn.CrossEntropyLoss it never happens.\n")
    assert words.evidence.count == 0 and "the loss read is" not in header(words)
    assert as_json(words)["loss_named"] is None and as_json(words)["loss_read"] is None


def test_what_is_not_a_second_run_and_what_a_second_run_does_not_bring():
    """A step counter printed with its total starts again each epoch; an evaluation loop numbered like the
    training, or a second model's loss printed after the first, starts far from where the run began; and a
    warning printed in the run not read is not this run's evidence (review_session26_commits W7, Weak)."""
    per_epoch = "".join(f"step {100 * k}/300 loss {2.3 - 0.1 * (3 * e + k):.2f}\n" + ("validation accuracy 0.5\n" if k == 3 else "")
                        for e in range(3) for k in (1, 2, 3))
    eval_loop = ("".join(f"step {100 * i} loss {2.3 - 0.05 * i:.2f}\n" for i in range(1, 6)) + "Evaluating...\n"
                 + "".join(f"step {10 * i} loss 1.57\n" for i in range(1, 4)) + "step 600 loss nan\n")
    other_model = ("".join(f"epoch {e} loss 1.38\n" for e in range(4)) + "Now the table:\n"
                   + "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(["2.7e4", "1.9e74", "inf"])))
    for log in (per_epoch, eval_loop, other_model):
        assert not _diagnosed(log).evidence.runs, log
    warned = ("".join(f"step {50 * i} loss {v}\n" for i, v in enumerate(["0.69", "0.61", "0.72", "1.9", "nan"]))
              + "== again ==\n" + "".join(f"step {50 * i} loss {v}\n" for i, v in enumerate(["0.70", "0.52", "0.44"]))
              + "train.py:12: RuntimeWarning: divide by zero encountered in log\n")
    d = _diagnosed(warned)
    assert d.evidence.runs.startswith("2 runs") and "run 1, the first whose" in d.evidence.runs
    assert not d.evidence.messages and not any(m.parts.get("messages", 0) > 0 for m in d.matches)


def test_a_second_run_with_a_frameworks_nan_check_on_is_the_one_read():
    """Run 1 went nan; the reporter ran again with jax_debug_nans and pasted that run too, ending in the check's
    line and the FloatingPointError that names the primitive (review_session27_logs W6): that run is read, its
    check is its last value, and its message is evidence -- not "none of the messages are in the log"."""
    first = "".join(f"step {200 * i} loss {v}\n" for i, v in enumerate(["0.69", "0.31", "0.12", "0.06", "nan"]))
    again = ("Running again with jax.config.update('jax_debug_nans', True):\n"
             + "".join(f"step {200 * i} loss {v}\n" for i, v in enumerate(["0.69", "0.30", "0.11", "0.05"]))
             + "Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.\n"
             "FloatingPointError: invalid value (nan) encountered in mul\n")
    d = _diagnosed(first + again)
    assert "run 2, the first stopped by a framework's nan check, is read" in d.evidence.runs
    assert d.evidence.first_nonfinite == 4
    log0 = next(m for m in d.matches if m.entry.id == "WR-030")     # `mul` is also in WR-050's own example
    assert log0.parts["messages"] > 0 and not any("none of the messages" in a for a in log0.against)
    # the check's generic line is a stop, weighed for no entry: only the primitive's message names a cause
    assert all(m.parts.get("messages", 0) == 0 for m in d.matches if m.entry.id == "WR-020")
    # a healthy second run that ends on a loss scaler's skipped step is no failure to prefer
    # (review_session27_commits item 4)
    amp = ("".join(f"step {200 * i} loss {v}\n" for i, v in enumerate(["0.69", "0.9", "2.4", "7.9", "nan"])) + "== O1 ==\n"
           + "".join(f"step {200 * i} loss {v}\n" for i, v in enumerate(["0.69", "0.52", "0.41", "0.35"]))
           + "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0\n")
    assert "run 1, the first whose loss turned non-finite" in _diagnosed(amp).evidence.runs


def test_a_restart_is_found_when_its_loss_starts_apart_or_broken_or_its_count_had_a_total():
    """A second run whose first loss is 2.5x the first run's, one that is nan from its first value (a change
    of precision), and a global `Step n/5000` count cut short and started again (review_session26_fixes W-A..C)."""
    def runs(first, second, fmt):
        return ("run 1\n" + "".join(fmt.format(i=i, v=v) for i, v in enumerate(first, 1)) + "run 2\n"
                + "".join(fmt.format(i=i, v=v) for i, v in enumerate(second, 1)))

    apart = runs(["2.7e4", "1.1e4", "9.8e3", "nan"], ["6.8e4", "2.2e4", "1.5e4", "1.2e4"], "epoch {i} loss {v}\n")
    broken = runs(["1.61", "1.45", "1.34", "1.21"], ["nan", "nan", "nan"], "epoch {i} loss {v}\n")
    cut = runs(["2.3", "2.1", "1.9", "nan"], ["2.31", "2.0", "1.8", "1.7"], "Step {i}00/5000 loss {v}\n")
    for log, read in ((apart, "run 1"), (broken, "run 2"), (cut, "run 1")):
        d = _diagnosed(log)
        assert d.evidence.runs.startswith("2 runs") and f"{read}, the first whose loss turned non-finite" in \
            d.evidence.runs, log
        assert "followed by" not in " ".join(d.signature.facts)
    assert _diagnosed(broken).signature.name == "nonfinite-from-start"


def test_a_run_the_paste_labels_is_a_run_wherever_its_loss_starts():
    """Three launches pasted one per line, each labelled: the second broke from its first step, thousands of times
    above the first's start, and the third is one nan. Each is a run of its own (its label and its count back at 0),
    and the first that turned non-finite is read -- not a rise from the first run's step 2 to the second's step 0.
    Unlabelled, a loss that far from the first run's start is no restart (another model's loss)."""
    log = ("run A: step 0 loss 10.98 | step 1 loss 10.77 | step 2 loss 10.60\n"
           "run B: step 0 loss 231448576.0 | step 1 loss nan\nrun C: step 0 loss nan\n")
    d = _diagnosed(log)
    assert d.evidence.runs.startswith("3 runs") and "run 2, the first whose loss turned non-finite" in d.evidence.runs
    assert d.evidence.head[0] == 231448576.0 and d.evidence.count == 2
    unlabelled = _diagnosed(log.replace("run A: ", "").replace("run B: ", "").replace("run C: ", ""))
    assert not unlabelled.evidence.runs.startswith("3 runs")
    # (one trial's log, its label on every line and its step count starting again each epoch, is one run)
    one = "".join(f"Trial 3: step {s} loss {v}\n" for e in range(4) for s, v in zip((0, 100, 200, 300), (
        (2.30, 2.10, 1.95, 1.90), (1.92, 2.6, 4.1, 6.3), (6.5, 6.6, 6.4, 6.5), (6.45, 6.5, 6.55, 6.5))[e]))
    assert not _diagnosed(one).evidence.runs


def test_an_average_is_the_loss_s_own_word_not_another_number_s():
    """`mean reward`, `mean IoU`, `Running on cuda:0` qualify something else on the line (review W5)."""
    for line in ("mIoU (mean IoU): 0.0000  pixel acc: 0.0712  loss: nan\n", "Running on cuda:0, loss: nan\n"):
        d = _diagnosed(line * 4)
        assert not d.signature.first_epoch and "calls it an average" not in " ".join(d.signature.facts), line
    d = _diagnosed("".join(f"epoch {e}: avg loss {a}, recon loss {r}, kl loss {k}\n"
                           for e, (a, r, k) in enumerate([("512.3", "498.1", "14.2"), ("301.7", "280.5", "21.2"),
                                                          ("250.2", "225.9", "24.3"), ("nan", "176.3", "nan")], 1)))
    # three losses named on each line: the first (here the total) is read, not the three as one curve
    assert d.evidence.count == 4 and d.evidence.first_nonfinite == 3 and d.evidence.loss_named == ("avg loss", "named")


def test_the_wrapped_line_of_a_printed_tensor_is_no_loss():
    """print(outputs[0]) wraps a long tensor: its second line starts with a number and ends with `)`, but the
    box did not open on it (review W6); print(loss) of a scalar tensor is read."""
    out = ("tensor([ 0.2101, -0.3312,  0.1190,  0.0412,  0.2287,\n"
           "        -0.1010,  0.3032,  0.5774, -0.8123, -0.9433], device='cuda:0', grad_fn=<SelectBackward0>)\n")
    losses = [f"tensor({v}, device='cuda:0', grad_fn=<NllLossBackward0>)\n" for v in ("2.3107", "2.2981", "2.3050")]
    d = _diagnosed("".join(out + loss for loss in losses) + "".join(losses))
    assert d.evidence.count == 6 and d.evidence.low == 2.2981 and d.evidence.dialect == "one number per line"


# ---- a loss that climbed and stayed up, or sits at a clamped log's ceiling ------------------------

def _diagnosed(text):
    return _weighed(text)[0]


def test_a_loss_that_climbed_and_stayed_at_its_peak_is_not_healthy():
    d = _diagnosed("".join(f"step {i} loss {v}\n" for i, v in enumerate([2.3, 2.2, 2.1, 4.0, 9.5, 30.0, 31.0, 30.5, 30.8])))
    assert d.signature.name == "climbed-and-stayed" and d.verdict == "uncertain"
    assert d.matches[0].entry.id == "WR-220"
    assert d.signature.facts[0].startswith("the loss climbed and did not come back down: it ends at 30.8 (step 8), "
                                           "above its first value 2.3 (step 0) and 14.7x its lowest, 2.1 (step 2)")


def test_a_climb_that_came_back_down_is_healthy_and_recovered_only_near_its_best():
    start = [2.3, 2.1, 1.9, 1.7, 1.6, 1.5, 1.4, 1.35, 1.3, 1.25, 1.2]
    back = _diagnosed("".join(f"step {i} loss {v}\n" for i, v in enumerate(start + [3.0, 8.0, 4.0, 1.5, 1.3])))
    assert back.signature.name == "healthy" and back.signature.facts[0].endswith("and recovered")
    partly = _diagnosed("".join(f"step {i} loss {v}\n" for i, v in enumerate(start + [3.0, 8.0, 4.0, 2.4, 2.2])))
    assert partly.signature.name == "healthy" and partly.signature.facts[0].endswith("and came partly back down")
    # back within 1.5x its lowest but settled well above it (at chance, 0.6931, after 0.5417): the numbers, not
    # "recovered" (review_session29_broad item 22)
    settled = _diagnosed("".join(f"epoch {i}: loss={v}\n" for i, v in enumerate(
        ["0.6924", "0.6102", "0.5417", "1.8820", "0.7406", "0.6931", "0.6931", "0.6931", "0.6931"])))
    assert "it climbed for a while around epoch 3 and came back down to 0.6931, above its lowest (0.5417);" in \
        settled.signature.facts[0] and "recovered" not in settled.signature.facts[0]


def test_a_loss_that_grows_and_stays_is_a_candidate_never_a_named_failure():
    """A GAN generator's loss can rise like this in a healthy run: diagnose says it cannot tell, and why."""
    d = _diagnosed("".join(f"step {i} loss {v}\n" for i, v in enumerate([0.7, 0.6, 0.9, 1.5, 2.4, 3.1, 3.3, 3.2, 3.4])))
    assert d.signature.name == "climbed-and-stayed" and d.verdict == "uncertain"
    assert "a GAN's generator loss" in d.signature.facts[0]


@pytest.mark.parametrize("ceiling, source, named", [(87.3365, "Caffe", ""), (16.1181, "Keras", ""),
                                                    (100.0, "BCELoss", "criterion = nn.BCELoss()\n")])
def test_a_loss_sitting_at_a_clamped_logs_ceiling_is_a_failure_not_a_flat_run(ceiling, source, named):
    d = _diagnosed(named + "".join(f"epoch {i} loss {ceiling:g}\n" for i in range(1, 5)))
    assert d.signature.name == "stuck-at-ceiling" and d.verdict == "uncertain"
    assert source in d.signature.facts[0] and f"sits at {ceiling:g}, the most" in d.signature.facts[0]


def test_a_ceiling_is_never_below_a_value_the_log_printed_and_100_takes_pytorch():
    fell = _diagnosed("criterion = nn.BCELoss()\n" + "".join(f"step {i} loss {v}\n" for i, v in
                                                              enumerate([250, 180, 130, 100.0, 100.0, 100.0])))
    assert not any("the most" in f for f in fell.signature.facts)        # a clamped loss is never above it
    bare = _diagnosed("".join(f"epoch {i} loss 100.0\n" for i in range(1, 5)))
    assert not any("BCELoss" in f for f in bare.signature.facts)         # 100 alone is a round number


def test_a_share_of_the_ceiling_matching_the_share_wrong_is_saturation():
    """88.65% of the examples wrong, each at -ln(1e-7) (Keras's 14.5063 is the same at 90% wrong)."""
    log = "".join(f"Epoch {i}/10\n60000/60000 [====] - 3s - loss: {v} - accuracy: {a}\n"
                  for i, (v, a) in enumerate([(2.3012, 0.1098), (14.2887, 0.1135), (14.2887, 0.1135),
                                              (14.2887, 0.1135)], start=1))
    d = _diagnosed(log)
    assert d.signature.name != "healthy"
    fact = next(f for f in d.signature.facts if "x 16.1181" in f)
    assert "with 88.6% of the examples wrong" in fact and "every prediction is saturated at the clip" in fact
    assert math.isclose((1 - 0.1135) * 16.1181, 14.2887, rel_tol=1e-5)


def test_the_ceiling_takes_the_value_twice_and_at_the_end():
    once = _diagnosed("epoch 1 loss 150\nepoch 2 loss 100\nepoch 3 loss 60\nepoch 4 loss 30\n")
    assert once.signature.name == "healthy" and not any("ceiling" in f for f in once.signature.facts)
    left = _diagnosed("epoch 1 loss 16.1181\nepoch 2 loss 16.1181\nepoch 3 loss 2.1\nepoch 4 loss 1.2\n")
    assert not any("ceiling" in f for f in left.signature.facts)
    # the ceiling's value is checked against the constant itself: 87.3365 is -ln of float32's smallest normal
    assert math.isclose(-math.log(float(np.finfo(np.float32).tiny)), 87.3365, rel_tol=1e-6)
    assert math.isclose(-math.log(float(np.float32(1e-7))), 16.1181, rel_tol=1e-5)


@pytest.mark.parametrize("values", [
    [0.061, 0.058, 0.055, 0.052, 0.050, 0.41, 0.38, 0.36, 0.35, 0.34, 0.33],      # mixup switched on in a resumed run
    [0.08, 0.075, 0.07, 0.35, 0.31, 0.27, 0.24, 0.22],                              # a warm restart, pasted mid-cycle
    [0.69, 0.30, 0.10, 0.05, 0.02, 1.10, 0.95, 0.90, 0.86, 0.83],                   # a curriculum's harder stage
])
def test_a_step_up_that_falls_again_is_not_a_climb_that_stayed(values):
    d = _diagnosed("".join(f"epoch {i} train_loss: {v}\n" for i, v in enumerate(values, start=31)))
    assert d.signature.name == "healthy" and d.verdict == "healthy"
    judged = ("too few values to judge a plateau or a stall (10 are needed)" if len(values) < 10 else
              "the values do not start at the run's start, so a plateau or a stall cannot be judged")
    assert d.signature.facts[0].endswith(f"and came partly back down; {judged}")


def test_a_converging_model_passing_a_share_of_the_ceiling_is_not_saturated():
    log = "".join(f"Epoch {i}/6\n100/100 [====] - 1s - loss: {v} - accuracy: {a}\n"
                  for i, (v, a) in enumerate([(2.1, 0.30), (1.2, 0.70), (0.7, 0.90), (0.4836, 0.97), (0.4835, 0.97),
                                              (0.4835, 0.97)], start=1))
    d = _diagnosed(log)
    assert d.signature.name == "healthy" and not any("saturated" in f for f in d.signature.facts)


def test_keras_binary_ceiling_has_its_float32_high_clip_value():
    """A confident 1 for a target of 0: -ln(1 - float32(1 - 1e-7)) = 15.9424; half the examples so: 7.9712."""
    assert math.isclose(-math.log(1 - float(np.float32(1) - np.float32(1e-7))), 15.9424, rel_tol=1e-5)
    log = "".join(f"Epoch {i}/5\n100/100 [====] - 1s - loss: 7.9712 - accuracy: 0.5000\n" for i in range(1, 5))
    d = _diagnosed(log)
    assert any("= 0.5 x 15.9424 with 50.0% of the examples wrong" in f for f in d.signature.facts)


def test_a_fractional_epoch_past_one_is_not_the_runs_start():
    """Hugging Face's Trainer numbers its log lines by a fractional epoch: 2.5 is not the start of the run."""
    d = _diagnosed("".join(f"{{'loss': nan, 'learning_rate': 4.8e-05, 'epoch': {e}}}\n" for e in (2.5, 2.75, 3.0)))
    assert d.signature.name == "nonfinite-throughout"
    d = _diagnosed("".join(f"{{'loss': {v}, 'learning_rate': 4.8e-05, 'epoch': {e}}}\n"
                           for v, e in (("nan", 0.42), ("nan", 0.84), ("nan", 1.26))))
    assert d.signature.first_epoch and "a logger's mean over its interval" in d.signature.facts[0]


def test_tf_keras_2s_binary_ceiling_and_keras_accuracy_names():
    """tf.keras 2 adds 1e-7 inside the log after the clip: -ln(2e-7) = 15.4249; half of it is 7.7125."""
    assert math.isclose(-math.log(float(np.float32(1e-7)) + 1e-7), 15.4249, rel_tol=1e-5)
    log = "".join(f"Epoch {i}/5\n8/8 [====] - 1s - loss: 7.7125 - binary_accuracy: 0.5000\n" for i in range(1, 5))
    d = _diagnosed(log)
    assert any("= 0.5 x 15.4249 with 50.0% of the examples wrong" in f for f in d.signature.facts)


def test_the_ceiling_takes_its_last_two_values_and_a_pytorch_bce_backward_names_the_loss():
    back = _diagnosed("".join(f"Iteration {i}, loss = {v}\n" for i, v in
                              zip(range(0, 600, 100), [2.30, 87.3365, 1.9, 1.8, 1.7, 87.3365])))
    # it had come back down between them: it does not sit there, but reached it twice, a batch clamped each time
    assert not any("the loss sits at 87.3365" in f for f in back.signature.facts)
    assert any("the loss reached 87.3365, the most Caffe's SoftmaxWithLoss can print, at 2 of its 6 values" in f
               for f in back.signature.facts)
    bce = _diagnosed("".join(f"step {i} loss=tensor({v}, grad_fn=<BinaryCrossEntropyBackward0>)\n"
                             for i, v in enumerate(["0.69", "0.5", "100.", "100.", "100."])))
    assert any("the most PyTorch's BCELoss can print" in f for f in bce.signature.facts)


def test_a_loss_that_spikes_then_freezes_at_one_value_is_a_stall():
    """Plain GD at too high a rate: a spike that kills the units, then the very same loss printed for the rest of
    the run (the labels' entropy: every output is the same). It was "recovered, ended below where it started" and
    named the no-warmup entry (review_session28_numpy item 6). A spike that recovers and keeps moving is still a
    spike."""
    frozen = [0.6954, 0.8732, 2.1405, 0.7101] + [0.6803] * 7
    sig = signature(frozen)
    assert sig.name == "stall-after-drop"
    assert sig.facts[0].startswith("the loss froze: its last 7 values (epoch 4 to epoch 10) are all 0.6803")
    d = diagnose(scan(io.BytesIO(log_of(frozen).encode()), "log"), CATALOG)
    assert d.matches[0].entry.id == "WR-140"
    moving = [0.6954, 0.8732, 2.1405, 0.7101] + [0.6803 - 0.01 * k for k in range(7)]
    assert signature(moving).name == "spike-then-recover"
    flat_from_start = [2.302, 2.3015] + [2.301] * 9                     # never moved: a plateau, not a freeze
    assert signature(flat_from_start).name == "plateau-from-start"


def test_an_entrys_second_signature_is_not_held_against_it_nor_counted_for_it():
    """WR-330 shows a plateau for a network of sigmoids and, for a linear model under plain gradient descent on raw
    features, a climb to inf (its snippet's table run): the climb was "against: the loss curve does not look like
    this entry's" (review_session28_sweep item 18). Its page names both; the climb's own entry keeps its lead."""
    entry = CATALOG.entries["WR-330"]
    assert entry.traces == ("plateau-from-start", "climb-then-nonfinite")
    # the second signature is what diagnose reads from the entry's own snippet: its table run on raw features
    snippet = load_snippet("wr330_unnormalised_inputs")
    table = snippet.table_runs()["raw units"]
    own = signature_of(scan(io.BytesIO(log_of(table).encode()), "log"))
    assert own.name == "climb-then-nonfinite" and own.enormous_start            # from a large first loss, 27342
    assert "first inf at epoch 26" in " ".join(own.facts)
    climb = [0.5 * 9.0 ** k for k in range(8)] + [math.inf, math.nan]
    d = diagnose(scan(io.BytesIO(("X is not scaled (sqft 500-5000).\n" + log_of(climb)).encode()), "log"), CATALOG)
    inputs = next(m for m in d.matches if m.entry.id == "WR-330")
    assert "curve" not in inputs.parts and not any("does not look like" in a for a in inputs.against)
    assert d.matches[0].entry.id == "WR-220"


def test_a_loss_that_ends_where_it_started_is_not_said_to_not_fall_from_a_value_to_itself():
    sig = signature([0.6932, 0.7019, 0.6950, 0.6931, 0.6940, 0.6932])
    assert sig.name == "healthy"
    assert "the loss ended where it started, at 0.6932 (lowest 0.6931, highest 0.7019)" in sig.facts[0]
    assert "from 0.6932 to 0.6932" not in sig.facts[0]


def test_a_stall_reached_by_going_back_up_says_so():
    """"fell from 7.881 to 6.512, then stopped ... within 1% of 7.61" passed over the climb back (review_session28_final
    item f12)."""
    sig = signature([7.8812, 6.9435, 6.5120, 7.4409, 7.5982, 7.6104, 7.6051, 7.6120, 7.6087, 7.6099, 7.6101, 7.6090])
    assert sig.name == "stall-after-drop" and "then went back up and stopped" in sig.facts[0]
    assert "then stopped" in signature(stalled()).facts[0]


def test_a_stall_whose_middle_the_paste_left_out_is_as_long_as_its_epochs_say():
    """Epochs 1-12, `...`, then 99 and 100: the flat tail is six values of fourteen, but 92 epochs of 100
    (review_session36_blind q25: called healthy, and "a stall" checked). The values count where the log numbers
    no epochs, and a flat tail shorter than half the run's epochs is still not a stall."""
    losses = ["0.7085", "0.6911", "0.6402", "0.5833", "0.5214", "1.3633", "0.9102", "0.7120", "0.6801", "0.6772",
              "0.6769", "0.6769"]
    def keras(epochs, last):
        return "".join(f"Epoch {e}/{last}\n8/8 [==============================] - 0s 2ms/step - loss: {v}\n"
                       for e, v in zip(epochs, losses + ["0.6769", "0.6769"]))
    elided = keras([*range(1, 13), 99, 100], 100)
    sig = signature_of(scan(io.BytesIO(elided.encode()), "log"))
    assert sig.name == "stall-after-drop" and "then went back up and stopped: the last 6 values (epoch 9/100 to " \
        "epoch 100/100) stay within 1% of 0.6769" in sig.facts[0]
    assert signature(losses + ["0.6769", "0.6769"]).name == "healthy"          # 14 epochs: 6 flat are too few
    short = keras([*range(1, 13), 15, 16], 16)                                # epochs 9-16 of 16: half, but < SHAPE_MIN
    assert signature_of(scan(io.BytesIO(short.encode()), "log")).name == "healthy"


def test_a_climb_with_steps_left_out_of_the_paste_is_rated_per_step():
    """Iterations 0 to 5, `...`, then 28: "about x3.61e+49 each time" took the last printed rise, 23 iterations, for
    one (review_session29_broad item 14); the rate is per step the log counts. Evenly printed steps keep "each time"."""
    values = ["14.2205", "6.117e+11", "2.6311e+22", "1.1317e+33", "4.8679e+43", "2.0938e+54"]
    text = "".join(f"Iteration {i}, cost: {v}\n" for i, v in enumerate(values)) + "...\n" + \
        "Iteration 28, cost: 3.1597e+298\nIteration 29, cost: inf\nIteration 30, cost: nan\n"
    fact = _diagnosed(text).signature.facts[0]
    assert "from 14.22 at iteration 0 to 3.16e+298 at iteration 28, about x4.16e+10 a step over 28 steps, some of " \
           "them not in the paste" in fact
    assert round((3.1597e+298 / 14.2205) ** (1 / 28) / 1e10, 2) == 4.16
    even = "".join(f"step {100 * k} loss {v}\n" for k, v in enumerate(["2.1", "1.9", "3.8", "7.6", "15.2", "30.4", "nan"]))
    assert "about x2 each time" in _diagnosed(even).signature.facts[0]


def test_wr360s_second_signature_is_its_snippets_adam_run():
    """Under Adam unscaled targets do not blow up: the loss sits in the millions (WR-360's Symptom). Its snippet's
    Adam run, read through diagnose, is a plateau from an enormous start, so WR-360 declares that second signature;
    an MLPRegressor whose loss sat at 1.95e10 did not list it (review_session29_broad2 item f15: "against: the loss
    curve does not look like this entry's")."""
    wr360 = load_snippet("wr360_unscaled_targets")
    X, y = wr360.training_split()
    run = wr360.descend(wr360.init_params(), X, y, 1e-3, adam=True)["loss"]
    own = signature_of(scan(io.BytesIO(log_of([f"{v:.6g}" for v in run]).encode()), "log"))
    assert own.name == "plateau-from-start" and own.enormous_start
    assert CATALOG.entries["WR-360"].traces == ("nonfinite-from-start", "plateau-from-start")
    d = diagnose(scan(io.BytesIO(("MLPRegressor on SalePrice (mean 180796), raw targets.\n" + log_of(
        [f"{1.952e10 * (1 - 0.001 * k):.6g}" for k in range(12)])).encode()), "log"), CATALOG)
    targets = next(m for m in d.matches if m.entry.id == "WR-360")
    assert not any("does not look like" in a for a in targets.against)


def test_the_last_jump_of_a_saw_tooth_is_a_swing_not_a_climb():
    """A loss that drops near 0 and jumps back at the same batches again and again ends on a jump no higher than the
    ones before it: not a climb still going, nor one that stayed (review_session31_broad a40: "risen 1 times in a row"
    named WR-220). A jump past every earlier one still is."""
    values = [2.31, 0.0031, 0.0008, 6.88, 0.0102, 7.10, 0.0047, 6.55]
    log = "".join(f"epoch 1 batch {b} loss {v}\n" for b, v in zip((0, 100, 150, 157, 200, 313, 350, 469), values))
    d = diagnose(scan(io.BytesIO(log.encode()), "log"), CATALOG)
    assert d.signature.name == "healthy" and "a swing that returns again and again" in d.signature.facts[0]
    assert "the loss swung between 0.0008 and 7.1, going from 2.31 to 6.55" in d.signature.facts[0]
    higher = log.replace("loss 6.55", "loss 19.5")
    assert diagnose(scan(io.BytesIO(higher.encode()), "log"), CATALOG).signature.name in ("climbing", "climbed-and-stayed")


def test_a_frozen_tail_whose_rows_the_paste_left_out_is_judged_by_the_steps_it_spans():
    """A TensorBoard export that learns, bumps three times, then logs one value to every digit from step 31 to step
    299 with the rows between left out ("(... same value on every row ...)"): eight frozen values of 39, but 268 of
    the run's 299 steps. The outputs stopped changing: a stall, not a healthy run."""
    from trainwreck.logscan import scan_text

    moving = ["0.695", "0.682", "0.668", "0.647", "0.620", "1.313", "0.704", "0.660", "0.641", "0.629", "0.615",
              "0.604", "0.599", "0.594", "1.085", "0.688", "0.669", "0.664", "0.663", "0.662", "0.662", "0.661",
              "0.661", "0.977", "0.674", "0.663", "0.661", "0.660", "0.660", "0.659", "0.6591"]
    rows = "".join(f"1715087222.4,{k},{v}\n" for k, v in enumerate(moving))
    frozen = "".join(f"1715087222.4,{k},0.6589556932449341\n" for k in (31, 32, 33, 34, 35))
    late = "".join(f"1715087222.4,{k},0.6589556932449341\n" for k in (200, 298, 299))
    text = "Wall time,Step,Value\n" + rows + frozen + "(... same value on every row ...)\n" + late
    from trainwreck.curve_shape import signature_of
    sig = signature_of(scan_text(text))
    assert sig.name == "stall-after-drop"
    assert sig.facts[0].startswith("the loss froze: its last 8 values (step 31 to step 299) are all 0.659")
    # (the same eight values over eight steps of a run of 39 are no such tail)
    dense = "Wall time,Step,Value\n" + rows + "".join(f"1715087222.4,{k},0.6589556932449341\n" for k in range(31, 39))
    assert signature_of(scan_text(dense)).name != "stall-after-drop"


def test_a_climb_not_yet_non_finite_beside_a_clip_that_never_engaged_is_the_clips_face():
    """A loss still climbing at the paste's end (no nan printed yet) with its gradient norms printed beside it, all
    below the clip's max_norm: the clip never shortened a step of the climb, WR-240's face as much as a climb that
    went on to nan -- first, with the fact said. A threshold the norms passed leaves the plain climb."""
    rows = [("0.6931", "0.51"), ("0.7402", "2.3"), ("1.1310", "7.9"), ("2.9044", "24.6"), ("9.7731", "80.2"),
            ("31.220", "263.7")]
    log = ("loss.backward()\nclip_grad_norm_(model.parameters(), max_norm=500.0)\noptimizer.step()\n"
           + "".join(f"step {40 * k:<4d} loss {v}  grad_norm {g}\n" for k, (v, g) in enumerate(rows)))
    d = diagnose(scan(io.BytesIO(log.encode()), "report", None), CATALOG)
    assert d.signature.name == "climb-despite-clipping"
    assert d.matches[0].entry.id == "WR-240"
    assert "gradient clipping at 500 never engaged: the largest gradient norm printed was 263.7" \
        in d.matches[0].evidence
    passed = log.replace("max_norm=500.0", "max_norm=100.0")
    assert diagnose(scan(io.BytesIO(passed.encode()), "report", None), CATALOG).signature.name == "climbing"


def test_a_loss_that_halved_but_stayed_enormous_keeps_its_enormous_start():
    """8.4e9 falling to 1.9e8 has halved, and is still no loss a classifier's mean cross-entropy reaches by learning:
    the run was broken from the start (here by weights drawn at std 1), not healthy. One that fell below the enormous
    range learned."""
    values = ["8419233792.0", "3127608064.0", "1702935424.0", "918220800.0", "187736352.0"]
    # (the accuracy moves, 0.14 to 0.28: no "never learned" keeps the start enormous; the loss's own range does)
    log = "".join(f"Epoch {e}/5 | loss: {v} | acc: 0.{10 + 4 * e}\n" for e, v in enumerate(values, start=1))
    code = "for m in model.modules():\n    if isinstance(m, nn.Linear):\n        nn.init.normal_(m.weight, std=1.0)\n"
    d = diagnose(scan(io.BytesIO((code + log).encode()), "report", None), CATALOG)
    assert d.signature.enormous_start and d.matches[0].entry.id == "WR-120"
    learned = log.replace("187736352.0", "2.1")
    # (code_review_s43 S1: a loss the paste sums is large by construction: halved, it learned)
    summed = "criterion = nn.CrossEntropyLoss(reduction='sum')\n" + log
    assert not signature_of(scan(io.BytesIO(summed.encode()), "report", None)).enormous_start
    assert not signature_of(scan(io.BytesIO(learned.encode()), "report", None)).enormous_start


def test_a_tail_that_moves_by_less_than_a_millionth_is_frozen_however_many_digits_are_printed():
    """scikit-learn prints eight decimals: 0.66409330, 0.66409318, ... 0.66409309 is a bias settling on the loss of a
    constant prediction, frozen to a millionth -- after a spike, a stall (WR-140). A tail still falling by a ten
    thousandth a step is a descent, not frozen."""
    spike = ["0.71544731", "1.93860219", "0.88412375", "0.70121954", "0.66793412", "0.66411021"]
    tail = ["0.66409330", "0.66409318", "0.66409313", "0.66409311", "0.66409310", "0.66409310"] + ["0.66409309"] * 5
    log = "".join(f"Iteration {k}, loss = {v}\n" for k, v in enumerate(spike + tail, start=1))
    d = diagnose(scan(io.BytesIO(log.encode()), "report", None), CATALOG)
    assert d.signature.name == "stall-after-drop" and d.matches[0].entry.id == "WR-140"
    assert "its last 11 values (iteration 7 to iteration 17) are all 0.6641, the same to within 6.64e-07" \
        in d.signature.facts[0]
    falling = [f"{0.66409330 * (1 - 1e-4) ** k:.8f}" for k in range(11)]
    moving = "".join(f"Iteration {k}, loss = {v}\n" for k, v in enumerate(spike + falling, start=1))
    assert signature_of(scan(io.BytesIO(moving.encode()), "report", None)).name != "stall-after-drop"


def test_per_step_losses_of_tiny_batches_that_end_below_their_high_are_noise():
    """Batches of 8: 0.31, 1.74, 0.52, 1.12, 0.08, 1.93, 0.64 is the swing of 8 examples' mean, not a loss that climbed
    back above its start and stayed -- healthy. The same values at batch size 256, or ending on a new high, are not."""
    said = "I can only use batch size 8. The per-step loss goes 0.31, 1.74, 0.52, 1.12, 0.08, 1.93, 0.64 and so on.\n"
    assert diagnose(scan(io.BytesIO(said.encode()), "report", None), CATALOG).signature.name == "healthy"
    large = said.replace("batch size 8", "batch size 256")
    assert diagnose(scan(io.BytesIO(large.encode()), "report", None), CATALOG).signature.name == "climbed-and-stayed"
    high = said.replace("1.93, 0.64", "1.93, 2.64")
    assert diagnose(scan(io.BytesIO(high.encode()), "report", None), CATALOG).signature.name == "climbing"


def test_a_small_batchs_loss_that_climbed_and_holds_a_level_is_no_swing():
    """A batch of 4 names noise, but noise moves the loss value to value: one that fell to 2.1, climbed to 3.6 and
    then holds 3.4-3.5 for five values lost what it learned (a divergence that found a plateau), whatever the batch.
    The same run, still swinging at its end, is a small batch's noise; and a validation loss that rose beside a training
    loss that rose too is not called overfitting."""
    from trainwreck.validation_curve import trend

    train = [6.02, 4.71, 3.55, 2.64, 2.18, 2.10, 2.23, 2.61, 3.12, 3.58, 3.47, 3.41, 3.52, 3.44, 3.49]
    log = "batch_size = 4\n" + "".join(f"it {100 * k} train loss {v}\n" for k, v in enumerate(train))
    d = diagnose(scan(io.BytesIO(log.encode()), "report", None), CATALOG)
    assert d.signature.name == "climbed-and-stayed"
    assert d.signature.facts[0].startswith("the loss fell to 2.1 (it 500), then climbed back")
    swinging = log.replace("3.41", "1.41").replace("3.49", "2.09")
    assert diagnose(scan(io.BytesIO(swinging.encode()), "report", None), CATALOG).signature.name == "healthy"
    val = "".join(f"val loss {v}\n" for v in (4.9, 3.1, 2.4, 2.9, 3.6))
    assert "overfitting" in trend(val, rose_only=True, train_fell=True)
    assert trend(val, rose_only=True, train_fell=True, train_rose=True) == ""
    # (a training loss that climbed back is judged on means of a few values in a row: batches of 8 swing several-fold
    # while the trend falls, and the validation loss that rose beside it is overfitting, said so)
    from trainwreck.diagnose import _climbed_back
    falling = [1.92, 1.41, 0.62, 1.05, 0.21, 0.55, 0.08, 0.30, 0.04, 0.19]
    assert not _climbed_back(falling) and _climbed_back(falling[:7] + [0.61, 0.66, 0.63])
    epochs = [(1, 1.92, 1.41, 1.35), (2, 0.62, 1.05, 1.02), (3, 0.21, 0.55, 1.10), (4, 0.08, 0.30, 1.31),
              (5, 0.04, 0.19, 1.52)]
    small = "batch_size = 8\n" + "".join(f"Epoch {e} step {200 * e - 100} train loss {a}\nEpoch {e} step {200 * e} train "
                                         f"loss {b}\nEpoch {e} val loss {v}\n" for e, a, b, v in epochs)
    d = diagnose(scan(io.BytesIO(small.encode()), "report", None), CATALOG)
    assert d.verdict == "healthy" and "rose since, to 1.52: that is overfitting" in d.trend
    # (nor does one lucky batch make a low that a settled level is 1.5x above: the swing of batches of 8 that ends
    # near its typical level is still a swing)
    settled_noise = "batch_size = 8\n" + "".join(f"step {50 * k} loss {v}\n" for k, v in enumerate(
        (0.31, 1.74, 0.52, 1.12, 0.08, 1.93, 0.64, 0.61, 0.66, 0.63)))
    assert diagnose(scan(io.BytesIO(settled_noise.encode()), "report", None), CATALOG).signature.name == "healthy"


def test_a_loss_back_at_the_uniform_guess_after_it_had_learned_is_a_collapse():
    """Ten classes under a cross-entropy: ln 10 = 2.303 is the loss of a uniform guess. A loss that learned (three values
    in a row well below it), diverged to 4x it, and came back down only to 2.30-2.31 scores what the guess scores: it
    lost what it learned (a collapse), not a spike it recovered from, though it ends below where it started. Not a loss
    that started at ln 10 and fell, nor one that came down to it from above; not a small batch's noise around ln 10 that
    dipped once and never diverged; not a regression's or a detector's summed loss that happens to sit at ln C; and
    in a log printed in bits, the guess is log2 C, said so."""
    from trainwreck.curve_shape import signature_of
    from trainwreck.logscan import scan_text

    def facts(said: str, values: list[float], line: str = "epoch {k} loss {v}\n") -> str:
        return " ".join(signature_of(scan_text(said + "".join(line.format(k=k, v=v) for k, v in
                                                              enumerate(values, 1)))).facts)

    said = "CIFAR-10 style task, 10 classes, ResNet-18, SGD, cross-entropy.\n"
    values = [2.31, 1.92, 1.63, 1.41, 1.52, 4.87, 9.60, 3.75, 2.41, 2.306, 2.301, 2.304]
    sig = signature_of(scan_text(said + "".join(f"epoch {k} loss {v}\n" for k, v in enumerate(values, 1))))
    assert sig.name == "climbed-and-stayed"
    assert sig.facts[0].startswith("the loss fell to a mean of 1.52 over 3 values (epoch 3 to epoch 5), below 2.303 -- "
                                   "ln 10, the loss of a uniform guess over the 10 classes (the paste says `10 classes`) "
                                   "-- then climbed to 9.6 and came back down only to that guess: its last 3 values "
                                   "(epoch 10 to epoch 12) sit at it")
    healthy = [2.31, 1.92, 1.63, 1.41, 1.30, 1.21, 1.15, 1.09, 1.05, 1.02, 0.99, 0.97]
    assert "uniform guess" not in facts(said, healthy)
    assert "uniform guess" not in facts(said, [9.1, 6.2, 4.0, 3.1, 2.6, 2.40, 2.33, 2.31, 2.305, 2.303])
    # (or straight back to the guess and pinned there, with no climb above it: a unit gone dead)
    pinned = [2.31, 1.8, 1.52, 1.31, 1.2, 1.15, 1.12, 2.302, 2.304, 2.301, 2.303, 2.302, 2.303]
    assert "went back to that guess: its last 6 values (epoch 8 to epoch 13) sit at it" in facts(said, pinned)
    # (noise of batches of 4 around the guess, a dip and no divergence)
    noisy = [2.31, 2.12, 1.95, 2.40, 1.82, 2.21, 2.55, 1.90, 2.08, 2.37, 1.86, 2.24, 2.29, 2.32]
    assert "uniform guess" not in facts("batch_size = 4, 10 classes, cross-entropy\n", noisy)
    # (no classifier's loss, or one said to be a regression's, a detector's total, a sum)
    assert "uniform guess" not in facts("CIFAR-10 style task, 10 classes, ResNet-18, SGD.\n", values)
    assert "uniform guess" not in facts(said + "Total loss per epoch (sum of the rpn and roi heads' losses)\n", values)
    assert "uniform guess" not in facts("MSE regression of prices, 10 classes of district, cross-entropy aside\n", values)
    # (fairseq prints bits: the guess over its 7992 tokens is log2 7992 = 12.96)
    bits = [12.96, 11.20, 9.10, 7.95, 7.40, 7.12, 19.80, 22.40, 12.93, 12.97, 12.95]
    head = (ROOT / "tests/logs/fairseq/no_warmup_spike_in_bits.log").read_text().splitlines(keepends=True)[:6]
    fairseq = "".join(head) + "".join(
        f"2024-06-11 08:03:09 | INFO | train_inner | epoch 001:   {25 * k:>4} / 610 loss={v}, ppl=2.0, wps=16201.3, "
        f"ups=2.21, wpb=7330.1, bsz=244.6, num_updates={25 * k}, lr=0.0005, gnorm=2.871, train_wall=11, wall=14\n"
        for k, v in enumerate(bits, 1))
    collapsed = " ".join(signature_of(scan_text(fairseq)).facts)
    assert "-- log2 7992, the loss of a uniform guess over the vocabulary's 7992 tokens" in collapsed, collapsed


def test_a_tensorboard_export_introduced_as_another_tag_is_not_read_as_the_loss():
    """The export does not name its tag; the line that introduces it may ("Validation accuracy, exported from
    TensorBoard (val/acc):"): an accuracy that climbs from 0.01 to 0.99 is no loss that climbs. Introduced as the loss,
    or by nothing, it is read."""
    from trainwreck.logscan.dialects.tensorboard_csv import _other_tag
    rows = "".join(f"17162033{i:02d}.5,{1000 * i},{v}\n" for i, v in
                   enumerate(["0.0103", "0.0117", "0.0121", "0.0314", "0.1872", "0.7405", "0.9868", "0.9962"]))
    for said, other in (("Train loss is ~1e-3 from there. Validation accuracy, exported from TensorBoard (val/acc):", True),
                        ("The learning rate, from TensorBoard:", True),
                        ("Validation loss, exported from TensorBoard:", False),
                        ("Here is the export:", False)):
        text = f"{said}\n\n```\nWall time,Step,Value\n{rows}```\n"
        assert _other_tag(text.encode()) is other, said
        ev = scan(io.BytesIO(text.encode()), "report")
        assert (ev.count == 0) is other, said


def test_a_slow_climb_back_from_the_lowest_that_ends_below_the_first_value_climbed_and_stayed():
    """2.21, 1.55, 1.32, 1.25, then back up at most prints to 1.97: still below the first value, but 1.6x its lowest and
    near its highest since -- a loss that learned and lost it again, not a fall. A loop pasted beside it (a `return`
    statement) and a Keras data generator named in words are no RL return nor GAN generator, whose logged losses may
    grow in a healthy run; an episode return named is one."""
    values = [2.2137, 1.5518, 1.3204, 1.2461, 1.3987, 1.6815, 1.9402, 1.8127, 2.1036, 1.9748]
    code = "def step(params, batch):\n    loss, g = grad_fn(params, batch)\n    return params, loss\n"

    def sig(prose):
        return signature_of(scan(io.BytesIO((log_of(values) + prose).encode()), "log"))

    for prose in ("", code, "Batches come from a data generator that reads the shards.\n"):
        s = sig(prose)
        assert s.name == "climbed-and-stayed", prose
        assert s.facts[0].startswith("the loss fell to 1.246 (epoch 3), then climbed back: it rose at 4 of the 6 "
                                     "values after its lowest and ends at 1.975 (epoch 9), 1.58x its lowest")
    assert sig("This is the critic's loss while the mean episode return grows.\n").name == "healthy"
    # (a climb back to under RECOVERED times the lowest, or one that came well down from its peak, is no climb that stayed)
    assert signature(values[:4] + [1.30, 1.38, 1.45, 1.41, 1.52, 1.55]).name == "healthy"
    assert signature(values[:-1] + [1.30]).name == "healthy"


def test_a_decaying_schedule_with_no_warmup_named_starts_at_its_top_rate():
    """"AdamW, cosine decay from 3e-4 to 0", with no warmup named anywhere: the schedule's first step is at its top rate,
    so a jump of NO_WARMUP_JUMP times the first loss in the first steps that recovers is the no-warmup spike. Not where
    a warmup is named, nor under plain SGD."""
    values = [4.1, 5.0, 6.9, 7.3, 6.2, 5.1, 4.0, 3.4, 2.9, 2.5, 2.2]
    said = "ViT fine-tune, AdamW, cosine decay from 3e-4 to 0 over the run.\n"

    def sig(prose):
        log = "".join(f"step {20 * i} loss {v}\n" for i, v in enumerate(values))
        return signature_of(scan(io.BytesIO((prose + log).encode()), "log"))

    s = sig(said)
    assert s.name == "spike-then-recover"
    assert 'under AdamW, with a decaying schedule ("cosine decay") that starts at its top rate' in s.facts[0]
    assert sig(said.replace("cosine decay", "500 warmup steps, then cosine decay")).name == "healthy"
    assert sig(said.replace("AdamW", "SGD with momentum")).name == "healthy"
    assert max(values[:3]) < 3.0 * values[0]         # (a jump too small to be a spike without the schedule's words)


def test_an_early_jump_said_as_a_multiple_or_from_one_number_to_another():
    """"In the first dozen or so steps the loss roughly triples, then it slowly comes back down"; "the loss goes from
    about 10 to more than 20 in the first few steps, then it comes back down": the jump said without the word. A rise
    from one number to another less than twice it is no jump."""
    from trainwreck.start_loss import early_jump_back_said
    assert early_jump_back_said("In the first dozen or so steps the loss roughly triples, then it slowly comes back "
                                "down. AdamW.")
    assert early_jump_back_said("In the first few steps the loss goes from about 10 to more than 20, then it comes "
                                "back down.")
    assert not early_jump_back_said("In the first few steps the loss goes from about 10 to 13, then it comes back "
                                    "down.")
    assert not early_jump_back_said("In the first few steps the loss triples, then it comes back down. Plain SGD.")


def test_a_tokenizers_size_is_the_vocabulary():
    """"A BPE tokenizer with 4096 tokens" is a language model's vocabulary, the classes its uniform start is ln of; the
    tokens it splits a sequence into are not."""
    from trainwreck.class_count import vocabulary_named
    assert vocabulary_named("a BPE tokenizer with 4096 tokens trained on the corpus")[0] == 4096
    assert vocabulary_named("our SentencePiece tokenizer of 32k pieces")[0] == 32000
    assert vocabulary_named("the tokenizer splits it into 512 tokens per sequence") is None


def test_code_review_s52_curves_stay_where_they_belong():
    """(code_review_s52) The slow climb back is no validation curve's U, nor a plateau after one low batch, nor a climb
    that came well down from its top; a plural RL "returns" and rewards still grow in a healthy run, a torch.Generator's
    seed is no GAN; a schedule that raises the rate first (OneCycleLR, a ramp, timm's train.py, a printed rate that
    climbs) or a cosine similarity is no decay from the top rate, and a batch of a few examples vetoes it."""
    values = [2.2137, 1.5518, 1.3204, 1.2461, 1.3987, 1.6815, 1.9402, 1.8127, 2.1036, 1.9748]

    def curve(prose, vals=values, rate=None):
        log = "".join(f"step {20 * i} loss {v}" + (f" lr {rate[i]}" if rate else "") + "\n" for i, v in enumerate(vals))
        return signature_of(scan(io.BytesIO((prose + log).encode()), "log")).name

    assert curve("") == "climbed-and-stayed"
    assert curve("These are the validation losses; the training loss keeps falling to 0.05. Is this overfitting?\n") \
        == "healthy"
    assert curve("", [2.0, 1.6, 1.3, 0.62, 0.95, 0.97, 1.01, 0.99, 1.02, 1.04]) == "healthy"
    assert curve("", values[:-2] + [2.4, 1.95]) == "healthy"        # (1.56x its lowest, but well down from 2.4)
    assert curve("Value loss of my A2C agent while the returns keep growing.\n") == "healthy"
    assert curve("The mean episode return grows.\n") == "healthy"
    assert curve("loader = DataLoader(ds, generator=torch.Generator().manual_seed(42))\n") == "climbed-and-stayed"
    jump = [4.1, 5.0, 6.9, 7.3, 6.2, 5.1, 4.0, 3.4, 2.9, 2.5, 2.2]
    said = "ViT fine-tune, AdamW, cosine decay from 3e-4 to 0 over the run.\n"
    assert curve(said, jump) == "spike-then-recover" and curve("ViT fine-tune, AdamW.\n", jump) == "healthy"
    for other in ("AdamW with OneCycleLR (cosine annealing), max_lr 3e-4.\n",
                  "AdamW; the lr ramps up linearly for 1000 steps, then cosine decay to 0.\n",
                  "Adam with cosine similarity loss and a cosine schedule.\n",
                  "ViT fine-tune with timm's train.py: AdamW, cosine schedule.\n",
                  said.replace("over the run", "over the run, batch size 4")):
        assert curve(other, jump) == "healthy", other
    rising = [0.0, 3e-5, 6e-5, 9e-5, 1.2e-4, 1.5e-4, 1.8e-4, 2.1e-4, 2.4e-4, 2.7e-4, 3e-4]
    assert curve(said, jump, rising) == "healthy"


def test_a_loss_that_ramps_up_is_no_schedule_that_ramps_the_rate():
    """(code_review_s52b #18) "the loss ramps up" is the failure, said; it is neither a warmup that vetoes the decay from
    the top rate nor a weight ramped up by design that makes a climb healthy. A ramp of the rate or a weight still is."""
    from trainwreck.curve_shape import ramped_up

    assert ramped_up("AdamW; the lr ramps up linearly for 1000 steps.")
    assert ramped_up("The consistency weight is ramped up from 0 over 3 epochs.")
    assert not ramped_up("After epoch 3 the loss ramps up and never comes back.")
    assert not ramped_up("The lr is 3e-4. After epoch 3 the training loss slowly ramps up.")
    # (review s53 #13: a pronoun whose subject is the last sentence's loss, and an error rate, are the loss's)
    assert not ramped_up("The training loss is fine for two epochs. Then it ramps up and never comes back.")
    assert not ramped_up("The error rate ramps up after epoch 5.")
    assert ramped_up("I use a warmup. It ramps up over 500 steps.")
    assert not ramped_up("The loss is fine for 3 epochs at a constant lr. Then it ramps up and never comes back.")
    jump = [4.1, 5.0, 6.9, 7.3, 6.2, 5.1, 4.0, 3.4, 2.9, 2.5, 2.2]
    said = "ViT fine-tune, AdamW, cosine decay from 3e-4 to 0 over the run. The loss ramps up at the start.\n"
    log = "".join(f"step {20 * i} loss {v}\n" for i, v in enumerate(jump))
    assert signature_of(scan(io.BytesIO((said + log).encode()), "log")).name == "spike-then-recover"
    doubled = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(("0.52", "0.61", "1.15", "1.21", "1.22"), 1))
    climbed = signature_of(scan(io.BytesIO(("The loss ramps up from epoch 2.\n" + doubled).encode()), "log")).name
    assert climbed == "climbed-and-stayed"


def test_a_slow_climb_back_is_read_beside_a_check_that_overfits_one_batch_but_not_in_a_validation_curve():
    """(code_review_s52b #17) "I can't even overfit a single batch" is a check of the training, no overfitting of the run,
    so the slow climb back is still read beside it; "here is my val loss" calls the values a validation curve."""
    values = [2.2137, 1.5518, 1.3204, 1.2461, 1.3987, 1.6815, 1.9402, 1.8127, 2.1036, 1.9748]
    log = "".join(f"step {20 * i} loss {v}\n" for i, v in enumerate(values))

    def curve(prose):
        return signature_of(scan(io.BytesIO((prose + log).encode()), "log")).name

    assert curve("I can't even overfit a single batch with this model.\n") == "climbed-and-stayed"
    assert curve("Overfitting one batch works fine, but the full run climbs back.\n") == "climbed-and-stayed"
    assert curve("It overfits a small subset in 50 steps; on the full data it climbs back.\n") == "climbed-and-stayed"
    assert curve("It can overfit 32 images in 100 steps, but the full run climbs back.\n") == "climbed-and-stayed"
    assert curve("Here is my val loss:\n") == "healthy"
    assert curve("The model seems to overfit after epoch 3.\n") == "healthy"


def test_a_loss_set_to_sum_over_the_batch_is_large_by_construction():
    """TensorFlow Recommenders' Retrieval task sums its cross-entropy over the batch by default (Reduction.SUM), as does
    a loss built with reduction="sum": an in-batch softmax over 4,096 candidates starts near 4096 x ln 4096, 34,000 --
    no enormous start. Unset, the same numbers are one."""
    log = "".join(f"Epoch {e}/4\n220/220 - 15s - loss: {v}\n" for e, v in enumerate((34120.7, 31876.2, 30990.4, 30412.8), 1))

    def enormous(prose):
        return bool(signature_of(scan(io.BytesIO((prose + log).encode()), "log")).enormous_start)

    assert enormous("Two-tower retrieval over a film catalogue, batch 4096.\n")
    assert not enormous("Two-tower retrieval over a film catalogue, batch 4096, "
                        "task = tfrs.tasks.Retrieval(metrics=m).\n")
    assert not enormous("loss_fn = keras.losses.CategoricalCrossentropy(reduction=keras.losses.Reduction.SUM)\n")
    assert enormous("loss_fn = keras.losses.CategoricalCrossentropy(reduction=keras.losses.Reduction.SUM_OVER_BATCH_SIZE)\n")


def test_a_loss_below_zero_has_no_ratio_to_climb_by():
    """A critic's loss is below zero: -2.41 then -2.35 and nan is no jump "x inf", and a rise is told as a difference."""
    log = "".join(f"it {100 * i} loss_C {v}\n" for i, v in enumerate(("-2.52", "-2.47", "-2.41", "-2.35", "nan")))
    sig = signature_of(scan(io.BytesIO(log.encode()), "log"))
    facts = " ".join(sig.facts)
    assert "xinf" not in facts and "x-" not in facts and "from -2.52 at it 0 to -2.35 at it 300, by 0.17 in all" in facts
    # (and one rise, too small to be a jump, below zero is none: -1.77 then -1.71 is no rise of x0.96)
    one = "it 0 loss_C -1.772\nit 50 loss_C -1.708\nit 100 loss_C nan\n"
    assert "x0.96" not in " ".join(signature_of(scan(io.BytesIO(one.encode()), "log")).facts)


def test_softmax_twice_under_adam_falls_to_its_floor_and_stalls_as_wr130_declares():
    """WR-130's second signature: with Adam the loss comes down to log(1 + (C - 1)/e) and stops there. The snippet's
    Adam run, every epoch of it, reads as a stall after a drop, the signature the entry declares as its second."""
    wr130 = load_snippet("wr130_softmax_before_logits_loss")
    losses = [float(v) for v in wr130.long_runs()["probs_adam"]["loss"]]
    assert losses[-1] == pytest.approx(wr130.floor(), abs=0.02)
    assert signature(losses).name == "stall-after-drop"
    # declared, the stall is not held against the entry, as another signature is
    from conftest import weighed_parts

    log = log_of(losses[::30])
    assert signature(losses[::30]).name == "stall-after-drop"
    assert "curve" not in weighed_parts(log, "WR-130")
    assert weighed_parts(log_of([2.3026] * 12), "WR-130")["curve"] > 0                 # its own plateau still counts
    assert weighed_parts(log_of([0.7 * 2 ** k for k in range(6)] + [math.inf]), "WR-130")["curve"] < 0


def test_a_nan_printed_for_the_first_step_beside_other_processes_finite_lines_is_a_start_already_broken():
    """Each rank of a distributed run prints its own loss for the same step: a nan on one of the lines for the step the
    log starts at came before any update -- the run broke at its start, as a first value does, not after a descent.
    A nan at a later step, after the same finite lines, is no such start."""
    lines = "".join(f"[rank{r}] epoch 0 step 0 loss {v}\n" for r, v in enumerate(["0.6949", "0.6927", "nan", "0.6941"]))
    later = "".join(f"[rank{r}] epoch 0 step 1 loss nan\n" for r in range(4))
    ev = scan(io.BytesIO((lines + later).encode()), "log")
    sig = signature_of(ev)
    assert sig.name == "nonfinite-from-start"
    assert "already nan on one of the 3 lines printed for epoch 0, step 0, the step the log starts at" in sig.facts[0]
    moved = lines.replace("step 0 loss nan", "step 1 loss nan").replace("[rank3] epoch 0 step 0", "[rank3] epoch 0 step 1")
    assert signature_of(scan(io.BytesIO((moved + later).encode()), "log")).name != "nonfinite-from-start"
    # (final_review_s76 1: a loop that labels each batch's line with its epoch alone, lines of one process with no
    # marks, and ranks whose log starts at step 500, not at the run's start)
    epoch_only = "".join(f"Epoch 0: loss {v}\n" for v in ["0.6931", "0.6720", "0.6510", "0.6302", "nan", "nan"])
    unmarked = "".join(f"epoch 0 step 0 loss {v}\n" for v in ["0.6949", "0.6927", "nan", "0.6941"]) + later
    late = (lines + later).replace("step 0 ", "step 500 ").replace("step 1 ", "step 510 ")
    # (whole_diff_review_s76 1: marked lines labelled by their epoch alone, and one process printing the same step again)
    epoch_marked = "".join(f"[rank{r % 2}] Epoch 0: loss {v}\n" for r, v in enumerate(["0.6931", "0.6720", "0.6510", "nan"]))
    one_process = "".join(f"[rank0] epoch 0 step 0 loss {v}\n" for v in ["0.6949", "0.6927", "nan", "0.6941"]) + later
    for other in (epoch_only, unmarked, late, epoch_marked, one_process):
        assert signature_of(scan(io.BytesIO(other.encode()), "log")).name != "nonfinite-from-start", other
    # (mends_review_s76 10: DeepSpeed's `[Rank 0]` and a `[GPU 0]` mark a process too)
    for mark in ("[Rank {r}]", "[GPU {r}]"):
        marked = "".join(f"{mark.format(r=r)} epoch 0 step 0 loss {v}\n"
                         for r, v in enumerate(["0.6949", "0.6927", "nan", "0.6941"]))
        assert signature_of(scan(io.BytesIO((marked + later).encode()), "log")).name == "nonfinite-from-start", mark
