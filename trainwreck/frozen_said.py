"""What a report's words say of a network that no longer responds: one output for every input, weights that do not
change from one epoch to the next.

Both are said in plain words far more often than they are printed ("it gives the same probability for every
customer", "I diffed the weights and they are bit-identical"), and both narrow the suspects. A network whose hidden
units are all dead (WR-140), or whose weights all start at zero (WR-110), passes nothing of its input on: its output is
one constant, the one that scores best over the data (the base rate of a classifier, the targets' mean of a
regression). (Units that start alike but not at zero stay alike: the network still responds to its input, as if it
had one unit.) Weights that come out bit-identical after many updates got no update at all: a gradient of exactly 0
(dead units, a zero start), or, in float16 weights, updates rounded away (WR-040: an update below half the gap to the
next float16 value in its direction changes nothing).
"""
from __future__ import annotations

import functools
import itertools
import re

from .brackets import arguments
from .sentences import denied_before, sentence_around, told
from . import lazy_regex
from .lazy_regex import PatternLike

# (the things a model is fed one at a time, and what it gives back for each)
# (any noun after "every" but the run's own units and the model's parts: "for every transaction", not "every epoch")
_INPUTS = (r"(?!(?:epochs?|steps?|iterations?|iters?|batch(?:es)?|runs?|seeds?|class(?:es)?|folds?|layers?|units?|"
           r"neurons?|times?|gpus?|checkpoints?|configs?|settings?|columns?|features?|dim(?:ension)?s?|variables?|"
           # (nor a generator's noise: one picture for every noise vector is a GAN's mode collapse, not covered)
           r"channels?|noises?|latents?|z|trials?)\b)[a-z][\w-]*")
_OUTPUTS = (r"(?:probabilit(?:y|ies)|predictions?|outputs?|class(?:es)?|labels?|answers?|reconstructions?|results?|"
            r"scores?|logits?|forecasts?|masks?|embeddings?)")
# (a subject that is the model's output: not "the labels are 0 for every background pixel")
_OUTPUT_SUBJECT = r"(?:probabilit(?:y|ies)|predictions?|outputs?|reconstructions?|logits?|forecasts?|transcriptions?|captions?)"
_EVERY = r"(?:every|each|all|any)(?: single| one)?(?: (?:of )?(?:the|my|our))?"
# (an input a reporter feeds the model, by its kind: "no matter what sentence I give it" -- not a setting tried, "no
# matter which scheduler I give it", which no list of settings could exhaust -- reread_s74 5)
_GIVEN_INPUT = (r"(?:[\w-]+\s+){0,2}?(?:sentences?|inputs?|images?|photos?|pictures?|texts?|prompts?|reviews?|questions?|"
                r"quer(?:y|ies)|documents?|passages?|samples?|examples?|rows?|clips?|frames?|sequences?|molecules?|graphs?|"
                r"users?|items?|series|windows?|data|audio|recordings?|utterances?|customers?|patients?)\b")
# (an output said the same: the module's output nouns, and a translation's or a generator's own -- not a loss, an
# accuracy or a curve)
_SAME_OUTPUT = (r"(?:" + _OUTPUTS + r"|sentences?|translations?|answers?|captions?|texts?|words?|tokens?|values?|numbers?|"
                r"vectors?|boxes|images?|responses?|categor(?:y|ies)|digits?|ratings?)")
