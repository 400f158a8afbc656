"""A rate the log prints beside each loss says whether the run warmed up: a warmup raises it from near zero, so a rate
at its highest from the first value printed -- constant, or decaying from there -- had none."""
import re
from pathlib import Path

from conftest import diagnosis, weighed_parts

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


STALLED = (10.9871, 11.6402, 10.2119, 8.9057, 8.0313, 7.6958, 7.4231, 7.4477, 7.3815, 7.4102)
SAID = ("GPT-2 small from scratch with the Trainer gets stuck at ~7.4: the loss goes up at the start and then sits at "
        "7.3-7.5 for thousands of steps.\n--logging_steps 10\n")


def trainer_lines(losses=STALLED, rates=None, epochs=None) -> str:
    rates = rates or [6e-4 - 1e-10 * i for i in range(len(losses))]
    epochs = epochs or [0.0] * 6 + [0.04] * 2 + [0.11] * 2
    return "".join(f"{{'loss': {v}, 'grad_norm': 1.0, 'learning_rate': {r!r}, 'epoch': {e}}}\n"
                   for v, r, e in zip(losses, rates, epochs))


def test_a_rate_at_its_top_from_the_first_steps_beside_an_early_rise_is_no_warmup_printed():
    """(set s203, 03) The Trainer's rate at its highest from its first print at epoch 0.0, the loss up from 10.99 to
    11.64 at the next print, then stalled far above where it should be, in words: no warmup, printed. It was "No known
    failure found" (the curve fell from 10.99 to 7.41)."""
    d = diagnosis(SAID + trainer_lines())
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-250"
    assert d.matches[0].parts["no-warmup"] > 0
    assert any(e.startswith("the loss rose from 10.99 at epoch 0.0 to 11.64 at epoch 0.0 in a run whose log prints the "
                            "learning rate at its highest, 0.0006, at its first value") for e in d.matches[0].evidence)


def test_no_warmup_is_not_read_from_a_rate_that_rises_a_late_first_print_a_falling_start_or_a_warmup_set():
    rising = trainer_lines(rates=[6e-5 * (i + 1) for i in range(10)])
    late = trainer_lines(epochs=[0.5] * 6 + [0.6] * 2 + [0.7] * 2)
    falling = trainer_lines(losses=(10.98, 10.2, 9.4, 8.9, 8.03, 7.69, 7.42, 7.44, 7.38, 7.41))
    for text in (rising, late, falling, trainer_lines().replace("{'loss': 10.9871", "--warmup_steps 100\n{'loss': 10.9871")):
        assert "no-warmup" not in weighed_parts(SAID + text, "WR-250"), text[:80]
    # (a first print at step 500, the Trainer's default interval: a warmup of a few hundred steps is over by then)
    def every(k: int) -> str:
        return "AdamW\n" + "".join(f"step {k * (i + 1)} lr 0.0006 loss {v}\n" for i, v in enumerate(STALLED))

    assert "no-warmup" not in weighed_parts(SAID + every(500), "WR-250")
    assert "no-warmup" in weighed_parts(SAID + every(10), "WR-250")
    # (the Trainer's epoch printed whole, as it is since it stopped rounding it: 0.000625 at step 10)
    whole = trainer_lines(epochs=[0.000625 * (i + 1) for i in range(10)])
    assert "no-warmup" in weighed_parts(SAID + whole, "WR-250")
    # (code_review_s67 L5: by its epoch alone, with no interval set, the first print may be the Trainer's default step
    # 500, 'epoch': 0.0 on a long epoch too; and a rise of under 3% is a flat start's noise)
    assert "no-warmup" not in weighed_parts(SAID.replace("--logging_steps 10\n", "") + trainer_lines(), "WR-250")
    noise = trainer_lines(losses=(2.3026, 2.3031, 2.3019, 2.3027, 2.3022, 2.3025, 2.3026, 2.3024, 2.3027, 2.3025))
    assert "no-warmup" not in weighed_parts(SAID + noise, "WR-250")
    # (a warmup set by a flag, its value after a space: Megatron's, fairseq's, the Trainer's command line)
    for flag in ("--warmup_steps 100", "--lr-warmup-iters 500", "--warmup-updates 4000", "--warmup_ratio 0.03"):
        assert "no-warmup" not in weighed_parts(SAID + flag + "\n" + every(10), "WR-250"), flag
    assert "no-warmup" in weighed_parts(SAID + "--warmup_steps 0\n" + every(10), "WR-250")


