"""How many classes a paste says its classifier has: a dataset it names, a count it gives (`num_classes=100`, "10
classes", `Dense(100, activation='softmax')`, "binary"), or a language model's vocabulary ("a 32,000-token vocab",
"32k-vocab"): a fresh classifier's loss starts at ln of it, the uniform guess."""
from __future__ import annotations

import functools
import itertools
import math
import re

from .sentences import denied_before, sentence_around
from . import lazy_regex

# A dataset named as the task, not as what a backbone was pretrained on or whose statistics or weights it borrows
# ("ImageNet-pretrained", "weights='imagenet'", "pretrained on Places365", "the ImageNet mean/std"): a head fine-tuned
# from it may have any count, and a regression may normalise its images with ImageNet's statistics
_BORROWED_BEFORE = r"(?<!weights=')(?<!weights=\")(?<!pretrained on )(?<!pre-trained on )"
_BORROWED_AFTER = (r"(?![ _-]?(?:1k|21k|22k)?(?:'s)?[ _-]?(?:mean|std|stats|statistics|normali\w*|pre-?trained|weights|backbone|"
                   r"init\w*|checkpoint)\b)")


def as_task(name: str) -> str:
    """The dataset's name as a pattern that names it as the task (see _BORROWED_BEFORE, _BORROWED_AFTER)."""
    return _BORROWED_BEFORE + r"\b(?:" + name + r")\b" + _BORROWED_AFTER


# (and the benchmarks whose names carry their class counts: ModelNet40, Food-101, Places365, Tiny ImageNet's 200;
# and the citation graphs' node classes: Cora's 7, CiteSeer's 6, PubMed's 3)
# (CiteSeer and PubMed name the citation graphs' classes only in a paste about a graph: PubMed's abstracts are other
# tasks)
GRAPH_NAMED = lazy_regex.compile(r"(?i)\b(?:gcn|gat|gnn|graph\w*|node\w*|planetoid|pyg|torch_geometric|dgl)\b")
DATASETS_NAMED = [(lazy_regex.compile(as_task(name), re.I), count, needs) for name, count, needs in (
    (r"cifar-?100", 100, None), (r"cifar-?10|mnist|svhn|fashion-?mnist|stl-?10", 10, None), (r"modelnet-?40", 40, None),
    (r"modelnet-?10", 10, None), (r"food-?101", 101, None), (r"places-?365", 365, None), (r"tiny[- ]?imagenet", 200, None),
    (r"(?<!tiny )(?<!tiny-)imagenet", 1000, None), (r"cora(?![ _-]?full)", 7, None), (r"citeseer", 6, GRAPH_NAMED),
    (r"pubmed(?![ _-]?(?:\d+k|rct|abstracts?|qa))", 3, GRAPH_NAMED))]
# A contrastive objective's classes are the candidates it is shown (the batch's other items, a queue), not a dataset's:
# InfoNCE's and NT-Xent's uniform guess scores ln of how many there are (van den Oord et al. 2018; CLIP, Radford et al.
# 2021) -- the dataset a contrastive run names is its data or its zero-shot benchmark, not its loss's class count. Not
# SigLIP's per-pair sigmoid, whose start is no ln of a count; not a clipping threshold ("GRAD CLIP 1.0").
CONTRASTIVE_NAMED = lazy_regex.compile(r"(?i)\b(?:contrastive|info[ _-]?nce|nt[ _-]?xent|simclr|moco(?:[ _-]?v\d)?|open[ _-]?clip\w*)\b|"
                                       r"(?-i:(?<!GRAD )(?<!GRAD_)(?<!GRADIENT )(?<!NORM )\bCLIP\b)")
# ... unless the sentence that names the dataset trains a classifier on it: a linear probe's or a fine-tuned head's
# loss is a cross-entropy over the dataset's classes
# (a classifier's head, not the projection head that defines SimCLR and MoCo v2)
PROBED = lazy_regex.compile(r"(?i)\blinear[ _-]?(?:probe|probing|eval\w*|classifier|head)\b|\bfine-?tun\w*|"
                            r"\b(?:classification|classifier|softmax)[ _-]?head\b")


