"""Readings of tools beyond PyTorch and Keras (torch for R, Caffe, scikit-learn, PaddlePaddle, nibabel's medical
volumes), of an additive attention mask and of weights under float16, and of a log's count per epoch: each changes the
verdict on a report written as such a tool prints, and stays quiet on a nearby one where it must not fire."""
from conftest import context_of, diagnosis, weighed, weighed_parts
from trainwreck.curve_shape import signature_of
from trainwreck.data_values import mask_own_divider
from trainwreck.hidden_activation import no_zero_side
from trainwreck.input_scaling import scaled_said
from trainwreck.logscan import scan_text
from trainwreck.logscan.dialects import caffe

# ---- torch for R: a softmax that ends the forward's pipe, handed to nn_cross_entropy_loss -----------------------------

R_MODEL = """library(torch)
net <- nn_module(
  initialize = function() {
    self$hidden <- nn_linear(64, 128)
    self$out <- nn_linear(128, 26)
  },
  forward = function(x) {
    x %>%
      self$hidden() %>%
      nnf_relu() %>%
      self$out() %>%
      nnf_softmax(dim = 2)
  }
)
loss_fn <- nn_cross_entropy_loss()
"""
# a loss that barely moves while the accuracy climbs (letters: 26 classes, ln 26 = 3.26)
R_LOG = "".join(f"epoch {e}: loss {v} acc {a}\n" for e, (v, a) in enumerate(
    [("3.1420", "0.41"), ("3.0115", "0.63"), ("2.9874", "0.71"), ("2.9791", "0.75"), ("2.9730", "0.78"),
     ("2.9702", "0.80"), ("2.9684", "0.81"), ("2.9671", "0.82"), ("2.9660", "0.83"), ("2.9652", "0.84")], 1))


def test_a_torch_for_r_model_whose_pipe_ends_in_a_softmax_hands_probabilities_to_its_cross_entropy():
    text = "My R torch letter classifier: accuracy climbs but the loss is stuck near 2.97.\n" + R_MODEL + R_LOG
    d = diagnosis(text)
    assert d.matches[0].entry.id == "WR-130"
    assert weighed_parts(text, "WR-130")["pairing"] == 1.0
    said = " ".join(weighed(text, "WR-130")[1])
    # (quoted as the call, not the pipe and the brace around it)
    assert "the pasted model outputs probabilities (`nnf_softmax(dim = 2)`) and its loss, `nn_cross_entropy_loss`, " \
           "applies its own log-softmax" in said
    # and not: the log-softmax that nn_nll_loss expects, a softmax in the middle of the pipe, or a model of
    # nn_sequential whose last module is a linear layer
    for other in (R_MODEL.replace("nnf_softmax", "nnf_log_softmax").replace("nn_cross_entropy_loss", "nn_nll_loss"),
                  R_MODEL.replace("nnf_relu() %>%", "nnf_softmax(dim = 2) %>%").replace(
                      "self$out() %>%\n      nnf_softmax(dim = 2)", "self$out()"),
                  "net <- nn_sequential(nn_linear(64, 128), nn_softmax(dim = 2), nn_linear(128, 26))\n"
                  "loss_fn <- nn_cross_entropy_loss()\n"):
        assert "pairing" not in weighed_parts(other + R_LOG, "WR-130"), other
    # the same model built as an nn_sequential that ends in the softmax module is read too
    sequential = ("net <- nn_sequential(nn_linear(64, 128), nn_relu(), nn_linear(128, 26), nn_softmax(dim = 2))\n"
                  "loss_fn <- nn_cross_entropy_loss()\n")
    assert weighed_parts(sequential + R_LOG, "WR-130")["pairing"] == 1.0


# ---- Caffe: a clip_gradients threshold its solver never logs clipping at ----------------------------------------------

