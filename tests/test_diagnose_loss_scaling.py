"""A loss scaler's messages beside a run that is fine: the skips it calibrates with, said as normal, not WR-040."""

from conftest import diagnosis, real_catalog, weighed_parts
from trainwreck.fix_steps import first_fix_step

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


# A Hugging Face Trainer's log whose loss fell, then turned nan: the shape of a late overflow as of a bad batch
HF_FELL_THEN_NAN = ("{'loss': 2.1432, 'grad_norm': 3.8124, 'learning_rate': 4.9e-05, 'epoch': 0.05}\n"
                    "{'loss': 1.9821, 'grad_norm': 2.9911, 'learning_rate': 4.8e-05, 'epoch': 0.1}\n"
                    "{'loss': 1.7702, 'grad_norm': 3.1208, 'learning_rate': 4.7e-05, 'epoch': 0.15}\n"
                    "{'loss': nan, 'grad_norm': nan, 'learning_rate': 4.6e-05, 'epoch': 0.2}\n"
                    "{'loss': nan, 'grad_norm': nan, 'learning_rate': 4.5e-05, 'epoch': 0.25}\n")


def test_half_precision_switched_on_beside_a_late_nan_makes_wr040_a_candidate():
    """ux_review_s64 2: "fp16=True" or "autocast" beside a loss that fell and then turned nan never brought WR-040
    among the candidates. Its page said only that float16 breaks a run from its first step, so the late nan counted
    against it, and half precision switched on was not among the facts that make an entry a candidate beside another
    entry's curve. An activation that first passes 65504 after some training is its late face (transformers#5651:
    a nan after 34 iterations of t5-base in float16). A setting is a suspect, not a finding: it is not named."""
    for said in ("training with fp16=True, the loss goes nan after a few hundred steps",
                 "I train with torch.cuda.amp autocast and a GradScaler, and the loss goes nan"):
        d = diagnosis(HF_FELL_THEN_NAN + said + "\n")
        assert d.verdict == "uncertain", said
        assert "WR-040" in [m.entry.id for m in d.matches], said
        wr040 = next(m for m in d.matches if m.entry.id == "WR-040")
        assert not any(a.startswith("the loss curve does not look like this entry's") for a in wr040.against), said
        assert any("half precision switched on" in e for e in wr040.evidence), said
    # ... and not where the words deny it, or name bfloat16 alone, whose range is float32's
    for said in ("training with fp16=False, the loss goes nan after a few hundred steps",
                 "training with bf16=True, the loss goes nan after a few hundred steps"):
        d = diagnosis(HF_FELL_THEN_NAN + said + "\n")
        assert "WR-040" not in [m.entry.id for m in d.matches], said


def test_wr040_tells_its_late_face_and_the_figures_it_quotes_overflow():
    """The entry's second signature is a loss that fell and then turned non-finite, and the report it quotes for it
    holds an activation that float16 rounds to inf while 65504 stays finite."""
    import numpy as np

    entry = CATALOG.entries["WR-040"]
    assert entry.traces == ("nonfinite-from-start", "descent-then-nonfinite")
    body = " ".join(entry.body.split())
    assert "held 66246.39 there, past float16's largest value" in body and "after 34 iterations" in body
    with np.errstate(over="ignore"):
        assert np.isinf(np.float16(66246.39)) and np.float16(65504.0) == 65504.0
    # (rounding goes to inf from 65520, halfway between 65504 and 2**16, which float16 cannot hold)
    with np.errstate(over="ignore"):
        assert np.float16(65519.0) == 65504.0 and np.isinf(np.float16(65520.0))


def test_the_same_run_in_full_precision_names_wr040_beside_a_late_nan():
    """WR-040's own check, done by the reporter ("without autocast it's fine"), beside a loss that fell and then
    turned nan under autocast: named. Before, the late nan counted against the entry and it stayed a candidate."""
    d = diagnosis("Using fp16 with torch.cuda.amp, loss becomes nan after ~2k steps. Without autocast it's fine.\n"
                  "Epoch 3: 100%|##########| 1563/1563 [02:11<00:00, 11.87it/s, loss=0.412]\n"
                  "Epoch 4:  37%|###7      | 580/1563 [00:48<01:22, 11.93it/s, loss=0.398]\n"
                  "Epoch 4:  38%|###8      | 591/1563 [00:49<01:21, 11.92it/s, loss=nan]\n"
                  "Epoch 4: 100%|##########| 1563/1563 [02:10<00:00, 11.98it/s, loss=nan]\n")
    assert d.verdict == "failure" and d.matches[0].entry.id == "WR-040"


