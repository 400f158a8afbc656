"""The vocabulary of a report's plain words: a small thesaurus folds the many ways of writing one idea (fp16 /
float16 / half / amp; nan / NaN / -nan; lr / learning rate) into one token, and the timing words (timing_words.py)
into theirs; a text's tokens are then its folded words without stop words, lightly stemmed, less the symptoms a
negator before them rules out ("there are no nan values", "I am not using fp16").

Most people who ask for help paste a sentence, a traceback and a few lines, not a clean log: every reading of their
words starts from this fold (fold_text), and the entries' documents are folded the same way (entry_documents.py).
"""
from __future__ import annotations

import functools
import re

from .timing_words import ALWAYS_TOKEN, NOT_ALWAYS, SEQUENCE, TIMING, WHEN, timing_of
from . import lazy_regex


# Texts folded together are joined by NUL (_folded_many): neither a word character nor whitespace
# (\x1c-\x1f are whitespace to `\s`); no pattern of the thesaurus has a wildcard or a negated class that
# could match it, and the one replacement that reads around its match (_half_output) stops at it.
_APART = "\x00"
# The model's output said to be 0.5 ("the outputs are all 0.5", "predicts 0.5 for everything"): what a
# sigmoid gives for an input of exactly 0, as a last layer whose weights and bias are all zero is handed
# for every example. Only a 0.5 said of the outputs counts, not a threshold, a rate or a metric at 0.5.
_OUTPUT_BEFORE = lazy_regex.compile(r"\b(?:outputs?|predict\w*|probabilit(?:y|ies)|sigmoid\w*|generat\w*)\b[^.,;:!?\n]{0,40}$")
_NOT_OUTPUT = lazy_regex.compile(r"\b(?:thresh\w*|cut-?off|dropout|lr|learning rate|momentum|accuracy|acc|iou|dice|scores?"
                                 r"|weight decay|ratio|rate|above|below|over|under|greater|less|more|exceed\w*)\b|[<>]")


def _half_output(m: re.Match) -> str:
    # only its own text: texts folded together (_folded_many) stand side by side in m.string
    before = m.string[max(0, m.start() - 60):m.start()].rsplit(_APART, 1)[-1]
    after = m.string[m.end():m.end() + 20].split(_APART, 1)[0]
    near = before[-30:] + " " + after.split(".")[0]
    if _OUTPUT_BEFORE.search(before) and not _NOT_OUTPUT.search(near):
        return " sigmoidzero "
    return m.group(0)


# Optimizers whose constructor may take the rate as its first argument (`Adam(1e-4)`), as the folded text spells them
OPTIMIZER_NAMES = ("adam", "adamw", "adamax", "sgd", "rmsprop", "adagrad", "adadelta", "nadam", "lion", "lamb",
                   "adafactor", "lars")
