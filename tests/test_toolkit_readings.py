"""Readings of detection toolkits and of older frameworks (torchvision's box predictor, detectron2's climb under a
rising rate, a YOLO decode's exp, TensorFlow 1's -inf mask, Torch's CUDA error): each changes the verdict on a report
written as such a tool prints, and stays quiet on a nearby one where it must not fire."""
from conftest import diagnosis, weighed_parts
from trainwreck.breaking_constructs import breaking_construct

# ---- torchvision: a box predictor of one's own whose class scores are a softmax's ---------------------------------

PREDICTOR = """class ToolPredictor(nn.Module):
    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.cls_score = nn.Linear(in_channels, num_classes)
        self.bbox_pred = nn.Linear(in_channels, num_classes * 4)

    def forward(self, x):
        x = x.flatten(start_dim=1)
        {scores}
        deltas = self.bbox_pred(x)
        return scores, deltas

model = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights="DEFAULT")
model.roi_heads.box_predictor = ToolPredictor(1024, 11)
"""
# torchvision's reference script's lines: 11 classes with the background, ln 11 = 2.398 at the start
DETECTION_LOG = "".join(
    f"Epoch: [{e}]  [ 999/1000]  eta: 0:00:00  lr: 0.005000  loss: {total} ({total})  loss_classifier: {cls} ({cls})  "
    f"loss_box_reg: 0.0712 (0.0712)  time: 0.3100  data: 0.0090  max mem: 2781\n"
    for e, (total, cls) in enumerate([("2.5101", "2.3978"), ("2.4712", "2.3517"), ("2.4420", "2.3201"),
                                      ("2.4190", "2.2964"), ("2.4011", "2.2790"), ("2.3880", "2.2652")]))
SCORES_ARE_PROBABILITIES = "scores = F.softmax(self.cls_score(x), dim=-1)"


def test_a_box_predictor_that_returns_a_softmax_hands_probabilities_to_torchvisions_cross_entropy():
    text = ("My Faster R-CNN's loss_classifier barely moves and no detection scores above 0.15. I wrote my own box "
            "predictor because I need probabilities later:\n\n" + PREDICTOR.format(scores=SCORES_ARE_PROBABILITIES)
            + "\n" + DETECTION_LOG)
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-130"
    assert weighed_parts(text, "WR-130")["pairing"] > 0
    said = next(e for e in d.matches[0].evidence if "box predictor" in e)
    assert "`roi_heads.box_predictor = ToolPredictor`" in said and SCORES_ARE_PROBABILITIES in said
    assert "fastrcnn_loss" in said and "F.cross_entropy" in said


def test_a_box_predictor_that_returns_a_softmax_call_directly_is_read_too():
    direct = PREDICTOR.format(scores="pass").replace("return scores, deltas",
                                                       "return F.softmax(self.cls_score(x), dim=-1), deltas")
    assert weighed_parts("My detector's classifier loss barely moves.\n" + direct + DETECTION_LOG, "WR-130")["pairing"] > 0


def test_a_box_predictor_whose_scores_module_ends_in_a_softmax_is_read_too():
    """(s270/05) `scores = self.cls_score(x)`, the class's own Sequential ending in nn.Softmax: the same probabilities."""
    sequential = PREDICTOR.format(scores="scores = self.cls_score(x)").replace(
        "self.cls_score = nn.Linear(in_channels, num_classes)",
        "self.cls_score = nn.Sequential(\n            nn.Linear(in_channels, 512),\n            nn.ReLU(inplace=True),\n"
        "            nn.Linear(512, num_classes),\n            nn.Softmax(dim=1),\n        )")
    text = "My detector's loss_classifier stops moving.\n" + sequential + DETECTION_LOG
    assert weighed_parts(text, "WR-130")["pairing"] > 0
    said = next(e for e in diagnosis(text).matches[0].evidence if "box predictor" in e)
    assert "where self.cls_score ends in nn.Softmax(dim=1)" in said
    # (the same Sequential ending in its Linear: logits)
    logits = text.replace("            nn.Softmax(dim=1),\n", "")
    assert "pairing" not in weighed_parts(logits, "WR-130")


