"""A rate the log prints beside each loss says whether the run warmed up: a warmup raises it from near zero, so a rate
at its highest from the first value printed -- constant, or decaying from there -- had none."""
import re
from pathlib import Path

from conftest import diagnosis

DECAY = (Path(__file__).parent / "logs" / "hf_trainer" / "decay_from_step_zero_spike.log").read_text()


def with_rates(text: str, rates: list[float]) -> str:
    found = iter(rates)
    return re.sub(r"'learning_rate': [^,]+", lambda m: f"'learning_rate': {next(found)!r}", text)


def test_a_rate_decaying_from_its_first_value_is_no_warmup():
    d = diagnosis(DECAY)
    assert d.matches[0].entry.id == "WR-250"
    assert any("at its highest, 4.98333e-05, at its first value and falling" in e for e in d.matches[0].evidence)


def test_a_rate_that_rises_over_the_first_values_is_a_warmup_and_the_small_spike_names_nothing():
    warm = with_rates(DECAY, [5e-6 * (i + 1) for i in range(8)])
    d = diagnosis(warm)
    # (read as the warmup's own rise, or as nothing: never as a failure)
    assert d.verdict in ("healthy", "normal") and not any(m.entry.id == "WR-250" for m in d.matches)


def test_a_decay_beside_a_warmup_the_paste_sets_is_no_proof_of_no_warmup():
    """A warmup shorter than the logging interval is over before the first print: the rate printed then decays."""
    short = DECAY.replace("lr_scheduler_type linear)", "lr_scheduler_type linear, warmup_steps=5, logging_steps=10)")
    assert not any(m.entry.id == "WR-250" and "falling from there" in " ".join(m.evidence)
                   for m in diagnosis(short).matches)


def test_a_rate_that_falls_then_rises_is_no_proof_of_no_warmup():
    bumpy = with_rates(DECAY, [5e-5, 4.9e-5, 5e-5, 4.8e-5, 4.7e-5, 4.6e-5, 4.5e-5, 4.4e-5])
    assert diagnosis(bumpy).verdict in ("healthy", "normal")


def test_no_warmup_said_of_a_run_that_went_wrong_makes_the_warmup_entry_a_candidate():
    """ux_review_s65 1: a post-LN transformer trained with Adam and "no warmup", whose loss jumped back above its start
    and then stalled, was named Dead ReLUs alone: the fact that the report says there was no warmup counted for WR-250
    but did not make it a candidate beside another entry's curve."""
    text = ("Training a 12-layer post-LN transformer from scratch on WMT, Adam(lr=1e-3, betas=(0.9, 0.98)), no warmup, "
            "no scheduler.\n" + "".join(f"step {s} loss {v}\n" for s, v in zip(
                (0, 20, 40, 60, 80, 100, 200, 300, 400, 500, 600, 700),
                (10.84, 9.71, 8.02, 9.96, 11.35, 7.64, 7.59, 7.58, 7.58, 7.57, 7.58, 7.57)))
            + "it plateaus at 7.57 and never gets better. same model with lr 1e-4 trains fine but slowly.\n")
    warmup = next(m for m in diagnosis(text).matches if m.entry.id == "WR-250")
    assert warmup.parts["no-warmup"] > 0
    assert any("the report says had no warmup" in e for e in warmup.evidence)