# (every run or every time, within the clause: "... every run", "..., every single time")
_EVERY_RUN_WORDS = r"(?:every|each)\s+(?:single\s+)?(?:run|time)\b"
_EVERY_RUN = r"[^.;\n]{0,30}?\b" + _EVERY_RUN_WORDS
_SAME_PLACE = r"(?:exactly\s+)?the\s+(?:exact\s+)?same\s+(?:step|batch|iteration|iter|place|point|spot)\b"
# (pattern, token): one idea, many spellings. Applied to lower-cased text, longest phrases first.
THESAURUS = [
    # a traceback's frame lines are Python's words, and their paths (venv, lib, site-packages) the machine's;
    # the code lines under them and the function names stay -- but a frame in an installed library (its
    # function and its code line: Apex's "out_scale/grads_have_scale") is the library's, not the reporter's
    (r'\bfile "[^"\n]*(?:site|dist)-packages[^"\n]*", line \d+, in [^\n]*(?:\n[ \t]+[^\n]*)?', " "),
    (r'(?m)^[a-z0-9 .\t]{0,80}?(?:error|exception)[ \t]{1,60}traceback \(most recent call last\)|\btraceback \(most recent call last\):?|\bfile "[^"\n]*", line \d+(?:, in\b)?', " "),
    # the same in IPython and Colab: a frame is `path in function(...)` (IPython 7) or `File path:492, in
    # function(...)` (IPython 8), followed by its numbered code lines (`    490 ...`, `--> 492 ...`); a frame
    # of the reporter's own cell is `<ipython-input-12-...> in <cell line: 4>()` or `Cell In[12], line 8`
    (r'(?m)^[ \t]*(?:file )?[^\n"<]{0,300}?(?:site|dist)-packages[/\\][^\n]{0,300}? in [^\n]*(?:\n-*>?[ \t]*\d+\b[^\n]*)*',
     " "),
    (r'<ipython-input-[^>\n]{0,80}>(?: in <[^>\n]{0,80}>\(\))?|\bcell in ?\[\d*\], line \d+|\bfile [^\n"]{1,400}?:\d+, in\b', " "),
    # anomaly mode's own words around the forward call it quotes (torch/autograd/graph.py: "Traceback of forward
    # call that caused the error:", and the engine call PyTorch's source line carries with its comment)
    # (text as prepared: identifiers split at their underscores)
    (r"\btraceback of forward call that caused the error:?|\b(?:return )?variable\. execution engine\.run backward\("
     r"[^\n]{0,200}|\(triggered internally at [^\n()]{0,200}python anomaly mode\.cpp:\d+\.?\)", " "),
    # Apex's calls say mixed precision is on; their "initialize" is not the weights' initialisation
    # (and the precision flags: Lightning's `precision="16-mixed"`, "switched to 16-mixed", a command's `--precision 16`;
    # not "bf16-mixed", nor a metric, "precision: 16.7%")
    # (16 bits of a float, not of a pixel or a sample: "16-bit floats", "16bit mixed precision"; not "16-bit TIFFs")
    (r"\b(?:amp\.(?:initiali[sz]e|scale[ _]loss)|fp16|float16|half[- ]precision|mixed[- ]precision|amp|autocast"
     r"|16[ -]?bit(?=[ -]+(?:floats?|floating|precision|mixed|amp|automatic|native|weights|half)\b)"
     r"|o[12]|loss[ _-]?scal\w*|grad[ _-]?scaler)\b"
     # (a bare 16 only as a flag or a setting: `--precision 16`, `precision=16)` in a call, a config line's
     # `precision: 16`; not a metric printed beside others, "precision: 16, recall: 12")
     r"|\bprecision\s*(?:[=:]\s*)?(?P<q>['\"])16(?:-mixed|-true)?(?P=q)|--precision[ =]16\b(?![\w.%])"
     r"|\bprecision\s*=\s*16(?=\s*[,)]\s*(?!\w*\s*(?:recall|f1|acc\w*|top)))|(?m:^[ \t]*precision\s*:\s*16[ \t]*$)"
     r"|\b16-(?:mixed|true)\b",
     " fp16 "),
    # (not half of something: "half the lr", "half of the data", "half an epoch", "half the batch size")
    (r"\bhalf\b(?!\s+(?:the|of|an?|as|my|its|their|that|this|these|those|way|time|hours?|epochs?|size|its))", " fp16 "),
    (r"\b(?:bf16|bfloat16)\b", " bf16 "),
    # (an optimizer built with its rate as the first argument names the rate: "with Adam(1e-4) it stops at the same
    # batch")
    # (the bracket only: the optimizer's name stays a word of the text)
    # (the bracket is looked for first, and the names behind it only there: eleven lookbehinds tried at every position
    # were a seventh of the time a report took to fold)
    (r"\((?:" + "|".join(rf"(?<=\b{name}\()" for name in OPTIMIZER_NAMES) + r")\s*(?=\d|\.\d)", " lr "),
    (r"\b(?:learning[ _-]?rates?|lr|step[ -]size)\b", " lr "),
    (r"\bwarm[ _-]?up\w*|\bburn[ _-]?in\b", " warmup "),
    # handwriting, what MNIST's digits are: no code of anyone's
    (r"\bhand[ -]?written (?=(?:\w+ )?(?:digits?|characters?|letters?|numerals?|text|notes?|words?|signatures?)\b)",
     " handwriting "),
    # code the reporter wrote, not a library's: "hand-written", "my own implementation of the focal loss", "I implemented
    # the CRF layer myself", "a custom loss" (not "from scratch": that is training without pretrained weights)
    (r"\bhand[ -]?(?:written|rolled|coded|made)\b|\bwritten by (?:hand|me|us|myself)\b|\bby hand\b"
     r"|\b(?:my|our|his|her|their) own (?:implementation|version)\b"
     r"|\b(?:my|our|his|her|their) own(?= (?!(?:data\w*|training|validation|test|custom)\b)(?:\w+ )?"
     r"(?:loss(?:es)?|layers?|softmax|sigmoid|activations?)\b)"
     r"|\bcustom(?= (?:\w+ )?(?:loss(?:es)?|layers?|objectives?|activations?|softmax)\b)", " handwritten "),
    # (what was written must be a loss, a layer or an algorithm of the model's: not "I wrote the data loader myself")
    (r"\b(?:implemented|wrote|written|coded) ((?:the|a|my) (?:\w+(?:'s)? ){0,2}(?:loss|layer|softmax|sigmoid|activation|"
     r"attention|partition function|forward algorithm|crf|normali[sz]ation|cross entropy)\w*(?: \w+)?) (?:myself|ourselves)\b",
     r" handwritten \1 "),
    # a focal loss is a cross-entropy, each term weighted by (1 - p)^gamma (Lin et al., 2017) -- not a library's named
    # with it, a call or a bracket after it (torchvision's sigmoid_focal_loss, Keras's FocalCrossentropy compute it from
    # the logits, stably)
    (r"(?<!sigmoid )\bfocal loss\b(?![^.\n]{0,40}?\b(?:sigmoid focal|torchvision|focal ?cross ?entropy|tfa|kornia|"
     r"segmentation models)\b)", " focal cross entropy loss "),
    (r"\b(?:batch[ _-]?size|batchsize|bs)(?: of| is| was)?(?: *[=:])? *(?:1|one)\b|\b(?:one|a single|1) (?:example|sample"
     r"|image)s? (?:per|in a|in each|in the) batch\b|\bbatch(?:es)? (?:of|with|holds|has) (?:1|one|a single)\b", " batchone "),
    (r"\b(?:batch[ _-]?size|batchsize|bs)\b", " batchsize "),
    (r"\b(?:num(?:ber)?[ _-]?(?:of[ _-])?class(?:es)?|n_classes|class[ _-]?count|classes count)\b", " numclasses "),
    # the gradient's norm: not the norm a normalisation divides by. Printed as a field beside the loss
    # (HF Trainer's 'grad_norm': 1.2, fairseq's gnorm 1.2, MMEngine's grad_norm: 1.2) it is the log's
    # vocabulary, not a description, and says nothing of which failure (the scanner reads its value);
    # said in words ("the gradient norm explodes") it is the gradients'.
    (r"\b(?:grad(?:ient)?s? ?norms?|gnorm|total ?norm)\b(?:\([^)]*\))?['\"]?[ \t]*(?:[:=][ \t]*)?"
     r"(?=[-+]?(?:\d|\.\d|nan\b|inf\b))", " "),
    (r"\b(?:grad(?:ient)?s?(?:['’]s)? ?norms?|gnorm|total ?norm|norms? of (?:the )?grad(?:ient)?s?)\b", " gradnorm "),
    (r"\b(?:batch[ _-]?norm\w*|bn)\b", " batchnorm "),
    (r"\badamw\b", " adam "),      # (Adam with its weight decay decoupled: Adam's first steps all the same)
    (r"\brelus\b", " relu "),      # (the stemmer keeps a plural's "us")
    (r"\bmiou\b", " mean iou "),
    (r"\b(?:normali[sz]\w*|standardi[sz]\w*|unscaled|rescal\w*|min[ -]?max\w*|scal(?:e|ed|ing) (?:the )?"
     r"(?:inputs?|features?|data|targets?))\b", " normalise "),
    (r"\b(?:initiali[sz]\w*|init|uninitiali[sz]\w*)\b", " init "),
    (r"\b(?:datasets?|data ?sets?|data|dataloaders?|data loaders?)\b", " data "),
    # (a segmentation's masks are its labels: "a binary mask" is no attention mask)
    (r"\b(?:(?:binary|segmentation|seg|ground[ -]?truth|gt|label|target)[ _-]masks?|labels?|targets?|"
     r"ground[ -]?truths?|gt|masks|mask (?:values?|images?)|annotations?|class ids?)\b", " label "),
    # ... and so are their pixels: "masks whose pixel values are 0 and 255" says what the labels hold, not the inputs
    (r"\b(label|mask) ([^.;!?\n]{0,40}?)\bpixels?(?: values?)?\b", r" label \2 label "),
    (r"\b(?:diverg\w*|explod\w*|blows? up|blew up|blowing up)\b", " diverge "),
    # (a score that climbs is learning, not a loss's climb: "accuracy climbs normally", "the AUC goes up")
    (r"\b(accuracy|acc|val_acc|auc|f1|score|iou|dice|precision|recall|map|bleu)\b((?:\s+\w+){0,2}?)\s+"
     r"(?:climb\w*|increas\w*|go(?:es)? up|going up|ris(?:es|ing)|rose)\b", r" \1\2 improves "),
    # (nor is a gap between the training and the held-out curves that grows: "the gap keeps growing", "the difference
    # between train and val loss increases" -- a gap's own normal answer reads it; not a gap between a prediction and
    # its target, an error that grows)
    (r"\b(gap|difference)((?:\s+(?:between\s+(?:them|the\s+(?:two\s+)?curves)|(?:between|in|of|to)\s+(?:the\s+)?"
     r"(?:train\w*|validation|val|test|eval\w*|generali[sz]ation)(?:\s+(?:loss(?:es)?|curves?|accurac\w*|acc|scores?))?"
     r"(?:\s+(?:and|vs\.?|versus|&)\s+(?:the\s+)?(?:train\w*|validation|val|test|eval\w*)(?:\s+(?:loss(?:es)?|curves?|"
     r"accurac\w*|acc|scores?))?)?))?)\s+(?:(?:is|are|keeps?)\s+)?(?:grow\w*|increas\w*|widen\w*|ris(?:es|ing)|rose|"
     r"climb\w*|go(?:es)? up|going up)\b", r" \1\2 widens "),
    # "increase" of the loss, not "increase the batch size" (a remedy, or a change the report made)
    (r"\b(?:bigger and bigger|larger and larger|keeps? (?:growing|increasing|rising)|climb\w*"
     r"|increas\w*(?! +(?:(?:the|my|our|its|this|that) +)?(?:batch\w*|lr|learning|number|num|size|dropout|weight decay"
     r"|model|hidden|layers?|width|depth|capacity|memory|workers?|resolution|image size)\b)"
     r"|go(?:es)? up|going up|gets? bigger|getting bigger|(?:becom\w*|became|gets?|getting|grow\w*) (?:very |too |so )?"
     r"(?:large|big|huge))\b", " climb "),
    (r"\b(?:very large|too large|so large|huge|enormous)\b", " large "),
    # a magnitude written with thousands separators, or in words, is "in the thousands" (not a count
    # of steps, examples or parameters, nor a time's milliseconds, 17:13:30,133)
    (r"(?<![\d:.,])\b\d{1,3}(?:,\d{3})+\b(?!\s*(?:steps?|iter\w*|epochs?|images?|samples?|examples?|batch\w*|rows?|records?"
     r"|params?|parameters?|points?|files?|classes?|tokens?|words?))|\b(?:thousands|millions|billions)\b",
     " thousand "),
    (r"\b(?:exp|exponential\w*|logsumexp)\b", " exp "),
    # an output printed as 0.5 (see _half_output)
    (r"(?<![\w.])0?\.50*(?!\d|\.\d)", _half_output),
    # a loss or an output that does not move: the plateau's signature said in words
    (r"\b(?:(?:stays?|stayed|remains?|remained|stuck at|all|always|is always) (?:the )?(?:same|constant)|stuck"
     r"|(?:doesn'?t|does not|don'?t|do not|won'?t|will not|never|not) (?:go(?:ing)? down|decreas\w*|improv\w*)"
     r"|always (?:equals?|equal to|gives?|outputs?|predicts?))\b", " stuck "),
    # a failure that comes and goes: a bad batch's mark
    (r"\b(?:sometimes?|occasionally|randomly|at random|from time to time|intermittent\w*|(?:every )?now and then"
     r"|(?:every )?once in a while|every so often)\b",
     " intermittent "),
    (r"\b(?:np|torch|tf|math|jnp)\.log\b|\blog\(|\blog of\b|\blogarithm\w*", " logfn "),
    # the framework a report names is where the reader met the failure, not which failure it is: every
    # entry covers each one (TensorFlow and PyTorch arrive here split at their capitals; after logfn,
    # so that torch.log keeps its meaning, and torch.empty its "empty")
    (r"\b(?:tensor ?flow|py ?torch|torch|tf|keras|jax|flax)\b", " "),
    (r"\b(?:divi(?:de|sion) by zero|zero ?division ?error|division by zero)\b", " divzero "),
    # the exception NumPy's errstate(raise), JAX's debug_nans and Detectron2 raise: the message after it says
    # what; its "floating" is no float overflow
    (r"\bfloating ?point ?error\b", " "),
    # the class of a warning or an exception printed before its message (RuntimeWarning:, ValueError:) is
    # Python's word; the message after it says what. Only the classes that name no failure of their own:
    # OverflowError keeps its overflow (after divzero, which a ZeroDivisionError keeps), an error stays an
    # error, and a reporter's own "reconstruction error:" keeps its word
    (r"\b(?:runtime|user|deprecation|future|resource|pending deprecation|syntax) ?warning:", " "),
    (r"\b(?:runtime|value|type|index|key|attribute|assertion|name|lookup|system|cuda|invalid ?argument"
     r"|not ?implemented) ?(?:error|exception):", " error "),
    # a negative of something other than the loss ("negative samples", "510 negatives per positive", "false
    # negatives", "the negative class") says nothing went below zero
    # (not "the loss dips into the negatives": values below zero)
    # (a count starts where no digit or comma is before it: tried at each digit of "1,1,1,..." it was quadratic)
    (r"(?<![\d,])\d[\d,]*\s+negatives\b|\b(?:false|hard|true|easy) negatives?\b"
     r"|\bnegatives?(?=\s*(?:samples?|class\w*|examples?|pairs?|labels?|instances?|sampl\w*|mining|per)\b)", " negsample "),
    (r"\b(?:negative|-ve)\b", " negative "),
    # (a capacity's overflow is no float's: tokens past an expert's capacity, "overflowed tokens", a replay buffer or a
    # queue that is full, a stack -- not a buffer of numbers, "the fp16 buffer overflowed")
    (r"\b(?:capacity|stack|queue|(?:replay|ring|circular|rollout|prefetch)\s+buffer)\s+overflow\w*|"
     r"\boverflow\w*\s+(?:(?:the|its|their|an?|each|expert|experts'|expert's)\s+){0,3}(?:capacity|queue)\b|"
     r"\boverflow(?:ed|ing)?\s+tokens?\b|\btoken\s+overflow\b|\btokens?\s+(?:that\s+)?overflow\w*\s+(?:(?:the|its|their|"
     r"an?|each|expert|experts'|expert's)\s+){0,3}capacity\b", " "),
    (r"\b(?:overflow\w*)\b", " overflow "),
    (r"\b(?:underflow\w*)\b", " underflow "),
    (r"-?\bnan(?:s)?\b|\bnot a number\b", " nan "),
    (r"\b(?:inf|infinity|infinite|infs)\b", " inf "),
    # val_loss, val/loss, eval_loss, val acc: the validation split's metrics (identifiers are split at _
    # before this). A bare "val" says validation or value: it is a stop word, which also keeps a report's
    # "val" from matching the variable input_val in an entry's declared assertion.
    (r"\b(?:e?val)(?=[ /.-]+(?:loss|acc|accuracy|set|split|data|dice|iou|map|error|mae|mse|rmse|auc|f1|ppl|top\d*"
     r"|metric\w*|score\w*)\b)", " validation "),
    # the same place said to break every run: "at the same step every run", "at batch 263, every single time" (its
    # number already folded to when it is, above) -- a place tied to the data, which a run's seed does not move
    # (or said of several runs that all broke there: "1e-3, 1e-4 and 1e-5 all die at exactly the same iteration" -- not
    # one seed's run replayed, which breaks where it broke whatever the cause, nor runs that merely log or warm up there)
    # ("always at the same step" says every run, as "every run" does -- but not of one seed's run: "for a given seed")
    (r"\b(?:at|on|in|from)\s+" + _SAME_PLACE + r"(?=" + _EVERY_RUN + r")"
     r"|\balways\s+(?:at|on|in)\s+" + _SAME_PLACE + r"(?!\s+for\s+(?:a|each|any|one)\s+(?:given\s+|fixed\s+)?seed)"
     r"|\ball\b[^.;\n]{0,30}?\b(?:die[sd]?|diverge[sd]?|break|broke|blow\s+up|blew\s+up|crash(?:es|ed)?|fail(?:s|ed)?|"
     r"(?:go|goes|went|turn|turns|turned|hit|hits|reach|reached)\s+(?:a\s+)?nan)\s+(?:at|on|in)\s+" + _SAME_PLACE +
     r"|\bwhen_(?:early|later)\b(?=\s*(?:,\s*)?" + _EVERY_RUN_WORDS + r")", lambda m: f"{m.group(0)} samestep "),
    (r"\b(?:epochs?)\b", " epoch "),
    (r"\b(?:steps?|iterations?|iters?|batches)\b", " step "),
]