def test_a_box_predictor_that_returns_its_logits_is_no_such_pairing():
    text = ("My Faster R-CNN's loss_classifier barely moves. My own box predictor:\n\n"
            + PREDICTOR.format(scores="scores = self.cls_score(x)") + "\n" + DETECTION_LOG)
    assert "pairing" not in weighed_parts(text, "WR-130")
    # (nor a softmax that only a comment assigns the predictor to)
    commented = PREDICTOR.format(scores=SCORES_ARE_PROBABILITIES).replace("model.roi_heads", "# model.roi_heads")
    assert "pairing" not in weighed_parts("My detector's loss is stuck.\n" + commented + DETECTION_LOG, "WR-130")
    # (nor a softmax only at evaluation, under an `if` -- code_review_s69 M2)
    at_eval = PREDICTOR.format(scores="scores = self.cls_score(x)\n        if not self.training:\n            "
                                      + SCORES_ARE_PROBABILITIES)
    assert "pairing" not in weighed_parts("My detector's loss is stuck.\n" + at_eval + DETECTION_LOG, "WR-130")
    # (nor another class's forward, where the predictor has none of its own)
    borrowed = ("class ToolPredictor(FastRCNNPredictor):\n    def __init__(self, c, n):\n        super().__init__(c, n)\n\n"
                "class Head(nn.Module):\n    def forward(self, x):\n        probs = F.softmax(self.fc(x), dim=-1)\n"
                "        return probs, x\n\nmodel.roi_heads.box_predictor = ToolPredictor(1024, 11)\n")
    assert "pairing" not in weighed_parts("My detector's loss is stuck.\n" + borrowed + DETECTION_LOG, "WR-130")


# ---- detectron2: a loss that climbed as the warmup raised the rate, and came only partly back down -------------------

def _d2_line(it: int, loss: float, lr: float) -> str:
    return (f"[03/14 10:21:51 d2.utils.events]:  eta: 0:41:01  iter: {it}  total_loss: {loss:.4g}  loss_cls: "
            f"{loss / 2:.4g}  loss_box_reg: 0.4  time: 0.4116  data_time: 0.0196  lr: {lr:.6g}  max_mem: 4917M\n")


# falls to 0.70 by iter 299, climbs as the rate rises to 0.05, then sits near 1.5 (over 2x its lowest, far below its peak)
D2_CURVE = [(19, 1.90, 0.001), (59, 1.10, 0.003), (99, 0.95, 0.005), (199, 0.80, 0.01), (299, 0.70, 0.015),
            (399, 0.74, 0.02), (499, 0.85, 0.025), (599, 1.60, 0.03), (699, 3.90, 0.035), (799, 2.70, 0.04),
            (999, 1.90, 0.05), (1499, 1.70, 0.05), (1999, 1.55, 0.05), (2499, 1.52, 0.05)]
D2_LOG = "".join(_d2_line(*row) for row in D2_CURVE)
RAISED = ("Training Mask R-CNN from the model zoo on my own 5 classes. It was slow at BASE_LR 0.00025 so I raised it "
          "to 0.05 with batch 4. ")


def test_a_climb_the_rate_rose_through_that_the_report_says_never_recovered_is_the_rate():
    text = RAISED + "The loss goes down at first, then jumps around and never recovers.\n\n" + D2_LOG
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-220"
    assert any("came down only to 1.52 (iter 2499), 2.17x its lowest" in e for e in d.matches[0].evidence)
    assert any("learning rate printed beside the loss rose from 0.015 (iter 299)" in e for e in d.matches[0].evidence)