def _contrastive_data(prose: str, dataset: re.Match) -> bool:
    """Is the dataset a contrastive run's data or benchmark (CONTRASTIVE_NAMED, not denied), not a probe's classes?"""
    return any(not denied_before(prose, m.start(), reach=40) for m in itertools.islice(CONTRASTIVE_NAMED.finditer(prose), 5)) \
        and not PROBED.search(prose, *sentence_around(prose, dataset.start(), dataset.end()))


# ("binary" or a sigmoid is the weakest name of a count, read last: a sigmoid may be a multi-label's)
BINARY_NAMED = lazy_regex.compile(r"\bbinary\b|\bsigmoid\b", re.I)
CLASS_COUNT = lazy_regex.compile(r"\b(\d{1,4})[ -](?:classes|categories|way|varieties|species|breeds|genres)\b|(?<!top-)(?<!top )\b(\d{1,4})-class\s+(?:[\w-]+\s+)?"
                                 r"(?:classifier|classification|problem|task|model|dataset|segmentation|head|output)\b|num_(?:classes|labels)\s*=\s*(\d{1,4})|"
                                 # ("classifying 10 types of PCB defects": kinds a classifier tells apart)
                                 r"\b(?:classif\w+|recogni[sz]\w+|distinguish\w*|categori[sz]\w+)\s+(?:between\s+|among\s+)?"
                                 r"(\d{1,4})\s+(?:types|kinds|sorts)\s+of\b|"
                                 # (and in the other scripts reports come in: "100クラス", "10类", "10개 클래스")
                                 r"(?<!\d)(\d{1,4})\s?(?:クラス|类|類|个类别|개\s?클래스)|"
                                 r"Dense\(\s*(\d{1,4})\s*,\s*activation\s*=\s*['\"]softmax['\"]\)?", re.I)
# ... and a vocabulary's size: a language model's classes
# (its number starts where no digit or comma is before it: tried at each digit of "101,000,000,..." it was quadratic)
VOCAB = lazy_regex.compile(r"(?i)(?<![\d,])\b(\d{1,3}(?:,\d{3})+|\d+)(k)?[ -](?:(?:token|word|piece|subword)s?[ -])?(?:\w+[ -])?"
                           r"vocab\w*")


# ... or in words: "three classes per pixel", "a five-way classifier", "twelve categories"
NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                           "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
# (not a split or a pairing said "-way", "a two-way split", nor "two labels" an image carries: "-way" only before a
# classifier's words; and after the datasets, whose count is surer)
COUNTING_WORDS = list(NUMBER_WORDS)[2:]
CLASS_WORDS = lazy_regex.compile(r"(?i)\b(" + "|".join(COUNTING_WORDS) + r")(?:[ -](?:classes|categories)\b|-way\s+"
                                 r"(?=(?:[\w-]+\s+)?(?:classif\w*|softmax|problem|task|output)\b))")


# ... or as the uniform guess's loss worked out: "I expected about ln(500) = 6.2", "-log(1/10) ≈ 2.30" -- a natural
# log of a count, with its value beside it (within UNIFORM_SAID_NEAR of ln K, so that no other log reads as one)
UNIFORM_SAID = lazy_regex.compile(r"(?i)(?:-\s*)?\b(?:ln|log)\s*\(\s*(?:1\s*/\s*)?(\d{1,6})\s*\)\s*(?:=|≈|~|is|of)\s*(?:about\s+|~\s*)?"
                                  r"(\d+(?:\.\d+)?)(?!\d|\.\d)")
UNIFORM_SAID_NEAR = 0.05
# ... said of where a loss starts or a guess scores, in its sentence ("I expected the first loss near ln(10) = 2.30",
# "chance is -log(1/20) = 3.0"), not of a clamp or a temperature ("logit_scale is clamped at ln(100) = 4.605") nor of
# an equilibrium or an entropy
UNIFORM_CONTEXT = lazy_regex.compile(r"(?i)\b(?:expect\w*|should|initial\w*|first|start\w*|begin\w*|chance|uniform\w*|random(?:ly)?|"
                                     r"guess\w*|untrained|fresh|step\s+0|before\s+(?:any|the\s+first)\s+update)\b")