# (nor the same form, a space or a range the outputs share: "maps every input to the same embedding space")
_SAME_FORM = r"(?!\s+(?:" + "|".join(("space", "format", "range", r"number\s+of")) + r")\b)"
# (what a tensor's form is, not its values)
_SHAPE = r"(?:shapes?|sizes?|resolutions?|dimensions?|dims?|lengths?|dtypes?|formats?|types?)\b"
# The words that the model gives one output for every input (told: not a question's). Not a column that holds one value
# for every row (a constant feature says "the same value for every row", which names no output): an output noun, or a
# value the model is said to give.
ONE_OUTPUT = lazy_regex.compile(
    # "the same probability for every customer", "the same prediction for all the images"
    # (a word may name what they are of: "exactly the same action probabilities in every situation")
    # (and a word after it: "the same probability vector for every clip")
    r"\bsame (?:[\w-]+ )?" + _OUTPUTS + r"(?: (?:vectors?|distributions?|values?|rows?|maps?))? (?:for|on|to|across|in) "
    + _EVERY + r" " + _INPUTS + r"\b"
    # "basically one number for every image", "essentially a single value for all samples" (the word of sameness said:
    # "one value for each sample" is an output's shape)
    r"|\b(?:basically|essentially|pretty much|practically|almost|effectively) (?:just )?(?:one|a single) "
    r"(?:number|value|prediction|output|constant) (?:for|on|to|across) (?:every(?: single)?|all(?: the)?|any) " + _INPUTS + r"\b"
    # "the output is 0.2649 for every single row", "predicts 0.5 for all inputs"
    # (a value said of the model's output or its call: not "df.isna().sum() is 0 for every column")
    r"|(?:\b(?:gives?|outputs?|returns?|predicts?)|(?:\b" + _OUTPUT_SUBJECT + r"|\b(?:\w+\.){0,3}(?:model|predict|forward|net)\w*\([^()\n]{0,30}\)\)?)\s+(?:is|are|was|were))"
    # (or a row of them: "model.predict(X) gives [0.3213, 0.1794, 0.4993] for every single row")
    # (or an empty text, a recogniser's one output: "the transcriptions are '' for every crop" -- not "empty" alone,
    # which of a detector's predictions means that nothing passed its threshold)
    r"\s+(?:exactly\s+|always\s+)?(?:[-+]?\d*\.?\d+(?:e-?\d+)?|\[[-+\d.,\se]{3,120}\]|\"\"|''|empty\s+strings?)\s+(?:for|on) "
    + _EVERY + r" " + _INPUTS + r"\b"
    # "when I print model(x) for a few images every row is the same 10 numbers", "the printed logits: every row is
    # identical": the model's output printed, its rows alike
    # (the model's or its output's name, a word of its own: not "the network input batch"; nor rows the same as
    # something else, "each row is the same as its label", nor "not every row")
    r"|\bprint\w*\s+(?:out\s+)?(?:the\s+)?(?:\w+\.){0,3}(?:model|net|forward|predict(?:ions?)?|outputs?|logits?)\b"
    r"(?!\s+input)(?:\([^()\n]{0,30}\))?[^.\n]{0,60}?(?<!\bnot )\b(?:every|each|all(?: the)?)\s+(?:output\s+)?rows?\s+"
    r"(?:is|are)\s+(?:exactly\s+|basically\s+)?(?:the\s+same|identical)\b(?!\s+(?:as|to)\b)"
    # "every row gets the same softmax output", "every photo gets the same box"
    # (an output or a score the model gives: not "the same label smoothing", "the same score threshold")
    # ("every node gets the same class": the class the model gives, which a label the data gives is not)
    r"|\b" + _EVERY + r" " + _INPUTS + r" gets? (?:exactly |basically |practically )?the same (?:[\w-]+ )?(?:"
    + _OUTPUT_SUBJECT + r"|(?:bounding )?box(?:es)?|transcri\w+|translations?|class|category|"
    r"scores?(?!\s+(?:threshold|cutoff|function)))\b"
    # (or printed: the argmax's unique values one class, `logits.argmax(1).unique()` is `tensor([2])`)
    r"|\bargmax\([^()\n]{0,20}\)\.unique\(\)[^\n\[]{0,20}?tensor\(\[\s*\d+\s*\]\)?"
    # (or NumPy's unique of the predictions, printed on the next line as one class: `np.unique(clf.predict(X_test),
    # return_counts=True)` then `(array([0]), array([1600]))`)
    # (not of one example, `predict(X_test[:1])`, nor a count of 1 printed beside it: one row has one class)
    r"|\bunique\((?:[\w.]{1,40}\.)?predict(?:_classes)?\((?![^()\n]{0,40}\[\s*(?:-?\d+|:\s*1|\w+\s*:\s*\w+\s*\+\s*1)\s*\])"
    r"[^()\n]{0,40}\)[^\n]{0,40}\n[ \t]*\(?array\(\[\s*[-+]?\d+(?:\.\d*)?\s*\]\)(?!,\s*array\(\[\s*1\s*\]\))"
    # "the reconstruction is basically a flat line for every window": one flat output, whatever the input
    r"|\b(?:reconstructions?|predictions?|outputs?|forecasts?)\s+(?:is|are|was|were)\s+(?:basically\s+|just\s+|always\s+)?"
    # (a paragraph may wrap anywhere in it)
    r"a\s+flat\s+line\s+(?:(?:for|on)\s+" + _EVERY.replace(" ", r"\s+") + r"\s+" + _INPUTS + r"\b|regardless\s+of\s+(?:the\s+)?"
    r"inputs?\b)"
    # "the predicted values for every window in a batch are identical to like 4 decimals": the outputs for every input,
    # said alike (not alike in their form, nor across runs, devices or models, nor "identical to the inputs", a
    # reconstruction that worked)
    r"|\b(?:predicted\s+values|predictions?|outputs?|reconstructions?)\s+(?:for|of)\s+" + _EVERY.replace(" ", r"\s+")
    + r"\s+(?!(?:models?|ranks?|workers?|replicas?|devices?|gpus?|processes|runs?)\b)" + _INPUTS
    + r"(?:\s+in\s+(?:a|the)\s+batch)?\s+(?:are|were)\s+(?:all\s+)?(?:nearly\s+|almost\s+|basically\s+|practically\s+)?"
    r"(?:identical|the\s+same)\b(?!\s+(?:as\b|" + _SHAPE + r"|across\b|between\b|on\s+(?:the\s+)?(?:cpu|gpu|tpu)\b|in\b|with\b|"
    r"before\b|after\b|whether\b)|\s+to\b"
    r"(?!\s+(?:like\s+|about\s+|within\s+)?(?:the\s+)?\d))"
    # "the predicted mask is the same blurry oval for every X-ray": a prediction said the same thing for every input
    # (a value, not its shape: "the output shape is the same for every image", "the same size for every image")
    r"|\b(?:predicted|output)\s+(?!" + _SHAPE + r")[\w-]+\s+(?:is|are|was|were)\s+(?:always\s+|exactly\s+)?the same\s+"
    r"(?:(?!" + _SHAPE + r")[\w-]+\s+){0,3}?(?:for|on) " + _EVERY + r" " + _INPUTS + r"\b"
    # "argmax is Other_Faults for every plate", "the argmax of the logits is 3 for all samples"
    r"|\bargmax\b[^.;\n]{0,30}?\b(?:is|was)\s+(?:always\s+)?[\w'-]+\s+(?:for|on) " + _EVERY + r" " + _INPUTS + r"\b"
    # "now every photo comes out as cloudy", "all the images are classified as cat", "everything is predicted as 0"
    # (what the model makes of them: not "labelled as", which the data may say)
    # (an input's, not an output's: "every prediction comes out as a tiny number" gives no class; nor "as one of" several)
    # ("every single row is predicted "stable"": the class quoted, with no "as")
    r"|\b(?:(?:every|each|all)(?: single)?(?: (?:of )?(?:the|my|our))?(?: (?!" + _OUTPUTS + r"\b)" + _INPUTS + r"){1,2}?|everything) "
    # (one class after "as", where the clause ends: not "as positive or negative", a task's, nor "as expected")
    # (the verb may be left out, as a note writes it: "the confusion matrix shows everything predicted as idle")
    r"(?:now )?(?:comes? out as|(?:(?:is|are|gets?|get) )?(?:classified|predicted)(?: as|(?=\s+['\"])))\s+(?!(?:one|any|either|expected|"
    r"correct|their|the correct|the right|belonging)\b)['\"]?(?:class\s+)?[\w'-]+(?:\s+[\w'-]+)?['\"]?"
    r"(?=\s*(?:[.;,!?\n)]|now\b|$))(?!\s*,\s*[\w'-]+(?:\s*,\s*[\w'-]+){0,8},?\s+(?:or|and)\b)"
    # "predict() returns the same band gap for every compound", "the actor outputs exactly the same joint velocities
    # whatever the observation is": the same anything the model gives, for every input or whatever it is shown
    # (said of the model, not of a column: "the timestamp column gives the same value for every row"; and a value per
    # input, not a run's number: "the same loss no matter what I try" -- an output noun is the first form's)
    r"|\b(?:model|network|net|predict\w*(?:\(\))?|it|actor|policy|generator|classifier|regressor|head|decoder|agent)\s+"
    r"(?:(?!(?:would|could|should|will|might|may|must|not|never)\b)\w+\s+){0,2}?"
    r"(?:returns?|predicts?|gives?|outputs?|produces?|prints?|picks?|chooses?|selects?)\s+(?:exactly\s+|basically\s+|practically\s+|always\s+)?"
    r"the same\s+(?!(?:loss\w*|accuracy|errors?|metrics?|numbers|curves?|scores?|shapes?|sizes?|warnings?|dtypes?|"
    + _OUTPUTS + r")\b)(?:[\w-]+\s+){0,2}?"
    r"(?:(?:for|on|to)\s+" + _EVERY + r"\s+" + _INPUTS + r"\b|"
    # (whatever the input is, not whatever the reporter sets: "the same results regardless of the learning rate")
    r"(?:whatever|regardless of|no matter)\s+(?!(?:what\s+|which\s+)?(?:the\s+|my\s+|i\s+)?(?:learning|lr\b|seeds?\b|"
    r"optimi|batch|settings?\b|hyper|epochs?\b|configs?\b|init|models?\b|architectures?\b|numbers?\b|sizes?\b|"
    r"rates?\b|how\b|do\b|try|tried|change|use)))"
    # "no matter what sentence I give it, it outputs the exact same sentence": the input said first, as the reporter
    # varied it (an input given, not a setting tried: "no matter what lr I pass it" -- code_review_s74 5), and an
    # output the same after it (not the same loss, accuracy or curve)
    r"|\b(?:whatever|regardless\s+of|no\s+matter)\s+(?:what|which)\s+" + _GIVEN_INPUT
    + r"\s+(?:[\w-]+\s+){0,2}?(?:i|we|you)\s+(?:give|feed|pass|show|input|send)\w*\b[^.;\n]{0,20}?,\s*"
    r"(?:it|the\s+(?:model|network|net|decoder))\s+(?:always\s+)?"
    r"(?:returns?|predicts?|gives?|outputs?|produces?|generates?|translates?\s+(?:it\s+)?(?:in)?to)\s+(?:exactly\s+)?"
    r"the\s+(?:exact\s+|very\s+)?same\s+(?:[\w-]+\s+){0,2}?" + _SAME_OUTPUT + r"\b(?!\s+" + _SHAPE + r")" + _SAME_FORM +
    # "my seq2seq translates every sentence to the same output", "it maps every image to the same class": the model
    # the subject (not a transform's resize or an augmentation's "turns every image into the same grey square")
    r"|\b(?:it|model|network|net|seq2seq|decoder|encoder|classifier)\s+(?:\w+\s+)?(?:maps?|translates?|turns?|converts?|"
    r"decodes?|classif(?:y|ies))\s+" + _EVERY + r"\s+" + _INPUTS + r"\s+(?:in)?to\s+the\s+(?:exact\s+|very\s+)?same\s+"
    r"(?:[\w-]+\s+){0,2}?" + _SAME_OUTPUT + r"\b(?!\s+" + _SHAPE + r")" + _SAME_FORM +
    # "every user predicted as the same country" (a title's, with no verb)
    r"|\b(?:every|each|all)(?: (?:of )?(?:the|my|our))?(?: (?!" + _OUTPUTS + r"\b)" + _INPUTS + r"){1,2}? (?:is |are )?"
    r"(?:classified|predicted) as the same\b"
    # "predicts "no leak" for everything": one class, quoted, for every input
    r"|\bpredicts?\s+['\"][\w' -]{1,30}['\"]\s+(?:for|on)\s+(?:everything|every\w*|all\b)"
    # "it always predicts class 1"
    r"|\balways (?:predicts?|outputs?|returns?|picks?) (?:class|label) \d+\b"
    # "it only ever predicts 'spam'", "always predicts the majority class": one class, quoted or the commonest, for
    # every input -- not for some ("always predicts 'positive' for sarcastic reviews")
    r"|\b(?:only|always)\s+(?:ever\s+)?(?:predicts?|predicted)\s+(?:'[^'\n]{1,30}'|\"[^\"\n]{1,30}\"|"
    r"the\s+(?:majority|most\s+(?:common|frequent))\s+class\b)"
    r"(?![^.;\n]{0,30}?\b(?:for|on|when|in|at|if|unless|with)\s+(?!(?:every|all|each|any)\b)\w)"
    r"(?!\s*(?:,\s*)?(?:and|or)\s+['\"])(?![^.;\n]{0,20}?\bcorrectly\b)"
    # "it predicts class 3 for every image"
    r"|\b(?:predicts?|outputs?|returns?|picks?) (?:class|label) \d+ (?:for|on) " + _EVERY + r" " + _INPUTS + r"\b"
    # "the prediction is a straight horizontal line", "only predicts a flat line": a forecast that is one value whatever
    # its input (flat, horizontal or constant: a straight line alone may be a linear model's fit)
    r"|\b(?:predictions?|predicted\s+values?|forecasts?)\s+(?:is|are|was|were)\s+(?:just\s+|only\s+|always\s+)?(?:a\s+)?"
    r"(?:straight\s+)?(?:flat|horizontal|constant)\s+(?:horizontal\s+)?line\b"
    r"|\bpredicts?\s+(?:just\s+|only\s+|always\s+)?a\s+(?:straight\s+)?(?:flat|horizontal|constant)\s+(?:horizontal\s+)?line\b"
    # "every reconstruction is identical", "all predictions are exactly the same"
    r"|\b" + _EVERY + r" " + _OUTPUTS + r" (?:is|are|looks?|comes? out)\s+(?:exactly |basically |just |all |always )?"
    r"(?:identical|the same)\b(?! as\b)"
    # "it predicts the same class for everything", "always outputs one class"
    # (or "model.predict gives practically the same value for every flow": a value the model gives)
    r"|\b(?:predicts?|predicting|outputs?|outputting|returns?|(?:predict\w*\(?\)?|model|network|net)\s+gives)\s+"
    # ("the same class", or one class for everything: not "returns one value for each sample", one class per pixel)
    r"(?:only\s+|always\s+|practically\s+|basically\s+|almost\s+|essentially\s+|nearly\s+)?(?:the same\s+"
    r"(?:class|value|label|number|digit|word|token|probability|score)\b(?: (?:for|on) (?:every|each|all|any)\w*\b)?|"
    r"(?:one|a single)\s+(?:class|value|label|number|digit|word|token|probability|score)\s+(?:for|on|to)\s+(?:every|all|"
    r"any)\w*\b|(?:one|a single)\s+(?:class|value|label)\s+(?:whatever|regardless)\b)", re.I)