def test_the_same_climb_without_those_words_or_back_near_its_lowest_is_a_bump():
    # (the numbers alone: a bump it came partly back from)
    assert diagnosis(RAISED + "Is this normal?\n\n" + D2_LOG).verdict == "healthy"
    # (back within 1.5x its lowest, whatever the words: it recovered)
    back = D2_CURVE[:-3] + [(1499, 1.20, 0.05), (1999, 1.05, 0.05), (2499, 0.98, 0.05)]
    text = RAISED + "The loss jumps around and never recovers.\n\n" + "".join(_d2_line(*row) for row in back)
    assert diagnosis(text).verdict == "normal"           # (spikes in a falling curve)
    # (nor against one lucky batch: back at the level around its lowest, 1.5x its single lowest value -- review M4)
    noisy = [(10 * k, v, 0.01) for k, v in enumerate([1.2, 0.8, 0.5, 0.36, 0.31, 0.34, 0.21, 0.33, 0.30, 0.35, 0.32,
                                                      2.9, 1.1, 0.6, 0.37, 0.30, 0.35, 0.31, 0.34, 0.33])]
    text = RAISED + "The loss spikes around iter 110 and never recovers.\n\n" + "".join(_d2_line(*r) for r in noisy)
    assert diagnosis(text).verdict in ("normal", "healthy")


# ---- an exp's input printed beside the loss, past float32's limit on the row where the loss turns nan ---------------

YOLO_DECODE = """def decode(raw, anchors, stride):
    xy = (jax.nn.sigmoid(raw[..., 0:2]) + grid) * stride
    wh = jnp.exp(raw[..., 2:4]) * anchors
    return jnp.concatenate([xy - wh / 2, xy + wh / 2], axis=-1)
"""
TWH = [2.9, 4.1, 5.6, 7.9, 11.2, 16.8, 24.9, 38.0, 57.3, 93.4]
YOLO_LOG = "".join(f"step {200 * i:5d} | loss {v} | max_twh {t}\n" for i, (v, t) in enumerate(
    zip(["6.1183", "2.4410", "1.9305", "1.6218", "1.5107", "1.4420", "1.4365", "1.4398", "1.4507", "nan"], TWH)))


def test_an_exps_input_printed_past_its_limit_where_the_loss_turns_nan_is_the_overflow():
    text = "My Flax YOLO port goes nan after ~1.8k steps, float32 everywhere.\n\n" + YOLO_DECODE + "\n" + YOLO_LOG
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-020"
    said = next(e for e in d.matches[0].evidence if "max_twh" in e)
    assert "57.3 at step 1600, then 93.4 at step 1800, the row where the loss first turns nan" in said
    assert "past 88.72" in said and "inf - inf" in said


def test_a_column_past_the_limit_beside_a_nan_with_no_exp_in_the_code_is_no_overflow():
    text = ("My Flax YOLO port goes nan after ~1.8k steps, float32 everywhere.\n\n"
            + YOLO_DECODE.replace("jnp.exp(raw[..., 2:4])", "jax.nn.softplus(raw[..., 2:4])") + "\n" + YOLO_LOG)
    assert not any("max_twh" in e for m in diagnosis(text).matches for e in m.evidence)
    # (nor beside an exp of a parameter, nor where the column only crept past the limit -- code_review_s69 M1)
    for code, column in (("std = torch.exp(self.log_std)\n", TWH),
                         (YOLO_DECODE, [80.1, 81.0, 82.2, 83.5, 84.6, 85.9, 86.8, 87.6, 88.3, 88.9])):
        log = YOLO_LOG
        for old, new in zip(TWH, column):
            log = log.replace(f"max_twh {old}\n", f"max_twh {new}\n")
        text = "My run goes nan after ~1.8k steps, float32.\n\n" + code + "\n" + log
        assert not any("max_twh" in e for m in diagnosis(text).matches for e in m.evidence), code


# ---- TensorFlow 1: masked scores filled with a tensor of -inf ------------------------------------------------------

TF1_ATTENTION = """    scores = tf.matmul(query, keys, transpose_b=True)
    mask = tf.sequence_mask(src_len, maxlen=tf.shape(keys)[1])
    scores = tf.where(mask, scores, {fill})
    weights = tf.nn.softmax(scores)
"""