FOLDS = [NOT_ALWAYS] + WHEN + THESAURUS          # (pattern, token) in the order _fold applies them
_COMPILED = [(lazy_regex.compile(p), t) for p, t in FOLDS]
WORD = lazy_regex.compile(r"[a-z][a-z0-9_]+")
# Words of a sentence about anything, and of any bug report: they say nothing about which failure it is.
# (The verbs of producing -- produce, generate, yield -- are among them while no entry is about a data
# generator; revisit them when one is.)
STOP = frozenset("""a an the and or but if then else of to in on at by for with from as is are was were be been being
this that these those it its it's i my me we our you your he she they them their there here have has had do does did
not no so too very can could would should will just than into out up down over under again about after before when
while which what who whom why how all any both each few more most other some such only own same also get gets got getting
one two three like use using used run running ran code model training train trained please help thanks thank anyone
know issue problem question see seems seem still even though because try tried trying work works worked working find
found display displayed wrong go goes going went where print printed printing really new don doesn didn isn wasn
make made set change changed want need think way time thing things well good lot much many something anything
every ever never always sometimes now already yet able let look looks looked show shows shown give gives given take
took come came call called keep kept happen happens happened cause causes caused reason fix fixed solve solved
hi hello dear sir regards thanks everyone could someone anybody idea ideas suggestion suggestions
become becomes became becoming value values first kind following
produce produces produced producing generate generates generated generating yield yields yielded yielding
through throughout around among inside within per via upon until till once must thus hence although
whereas whatever whichever anyway therefore towards toward despite unlike val""".split())


