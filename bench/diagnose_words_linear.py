"""The patterns `diagnose` runs over a report's words stay linear on hostile text.

A pasted report's start (up to 32 kB, reader.PROSE) goes through the thesaurus (thesaurus.py), the
validation-loss search (diagnose.VALIDATION_NAN, layout.validation_rows) and the readings of its words and code
(the loss named, a rate tried, its sentences, what was scaled, the constructs that break at one value). A pattern that backtracks over a run of spaces or of
repeated words costs the square of its length: 32 kB of spaces after `val_loss` once took 89 s. Each
text below is built from one repeated unit, at 16 kB and at 32 kB, and timed side by side in this one
run: a linear pattern takes about 2x as long on twice the text, a quadratic one about 4x.

    python bench/diagnose_words_linear.py

The scanner's patterns are timed the same way over whole pastes (scan and diagnose): a key followed by a long
run of digits, a progress rate's digits, one long line ending in CR LF.

It exits 1 if a 32 kB text takes 10 times as long or more as a plain one (32 kB of prose with no key, timed in
the same run: a linear pass over a hostile text takes a few times that; the quadratic ones took 10 to 89 s, hundreds
of times it), or 4 times as long or more while growing 3.5x or more from 16 kB. (Measured against the plain text
rather than in seconds, so that a slower machine does not fail every text: on one that answered about half as fast,
the session's starting code took 0.5 s on texts a faster one had read in under 0.3.)
"""
from __future__ import annotations

import functools
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trainwreck.diagnose import VALIDATION_NAN  # noqa: E402
from trainwreck.logscan.layout import validation_rows  # noqa: E402
from trainwreck.breaking_constructs import breaking_construct  # noqa: E402
from trainwreck.input_scaling import scaled_said  # noqa: E402
from trainwreck.rate_tried import lr_tried  # noqa: E402
from trainwreck.run_said import loss_kind  # noqa: E402
from trainwreck.schedule_said import no_warmup_said  # noqa: E402
from trainwreck.sentences import sentences_only  # noqa: E402
from trainwreck.thesaurus import _fold, _prepared  # noqa: E402

UNITS = ["file ", 'file "', "x/site-packages/a ", "a/dist-packages/b in f\n    12 x\n", "<ipython-input-",
         "cell in[", "error ", " ", "\t", "runtime error ", "--> 12 ", " in \n 1 ", "val_loss", "val_loss ",
         "[eval] ", "eval loss ", "validation: ", "epoch ", "epoch valid_loss ", "x" * 200 + "\n", "- ", "log(p) ",
         "(1 - y) * np.log(1 - p) ", "lr 1e-3 nan at epoch 9 instead of ", "tried 0.1 ", "0 and 255 ",
         "e = np.exp(z)\n", "exp(a) / ", "default adam works, lr=0.1 ",
         # (the thirty-ninth session's: a warmup flag's name run on -- `--warmup--warmup...` took 4 s at 32 kB, a
         # quadratic backtrack over the name's tail; code that scales; a rate named beside the same failure)
         "--warmup", "X = (X - X.mean(", "y = y_scaler.", "at lr 0.", "removed the ", "accuracy climbs "]
SIZES = (1 << 14, 1 << 15)


