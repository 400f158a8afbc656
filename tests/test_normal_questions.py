"""Questions about a behaviour that is expected: a NaN in a W&B history export that is a metric not logged at that
step, a negative likelihood asked about beside a judgement asked in a question ("did something overflow?"), an eval
loss a little above the training loss, a first loss of ln V for GPT-2's tokenizer, and a log-likelihood below zero."""
import pytest

from conftest import diagnosis


def answers(text: str) -> list[str]:
    """The names of the normal behaviours diagnose answers the text with, first first."""
    return [n.name for n in diagnosis(text).normal]


WANDB = ("wandb export shows NaN for recon_loss and kl_loss in half the rows. Are my losses going nan?\n"
         "```python\napi = wandb.Api()\nrun = api.run(\"lab/vae-mnist/1a2b3c4d\")\ndf = run.history()\n"
         "print(df[[\"_step\", \"recon_loss\", \"kl_loss\"]].head(6))\n```\n"
         "```\n   _step  recon_loss   kl_loss\n0      0  212.4451       NaN\n1      1       NaN  3.204417\n"
         "2      2  198.7302       NaN\n3      3       NaN  3.891266\n4      4  187.0145       NaN\n5      5       NaN  4.100873\n```\n"
         "I call wandb.log({\"recon_loss\": recon.item()}) and then wandb.log({\"kl_loss\": kl.item()}) in the loop.")
HISTORY_NAN = "nan in a W&B history export for a metric not logged at that step"


def test_a_nan_in_a_wandb_history_export_is_a_metric_not_logged_at_that_step():
    """Each wandb.log call is a step of its own by default, and the history is a pandas table with a column per key:
    a key not logged at a step is missing there, shown as NaN. Answered as that, not as a loss that went nan -- unless
    the run printed a nan loss itself, or its charts are said to show one."""
    d = diagnosis(WANDB)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", HISTORY_NAN, [])
    assert "Each call to `wandb.Run.log()` is a new `step` by default." in d.normal[0].explanation
    for broken in (WANDB + "\nThe terminal printed loss: nan at step 12 too.",
                   WANDB + "\nThe W&B charts show nan as well."):
        assert HISTORY_NAN not in answers(broken)
    # (nor where the words say the loss went nan and no two log calls show what made the gaps)
    said = "My wandb history shows the loss going to nan after step 3000 and staying there. Adam lr 1e-3, fp16. Why?"
    assert HISTORY_NAN not in answers(said)
    # (the words alone take it away too, beside the export and the two calls that would otherwise answer it)
    assert HISTORY_NAN not in answers(WANDB + "\nSince step 3000 the loss went to nan.")
    one_call = WANDB.replace('I call wandb.log({"recon_loss": recon.item()}) and then wandb.log({"kl_loss": kl.item()})',
                             'I call wandb.log({"recon_loss": recon.item(), "kl_loss": kl.item()})')
    assert HISTORY_NAN not in answers(one_call)
    # (two calls that share a key log it on every row: no gaps to show as NaN there)
    shared = WANDB.replace('wandb.log({"kl_loss": kl.item()})', 'wandb.log({"recon_loss": recon.item(), "kl_loss": kl.item()})')
    assert HISTORY_NAN not in answers(shared)
    for told in ("\nIn the terminal the loss is NaN too from then on.", "\nThe console shows NaN loss after epoch 3.",
                 "\nloss=tensor(nan, device='cuda:0')"):
        assert HISTORY_NAN not in answers(WANDB + told), told
    # (a nan with no history export named is no such answer)
    assert HISTORY_NAN not in answers("my recon_loss goes nan after 3 epochs")