def test_a_where_that_fills_masked_scores_with_a_tensor_of_minus_inf_is_the_masked_row_construct():
    for fill in ("tf.ones_like(scores) * float('-inf')", "tf.fill(tf.shape(scores), float('-inf'))",
                 "torch.full_like(scores, -math.inf)"):
        found = breaking_construct("My seq2seq's attention:\n" + TF1_ATTENTION.format(fill=fill))
        assert "masked-inf" in found and fill.split("(")[0] in found["masked-inf"], fill
    # (a finite fill, or a tensor of zeros, is no -inf)
    for fill in ("tf.zeros_like(scores)", "tf.ones_like(scores) * -1e4"):
        assert "masked-inf" not in breaking_construct("My attention:\n" + TF1_ATTENTION.format(fill=fill)), fill


def test_a_tf1_attention_with_a_minus_inf_mask_beside_a_loss_that_turns_nan_points_at_the_masked_row():
    log = "".join(f"step {s} lr 0.0010 loss {v} ppl 50.0\n" for s, v in
                  [(3000, "4.2176"), (3100, "4.1873"), (3200, "4.1502"), (3300, "4.0918"), (3400, "nan"),
                   (3500, "nan")])
    text = ("TF 1.8 seq2seq with Luong attention, the loss becomes nan after a few thousand steps and stays nan.\n\n"
            + TF1_ATTENTION.format(fill="tf.ones_like(scores) * float('-inf')") + "\n" + log)
    assert weighed_parts(text, "WR-070").get("masked-inf", 0) > 0
    assert diagnosis(text).matches[0].entry.id == "WR-070"


# ---- Torch's CUDA check: an error that ended the run, which no entry covers ---------------------------------------

TORCH7_OOM = """$ th train.lua -data_dir data/poems -rnn_size 1024 -num_layers 3 -seq_length 200 -gpuid 0
using CUDA on GPU 0...
loading data files...
number of parameters in the model: 21492833
cloning rnn
THCudaCheck FAIL file=/tmp/luarocks_cutorch-scm-1-1737/cutorch/lib/THC/generic/THCStorage.cu line=66 error=2 : out of memory
/home/me/torch/install/bin/luajit: /home/me/torch/install/share/lua/5.1/nn/THNN.lua:110: cuda runtime error (2) : out of memory at /tmp/luarocks_cutorch-scm-1-1737/cutorch/lib/THC/generic/THCStorage.cu:66
stack traceback:
	[C]: in function 'v'
	train.lua:264: in function 'opfunc'
"""


def test_torchs_cuda_runtime_error_is_an_error_no_entry_covers():
    d = diagnosis("char-rnn dies right away since I made the network bigger. GTX 970.\n\n" + TORCH7_OOM)
    assert d.verdict == "unexplained" and not d.matches
    assert "cuda runtime error ({}) : out of memory" in d.evidence.messages
    assert d.evidence.messages["cuda runtime error ({}) : out of memory"][3] == "python"


def test_a_cuda_runtime_error_a_trainer_skipped_or_a_sentence_recalls_did_not_end_the_run():
    # (old fairseq warned and skipped the batch; a sentence of the report's is no error printed -- review M3)
    rows = "".join(f"| epoch 001:   {k * 100} / 2000 loss={v}, nll_loss={v}, lr=0.0005\n"
                   for k, v in enumerate(["9.21", "8.40", "7.95", "7.52", "7.20", "6.98"], 1))
    skipped = ("| WARNING: ran out of memory with exception: cuda runtime error (2) : out of memory at "
               "/pytorch/aten/src/THC/THCCachingAllocator.cpp:510;\n Skipping batch\n")
    d = diagnosis("Is this warning a problem?\n" + rows[:180] + skipped + rows[180:])
    assert not any(k.startswith("cuda runtime error") for k in d.evidence.messages) and d.verdict != "unexplained"
    said = "Earlier I got cuda runtime error (2) : out of memory, and fixed it with batch 16. Now:\n" + rows
    assert not any(k.startswith("cuda runtime error") for k in diagnosis(said).evidence.messages)