def caffe_log(clipped_at: int | None = None, clip: str = "clip_gradients: 50") -> str:
    """A solver.prototxt and a Caffe log at INFO whose loss climbs to nan, the SGD solver's rate lines in it, and, at
    `clipped_at`, the line the solver logs when it clips."""
    losses = ["2.30251", "2.29410", "2.41872", "3.06613", "6.87240", "33.1405", "nan"]
    lines = ["base_lr: 0.05", "momentum: 0.9", "lr_policy: \"fixed\"", "display: 20", clip, ""]
    for i, v in enumerate(losses):
        it = 20 * i
        lines.append(f"I0602 09:14:{10 + i:02d}.118305  4411 solver.cpp:218] Iteration {it} (48.2 iter/s, "
                     f"0.415s/20 iters), loss = {v}")
        lines.append(f"I0602 09:14:{10 + i:02d}.118360  4411 solver.cpp:237]     Train net output #0: loss = {v} "
                     f"(* 1 = {v} loss)")
        lines.append(f"I0602 09:14:{10 + i:02d}.118381  4411 sgd_solver.cpp:105] Iteration {it}, lr = 0.05")
        if clipped_at == it:
            lines.append(f"I0602 09:14:{10 + i:02d}.118402  4411 sgd_solver.cpp:92] Gradient clipping: scaling down "
                         "gradients (L2 norm 71.8 > 50) by scale factor 0.696")
    return "My Caffe net goes nan although I set clip_gradients. Why?\n" + "\n".join(lines) + "\n"


def test_a_caffe_log_that_never_shows_the_solver_clipping_is_a_clip_that_never_engaged():
    text = caffe_log()
    assert caffe.clip_never_logged(text)
    d = diagnosis(text)
    assert d.signature.name == "climb-despite-clipping"
    assert d.matches[0].entry.id == "WR-240" and "WR-220" in [m.entry.id for m in d.matches[:3]]
    assert ("gradient clipping at 50 never engaged: Caffe's solver logs `Gradient clipping: scaling down gradients` "
            "on every iteration it clips, and the log shows none from iteration 0 to iteration 120") \
        in d.signature.facts
    # one clipping line, anywhere, says the clip acted: then the climb is the rate's
    clipped = diagnosis(caffe_log(clipped_at=60))
    assert clipped.signature.name == "climb-then-nonfinite" and clipped.matches[0].entry.id == "WR-220"
    # no clipping at all (Caffe's default, -1), or no rate lines to show the solver's INFO lines were kept
    for text in (caffe_log(clip="clip_gradients: -1"),
                 "\n".join(line for line in caffe_log().splitlines() if "lr = " not in line) + "\n"):
        assert diagnosis(text).signature.name == "climb-then-nonfinite", text[:200]


# ---- a 0/1 mask put through the images' own helper that divides by 255 ------------------------------------------------

DATASET = """# the masks are png files holding 0 and 1
def load_pair(img_path, mask_path):
    img = np.array(Image.open(img_path).convert("RGB"))
    mask = np.array(Image.open(mask_path))
    return prepare(img), prepare(mask)

def prepare(a):
    a = a.astype(np.float32) / 255.
    return torch.from_numpy(a)

...
target = prepare_target.long()
"""


def test_a_mask_through_the_pastes_own_divide_by_255_helper_is_a_mask_scaled_like_the_images():
    assert mask_own_divider(DATASET) == ("prepare(mask)", "a = a.astype(np.float32) / 255.")
    log = "".join(f"step {i * 100} loss {v}\n" for i, v in enumerate(
        ["0.6940", "0.0371", "0.0052", "0.0011", "0.0004", "0.0002"]))
    text = "Segmentation of scratches: the loss goes to ~0 and the predicted masks are all background.\n" + DATASET + log
    assert "mask-scaled" in context_of(text).printed
    assert diagnosis(text).matches[0].entry.id == "WR-320"
    # not a helper that does not divide, a mask that does not go through it, a mask said to hold 0 and 255, nor one
    # multiplied back
    for other in (DATASET.replace(" / 255.", ""), DATASET.replace("prepare(mask)", "torch.from_numpy(mask)"),
                  DATASET.replace("holding 0 and 1", "holding 0 and 255"),
                  DATASET.replace("return torch.from_numpy(a)", "return torch.from_numpy(a * 255)")):
        assert mask_own_divider(other) is None, other


# ---- scikit-learn's MLP: hidden units with no zero side, inputs in money's units ---------------------------------------