def stem(word: str) -> str:
    """A light stemmer: plurals and the common verb endings, so values/value and
    diverged/diverging meet."""
    if len(word) <= 4:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[:-len(suffix)]
    return word


# An identifier is cut before a capital that follows two small letters or digits ("CrossEntropy", "useAMP",
# "LeakyReLU"), or one small letter that starts it before a capitalised word ("xTrain", "nEpochs"); not inside an
# abbreviation written in mixed case, a capital, one small letter, capitals ("ReLU", "IoU", "LoRA"), which a report
# writes as "relu", "iou", "lora" too. (An all-capital run is left whole, as before: "MSELoss", "RMSprop"; a NaN inside
# a name is folded by NONFINITE_INSIDE.)
CAMEL = lazy_regex.compile(r"(?<=[a-z0-9]{2})(?=[A-Z])|(?<=\b[a-z])(?=[A-Z][a-z]{2})|_")
NONFINITE_INSIDE = lazy_regex.compile(r"(?<=[a-z])NaN(?=[A-Z]|\b)")
# NaN, NaNs and -nan are one word whatever their case: folded before identifiers are split at
# their capitals, which would cut NaN into "Na N".
# (bounded by ASCII letters and digits only: a nan beside the letters of another script, "NaNになります", "nan이", is one)
NONFINITE = lazy_regex.compile(r"-?(?<![A-Za-z0-9_])(?:nan|NaN|NAN|Nan)s?(?![A-Za-z0-9_])")