def text_of(unit: str, size: int, lead: str = "") -> str:
    return (lead + unit * (size // len(unit) + 1))[:size]


def seconds(text: str) -> float:
    start = time.perf_counter()
    _fold(_prepared(text))
    for pattern in VALIDATION_NAN:
        pattern.search(text)
    list(validation_rows(text.encode()))
    # the readings of the report's words and code (a minus before a run of spaces once took 147 s at 32 kB)
    loss_kind(text), lr_tried(text), sentences_only(text), scaled_said(text), breaking_construct(text)
    no_warmup_said(text)
    return time.perf_counter() - start


# ... and the scanner's patterns over a whole paste: a number's digits after a key (`loss: 111...1x`, a printed
# `lr`), a progress rate's, and one long line that ends in CR LF (a Windows log) once took 18 to 104 s at 32 kB; a key
# followed by a long run of spaces (two runs of spaces side by side in its pattern) took 13.7 s at 16 kB.
WHOLE_UNITS = ["1", "1.", "a", "9 ", " "]
WHOLE_LEADS = ("loss: ", "step 1 loss 0.5 lr ", "avg loss 0.5\nLoss: ", "12", "Cost after iteration 1: ", "0 1\n1 2\n2 ",
               "x.py:1: RuntimeWarning: w\n ", "a:1: BWarning: a:1: BWarning: ", "I standardised ", "X is ",
               "the loss, is it diverging", "lr 0.1 nan. lr ", "without ", "    zero_grad()\n    ", "target is ",
               "[1, ", "Iteration Cost w0\n", "MLPRegressor ", "fp16 loss nan precision=",
               "softmax(np.array([", "np.exp(", "the loss ", "false negatives ", "1.92 at step ",
               "clip_grad_norm_(", "clip_by_global_norm(", "I clip the gradient norm at ", "x / x.std(", "re-ran lr ",
               "lowering lr just moves the ", "I did not scale the ", "features are ",
               "x = torch.sigmoid(", "nn.Sigmoid()", "W1 = np.zeros(", "nn.init.zeros_(",
               "grads are exactly ", "step 1: ", "no warmup warmup_steps=", "warmup_steps=1", "Why is the loss ",
               "fp16=False trains ", "lr=0.001 just ", "accuracy stuck ",
               "nan torch.sqrt(", "nan x.masked_fill(m, ", "nan torch.log(", "nan jnp.where(p, ",
               "train loss per epoch: ", "MSELoss\nepoch 1  train ", "gradient norm\nlayer 0 ", "min ",
               "epoch 1 batch 4400 loss ", "the memory climbing ",
               # (this session's readings: a sentence's values, a title, a sentence beside a log, a late clip, a std
               # of one, a scale that collapsed, a rate of zero, masks of 255, an untrained output, a summed denominator)
               "Loss starts at 0.5, then ", "loss 1\n\nstep 0 loss 1\n", "step 0 | loss 1\nThe same run with a model gets loss ",
               "loss.backward()\n    opt.step()\n    ", "nn.init.normal_(m.weight, std=", "W = [np.random.randn(",
               "step 0 | loss 1 | scale ", "with lr = 0 ", "the masks are ", "the output is ",
               "exp_sim = torch.exp(s)\ndenom = (exp_sim ", "GradScaler scale drops ", "step 0 loss 1 | step ",
               "Initial loss 2.3 on my ", "is it ok? the first loss is 10.37 with a ",
               # (found by walking every compiled pattern for runs side by side with only optional items between them:
               # a sentence's values before spaces took 72 s at 4 kB, a divisor's spaces 6.6 s at 16 kB)
               "loss 1, 2, 3", "x = a /", "lm loss: ", "W =", "loss = ce + ", "d = (a - b).sqrt() + ",
               # (the thirty-sixth session's: values between words, asides, ranges, places; progress updates kept
               # before a nan; a loop on one line)
               "The loss after epoch 1 is 0.5, after ", "loss 0.5 (it was ", "loss 0.5-", "loss (", "loss [",
               "loss 0.5 after ", "loss: 0.5\rloss: nan", "loss: nan\r", "loss.backward(); opt.step() ",
               "self.manual_backward(", "(already standardized ", "Epoch 12/100\n...\nEpoch 99/100\n",
               # (the nineteenth's: a lower rate in other words, a printed count of unpadded tokens, a positional std, a
               # string a call raises, a fine-tune's vocabulary, a CSV by epoch and step, an accuracy beside a
               # validation loss, a first printed loss, a table above a summary, a clause beside a validation score)
               "Уменьшил lr ", "key_padding_mask (input_ids != 0).sum(1) = tensor([", "nn.init.normal_(w, 0.0, ",
               "even with lr=0", 'raise ValueError(f"', "x = shuffle(", "from_pretrained( 32k vocab ",
               "epoch,step,train_loss_epoch\n", "val_loss 0.41 val_acc ", "the very first printed loss is ",
               "step   loss\n", "stops moving at 1.9, ",
               # (the forty-second's: a mean IoU said or printed, a rate said not to matter, a list of things tried, a
               # place it still broke at, a later place instead, a bound on what exp takes, a few steps later)
               "the iou stays at ", "val_mean_io_u: 0.5000 ", "no matter the ", "I tried Adam 1e-4 ",
               "What I tried:\n- lr 0.05 still ", "lr 0.1 explodes around batch 8 ", "logits at most ", "nan a few ",
               "step,train_loss_smoothed\n", "crit = nn.GaussianNLLLoss(",
               # (the forty-fourth's: a fear beside a normal asked about, a header said in a sentence, a scale that rose
               # again, loaders zipped, a torchvision dataset's pixels)
               "gradient overflow, skipping step. I'm worried ", "I printed step, ", "loss 1 loss_scale=",
               "x_loader = DataLoader(TensorDataset(", "zip(x_loader, ", "train = datasets.MNIST(\ntrain.data",
               "T.RandomHorizontalFlip()\nclasses: a_left", "accuracy is stuck at 0.5 ", "mask_gen = ImageDataGenerator(",
               "the first ~200 ", "MNIST cross entropy\nstep 0 loss 38.4 acc 0.1\n", "Iteration 1, loss = 0.66409",
               # (the forty-fifth's: a fall said before a nan, a glued TerminateOnNaN line, words of code written by
               # hand, a range given roughly, a Normalization adapted, tables merged, a file list zipped, an output nan
               # before training, a language model's loss near 0, a CTC loss, warm restarts, a rising dash pair)
               "the loss goes down nicely then ", " 903/1800 [===>...] - loss: 0.0410Batch 903: ",
               "I implemented the ", "around 8-", "norm = keras.layers.Normalization(); norm.adapt(",
               "I merged the tables with pandas ", "files = tf.data.Dataset.list_files(", "before training the outputs ",
               "GPT loss almost 0, samples repeat ", "nn.CTCLoss inf loss ", "cosine schedule, jumps at epoch 1",
               "the loss is fine (0.3-")
# ... and units that only a whole paste of them exercises: an exp's literal argument before a run of spaces (`exp(1`
# before 400 spaces took 17 s); a progress line's updates before a nan
WHOLE_PAIRS = [("", "np.exp(1" + " " * 150 + "x)\n"), ("", "\rloss: 0.5 loss: nan "), ("", "loss 1 (a 1.1 "),
               # (a vocabulary's size tried at each group of thousands took 6.4 s on 32 kB)
               ("101", ",000")]
WHOLE_ENDS = ("x\n", "it/s]\r\n")


@functools.lru_cache(maxsize=1)
def catalog():
    from trainwreck.validate import check

    return check(Path(__file__).resolve().parent.parent / "catalog")[0]


def seconds_whole(text: str) -> float:
    from trainwreck.diagnose import diagnose, message_finder
    from trainwreck.logscan import scan

    start = time.perf_counter()
    diagnose(scan(io.BytesIO(text.encode()), "hostile", message_finder(catalog())), catalog())
    return time.perf_counter() - start


def main() -> int:
    worst = []
    for unit in UNITS:
        for lead in ("", "val_loss", "RuntimeError", "-"):
            # (each run its own text, its last two characters a newline and the run's number: readings cached on
            # their text, breaking_construct's among them, would answer a repeat from the cache -- code_review_s68 H1)
            small, large = (min(seconds(text_of(unit, n - 2, lead) + f"\n{r}") for r in range(3)) for n in SIZES)
            worst.append((large / max(small, 1e-6), large, lead + repr(unit)[:24]))
    seconds_whole("warm up: loss 0.5\n")
    plain = min(seconds_whole(text_of("the run is fine ", SIZES[1] - 2) + "x\n") for _ in range(3))
    # (it runs for half an hour and more on a slow machine: each text is said as it is measured, so that a run stopped
    # early still shows how far it got and the slowest so far)
    print(f"words: {len(worst)} texts, the slowest {max(w[1] for w in worst):.3f} s at 32 kB; a plain 32 kB paste {plain:.3f} s",
          flush=True)
    pairs = [(u, lead) for u in WHOLE_UNITS for lead in WHOLE_LEADS] + [(u, lead) for lead, u in WHOLE_PAIRS]
    for k, (unit, lead) in enumerate(pairs, 1):
        for end in WHOLE_ENDS:
            small, large = (min(seconds_whole(text_of(unit, n - len(end) - 2, lead) + f"\n{r}" + end) for r in range(2))
                            for n in SIZES)
            worst.append((large / max(small, 1e-6), large, f"diagnose {lead + unit!r:.24}...{end!r}"))
        print(f"{k}/{len(pairs)} whole pastes; slowest so far {max(w[1] for w in worst):.3f} s", flush=True)
    worst.sort(reverse=True)
    print("ratio (32 kB / 16 kB)   seconds at 32 kB   text")
    for ratio, large, name in worst[:8]:
        print(f"{ratio:21.2f}   {large:16.3f}   {name}")
    print(f"a plain 32 kB text: {plain:.3f} s")
    bad = [w for w in worst if w[1] >= 10 * plain or (w[0] >= 3.5 and w[1] >= 4 * plain)]
    print("every pattern linear" if not bad else f"{len(bad)} text(s) grow faster than linearly")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