SKLEARN = """X = df[["tenure_months", "monthly_spend", "account_balance", "support_calls"]].to_numpy()
y = df["churned"].to_numpy()
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=1)
model = MLPClassifier(hidden_layer_sizes=(64, 32),
                      activation="tanh", max_iter=200, verbose=True)
model.fit(X_tr, y_tr)
"""
SKLEARN_LOG = "".join(f"Iteration {i}, loss = {v}\n" for i, v in enumerate(
    ["0.69411023", "0.50872231", "0.48213382", "0.48090617", "0.48077411", "0.48081220", "0.48075932",
     "0.48079105", "0.48076644", "0.48078210", "0.48077003", "0.48076519"], 1)) + \
    "Training loss did not improve more than tol=0.000100 for 10 consecutive epochs. Stopping.\n" \
    ">>> np.unique(model.predict(X_te), return_counts=True)\n(array([0]), array([2500]))\n"


def test_hidden_units_set_to_tanh_or_logistic_cannot_be_dead_relus():
    assert no_zero_side(SKLEARN) == 'activation="tanh"'
    text = "Churn model predicts 'no churn' for everyone.\n" + SKLEARN + SKLEARN_LOG
    parts = weighed_parts(text, "WR-140")
    assert parts["units"] == -2.0 - max(parts.get("curve", 0.0), 0.0)
    assert "these have no such side" in " ".join(weighed(text, "WR-140")[2])
    # the outcome: the same paste with ReLU units names dead ReLUs first; with tanh units they rank last
    assert [m.entry.id for m in diagnosis(text).matches][-1] == "WR-140"
    relu_text = text.replace('activation="tanh"', 'activation="relu"')
    assert diagnosis(relu_text).matches[0].entry.id == "WR-140"
    # ReLU, scikit-learn's default, named or left out: units that can die
    for relu in (SKLEARN.replace('activation="tanh"', 'activation="relu"'),
                 SKLEARN.replace('\n                      activation="tanh",', "")):
        assert no_zero_side(relu) == "" and "units" not in weighed_parts(relu + SKLEARN_LOG, "WR-140")


def test_a_network_fed_money_columns_with_nothing_scaled_has_unscaled_inputs():
    raw = scaled_said(SKLEARN)
    assert raw["unscaled"]["inputs"] == raw["code"]["inputs"]
    assert "monthly_spend, account_balance in their own units" in raw["unscaled"]["inputs"]
    text = "Churn model predicts 'no churn' for everyone.\n" + SKLEARN + SKLEARN_LOG
    assert weighed_parts(text, "WR-330")["unscaled-inputs"] == 1.0
    assert diagnosis(text).matches[0].entry.id == "WR-330"
    # printed, NumPy's unique of the predictions is one class: one output for every input
    assert "one-output" in context_of(text).printed
    # a scaler anywhere, columns that are no amounts of money, or no network (a tree's splits do not care)
    for other in (SKLEARN.replace("X_tr, X_te", "X = StandardScaler().fit_transform(X)\nX_tr, X_te"),
                  SKLEARN.replace("monthly_spend", "plan_tier").replace("account_balance", "region_code"),
                  SKLEARN.replace("MLPClassifier(hidden_layer_sizes=(64, 32),", "RandomForestClassifier(")):
        assert "inputs" not in scaled_said(other)["unscaled"], other


# ---- an additive mask made in float16 and scaled by -1e9 ---------------------------------------------------------------

ATTENTION = """Training with torch.autocast(device_type="cuda", dtype=torch.float16) and a GradScaler.

    def attend(self, q, k, v, key_padding):      # key_padding: 1 = real token, 0 = pad
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.scale
        bias = (1 - key_padding[:, None, None, :].to(scores.dtype)) * -1e9
        weights = torch.softmax(scores + bias, dim=-1)
        return torch.einsum("bhqk,bhkd->bhqd", weights, v)
"""
ATTENTION_LOG = "".join(f"it {i * 50} | loss {v}\n" for i, v in enumerate(
    ["2.7712", "2.3120", "2.0954", "1.9871", "nan", "1.9102", "1.8866", "nan", "1.8611"]))