# A nan or an inf denied in another language, whose negator English's word-before rule does not see: after the word in
# Korean, Japanese, Russian and Turkish ("nan은 안 뜹니다", "NaNは出ません", "NaN нет", "NaN yok"), before it in Chinese,
# Russian, German, French, Spanish, Portuguese, Dutch, Italian, Polish and the Scandinavian languages ("没有出现nan",
# "нет nan", "keine NaN", "pas de nan", "sin nan", "ni nan", "sem nan", "geen NaN", "nessun NaN", "brak NaN", "ingen NaN").
# Read as English's "no nan".
DENIED_ELSEWHERE = lazy_regex.compile(
    # (the verb may come after another noun and its particle: "NaNも警告も出ていません", "nan도 경고도 없습니다")
    r"(?i)(?<![a-z])(?:nan|inf)s?[ \t]{0,2}[은는이가도를はがもに]{0,2}(?:[^\n。．.!?！？、，,]{0,12}?[은는이가도를はがもに])?[ \t]{0,3}"
    r"(?:안|않|없|못|(?:出|で|なら|なり|あり|発生し)\w{0,3}?(?:ません|ない|なかった)|(?<=[ \t])(?:(?:нигде|никогда|ни разу)[ \t]+)?(?:нет|не|yok|yoktu|nahi|nahin|nahii?n?|nhi)\b"
    # (not a nan that does not go away: "NaN не исчезает", "NaN nahi ja raha", "NaN yok olmuyor")
    r"(?![ \t]+(?:исчез|пропада|уход|ухо|ja\b|jaa|jata|jaata|ol|gitm)))|"
    r"(?:没有|沒有|没|不会|不會|无|無|(?<![\w])(?:нет|без|не|ni|keine?n?|pas de|jamais de|aucune?|sans|sin|sem|não|nao|geen|nessun[oa]?|niente|brak|żadn\w*|"
    r"nie ma|nie (?:jest|są|było|był[oa]?|pojawia się)|ningún|ningun[oa]?|ninguna|nenhuma?|tidak(?: ada)?|tak ada|tanpa|bukan|"
    r"không(?: có| bị)?|není|žádn\w*|ingen|hiç|no hay|no tengo|não há|não tem|non ci sono|non c'è|non ho|"
    r"n'y a pas de|n'ai pas de|es gibt keine?n?))[ \t]{0,3}"
    r"(?:出现|出現|任何|ни одного|any)?[ \t]{0,2}(?:nan|inf)s?(?![a-z])|"
    # ... and English's own from further away than a clause's four words: "nothing in the data is nan", "none of the
    # inputs are inf"
    r"\b(?:nothing[ \t]+(?:in|of|from)|none[ \t]+of|nothing(?=[ \t]+(?:is|was|are|were)\b))\b"
    r"(?:(?!\b(?:and|but|so|then|while|yet)\b)[^.;:,!?\n]){0,30}?"
    r"\b(?:is|are|was|were|turns?|turned|becomes?|became)[ \t]+(?:a[ \t]+)?"
    r"(?:nan|inf)s?(?![a-z])")