def test_a_late_nan_fits_wr040s_timing_only_where_half_precision_is_switched_on():
    """WR-040's own timing is its first steps; a nan after some training fits it as its late face only where the
    report shows half precision switched on, and not beside a climb (a loss that explodes overflows float16 too: the
    climb's timing is the rate's). So a late nan in a run that shows no half precision still counts against it."""
    from conftest import context_of, weighed_parts
    from trainwreck.diagnose import weigher

    assert "later" not in weigher(CATALOG).timing["WR-040"]
    assert weighed_parts(HF_FELL_THEN_NAN + "training with fp16=True\n", "WR-040")["when"] > 0
    assert weighed_parts(HF_FELL_THEN_NAN + "the loss goes nan after a few hundred steps\n", "WR-040")["when"] < 0
    climb = "".join(f"epoch {i} loss {v}\n" for i, v in enumerate(
        (2.3, 2.0, 1.8, 1.6, 1.5, 1.45, 1.4, 1.38, 1.37, 1.36, 1.6, 2.5, 6.0, 30.0, 400.0, "nan")))
    assert context_of(climb).sig.name == "descent-then-climb"
    assert weighed_parts("training with fp16=True\n" + climb, "WR-040").get("when") == \
        weighed_parts("training in float32\n" + climb, "WR-040").get("when")


def test_half_precision_named_but_not_switched_on_brings_no_late_face():
    """review_s65_entries D1: a naming of half precision that is not this run's computing in it -- a flag or a config set
    to false, Hugging Face's backend line (printed for bf16 too), a question, a plan, hearsay, where a model came from --
    made WR-040 the first candidate once the late face counted for it. None shows half precision switched on."""
    from trainwreck.precision_said import half_precision_shown
    from trainwreck.thesaurus import tokens

    off = ("TrainingArguments(\nbf16=False,\nfp16=False,\nfp16_backend=auto,\nfp16_full_eval=False,\nfp16_opt_level=O1,\n"
           "half_precision_backend=auto,\n)\n",
           'We use DeepSpeed with "fp16": {"enabled": false}, "bf16": {"enabled": true}.\n',
           "Using cuda_amp half precision backend\n",
           "Could autocast be the cause? I never enabled it.\n",
           "Should I try mixed precision to speed this up? Right now the loss goes nan.\n",
           "Someone suggested AMP might cause the nan. My run is plain float32 though.\n",
           "The model was pretrained in fp16 by someone else; I fine-tune it in fp32.\n")
    for said in off:
        assert half_precision_shown(said, tokens(said)) == "", said
        assert "WR-040" not in [m.entry.id for m in diagnosis(said + HF_FELL_THEN_NAN).matches], said
    on = ("TrainingArguments(\nbf16=False,\nfp16=True,\nfp16_opt_level=O1,\n)\n",
          'We use DeepSpeed with "fp16": {"enabled": true}.\n',
          "I use AMP; could it cause the nan?\n",
          "from tensorflow.keras import mixed_precision\nmixed_precision.set_global_policy('mixed_float16')\n",
          "optimizer = keras.mixed_precision.LossScaleOptimizer(optimizer)\n")
    for said in on:
        assert half_precision_shown(said, tokens(said)), said
        assert diagnosis(said + HF_FELL_THEN_NAN).matches[0].entry.id == "WR-040", said
    assert half_precision_shown("policy = mixed_precision.Policy('mixed_bfloat16')\n",
                                tokens("policy = mixed_precision.Policy('mixed_bfloat16')\n")) == ""


def test_a_setting_alone_names_nothing_and_a_failed_full_precision_run_takes_the_late_face_away():
    """review_s65_entries D7, D5: half precision switched on is the first thing to switch off, not a finding, so a log of
    hardly any words beside it is not named from it; and where the run is said to fail in full precision too, WR-040's
    own check has failed: neither its late face nor the setting counts."""
    said = HF_FELL_THEN_NAN + "I train with torch.cuda.amp autocast and the loss goes nan\n"
    d = diagnosis(said)
    assert d.verdict == "uncertain" and d.matches[0].entry.id == "WR-040" and d.matches[0].parts["precision"] > 0
    failed = weighed_parts("training with fp16=True. I switched to fp32 and the loss is still nan.\n" + HF_FELL_THEN_NAN,
                           "WR-040")
    assert failed["full-precision"] < 0 and "precision" not in failed and failed.get("curve", 0) <= 0 \
        and failed.get("when", 0) <= 0


