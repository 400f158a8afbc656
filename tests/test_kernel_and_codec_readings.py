"""Readings of reports from hand-written kernels (Triton, custom autograd functions) and learned image codecs: the
constructs their code shows, and the words around half precision and a lower rate they use. Each one changes the
answer on a realistic report and stays quiet on a nearby one where it must not."""
from conftest import diagnosis
from trainwreck.breaking_constructs import breaking_construct, inverse_of_sum
from trainwreck.input_scaling import DIVIDES_BY_STD, per_item_std
from trainwreck.precision_said import bf16_only, precision_tried
from trainwreck.rate_tried import lr_tried


def first(text: str) -> str:
    return diagnosis(text).matches[0].entry.id


def parts(text: str, entry_id: str) -> dict:
    return next((m.parts for m in diagnosis(text).matches if m.entry.id == entry_id), {})


# ---- a std taken one item at a time, shown by its axes ------------------------------------------------------------

PER_CROP = """Loss turns nan at random iterations (2k, 9k, 31k) of my autoencoder, never at the same step twice.

    def forward(self, x):
        m = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        z = self.enc((x - m) / std)
        return self.dec(z) * std + m

Before the nan the loss looks normal, no upward trend."""


def test_a_std_over_every_axis_but_the_batch_is_one_per_item():
    """`x.std(dim=(1, 2, 3))` gives each example its own std: a flat crop has std 0 and (x - m) / s is 0/0 at
    whichever batch holds one -- WR-060, at random steps, where the words never say "each crop on its own"."""
    division = DIVIDES_BY_STD.search(PER_CROP)
    assert per_item_std(PER_CROP, division).group(0) == ".std(dim=(1, 2, 3), keepdim=True)"
    assert parts(PER_CROP, "WR-060")["item-std-unguarded"] > 0
    assert first(PER_CROP) == "WR-060"


def test_a_std_over_the_batch_or_over_everything_is_no_item_s_own():
    for made in ("std = x.std(dim=0, keepdim=True)", "std = x.std()", "std = x.std(dim=(0, 2, 3))", "std = x.std(dim=axes)"):
        code = f"{made}\nz = (x - m) / std\n"
        assert per_item_std(code, DIVIDES_BY_STD.search(code)) is None, made
    # (a tensor's method takes its axes first)
    code = "z = (x - m) / x.std(1)\n"
    assert per_item_std(code, DIVIDES_BY_STD.search(code)).group(0) == ".std(1)"
    assert "item-std-unguarded" not in parts(PER_CROP.replace("dim=(1, 2, 3), keepdim=True)\n        z",
                                                              "dim=0, keepdim=True)\n        z"), "WR-060")


# ---- a lower rate asked about is no rate tried --------------------------------------------------------------------

def test_a_lower_rate_asked_about_is_not_a_lower_rate_that_helped():
    for asked in ("Would lowering lr help?", "Will lowering the learning rate fix it?",
                  "Does lowering the lr help, or is it the data?"):
        assert lr_tried(asked) == "", asked
    assert lr_tried("Lowering the learning rate fixed it, but why?") == "helped"
    assert lr_tried("lowering the lr helped. Why would that be?") == "helped"
    assert "tried" not in parts(PER_CROP + " Would lowering lr help?", "WR-220")


def test_a_later_place_with_a_tilde_is_a_failure_put_off():
    text = ("I tried lr 0.01: same shape, inf at step ~4600 instead of 1200. The grad norm keeps growing before the "
            "inf.")
    assert lr_tried(text) == "delayed"
    assert lr_tried(text.replace("step ~4600 instead of 1200", "step ~900 instead of 1200")) == "failed"


# ---- a model that gives back pictures, fed raw pixels ---------------------------------------------------------------

RAW_CODEC = """Denoising autoencoder: loss in the millions and it barely moves.

    class Frames(Dataset):
        def __getitem__(self, i):
            img = cv2.imread(self.paths[i])[:, :, ::-1]
            return torch.from_numpy(img.copy()).permute(2, 0, 1).float()

criterion = nn.MSELoss()

epoch 1 loss: 9412880.51
epoch 2 loss: 9398121.07
epoch 3 loss: 9390544.88
epoch 4 loss: 9388102.13

Reconstructions come out dark and smeared."""


