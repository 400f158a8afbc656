"""A loss scaler's messages beside a run that is fine: the skips it calibrates with, said as normal, not WR-040."""

from conftest import diagnosis, real_catalog

CATALOG = real_catalog()


WARNING = ("/usr/lib/python3.12/site-packages/torch/optim/lr_scheduler.py:198: UserWarning: Detected call of "
           "`lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the "
           "opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will result in "
           "PyTorch skipping the first value of the learning rate schedule. See more details at "
           "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate\n")


def test_a_fear_reports_no_failure():
    """"I'm worried the model is broken" is a fear, a yes/no question in other words: beside a loss said to fall, under
    GradScaler, the skipped-steps answer is given, not WR-040 named from the warning. Said as a fact ("the model is
    broken"), the failure is the reporter's report again."""
    said = ("Vision transformer on 200 classes, torch.autocast(device_type='cuda', dtype=torch.float16) with a "
            "GradScaler. The first iterations print:\n")
    after = ("\nThe loss goes down like in my float32 baseline. I'm worried the model is broken in fp16 or that steps "
             "get lost. Do I need to change anything?\n")
    d = diagnosis(said + WARNING + after)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    assert diagnosis(said + WARNING + after.replace("I'm worried the model is broken", "the model is broken")).verdict \
        == "failure"
    assert diagnosis(said + WARNING + after.replace("I'm worried", "I wonder whether")).verdict == "normal"
    # (nor "I wonder why", which asks why it did; a nan named in the fear was printed)
    assert diagnosis(said + WARNING + after.replace("I'm worried the model is broken in fp16 or that steps get lost",
                                                    "I wonder why the model is broken in fp16")).verdict == "failure"
    assert diagnosis(said + WARNING + after.replace("the model is broken in fp16 or that steps get lost",
                                                    "the loss shows nan in fp16")).verdict == "failure"
    # (code_review_s43 M3: the fear ends at a comma, a colon or a dash, and at a climb it names)
    for fear in ("I am worried, the loss diverges after epoch 3.", "I'm worried: the loss explodes at epoch 3.",
                 "I'm worried -- the loss went to 40000 and diverges."):
        assert diagnosis(said + WARNING + after.replace("I'm worried the model is broken in fp16 or that steps get "
                                                        "lost.", fear)).verdict == "failure", fear
    # (a reason given is a report: "I'm worried because the model is broken")
    assert diagnosis(said + WARNING + after.replace("I'm worried the model", "I'm worried because the model")).verdict \
        == "failure"


def test_a_header_said_in_a_sentence_names_the_columns_of_the_rows_below_it():
    """"I printed step, loss.item(), scaler.get_scale():" above rows of three numbers: the second column is the loss,
    each row numbered by its first -- read as the loop's own print(step, loss.item(), ...) is."""
    rows = [(0, "5.3011", "65536.0"), (1, "5.2987", "32768.0"), (2, "5.2950", "32768.0"), (3, "5.2871", "32768.0"),
            (250, "4.6120", "32768.0"), (2003, "3.1184", "65536.0")]
    table = "".join(f"{s} {v} {c}\n" for s, v, c in rows)
    d = diagnosis("Mixed precision with GradScaler.\nI printed step, loss.item(), scaler.get_scale():\n\n" + table)
    assert d.evidence.count == 6 and d.evidence.head[:2] == [5.3011, 5.2987]
    assert d.evidence.at(5).step.endswith("2003")
    # (a sentence naming one thing is no header: "I printed the loss:")
    assert diagnosis("I printed the loss:\n\n" + table).evidence.count == 0


FAIRSEQ = ("2024-02-01 10:00:05 | INFO | fairseq.trainer | NOTE: gradient overflow detected, ignoring gradient, setting "
           "loss scale to: 64.0\n" + "".join(
               f"2024-02-01 10:{m:02d}:00 | INFO | train_inner | epoch 001:    {u} / 900 loss={v}, ppl=1, wps=9000, "
               f"ups=1.2, wpb=4096, bsz=32, num_updates={u}, lr=0.0003, gnorm=1.1, loss_scale={sc}, wall={m}\n"
               for m, (u, v, sc) in enumerate([(100, "9.81", 64), (200, "8.90", 64), (300, "8.12", 64),
                                               (400, "7.70", 128), (500, "7.41", 128), (600, "7.22", 256)], start=1)))


def test_overflow_messages_beside_a_printed_scale_that_rose_again_are_no_evidence():
    """A scaler doubles its scale only after a run of steps with no overflow (fairseq's scale window, GradScaler's
    growth_interval): a scale printed at 64 that rose to 256 found one that holds, and the one overflow before it was
    its calibration -- beside a finite loss no evidence for WR-040, said against it. A scale that never rose again, or
    a loss that turned nan, leaves the messages their weight (though beside the skipped-steps answer they are what it
    explains, and list no closest entry)."""
    d = diagnosis(FAIRSEQ)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling" and not d.matches
    from trainwreck.weighing import weigh, weigher, context_of, WEIGHTS
    from trainwreck.curve_shape import signature_of
    w = weigher(CATALOG)
    ev = d.evidence
    parts, _evidence, against = weigh(CATALOG.entries["WR-040"], context_of(ev, w, signature_of(ev), WEIGHTS), w,
                                      WEIGHTS)
    assert "messages" not in parts
    assert any(a.startswith("the loss scale printed beside the loss went down to 64 and rose again to 256, and the "
                            "loss stayed finite") for a in against)
    from trainwreck.loss_scale import scale_recovered
    assert scale_recovered(FAIRSEQ) and not scale_recovered(FAIRSEQ.replace("loss_scale=256", "loss_scale=64")
                                                                  .replace("loss_scale=128", "loss_scale=64"))
    held = diagnosis(FAIRSEQ.replace("loss_scale=256", "loss_scale=64").replace("loss_scale=128", "loss_scale=64"))
    parts, _evidence, against = weigh(CATALOG.entries["WR-040"], context_of(held.evidence, w, signature_of(held.evidence),
                                                                            WEIGHTS), w, WEIGHTS)
    assert parts["messages"] > 0 and not against
    # (beside the skipped-steps answer, though, the messages are what it explains: no closest entry of their own)
    assert held.verdict == "normal" and not held.matches


def test_the_reporters_own_trainer_class_scales_nothing():
    """(code_review_s52b #19) A Trainer the reporter wrote is no library Trainer that scales the loss itself: autocast to
    float16 said beside "my own Trainer class" is still read. The Hugging Face Trainer still vetoes it."""
    from trainwreck.loss_scale import autocast_unscaled_said

    said = "The forward pass runs under torch.autocast with float16"
    assert autocast_unscaled_said(f"{said}, inside my own Trainer class.")
    assert autocast_unscaled_said(f"{said}.\nclass Trainer:\n    def step(self): ...")
    assert not autocast_unscaled_said(f"{said}, through the Hugging Face Trainer.")