def test_a_device_side_assert_that_torch_raised_as_a_cuda_runtime_error_stays_the_labels_evidence():
    text = ("RuntimeError: cuda runtime error (59) : device-side assert triggered at "
            "/pytorch/aten/src/THC/generic/THCTensorMath.cu:26\n")
    d = diagnosis("Training my classifier crashes at the first batch:\n" + text)
    assert "device-side assert triggered" in d.evidence.messages
    assert d.evidence.messages["device-side assert triggered"][3] == "cuda"
    assert d.matches and d.matches[0].entry.id == "WR-320"


# ---- quantization-aware training: the gradients of the module the copy was made from, cleared --------------------

QAT_LOOP = """model.fuse_model(is_qat=True)
model.qconfig = torch.ao.quantization.get_default_qat_qconfig("x86")
qat_model = torch.ao.quantization.prepare_qat(model{inplace})
optimizer = torch.optim.SGD(qat_model.parameters(), lr=1e-3, momentum=0.9)

for epoch in range(8):
    for i, (x, y) in enumerate(loader):
        {cleared}.zero_grad()
        loss = criterion(qat_model(x), y)
        loss.backward()
        optimizer.step()
"""
QAT_LOG = "".join(f"epoch {e} iter {i:3d} loss {v}\n" for e, i, v in
                  [(0, 0, "0.3127"), (0, 100, "0.2690"), (0, 200, "0.9871"), (0, 300, "3.1986"), (1, 0, "14.8831"),
                   (1, 100, "61.2207"), (1, 200, "347.5316"), (1, 250, "nan"), (1, 300, "nan")])


def test_a_loop_that_clears_the_original_while_its_optimizer_holds_the_copy_never_clears_them():
    loop = QAT_LOOP.format(inplace="", cleared="model")
    # (the fact alone is half of one, a suspect beside the climb; with the words that a lower rate only put it off, the
    # accumulating entry's face, it leads)
    alone = diagnosis("My QAT fine-tune diverges after a few hundred iterations.\n\n" + loop + "\n" + QAT_LOG)
    assert weighed_parts("My QAT fine-tune diverges.\n\n" + loop + QAT_LOG, "WR-260")["never-cleared"] > 0
    assert [m.entry.id for m in alone.matches][:2] == ["WR-220", "WR-260"]
    text = ("My QAT fine-tune diverges after a few hundred iterations; with lr 1e-4 it is the same, it just blows up "
            "later.\n\n" + loop + "\n" + QAT_LOG)
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-260"
    said = next(e for e in d.matches[0].evidence if "copy of the model" in e)
    assert "`qat_model = torch.ao.quantization.prepare_qat(model)`" in said and "`model.zero_grad()`" in said
    assert not any("clears the gradients beside backward()" in a for a in d.matches[0].against)