def test_an_image_to_image_model_fed_raw_pixels_is_the_inputs_scale():
    """Its MSE is taken against the very pixels it reads: raw pixels make the loss enormous by themselves, so the raw
    targets' reading is the inputs' (WR-330), and dividing the inputs by 255 scales the targets too."""
    assert parts(RAW_CODEC, "WR-330")["raw-pixels"] > 0 and "raw-targets" not in parts(RAW_CODEC, "WR-360")
    assert first(RAW_CODEC) == "WR-330"


def test_a_regression_from_raw_images_keeps_its_raw_targets():
    """Not an image-to-image model: an age regressed from raw pixels has targets of its own."""
    text = RAW_CODEC.replace("Denoising autoencoder", "Age regression from face crops").replace(
        "Reconstructions come out dark and smeared.", "Predicted ages are all about the same.")
    assert parts(text, "WR-330")["raw-pixels"] > 0 and parts(text, "WR-360")["raw-targets"] > 0


# ---- a probability mass as a difference of two CDFs, logged -------------------------------------------------------

CDF_RATE = """bpp goes inf at step 114000, then everything is nan; the mse was still fine at that step.

def y_bits(y, mu, sigma):
    sigma = jnp.maximum(sigma, 0.11)
    upper = jax.scipy.stats.norm.cdf(y + 0.5, loc=mu, scale=sigma)
    lower = jax.scipy.stats.norm.cdf(y - 0.5, loc=mu, scale=sigma)
    return jnp.sum(-jnp.log2(upper - lower))
"""


def test_the_log_of_a_difference_of_two_cdfs_can_meet_zero():
    """Far in a tail both CDFs round to the same float and the mass is exactly 0: log2(0) is -inf (CompressAI bounds
    the likelihood below, likelihood_bound=1e-9)."""
    assert "jnp.log2(upper - lower)" in breaking_construct(CDF_RATE)["log-unguarded"]
    assert first(CDF_RATE) == "WR-030"
    # (a difference of names no cdf made is no probability: prices, errors)
    other = CDF_RATE.replace("jax.scipy.stats.norm.cdf(", "jnp.abs(")
    assert "log-unguarded" not in breaking_construct(other)
    # (nor one bounded below)
    assert "log-unguarded" not in breaking_construct(CDF_RATE.replace("(upper - lower)", "(upper - lower + 1e-9)"))


# ---- Triton kernels -----------------------------------------------------------------------------------------------

TRITON_SOFTMAX = """Contrastive model goes nan after 5 epochs, only with my fused softmax kernel (fp32 throughout).

```python
@triton.jit
def softmax_fwd(out_ptr, in_ptr, scale, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + offs, mask=offs < n, other=0.0) * scale
    e = tl.where(offs < n, tl.exp(x), 0.0)
    tl.store(out_ptr + row * stride + offs, e / tl.sum(e, axis=0), mask=offs < n)
```

With torch.softmax the same run is fine at epoch 9."""


def test_a_triton_softmax_with_nothing_subtracted_is_an_exp_that_overflows():
    assert "exp-unshifted" in breaking_construct(TRITON_SOFTMAX)
    assert first(TRITON_SOFTMAX) == "WR-020"
    shifted = TRITON_SOFTMAX.replace("tl.exp(x)", "tl.exp(x - tl.max(x, axis=0))")
    assert "exp-unshifted" not in breaking_construct(shifted)


def test_a_triton_rmsnorm_with_no_eps_divides_a_row_of_zeros_by_zero():
    code = "ms = tl.sum(x * x, axis=0) / N\nrstd = 1.0 / tl.sqrt(ms)\n"
    assert inverse_of_sum(code) == "1.0 / tl.sqrt(ms)"
    assert inverse_of_sum(code.replace("/ N", "/ N + eps")) == ""


# ---- half precision by Lightning's names, and a run's origin ----------------------------------------------------

def test_lightning_s_16_mixed_is_float16_not_bfloat16():
    """A V100 report that rules bf16 out and trains with precision="16-mixed" is in float16: its words name half
    precision, and the half-precision entry is the first suspect."""
    said = 'bf16 is not an option on V100, so I use precision="16-mixed". Training goes nan after 20k steps.'
    assert not bf16_only(said)
    assert bf16_only("I train in bf16-mixed and it goes nan after 20k steps.")
    assert bf16_only("bf16 on 16-bit PNG inputs goes nan after 20k steps.")
    assert first(said) == "WR-040"