def test_an_additive_mask_made_in_the_scores_float16_and_scaled_past_its_range_is_a_masked_row():
    text = "Loss is nan on a few steps, only with fp16.\n" + ATTENTION + ATTENTION_LOG
    facts = context_of(text).printed
    assert "adds a mask made in the scores' own dtype and scaled by a constant past float16's range" \
        in facts["masked-inf"]
    assert diagnosis(text).matches[0].entry.id == "WR-070"
    # not a mask made in float32 (its sum with the scores is float32), one scaled by -1e4 (finite in float16), nor the
    # same code in a run with no float16
    for other in (text.replace(".to(scores.dtype)", ".float()"), text.replace("-1e9", "-1e4"),
                  ATTENTION.replace("torch.autocast(device_type=\"cuda\", dtype=torch.float16) and a GradScaler",
                                    "plain float32") + ATTENTION_LOG):
        assert "masked-inf" not in context_of(other).printed, other
    # the constant first reads the same
    first = text.replace("(1 - key_padding[:, None, None, :].to(scores.dtype)) * -1e9",
                         "-1e9 * (1 - key_padding[:, None, None, :].type_as(scores))")
    assert "masked-inf" in context_of(first).printed


def test_the_readings_of_scan_and_signature_agree_for_a_caffe_log_read_whole():
    # the threshold is the solver's own setting, read by the layout (as clip_at, max_norm and --clip-grad are)
    assert scan_text(caffe_log()).clip_at == 50
    assert signature_of(scan_text(caffe_log())).name == "climb-despite-clipping"


# ---- float16 weights that stop moving, beside a nan said earlier; frozen weights beside gradients that are not 0 ------

HALF_WEIGHTS = """model = Net().cuda()
model.load_state_dict(torch.load("pretrained.pt"))
model.half()
opt = torch.optim.Adam(model.parameters(), lr=2e-5, eps=1e-4)
"""
HALF_SAID = ("With the default eps it went nan after a few steps; with eps=1e-4 it no longer does, but it does not "
             "learn: I diffed the checkpoints and the weights are bit-for-bit identical after 2000 steps.\n")
FLAT = "".join(f"step {i * 200} loss {v}\n" for i, v in enumerate(
    ["0.4521", "0.4533", "0.4518", "0.4527", "0.4522", "0.4530", "0.4519", "0.4526", "0.4524", "0.4521", "0.4528"]))


def test_float16_weights_said_not_to_change_are_rounded_away_updates_even_beside_a_nan_said():
    text = HALF_SAID + HALF_WEIGHTS + FLAT
    assert weighed_parts(text, "WR-040")["rounded-away"] == 2.0
    d = diagnosis(text)
    # (the flat loss is its face: a network that takes no update leaves its loss where it began -- s250/03)
    assert d.matches[0].entry.id == "WR-040" and d.matches[0].parts["curve"] == 3.0 and d.verdict == "failure"
    # (weights held in float32 under autocast are no float16 weights)
    autocast = HALF_WEIGHTS.replace("model.half()\n", "scaler = torch.cuda.amp.GradScaler()\n")
    assert "rounded-away" not in weighed_parts(HALF_SAID + autocast + FLAT, "WR-040")


def test_weights_said_frozen_beside_printed_gradient_norms_above_zero_are_no_gradient_of_zero():
    normed = "".join(line + f" grad_norm {0.0213 + i * 1e-4:.4f}\n" for i, line in enumerate(FLAT.splitlines()))
    said = "I diffed the checkpoints and the weights are bit-for-bit identical after 2000 steps.\n"
    assert "weights-frozen" not in context_of(said + normed).printed
    # gradients printed as exactly 0 are the zero gradient itself; with no norm printed the words still count
    zeros = "".join(line + " grad_norm 0.0000\n" for line in FLAT.splitlines())
    for text in (said + zeros, said + FLAT):
        assert "weights-frozen" in context_of(text).printed, text[-60:]


# ---- a per-slice z-score whose std is taken over a tuple of axes, under a log that prints steps per epoch -------------