# A denial, a contrast, a wish, a guess or a baseline just before ("it doesn't predict the same class for every input",
# "a dead network would return the same value", "I want it to give the same output", "my dummy baseline predicts 0.3")
_DENIED_BEFORE = lazy_regex.compile(r"(?:\b(?:instead of|rather than|unlike|would|should|could|will|want\w*|"
                                    # (a plan, "I will compare the weights ...: identical would mean a bug"; a network not yet
                                    # trained, whose one output is no failure)
                                    r"untrained|before training|at initiali[sz]ation|"
                                    r"wish|hope|if|thought|think|suspect\w*|expect\w*|supposed|baseline|dummy|used to|"
                                    r"before the fix|at first|earlier|previously|constant predictor|model that|predictor|"
                                    r"classifier that|naive|majority|trivial|in theory)\b[^.;\n]{0,40}$|"
                                    # (a negation in the same clause: "the loss doesn't move and every window gets exactly the
                                    # same probability" denies the move, not the one output -- where an "if" or a "would"
                                    # above reaches across the "and")
                                    r"(?:\b(?:not|never|no longer)\b|n't\b)(?:(?!\b(?:and|but|while|whereas)\b)[^.;\n]){0,40}$)", re.I)
# ... or taken back after it, in its sentence: a state that is gone ("now it works"), one that is wanted, or outputs
# that differ by class ("0 for every negative sample and 1 for every positive one": a perfect classifier)
_TAKEN_BACK_AFTER = lazy_regex.compile(r"(?i)\bnow (?:it |that )?(?:works|learns|trains|is fine)\b|\bis gone\b|\bwhat i want\b|"
                                       r"\bas (?:expected|it should)\b|\bwhich is expected\b|\bfixed\b|\bof course\b|"
                                       r"\b(?:would|could|might) (?:mean|be|indicate)\b|\band (?:they|it) (?:aren'?t|are not|"
                                       r"weren'?t|were not|isn'?t|is not)\b|"
                                       r"\b\d*\.?\d+ for (?:every|each|all) \w+")