_NAN_OR_INF = lazy_regex.compile(r"(?i)(?<![a-z])(?:nan|inf)s?(?![a-z])")


def _denied(m: re.Match) -> str:
    """The denial with its nan read as English's "no nan" (the words around it kept: "none of the inputs are")."""
    return _NAN_OR_INF.sub(" no nan ", m.group(0), count=1)


def _prepared(text: str) -> str:
    text = NONFINITE_INSIDE.sub(" NaN ", text)       # ("TerminateOnNaN")
    return " " + CAMEL.sub(" ", NONFINITE.sub(" nan ", DENIED_ELSEWHERE.sub(_denied, text))).lower() + " "


def _fold(text: str, patterns: list = _COMPILED) -> str:
    for pattern, token in patterns:
        text = pattern.sub(token, text)
    return text


@functools.lru_cache(maxsize=8)     # one report is folded for its tokens, its failure words and its tried remedies
def fold_text(text: str) -> str:
    """Lower-cased text with identifiers split (ExpBackward, loss_rcnn_bbox) and the thesaurus and
    timing phrases folded into their tokens."""
    return _fold(_prepared(text))


def _folded_many(texts: list[str]) -> list[str]:
    """fold_text of each text, with the thesaurus run once over all of them: the catalogue's 500 or so
    texts (phrases, titles, sections) fold in one pass of each pattern instead of 500, which is most
    of the time `trainwreck diagnose` spends before it reads a log. A text holding the separator, or a
    pattern that swallowed one (a thesaurus edited later), makes each text fold alone."""
    if any(_APART in t for t in texts):
        return [fold_text(t) for t in texts]
    parts = _fold(_APART.join(_prepared(t) for t in texts)).split(_APART)
    return parts if len(parts) == len(texts) else [fold_text(t) for t in texts]