def test_a_checkpoint_s_precision_is_not_the_run_s():
    """"fine-tuning in 16-mixed from the fp32 checkpoint is nan" is a half-precision run that fails, not a run in full
    precision; "precision=32 ... without a single nan" is one that did not."""
    assert precision_tried("Fine-tuning in fp16 from the fp32 checkpoint is also nan.") == ("", "")
    assert precision_tried("The same config with precision=32 has run for 3 days without a single nan.")[0] == "helped"
    assert precision_tried("With precision=32 it also goes nan.")[0] == "failed"
    assert precision_tried("Switching from fp16 to fp32 fixed it.")[0] == "helped"


# ---- overflow messages under a loss scaler, and the words around them ---------------------------------------------

SCALER_BURST = """fp16 + DeepSpeed with my fused kernel: OVERFLOW messages keep coming back -- is the kernel producing inf?

[INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768
[INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 32768, reducing to 16384
step 10 | loss 10.52
step 20 | loss 9.71
step 30 | loss 9.02
step 40 | loss 8.44

Then one more OVERFLOW every ~1000 steps, always 8192 back to 4096; the loss curve matches the stock MLP. Seeing inf
gradients that often makes me nervous that some rare input blows my kernel up. How do I find which tensor is inf?"""


def test_inf_gradients_and_a_fear_of_them_are_what_a_skipped_step_is():
    """A skipped step is one whose gradients held an inf: words of inf gradients, a question which tensor is inf or
    whether a part produces one, and a fear that it blows up are the overflow the scaler caught, not a failure."""
    d = diagnosis(SCALER_BURST)
    assert d.verdict == "normal" and d.normal[0].name == "skipped steps under dynamic loss scaling"
    # (the loss itself said to go inf is a failure beside the same messages; so is a fear that ends at a colon, where
    # another clause reports)
    for broken in (SCALER_BURST + " Now the loss is inf too.",
                   SCALER_BURST.replace("nervous that some rare input blows my kernel up",
                                        "nervous: the loss blows up at step 900")):
        d = diagnosis(broken)
        assert d.verdict == "failure" and d.matches[0].entry.id == "WR-040"


# ---- a codec's rate and an MS-SSIM model's PSNR, which behave so by design ---------------------------------------

RATE_UP = """Hyperprior (CompressAI), lambda 0.0130. The validation bpp rises every epoch, 0.21, 0.26, 0.29, 0.33, 0.37,
while the total rate-distortion loss falls: 2.69, 2.18, 1.94, 1.78, 1.64. Shouldn't the rate go down as the entropy
model learns?"""


def test_a_codec_s_rate_that_rises_while_its_loss_falls_is_the_trade_it_makes():
    """The loss is lambda * D + R: the rate is one of two terms traded, not a loss meant to fall on its own."""
    d = diagnosis(RATE_UP)
    assert d.verdict == "normal" and d.normal[0].name.startswith("a learned codec's rate")
    # (not beside a total loss said to rise, nor a nan; the rate's own loss rising is what it answers)
    for broken in ("The total loss climbs as well.", "At epoch 9 the loss went nan."):
        d = diagnosis(RATE_UP + " " + broken)
        assert d.verdict == "uncertain" and not d.normal and d.matches and d.ask, broken
    assert diagnosis("CompressAI hyperprior at lambda 0.0483: the bpp loss keeps rising while the MSE and the total "
                     "fall. Expected?").verdict == "normal"
    # (and a divergence asked about is none said)
    assert diagnosis(RATE_UP + " Is the rate term diverging?").verdict == "normal"
    # (no codec named, no such answer: "rate" alone is too common a word)
    assert not diagnosis("The success rate goes up every epoch while the loss falls. Is this expected?").normal \
        or not diagnosis("The success rate goes up every epoch while the loss falls. Is this expected?").normal[0] \
        .name.startswith("a learned codec's rate")


MS_SSIM_PSNR = """Trained a mean-scale hyperprior with the MS-SSIM loss (distortion = 1 - ms_ssim). On Kodak its PSNR is
much lower than my MSE model's at the same bpp, 26.4 against 30.1 dB, and it fell over training while MS-SSIM kept
improving. Is something wrong?"""