# The words that the weights did not change: "they are bit-identical", "the weights are unchanged after 100 epochs",
# "the parameters never change". Not an equality the reporter set up ("the weights are the same on both GPUs", DDP's
# sync; "I load the same weights"): identical or unchanged, or not changing, said of the weights.
# (the model's weights: not class weights, loss weights, weight decay; not weights frozen on purpose, loaded from a
# checkpoint or compared across runs -- said beside a stretch of training, "between epoch 50 and 150", "after 100 steps")
_NOT_MODEL_WEIGHTS = r"(?<!class )(?<!loss )(?<!sample )(?<!initial )(?<!pretrained )(?<!frozen )"
WEIGHTS_FROZEN = lazy_regex.compile(
    r"\b" + _NOT_MODEL_WEIGHTS + r"(?:weights?|params?|parameters?|kernels?)\b(?! decay)[^.;\n?]{0,60}?\b(?:are|is|were|was|stay(?:s|ed)?|remain(?:s|ed)?|"
    r"come out|look|:)\s*(?:all\s+|still\s+|completely\s+|literally\s+)*(?:bit[- ]?(?:for[- ]bit[- ]?)?identical|"
    r"identical|unchanged|exactly the same)\b"
    r"|\b" + _NOT_MODEL_WEIGHTS + r"(?:weights?|params?|parameters?|kernels?)\s+(?:do not|don't|never|did not|didn't|does not|doesn't|are not|"
    r"aren't|stopped|stop)\s+(?:even\s+)?(?:chang\w*|mov(?:e|ing)|updat\w*|get(?:ting)? updated)\b"
    r"(?!\s+(?:much|a lot|significantly|anymore much))", re.I)
# ... said of a stretch of training, and not of a freezing on purpose or of a comparison across runs or with a file
TRAINING_SPAN = lazy_regex.compile(r"(?i)\b(?:epochs?|steps?|iterations?|iters?|updates?|batches)\b|\bafter (?:training|\d)")
ON_PURPOSE = lazy_regex.compile(r"(?i)\bfr[oe]z\w*|requires_grad\s*=\s*false|as intended|by design|what i want|"
                                # (a model kept still on purpose, or copies compared across devices)
                                r"\bteacher\b|\btarget (?:network|net|model)\b|\branks?\b|\breplicas?\b|\bgpus?\b|\bema\b|"
                                r"\bloaded\b|\bloading\b|\bboth runs\b|\bacross runs\b|\bseed\b|\bbackbone\b")


# Weights held in float16 themselves: `.half()`, `np.float16` arrays, a model moved to float16, or said so -- not
# autocast, AMP or a GradScaler, which compute in float16 and keep the weights and their updates in float32
WEIGHTS_HALF = lazy_regex.compile(r"(?i)\.half\(\)|\bnp\.float16\b|\bnumpy\.float16\b|\.to\(\s*(?:torch\.)?(?:float16|half)\s*\)|"
                                  # (a dtype given to a tensor or an array, not to autocast: `autocast(dtype=torch.float16)`)
                                  r"(?<!autocast\()(?<!device_type='cuda', )(?<!device_type=\"cuda\", )"
                                  r"\b(?:torch_)?dtype\s*=\s*(?:torch\.|np\.|jnp\.)?(?:float16|(?<=torch\.)half)\b(?![^\n]{0,10}\)\s*:)|"
                                  # (Hugging Face's from_pretrained given a dtype as a string, and Keras's default float type,
                                  # which every layer's weights take: not mixed precision)
                                  r"\btorch_dtype\s*=\s*[\"']float16[\"']|\b(?:set_floatx|set_dtype_policy|set_global_policy)\(\s*[\"']float16[\"']\s*\)|"
                                  r"\bweights\b(?:(?!\b(?:not|fp32|float32|while)\b)[^.\n]){0,60}\b(?:as|in)\s+"
                                  r"(?:np\.)?(?:float16|fp16|half(?:[- ]precision)?)\b|\bonly half-precision\b")
