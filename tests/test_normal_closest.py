"""What a "looks normal" answer lists as the closest entries, if it is a failure after all: only an entry with
evidence the answer does not account for itself. The skip messages a loss scaler prints are what the skipped-steps
answer explains; a loss below zero is what the negative-loss answer explains, where the paste names a loss that goes
there by design. Where nothing names the loss, a negative cross-entropy's targets out of range stay the closest."""
from conftest import diagnosis

SKIPS = ("Fine-tuning a 1.3B model with DeepSpeed ZeRO-2, fp16 enabled with initial_scale_power 16. The first steps print\n"
         "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768\n"
         "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 32768, reducing to 16384\n"
         "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 16384, reducing to 8192\n"
         "and then nothing more, the loss goes 2.91, 2.64, 2.40 over the next hundred steps. Is the overflow a problem?")


def test_the_skip_messages_beside_the_skipped_steps_answer_name_no_closest_entry():
    d = diagnosis(SKIPS)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", "skipped steps under dynamic loss scaling", [])
    # (the scale falling to its minimum is no skipped step's answer: the half-precision entry is named)
    broken = SKIPS.replace("and then nothing more", "[deepspeed] Current loss scale already at minimum - cannot decrease "
                           "scale anymore. Exiting run.\nand then")
    assert diagnosis(broken).verdict != "normal"


def negative(text: str) -> tuple[str, list[str]]:
    d = diagnosis(text)
    return d.verdict, [m.entry.id for m in d.matches]


def test_a_loss_that_goes_below_zero_by_design_names_no_closest_entry():
    # a Gaussian NLL said to be what it trains with, beside the squared error it used before
    assert negative("My GRU predicts a mean and a variance and is trained with nn.GaussianNLLLoss. The loss went from "
                    "0.9 to -0.6 over ten epochs and the RMSE keeps improving. With MSE it never went below zero. Is "
                    "a negative loss a bug?") == ("normal", [])
    # a learned scale, the aleatoric-uncertainty loss |y - f(x)| exp(-s) + s, a Laplace negative log-likelihood
    assert negative("I added aleatoric uncertainty to my regressor, loss = |pred - gt| * exp(-s) + s. The loss is "
                    "negative since epoch 4 (-1.2 now) while the validation error still drops. Is it diverging?") \
        == ("normal", [])
    # lightly's BYOL example trains on its NegativeCosineSimilarity, -1 when the two views agree
    assert negative("I run the BYOL example from the lightly docs on my own images. The loss is negative and heads "
                    "towards -1. Should a loss not be positive?") == ("normal", [])


def test_a_negative_loss_that_nothing_names_keeps_the_labels_entry_closest():
    assert negative("My training loss became negative after a few epochs, is that normal?") == ("normal", ["WR-320"])


def test_an_optical_flow_is_no_normalizing_flow():
    """A flow in an optical-flow report is no density model: a BCE below zero beside it is impossible with targets in
    [0, 1], and the labels entry comes first, not a likelihood's "looks normal"."""
    text = ("My optical flow model has an occlusion head trained with BCE, and the occlusion loss is negative, -40 "
            "at step 500 and still falling. Why can BCE be negative?")
    verdict, ids = negative(text)
    assert verdict in ("failure", "uncertain") and ids[0] == "WR-320"
    # (a normalizing flow by its name is a likelihood)
    assert negative("My normalizing flow's loss is negative now, -2.3. Did it break?") == ("normal", [])


def test_what_a_skipped_step_accounts_for_is_no_failure_beside_its_answer():
    """A step is skipped because its gradients held an inf or a nan, and it leaves the weights as they were: a norm
    printed inf or nan at those steps (`gnorm inf`, as hand-written GradScaler loops print it) and a fear that the
    weights went inf are the skip's own. Weights said, as a fact, to have gone inf are not."""
    loop = ("Mixed precision with torch.cuda.amp and GradScaler, my own loop. Is this gradient overflow a problem?\n"
            "step 0 loss 2.301 gnorm inf scale 65536.0\nstep 1 loss 2.299 gnorm nan scale 32768.0\n"
            "step 2 loss 2.297 gnorm 8.41 scale 32768.0\nstep 3 loss 2.214 gnorm 7.90 scale 32768.0\n"
            "step 4 loss 2.120 gnorm 7.12 scale 32768.0\n")
    d = diagnosis(loop)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", "skipped steps under dynamic loss scaling", [])
    feared = SKIPS.replace("Is the overflow a problem?", "I'm worried the weights are going inf somewhere.")
    assert (diagnosis(feared).verdict, diagnosis(feared).matches) == ("normal", [])
    told = SKIPS.replace("Is the overflow a problem?", "The weights went inf at step 300, is the overflow a problem?")
    assert diagnosis(told).verdict != "normal"