def test_a_run_already_in_mixed_precision_is_given_the_step_for_its_face():
    """ux_review_s65 2: WR-040's Fix opens by asking for mixed precision (float32 weights, 16-bit compute), which
    autocast with a GradScaler, Keras's mixed_float16 policy and fp16=True already are: for a nan there the step is the
    forward pass's overflow, which no loss scale reaches; for weights shown in float16, that item; a run that shows no
    half precision keeps the opening. The terminal step leaves out the snippet's own figures."""
    opening = first_fix_step(CATALOG.entries["WR-040"])
    assert opening.startswith("Keep the weights and the optimizer's state in float32")
    for said in ("with torch.autocast('cuda', dtype=torch.float16): out = model(x)\nscaler = torch.cuda.amp.GradScaler()\n",
                 "mixed_precision.set_global_policy('mixed_float16')\n",
                 "TrainingArguments(fp16=True)\n"):
        wr040 = next(m for m in diagnosis(said + HF_FELL_THEN_NAN).matches if m.entry.id == "WR-040")
        assert wr040.fix.startswith("Overflow in the forward pass: no loss scale helps. Use bfloat16"), said
        assert "2.3300" not in wr040.fix and "snippet" not in wr040.fix, said
    halved = next(m for m in diagnosis("model = model.half()\n" + HF_FELL_THEN_NAN).matches if m.entry.id == "WR-040")
    assert halved.fix.startswith("Float16 weights:"), halved.fix


def test_half_precision_set_in_code_counts_in_a_question_and_a_call_that_turns_it_off_does_not():
    """code_review_s65 1, 6: a flag or a call that sets half precision is configuration whatever the sentence around it
    asks ("Does anyone know why my loss goes nan with fp16=True?"), so WR-040's own check done beside it still counts;
    `autocast(..., enabled=False)` and DeepSpeed's `"enabled": false` anywhere in its block set it off."""
    from trainwreck.precision_said import half_precision_shown
    from trainwreck.thesaurus import tokens

    for said in ("Does anyone know why my loss goes nan with fp16=True?", "Is this because I'm training with fp16=True?",
                 "Could it be because I use AMP?", "Maybe the issue: my fp16 run goes nan after 2k steps"):
        assert half_precision_shown(said, tokens(said)), said
    for said in ('with torch.autocast(device_type="cuda", enabled=False):', "scaler = GradScaler(enabled=False)",
                 '"fp16": {"loss_scale": 0, "enabled": false}'):
        assert half_precision_shown(said, tokens(said)) == "", said
    asked = diagnosis("Does anyone know why my loss goes nan with fp16=True? With fp16=False the same script trains "
                      "fine.\n" + HF_FELL_THEN_NAN)
    assert asked.matches[0].entry.id == "WR-040" and asked.matches[0].parts["full-precision"] == 2.0


def test_a_message_that_chose_half_precisions_fix_item_keeps_it():
    """code_review_s65 4: GradScaler's "Attempting to unscale FP16 gradients." picks the Float16 weights item; the
    face the paste's half precision points to does not override it."""
    d = diagnosis("with torch.autocast('cuda', dtype=torch.float16):\n    loss = model(x)\nscaler = GradScaler()\n"
                  "ValueError: Attempting to unscale FP16 gradients.\nBefore I added the scaler the loss was nan.\n")
    wr040 = next(m for m in d.matches if m.entry.id == "WR-040")
    assert wr040.fix.startswith("Float16 weights:"), wr040.fix


def test_wr220_quotes_fairseqs_floor_word_for_word_as_wr040_declares_it():
    """WR-220's PyTorch part quotes the message fairseq's loss scaler stops with at its floor, whose own first guess is a
    loss that explodes: word for word the message WR-040 declares, from the same source line."""
    declared = next(m for m in CATALOG.entries["WR-040"].messages if m.text.startswith("Minimum loss scale reached"))
    body = CATALOG.entries["WR-220"].body
    assert f"`{declared.example}`" in body
    assert declared.source in body