AUTOCAST_BEFORE = lazy_regex.compile(r"(?i)autocast|\bamp\b")


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def weights_half(prose: str) -> re.Match | None:
    """What shows the weights themselves held in float16 (WEIGHTS_HALF), not a dtype handed to autocast; or None."""
    for m in itertools.islice(WEIGHTS_HALF.finditer(prose), 10):
        if not (m.group(0).lower().startswith("dtype") and AUTOCAST_BEFORE.search(prose, max(0, m.start() - 60), m.start())):
            return m
    return None


def _first_told(pattern: PatternLike, prose: str, denied: PatternLike | None = None) -> str:
    """The first match of the pattern in what the text tells (not asks), not denied just before it (_DENIED_BEFORE,
    or the pattern's own `denied`) nor taken back after it in its sentence; or ""."""
    text = told(prose)
    for m in itertools.islice(pattern.finditer(text), 20):
        _start, end = sentence_around(text, m.start(), m.end(), stops=".;\n")
        # (nor asked: "Weights before and after a step at epoch 8: identical?")
        if not (_DENIED_BEFORE.search(text, max(0, m.start() - 40), m.start())
                or denied is not None and denied.search(text, max(0, m.start() - 40), m.start())
                or _TAKEN_BACK_AFTER.search(text, m.end(), end) or text[m.end():m.end() + 3].lstrip().startswith("?")):
            return " ".join(m.group(0).split())
    return ""


# A wider network said to give the same result: "changing the hidden size doesn't change anything", "making the
# layers 256 wide or adding a layer gives the same numbers". Units that start equal stay equal, so any number of them
# computes what one does (a start at zero or at one constant), and a layer of dead units passes nothing on however
# wide: width that changes nothing is that network's face. (The width named: a rate that changes nothing is no such
# thing.)
_WIDTH = r"(?:hidden[ _-]?(?:size|units?|dim\w*|layer size)|width|(?:more |the )?(?:units|neurons)|\d+ (?:units )?wide|wider|n_hidden)"
# (the same numbers, not "doesn't help": a model that does no better is no evidence of units that stay equal)
_SAME = (r"(?:(?:doesn'?t|does not|didn'?t|did not|won'?t|never)\s+change\s+(?:anything|a thing)|"
         r"(?:gives?|gave|give|yields?|produces?|ends?|end|ended)\s+(?:exactly\s+|just\s+)?"
         r"(?:the\s+)?(?:exact\s+)?same\s+(?:numbers|results?|loss|accuracy|values?|curve))")
WIDTH_CHANGES_NOTHING = lazy_regex.compile(r"(?i)\b(?:chang\w*|increas\w*|doubl\w*|rais\w*|making|made|tried|trying|bigger|"
                                           r"larger|more)\b[^.;\n]{0,40}?\b" + _WIDTH + r"\b[^.;\n]{0,80}?\b" + _SAME)


def width_changes_nothing_said(prose: str) -> str:
    """The words that say a wider network gives the same result, as written (lowercased); or ""."""
    return _first_told(WIDTH_CHANGES_NOTHING, prose)


# Hidden units said to be dead, or seen at zero for every input: "dead ReLUs", "dying relu", "most neurons are dead",
# "nearly all units output zero no matter which comment goes in", "the activations after the ReLU are all zero". A
# ReLU whose pre-activation is at or below 0 for every input outputs 0 and gets no gradient, so nothing revives it: the
# observation WR-140 is named for. (Seen, not feared: a guess, "I suspect dying relus", or a question is denied by
# _first_told.)
# (a conv layer's units are its channels, filters or feature maps)
_UNITS = (r"(?:relus?|relu (?:units?|neurons?|activations?)|(?:hidden |the |my )?(?:units?|neurons?|activations?|channels?|"
          r"filters?|feature maps?)(?!\s+(?:of|in)\s+(?:the\s+|my\s+|our\s+)?(?:input|data|image|recording|signal)))")
_ZERO_FOR_ALL = (r"(?:output|outputs|give|gives|return|returns|are|is|stay|stays|were)\s+(?:all\s+|exactly\s+|always\s+"
                 r"|just\s+)*(?:0(?:\.0+)?|zeros?)\b(?:\s+(?:for|on)\s+(?:every|each|all|any)\b|\s+no matter\b|"
                 r"\s+regardless\b|\s+whatever\b|\s+for all inputs\b)")
# A name that holds a layer's activations, as such names are written (`h1`, `a2`, `z`, `act`, `hidden`, `relu_out`,
# `layer3`, `features`): not a mask's, the inputs', the labels', a prediction's, the gradients' or the weights'
_ACTIVATION = (r"(?:self\.)?(?:[haz]\d*|\w*(?:act|hidden|relu|layer|feat|neuron|unit)\w*)(?:\[[^\]\n]{0,20}\])?"
               r"(?![\w.])")