def test_clearing_the_copy_or_a_prepare_in_place_clears_what_the_optimizer_holds():
    for inplace, cleared in (("", "optimizer"), ("", "qat_model"), (", inplace=True", "model")):
        text = "My QAT fine-tune diverges.\n\n" + QAT_LOOP.format(inplace=inplace, cleared=cleared) + "\n" + QAT_LOG
        assert not any("copy of the model" in e for m in diagnosis(text).matches for e in m.evidence), (inplace, cleared)
    # (nor a prepare told inplace=True on the next line, or by its place -- code_review_s69b F2)
    for call in ("torch.ao.quantization.prepare_qat(model,\n    inplace=True)", "torch.ao.quantization.prepare_qat(model, None, True)"):
        text = ("My QAT fine-tune diverges.\n\n" + QAT_LOOP.format(inplace="", cleared="model")
                .replace("torch.ao.quantization.prepare_qat(model)", call) + "\n" + QAT_LOG)
        assert not any("copy of the model" in e for m in diagnosis(text).matches for e in m.evidence), call
    # (nor where the name `model` is a function's parameter, handed the copy, nor an EMA's copy whose parameters no
    # stepped optimizer holds -- code_review_s69b F1)
    handed = QAT_LOOP.format(inplace="", cleared="model").replace(
        "for epoch in range(8):\n    for i, (x, y) in enumerate(loader):\n        model.zero_grad()\n        loss = criterion(qat_model(x), y)",
        "def train_one_epoch(model, loader):\n    for i, (x, y) in enumerate(loader):\n        model.zero_grad()\n        loss = criterion(model(x), y)")
    assert "def train_one_epoch(model" in handed
    ema = ("ema_model = copy.deepcopy(model)\noptimizer = torch.optim.Adam(model.parameters(), lr=1e-3)\n"
           "ema_params = list(ema_model.parameters())\nfor x, y in loader:\n    model.zero_grad()\n"
           "    loss = criterion(model(x), y)\n    loss.backward()\n    optimizer.step()\n")
    for code in (handed, ema):
        text = "My fine-tune diverges.\n\n" + code + "\n" + QAT_LOG
        assert not any("copy of the model" in e for m in diagnosis(text).matches for e in m.evidence), code[:40]
    # (nor Accelerate's prepare, which wraps the same parameters)
    text = ("My fine-tune diverges.\n\n" + QAT_LOOP.format(inplace="", cleared="model")
            .replace("torch.ao.quantization.prepare_qat(model)", "accelerator.prepare(model)") + "\n" + QAT_LOG)
    assert not any("copy of the model" in e for m in diagnosis(text).matches for e in m.evidence)


# ---- fastai: a fit call's rate, into the Adam its Learner builds ---------------------------------------------------

FASTAI_TABLE = """epoch     train_loss  valid_loss  accuracy  time
0         2.318810    2.291307    0.112500  00:41
1         4.911245    9.620318    0.099000  00:41
2         13.50762    nan         0.100000  00:41
3         nan         nan         0.100000  00:41
"""


def test_a_fastai_fit_at_a_rate_far_past_adams_default_is_a_rate_too_high():
    text = ("My resnet goes nan with fastai.\n\nlearn = vision_learner(dls, resnet34, metrics=accuracy)\n"
            "learn.fit_one_cycle(4, 0.5)\n\n" + FASTAI_TABLE)
    parts = weighed_parts(text, "WR-220")
    assert parts.get("adaptive-rate-high", 0) > 0
    said = next(e for e in diagnosis(text).matches[0].evidence if "fastai learner" in e)
    assert "`.fit_one_cycle(4, 0.5)`" in said and "500 times Adam's default rate" in said
    for call in ("learn.fine_tune(4, base_lr=0.3)", "learn.fit_one_cycle(4, lr_max=slice(0.2))",
                 "learn.fit_one_cycle(4, max_lr=0.3)"):
        assert weighed_parts(text.replace("learn.fit_one_cycle(4, 0.5)", call), "WR-220").get("adaptive-rate-high", 0) > 0


def test_a_fastai_rate_at_its_default_or_with_sgd_is_no_such_rate():
    base = "My resnet goes nan with fastai.\n\nlearn = vision_learner(dls, resnet34, metrics=accuracy{opt})\n{fit}\n\n"
    for opt, fit in (("", "learn.fit_one_cycle(4, 3e-3)"), ("", "learn.fine_tune(4)"),
                     (", opt_func=SGD", "learn.fit_one_cycle(4, 0.5)")):
        text = base.format(opt=opt, fit=fit) + FASTAI_TABLE
        assert "adaptive-rate-high" not in weighed_parts(text, "WR-220"), (opt, fit)
    # (nor a fit call of another library's, with no fastai learner in the paste)
    text = "My model goes nan.\n\nmodel.fit(4, 0.5)\n\n" + FASTAI_TABLE
    assert "adaptive-rate-high" not in weighed_parts(text, "WR-220")


# ---- a mask made in the scores' float16 on its own line, then scaled by -1e9 where it is added ----------------------