def test_a_model_trained_for_ms_ssim_scores_a_lower_psnr():
    """PSNR scores the MSE; MS-SSIM weighs luminance only at its coarsest scale, so an MS-SSIM model lets flat areas
    drift in brightness and colour, which PSNR counts."""
    d = diagnosis(MS_SSIM_PSNR)
    assert d.verdict == "normal" and d.normal[0].name == "the PSNR of a model trained for MS-SSIM"
    # (a model trained for the MSE has no such answer; nor one whose loss went nan)
    mse = MS_SSIM_PSNR.replace("with the MS-SSIM loss (distortion = 1 - ms_ssim)", "with the MSE loss")
    assert all(n.name != "the PSNR of a model trained for MS-SSIM" for n in diagnosis(mse).normal)
    d = diagnosis(MS_SSIM_PSNR + " At epoch 40 the loss became nan.")
    assert d.verdict == "uncertain" and not d.normal and d.matches


# ---- an item by its own statistics, said of crops; a log of a parameter learned as it is ---------------------------

def test_a_per_crop_normalisation_is_one_item_at_a_time():
    """"# per-crop normalisation" beside `(mel - mel.mean()) / mel.std()` and a nan at a random step: a crop of
    digital silence has std 0 (WR-060), where the words name crops rather than windows or clips."""
    text = ("The run dies at a random step since I mixed in rendered audio.\n\n"
            "step 1629 loss=0.141\nstep 1630 loss=0.142\nstep 1631 loss=nan\nstep 1632 loss=nan\n\n"
            "    mel = to_db(melspec(audio))\n"
            "    mel = (mel - mel.mean()) / mel.std()    # per-crop normalisation\n")
    assert parts(text, "WR-060")["item-std-unguarded"] > 0
    assert first(text) == "WR-060"
    assert "item-std-unguarded" not in parts(text.replace("# per-crop normalisation", "# scaled"), "WR-060")


LEARNED_SIGMA = """Total loss is nan from epoch 31 on, while every task's own loss is finite.

    class Weighting(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.sigma = nn.Parameter(torch.ones(n))

        def forward(self, losses):
            return sum(L / (2 * self.sigma[i] ** 2) + torch.log(self.sigma[i]) for i, L in enumerate(losses))
"""


def test_the_log_of_a_parameter_learned_as_it_is_can_meet_zero():
    """Nothing keeps `self.sigma` positive: an update carries it to 0 or below, and its log is -inf or nan (WR-030)."""
    assert "log of a parameter it learns as it is" in breaking_construct(LEARNED_SIGMA)["log-unguarded"]
    assert first(LEARNED_SIGMA) == "WR-030"
    # (a log variance learned instead, its exp taken, is the safe form: no log of the parameter)
    safe = LEARNED_SIGMA.replace("torch.log(self.sigma[i])", "self.sigma[i]").replace(
        "(2 * self.sigma[i] ** 2)", "(2 * torch.exp(2 * self.sigma[i]))")
    assert "log-unguarded" not in breaking_construct(safe)
    # (nor a log of a name that is no parameter, nor of one kept off 0)
    assert "log-unguarded" not in breaking_construct(LEARNED_SIGMA.replace("torch.log(self.sigma[i])",
                                                                           "torch.log(self.sigma[i].clamp_min(1e-6))"))


# ---- code_review_s62: where the new readings must stay quiet -------------------------------------------------------

def test_the_codec_and_ms_ssim_answers_stay_quiet_where_the_model_got_worse():
    """A learning rate that increases is no rate; a bpp that rises while the PSNR falls is both terms worse; an MS-SSIM
    model collapsed to flat gray, or a model trained for the MSE that only logs 1 - ms_ssim, is no MS-SSIM trade."""
    codec = "Hyperprior with CompressAI, lambda 0.0067."
    for text in (codec + " During warmup the learning rate increases linearly; after that the images stay blurry.",
                 codec + " The bpp keeps increasing every epoch and the PSNR gets worse too. What is going on?",
                 MS_SSIM_PSNR.replace("26.4 against 30.1 dB", "11.2 against 30.1 dB, every reconstruction a flat gray"),
                 "Trained bmshj2018 with the MSE loss, lambda 0.013. I also log 1 - ms_ssim on Kodak. My PSNR is lower "
                 "than the paper's at the same bpp (29.1 vs 32.0 dB). What's wrong?"):
        answers = {n.name for n in diagnosis(text).normal}
        assert not answers & {"a learned codec's rate, which can rise while its rate-distortion loss falls",
                              "the PSNR of a model trained for MS-SSIM"}, text