# (said as seen -- "the units are dead", "they output zero for every input" -- not the noun alone, "dead relus", which a
# denial, a problem fixed before or the textbook's "dying ReLU problem" says as often)
DEAD_UNITS = lazy_regex.compile(
    r"(?i)\b(?:relus?|units?|neurons?)\s+(?:are|were|have|had)\s+(?:all\s+|mostly\s+|already\s+)?(?:dead|died)\b|"
    r"\b(?:nearly|almost|most|all|many|half|a lot|lots|a third|a quarter|\d{1,3}\s?%)\s+(?:of\s+)?(?:the\s+|my\s+)?(?:hidden\s+)?"
    + _UNITS + r"\s+(?:\w+\s+){0,5}?" + _ZERO_FOR_ALL + r"|"
    r"\bactivations?\s+(?:after|of)\s+(?:the\s+)?(?:\w+\s+){0,2}?relus?\s+(?:are|is|were)\s+(?:all\s+|always\s+)+(?:0|zeros?)\b|"
    # (or the share of units that are on, printed as 0: `(h1 > 0).mean()` is 0.0, `np.mean(a > 0)` -> 0 -- WR-140's own
    # check, done; not of the inputs, the labels, the gradients or the weights)
    r"(?:\(|\bnp\.mean\()\s*" + _ACTIVATION + r"\s*>\s*0(?:\.0+)?\s*\)(?:\.float\(\)|\.astype\([^()\n]{0,20}\))?"
    r"(?:\.mean\(\))?(?:\.item\(\))?[ \t,]*(?:(?:and|which|it|that)[ \t]+){0,2}"
    r"(?:(?:is|was|=|==|:|->|gives|gave|returns|returned|prints|printed|shows|showed)[ \t]*)?(?:tensor\()?0(?:\.0+)?(?![\d.])")


# ... not ones kept away or counted absent: "leaky relu to avoid dead units", "there are no dead relus"
_DEAD_DENIED = lazy_regex.compile(r"(?i)\b(?:no|none\s+of|avoid\w*|prevent\w*|without|against|fewer|less|any|zero|"
                                  r"check(?:ed|ing)?\s+for|look(?:ed|ing)?\s+for|rul(?:e|ed)\s+out|fixed|because)\s+(?:\w+\s+){0,3}$")


# ... or a count of those still alive, a quarter of a layer or fewer: "only 4 of the 64 units in layer 2 output anything
# non-zero", "only 3 out of 128 neurons ever fire"
# (what the few do is live: output anything or something non-zero, fire, activate -- not "output exactly 0", "output
# NaN"; not a sparse layer said to be so by design, a hypothetical, a denial, or a state the report says it left)
FEW_ALIVE = lazy_regex.compile(r"(?i)\bonly\s+(?P<alive>\d{1,5})\s+(?:of|out\s+of)\s+(?:the\s+|my\s+)?(?P<all>\d{1,5})\s+"
                               r"(?:hidden\s+)?(?:units|neurons|relus|channels|filters)\b[^.;\n]{0,40}?\b(?:ever\s+)?"
                               r"(?:outputs?\s+(?:anything(?:\s+(?:non-?zero|at\s+all))?|(?:something\s+)?non-?zero)|fire|fires|activate|"
                               r"are\s+(?:non-?zero|alive|active)|give\s+(?:anything\s+)?non-?zero)\b")
FEW_ALIVE_NOT_NOW = lazy_regex.compile(r"(?i)\b(?:if|not that|no,|before|used to|previously|earlier|had been|fixed|now all|"
                                       r"expected|normal|by design|sparse|l1)\b")
FEW_ALIVE_SHARE = 0.25


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def dead_units_said(prose: str) -> str:
    """The words that say the network's hidden units are dead, or output 0 for every input, or that few of a layer's
    are not (FEW_ALIVE), as written (lowercased); or ""."""
    if said := _first_told(DEAD_UNITS, prose, _DEAD_DENIED):
        return said
    text = told(prose)
    for m in itertools.islice(FEW_ALIVE.finditer(text), 5):
        start, end = sentence_around(text, m.start(), m.end(), stops=".;\n")
        if 0 < int(m.group("all")) and int(m.group("alive")) <= FEW_ALIVE_SHARE * int(m.group("all")) \
                and not FEW_ALIVE_NOT_NOW.search(text, start, end) and not _DEAD_DENIED.search(text, max(0, m.start() - 40),
                                                                                                m.start()):
            return " ".join(m.group(0).split())
    return ""


# ... or printed: a column of the log that holds a hidden layer's activations (`mean|h|`, `act_mean`, `hidden`, `relu1`)
# at exactly 0 in its last prints, after a first print above 0 -- every unit of the layer outputs 0 for every input
# (the mean of a ReLU layer's outputs, or of their sizes, is 0 only then; a tanh layer's signed mean may sit at 0). WR-140's
# face, printed by the run itself ("mean|h| 0.0290 ... 0.0000").
ACTIVATION_COLUMN = lazy_regex.compile(
    r"(?i)(?<![\w|])(?P<label>(?:mean|avg|average)[ _]?\|h\d?\||\|h\d?\||h\d?_(?:mean|abs|avg)|(?:mean|avg)_h\d?|"
    r"(?:hidden|relu|activations?)(?:_?\d)?(?:_(?:mean|abs|avg|out))?|(?:mean|avg)_?acts?\d?|acts?\d?_(?:mean|abs|avg))"
    # (not a bare `act`, an RL log's action)
    r"[ \t]*(?:[:=][ \t]*)?"
    r"(?P<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)(?![\w.])")
DEAD_COLUMN_PRINTS = 3          # the last prints at exactly 0 (one or two may be a batch's chance)
COLUMN_LINES = 5000             # (the lines read: a log's, not a whole run's)


# (a label of sizes or of ReLU outputs, which are never below 0: its mean is 0 only where every output is; a signed
# mean's label -- act_mean, h_mean, hidden -- only beside a ReLU the paste names, none of tanh's or its kin's, whose
# mean sits near 0 in a healthy layer)
MAGNITUDE_LABEL = lazy_regex.compile(r"(?i)\||_abs\b|relu")
SIGNED_UNITS = lazy_regex.compile(r"(?i)\btanh\b|\bsigmoid\b|\bgelu\b|\bsilu\b|\bswish\b|\belu\b|\bleaky")
# (a zero printed to 3 decimals or more, or in scientific form: one of 2 decimals may be 0.004)
EXACT_ZERO = lazy_regex.compile(r"0(?:\.0{3,}\d*|\.?0*[eE][-+]?\d+)")