def test_a_judgement_asked_in_a_yes_no_question_reports_nothing_beside_a_negative_likelihood():
    """"Did something overflow in the all-reduce?" asks; it reports no overflow. Beside a normalizing flow's -log_prob
    below zero, the answer is the negative likelihood's. Said as a fact, "the loss overflowed to inf", it still
    reports one."""
    asked = ("My normalizing flow trained with DDP on 8 GPUs has a training loss of -1.84 and it keeps going further "
             "negative. The loss is just -log_prob(x).mean(). How can a loss be negative, did something overflow or "
             "get summed wrong in the all-reduce?")
    d = diagnosis(asked)
    assert (d.verdict, d.normal[0].name) == ("normal", "negative loss")
    told = asked.replace("did something overflow or get summed wrong in the all-reduce?",
                         "then the loss overflowed to inf at step 900.")
    assert diagnosis(told).verdict != "normal"


MONO = ("Is my Monodepth2 model completely off in scale?\n"
        "-> Evaluating\n   Mono evaluation - using median scaling\n Scaling ratios | med: 28.914 | std: 0.084\n\n"
        "   abs_rel |   sq_rel |     rmse | rmse_log |       a1 |       a2 |       a3 | \n"
        "&   0.118  &   0.921  &   4.910  &   0.195  &   0.871  &   0.958  &   0.980  \\\\\n\n-> Done!\n"
        "The depth has to be multiplied by 29 to match the LiDAR?")


def test_monodepth2s_median_scaling_ratio_is_the_scale_a_monocular_model_cannot_know():
    """A model trained on monocular video has no scale; monodepth2's mono evaluation multiplies each prediction by
    the ratio of medians and prints them. A median of 29 with a std of 0.084 is that scale, answered as normal; a
    std of 0.35 is a scale that drifts between images, and is not -- nor is it a failure of training said."""
    name = "Monodepth2's median scaling of a model trained on monocular video"
    d = diagnosis(MONO)
    assert (d.verdict, d.normal[0].name) == ("normal", name)
    assert "ratio = np.median(gt_depth) / np.median(pred_depth)" in d.normal[0].explanation
    poor = MONO.replace("&   0.118  &   0.921  &   4.910  &   0.195  &   0.871", "&   0.452  &   5.104  &   9.877  &   0.610  &   0.312")
    assert name not in answers(poor)      # (the scale explains a ratio, not an abs_rel of 0.45)
    drifts = MONO.replace("std: 0.084", "std: 0.351")
    assert name not in answers(drifts)
    from trainwreck.normals import normal_ruled_out
    assert not normal_ruled_out(drifts)


def test_an_eval_loss_above_the_training_loss_and_curves_drifting_apart_are_the_gap():
    """The Hugging Face Trainer calls it the eval loss; a gap said as two curves drifting apart, the eval loss still
    falling, is the gap answer -- not a climb of a failure."""
    gap = "a gap between training and validation loss"
    said = ("After 3 epochs the train loss is 1.62 and the eval loss 1.79, and the two curves have been slowly "
            "diverging since epoch 1, though the eval loss still goes down (1.93, 1.84, 1.79). Is it overfitting?")
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", gap, [])
    assert diagnosis("My evaluation loss is a bit higher than the training loss, 0.41 against 0.37. Is that bad?") \
        .normal[0].name == gap
    # (a validation loss said to diverge on its own is no gap, nor both curves said to diverge and blow up)
    assert gap not in answers("The eval loss is diverging since epoch 4, why?")
    blown = ("The eval loss tracked the train loss until step 3000, then both curves diverged and went to 1e4 within "
             "200 steps. Is that overfitting?")
    assert gap not in answers(blown)
    both = ("Train loss 0.9 and eval loss 1.1 until step 3000, then both curves diverge, 35.2 and 41.7 at step 3200. "
            "Is it overfitting?")
    assert gap not in answers(both)