def test_a_guard_where_the_std_is_made_keeps_it_off_zero():
    for guarded in ("std = x.std(dim=(1, 2, 3), keepdim=True) + 1e-5",
                    "std = x.std(dim=(1, 2, 3), keepdim=True).clamp_min(1e-5)",
                    "std = torch.clamp(x.std(dim=(1, 2, 3), keepdim=True), min=1e-5)"):
        text = PER_CROP.replace("std = x.std(dim=(1, 2, 3), keepdim=True)", guarded)
        assert "item-std-unguarded" not in parts(text, "WR-060"), guarded
    made_again = PER_CROP.replace("        z = self.enc(", "        std = torch.where(std < 1e-6, torch.ones_like(std), std)\n"
                                  "        z = self.enc(")
    assert "item-std-unguarded" not in parts(made_again, "WR-060")


def test_a_parameter_clamped_in_place_or_not_learned_is_no_log_of_a_raw_parameter():
    clamped = LEARNED_SIGMA.replace("        def forward(self, losses):\n",
                                    "        def forward(self, losses):\n            self.sigma.data.clamp_(min=1e-3)\n")
    assert "log-unguarded" not in breaking_construct(clamped)
    fixed = LEARNED_SIGMA.replace("nn.Parameter(torch.ones(n))", "nn.Parameter(torch.ones(n), requires_grad=False)")
    assert "log-unguarded" not in breaking_construct(fixed)


def test_a_depth_or_a_price_beside_an_image_model_keeps_its_raw_targets():
    depth = RAW_CODEC.replace("Denoising autoencoder", "Denoising autoencoder with a depth head").replace(
        "Reconstructions come out dark and smeared.", "The predicted depth maps are all about the same.")
    assert parts(depth, "WR-360").get("raw-targets", 0) > 0


def test_a_precision_metric_is_no_float16_and_a_question_with_inf_that_names_the_loss_reports_it():
    assert bf16_only("Mixed precision in bf16. epoch 10: loss 0.82, precision: 16.7%, recall 22.1%")
    assert precision_tried("It went nan in fp16; before that it trained fine with precision=32.4 and recall 41.0.") \
        == ("", "")
    asked = SCALER_BURST.replace("How do I find which tensor is inf?",
                                 "Does the kernel output nan when the loss goes nan at step 4000?")
    assert diagnosis(asked).verdict == "failure" and diagnosis(asked).matches[0].entry.id == "WR-040"
    floor = SCALER_BURST.replace("reducing to 16384", "reducing to 1").replace("Then one more OVERFLOW every ~1000 "
                                                                             "steps", "Since then every step is skipped")
    assert diagnosis(floor).verdict == "failure" and diagnosis(floor).matches[0].entry.id == "WR-040"


# ---- code_review_s62b: the answers' own textbook cases stay answered ----------------------------------------------

def test_the_codec_and_ms_ssim_answers_keep_their_own_questions():
    assert diagnosis("CompressAI bmshj2018-hyperprior, lambda 0.0130. The distortion falls while the rate increases "
                     "every epoch, and the total loss falls. Is the rate supposed to go up?").verdict == "normal"
    for said in ("My PSNR on Kodak is about 2 dB lower than the paper's MSE model at the same bpp.",
                 "My PSNR is lower than the same model trained with MSE at the same bpp (29.4 vs 31.5 dB).",
                 "All the same settings as the paper otherwise; my PSNR is lower than its MSE model's (29.4 vs 31.5 dB)."):
        text = "Trained a mean-scale hyperprior with the MS-SSIM loss (--metric ms-ssim). " + said + " Is that wrong?"
        assert diagnosis(text).verdict == "normal", said


def test_a_float16_autocast_with_a_grad_scaler_is_float16_beside_words_of_bf16():
    said = ("It trained fine in bf16 on the A100, but on the V100 I switched to torch.cuda.amp.autocast() with a "
            "GradScaler. The loss goes nan at step 12k.")
    assert not bf16_only(said)
    assert bf16_only("torch.autocast('cuda', dtype=torch.bfloat16) and a GradScaler copied from the docs; nan at 12k.")


def test_a_guarded_std_in_another_function_leaves_the_per_item_one_read():
    other = PER_CROP.replace("    def forward(self, x):\n",
                             "    def scale_targets(y):\n        std = y.std() + 1e-5\n        return (y - y.mean()) / std\n\n"
                             "    def forward(self, x):\n")
    assert parts(other, "WR-060")["item-std-unguarded"] > 0