# The share of a layer's outputs above 0 (or at 0), computed by the paste (`(h1 > 0).float().mean().item()`,
# `np.mean(h == 0)`) and handed to print() as it is, each argument that share alone: print() writes a Python float in
# its shortest exact form, so "0.0" above 0 (or "1.0" at 0) is exactly none (every one) -- every unit of the layer gave
# 0 for every input of the batch. Not an argument that formats, rounds or casts it first (an f-string, a `%`, round(),
# `.half()`): 0.00 is also a share of 0.004.
ACTIVE_SHARE = lazy_regex.compile(r"\s*(?:\(\s*(?P<name>[A-Za-z_]\w{0,30})\s*(?P<op>>|==|<=)\s*0(?:\.0*)?\s*\)\s*\.(?:float|double)\(\)"
                                  r"\s*\.mean\(\)|(?:np|numpy|torch|jnp)\.mean\(\s*(?:\(\s*)?(?P<other>[A-Za-z_]\w{0,30})\s*"
                                  r"(?P<op2>>|==|<=)\s*0(?:\.0*)?\s*(?:\)\s*)?\))(?:\.item\(\))?\s*")
_PRINT_THEN_OUTPUT = lazy_regex.compile(r"(?m)^[ \t]*print(?P<args>\([^\n]{1,300}\))[ \t]*(?:#[^\n]*)?\n[ \t]*"
                                        r"(?:(?:#|>>>)[ \t]*)?(?P<out>[-+\d.eE]+(?:[ \t,]+[-+\d.eE]+){0,7})[ \t]*(?:#[^\n]*)?$")


def _active_share_printed(prose: str) -> str:
    """The first layer, made by a ReLU in the paste (made_by_a_relu), whose share of outputs above 0 the paste prints as exactly 0 (or
    whose share at 0, exactly 1); or ""."""
    # (imported here: breaking_constructs reads half precision through precision_said, which reads this module)
    from .breaking_constructs import last_assignment, made_by_a_relu

    for m in itertools.islice(_PRINT_THEN_OUTPUT.finditer(prose), 20):
        args = arguments(m.group("args"), 0) or []
        shares = [ACTIVE_SHARE.fullmatch(arg) for arg in args]
        printed = re.split(r"[ \t,]+", m.group("out").strip())
        if not shares or not all(shares) or len(shares) != len(printed):
            continue
        for share, value in zip(shares, printed):
            name, op = share.group("name") or share.group("other"), share.group("op") or share.group("op2")
            # (the layer's last making before the print: a ReLU's, by call, method or module -- breaking_constructs)
            made = last_assignment(prose, name, m.start())
            if made and made_by_a_relu(made.group(1).split("#")[0].strip(), prose) \
                    and value == ("0.0" if op == ">" else "1.0"):
                return (f"the paste prints the share of `{name}`'s outputs {'above' if op == '>' else 'at'} 0 as {value} "
                        f"(`{' '.join(share.group(0).split())}`): every unit of that ReLU layer gave 0 for every input "
                        "of the batch, as dead units do")
    return ""


def dead_layer_printed(prose: str) -> str:
    """A sentence of the activations column the log prints at 0 (to 3 decimals or more, no minus sign) in its last
    DEAD_COLUMN_PRINTS prints or more after a first print above 0 (ACTIVATION_COLUMN), or of a layer's share of outputs
    above 0 printed at exactly 0 (_active_share_printed); or ""."""
    if shared := _active_share_printed(prose):
        return shared
    columns: dict[str, list[tuple[str, float]]] = {}
    for line in prose.split("\n", COLUMN_LINES)[:COLUMN_LINES]:
        for m in itertools.islice(ACTIVATION_COLUMN.finditer(line), 4):
            columns.setdefault(m.group("label").lower(), []).append((m.group("value"), float(m.group("value"))))
    relu_only = re.search(r"(?i)relu", prose) and not SIGNED_UNITS.search(prose)
    for label, values in columns.items():
        if not MAGNITUDE_LABEL.search(label) and not relu_only:
            continue
        if any(printed.startswith("-") for printed, _ in values) or not EXACT_ZERO.fullmatch(values[-1][0]):
            continue
        zeros = next((i for i, (_, v) in enumerate(reversed(values)) if v != 0), len(values))
        if zeros >= DEAD_COLUMN_PRINTS and len(values) > zeros and values[0][1] > 0:
            return (f"the log prints `{label}` at {values[0][0]} first and at 0 to every digit printed ({values[-1][0]}) "
                    f"in its last {zeros} prints: the layer's units output 0, or next to it, for every input, as dead "
                    "ReLUs do")
    return ""


# (one output that a nan made, said just after it: "once it is nan every knee is predicted as grade 0" -- the argmax of
# a row of nans is its first index)
_AFTER_NONFINITE = lazy_regex.compile(r"(?i)\b(?:nan|nans|inf)\b[^.;\n]{0,40}$")


# Hidden units said to be copies of each other: "all the hidden units give exactly the same number as each other", "the
# neurons are identical to each other". Units that start equal get equal gradients and stay equal
# (weights started at zero or at one constant, WR-110): the layer computes what one unit does.
UNITS_ALIKE = lazy_regex.compile(r"(?i)\b(?:hidden\s+)?(?:units|neurons|activations)\b(?:(?!\b(?:not|never|whether|if)\b|n't)[^.;\n]){0,40}?"
                                 r"\b(?:gives?|outputs?|are|have|has|"
                                 r"show)\s+(?:exactly\s+|all\s+)?(?:the\s+)?same\s+(?:[\w-]+\s+){0,2}?as\s+each\s+other\b|"
                                 r"\b(?:hidden\s+)?(?:units|neurons)\b[^.;\n]{0,30}?\b(?:are|look|stay|remain)\s+(?:exactly\s+|all\s+)?"
                                 r"(?:identical|copies)\s+(?:to|of)\s+(?:each\s+other|one\s+another)\b|"
                                 # "the 32 feature maps of the first conv layer, they are all exactly the same picture": a layer's
                                 # maps or units all alike, the clause ending there (not "the same size as", "the same as in")
                                 # (not a setting compared, "hidden units and dropout are the same", nor a before and after,
                                 # "the filters before and after training are identical")
                                 r"\b(?:feature\s+maps|filters|kernels|channels|(?:hidden\s+)?units|neurons)\b"
                                 r"(?:(?!\b(?:not|never|whether|if|and|before|after|as|paper)\b|n't)[^.;\n]){0,40}?\b(?:are|look|were|stay|remain)\s+(?:all\s+)?"
                                 r"(?:exactly\s+)?(?:the\s+same|identical)(?:\s+(?:picture|image|map|pattern|thing))?(?=\s*(?:[.;,!\n]|$))")


