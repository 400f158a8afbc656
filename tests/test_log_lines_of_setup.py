"""What a run's own lines print of its setup, read as facts: the optimizer's class and rate on one log line, the metric
columns beside the loss (not the loss's name), and the iterator of parameters an optimizer used up, bound by
itertools.chain or handed on under another name."""
from conftest import diagnosis


def test_a_log_line_naming_an_adaptive_optimizer_and_its_rate_is_the_rate_it_was_built_with():
    """Cellpose's `>>> AdamW, learning_rate=0.10000, weight_decay=0.00010`: the class, then its rate printed with `=` or
    `:` -- 100 times AdamW's default. Not a rate after another optimizer's name, not a default-sized rate, not a sentence's
    "a learning rate of"."""
    from trainwreck.optimizer_setup import high_adaptive_rate

    fact = high_adaptive_rate("2025-04-02 16:11:05,327 [INFO] >>> AdamW, learning_rate=0.10000, weight_decay=0.00010\n")
    assert "names AdamW with a learning rate of 0.10000" in fact and "100 times AdamW's default rate" in fact
    assert "names Adam with a learning rate of 0.3" in high_adaptive_rate("Optimizer: Adam (lr: 0.3, betas=(0.9, 0.999))")
    for other in (">>> AdamW, learning_rate=0.00010, weight_decay=0.00010",
                  "I switched from Adam to SGD, lr=0.1 momentum 0.9",
                  "Adam with a learning rate of 0.1 diverged",
                  "scheduler: noam, optimizer Adam, lr=2.0",
                  # (code_review_s76 8: across a sentence's end, another optimizer after the rate in its clause, a rate
                  # said tried or changed, and a call, which HIGH_ADAPTIVE_RATE reads with its own bounds)
                  "Adam worked for me on the old data. Now with OneCycleLR, max lr: 0.4 and SGD momentum 0.9 it blows up",
                  "Adam lr=0.3 then SGD for fine-tuning",
                  "The repo's default is Adam, lr=0.1 but I changed it to lr=1e-4",
                  "Tried Adam: lr=0.1 explodes, lr=1e-4 also plateaus",
                  "AdamW.lr = 0.5 is the attribute I never touch",
                  # (final_review_s76 11: a second rate in the sentence, or a question)
                  "Adam (lr=0.1) is what everyone recommends for this? I use 1e-4.",
                  "Adam lr=0.1 failed so I am now at lr=1e-4 and it still plateaus"):
        assert high_adaptive_rate(other) == "", other
    # (words around a rate printed once are no second rate: "was", "try", "default", Adam's betas)
    for kept in ("epoch 1 | Adam lr: 0.5 | loss was 2.31 -> 2.29", "I used Adam, lr=0.3 and the loss was nan after 3 steps",
                 ">>> AdamW, learning_rate=0.10000, weight_decay=0.00010, default betas",
                 # (mends_review_s76 8: a loss, a norm or a decay a log line prints in scientific form is no rate)
                 "epoch 3 | AdamW lr: 1.000e-01 | loss: 4.512e-01", "Optimizer: Adam lr: 0.3 wd: 1e-5",
                 "step 100 | Adam lr=0.1 | loss 3.2e-01 | grad_norm 5.1e-02",
                 # (each printed line is read, not only the first: a log that printed a low rate before the high one)
                 ">>> AdamW, learning_rate=0.00010, weight_decay=0.00010\n"
                 ">>> AdamW, learning_rate=0.10000, weight_decay=0.00010"):
        assert high_adaptive_rate(kept), kept


