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
    printed inf or nan at those steps (`gnorm inf`, as fairseq and many loops print it) and a fear that the weights
    went inf are the skip's own. Weights said, as a fact, to have gone inf are not."""
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


def test_a_gpt2_tokenizers_uniform_guess_asked_in_a_negative_question_is_where_a_run_starts():
    """GPT-2's tokenizer has 50,257 tokens (transformers' GPT2Config), so a fresh language model's first loss is
    ln 50257 = 10.82. Asked whether it is "exploding already" -- a yes/no question in its negative form, which asks
    and reports nothing -- the answer is that uniform guess; a first loss far from it is not."""
    from trainwreck.class_count import vocabulary_named
    from trainwreck.sentences import told

    said = ("My GPT (GPT-2 tokenizer, trained from scratch) prints loss 10.9 at iteration 1, isn't that exploding "
            "already? It comes down to 6.4 by iteration 500.")
    assert vocabulary_named(said)[0] == 50257
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", "a first loss of ln C", [])
    assert "exploding" not in told("isn't that exploding already?") and "exploding" in told("it is exploding.")
    assert "a first loss of ln C" not in [n.name for n in diagnosis(said.replace("10.9", "31.7")).normal]


LOGLIK = "a log-likelihood below zero, the log of a probability"


def test_a_log_likelihood_below_zero_is_the_log_of_a_probability():
    """log p <= 0 for a probability p: the log-likelihoods an evaluation tool reports (lm-evaluation-harness's
    `(logprob, is_greedy)`) are negative by definition. Not a negative log-likelihood said below zero (the loss's
    question), nor beside a loss said nan."""
    asked = ("The per-sample loglikelihood values lm-evaluation-harness wrote for my checkpoint are all negative "
             "(-12.5, -4.1, -31.7). Did training break?")
    d = diagnosis(asked)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", LOGLIK, [])
    assert "the log-probability of the continuation" in d.normal[0].explanation
    assert LOGLIK not in [n.name for n in diagnosis("My negative log-likelihood is negative after epoch 3, why?").normal]
    assert LOGLIK not in [n.name for n in diagnosis(asked + " The training loss went to nan at step 900.").normal]
    assert LOGLIK not in [n.name for n in diagnosis("The log-probs are negative, fine. But why is my loss negative?")
                          .normal]