def test_a_gpt2_tokenizers_uniform_guess_asked_in_a_negative_question_is_where_a_run_starts():
    """GPT-2's tokenizer has 50,257 tokens (transformers' GPT2Config), so a fresh language model's first loss is
    ln 50257 = 10.82. Asked whether it is "exploding already" -- a yes/no question in its negative form, which asks
    and reports nothing -- the answer is that uniform guess; a first loss far from it is not."""
    from trainwreck.class_count import vocabulary_named
    from trainwreck.sentences import told

    said = ("My GPT (GPT-2 tokenizer, trained from scratch) prints loss 10.9 at iteration 1, isn't that exploding "
            "already? It comes down to 6.4 by iteration 500.")
    assert vocabulary_named(said)[0] == 50257
    assert vocabulary_named("tokenizer = AutoTokenizer.from_pretrained('gpt2')")[0] == 50257
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", "a first loss of ln C", [])
    assert "exploding" not in told("isn't that exploding already?") and "exploding" in told("it is exploding.")
    # (a negative with no subject after it opens a statement: "Don't know why it explodes, any idea?" reports it)
    for stated in ("Don't know why, but my loss explodes after step 3000, any ideas?",
                   "Haven't changed the data, yet it explodes after step 3000, any idea?"):
        assert "explodes" in told(stated), stated
    # (a negative question with a name or a noun for its subject asks; a statement with a tag question does not)
    assert told("Shouldn't ZeRO-2 keep the run from diverging?") == " "
    assert "diverges" in told("Wasn't a problem in fp32, and now it diverges after step 3000, any idea?")
    assert "a first loss of ln C" not in answers(said.replace("10.9", "31.7"))


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
    assert LOGLIK not in answers("My negative log-likelihood is negative after epoch 3, why?")
    assert LOGLIK not in answers(asked + " The training loss went to nan at step 900.")
    assert LOGLIK not in answers("The log-probs are negative, fine. But why is my loss negative?")
    # (nor one said no longer negative, or above zero -- for tokens a bug --, or falling further below zero)
    for wrong in ("The per-token log-likelihood is no longer negative, it is +3.5 per token since epoch 2. Possible?",
                  "The validation log-likelihood is negative and gets more negative every epoch: -1.2, -3.5, -9.8. "
                  "Did training break?"):
        assert diagnosis(wrong).verdict != "normal", wrong
    # (nor a KL said below zero, which no KL can be)
    assert diagnosis("My VAE: the reconstruction log-likelihood improves but then the KL term becomes negative, -0.8 "
                     "at epoch 5. Is that a bug?").verdict != "normal"


def test_a_yes_no_question_opened_by_a_conjunction_asks_and_reports_nothing():
    """"..., but is the model exploding at init?" is a yes/no question as much as one that opens its sentence: a
    judgement asked, not a run reported. Beside a first loss the words give at ln V for their vocabulary (50,280 tokens:
    ln 50280 = 10.83), said to come down, the answer is the uniform guess; stated after the conjunction, the explosion is
    still reported."""
    from trainwreck.sentences import told

    said = ("Pretraining a small LM from scratch, vocab 50280. The first loss is 10.93 and it comes down over the "
            "first 150 steps, but is the model exploding at init?")
    assert told(said).endswith("steps, ")
    assert told("so is it nan?") == " " and told("and does it diverge?") == " "
    assert "explodes" in told("it falls at first, but it explodes after step 3000, why?")
    # (a clause with no subject after its verb reports: "but is diverging in fp16, any ideas?")
    assert "diverging" in told("The model trained fine in fp32, but is diverging in fp16, any ideas?")
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", "a first loss of ln C", [])
    for stated in ("but the model explodes at step 200. why?", "but is exploding now after step 150, any idea?"):
        assert diagnosis(said.replace("but is the model exploding at init?", stated)).verdict != "normal", stated


SEEDED = "runs with the same seed that differ a little on a GPU"


