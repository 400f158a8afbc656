"""A small batch's noise, read where the paste sets the batch by a framework's own name, and only where the loss
stays below where the run started; and a metric named after a sentence's loss values, which ends them."""
from conftest import diagnosis
from trainwreck.logscan import scan_text
from trainwreck.run_said import BATCH_SIZE

# Hugging Face Trainer lines of a binary classifier's fine-tuning: the loss swings, each swing far below its start
SWINGING = [0.6644, 0.2391, 0.0482, 0.2876, 0.0188, 0.0121, 0.1659, 0.0071, 0.0049, 0.1462]
HF_NOISE = ("Fine-tuning roberta-base on a binary sentiment set, TrainingArguments(per_device_train_batch_size=8, "
            "learning_rate=2e-5, logging_steps=1). Why does the loss jump around so much?\n"
            + "".join(f"{{'loss': {v}, 'learning_rate': {2e-5 * (1 - k / 300):.6g}, 'epoch': {0.02 * (k + 1):.2f}}}\n"
                      for k, v in enumerate(SWINGING)))


def test_a_batch_size_is_read_under_a_frameworks_prefixed_name_and_not_an_evaluations():
    said = {text: (m.group("size") if (m := BATCH_SIZE.search(text)) else None) for text in (
        "per_device_train_batch_size=8", "train_micro_batch_size_per_gpu: 4", "minibatch size 32", "--batch-size 4",
        '"batch_size": 16', "per_device_eval_batch_size=8", "eval_batch_size: 2", "databatch_size=3")}
    assert said == {"per_device_train_batch_size=8": "8", "train_micro_batch_size_per_gpu: 4": "4",
                    "minibatch size 32": "32", "--batch-size 4": "4", '"batch_size": 16': "16",
                    "per_device_eval_batch_size=8": None, "eval_batch_size: 2": None, "databatch_size=3": None}


def test_swings_of_batches_of_8_set_by_the_trainers_own_name_are_noise_not_a_jump():
    """x30 from 0.0049 to 0.1462 in one logged step, the last value: with batches of 8 the mean loss does that, and
    the swing stays far below the run's start. Read as the noise it is, not a bad batch's jump or a rate's; an
    evaluation's batch of 8 says nothing of the training's, so there the jump is read above that floor. The question is answered
    as a normal run's. With a value the mean of 100 examples or fewer (64 here with accumulation), this last value is a
    swing too: from near zero, below half the run's start and no higher than the 0.1659 the run's second half came down
    from (test_diagnose_signals' per-step floor); at a batch of 256 it is read as a jump. Above the floor --
    0.40 after a 0.45, from a start at 0.66 -- only the small batch makes it noise; a value that averages many batches
    reads the jump."""
    d = diagnosis(HF_NOISE)
    assert (d.verdict, d.matches) == ("normal", [])
    higher = HF_NOISE.replace("'loss': 0.1462,", "'loss': 0.4,").replace("'loss': 0.1659,", "'loss': 0.45,")
    assert diagnosis(higher).verdict == "normal"
    # (a value that averages many batches: the Trainer logs the mean since its last log, 10 steps of 8 here, or
    # micro-batches accumulated into each step; an evaluation's batch says nothing of the training's)
    # (below the floor, not a mean of more than 100 examples either, where one example moves it by less than a tenth of
    # a nat: the batch of 256 reads the jump)
    for other in ("per_device_eval_batch_size=8", "per_device_train_batch_size=256",
                  "per_device_train_batch_size=8, gradient_accumulation_steps=8"):
        expected = "uncertain" if "256" in other else "normal"
        assert diagnosis(HF_NOISE.replace("per_device_train_batch_size=8", other)).verdict == expected, other
        d = diagnosis(higher.replace("per_device_train_batch_size=8", other))
        assert d.verdict == "uncertain"
        assert "jumped in one step from 0.0049" in " ".join(d.signature.facts)
    assert diagnosis(higher.replace("logging_steps=1)", "logging_steps=10)")).verdict == "uncertain"
    # (and the Trainer's arguments shown without logging_steps: its default, 500 steps a value)
    assert diagnosis(higher.replace(", logging_steps=1)", ")")).verdict == "uncertain"


def test_a_small_batchs_loss_back_above_where_the_run_started_is_no_noise():
    """Batches of 4, and the loss climbs from 1.5 to 7.9 and holds near 7: noise moves around the level the loss has
    learned, it does not hold the loss at 4x the highest of its first values -- the rate's climb, read as before. The
    same curve held at 1.4, no higher than it started, is no climb."""
    curve = [1.5811, 1.3902, 1.4475, 2.9348, 6.2917, 7.8602, 7.1534, 6.9921, 6.9688]
    log = ("Full fine-tuning with batch_size=4 and learning_rate=2e-4, the loss falls apart:\n"
           + "".join(f"{{'loss': {v}, 'learning_rate': 0.0002, 'epoch': {0.03 * (k + 1):.2f}}}\n"
                     for k, v in enumerate(curve)))
    d = diagnosis(log)
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-220"
    assert d.signature.name == "climbed-and-stayed"
    held = log.replace("7.8602", "1.5702").replace("7.1534", "1.4034").replace("6.9921", "1.3921") \
        .replace("6.9688", "1.3988").replace("6.2917", "1.2917").replace("2.9348", "1.5348")
    assert diagnosis(held).verdict == "healthy"


def test_a_metric_named_after_a_sentences_loss_values_ends_them():
    """"train loss is 5.81, 2.94, ..., 1.30, ... and val force RMSE went 61 -> 38 -> 31 -> 27": the RMSE's values are
    another quantity's, not the loss climbing from 1.30 to 61. So are a PSNR's, an SSIM's, an FID's, a WER's."""
    said = "The epoch-averaged train loss is 5.81, 2.94, 2.13, 1.78, 1.59, 1.47, 1.40, 1.33, 1.30, ... and val {} went 61 -> 38 -> 31 -> 27."
    for metric in ("force RMSE", "PSNR", "SSIM", "FID", "WER"):
        assert scan_text(said.format(metric)).head == [5.81, 2.94, 2.13, 1.78, 1.59, 1.47, 1.40, 1.33, 1.30]
    assert scan_text(said.format("force")).head[-1] == 27