# A symptom or a condition that the text rules out ("there are no nan values in my data", "I am not
# using fp16 or amp") is not evidence of it: these tokens are dropped when one of the four words before
# them, in the same clause, is a negator. A negated remedy ("no warmup", "without an epsilon")
# keeps its token: its absence is the failure the entry describes. ("No BatchNorm" is a layer that is not there to
# divide by a zero variance.)
RULED_OUT = frozenset("nan inf overflow underflow fp16 bf16 negative divzero batchnorm".split())
# ... and these only right after the negator ("no climb", "does not increase", "doesn't diverge"): they are often
# the second half of a contrast ("does not converge and increases", "without warmup it explodes")
RULED_OUT_NEXT = frozenset({"climb", "diverge"})
_NEGATING = frozenset("no not never without nor none don doesn didn isn wasn aren weren won".split())
CLAUSE = lazy_regex.compile(r"[.,;:!?()\n]")


# "Without fp16 it trains fine", "without amp, the loss goes down": a contrast that names what breaks the run,
# not a denial that it is used. Its "without" negates nothing.
# (the subject, when named, takes its own space after it: two optional runs of spaces side by side split a long run
# every way, and "without" before 16 kB of spaces took 250 s)
WITHOUT_IT_WORKS = lazy_regex.compile(r"\bwithout\b(?=[^.;:!?\n]{1,40}?[\s,)]\s*(?:(?:it|the model|the net\w*|training|the run|"
                                      r"everything|all)\s+)?(?:works?|trains?|runs?|converges?|is fine)\b"
                                      # (not when the same sentence goes on to break: "without amp it trains, then nan")
                                      r"(?![^.;!?\n]{0,160}?\b(?:nan|inf|diverg\w*|explod\w*|blow\w*)\b))")