def test_two_seeded_runs_said_to_diverge_from_each_other_drift_apart():
    """Two runs of one seed on a GPU whose curves "diverge from each other" drift apart, which is the answer's own
    mechanism (the order of parallel additions), not a run diverging; a yes/no question whether one of them is diverging
    reports nothing. A run said to diverge on its own, or to go nan, is still no drift."""
    said = ("Two trainings of the same config on one A100, torch.manual_seed(0) in both: they diverge from each other "
            "after a few hundred steps, 2.871 vs 2.866 at step 2000, both still falling. Is one of them diverging?")
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", SEEDED, [])
    assert SEEDED in answers(said.replace("diverge from each other", "diverge from one another"))
    for broken in (said.replace("both still falling", "and the second one then diverges"),
                   said.replace("both still falling", "the second goes nan at step 2300"),
                   said.replace("both still falling", "then the second one's loss shoots up and stays there")):
        assert diagnosis(broken).verdict != "normal", broken
    assert SEEDED in answers(said.replace("both still falling", "and never came back together, both still falling"))
    # (a training and a validation loss apart is the gap's question, not two runs')
    gap = "I ran it twice with the same seed on a V100; both times the training and validation loss diverge from each other."
    assert SEEDED not in answers(gap)


def test_a_loss_in_nats_beside_a_papers_figure_in_bits_is_a_difference_of_units():
    """A density model's loss per dimension in nats is the paper's bits per dimension times ln 2: 3.41 nats/dim against a
    paper's 4.87 bits/dim is 3.41 / ln 2 = 4.920 bits, 1% worse, not 30% better. Answered with the reporter's own number
    divided by ln 2; not where no number is within 3% of the figure times ln 2, nor beside a nan."""
    import math

    from trainwreck.normals import NATS_BITS, nats_as_bits

    said = ("My Glow on 64x64 faces ends at a test loss of 3.41 per dimension with a smaller model, and the paper "
            "reports 4.87 bits/dim. Too good to be true? Did I leak the test set?")
    assert abs(3.41 / math.log(2) - 4.87) / 4.87 < 0.03
    assert nats_as_bits(said) == "3.41 / ln 2 = 4.920, against 4.87 bits"
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", NATS_BITS, [])
    assert "3.41 / ln 2 = 4.920, against 4.87 bits" in d.read[-1][1]
    assert nats_as_bits(said.replace("3.41", "2.90")) == "" and NATS_BITS not in answers(said.replace("3.41", "2.90"))
    assert diagnosis(said + " After that the loss went nan.").verdict != "normal"
    assert nats_as_bits("char-level LSTM at 0.951 nats per char; the paper gets 1.37 bpc") != ""
    # (a number given in bits is no nats to divide; one right after the figure still counts)
    assert nats_as_bits("My Glow gets 3.41 bits/dim on the test set; the paper reports 4.87 bits/dim.") == ""
    assert nats_as_bits("The paper reports 2.92 bits/dim and I get 2.05 per dim") == "2.05 / ln 2 = 2.958, against 2.92 bits"
    # (a number of fewer than three significant digits is near too many things: "0.95", "3.9")
    assert nats_as_bits("char-level LSTM at 0.95 nats per char; the paper gets 1.37 bpc") == ""
    # (and a zero written with a decimal point has no significant digit at all: read past, not a crash)
    assert nats_as_bits("The paper reports 2.92 bits/dim; my loss printed 0.0 once, then 2.05 per dim") == \
        "2.05 / ln 2 = 2.958, against 2.92 bits"