UNIFORM_REFUSED = lazy_regex.compile(r"(?i)\b(?:logit_scale|temperature|clamp\w*|clip\w*|equilibrium)\b|(?<!cross[- ])(?<!cross)\bentropy\b")


@functools.lru_cache(maxsize=8)      # (asked of one report's text by many readings: read once)
def classes_named(prose: str) -> tuple[int, str] | None:
    """The class count the paste names, and how it names it; or None."""
    # (a count under two is no count of classes: timm's `num_classes=0` takes the head off, and `num_classes=1` is one
    # logit, a binary or a regression head)
    for counted in itertools.islice(CLASS_COUNT.finditer(prose), 5):
        if (classes := int(next(g for g in counted.groups() if g))) >= 2:
            return classes, f"the paste says `{counted.group(0)}`"
    for worked in itertools.islice(UNIFORM_SAID.finditer(prose), 5):
        classes = int(worked.group(1))
        sentence = prose[slice(*sentence_around(prose, worked.start(), worked.end()))]
        if classes >= 2 and abs(float(worked.group(2)) - math.log(classes)) <= UNIFORM_SAID_NEAR * math.log(classes) \
                and UNIFORM_CONTEXT.search(sentence) and not UNIFORM_REFUSED.search(sentence):
            return classes, f"the paste works out `{' '.join(worked.group(0).split())}`"
    # (a dataset's count, then one in words, then "binary" or a sigmoid)
    for pattern, classes, needs in DATASETS_NAMED:
        if (m := pattern.search(prose)) and (needs is None or needs.search(prose)) and not _contrastive_data(prose, m):
            return classes, f"the paste names {m.group(0)}"
    if worded := CLASS_WORDS.search(prose):
        return NUMBER_WORDS[worded.group(1).lower()], f"the paste says `{' '.join(worded.group(0).split())}`"
    if m := BINARY_NAMED.search(prose):
        return 2, f"the paste names {m.group(0)}"
    return None


# ... or after the word: "vocab 8000 SentencePiece", "vocab_size=32000", "vocabulary size: 50,257", "the vocabulary is
# the 256 byte values"
VOCAB_AFTER = lazy_regex.compile(r"(?i)\bvocab(?:ulary)?(?:[ _-]?size)?\b[ \t]{0,3}(?:[=:][ \t]{0,3}|of[ \t]+|is[ \t]+(?:the[ \t]+)?)?"
                                 r"(\d{1,3}(?:,\d{3})+|\d+)(k)?(?![\w]|[.,]\d)(?![ \t]+times\b)")


# ... or a tokenizer's size: "a BPE tokenizer with 4096 tokens", "our tokenizer of 32k pieces"
# (a size of the tokenizer's, not a length it cuts to: "the tokenizer with a max length of 128 tokens", "512 tokens per
# sequence", "(64 tokens max)")
TOKENIZER_SIZE = lazy_regex.compile(r"(?i)(?<!output of the )(?<!output of )\btokeni[sz]er\b(?:(?!\b(?:max\w*|length|len|sequences?|seq|context|window|pad\w*|truncat\w*|"
                                    r"batch\w*|each|per|of)\b)[^.;\n]){0,30}?(?:\b(?:with|of)\s+|\(\s*)(\d{1,3}(?:,\d{3})+|\d+)(k)?\s+"
                                    r"(?:tokens|pieces|subwords|word ?pieces|entries)\b(?!\s+(?:per|each|long|of\s+context|max\w*|at\s+most))")