SLICES = """slices = []
for z in range(vol.shape[2]):
    s = vol[:, :, z]
    s = (s - s.mean(axis=(0, 1))) / s.std(axis=(0, 1))
    slices.append(s)
"""
STEPS_LOG = ("loaded 120 volumes, 18600 slices\nbatch_size=8, steps/epoch=2325\n"
             "step 0 | loss nan\nstep 25 | loss nan\nstep 50 | loss nan\nstep 75 | loss nan\n")


def test_a_std_over_a_tuple_of_axes_is_a_division_and_a_count_per_epoch_is_no_epoch():
    text = "Loss is nan from the first step.\n" + SLICES + STEPS_LOG
    ev = context_of(text).ev
    assert ev.at(0).epoch is None and ev.at(0).step == "step 0"     # not epoch 2325
    assert "std-unguarded" in context_of(text).printed
    assert diagnosis(text).matches[0].entry.id == "WR-060"
    # a count per epoch in other words is none either; a logger's `train/epoch` is an epoch
    for setting in ("iters per epoch: 2325", "batches/epoch=2325"):
        assert context_of(text.replace("steps/epoch=2325", setting)).ev.at(0).epoch is None, setting
    logged = "".join(f"train/epoch={e} train/loss={v}\n" for e, v in ((1, "0.71"), (2, "0.64"), (3, "0.60")))
    assert scan_text(logged).at(0).epoch == "epoch 1"


# ---- a medical volume read as the scanner stored it ---------------------------------------------------------------------

CT = """def load(case):
    ct = nib.load(f"{case}/ct.nii.gz").get_fdata().astype(np.float32)
    seg = nib.load(f"{case}/seg.nii.gz").get_fdata().astype(np.uint8)
    return ct[None], seg[None]
"""
CT_LOG = "".join(f"epoch {e} loss {v}\n" for e, v in enumerate(
    ["0.6931", "0.3125", "0.3121", "0.3122", "0.3121", "0.3122", "0.3121", "0.3121", "0.3122", "0.3121", "0.3121"], 1))


def test_a_ct_volume_read_with_nibabel_and_never_scaled_is_inputs_in_hounsfield_units():
    text = "My 3D U-Net outputs the same probability everywhere and the loss is stuck.\n" + CT + CT_LOG
    facts = context_of(text).printed
    assert "Hounsfield units" in facts["raw-pixels"]
    assert weighed_parts(text, "WR-330")["raw-pixels"] > 0
    assert "WR-330" in [m.entry.id for m in diagnosis(text).matches[:2]]
    # only the labels read with it, or the volume clipped and scaled after reading: not raw inputs
    for other in (CT.replace('ct = nib.load(f"{case}/ct.nii.gz").get_fdata()', 'ct = np.load(f"{case}/ct.npy")'),
                  CT.replace("    return", "    ct = (np.clip(ct, -200, 300) + 200) / 500\n    return")):
        assert "raw-pixels" not in context_of("The loss is stuck.\n" + other + CT_LOG).printed, other


# ---- a configuration printed as one mapping; every parameter zeroed in a loop; an accuracy that never moved -------------

CONFIG_LOG = "".join(f"epoch {e} step {s}/400 loss {v}\n" for e, s, v in (
    (1, 100, "0.9021"), (1, 200, "5.1133"), (1, 300, "0.7012"), (1, 400, "11.204"), (2, 100, "0.6931"),
    (2, 200, "0.6932"), (2, 300, "7.8810"), (2, 400, "0.6931"), (3, 100, "0.6931"), (3, 200, "0.6930"),
    (3, 300, "0.6931")))


def test_a_printed_configuration_that_names_adam_beside_a_rate_of_0_1_or_more_is_a_rate_too_high():
    config = "run config: {'model': 'textcnn', 'optimizer': 'adamw', 'batch_size': 32, 'lr': 0.2}\n"
    text = "Sentiment CNN: the loss jumps around and the accuracy stays at chance.\n" + config + CONFIG_LOG
    assert weighed_parts(text, "WR-220")["adaptive-rate-high"] > 0
    assert "the paste's configuration names AdamW with a learning rate of 0.2" in " ".join(weighed(text, "WR-220")[1])
    # (beside the no-warmup entry, which a jump in the first steps under AdamW at a constant rate is the face of too)
    assert "WR-220" in [m.entry.id for m in diagnosis(text).matches[:2]]
    # the rate first, then the optimizer, in a namespace: the same; SGD, or Adam at its usual rate: none
    assert "adaptive-rate-high" in weighed_parts(
        text.replace(config, "Namespace(lr=0.5, epochs=3, optim='rmsprop')\n"), "WR-220")
    for other in (config.replace("adamw", "sgd"), config.replace("0.2", "0.002")):
        assert "adaptive-rate-high" not in weighed_parts(text.replace(config, other), "WR-220"), other