def units_alike_said(prose: str) -> str:
    """The words that say the hidden units are copies of each other, as written (lowercased); or ""."""
    return _first_told(UNITS_ALIKE, prose)


# A training accuracy said to be 90% or more ("the accuracy on the training set reaches 0.96"): a network that learned
# its training data passes its input on, so one output for every input elsewhere (at test time) is no dead or
# symmetric network's face
_HIGH = r"(?<![\d.])(?:0?\.9\d*|9\d(?:\.\d+)?\s*%|1\.0+\b|100\s*%)(?![\d.])"
# (not a bound or a wish: "never goes above 0.9", "0.95 would be fine")
_NO_BOUND = r"(?:(?!\b(?:above|over|below|under|would|should|expect\w*|paper|want\w*)\b)[^.\n]){0,20}?"
TRAINING_ACCURACY_HIGH = lazy_regex.compile(r"(?i)\btrain\w*\s+(?:\w+\s+){0,2}?acc(?:uracy)?\b" + _NO_BOUND + _HIGH + r"(?!\s+would)|"
                          r"\bacc(?:uracy)?\s+(?:in|on|of)\s+(?:the\s+)?train\w*(?:\s+\w+){0,2}?\s+(?:is|was|of|at|reaches|"
                          r"reached)\s+(?:about\s+|around\s+)?" + _HIGH)


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def one_output_said(prose: str) -> str:
    """The words that say the model gives one output for every input, as written (lowercased); or ""."""
    return _first_told(ONE_OUTPUT, prose, _AFTER_NONFINITE)


def one_output_untrained(prose: str) -> str:
    """one_output_said, in a report that says no training accuracy of 90% or more (TRAINING_ACCURACY_HIGH): the face
    of a network that passes nothing of its input on; or ""."""
    return "" if TRAINING_ACCURACY_HIGH.search(prose) else one_output_said(prose)


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def weights_frozen_said(prose: str) -> str:
    """The words that say the weights do not change over a stretch of training, as written (lowercased); or "". Not
    in a sentence that freezes them on purpose, loads them, or compares runs."""
    text = told(prose)
    for m in itertools.islice(WEIGHTS_FROZEN.finditer(text), 10):
        start, end = sentence_around(text, m.start(), m.end(), stops=".\n")
        sentence = text[start:end]
        # (nor asked, "...: identical?", nor supposed, "identical would mean a bug")
        if _DENIED_BEFORE.search(text, max(0, m.start() - 40), m.start()) or ON_PURPOSE.search(sentence) \
                or not TRAINING_SPAN.search(sentence) or text[m.end():m.end() + 3].lstrip().startswith("?") \
                or _TAKEN_BACK_AFTER.search(text, m.end(), end):
            continue
        return " ".join(m.group(0).split())
    return ""


# The loss said to jump and then to freeze at one value: "it shot up twice in epoch 2, and from then on it reads 1.0986 at
# every epoch", "after a few jumps the cross-entropy has not moved at all". A step
# large enough to throw the loss up can push ReLU units below zero for every input; dead, they get no gradient, and
# once a layer's units are all dead the output is one constant whatever the input (WR-140's stall after spikes). The
# jump said first, the freeze after it, within a sentence or the next; neither denied nor asked.
# (not at each epoch's start: "spikes at every epoch boundary" is the data's order)
_JUMPED = r"\b(?:jump\w*|spik\w*|bumps?|shoots?\s+up|shot\s+up|blips?)\b(?!\s+(?:at|on)\s+(?:every|each)\b)"
# (a value said again at every epoch, not "I log it at every step"; frozen or stuck said of the loss or "it", not of a
# rate or a backbone)
_FROZE = (r"(?:\b(?:exact(?:ly)?\s+)?(?:the\s+)?(?:exact\s+)?same\s+(?:value|number|loss)\b[^.;\n]{0,30}?\b(?:every|each|all|"
          r"to\s+the\s+last\s+digit)\b|\b(?:is|stays?|prints?|shows?|reads?|exactly)\s+\d*\.\d+\s+(?:at|for|on)\s+every\s+"
          r"(?:single\s+)?(?:epoch|step|iteration|batch)\b|"
          r"\bidentical\s+(?:at\s+|for\s+)?every\s+(?:epoch|step|iteration|batch)\b|"
          r"\b(?:has\s*n[o']t|has\s+not|have\s*n[o']t|never|does\s*n[o']t|did\s*n[o']t)\s+(?:changed|moved|change|move)\s+"
          r"(?:at\s+all|since|again|a\s+bit)\b|\b(?:loss|it)\s+(?:\w+\s+){0,2}?(?:frozen|stuck)\s+at\b|"
          r"\bto\s+the\s+last\s+digit\b)")
JUMPED, FROZE = lazy_regex.compile(r"(?i)" + _JUMPED), lazy_regex.compile(r"(?i)" + _FROZE)
JUMP_REACH = 200
_ASKED_BETWEEN = lazy_regex.compile(r"\?|\b(?:if|whether)\b")


def froze_after_jumps_said(prose: str) -> str:
    """The words that say the loss jumped and then froze at one value (a jump within JUMP_REACH characters before the
    freeze, nothing asked between), as written (lowercased); or "". (Each freeze looks back a bounded way: linear.)"""
    text = told(prose)
    for froze in itertools.islice(FROZE.finditer(text), 20):
        low = max(0, froze.start() - JUMP_REACH)
        jump = next((m for m in JUMPED.finditer(text, low, froze.start())
                     if not _ASKED_BETWEEN.search(text, m.start(), froze.end())), None)
        if jump and not _DENIED_BEFORE.search(text, max(0, jump.start() - 40), jump.start()) \
                and not denied_before(text, jump.start(), reach=15) \
                and text[sentence_around(text, froze.start(), froze.end(), stops=".;\n?!")[1]:][:1] != "?":
            return " ".join(text[jump.start():froze.end()].split())
    return ""