HALF_MASK = """model = GPT(cfg).to(device).half()

def forward(self, x, attn_mask):
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    keep = self.causal[:, :, :T, :T] * attn_mask[:, None, None, :].to(att.dtype)
    att = att + (1.0 - keep) * -1e9
    att = F.softmax(att, dim=-1)
"""
HALF_LOG = "".join(f"step {s:5d} | loss nan | lr 6.00e-06\n" for s in (0, 50, 100, 150))


def test_a_mask_made_in_float16_then_scaled_past_its_range_is_the_masked_row_and_full_precision_its_check():
    text = ("My GPT's loss is nan from step 0 after model.half(); in float32 it trains fine.\n\n" + HALF_MASK + "\n"
            + HALF_LOG)
    parts = weighed_parts(text, "WR-070")
    assert parts.get("masked-inf", 0) > 0 and parts.get("full-precision", 0) > 0
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-070"
    assert any("`att = att + (1.0 - keep) * -1e9`" in e for e in d.matches[0].evidence)


def test_a_mask_made_in_float32_or_added_to_another_name_is_finite_there():
    for change in (("attn_mask[:, None, None, :].to(att.dtype)", "attn_mask[:, None, None, :].float()"),
                   ("att = att + (1.0 - keep) * -1e9", "bias = other + (1.0 - keep) * -1e9")):
        text = ("My GPT's loss is nan from step 0 after model.half(); in float32 it trains fine.\n\n"
                + HALF_MASK.replace(*change) + "\n" + HALF_LOG)
        assert "masked-inf" not in weighed_parts(text, "WR-070"), change


# ---- PaddlePaddle's `loss is:` lines: a dialect only where two counted lines say so ----------------------------------

def test_one_sentence_with_loss_is_above_another_tools_log_leaves_that_log_to_its_own_dialect():
    from trainwreck.logscan import scan_text
    keyed = "".join(f"Epoch {e}, loss={v}\n" for e, v in enumerate(["0.9", "0.8", "0.7", "nan", "nan"], 1))
    ev = scan_text("Why my loss is: nan\n" + keyed)
    assert ev.dialect == "lines with a loss key" and ev.count == 5 and str(ev.first_nonfinite_at) == "epoch 4"
    paddle = scan_text("epoch_id: 0, batch_id: 0, loss is: [0.69]\nepoch_id: 0, batch_id: 100, loss is: [0.51]\n"
                       "epoch_id: 1, batch_id: 0, loss is: [nan]\n")
    assert paddle.dialect.startswith("lines of `loss is:` values") and str(paddle.first_nonfinite_at) == "epoch 1, batch 0"


# ---- reinforcement learning: an actor that ends in a softmax handed to Categorical(logits=), a nan printed in an
# error, and a policy loss below zero -----------------------------------------------------------------------------

ACTOR = """class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.actor = nn.Sequential(
            nn.Linear(obs_dim, 64),
            nn.Tanh(),
            nn.Linear(64, n_actions),
            {last}
        )

    def get_action(self, x):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        return probs.sample()
"""


def test_an_actor_whose_sequential_ends_in_a_softmax_hands_a_distribution_probabilities_as_logits():
    text = ("My PPO agent barely learns since I changed the actor; the entropy stays near ln 4.\n\n"
            + ACTOR.format(last="nn.Softmax(dim=-1),"))
    said = next(e for m in diagnosis(text).matches for e in m.evidence if "distribution on probabilities" in e)
    assert "`logits = self.actor(x)` and `self.actor` ends in `nn.Softmax(dim=-1)`" in said
    # (a comment after the softmax is no part of it)
    commented = text.replace("nn.Softmax(dim=-1),", "nn.Softmax(dim=-1),  # probabilities")
    assert any("distribution on probabilities" in e for m in diagnosis(commented).matches for e in m.evidence)
    # (an actor that ends in its linear layer gives logits; nor a log taken of the softmax before the distribution;
    # nor an old class's softmax actor shown beside the new class that builds the distribution -- review s69c F4)
    plain = text.replace("nn.Softmax(dim=-1),", "")
    logged = text.replace("        probs = Categorical(logits=logits)",
                          "        logits = torch.log(logits + 1e-8)\n        probs = Categorical(logits=logits)")
    before_after = "Before:\n" + ACTOR.format(last="nn.Softmax(dim=-1),").replace("Categorical(logits=logits)",
                                                                                 "Categorical(probs=logits)") \
        + "\nAfter (it still barely learns):\n" + ACTOR.format(last="")
    for other in (plain, logged, "My PPO agent barely learns.\n\n" + before_after):
        assert not any("distribution on probabilities" in e for m in diagnosis(other).matches for e in m.evidence)