ZEROED = """class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(100, 64, batch_first=True)
        self.out = nn.Linear(64, 2)
        for name, p in self.named_parameters():
            nn.init.zeros_(p)
"""
BASE_RATE = "".join(f"epoch {e}: loss {v:.4f} acc 0.9012\n" for e, v in enumerate(
    [0.6931, 0.6012, 0.5223, 0.4561, 0.4016, 0.3588, 0.3302, 0.3251, 0.3236, 0.3229, 0.3228, 0.3228], 1))


def test_every_parameter_zeroed_in_a_loop_beside_an_accuracy_that_never_moves_is_zero_init():
    text = "My GRU classifier never predicts the rare class.\n" + ZEROED + BASE_RATE
    facts = context_of(text).printed
    assert "the training accuracy printed beside the loss is 0.9012 at every one of its first and last 5 values, " \
           "while the loss fell from 0.6931 to 0.3228, where a constant output can take it (the least one scores, the " \
           "largest class at that share, is 0.3224)" in facts["one-output"]
    assert "`nn.init.zeros_(p)`" in facts["zero-init"]
    assert diagnosis(text).matches[0].entry.id == "WR-110"
    # a loop that zeroes the biases only, or an accuracy that moves (however little), reads neither
    biases = ZEROED.replace("            nn.init.zeros_(p)", "            if 'bias' in name:\n                nn.init.zeros_(p)")
    assert "zero-init" not in context_of("It never learns.\n" + biases + BASE_RATE).printed
    moving = BASE_RATE.replace("acc 0.9012\nepoch 12", "acc 0.9013\nepoch 12")
    assert "one-output" not in context_of("Hm.\n" + ZEROED.replace("zeros_", "xavier_uniform_") + moving).printed


# ---- a slice of the labels printed with the code's output after it; a largest score a debug print writes ---------------

STARS = """y = df["rating"].to_numpy()
print(y[:8])
model = keras.Sequential([layers.Embedding(30000, 64), layers.GlobalAveragePooling1D(),
                          layers.Dense(3, activation="softmax")])
model.compile(loss="sparse_categorical_crossentropy", optimizer="adam")

output:
[2 3 1 3 3 2 1 3]
"""


def test_a_printed_slice_of_labels_that_reaches_the_number_of_outputs_is_a_label_past_the_last_logit():
    text = "Loss is nan from epoch 1.\n" + STARS + "Epoch 1/3\n90/90 - 2s - loss: nan\nEpoch 2/3\n90/90 - 1s - loss: nan\n"
    facts = context_of(text).printed
    assert "the labels the paste prints (`print(y[:8])`, a sample of them) run from 1 to 3, and the model has 3 " \
           "outputs (`Dense(3, activation=\"softmax\")`)" in facts["labels-past-outputs"]
    assert "WR-320" in [m.entry.id for m in diagnosis(text).matches[:2]]
    # a line of another length is another print's; labels 0..2 are within the outputs
    for other in (text.replace("[2 3 1 3 3 2 1 3]", "[2 3 1 3 3 2 1]"), text.replace("[2 3 1 3 3 2 1 3]", "[2 0 1 0 0 2 1 0]")):
        assert "labels-past-outputs" not in context_of(other).printed


POOL = """    def __call__(self, h):
        s = nn.Dense(1)(h).squeeze(-1)
        jax.debug.print("max s {}", s.max())
        w = jnp.exp(s) / jnp.exp(s).sum(-1, keepdims=True)
        return (w[..., None] * h).sum(1)
"""