def test_what_the_answers_explain_is_their_own_and_no_more():
    """The skipped-steps answer explains a norm's own nan, not a loss's said in the same sentence after "but"; a fear
    with its reason ("worried because ... went inf") and "I'm afraid" report. A CSV of a cross-entropy that goes
    below zero keeps WR-320 closest beside a question about log-probs; a Laplacian pyramid's L1 and the adverb
    "lightly" name no loss that may go below zero."""
    base = SKIPS.replace("Is the overflow a problem?", "")
    for told in (" The grad norm stays around 3 but the loss is nan from step 900 on.",
                 " The grad norm stays around 3; the logits are nan from step 900 on.",
                 " I'm afraid the weights are inf now.", " I'm worried because the expert weights went inf at step 300."):
        assert diagnosis(base + told).verdict != "normal", told
    csv = ("Training a classifier with nn.CrossEntropyLoss on soft labels. The log-probs from log_softmax are all "
           "negative, is that ok?\nstep,loss\n100,0.41\n200,0.12\n300,-0.55\n400,-1.31\n")
    assert "WR-320" in negative(csv)[1]
    assert negative("I use a Laplacian pyramid loss (L1 on each level) and the loss is negative, -0.3 at epoch 5. Is "
                    "that normal?") == ("normal", ["WR-320"])
    assert negative("I lightly modified the BYOL augmentations in my own version of its loss, 2 - 2 cos(p, z). The "
                    "loss is negative now, -0.8 at epoch 12. Is that normal?") == ("normal", ["WR-320"])
    assert negative("Training a MAF (masked autoregressive flow) on tabular data. The loss went from 3.1 to -12.4. Is "
                    "a negative loss a bug?") == ("normal", [])
    from trainwreck.run_said import loss_kind
    assert loss_kind("it trains with laplace_nll(pred, b, target)") == "likelihood"
    assert loss_kind("the MAF (minor allele frequency) with MSE") == "bounded"
    assert loss_kind("Lightly modified the BYOL augmentations, my own 2 - 2 cos loss") != "likelihood"


def test_a_loss_named_by_its_framework_class_outranks_a_metrics_name():
    """A loss named by its class in the words, nn.GaussianNLLLoss, is the run's loss: a squared error named as what the
    validation measures does not make the loss one that stays above zero, so the negative loss names no closest
    entry. Where the class named is a cross-entropy, it is the run's too (bounded, whatever likelihood the words
    mention); a class switched away from is not the run's; two classes of different kinds leave the words to decide."""
    from trainwreck.run_said import loss_kind
    said = ("A 1D-CNN forecaster with two heads, mean and variance (nn.GaussianNLLLoss). Training loss is -0.84 by "
            "epoch 5 and still going down; validation MSE of the mean keeps improving. Is a loss below zero a bug?")
    assert negative(said) == ("normal", [])
    # (not Kendall's tau, a rank correlation, nor weighting said not to be in use)
    assert loss_kind("pairwise logistic ranking loss; validation Kendall tau rises from 0.31 to 0.58") != "likelihood"
    assert loss_kind("fixed task weights 1:1 (no uncertainty weighting yet)") != "likelihood"
    # (without the class, the squared error is the only loss the words name: a loss below zero it cannot reach)
    assert negative(said.replace("nn.GaussianNLLLoss", "trained on the sum of two terms"))[1][0] == "WR-320"
    assert loss_kind("criterion: nn.CrossEntropyLoss; the per-token log-likelihood is printed too") == "bounded"
    assert loss_kind("switched from nn.GaussianNLLLoss to nn.MSELoss") == "bounded"
    assert loss_kind("nn.MSELoss for one head, nn.GaussianNLLLoss for the other") == ""
    # (a class the words give a metric's role is no loss of the run's)
    assert loss_kind("RealNVP on tabular data; as a sanity check I also log nn.MSELoss of the reconstructions") != "bounded"


def test_multi_task_uncertainty_weighting_goes_below_zero_by_design():
    """Kendall, Gal and Cipolla's weighting, sum_i exp(-s_i) L_i + s_i, learns s_i = log of each task's variance: once a
    task's loss is small the best s_i is below 0, and the total follows it below zero with no bound. Named, it is the
    likelihood's sign: no closest entry."""
    import math

    from trainwreck.run_said import loss_kind

    task_loss = 0.2
    best_s = math.log(task_loss)                      # d/ds [exp(-s) L + s] = 0 at s = log L
    assert math.exp(-best_s) * task_loss + best_s < 0
    said = ("Two heads, segmentation and depth, with uncertainty weighting (a learned log variance per task). The total "
            "loss went below zero at epoch 30 and keeps dropping while both test metrics improve. Is that a bug?")
    assert loss_kind(said) == "likelihood" and loss_kind(said.replace("uncertainty weighting", "Kendall's weights")) == "likelihood"
    assert negative(said) == ("normal", [])