VIT = """ViT fine-tune on CIFAR-100 with Trainer goes to garbage in the first few dozen steps.
model = ViTForImageClassification.from_pretrained("google/vit-base-patch16-224-in21k", num_labels=100)
""" + "".join(f"{{'loss': {v}, 'grad_norm': 1.0, 'learning_rate': {r}, 'epoch': {e}}}\n" for v, r, e in [
    (4.7361, 0.000499967722, 0.05), (6.9182, 0.0004998708963, 0.1), (5.3847, 0.0004997095478, 0.15),
    (4.7712, 0.0004994837184, 0.2), (4.6545, 0.0004991934662, 0.26), (4.6297, 0.0004988388662, 0.31),
    (4.6218, 0.00049842001, 0.36), (4.6088, 0.0004979370058, 0.41), (4.4021, 0.0004884376254, 0.97),
    (3.8716, 0.0004524901231, 1.99)])


def test_a_first_window_a_little_above_the_uniform_guess_keeps_the_uniform_bar():
    """(s254/08) The Trainer's first loss averages its first logging window: 4.736, 0.13 nats above ln 100. The jump to
    6.918 is 2.3 nats above the uniform guess -- past the bar of UNIFORM_JUMP nats above it -- beside a rate printed at
    its highest from the first value: no warmup."""
    import math

    from trainwreck.curve_shape import UNIFORM_JUMP, _no_warmup_jump
    from trainwreck.logscan import scan
    import io

    ev = scan(io.BytesIO(VIT.encode()), "trainer.log")
    ratio, classes, from_uniform = _no_warmup_jump(ev, ev.head[0])
    assert (classes, from_uniform) == (100, False)
    assert math.isclose(ratio, (math.log(100) + UNIFORM_JUMP) / 4.7361)
    d = diagnosis(VIT)
    assert d.matches[0].entry.id == "WR-250"
    assert "2.3 nats above a uniform guess over 100 (ln 100 = 4.605)" in d.matches[0].evidence[0]
    # a first value more than half the jump above the guess is no uniform start: its own ratio, 1.5, applies
    assert _no_warmup_jump(scan(io.BytesIO(VIT.replace("4.7361", "5.2").encode()), "trainer.log"), 5.2)[0] == 1.5
    # nor is a loss that is no cross-entropy over the classes, a detector's sum of its parts (code_review_s71b 3)
    detector = VIT.replace("model = ViTForImageClassification.from_pretrained(", "model = fasterrcnn(")
    assert _no_warmup_jump(scan(io.BytesIO(detector.encode()), "trainer.log"), 4.7361)[0] == 1.5


def test_lowered_to_a_number_only_a_rate_is_a_lower_rate():
    """(s254/08) "I tried lowering to 1e-4 and it works": no "lr" said, but 1e-4 is a rate's number."""
    from trainwreck.rate_tried import lr_tried

    assert lr_tried("I tried lowering to 1e-4 and it works (89% after 3 epochs).") == "helped"
    assert lr_tried("Lowering to 0.0001 fixed it.") == "helped"
    # a batch size's number, a rate lowered that did not help or only for a while, something else lowered, or a rate
    # changed (raised, here): not a cure (code_review_s71b 1, 2)
    for other in ("I tried lowering to 32 and it works.", "Lowering to 1e-4 does not help.",
                  "I tried lowering to 1e-4 and it never works.", "Lowering to 1e-4 works no better.",
                  "Lowering to 1e-4 and it works for a few hundred steps, then nan again.",
                  "Dropping to 1e-5 made it work but only delays the nan by 200 steps.",
                  "Adam eps was 1e-3; I tried lowering it to 1e-8 and it works.",
                  "Loss was stuck at 2.30 with lr 1e-5; changing to 1e-3 fixed it."):
        assert lr_tried(other) != "helped", other