# Half precision switched off in a setting's words: "fp16=False", "fp16: false", "fp16 turned off" (folded).
# Not in a contrast that says the run works so ("with fp16=False everything trains fine": fp16 breaks it).
HALF_OFF = lazy_regex.compile(r"\bfp16\b(?=\s*(?:=|:)\s*(?:false|0|no)\b|\s+(?:(?:is|was)\s+)?(?:turned|switched)\s+off\b|"
                              r"\s+(?:is\s+|was\s+)?(?:off|disabled)\b)"
                              r"(?![^.;!?\n]{0,60}?\b(?:works?|trains? (?:fine|well|ok)|runs? fine|converges?|is fine)\b)")


# Words that may stand between a negator and what it denies: "does not seem to diverge", "never actually blows up".
_SOFTENERS = frozenset("seem seems seemed really actually even ever quite to".split())


def _denied_next(words: list[str], i: int) -> bool:
    """Is words[i] denied by a negator right before it, past softeners only?"""
    j = i - 1
    while j >= 0 and words[j] in _SOFTENERS and i - j <= 3:
        j -= 1
    return j >= 0 and words[j] in _NEGATING


def tokens(text: str) -> list[str]:
    """Canonical tokens of a text: folded (see fold_text), then words without stop words, lightly stemmed;
    symptoms the text rules out are left out (see RULED_OUT)."""
    return list(_tokens_of(text))


@functools.lru_cache(maxsize=16)
def _tokens_of(text: str) -> tuple[str, ...]:
    # a report's text is folded by several readers of one diagnosis: 32 kB of a log's start cost 45 ms each time
    return tuple(tokens_of_folded(fold_text(text)))


def tokens_many(texts: list[str]) -> list[list[str]]:
    """tokens() of each text, folded together (see _folded_many)."""
    return [tokens_of_folded(f) for f in _folded_many(texts)]


def tokens_of_folded(folded: str) -> list[str]:
    folded = HALF_OFF.sub(" ", WITHOUT_IT_WORKS.sub("with", folded))
    out = []
    for clause in CLAUSE.split(folded):
        words = WORD.findall(clause)
        out += [stem(w) for i, w in enumerate(words)
                if w not in STOP and not (w in RULED_OUT and _NEGATING & set(words[max(0, i - 4):i]))
                and not (w in RULED_OUT_NEXT and _denied_next(words, i))]
    if ALWAYS_TOKEN in out:       # from the start only where nothing else says when
        stated = SEQUENCE.search(folded) or any(t.startswith(TIMING) and t != ALWAYS_TOKEN for t in out)
        out = [t for t in out if t != ALWAYS_TOKEN] if stated else \
            ["when_start" if t == ALWAYS_TOKEN else t for t in out]
    return out


def when(text: str) -> set[str]:
    """Which of start / early / later the text says the failure showed at: the timing tokens it would fold
    to, without the thesaurus (which never makes or takes one; the catalogue's Symptom sections are long)."""
    return timing_of(tokens_of_folded(_fold(_prepared(text), _COMPILED[:len(WHEN) + 1])))