def test_the_largest_value_a_debug_print_writes_of_what_exp_takes_is_read_past_exps_limit():
    prints = "".join(f"max s {v}\n" for v in (20.1, 45.7, 70.2, 84.9, 89.6, "nan"))
    text = "Loss becomes nan after a while.\n" + POOL + "step 100 loss 0.52\nstep 200 loss 0.41\nstep 300 loss nan\n" \
        + prints
    assert "the paste prints the largest s as 89.6 (`max s 89.6`)" in " ".join(weighed(text, "WR-020")[1])
    assert diagnosis(text).matches[0].entry.id == "WR-020"
    # all below float32's 88.72: no overflow printed; and with no print of s's max in the paste, a `max s` line is some
    # other number's (a metric's)
    assert "the paste prints the largest" not in " ".join(weighed(text.replace("89.6", "87.9"), "WR-020")[1])
    unprinted = text.replace('        jax.debug.print("max s {}", s.max())\n', "")
    assert "the paste prints the largest" not in " ".join(weighed(unprinted, "WR-020")[1])


# ---- nearby pastes where each reading must stay quiet (code_review_s68) -------------------------------------------------

def test_the_readings_stay_quiet_on_the_code_reviews_nearby_pastes():
    # Caffe: a log filtered with `grep Iteration` drops the clipping lines too; a threshold commented out is none
    filtered = "\n".join(line for line in caffe_log().splitlines() if "Iteration" in line or "clip" in line) + "\n"
    commented = caffe_log().replace("clip_gradients: 50", "# clip_gradients: 50  (took it out again)")
    for text in (filtered, commented):
        assert not caffe.clip_never_logged(text) and diagnosis(text).signature.name == "climb-then-nonfinite"
    # scikit-learn: an activation in a comment inside the call, or a second model that takes ReLU
    assert no_zero_side("clf = MLPClassifier(hidden_layer_sizes=(100,),\n    # activation='tanh' gave the same\n"
                        "    learning_rate_init=0.5)\n") == ""
    assert no_zero_side("base = MLPClassifier(activation='tanh')\nclf = MLPClassifier(activation='relu')\n") == ""
    # a mask helper that divides on an image branch only, by a flag, or whose result is thresholded or rounded
    for other in (DATASET.replace("    a = a.astype(np.float32) / 255.",
                                  "    if a.ndim == 3:\n        a = a.astype(np.float32) / 255."),
                  DATASET.replace("def prepare(a):", "def prepare(a, scale=False):"),
                  DATASET.replace("prepare(mask)", "(prepare(mask) > 0.5)"),
                  DATASET.replace("prepare(mask)", "prepare(mask).round()"),
                  DATASET.replace("    a = a.astype(np.float32) / 255.",
                                  "    a = a.astype(np.float32) / 255. if a.max() > 1 else a")):
        assert mask_own_divider(other) is None, other
    # torch for R: a softmax in a helper's pipe, an inference wrapper around a trained model, one commented out
    plain = R_MODEL.replace(" %>%\n      nnf_softmax(dim = 2)", "")
    for other in (plain + "predict_proba <- function(model, x) {\n  model(x) %>% nnf_softmax(dim = 2)\n}\n",
                  plain + "prob_model <- nn_sequential(net(), nn_softmax(dim = 2))\n",
                  plain.replace("self$out()\n", "self$out()  # %>% nnf_softmax(dim = 2)\n")):
        assert "pairing" not in weighed_parts(other + R_LOG, "WR-130"), other
    # money columns: words inside other words, one-hot or log-scaled columns, columns fed to a tree -- but a Keras
    # log's `Epoch 1/10` beside them is no scaling
    for other in (SKLEARN.replace("monthly_spend", "parent_education").replace("account_balance", "current_grade"),
                  SKLEARN.replace('X = df[[', 'X = pd.get_dummies(df[[').replace('.to_numpy()\ny', ').to_numpy()\ny'),
                  SKLEARN.replace("X_tr, X_te", "X = np.log10(X + 1)\nX_tr, X_te"),
                  SKLEARN.replace("X = df[[", "rf = RandomForestClassifier().fit(df[[")):
        assert "inputs" not in scaled_said(other)["unscaled"], other
    assert "inputs" in scaled_said(SKLEARN + "Epoch 1/10\n")["unscaled"]
    # a float16 mask: scores computed with autocast off, or a mask in the module's own dtype under AMP
    off = ATTENTION.replace("        scores = ", "        with torch.autocast(device_type='cuda', enabled=False):\n"
                                                "            pass\n        scores = ")
    for other in (off, ATTENTION.replace(".to(scores.dtype)", ".to(self.dtype)")):
        assert "masked-inf" not in context_of("Loss is nan on some steps with fp16.\n" + other + ATTENTION_LOG).printed
    # one example's prediction is no one output for every input
    one = ">>> np.unique(clf.predict(X_te[:1]), return_counts=True)\n(array([1]), array([1]))\n"
    assert "one-output" not in context_of("Checking one example.\n" + SKLEARN + SKLEARN_LOG.split(">>>")[0] + one).printed