def test_a_metric_column_beside_the_loss_does_not_name_the_loss():
    """Keras prints each metric beside the loss (`loss: -1.42 - mse: 0.0029`): a negative loss beside a positive mse
    column is not an MSE gone below zero -- the loss is something else (a likelihood). The words that speak of the
    column ("the mse/mae look OK") name the metric too. A column that prints the loss's own value is the loss compiled
    as a metric as well, and names it."""
    from trainwreck.run_said import loss_kind

    bar = "100/100 [==============================] - 55s 548ms/step - loss: {} - mse: {} - mae: 0.0571\n"
    log = "".join(f"Epoch {e}/60\n" + bar.format(v, m) for e, v, m in ((1, "0.4913", "0.0187"), (2, "0.0836", "0.0098"),
                                                                      (3, "-0.3170", "0.0077"), (4, "-0.6170", "0.0062")))
    assert loss_kind(log + "The mse/mae look OK to me.\n") != "bounded"
    d = diagnosis("Negative loss after a few epochs, is this a bug?\n" + log + "The mse/mae look OK to me.\n")
    assert d.verdict == "normal"
    assert not any("cannot with valid targets" in e for m in d.matches for e in m.evidence)
    twin = "".join(f"Epoch {e}/60\n" + bar.format(v, v) for e, v in ((1, "0.4913"), (2, "-0.0836")))
    assert loss_kind(twin) == "bounded"
    assert loss_kind("model.compile(loss='mse')\n" + log) == "bounded"      # (the code's own loss decides)
    # (a column named as a loss is a part of the loss, and names its kind: `dice_loss 0.31`)
    assert loss_kind("".join(f"step {k} | loss {v} | dice_loss 0.31\n" for k, v in ((1, "0.4"), (2, "-0.2")))) == "bounded"


def test_a_chain_of_parameters_handed_to_the_optimizer_and_then_to_the_clip_under_another_name_is_spent():
    """itertools.chain of several modules' parameters is an iterator like model.parameters(): the optimizer's
    constructor lists it, and a clip given the same iterator afterwards -- here under the name the module keeps it by,
    `self.params_to_train` -- finds nothing and returns 0. Not a list of the chain, nor a chain bound again."""
    from trainwreck.clip_unused import spent_clip

    code = ("params_to_train = itertools.chain(self.nerf.parameters(),\n"
            "                                  self.sdf_network.parameters())\n"
            "self.params_to_train = params_to_train\n"
            "self.optimizer = torch.optim.Adam(params_to_train, lr=self.learning_rate)\n"
            "loss.backward()\n"
            "grad_norm = torch.nn.utils.clip_grad_norm_(self.params_to_train, max_norm=1.0)\n"
            "self.optimizer.step()\n")
    fact, fix = spent_clip(code)
    assert "`clip_grad_norm_(self.params_to_train, ...)` finds no tensors" in fact
    assert fact.startswith("gradient clipping never shortened an update: `params_to_train = itertools.chain(")
    # (code_review_s76 10, final_review_s76 12: the fix makes the chain itself again, or lists it; a binding too long to
    # quote is cut after its call's first argument, never inside a bracket)
    chain = "itertools.chain(self.nerf.parameters(), self.sdf_network.parameters())"
    assert f"`clip_grad_norm_({chain}, max_norm)`" in fix and f"`params_to_train = list({chain})`" in fix
    long = code.replace("self.nerf.parameters()", "self.nerf_outside_the_unit_sphere_of_the_scene_with_its_own_encoding"
                                                   ".parameters()")
    assert "`params_to_train = itertools.chain(self.nerf_outside_the_unit_sphere_of_the_scene_with_its_own_encoding" \
        ".parameters(), ...)`" in spent_clip(long)[0]
    # (an alias the optimizer is built with, bound to a list before it: the optimizer never used the iterator up)
    listed = ("params = model.parameters()\nself.params = params\nself.params = list(model.parameters())\n"
              "opt = torch.optim.Adam(self.params, lr=1e-3)\nloss.backward()\ntorch.nn.utils.clip_grad_norm_(params, 1.0)\n")
    assert spent_clip(listed) is None
    # (the alias the clip is given, bound again to a list before the clip, is no spent iterator)
    relisted = code.replace("loss.backward()", "self.params_to_train = list(self.nerf.parameters())\nloss.backward()")
    assert spent_clip(relisted) is None
    assert spent_clip(code.replace("itertools.chain(", "list(itertools.chain(").replace(
        "self.sdf_network.parameters())\n", "self.sdf_network.parameters()))\n")) is None
    rebound = code.replace("loss.backward()", "params_to_train = list(self.nerf.parameters())\nloss.backward()")
    assert spent_clip(rebound.replace("clip_grad_norm_(self.params_to_train", "clip_grad_norm_(params_to_train")) is None
    generator = ("params = (p for p in model.parameters() if p.requires_grad)\n"
                 "opt = torch.optim.AdamW(params, lr=1e-4)\nloss.backward()\n"
                 "torch.nn.utils.clip_grad_norm_(params, 1.0)\nopt.step()\n")
    assert "`params = (p for p in model.parameters() if p.requires_grad)` can be iterated only once" \
        in spent_clip(generator)[0]