def test_a_fairseq_logs_loss_is_in_bits_beside_a_cross_entropy_computed_by_hand():
    """fairseq's criteria divide the loss by ln 2 before they log it: its nll_loss 2.874 is 1.992 nats, the
    cross-entropy the reporter computes by hand from the same checkpoint. Only on fairseq's own lines: a loop's own
    `| loss 1.3120 |` is no fairseq field, and the numbers of the fairseq line are not compared with each other."""
    from trainwreck.normals import NATS_BITS, nats_as_bits

    line = ("2024-05-02 11:20:41 | INFO | valid | epoch 012 | valid on 'valid' subset | loss 3.391 | nll_loss 2.874 | "
            "ppl 7.33 | wps 9120.4 | num_updates 15600\n")
    said = ("fairseq says nll_loss 2.874 but my own F.cross_entropy over the same dev set, averaged per target token, "
            "gives 1.992. Which one is right?\n" + line)
    assert nats_as_bits(said) == "1.992 / ln 2 = 2.874, against 2.874 bits"
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name, d.matches) == ("normal", NATS_BITS, [])
    assert "fairseq/criterions/label_smoothed_cross_entropy.py" in d.normal[0].explanation
    assert nats_as_bits(said.replace(" | INFO | valid | epoch 012 |", " | epoch 012 |")) == ""
    assert nats_as_bits("ep  10 | loss 1.3120 | acc 53.12\nthe paper's 0.9094 nats") == ""
    # (fairseq's loss is the label-smoothed one: only nll_loss is its figure; and no fairseq line is compared, a
    # checkpoint's score included)
    assert nats_as_bits(said.replace("nll_loss 2.874", "nll_loss 2.999").replace("loss 3.391", "loss 2.874")) == ""
    saved = ("2024-05-02 11:21:02 | INFO | fairseq.checkpoint_utils | Saved checkpoint checkpoint2.pt (epoch 2 @ 900 "
             "updates, score 1.992)\n")
    assert nats_as_bits(line + saved) == ""


def test_a_yes_no_question_of_what_is_to_come_names_no_nan_printed():
    """"Is my run going to nan?" asks about the future: no nan was printed, unlike "is it normal that it then goes to
    nan?". Beside a loss scaler's skipped steps and a falling loss, the answer is the skipped steps'; a nan said to have
    come still names the half-precision entry."""
    from trainwreck.diagnose import FUTURE_FAILURE

    said = ("fp16 with torch.cuda.amp: a few 'Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to "
            "32768.0' lines at the start, and the loss goes 3.91, 3.52, 3.20, 3.01 after. Is my run going to nan?")
    d = diagnosis(said)
    assert (d.verdict, d.normal[0].name) == ("normal", "skipped steps under dynamic loss scaling")
    assert FUTURE_FAILURE.search("will it diverge?") and FUTURE_FAILURE.search(" and is it about to blow up?")
    assert not FUTURE_FAILURE.search("is it normal that it goes to nan?")
    # (a question of what is to come that carries a nan printed reports it: the nan is not the future verb's)
    for printed in ("Will lowering the lr fix the nan I get at step 900?", "Is bf16 going to fix the nan that shows up?",
                    "Will bf16 fix the nan at step 900?", "Will the nan at step 900 go away with bf16?"):
        assert not FUTURE_FAILURE.search(printed.lower())
        assert diagnosis(said.replace("Is my run going to nan?", printed)).verdict != "normal", printed
    assert diagnosis(said.replace("Is my run going to nan?", "Then at step 900 the loss went nan. Why?")).verdict != "normal"


def test_a_cross_entropy_against_soft_targets_has_the_targets_entropy_as_its_floor():
    """(s248/09) H(p, q) = H(p) + KL(p || q): against a target distribution the loss falls only to the targets' own
    entropy. Asked where the targets are soft (visit counts, a teacher's probabilities, smoothed labels) and the loss
    is said to flatten above 0; not beside a nan."""
    from trainwreck.normals import normals_asked

    name = "a cross-entropy against soft targets, which cannot fall below the targets' own entropy"
    said = ("Policy target = normalised root visit counts, loss = cross entropy against log_softmax of the policy "
            "logits. Everything I read says cross-entropy should go toward 0, but mine flattens out around 2.2.")
    assert name in [n.name for n in normals_asked(said)]
    # answered as normal where nothing else in the report says the run broke
    assert answers(said)[:1] == [name]
    # the words ruling the soft targets out, no floor said, or a nan: not this answer (code_review_s71b 15)
    for other in ("I train without mixup or label smoothing, plain one-hot labels and cross entropy. The training loss "
                  "flattens out around 1.1. Shouldn't it go to 0?",
                  "No label smoothing, no mixup, just hard labels; the cross entropy flattens out around 1.1.",
                  "Policy target = normalised visit counts, cross entropy, the loss falls nicely.",
                  said + " Then it went nan."):
        assert name not in [n.name for n in normals_asked(other)], other