# ... or a subword model's size said with its kind: "32k joint BPE", "a 16,000-piece SentencePiece model", "8k unigram"
# (its merges too, which give it that many symbols less the characters it starts from; not a count of steps)
# (a size: a thousand or more, or counted in k -- not a model's name or a version, "GPT-2 BPE", "v0.1.99 sentencepiece",
# nor a count of models, "2 BPE models")
SUBWORDS = lazy_regex.compile(r"(?i)(?<![\w.,-])(?<!step )(?<!steps )(?<!iteration )(?<!epoch )(\d{1,3}(?:,\d{3})+|[1-9]\d{3,}|\d{1,4}(?=k))(k)?[ -]"
                              r"(?:(?:token|piece|merge|subword)s?[ -])?(?:joint[ -]|shared[ -])?(?:bpe|sentencepiece|spm|wordpiece|unigram)"
                              r"\b(?![ -](?:lms?|dropout|package|library|version))")
# ... or as fairseq's tasks print their dictionaries when they load them: `[de] dictionary: 8848 types`, the source's
# then the target's (fairseq/tasks/translation.py at v0.12.2, `setup_task`): the decoder predicts the target's, the last
DICTIONARY_TYPES = lazy_regex.compile(r"\bdictionary: (\d{1,7}) types\b")


# ... or a tokenizer named whose size is known: GPT-2's, 50,257 tokens (transformers' GPT2Config, vocab_size=50257, in
# src/transformers/models/gpt2/configuration_gpt2.py at 01ae98a; tiktoken's "gpt2" encoding is the same BPE)
# (by its name, its class, tiktoken's encoding, or loaded from the hub's checkpoints, `AutoTokenizer.from_pretrained(
# 'gpt2')`, which share it; and Megatron-LM's `--tokenizer-type GPT2BPETokenizer`, the same BPE read from GPT-2's
# vocabulary and merges files -- Megatron pads the output layer to a multiple of 128, 50,304, whose ln differs from
# ln 50,257 by 0.0009 nats)
GPT2_TOKENIZER = lazy_regex.compile(r"(?i)\bgpt-?2(?:['\u2019]s)?\s+(?:bpe\s+)?tokeni[sz]er\b|\btokeni[sz]er\s+(?:of|from)\s+gpt-?2\b|"
                                    r"\bGPT2Tokenizer(?:Fast)?\b|\bGPT2BPETokenizer\b|\btiktoken\.get_encoding\(\s*['\"]gpt2['\"]|"
                                    r"\b\w*tokeni[sz]er\w*\.from_pretrained\(\s*['\"](?:openai-community/)?(?:distil)?gpt2"
                                    r"(?:-medium|-large|-xl)?['\"]\)?")
GPT2_VOCABULARY = 50257


@functools.lru_cache(maxsize=8)      # (the same)
def vocabulary_named(prose: str) -> tuple[int, str] | None:
    """The vocabulary's size the paste gives (a language model's classes), and how it gives it; or None."""
    # (the first size of two or more, in this order of the forms: a `vocab_size = 0` filled in later is none)
    for pattern in (VOCAB, VOCAB_AFTER, TOKENIZER_SIZE, SUBWORDS):
        for vocab in itertools.islice(pattern.finditer(prose), 5):
            if (size := int(vocab.group(1).replace(",", "")) * (1000 if vocab.group(2) else 1)) >= 2:
                return size, f"`{vocab.group(0)}`"
    printed = (list(itertools.islice(DICTIONARY_TYPES.finditer(prose), 8)) or [None])[-1]
    if printed and int(printed.group(1)) >= 2:
        return int(printed.group(1)), f"`{printed.group(0)}`"
    if gpt2 := GPT2_TOKENIZER.search(prose):
        return GPT2_VOCABULARY, f"`{gpt2.group(0)}` ({GPT2_VOCABULARY:,} tokens)"
    return None


def classes_or_vocabulary(prose: str) -> tuple[int, str] | None:
    """The vocabulary's size the paste gives, else the class count it names; or None."""
    return vocabulary_named(prose) or classes_named(prose)


# A loss within this share of ln C is a uniform guess over C classes: where a fresh classifier starts
UNIFORM_NEAR = 0.02


def at_uniform(loss: float, classes: int) -> bool:
    """Is the loss ln C for these C classes (UNIFORM_NEAR), the loss of a uniform guess over them?"""
    return classes >= 2 and abs(loss - math.log(classes)) <= UNIFORM_NEAR * math.log(classes)
