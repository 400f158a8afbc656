"""A loss said to barely move, in a sentence that puts it down to the run being at its start, is no statement that the
run does not learn: beside a loss scaler's first skipped steps, the answer is the scaler's normal calibration."""
from conftest import diagnosis
from trainwreck.run_said import says_not_learning

SCALER = ("Fine-tuning a 1B model with fp16 on two old GPUs (no bf16), accelerate + DeepSpeed ZeRO-2, dynamic loss "
          "scaling from the config. At the very start the log shows skipped steps:\n\n"
          "[2025-03-02 10:01:12,114] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping "
          "step. Attempted loss scale: 65536, reducing to 32768\n"
          "[2025-03-02 10:01:17,902] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping "
          "step. Attempted loss scale: 32768, reducing to 16384\n"
          "{'loss': 2.3417, 'grad_norm': 3.91, 'learning_rate': 2.0e-07, 'epoch': 0.01}\n"
          "{'loss': 2.3409, 'grad_norm': 3.72, 'learning_rate': 4.0e-07, 'epoch': 0.02}\n"
          "{'loss': 2.3398, 'grad_norm': 3.80, 'learning_rate': 6.0e-07, 'epoch': 0.03}\n\n"
          "No OVERFLOW lines since then. Is fp16 corrupting something? The loss is barely moving, STALL.\n")


def test_a_stall_put_down_to_the_start_is_no_report_that_the_run_does_not_learn():
    for hedge in ("but I guess it's early", "though it's only the first epoch", "but training just started",
                  "although we're at the start of training", "but it's only epoch 2", "but we're only 200 steps in",
                  "but it's still warming up"):
        assert not says_not_learning(f"The loss is barely moving, {hedge}."), hedge
    # (a stall with no such clause, or one whose clause says something else, is still one -- code_review_s75 2)
    for said in ("The loss is barely moving.", "The loss is barely moving, but it's the same with lr 1e-4.",
                 "The loss is not decreasing at all, but it's the first time I train a transformer.",
                 "The model isn't learning, but it's early stopping that ends every run after 5 epochs.",
                 "The loss is not decreasing at all, but only the first head gets gradients.",
                 "The loss is not decreasing at all, but it just started doing this after I changed the optimizer.",
                 # (a time the stall is dated from, or a later epoch, is no hedge -- reread_s75 1)
                 "The loss is barely moving, but it has been like this since the first epoch.",
                 "The loss is barely moving, but it dropped in the first few epochs and then flatlined.",
                 "The loss is barely moving, but it was fine at the start of training.",
                 "The loss is barely moving, but it stalled early.",
                 "The loss is barely moving, but it just started oscillating.",
                 "The loss is barely moving, but it is only epoch 90 of 100."):
        assert says_not_learning(said), said
    for hedge in ("but it's only the second epoch", "but it's only been 3 epochs", "but it's just 500 iterations in"):
        assert not says_not_learning(f"The loss is barely moving, {hedge}."), hedge


def test_a_loss_scalers_first_skips_beside_a_stall_put_down_to_the_start_are_its_calibration():
    d = diagnosis(SCALER.replace(", STALL.", ", but I guess it's early."))
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    # (said as a run that stopped learning, the stall is a report beside the skips: no normal answer)
    assert diagnosis(SCALER.replace(", STALL.", " at all.")).verdict != "normal"
    assert diagnosis(SCALER.replace(", STALL.", " at all, but it's the first time I fine-tune with DeepSpeed.")
                     ).verdict != "normal"