ALBUMENTATIONS = ("My ViT fine-tune is much worse than the public notebooks: 0.43 after 10 epochs.\n"
                  "```python\ntrain_tfms = A.Compose([\n    A.RandomResizedCrop(224, 224),\n    A.HorizontalFlip(p=0.5),\n"
                  "    ToTensorV2(),\n])\n"
                  "img = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)\nimg = train_tfms(image=img)['image']\n```\n"
                  + "".join(f"Epoch {e}/10 | train_loss {v} | val_acc {a}\n" for e, v, a in [
                      (1, "4.6204", "0.0758"), (2, "4.0519", "0.1481"), (3, "3.5817", "0.2049"), (4, "3.2264", "0.2534"),
                      (5, "2.9642", "0.2960"), (6, "2.7408", "0.3335")]))


def test_an_albumentations_pipeline_ending_in_to_tensor_v2_without_normalize_feeds_raw_pixels():
    """ToTensorV2 moves the channels first and scales nothing (albumentations/pytorch/transforms.py:
    `torch.from_numpy(img.transpose(2, 0, 1))`), unlike torchvision's ToTensor: a pipeline with no A.Normalize hands the
    model the pictures' 0-255 (WR-330). ToTensorV2 is no division by 255 for the other readings either."""
    from trainwreck.data_values import DIVIDED_255, albumentations_unscaled

    from conftest import assert_entry_says

    assert albumentations_unscaled(ALBUMENTATIONS) == "ToTensorV2()"
    assert_entry_says("WR-330", ["neither does albumentations' `ToTensorV2`, which only moves the channels first"])
    assert not DIVIDED_255.search("ToTensorV2()") and DIVIDED_255.search("transforms.ToTensor()")
    top = diagnosis(ALBUMENTATIONS).matches[0]
    assert top.entry.id == "WR-330" and top.parts["raw-pixels"] > 0
    assert "`ToTensorV2()`, which makes a tensor of an image without scaling it" in " ".join(top.evidence)
    for other in (ALBUMENTATIONS.replace("    ToTensorV2(),", "    A.Normalize(),\n    ToTensorV2(),"),
                  ALBUMENTATIONS.replace("['image']", "['image'].float() / 255.0"),
                  # (final_review_s76 4: albumentations' own ToFloat, and PyTorch's div)
                  ALBUMENTATIONS.replace("    ToTensorV2(),", "    A.ToFloat(max_value=255),\n    ToTensorV2(),"),
                  ALBUMENTATIONS.replace("['image']", "['image'].float().div(255)"),
                  ALBUMENTATIONS.replace("img = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)\n", "")):
        assert albumentations_unscaled(other) == "", other


def test_a_parameters_generator_bound_for_another_use_is_read_without_a_crash():
    """(mends_review_s76 1) A generator bound and never handed to the optimizer (a count, a param group, another
    optimizer built from model.parameters()) is no spent clip -- and reading it raises nothing."""
    from trainwreck.clip_unused import spent_clip

    for code in ("params = model.parameters()\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\n",
                 "params = model.parameters()\nopt = torch.optim.SGD([{'params': params, 'lr': 0.1}])\n"
                 "torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"):
        assert spent_clip(code) is None
        assert diagnosis("loss explodes to nan\n```python\n" + code + "```\nstep 0 loss 2.30\nstep 1 loss nan\n").verdict