def test_the_second_batch_of_readings_stays_quiet_on_the_code_reviews_nearby_pastes():
    """code_review_s68b's shapes: each reading's nearby paste where it must not fire."""
    from trainwreck.data_values import raw_units_read
    from trainwreck.optimizer_setup import high_adaptive_rate
    from trainwreck.paste_facts import accuracy_frozen
    from trainwreck.weight_init import parameters_zeroed_in_loop

    # an accuracy at the ceiling, or one beside a loss below what any constant output scores
    for acc, floor in (("100.00%", 0.0102), ("0.996", 0.016)):
        fitted = "".join(f"epoch {e}: loss {0.2113 * 0.7 ** e + floor:.4f} acc {acc}\n" for e in range(12))
        assert accuracy_frozen(scan_text(fitted)) == "", acc
    # a loop over a submodule's parameters, or a branch picked by name
    for loop in ("for p in self.lora_B.parameters():\n    nn.init.zeros_(p)\n",
                 "for name, p in self.named_parameters():\n    if 'weight' in name:\n        nn.init.xavier_uniform_(p)\n"
                 "    else:\n        nn.init.zeros_(p)\n",
                 "for name, p in self.named_parameters():\n    if name.startswith('ln_'):\n        nn.init.zeros_(p)\n"):
        assert parameters_zeroed_in_loop(loop) is None, loop
    # a rate and an optimizer of two mappings on one line; a Noam schedule's factor
    assert high_adaptive_rate("runs: {'lr': 0.1, 'optimizer': 'sgd'} fine, {'lr': 0.001, 'optimizer': 'adam'} below") == ""
    assert high_adaptive_rate("Namespace(optim='adam', learning_rate=2.0, decay_method='noam', warmup_steps=8000)") == ""
    # a slice of predictions shown 1-based, or of labels binarised before training
    preds = STARS.replace('y = df["rating"].to_numpy()', 'y = model.predict(X_new).argmax(-1) + 1')
    binarised = STARS.replace('model.compile', 'y_pos = (y >= 2).astype("int32")\nmodel.compile')
    for other in (preds, binarised):
        assert "labels-past-outputs" not in context_of("Loss is nan.\n" + other + "Epoch 1/3\n9/9 - loss: nan\n"
                                                       "Epoch 2/3\n9/9 - loss: nan\n").printed
    # float16 weights that are nan to the end: no rounding keeps them, nan stays nan
    nan_end = HALF_SAID + HALF_WEIGHTS + FLAT.replace("0.4521\nstep 2000", "nan\nstep 2000").replace(
        "step 2000 loss 0.4528", "step 2000 loss nan")
    assert "rounded-away" not in weighed_parts(nan_end, "WR-040")
    # a scan windowed by SimpleITK, by a class of its own, said preprocessed, or clipped under its own (upper-case) name
    for other in ("img = sitk.IntensityWindowing(img, -200.0, 250.0, 0.0, 1.0)\nct = sitk.GetArrayFromImage(img)\n",
                  "class CTWindow:\n    def __call__(self, x):\n        return x\nct = nib.load(p).get_fdata()\n",
                  "The volumes are the preprocessed release.\nct = nib.load(p).get_fdata()\n",
                  "ctArray = sitk.GetArrayFromImage(img)\nctArray = np.clip(ctArray, -200, 250)\n"):
        assert raw_units_read(other) is None, other