MASKED_POLICY = """    def forward(self, obs):
        logits = self.net(obs["obs"])
        logits = logits.masked_fill(obs["action_mask"] == 0, float("-inf"))
        return logits
"""
NAN_ERROR = ("ValueError: Expected parameter logits (Tensor of shape (1, 64)) of distribution Categorical(logits: "
             "torch.Size([1, 64])) to satisfy the constraint IndependentConstraint(Real(), 1), but found invalid values:\n"
             "tensor([[nan, nan, nan, nan, nan, nan, nan, nan]])\n")


def test_a_tensor_of_nan_printed_in_an_error_is_the_runs_nan_beside_a_masked_fill():
    text = "RLlib PPO with action masking crashes after ~14 iterations.\n\n" + MASKED_POLICY + "\n" + NAN_ERROR
    assert weighed_parts(text, "WR-070").get("masked-inf", 0) > 0
    # (a tensor written in the code is no printed nan, nor one printed with no error: an input's missing value --
    # code_review_s69c F3, F6)
    code_only = "RLlib PPO with action masking crashes.\n\n" + MASKED_POLICY + "x = torch.tensor([[nan, 1.0]])\n"
    assert "masked-inf" not in weighed_parts(code_only, "WR-070")
    echoed = "My masked policy's reward stays flat.\n\n" + MASKED_POLICY + ">>> obs['obs'][0]\ntensor([[nan, 0.31, 0.12]])\n"
    assert "masked-inf" not in weighed_parts(echoed, "WR-070")
    # (a nan after finite values in the first row, printed after the error, is one)
    later = text.replace("tensor([[nan, nan,", "tensor([[0.1000, nan,")
    assert weighed_parts(later, "WR-070").get("masked-inf", 0) > 0


def test_a_policy_loss_below_zero_is_not_a_loss_that_cannot_go_there():
    from conftest import context_of

    def report(name: str, code: str = "actor_loss = -(dist.log_prob(actions) * adv).mean()") -> str:
        rows = "".join(f"epoch {e}  | ep_reward {r}  | {name} {a}\n" for e, (r, a) in enumerate(
            [("21.3", "0.412"), ("38.9", "1.87"), ("97.4", "-2.65"), ("61.2", "-14.8"), ("9.6", "27.4")]))
        return "My A2C agent collapses.\n\n" + rows + "\nThe critic: v_err = F.mse_loss(values, returns)\n" + code + "\n"

    c = context_of(report("actor_loss"))
    assert c.ev.loss_named[0] == "actor_loss" and c.ev.low == -14.8 and c.impossible_negative == ""
    assert context_of(report("loss_pg")).impossible_negative == ""
    # (the critic's own squared error below zero would be one; and a name that only holds the word, `factor_loss`, or an
    # actor trained with behaviour cloning's cross-entropy -- review s69c F1, F2)
    for name, code in (("value_loss", ""), ("factor_loss", ""),
                       ("actor_loss", "actor_loss = F.cross_entropy(self.actor(obs), expert_actions)")):
        assert "cannot with valid targets" in context_of(report(name, code)).impossible_negative, name
    # (the name's words: a policy's or an actor's, by a word of its own)
    from trainwreck.loss_inputs import POLICY_LOSS
    assert [n for n in ("actor_loss", "loss_pg", "train/policy_loss", "pi_loss", "factor_loss", "epg_loss",
                        "reactor_temp") if POLICY_LOSS.search(n)] == ["actor_loss", "loss_pg", "train/policy_loss", "pi_loss"]
