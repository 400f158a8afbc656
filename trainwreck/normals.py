"""Things that are normal: questions about behaviour that is expected (a negative log-likelihood, a skipped step
under dynamic loss scaling, a gap between training and validation loss, spikes in a falling curve, a GAN's losses
that do not fall) are answered as such rather than matched to a failure -- unless the words say the run went wrong
the way the explanation itself names as the exception (each Normal's unless).
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from .class_count import vocabulary_named
from .logscan.dialects.fairseq import LINE_MARK as FAIRSEQ_LINE_MARK
from .one_class_iou import IOU_NAME
from .precision_said import HALF_SHOWN, SCALER_SHOWN
from .run_said import (BATCH_SIZE, MINUS_SCORE_TRAINER, NOT_IN_USE, WGAN_IN_USE, never_recovered_said, reward_fell,
                       says_not_learning)
from .schedule_said import no_warmup_said
from .sentences import UNDONE, denied_before, rounding_of, said_unnegated, sentence_around, told
from .start_loss import PRETRAINED, early_jump_seen
from . import lazy_regex
from .lazy_regex import PatternLike


@dataclass(frozen=True)
class Normal:
    name: str
    asked: PatternLike         # the report asks about this behaviour
    explanation: str
    decide: str                # what to paste to tell the normal case from a failure
    # the words of a broken run it accounts for itself (tokens): a Darknet line's -nan, a skipped step's overflow
    accounts: frozenset = frozenset()
    falls: bool = False        # its answer is that the loss falls: no answer beside a loss that did not
    # not the answer where the words say this (the spikes of a run said to have no warmup are its signature)
    unless: Callable[[str], str] | None = None
    # its answer is that the loss of one step is mostly noise: a rise among finite values is that noise, not a climb
    explains_noise: bool = False
    # its answer is that this loss stays high while the model learns: a curve that barely falls from its start is that
    explains_plateau: bool = False
    # its answer is that the loss is made to climb (a learning-rate finder's sweep): a rise among finite values is that
    explains_climb: bool = False
    # what its mechanism accounts for, said in words it does not ask with: taken out of the words before they are read
    # for a run that broke (a skipped step's nan gradient norm)
    accounts_said: PatternLike | None = None
    # the parts of an entry's weighing its answer explains (diagnose.WORDS_ONLY's kin), which make no closest entry
    # beside it: a loss below zero ("negative") where the objective goes there by design
    explains_parts: frozenset = frozenset()


# The loss said to go below zero: the word tied to the loss ("a negative loss", "NLL is negative", "the loss keeps
# falling and goes below zero"), not a negative of something else ("510 negatives per positive", "negative samples",
# "false negatives", "the negative class") nor the name of a loss ("negative log-likelihood").
_NOT_OF_LOSS = r"(?!\s*(?:samples?|class\w*|examples?|pairs?|labels?|instances?|log\b|log[- ]likelihood|rate|weights?|sign|" \
               r"slope|gradients?|sampl\w*|mining|per\b|scores?\b))"
# (a dotted name between them does not end the sentence: "NLL loss (torch.nn.GaussianNLLLoss) is negative")
# (negative values or numbers only of the loss, said in its sentence: not a negative number something is taken of, "so
# it can never be a sqrt of a negative number", nor the data's, "the values in the .npy files were negative numbers")
NEGATIVE_SAID = lazy_regex.compile(r"\bnegative (?:loss|nll|cost)\b|\b(?:loss|nll|cost|likelihood)\w*\b"
                                   r"(?:[^.;!?\n]|\.(?=\w)){0,80}?(?:\bnegative\b" + _NOT_OF_LOSS + r"|\b(?:into|to) (?:the )?negatives?\b"
                                   r"|\bbelow (?:zero|0(?![.,]?\d))|\bless than (?:zero|0(?![.,]?\d))|(?<![\w-])-ve\b)", re.I)

# The words between a subject and its verb: up to 60 characters that start no other clause or subject ("val accuracy
# stuck at 50% while val loss keeps dropping": the dropping is the loss's, not the accuracy's)
_NO_NEW_SUBJECT = r"(?!\b(?:while|whereas|but|although|though|loss|acc\w*)\b)"
_SAME_SUBJECT = r"(?:" + _NO_NEW_SUBJECT + r".){0,60}?"

# Objectives that a healthy run does not drive down to a floor, asked about as if they were losses that should fall:
# a GAN's two losses, a reinforcement-learning loss, a VAE's total under a KL weight that rises. First among the normal
# behaviours: they name the kind of model, and explain more than a generic one (a policy loss is negative too). Each
# with the failure its own explanation names as an exception (unless): a discriminator that won, a return that fell.
# a GAN's failure said: samples of noise or all alike, mode collapse, or a loss grown past any bound (1e6 and more)
# (a loss given as 1e6 or more: not a buffer's size or a step budget)
HUGE_LOSS = (r"\bloss\w*\b[^.\n\d]{0,20}?(?:\bis|=|:|\bto|\breach\w*|\bof)\s*~?"
             r"-?\d+(?:\.\d+)?e\+?0*(?:[6-9]|[1-9]\d+)\b(?!\s*(?:iterations?|iters?|steps?|epochs?|samples?|frames?|"
             r"transitions?|timesteps?|updates?|tokens?))")
# (the samples said to be noise or all alike, as their predicate: not "with less noise")
# (a generative model's samples said to be noise or all alike: the GAN's broken face, the diffusion model's too)
# (or the generator said to make nothing else: "the generator only produces noise"; a colour before the noise too,
# "the images are still colored noise")
SAMPLES_BROKEN = (r"\b(?:samples?|images?|outputs?|generations?)\s+(?:are|is|look|looks|stay|stays|remain|remains|"
                  r"turn)\s+(?:still\s+)?(?:like\s+)?(?:pure\s+|just\s+|all\s+|only\s+|static\s+)?"
                  r"(?:(?:colou?red|random|gr[ae]y|white)\s+)?(?:noise|static|black|blank|"
                  r"identical|the same(?!\s+(?:size|shape|resolution|format|dimensions?|way|as))|garbage|grey|gray)\b|"
                  r"\b(?:generator|g)\s+(?:only\s+|still\s+|just\s+)*(?:produces?|generates?|outputs?|makes?|gives?)\s+"
                  r"(?:only\s+|just\s+|pure\s+)*(?:(?:colou?red|random|gr[ae]y|white)\s+)?(?:noise|static|garbage)\b")
# a GAN by its family's names: GAN, DCGAN, WGAN-GP, LSGAN, CycleGAN, StyleGAN2, BigGAN, SRGAN, ESRGAN, pix2pix (not a
# word that ends in "gan", an organ's or a slogan's)
GAN_FAMILY = r"(?:cycle|style|big|dc|ls|sn|sa|star|pro|info|ac|esr|sr|c|w)?gan(?:s|\d\w*|[-_]\w+)?|pix2pix\w*"
GAN_BROKEN = lazy_regex.compile(r"(?i)" + SAMPLES_BROKEN + r"|\bmode collapse\b|\bcollapsed\b|" + HUGE_LOSS)
HUGE_LOSS_SAID = lazy_regex.compile(HUGE_LOSS, re.I)
# torchvision's deprecation warning naming no weights: `pretrained=False` passed on as `weights=None`
NO_WEIGHTS_PASSED = lazy_regex.compile(r"(?i)equivalent to passing `weights=none`")
# (the return the subject of the fall, no other quantity between: not "the return goes up and the entropy drops")
FALL_VERBS = r"collaps\w*|drops?|dropped|dropping|falls?|fell|falling|decreas\w*"
RETURN_FELL = lazy_regex.compile(r"(?i)\b(?:returns?|rewards?|scores?)\b(?:(?!\b(?:entropy|loss|lr|kl|and|while|but|whereas)\b)"
                                 rf"[^.\n]){{0,40}}\b(?:{FALL_VERBS}|goes down|went down|stuck|never improv\w*)\b"
                                 r"(?!\s+(?:at first|initially|early|in the beginning))|" + HUGE_LOSS)
# a KL weight said not to move ("a fixed beta of 4", "no annealing")
BETA_FIXED = lazy_regex.compile(r"(?i)\b(?:fixed|constant)\s+(?:beta|β|kl[ _-]?weight)\b|\bno (?:kl )?anneal\w*|"
                                r"\b(?:beta|β)\b[^.\n]{0,20}\b(?:fixed|constant)\b")


# The discriminator won, the failure the GAN's answer names: its loss said to go to about 0 ("d_loss goes to ~0",
# "the discriminator loss goes to zero"), or printed at DISCRIMINATOR_WON or less at its last two prints (`d_loss:
# 8.8102e-08`, in a log's line: not a code line's accumulator, `d_loss = 0.0`): a cross-entropy, a least-squares or a
# hinge loss of a discriminator that tells every real sample from every generated one. Not a Wasserstein critic's,
# whose loss near 0 is the opposite, a critic that tells them apart by nothing -- one in use, not one switched away
# from ("switched from WGAN-GP to the BCE loss").
_D_LOSS = r"\b(?:d_loss|loss_d|errd|d[ _]total|(?:discriminator|d)(?:'s)? loss)"
# (a counter after "at" is a place, not the loss's level: "the D loss at epoch 0 was 1.39")
D_LOSS_AT_ZERO = lazy_regex.compile(r"(?i)" + _D_LOSS + r"\b[^.\n\d]{0,30}?\b(?:goes|went|go|drops?|dropped|falls?|fell|"
                                    r"collaps\w*|is|stays?|stayed|stuck|sits?|near|to|at|reach\w*|becom\w*|became|approach\w*|"
                                    r"converg\w*)\b(?![ \t]+(?:epoch|step|iter\w*|batch|the start)\b)"
                                    # (only words that bring it nearer between: not "stays far from zero", "well above 0")
                                    r"[ \t]*(?:(?:close|near|almost|nearly|about|down|to|basically|practically|exactly|right|"
                                    r"all the way)[ \t]+)*(?:(?:~\s*)?0(?:\.0+)?(?![.\d])|zero\b)")
D_LOSS_PRINTED = lazy_regex.compile(r"(?i)" + _D_LOSS + r"\b\s*[:=]\s*(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)")
DISCRIMINATOR_WON, WON_PRINTS = 1e-3, 2
ASSIGNED = lazy_regex.compile(r"\s=\s")
NEGATED_WITHIN = lazy_regex.compile(r"(?i)\b(?:never|not|no longer)\b|n't\b")
CRITIC = lazy_regex.compile(r"(?i)" + WGAN_IN_USE + r"|" + NOT_IN_USE + r"\bcritic\b")


def _discriminator_won(text: str) -> str:
    """The words or the last printed discriminator losses that say the discriminator won, or ""."""
    if CRITIC.search(text):
        return ""
    said = D_LOSS_AT_ZERO.search(text)
    if said and not denied_before(text, said.start()) and not NEGATED_WITHIN.search(said.group(0)):
        return said.group(0)
    # (printed, not a code line that sets a name: `d_loss = 0.0` first on its line, spaces around its `=`)
    printed = [m for m in itertools.islice(D_LOSS_PRINTED.finditer(text), 10000)
               if not (ASSIGNED.search(m.group(0)) and not text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip())]
    last = printed[-WON_PRINTS:]
    return last[-1].group(0) if len(last) == WON_PRINTS and all(0 <= float(m.group(1)) <= DISCRIMINATOR_WON
                                                                  for m in last) else ""


# A sentence that places what it says at the start, as expected there: "in the first epoch the generator only produces
# noise, as expected" is no sample broken
AT_THE_START = lazy_regex.compile(r"(?i)\b(?:at first|initially|as expected|in the beginning|at the start|early on|"
                                  r"in epoch [01]|(?:in|during|for) the first (?:\w+ )?(?:epochs?|steps?|iterations?|batches|"
                                  r"minutes?))\b")
# ... where nothing between the start's words and the noise moves the time on ("at first ..., but now the generator only
# produces noise"), and the paste says the samples improved later ("by epoch 6 the faces look good")
LATER_TIME = lazy_regex.compile(r"(?i)\b(?:but|now|later|still|then|after|since|until)\b")
IMPROVED_LATER = lazy_regex.compile(r"(?i)\b(?:by|after|from|since)\s+(?:epoch|step|iteration|iter)\s*\d+\b[^.\n]{0,60}?\b(?:look\w*|"
                                    r"good|better|improv\w*|sharp\w*|realistic|recogni[sz]\w*|faces?|digits?|makes?)\b")


def _noise_at_the_start(text: str, m: re.Match) -> bool:
    """Is the broken samples' clause said of the run's start, as expected there, with a later improvement said?"""
    start, _end = sentence_around(text, m.start(), m.end())
    before = text[start:m.start()]
    said = list(AT_THE_START.finditer(before)) or list(AT_THE_START.finditer(text, m.end(), min(len(text), m.end() + 40)))
    if not said or (said[-1].end() <= len(before) and LATER_TIME.search(before, said[-1].end())):
        return False
    return IMPROVED_LATER.search(text, m.end()) is not None


def gan_failure_said(text: str) -> str:
    """What the words or the printed losses say of a GAN that broke: its samples broke, a loss grew past any bound, or
    its discriminator won; or "". (The failures the GAN's answer names: never its game.)"""
    broken = next((m for m in itertools.islice(GAN_BROKEN.finditer(text), 20) if not _noise_at_the_start(text, m)), None)
    return broken.group(0) if broken else _discriminator_won(text)


# A policy trained towards a search's move distribution (AlphaZero, MuZero): its policy loss is a cross-entropy against
# the MCTS visit counts (Silver et al. 2017, "Mastering the game of Go without human knowledge", Eq. 1), which does
# measure the network's agreement with the search, and falls no lower than the visit counts' own entropy -- no
# policy-gradient surrogate
# (the family by its names; a search's words only in a sentence of the policy trained on it -- not "next I want to try
# MCTS")
SEARCH_TRAINED = lazy_regex.compile(r"(?i)\b(?:alpha-?zero|alpha-?go zero|mu-?zero)\b|"
                                    r"\bpolicy\b[^.!?\n]{0,80}?\b(?:mcts|monte[ -]carlo tree search|visit counts?)\b|"
                                    r"\b(?:mcts|monte[ -]carlo tree search|visit counts?)\b[^.!?\n]{0,80}?\bpolicy\b")


# ... and a policy whose outputs the words say degenerated: a language model's text turned to repeats or garbage
OUTPUTS_DEGENERATE = lazy_regex.compile(r"(?i)\b(?:garbage|gibberish|degenerat\w*)\b|\bsame (?:few )?(?:tokens?|words?|phrases?)"
                                        r"\b[^.\n]{0,20}?\b(?:repeated|over and over|again and again)\b")


# (a model said to have got worse than the one it started from, in an evaluation of its answers: the question is then
# the data or the objective, not what the logged numbers mean)
_MODEL_WORSE = lazy_regex.compile(r"(?i)\b(?:model|answers?|outputs?|responses?|it)\s+(?:got|gets|getting|became|becomes|is|are)\s+"
                                  r"worse\b|\bloses?\s+to\s+the\s+(?:base|starting|original|sft|reference|initial|instruct)")
# (a win rate said to fall, a preference accuracy at or below chance, a margin flat at 0, a rejected answer's
# log-probability or reward said to rise, or an objective that averages per token or is no DPO: SimPO, ORPO, IPO, KTO)
_DPO_WRONG = lazy_regex.compile(r"(?i)\bwin[ -]?rates?\b[^.\n]{0,40}?\b(?:drop\w*|decreas\w*|fell|falls?|lower|worse)\b|"
                                r"\b(?:rewards/)?accurac(?:y|ies)\b['\"]?[^.\n\d]{0,20}?(?<![\d.])0?\.[0-4]\d*\b|\bmargins?\b[^.\n]{0,30}?"
                                r"(?:\b(?:flat|stuck|zero)\b|\bat 0(?:\.0+)?(?![\d.]))|\brejected\b[^.\n]{0,40}?\b(?:ris\w*|rose|increas\w*|"
                                r"goes up|going up|went up|gets? higher|higher)\b|"
                                r"\b(?:simpo|orpo|ipo|kto|cpo)\b")
# (the margin or the preference accuracy said to fall: what DPO's loss does measure)
_MARGIN_FELL = lazy_regex.compile(r"(?i)\b(?:margins?|rewards?/accurac\w*|(?:preference|reward)\s+accuracy)\b[^.\n]{0,40}?"
                                  r"\b(?:decreas\w*|go(?:es|ing)\s+down|fall(?:s|ing)?|fell|dropp\w*|shrink\w*|negative)\b")


# (a rise said after the ramp-up ended, which no ramp explains; an accuracy at chance or that stays put; a loss said to
# explode; a supervised loss said flat)
_RAMP_OVER_OR_CHANCE = lazy_regex.compile(r"(?i)\bramp[ -]?up\s+(?:ended|finished|was\s+over|is\s+over|is\s+done|stopped)\b|"
                                          r"\bafter\s+the\s+ramp[ -]?up\b|\bchance\b|\bacc\w*\b[^.\n]{0,30}?\b(?:stays?|stayed|stuck|flat)\b|"
                                          r"\bloss\w*\b[^.\n?]{0,30}?\bexplod\w*\b(?![^.\n]*\?)|\b(?:class\w*|supervised|labell?ed)\s+(?:loss|cost)\b[^.\n]{0,40}?"
                                          r"\b(?:stuck|flat|stays?|stayed|plateau\w*|not\s+(?:going\s+)?down)\b")
# (the supervised side said to get worse: the accuracy falls, or the classification loss rises -- what a ramp-up of the
# other term does not explain; the verb the subject's own, not across "and", "while", "but")
_OWN_CLAUSE = r"(?:(?!\b(?:and|while|but|whereas)\b)[^.\n]){0,40}?"
_SUPERVISED_WORSE = lazy_regex.compile(r"(?i)\bacc\w*\b" + _OWN_CLAUSE + r"\b(?:falls?|fell|drops?|dropped|decreas\w*)\b|"
                                       r"\b(?:class\w*|supervised|labell?ed|cross[ -]?entropy)\s+(?:loss|cost)\b" + _OWN_CLAUSE +
                                       r"\b(?:goes up|went up|rises?|rose|climb\w*|increas\w*)\b")


# (a nan in another class's row of the per-class table -- its first cell a class name, the row tab- or space-separated
# -- or a nan the run printed or is said to go to: not the devkit's cells)
_NUSCENES_OTHER_NAN = lazy_regex.compile(r"(?im)^(?!traffic_cone\b|barrier\b)[a-z_]{3,30}[ \t]+(?:[\d.]+[ \t]+){0,6}nan\b")

def _rl_unless(text: str) -> str:
    """Not where the words say the return fell, or the printed mean reward fell, or the policy's outputs degenerated,
    or give a loss grown past any bound, or train a policy towards a search's moves (a cross-entropy against the visit
    counts, whose floor is their entropy)."""
    fell = RETURN_FELL.search(text) or OUTPUTS_DEGENERATE.search(text) or next(
        (m for m in itertools.islice(SEARCH_TRAINED.finditer(text), 5)
         if not _PLANNED.search(text, max(0, m.start() - 40), m.end())), None)
    return fell.group(0) if fell else reward_fell(text)


# (a search only planned: "next I want to try MCTS to improve the policy")
_PLANNED = lazy_regex.compile(rf"(?i)\b(?:{UNDONE}|might|maybe|next|try|trying)\b")


def _vae_unless(text: str) -> str:
    fixed = BETA_FIXED.search(text)
    return fixed.group(0) if fixed else ""


# A GAN's or a perceptual loss's stage of an image model, named (ESRGAN, a GAN loss, a VGG loss, BasicSR's options)
_GAN_STAGE = (r"\b(?:(?:real-?)?esrgan|srgan|gan|adversarial|perceptual|vgg\w*\s*loss|l_g_gan|l_percep|lpips|gan_opt|"
              r"perceptual_opt)\b")
# ... said as not in use: denied ("no GAN", "without the perceptual loss"), or dropped ("tried a GAN first but dropped
# it")
GAN_STAGE_DROPPED = lazy_regex.compile(r"(?i)" + _GAN_STAGE + r"[^.;\n]{0,30}?\b(?:dropped|removed|disabled|turned off|switched off)\b")
# ... and outputs said to be broken, which no trade-off makes: artifacts, a colour cast
ARTIFACTS_SAID = lazy_regex.compile(r"(?i)\bartifacts?\b|\bartefacts?\b|\bcheckerboard\b|\bcolou?r\s+(?:cast|shift)\b")


# A character of the clause a word is in: no "but", "while", "whereas" or "and" that starts another subject's ("the MSE
# falls while the bpp increases": the increase is the bpp's)
_IN_CLAUSE = r"(?:(?!\b(?:but|while|whereas|and)\b)[^.?!\n])"
# A loss said to rise that is not the rate's (bpp loss) or an entropy model's auxiliary loss
_LOSS_ROSE = lazy_regex.compile(r"(?i)(?<![\w-])(?<!bpp )(?<!bpp_)(?<!rate )(?<!aux )(?<!aux_)loss\b" + _IN_CLAUSE +
                                r"{0,40}?\b(?:increas\w*|ris(?:es|ing)|rose|goes up|went up|climb\w*|grow\w*)\b")
# The rest of a question to its mark, naming no loss (whose nan it would report)
_NO_LOSS_TO_MARK = r"(?:(?!\b(?:loss|training|run)\b)[^.\n?]){0,40}\?"
# A loss scale at its floor: reduced to 1 or below, or every step said to be skipped
_SCALE_AT_FLOOR = lazy_regex.compile(r"(?i)\breducing to (?:1|0\.\d+)(?![\d.])|\bloss[ _]scale\b(?:[ \t]+to)?[ \t]*(?:[:=][ \t]*)?"
                                     r"(?:1|0\.\d+)(?:\.0+)?(?![\d.])|\bevery\s+(?:single\s+)?step\s+(?:is|was|gets|got)\s+skipped\b|"
                                     r"\ball\s+(?:the\s+)?steps\s+(?:are|were)\s+skipped\b")
# A distortion said to get worse: a PSNR or an (MS-)SSIM that falls, an MSE or a distortion that rises
_DISTORTION_WORSE = lazy_regex.compile(r"(?i)\b(?:psnr|ms-?ssim|ssim)\b" + _IN_CLAUSE + r"{0,40}?\b(?:gets?\s+worse|got\s+worse|worse|"
                                       r"drops?|dropped|falls?|fell|decreas\w*|goes\s+down|went\s+down)\b|\b(?:mse|distortion)\b"
                                       + _IN_CLAUSE + r"{0,40}?\b(?:increas\w*|ris(?:es|ing)|rose|goes\s+up|went\s+up|gets?\s+worse)\b")
# A margin softmax by its names (ArcFace, AAM-softmax, CosFace, AM-softmax, SphereFace; WeSpeaker's arc_margin and
# add_margin); a triplet's or a contrastive loss's margin, named with none of them, is no softmax's
_MARGIN_SOFTMAX = lazy_regex.compile(r"(?i)\barcface\b|\baam[-_ ]?softmax\b|\baamsoftmax\b|\bcosface\b|\bam[-_ ]softmax\b|"
                                     r"\bsphereface\b|\barc_?margin\b|\badd_?margin\b|\badditive (?:angular )?margin\b|"
                                     r"\bmargin[- ]softmax\b|\baam\b")
_PAIR_MARGIN = lazy_regex.compile(r"(?i)\btriplet\w*|\bcontrastive\b|\bmarginrankingloss\b|\bhinge\b")
_RAMP_OVER = lazy_regex.compile(r"(?i)\b(?:after|since|once)\s+the\s+(?:margin\s+)?(?:ramp|warm-?up|schedul\w*)\b(?!\s+(?:started|began))|"
                                r"\b(?<!until the )(?<!till the )(?:ramp|warm-?up)\b[^.?!\n]{0,30}?\b(?:finished|ended|is over|was over|"
                                r"completed)\b[^.?!\n]{0,30}?\bbut\b")
_EER_FROM_TO = lazy_regex.compile(r"(?i)\beer\b[^.?!\n]{0,40}?\bfrom\s+(\d+(?:\.\d+)?)(?:\s*%)?\s+to\s+(\d+(?:\.\d+)?)")


_EER_WORSE = lazy_regex.compile(r"(?i)\beer\b" + _IN_CLAUSE + r"{0,40}?\b(?:gets?\s+worse|got\s+worse|worse|increas\w*|rose|"
                                r"went\s+up|goes\s+up)\b")
_MARGIN_FIXED = lazy_regex.compile(r"(?i)\bmargin\b[^.?!\n]{0,30}\b(?:is|was|stays?|kept)\s+(?:fixed|constant)\b")


def _margin_ramp_unless(text: str) -> str:
    """What rules the margin-ramp answer out: a nan or an inf said (a divergence asked about is the rise itself), a
    margin said fixed, a ramp said over, an EER said to get worse (the answer's own check), or a triplet's or a
    contrastive loss's margin named with no margin softmax; or ""."""
    return (_nan_or_inf_said(told(text))
            or ("the margin named fixed" if _MARGIN_FIXED.search(text) else "")
            or ("the ramp said over" if _RAMP_OVER.search(text) else "")
            or ("an EER said worse" if _EER_WORSE.search(text) or any(float(b) > float(a)
                                                                   for a, b in _EER_FROM_TO.findall(text)) else "")
            or ("a triplet's or a contrastive margin" if _PAIR_MARGIN.search(text) and not _MARGIN_SOFTMAX.search(text)
                else ""))
# MS-SSIM as what a model is trained for: its loss, its training metric, `1 - ms_ssim`, CompressAI's `--metric ms-ssim`
_MS_SSIM = r"ms[-_ ]?ssim"
_MS_SSIM_TRAINED = (r"(?:\b" + _MS_SSIM + r"[ _-](?:loss|objective|distortion|optimi[sz]ed|trained)\b|\b(?:trained|optimi[sz]ed|"
                    r"fine-?tuned|tuned|training)\s+(?:\w+\s+){0,3}?(?:with|for|on)\s+(?:the\s+|an?\s+)?" + _MS_SSIM +
                    r"\b|\b(?:loss|distortion)\b[^.\n]{0,20}?1(?:\.0*)?\s*-\s*(?:\w+\.)?" + _MS_SSIM + r"|--metric[ =]['\"]?" +
                    _MS_SSIM + r"|\bmetric\s*=\s*['\"]" + _MS_SSIM + r"['\"])")
# ... and what rules the answer out: the model said trained for the MSE, a collapsed output, or a PSNR under 20 dB
# (an MS-SSIM model's PSNR trails an MSE model's by a few dB, not down to a flat image's)
_MSE_TRAINED = lazy_regex.compile(r"(?i)(?<!model )(?<!baseline )(?<!than )(?<!vs )(?<!vs. )(?<!versus )(?<!paper's )(?<!same )"
                                  r"\b(?:trained|optimi[sz]ed|fine-?tuned|training)\s+(?:\w+\s+){0,4}?with\s+(?:the\s+|an?\s+)?"
                                  r"(?:mse|l2)\b|--metric[ =]['\"]?mse\b|\bmetric\s*=\s*['\"]mse['\"]")
_COLLAPSED = lazy_regex.compile(r"(?i)\b(?:flat|uniform|solid)\s+(?:gr[ae]y|black|colou?r)|\b(?:gr[ae]y|black|blank)\s+(?:images?|"
                                r"outputs?|reconstructions?)\b|\b(?:reconstructions?|outputs?|images?)\s+(?:are|look|come\s+out)\s+"
                                r"all\s+(?:the\s+)?same\b")
# (a PSNR's own value: "PSNR is 11.2 dB", "PSNR of 14 dB" -- not a gap, "2 dB lower")
_PSNR_DB = lazy_regex.compile(r"(?i)\bpsnr\b[^.\n]{0,40}?(?<![\d.])(\d{1,2}(?:\.\d+)?)\s*db\b(?!\s+(?:lower|higher|worse|better|"
                              r"below|above|gap|drop|less|more|behind)\b)")


def _ms_ssim_unless(text: str) -> str:
    """What rules the MS-SSIM answer out (see above), or ""."""
    low = [float(v) for v in _PSNR_DB.findall(text)]
    return (_nonfinite_said(text) or _not_learning_said(text)
            or ("trained for the MSE" if _MSE_TRAINED.search(text) else "")
            or ("a collapsed output" if _COLLAPSED.search(text) else "")
            or ("a PSNR under 20 dB" if low and min(low) < 20 else ""))


def _gan_stage_in_use(text: str) -> bool:
    """Is a GAN's or a perceptual loss's stage named and not denied or said to be dropped?"""
    return any(not denied_before(text, m.start()) and not GAN_STAGE_DROPPED.match(text, m.start())
               for m in itertools.islice(re.finditer(r"(?i)" + _GAN_STAGE, text), 10))


# Monodepth2's metrics row under its header (`abs_rel | sq_rel | rmse | rmse_log | a1 | a2 | a3`, then `& 0.116 & ...`):
# an abs_rel above POOR_ABS_REL or an a1 below POOR_A1 is a model far from a trained one (its paper's mono model:
# abs_rel 0.115, a1 0.877 on the Eigen split; Godard et al. 2019, Table 1)
DEPTH_METRICS = lazy_regex.compile(r"abs_rel[^\n]*\n[ \t]*&[ \t]*([\d.]+)[ \t]*&[ \t]*[\d.]+[ \t]*&[ \t]*[\d.]+[ \t]*&[ \t]*[\d.]+"
                                   r"[ \t]*&[ \t]*([\d.]+)")
POOR_ABS_REL, POOR_A1 = 0.2, 0.7


def _depth_metrics_poor(text: str) -> str:
    """The metrics row, where it is far from a trained model's; else ""."""
    row = DEPTH_METRICS.search(text)
    return (f"abs_rel {row.group(1)}, a1 {row.group(2)}" if row and (float(row.group(1)) > POOR_ABS_REL
                                                                  or float(row.group(2)) < POOR_A1) else "")


# A nan the run printed itself (`loss: nan`, `loss=nan`), said in a statement to come ("the loss went to nan after
# step 3000", "stays nan"), or its charts said to show: beside a history export's NaN a nan, not a gap; beside
# nuScenes' per-class table the run's, not the devkit's
_NAN_SHOWN_ELSEWHERE = lazy_regex.compile(r"(?i)\bloss\w*\s*[:=]\s*(?:tensor\()?nan\b|\bloss\w*\s+(?:is|was|are|were)\s+(?:\w+\s+)?nan\b|"
                                          r"\bnan\s+loss|\b(?:charts?|ui|dashboard|panels?)\b[^.\n]{0,30}?"
                                          r"\b(?:shows?|showing)\b[^.\n]{0,20}?\bnan\b|"
                                          r"\b(?:go(?:es|ing)?|went|turn(?:s|ed|ing)?|stay(?:s|ed|ing)?|becom(?:es|ing)|became)\s+"
                                          r"(?:to\s+)?nan\b|\bnan\s+(?:after|from|since)\s+(?:step|epoch|iter)")
# The gaps' cause shown: two wandb.log calls that share no key (`wandb.log({"d_loss": ...})`, then
# `wandb.log({"g_loss": ...})`) -- without them, a column of NaN is as likely a loss that went nan
WANDB_LOG_KEYS = lazy_regex.compile(r"\b(?:wandb|run)\.log\(\s*\{([^{}\n]{1,300})\}")


def _logged_apart(text: str) -> str:
    """"" where the paste shows two log calls that share no key (the gaps' cause), else why the answer does not hold."""
    keys = [frozenset(re.findall(r"[\"']([^\"']+)[\"']\s*:", m.group(1)))
            for m in itertools.islice(WANDB_LOG_KEYS.finditer(text), 50)]
    # (keys of their own: two calls that share no key -- a key logged by every call has no gaps to show as NaN)
    apart = any(a and b and not a & b for a, b in itertools.combinations(keys, 2))
    return "" if apart else "no two log calls that share no key shown"


OBJECTIVES = (
    Normal("nan in a W&B history export for a metric not logged at that step",
           # (first of all: a nan asked about that is a missing value, whatever model logged it)
           # (the run's history pulled with the API, `run.history()`, or exported from W&B -- answered only where the
           # paste shows what makes the gaps: two log calls that share no key, _logged_apart)
           lazy_regex.compile(r"\b(?:run\.history\(|(?:wandb|w&b)(?:'s)? (?:export|csv)|"
                              r"export(?:ed)? (?:\w+ )?from (?:wandb|w&b))[\s\S]{0,1500}?\bnan\b|"
                              r"\bnan\b[\s\S]{0,1500}?\brun\.history\("),
           "each call to W&B's log is a step of its own unless it is given the step (\"Each call to `wandb.Run.log()` is "
           "a new `step` by default.\", https://docs.wandb.ai/models/track/log), and the history the API returns is a "
           "pandas table with a row per step and a column per key: a key not logged at a step is missing there, and "
           "pandas shows a missing number as NaN. Two metrics logged by two calls (a discriminator's loss after its step "
           "and a generator's after its own, say) fill alternate rows, each NaN where the other was logged -- no loss "
           "went nan. Log them in one call (`wandb.log({\"d_loss\": d, \"g_loss\": g})`), or pass the same `step=`, "
           "or drop the missing rows per column (`df[\"d_loss\"].dropna()`)",
           "the history per metric with its missing rows dropped, and the run's own printed losses: whether any value "
           "is nan where the metric was logged",
           frozenset({"nan"}),
           # (not beside a loss the run itself printed as nan, or said to go nan, or charts said to show it)
           unless=lambda text: _found(_NAN_SHOWN_ELSEWHERE, told(text)) or _logged_apart(text)),
    # (first: a GAN's stage whose PSNR is asked about is answered by what PSNR measures, not by what its losses do)
    Normal("a super-resolution model's PSNR, which falls once a GAN or perceptual loss trains it",
           # (a GAN's or a perceptual loss's stage named, beside a PSNR or SSIM said to fall: not a pixel loss's run)
           # (the fall the PSNR's own: no other subject joined between them, "PSNR improves and l_g_gan falls")
           # (not another loss's or score's joined to it: "PSNR improves and l_g_gan falls"; a dataset's may be, "PSNR on
           # Set5 and Set14 drops")
           lazy_regex.compile(r"(?is)\A(?=.*" + _GAN_STAGE + r")(?=.*\b(?:psnr|ssim)\b(?:(?!\b(?:and|but|while|whereas)\s+"
                              r"(?:the\s+|its\s+)?(?:l_\w+|\w*loss\w*|lpips|ssim|psnr|fid|niqe|it|the\s+\w+\s+loss)\b|\b(?:but|while|whereas)\b)"
                              r"[^.?!\n]){0,80}?\b(?:drops?|dropped|falls?|fell|decreas\w*|lower|worse|goes down|went down)\b)"),
           "PSNR and SSIM score the distance of each pixel from the ground truth, which a pixel loss (L1, MSE) lowers "
           "directly, by predicting the mean of the sharp images a blurry input could come from -- a smooth image. A "
           "GAN's and a perceptual loss ask instead for an image that looks like a real one, with its textures, which "
           "sit off that mean: the pixel distance grows while the images look sharper. No method can be best at both "
           "(Blau and Michaeli, The Perception-Distortion Tradeoff, CVPR 2018, arXiv:1711.06077), and SRGAN's own "
           "paper reports its GAN model below its MSE-trained SRResNet in PSNR and above it in mean opinion score "
           "(Ledig et al., CVPR 2017, arXiv:1609.04802): a PSNR that drops when the GAN stage starts, and stays "
           "there, is that trade-off",
           "a perceptual measure beside the PSNR (LPIPS, or the Perceptual Index of Ma's score and NIQE that the "
           "PIRM-SR challenge scored) for the PSNR model and the GAN model: it should improve as the PSNR falls",
           unless=lambda text: _nonfinite_said(text) or _not_learning_said(text) or not _gan_stage_in_use(text)
           or ARTIFACTS_SAID.search(text) is not None),
    # (a codec's or a restorer's distortion named as MS-SSIM -- its loss, its training metric, CompressAI's
    # `--metric ms-ssim`, `1 - ms_ssim` -- beside a PSNR said to be low, to fall or to trail an MSE model's)
    Normal("the PSNR of a model trained for MS-SSIM",
           lazy_regex.compile(r"(?is)\A(?=.*" + _MS_SSIM_TRAINED + r")(?=.*\bpsnr\b(?:(?!\b(?:but|while|whereas)\b)(?:[^.?!\n]|\n(?!\n))){0,80}?"
                              r"\b(?:low|lower|terrible|bad|poor|worse|drops?|dropped|falls?|fell|decreas\w*|goes down|went down)\b)"),
           "PSNR is 10 log10(MAX^2 / MSE), a score of the mean squared error alone. A model trained with an MS-SSIM "
           "distortion (1 - MS-SSIM, as CompressAI's RateDistortionLoss takes it with metric=\"ms-ssim\") spends its "
           "capacity and its bits on what MS-SSIM counts: contrast and structure at each of several scales, and "
           "luminance only at the coarsest one (Wang, Simoncelli and Bovik, Multi-scale structural similarity for "
           "image quality assessment, 2003). A shift of a flat area's brightness or colour costs it little and the MSE "
           "much, so its PSNR sits below an MSE-trained model's at the same rate and can fall while its MS-SSIM rises. "
           "Compare it with results of models optimised for MS-SSIM, on the MS-SSIM axis",
           "the MS-SSIM (or -10 log10(1 - MS-SSIM), in dB) beside the PSNR over training: it should rise while the "
           "PSNR falls",
           unless=_ms_ssim_unless),
    # (a learned codec's rate, its bpp, said to rise -- beside words of a codec: bpp, a rate-distortion loss, a lambda
    # that weighs a distortion)
    Normal("a learned codec's rate, which can rise while its rate-distortion loss falls",
           lazy_regex.compile(r"(?is)\A(?=.*(?:\bbpp\b|\bbits? per pixel\b|rate[- ]distortion|\bentropy[ _]bottleneck\b|"
                              r"\bhyperprior\b|\bcompressai\b))(?=.*\b(?:bpp(?:[ _]loss)?|bits? per pixel|(?:the )?(?<!learning )(?<!frame )"
                              r"(?<!error )(?<!sample )(?<!bit )rate(?: term| loss)?)"
                              r"\b(?:(?!\b(?:but|while|whereas|and)\b)(?:[^.?!\n]|\n(?!\n))){0,60}?\b(?:increas\w*|ris(?:es|ing)|rose|goes up|"
                              r"went up|going up|grow\w*|climb\w*)\b)"),
           "a learned codec minimises a sum of two terms it trades against each other, the rate R (bits per pixel) and "
           "lambda times the distortion D (CompressAI's RateDistortionLoss: lmbda * distortion + bpp_loss): the rate "
           "is no loss meant to fall on its own. While spending more bits buys a larger fall of lambda D than they "
           "cost, the bpp rises as the distortion and the total fall; where it settles is set by lambda, a larger "
           "lambda buying a higher rate and a lower distortion. It is a failure when the total climbs or goes nan",
           "the total loss and the distortion (MSE or MS-SSIM) beside the bpp, epoch by epoch: the total should fall "
           "while the bpp rises",
           frozenset({"climb"}),
           # (a divergence asked about is none said: "is the rate term diverging?"; a loss said to rise, other than the
           # rate's own, is the failure the answer names)
           unless=lambda text: _nonfinite_said(told(text)) or _not_learning_said(text)
           or ("a loss said to rise" if _LOSS_ROSE.search(told(text)) else "")
           or ("the distortion said to get worse" if _DISTORTION_WORSE.search(told(text)) else "")),
    # (a margin softmax's margin raised over training -- its scheduler named or configured, a margin warmup, or the
    # margin a column of the log -- beside a loss said to rise)
    Normal("a margin softmax whose margin is ramped up",
           lazy_regex.compile(r"(?is)\A(?=.*(?:\bmargin[ _]?(?:schedul\w*|ramp\w*|warm-?up|anneal\w*|update)|\bincrease_start_epoch\b|"
                              r"\bfinal_margin\b|\|[ \t]*margin[ \t]*\||\bmargin\s+(?:column|ramps?|grows?|increas\w*|rises?)\b))"
                              r"(?=.*\bloss\b(?:(?!\b(?:but|while|whereas)\b)[^.?!\n]){0,60}?\b(?:increas\w*|ris(?:es|ing)|rose|"
                              r"go(?:es|ing)\s+up|went\s+up|climb\w*)\b)"),
           "an additive angular margin softmax (ArcFace, AAM-softmax) scores the target class with cos(theta + m), an "
           "additive margin (CosFace, AM-softmax) with cos(theta) - m: at the same embeddings a larger m lowers the "
           "target's logit, so the loss is higher and the training accuracy, taken with the margin, lower. Speaker "
           "recipes raise m from 0 to its final value over a stretch of epochs (WeSpeaker's VoxCeleb recipes from "
           "epoch 20 to 40, initial_margin 0.0 to final_margin 0.2, examples/voxceleb/v2/conf/resnet.yaml): the loss "
           "rises and the accuracy falls while m grows, by design, and they improve again once it is fixed",
           "the margin beside the loss, epoch by epoch, and the validation EER: the rise should stop when the margin "
           "stops growing, and the EER should not get worse",
           frozenset({"climb", "diverge"}),
           unless=_margin_ramp_unless),
    Normal("a GAN's losses, which do not fall",
           # (a critic's loss only beside a GAN named: an actor-critic has one too)
           # (and the family by its members' names, "CycleGAN losses", "StyleGAN2 loss"; and the losses CycleGAN's and
           # pix2pix's own repository prints, `D_A: 0.214 G_A: 0.331`, `G_GAN: 1.02 G_L1: 9.8 D_real: 0.41 D_fake: 0.38`;
           # taming-transformers' VQGAN logs `disc_loss`)
           lazy_regex.compile(r"\bgen_loss\b(?=[\s\S]{0,2000}?\b(?:disc\w*|discriminator|" + GAN_FAMILY + r"|gan)\b)|"
                              r"\b(?:disc\w*|discriminator|" + GAN_FAMILY + r"|gan)\b[\s\S]{0,2000}?\bgen_loss\b|"
                              r"\b(?:loss_?[dg]|[dg]_loss|disc_loss|errd\w*|errg\w*|(?:discriminator|generator)(?:'s)? loss(?:es)?|"
                              r"(?:" + GAN_FAMILY + r"|adversarial) loss(?:es)?|loss(?:es)? of (?:the )?(?:discriminator|generator))\b|"
                              r"\b(?:d_(?:a|b|real|fake)|g_(?:a|b|gan|l1)):\s*\d|"
                              r"\b(?:" + GAN_FAMILY + r"|generator)\b[\s\S]{0,2000}?\bcritic(?:'s)? loss\b|"
                              r"\bcritic(?:'s)? loss\b[\s\S]{0,2000}?\b(?:" + GAN_FAMILY + r"|generator)\b"),
           "a GAN's two losses score a game, not a fit: each network's loss depends on the other network, which keeps "
           "improving, so neither falls to a floor -- they rise and fall around a balance for the whole run "
           "(Goodfellow, NIPS 2016 Tutorial: Generative Adversarial Networks, arXiv:1701.00160, on training as a search "
           "for an equilibrium of a game, and on non-convergence). Progress shows in the samples (or a score such as "
           "FID); a failure shows as the discriminator's loss at about 0 for good while the generator's climbs (the "
           "discriminator won), samples that all look alike (mode collapse), or nan. A WGAN's critic loss turns "
           "negative once the critic tells real from generated samples, and its size estimates the Wasserstein distance between the real and the generated "
           "samples: it should shrink as they improve, and one that grows without bound means the critic's Lipschitz "
           "constraint does not hold (Arjovsky et al., 2017, arXiv:1701.07875, §4.2)",
           "samples from one fixed noise batch over the epochs, and both losses: finite, and the discriminator's not "
           "stuck near 0",
           # (a Wasserstein critic's loss is negative by construction)
           frozenset({"climb", "stuck", "negative"}), unless=gan_failure_said, explains_parts=frozenset({"negative"})),
    Normal("a reinforcement-learning loss, which says nothing of progress",
           # (the losses of RL by their names -- not a ValueError, a CLIP loss, "to reinforce robustness")
           lazy_regex.compile(r"\b(?:policy|actor|pg|surrogate)[ _-]?(?:loss|objective)(?:es)?\b|\b(?:value|critic|td|q)[ _-]"
                              r"(?:function )?loss(?:es)?\b|\btd[ _-]error\b|"
                              r"\b(?:ppo|a2c|a3c|trpo|dqn|ddqn|sac|ddpg|td3|q-learning)\b[^.\n]{0,80}\bloss\b"),
           "in policy-gradient methods (REINFORCE, A2C, PPO) the policy loss is minus a surrogate of the return, "
           "computed on data the current policy has just collected: with the advantages normalised per batch (mean 0) "
           "and the probability ratio at 1 when an update starts, PPO's clipped surrogate starts each update at about "
           "0 (Schulman et al., 2017, arXiv:1707.06347, the objective L^CLIP), so its value is near 0 by construction, "
           "may be negative and may drift, and is no measure of progress; a value or TD loss (a critic's, DQN's) "
           "regresses targets built from the returns, which grow as the agent improves (and, in DQN, from a target "
           "network that moves), so it may rise for the whole run. The mean episodic return is the measure",
           "the mean episodic return over training (and the entropy, the approximate KL and the clip fraction)",
           frozenset({"negative", "climb", "diverge"}), unless=_rl_unless, explains_parts=frozenset({"negative"})),
    Normal("DPO's logged log-probabilities and rewards, summed over a response and free to fall together",
           # (DPO by its name or TRL's keys, and a question of its log-probabilities or the chosen reward: their size,
           # their sign, or their fall)
           lazy_regex.compile(r"(?s)\A(?=.*(?:\bdpotrainer\b|\bdpo[ _](?:loss|run|training|trainer)\b|\brewards/(?:chosen|margins)\b|"
                              r"\blogps/chosen\b))"
                              r"(?=.*(?:\blogps\b|\blog[ -]?probs?\b|\blog[ -]?probabilit\w*|\brewards?/chosen\b|\bchosen\s+"
                              r"(?:rewards?|log[ -]?probs?|logps)\b)[^.?\n]{0,80}?(?:\bnegative\b|\bdecreas\w*|\bgo(?:es|ing)\s+"
                              r"down\b|\bfall(?:s|ing)?\b|\bdropp\w*|\bbetween 0 and 1\b))(?=.*\?)"),
           "TRL's DPOTrainer logs logps/chosen as the log-probability of the whole response, summed over its tokens "
           "(`per_token_logps.sum(dim=1)`, trl/trainer/dpo_trainer.py at v1.9.0): a 300-token answer at about a nat a "
           "token prints near -300 -- the log of a probability, at most 0, never between 0 and 1. rewards/chosen is "
           "beta times the chosen response's log-ratio to the reference model, and the loss, -log sigmoid(beta times "
           "the chosen log-ratio minus the rejected one) (Rafailov et al., 2023, arXiv:2305.18290, Eq. 7), depends on "
           "their difference only: both may fall while the margin grows. That the chosen response's likelihood often "
           "falls under DPO is shown by Pal et al. (2024, arXiv:2402.13228), who call it a failure mode where the two "
           "responses differ by a few tokens and fix it with DPO-Positive; it is the loss at work, not a numerical "
           "failure, and downstream evaluation tells whether it hurts. rewards/margins and rewards/accuracies rising "
           "are what the loss measures",
           "rewards/margins and rewards/accuracies over the steps (both should rise), and an evaluation of the model's "
           "answers",
           # (and log-probabilities and rewards below zero: the answer's own numbers)
           frozenset({"diverge", "negative"}),
           # (not beside a nan or an inf said: "exploding" is the worry it answers)
           unless=lambda text: _nan_or_inf_said(text) or _not_learning_said(text)
           or _found(_MARGIN_FELL, text) or _found(_MODEL_WORSE, text) or _found(OUTPUTS_DEGENERATE, text)
           or _found(_DPO_WRONG, text) or _found(_LOSS_BELOW_ZERO, text), explains_parts=frozenset({"negative"})),
    Normal("a consistency loss whose weight ramps up, as Mean Teacher's and Temporal Ensembling's do",
           # (the ramp-up named, and the consistency term -- or the unsupervised one -- said to rise)
           lazy_regex.compile(r"(?s)\A(?=.*(?:\b(?:consistency|unsupervised|unlabel\w*)\b[^.\n]{0,40}?\b(?:ramp[ _-]?ups?|rampup\w*|"
                              r"ramps?\s+up|ramped|ramping)\b|\bconsistency_rampup\b|\bsigmoid_rampup\b))"
                              r"(?=.*\b(?:consistency|unsupervised|unlabel\w*)\s+(?:cost|loss|term)\b[^.\n]{0,60}?\b(?:gone up|goes up|"
                              r"going up|went up|ris(?:es|ing|en)|rose|increas\w*|grow\w*|grew|climb\w*|higher)\b)(?=.*\?)"),
           "Mean Teacher (Tarvainen and Valpola, 2017, arXiv:1703.01780) and Temporal Ensembling and the Pi-model (Laine "
           "and Aila, 2017, arXiv:1610.02242) multiply the consistency cost by a weight that ramps up from near 0 along "
           "exp(-5 (1 - t)^2), t going from 0 to 1 over the ramp-up epochs (the reference code's sigmoid_rampup, "
           "https://github.com/CuriousAI/mean-teacher/blob/546348ff863c998c26be4339021425df973b4a36/pytorch/mean_teacher/"
           "ramps.py#L19-L26, and its weight `args.consistency * ramps.sigmoid_rampup(epoch, args.consistency_rampup)`, "
           "epochs counted from 0): the first epoch's weight is exp(-5) = 0.0067 of its full value, so the weighted "
           "consistency term can rise through the ramp-up while the model learns, and the total with it; the "
           "classification loss and the accuracy show the progress",
           "the consistency term divided by its weight at each epoch, and the classification loss and the accuracy over "
           "the same epochs: they should fall and rise",
           frozenset({"climb", "diverge"}),
           unless=lambda text: _nan_or_inf_said(text) or _not_learning_said(text)
           or _found(_SUPERVISED_WORSE, text) or _found(HUGE_LOSS_SAID, text) or _found(_RAMP_OVER_OR_CHANCE, text)),
    Normal("Stable-Baselines3 PPO's early stop on the KL, which ends one update's epochs, not training",
           # (its own line, which only a set target_kl prints, and only with verbose >= 1)
           lazy_regex.compile(r"early stopping at step \d+ due to reaching max kl: \d"),
           "with target_kl set, Stable-Baselines3's PPO computes an approximate KL between the policy that collected "
           "the rollout and the one being updated on every minibatch, and once it passes 1.5 * target_kl it prints "
           "this line and stops the remaining optimisation epochs on that rollout "
           "(https://github.com/DLR-RM/stable-baselines3/blob/v2.3.2/stable_baselines3/ppo/ppo.py#L262-L286; the step "
           "it prints is the epoch's index). The updates already made are kept, and the next rollout is collected "
           "and trained on as usual: a cap on how far one update moves the policy, which is what target_kl asks for",
           "ep_rew_mean over the run, and train/approx_kl beside 1.5 * target_kl: stops on most rollouts with the "
           "return rising are the cap at work",
           # (a return that climbs is the run's progress, said beside it; not a run said not to learn, where a stop at
           # the first epoch of every rollout is a rate too high for target_kl, or a target too small)
           frozenset({"climb"}), unless=lambda text: _rl_unless(text) or _not_learning_said(text)),
    Normal("a positive log-probability of a continuous action, which is a log-density",
           # (a log-probability, or a log_prob, said to be positive -- or an entropy said to be negative -- beside a
           # continuous policy's words)
           # (not a discrete policy's, whose log-probability above 0 would be a probability above 1: a bug)
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:continuous|gaussian|normal distribution|tanh|squash\w*|sac|td3|mujoco|"
                              r"joints?|torques?)\b)(?!.*\b(?:categorical|discrete|softmax|atari|cartpole|dqn|multinomial)\b)"
                              r"(?=.*(?:\blog[ _-]?probs?\b|\blog[ _-]?probabilit\w+|\blog_pi\b)"
                              r"[^.?\n]{0,60}?\b(?:is|are|was|were|becomes?|goes|gets)?\s*(?<!not )(?<!never )(?:positive|above (?:zero|0)|"
                              r"greater than (?:zero|0)|> ?0)\b|.*\bpositive log[ _-]?(?:probs?|probabilit\w+)\b)"),
           "for a continuous action, log_prob returns the log of a probability density, not of a probability: a "
           "density is above 1 wherever the distribution is narrow enough -- a Gaussian with standard deviation below "
           "1/sqrt(2 pi) = 0.40 is above 1 at its mean -- so its log is positive there, and below 1/sqrt(2 pi e) = "
           "0.24 its differential entropy is negative, and the mean log_prob of its own samples (minus that entropy) "
           "positive. A tanh squashing onto (-1, 1) concentrates it further. "
           "SAC's automatic temperature even aims the entropy at a negative target, minus the number of action "
           "dimensions (Stable-Baselines3's SAC sets target_entropy = -prod(action_space.shape): "
           "https://github.com/DLR-RM/stable-baselines3/blob/v2.3.2/stable_baselines3/sac/sac.py#L166-L168), so a "
           "log-probability of about +dim per action is where it is meant to settle",
           "the policy's standard deviations (or the entropy against the target entropy) and the return: a policy "
           "that narrows as the return climbs is learning",
           frozenset({"negative"}),
           unless=lambda text: _nonfinite_said(text) or _rl_unless(text) or _not_learning_said(text)),
    Normal("StyleGAN2-ADA's augmentation probability, which rises while the discriminator overfits",
           # (ADA named, and its `augment` value said to rise)
           lazy_regex.compile(r"(?s)\A(?=.*(?:\bstylegan[23]?-?ada\b|\bstylegan3\b|\bada\b|adaptive (?:discriminator )?augment\w*))"
                              r"(?=.*\baugment\w*\b[^.?\n]{0,60}?\b(?:climb\w*|rising|rises|rose|increas\w*|goes up|went up|"
                              r"grow\w*|keeps going up|higher)\b)"),
           "ADA sets the probability p of every augmentation from how sure the discriminator is of the real images: "
           "every 4 minibatches it moves p by the batch size times 4 over 500,000 images, up while r_t = "
           "E[sign(D(real))] is above its target of 0.6 -- the discriminator overfitting the training set -- and down "
           "below it (Karras et al. 2020, Training Generative Adversarial Networks with Limited Data, "
           "arXiv:2006.06676, section 3; \"Execute ADA heuristic\" in https://github.com/NVlabs/stylegan2-ada-pytorch/"
           "blob/0e9b616cebaf8043a684462df624a10b5fc6f11b/training/training_loop.py). p starts at 0, and the fewer "
           "the images, the sooner the discriminator overfits and the higher p climbs: a rising augment on a few "
           "thousand images is the heuristic doing its work, and the FID is the measure of the run",
           "the FID over the snapshots: falling while augment rises is ADA at work; augment near 1 with the FID "
           "rising is overfitting beyond what augmentation holds back",
           frozenset({"climb"}),
           unless=lambda text: _nonfinite_said(text) or _found(_FID_WORSE, text) or _fid_rose(text) or gan_failure_said(text)),
    Normal("episodes that get shorter as the return rises, where reaching the goal ends an episode",
           # (the episode length said to fall, the return or reward said to rise, and an episode said to end on
           # success: touching, reaching, a goal)
           lazy_regex.compile(r"(?s)\A(?=.*\bepisode\w*\s+(?:length|len|duration)s?\b[^.?\n]{0,60}?\b(?:goes down|going down|"
                              r"went down|decreas\w*|drops?|dropping|dropped|shrinks?|shrinking|falls?|falling|fell|shorter)\b|"
                              r".*\b(?:episodes?|ep_len\w*)\b[^.?\n]{0,40}?\b(?:get|got|getting|are|become|becoming)\s+shorter\b)"
                              r"(?=.*\b(?:rewards?|returns?|ep_rew\w*)\b[^.?\n]{0,60}?\b(?:goes up|going up|went up|ris\w*|rose|"
                              r"increas\w*|climb\w*|improv\w*|grow\w*)\b)"
                              r"(?=.*\b(?:ends?|ended|ending|terminat\w*|done|finish\w*)\b[^.?\n]{0,60}?\b(?:when|once|if|as soon as|"
                              r"on)\b[^.?\n]{0,60}?\b(?:touch\w*|reach\w*|goal|target|success\w*|arriv\w*|solv\w*|lands?|"
                              r"grasp\w*|picks?)\b(?!\s+(?:the\s+)?(?:\d[\w-]*\s+)?(?:time|step|max\w*|limit\w*)\b))"
                              # (nor where no episode is said to succeed)
                              r"(?!.*\bsuccess(?:\s+rate)?\b[^.?\n]{0,20}?\b(?:is|of|at|stays?)?\s*0\s?%)"),
           "an episode that ends when the task is done -- the goal reached, the target touched -- ends sooner the "
           "sooner the agent does it: a policy that succeeds faster makes the mean episode length fall while the "
           "return rises (with a per-step penalty or a discount, finishing sooner is itself what is rewarded). An "
           "agent can also end its episodes sooner by failing sooner -- under a per-step penalty that too raises the "
           "return -- so the share of episodes that end at the goal is what tells the two apart",
           "the share of episodes that end in success (terminated at the goal, not truncated by the time limit) "
           "beside the mean length: rising together with the return is learning",
           # (the return's climb is the run's progress, said beside it)
           frozenset({"climb"}), unless=lambda text: _nonfinite_said(text) or _rl_unless(text)),
    Normal("a VAE's total loss under a KL weight that rises",
           # (a VAE named, and its KL weight said to be annealed or printed beside the KL: not a distillation's KL with a
           # learning-rate warmup, nor a diffusion model's beta schedule)
           lazy_regex.compile(r"\b(?:vae|variational auto-?encoder)\b[^\n]{0,300}?\b(?:kl[ _-]?(?:anneal\w*|warm-?up|weight)|"
                              r"(?:beta|β)[ _-]?(?:anneal\w*|warm-?up|schedul\w*)|anneal\w* (?:of )?(?:the )?(?:kl|beta|β))\b|"
                              r"\b(?:vae|variational auto-?encoder)\b[\s\S]{0,600}?\bbeta\b[^\n]{0,40}\bkl\b"),
           "with the KL term's weight raised from 0 over the first epochs (KL cost annealing, Bowman et al., 2016, "
           "Generating Sentences from a Continuous Space), the total is a sum whose weights change: it can rise "
           "while both the reconstruction and the KL terms fall, and it means nothing to compare totals taken at "
           "different weights; at the full weight it falls again",
           "the reconstruction and the KL terms apart, epoch by epoch, and the KL weight beside them",
           frozenset({"climb", "diverge"}), unless=_vae_unless),
    Normal("a loss whose terms' weights were changed during the run",
           # (MACE's own line at its Stage Two, or the weights said to have been changed -- not a question or a plan to change
           # them, "should I increase the energy weight?": not a weight decay, nor class weights, whose own answer is above)
           lazy_regex.compile(r"\bchanging loss based on (?:stage two weights|swa)\b|"
                              r"\b(?:changed|switched|raised|increased|re-?weighted|bumped)\s+(?:the\s+)?"
                              r"(?:loss(?:'s)?\s+weights?|(?:energy|forces?|stress|virials?|aux\w*|term)\s+weights?|weights?\s+of\s+"
                              r"the\s+(?:loss|terms))\b|"
                              r"\bloss\s+weights?\s+(?:are\s+|were\s+|get\s+|got\s+)?(?:changed?|switched|raised|increased|bumped)\b"),
           "a loss of several terms is their weighted sum, and a run that changes the weights measures another function "
           "from then on: the total jumps at the change, or falls, without the model changing at all. MACE's Stage Two "
           "does this on purpose: from --start_swa it raises the energy weight (to 1000 by default, from 1) and lowers "
           "the rate \"to help converge them\" (--swa and --swa_energy_weight in https://github.com/ACEsuit/mace/blob/"
           "001d6ed8263cd00ca3a07f6bba1d19434724a30a/mace/tools/arg_parser.py), and logs \"Changing loss based on SWA\" "
           "(https://github.com/ACEsuit/mace/blob/f1a0216865fc5bc59727ee1b8e0af9b019664801/mace/tools/train.py; later "
           "versions word it \"Changing loss based on Stage Two Weights\") -- the loss= its epoch lines print is "
           "computed with the new weights. Compare each "
           "term's own error across the change (MACE's RMSE_E_per_atom and RMSE_F), not the total",
           "each term's own error (an RMSE per quantity) on both sides of the change: a failure worsens them, or turns "
           "them nan; a new weighting moves only the total",
           frozenset({"climb", "diverge"}), explains_climb=True, unless=lambda text: _nan_or_inf_said(text)),
)

# A model said not to have learned: at chance, flat, climbing, or worse than the mean (an R^2 near or below 0), or a run
# that blew up -- not a comparison ("far above chance"), nor denied ("no nan", "does not diverge")
NOT_LEARNED = lazy_regex.compile(r"\b(?:(?<!above )(?<!than )(?<!against )(?<!over )(?<!vs )(?<!for )chance|(?<!for )random guess\w*|"
                                 r"r\^?2\b[^.\n]{0,40}?(?:-\d|\b0\.0\d)|worse than (?:predicting )?the mean|non-finite|diverg\w*|"
                                 r"explod\w*|nan|stays? at|stuck|flat|(?:rises?|climbs?|grows?|increases?)\b)", re.I)
# ... and said to have learned: a held-out accuracy or score of 0.8 or more, or a loss said to fall
LEARNED = lazy_regex.compile(r"(?i)\b(?:acc(?:uracy)?|score|f1|auc|r\^?2)\b[^.\n\d]{0,30}?(?:\b0\.[89]\d*\b|\b(?:[89]\d|100)(?:\.\d+)?\s*%)|"
                             r"\bloss\w*\b[^.\n]{0,40}?\b(?:falls?|fell|decreas\w*|goes down|going down|drops?)\b")


def _not_learned_said(text: str) -> str:
    """What says the model did not learn, or "" where the words say it learned and nothing says it did not."""
    for m in itertools.islice(NOT_LEARNED.finditer(text), 20):
        if not denied_before(text, m.start()):
            return m.group(0)
    if says_not_learning(text):
        return "the words say it does not learn"
    return "" if LEARNED.search(text) else "nothing says it learned"


# A training run (not a finder's sweep) said to break: "the training loss diverges after 2 epochs", "I ran fit() with
# its suggestion and the loss explodes" -- not denied ("runs fine, no nan"), nor asked ("will my run diverge?")
TRAINING_BROKE = lazy_regex.compile(r"\b(?:training|train|trained|fit\(\)|fit_one_cycle|real|actual)\b[^.\n?]{0,60}?"
                                    r"\b(diverg\w*|explod\w*|blows? up|nan|inf|goes up|going up|went up|climb\w*|increas\w*|"
                                    r"ris(?:es|ing)|rose)\b(?![^.\n]{0,80}\?)", re.I)


def _training_broke_said(text: str) -> str:
    for m in itertools.islice(TRAINING_BROKE.finditer(text), 10):
        broke = m.start() + m.group(0).rfind(m.group(1))        # (the failure word, denied within the match)
        if not denied_before(text, broke, reach=min(30, broke - m.start())):
            return m.group(0)
    return ""


# (a diffusion run said to be broken beyond its loss's noise: samples of noise, or a model trained from scratch, whose
# loss does fall a long way)
DIFFUSION_BROKEN = lazy_regex.compile(r"(?i)" + SAMPLES_BROKEN + r"|\bfrom\s+scratch\b")


# (every area at -1, `area=   all` too, or detectron2's "No predictions from the model!": no ground truth or no
# prediction was evaluated at all -- a pipeline's fault, not an empty range)
NOTHING_EVALUATED = lazy_regex.compile(r"(?i)\barea\s*=\s*all\s*\|[^\n]{0,40}\]\s*=\s*-1\.000\b|no predictions from the model!|"
                                       r"\bbbox_map\b\s*[:=]\s*-1\.0+\b")


def _no_ground_truth_at_all(text: str) -> str:
    nothing = NOTHING_EVALUATED.search(text)
    return nothing.group(0) if nothing else ""


# (a loss below zero said, not denied: "never goes negative", "it is not a negative loss" -- a denial inside the saying,
# or right before it; not "I don't know why my loss is negative", which says it is)
NEGATIVE_DENIED = lazy_regex.compile(r"(?i)\b(?:never|not|no)\b|n't\b")


def negative_said(text: str) -> re.Match | None:
    """The first words that say the loss went below zero (NEGATIVE_SAID) and do not deny it; or None."""
    return next((m for m in itertools.islice(NEGATIVE_SAID.finditer(text), 5)
                 if not NEGATIVE_DENIED.search(m.group(0)) and not denied_before(text, m.start(), reach=10)), None)


def _negative_denied(text: str) -> bool:
    """Does every saying of a loss below zero deny it ("never goes negative", "is not negative")?"""
    return NEGATIVE_SAID.search(text) is not None and negative_said(text) is None


def _nonfinite_said(text: str) -> str:
    """Words that the loss went nan or inf, or diverged (not denied); or ""."""
    return "nan, inf or divergence" if said_unnegated(text, {"nan", "inf", "diverge"}) else ""


# The held-out split's loss by its names: "val loss", "validation_loss", "eval loss", "evaluation loss"
_HELD_OUT_LOSS = r"(?:val(?:idation)?|eval(?:uation)?)[ _-]?loss"
# A log-likelihood or a log-probability by its names, and the words of its own clause after it (up to 80 characters that
# start no other clause or subject: "the loglikelihood values lm-evaluation-harness wrote for my checkpoint are all
# negative")
_LOGLIK = (r"(?:\blog[ _-]?likelihoods?|\bloglikelihoods?|\blog[ _-]?probs?\b|\blogprobs?\b|"
           r"\blog[ _-]?probabilit\w+)")
_LOGLIK_CLAUSE = r"(?:" + _NO_NEW_SUBJECT + r"[^.?\n]){0,80}?"
# A log-likelihood said to be above zero (of discrete outputs, a probability above 1), or to fall further below zero
# over training ("gets more negative every epoch", "keeps dropping since epoch 3" -- not "goes down for longer
# sequences", a sum over more tokens), or a KL said to be below zero (impossible: a KL is at least 0): no answer that
# it is the log of a probability, nor that a negative loss is normal
_LOGLIK_WRONG = lazy_regex.compile(r"(?i)" + _LOGLIK + _LOGLIK_CLAUSE + r"(?:\b(?:is|are|was|were|becomes?|became|went|goes|gets?|"
                                   r"got)\s+(?:now\s+)?(?:positive|above (?:zero|0))\b|(?<![\w.])\+\d|\b(?:more negative|"
                                   r"decreas\w*|go(?:es|ing)? down|drop(?:s|ped|ping)?|f[ae]ll(?:s|ing)?|worse)\b[^.\n?]{0,40}?"
                                   r"\b(?:every|each|per|over|since|through)\s+(?:the\s+)?(?:epoch|step|iteration|training|"
                                   r"checkpoint)\w*)|\bkl\b[^.\n?]{0,40}?\b(?:negative|below (?:zero|0))\b")


def _found(pattern: PatternLike, text: str) -> str:
    """The words of the pattern's first match in the text, as an `unless` gives its reason; or ""."""
    m = pattern.search(text)
    return m.group(0) if m else ""


# A perplexity the words give: the name, then a number of three digits or more, not a count or a percentage
_PERPLEXITY_GIVEN = (r"(?<![a-z])(?:perplexity|ppl)\w*\b[^.\n\d]{0,30}?(?<![\d.,])(?<!step )(?<!steps )(?<!epoch )"
                     r"(?<!iteration )(?<!iter )(?<!round )(?<!batch )(?<!layer )(?<!update )"
                     r"(?:[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d{2,})(?:\.\d+)?(?![\d.,]*\s*%)")
# (the numbers on a line that names it: a perplexity each, but counts -- "at round 5", "after 10 epochs" -- and
# fractions, an accuracy's, which no perplexity is: it is at least 1)
_PERPLEXITY_LINE = lazy_regex.compile(r"(?im)^[^\n]*(?<![a-z])(?:perplexity|ppl)[^\n]*")
_LINE_NUMBER = lazy_regex.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w.,%])")
COUNT_BEFORE = lazy_regex.compile(r"(?i)\b(?:steps?|epochs?|iter(?:ation)?s?|rounds?|batch(?:es)?|layers?|updates?|after|at|of)"
                                  r"\s*(?:#\s*)?$")
COUNT_AFTER = lazy_regex.compile(r"(?i)\s*(?:steps?|epochs?|iter\w*|rounds?|batch(?:es)?|updates?|tokens?|characters?|k\b)")
# ... said to rise, which no learning model's does, as a statement: "rises", "shot up", "up from 45", "jumped to 4000";
# "exploding" only where its sentence asks nothing ("why is the perplexity exploding?" asks what the numbers show)
_PERPLEXITY_ROSE = lazy_regex.compile(r"(?i)\b(?:perplexity|ppl)\w*\b[^.\n]{0,40}?\b(?:ris(?:es|ing)|rose|increas\w*|climb\w*|"
                                      r"goes up|went up|grows?|grew|shot up|shoots? up|jump\w*|spik\w*|blew up|blows? up|up from|back up|"
                                      r"explod\w*(?![^.\n?]*\?))")


# (two perplexities said in a row, the second larger: "955 -> 6208", "from 180 to 2400", "went back up to 5000" above an
# earlier one; and a held-out perplexity set against a training one, a gap this answer does not explain)
_PERPLEXITY_NUMBERS_ROSE = lazy_regex.compile(r"(?i)(?<![a-z])(?:perplexity|ppl)\w*\b[^.\n]{0,60}?(?<![\d.,])(\d[\d,]*(?:\.\d+)?)"
                                              r"\s*(?:->|→|to|then)\s*(?:about\s+|around\s+)?(\d[\d,]*(?:\.\d+)?)(?![\d.,])")
_PERPLEXITY_GAP = lazy_regex.compile(r"(?im)(?:^|(?<=[.?!] ))(?=(?:[^.?!\n]|\.\d)*\b(?:perplexity|ppl)\b)(?=(?:[^.?!\n]|\.\d)*\btrain"
                                     r"\w*\b)(?=(?:[^.?!\n]|\.\d)*\b(?:test|valid\w*|val|held-?out|eval\w*)\b)(?:[^.?!\n]|\.\d){1,200}")
_HELD_OUT_PPL = lazy_regex.compile(r"(?i)\b(?:test|valid\w*|val|eval\w*)[ _/]ppl\b['\"]?\s*(?:[:=]\s*)?(\d[\d,]*(?:\.\d+)?)")
_NOT_FALLING = lazy_regex.compile(r"(?i)\b(?:not|no longer|isn't|is not|doesn't|does not|won't|stopped)\s+(?:going\s+down|go(?:ing)?\s+"
                                  r"down|decreas\w*|improv\w*|fall\w*|dropp\w*)")


def _perplexity_unless(text: str) -> str:
    """Why the perplexity the words give is no fresh model's course: said or shown to rise, beside a nan or an inf, a
    run said not to learn, a model fine-tuned from a pretrained one (which starts far below V), or a perplexity that
    never came below the vocabulary's size, worse than a uniform guess; or ""."""
    if rose := _found(_PERPLEXITY_ROSE, text):
        return rose
    if nan := _nan_or_inf_said(text):
        return nan
    if PRETRAINED.search(text):
        return "a pretrained model"
    if (gap := _PERPLEXITY_GAP.search(text)) or (rise := _PERPLEXITY_NUMBERS_ROSE.search(text)) and \
            float(rise.group(2).replace(",", "")) > float(rise.group(1).replace(",", "")):
        return (gap or rise).group(0)
    held = [float(m.group(1).replace(",", "")) for m in itertools.islice(_HELD_OUT_PPL.finditer(text), 100)]
    if len(held) >= 2 and held[-1] > held[0]:
        return "a held-out perplexity that rose"
    if stalled := _found(_NOT_FALLING, text):
        return stalled
    given = [float(m.group(0).replace(",", "")) for line in itertools.islice(_PERPLEXITY_LINE.finditer(text), 40)
             for m in itertools.islice(_LINE_NUMBER.finditer(line.group(0)), 20)
             if not COUNT_BEFORE.search(line.group(0), max(0, m.start() - 12), m.start())
             and not COUNT_AFTER.match(line.group(0), m.end())]
    given = [g for g in given if g >= 1]
    vocabulary = vocabulary_named(text)
    if given and vocabulary and min(given) > vocabulary[0]:
        return f"a perplexity above the vocabulary's {vocabulary[0]}"
    return _not_learning_said(text)


def _nan_or_inf_said(text: str) -> str:
    """Words that the loss went nan or inf (not denied), as an `unless` gives its reason; or "". (Not a divergence said,
    which the answers that take it are there to answer.)"""
    return "nan or inf" if said_unnegated(text, {"nan", "inf"}) else ""


def _not_learning_said(text: str) -> str:
    """Words that the run does not learn (run_said.says_not_learning); or ""."""
    return "not learning" if says_not_learning(text) else ""


def _diffusion_broken_said(text: str) -> str:
    broken = DIFFUSION_BROKEN.search(text)
    return broken.group(0) if broken else ""


FROZEN_SAID = lazy_regex.compile(r"(?i)\b(?:un)?(?:freez\w*|froze\w*)\b|\btrainable\s*=\s*False\b|\brequires_grad(?:_\(\s*False|\s*=\s*False)|"
                                 r"\bnot\s+trainable\b|\bnon-trainable\s+(?:layers?|base|backbone)\b|\bbase_model\b|"
                                 r"\bpretrained\s+(?:base|backbone)\b|\binclude_top\s*=\s*False\b|\bhub\.KerasLayer\b")


def _frozen_said(text: str) -> str:
    """Words or code that freeze part of the model (not denied: "I never froze anything")."""
    return next((m.group(0) for m in itertools.islice(FROZEN_SAID.finditer(text), 10)
                 if not denied_before(text, m.start(), 25)), "")


# A Dice and an IoU the words give for the same predictions ("my Dice comes out at about 0.80 but my IoU only at about
# 0.67"), as fractions or percentages
# (a Dice score, not a Dice loss, one minus it; nor the threshold it was taken at, "Dice@0.5")
_DICE_SAID = lazy_regex.compile(r"(?i)\bdice\b(?!\s*(?:_|-)?(?:loss|coefficient loss|@))[^.\n\d]{0,40}?(?<![\d.])(\d{1,3}(?:\.\d+)?\s?%|0?\.\d+|1\.0*)(?![\d.])")
_IOU_SAID = lazy_regex.compile(rf"(?i)(?<![a-z])(?:{IOU_NAME})(?![a-z])[^.\n\d]{{0,40}}?(?<![\d.])(\d{{1,3}}(?:\.\d+)?\s?%|0?\.\d+|1\.0*)(?![\d.])")


# Loss values the words give ("the BCE loss barely falls, from 0.099 to 0.097"): a rare class's log loss is below
# RARE_ENTROPY_MAX
_LOSS_SAID = lazy_regex.compile(r"(?i)\b(?:log[ _-]?loss|logloss|bce\w*|loss)\b[^.\n\d]{0,40}?(?<![\d.])(\d*\.\d+|\d+)(?![\d.])"
                                r"(?:[^.\n\d]{0,12}?(?:to|and|-)\s*(\d*\.\d+|\d+)(?![\d.]))?")
RARE_ENTROPY_MAX = 0.35


def _loss_above_rare(text: str) -> str:
    """The loss values said, when none is given or one is RARE_ENTROPY_MAX or more (no rare class's entropy); else ""."""
    said = [float(v) for m in itertools.islice(_LOSS_SAID.finditer(text), 20) for v in m.groups() if v]
    return "" if said and max(said) < RARE_ENTROPY_MAX else "no loss of a rare class's size"


_WENT_WRONG_WITH_IT = lazy_regex.compile(r"(?i)\bloss\w*\b[^.\n]{0,40}?\b(?:goes|went)\s+up\b|\bloss\w*\b[^.\n]{0,40}?\b(?:rises?|rose|"
                                         r"climbs?|climbed|increas\w*|jumps?|jumped|explod\w*)\b|\bacc\w*\b[^.\n]{0,40}?\b(?:falls?|"
                                         r"fell|drops?|dropped|decreas\w*)\b|\bloss\w*\b[^.\n\d]{0,20}?\bfrom\s+(\d*\.?\d+)\s+to\s+"
                                         r"(?:about\s+)?(\d*\.?\d+)")


def _went_wrong_with_it(text: str) -> str:
    """Words that a loss climbed ("the loss goes from 0.6 to 8.2") or an accuracy fell, as written; or ""."""
    for m in itertools.islice(_WENT_WRONG_WITH_IT.finditer(text), 10):
        if m.group(1) is None or float(m.group(2)) > float(m.group(1)):
            return m.group(0)
    return ""


# A token accuracy and a share of whole sentences right, as the words give them ("95% token accuracy", "only around
# half of the sentences"), and a sentence length said
_TOKEN_ACCURACY = lazy_regex.compile(r"(?i)(?<![\d.])(\d{2}(?:\.\d+)?)\s?%\s+(?:token|tag|word|per-token|character|char)[- ]?(?:level\s+)?"
                                     r"accuracy\b|\b(?:token|tag|word|per-token|character|char)[- ]?(?:level\s+)?accuracy\b[^.\n\d]{0,30}?"
                                     r"(?<![\d.])(\d{2}(?:\.\d+)?)\s?%")
_SENTENCE_SHARE = lazy_regex.compile(r"(?i)\b(?:about\s+|around\s+|roughly\s+)?(half|a third|a quarter|(?<![\d.])\d{1,2}(?:\.\d+)?\s?%)"
                                     r"\s+(?:of\s+)?(?:the\s+)?(?:sentences?|sequences?|utterances?)\b|\b(?:sentences?|sequences?|"
                                     r"utterances?|exact[- ]match)\b[^.\n\d]{0,60}?(?<![\d.])(half|a third|a quarter|\d{1,2}(?:\.\d+)?\s?%)")
_SHARE_WORDS = {"half": 0.5, "a third": 1 / 3, "a quarter": 0.25}
_LENGTH_SAID = lazy_regex.compile(r"(?i)\b(?:about|around|roughly|of|average(?:\s+of)?|mean(?:\s+of)?)\s+(\d{1,3})\s+(?:tokens|words)\b")
SENTENCE_LENGTH_MAX = 60


def _sentences_unlikely(text: str) -> str:
    """Where the token accuracy a and the sentence share s are both given but s is too low for a^n at any plausible
    length n (ln s / ln a above twice the length said, or above SENTENCE_LENGTH_MAX tokens): the words; or "" when
    a^n can explain it. No answer without both numbers."""
    token, share = _TOKEN_ACCURACY.search(text), _SENTENCE_SHARE.search(text)
    if token is None or share is None:
        return "no token accuracy and sentence share to set against each other"
    a = float(token.group(1) or token.group(2)) / 100
    said = (share.group(1) or share.group(2)).lower()
    s = _SHARE_WORDS.get(said) or float(said.rstrip("% ").strip()) / 100
    if not 0 < s < a < 1:
        return "no sentence share below the token accuracy"
    n = math.log(s) / math.log(a)
    length = _LENGTH_SAID.search(text)
    limit = 2 * int(length.group(1)) if length else SENTENCE_LENGTH_MAX
    return f"a sentence share of {said} needs sentences of {n:.0f} tokens at {a:.0%}" if n > limit else ""


# Targets said far from zero, or every prediction 0: no near-zero target blew the MAPE up
_NO_TARGET_NEAR_ZERO = lazy_regex.compile(r"(?i)\b(?:none|no\s+(?:targets?|values?|actuals?))\b[^.\n]{0,20}?\bnear\s+(?:zero|0)\b|"
                                          r"\ball\s+in\s+the\s+(?:hundreds|thousands|millions)\b|\bpredictions?\s+(?:are\s+)?(?:all\s+)?"
                                          r"(?:zero|0)\b")
# (a ROC AUC at 0.5; a PR-AUC's chance is the base rate, not 0.5)
_AUC_AT_CHANCE = lazy_regex.compile(r"(?i)(?<!pr-)(?<!pr )\bauc\b[^.\n\d]{0,30}?(?<![\d.])0?\.50?\d?(?![\d])|(?<!pr-)(?<!pr )\bauc\b"
                                    r"[^.\n]{0,30}?\bchance\b")
# Two batch sizes the words give (run_said.BATCH_SIZE: "batch_size=64 ... batch_size=512"), or a bigger or smaller batch
# said; a C-index said to sit at chance (0.5) or to fall
_BATCH_CHANGED = lazy_regex.compile(r"(?i)\b(?:bigger|larger|smaller|greater)\s+batch")
_CINDEX_CHANCE = lazy_regex.compile(r"(?i)\bc-?index\b[^.\n\d]{0,30}?\b0?\.5(?:0\d?)?(?![\d])|\bc-?index\b[^.\n]{0,40}?\b(?:falls?|fell|drops?|"
                                    r"dropped|decreas\w*|stays?\s+at\s+(?:chance|0?\.5))\b")


def _cox_unless(text: str) -> str:
    """Why the Cox answer is not the one: no two batch sizes compared, a C-index at chance or falling, the run said
    not to learn or to go nan; or ""."""
    sizes = {m.group("size") for m in itertools.islice(BATCH_SIZE.finditer(text), 20)}
    if len(sizes) < 2 and not _BATCH_CHANGED.search(text):
        return "no two batch sizes compared"
    return ("a C-index at chance or falling" if _CINDEX_CHANCE.search(text) else "") or _nonfinite_said(text) \
        or _not_learning_said(text)


# A scaling the words deny ("the target is not scaled", "never normalized"), an MSE on the scaled target too large for
# a model that learned (0.5 and more: under half the variance explained), or one said to match the mean's
_SCALING_DENIED = lazy_regex.compile(r"(?i)\b(?:not|never|n't|without|un)[ -]?(?:\w+\s+){0,2}?(?:standardi[sz]|normali[sz]|scal|z-?scor)\w*")
_MSE_SAID = lazy_regex.compile(r"(?i)\bmse\b[^.\n\d]{0,40}?(?<![\d.])(\d*\.?\d+(?:e[-+]?\d+)?)")
_MEAN_PREDICTOR = lazy_regex.compile(r"(?i)\b(?:same\s+as\s+(?:always\s+)?predicting\s+the\s+mean|all\s+the\s+same|"
                                     r"predictions?\s+(?:are|is)\s+(?:all\s+)?(?:the\s+same|constant))\b")


# The loss itself said to go below zero ("the loss goes negative", "a negative loss", "loss of -0.42"), not denied
_LOSS_BELOW_ZERO = lazy_regex.compile(r"(?i)\bnegative\s+(?:loss|nll|cost)\b|\b(?:loss|nll|cost)\b(?:(?!\b(?:not|never|no)\b)"
                                      r"[^.\n]){0,40}?(?:\bnegative\b|\bbelow\s+zero\b|\bless\s+than\s+zero\b|(?<![\w.])-\d)")


def _scaled_target_unless(text: str) -> str:
    if _SCALING_DENIED.search(text):
        return "a scaling denied"
    mse = _MSE_SAID.search(text)
    if mse and float(mse.group(1)) >= 0.5:
        return "an MSE on the scaled target too large for a model that learned"
    # (nor beside a loss said to go below zero, which no squared or absolute error does: another loss, a likelihood's --
    # the loss's own sign, not the negative values standardised targets have)
    return ("predictions that are the mean's" if _MEAN_PREDICTOR.search(text) else "") or _nonfinite_said(text) \
        or _not_learning_said(text) or _found(_LOSS_BELOW_ZERO, text)


# A return said to fall from its best, or to sit below the task's threshold: a run that got worse is the question then
# (any fall, whatever its subject: "then it drops back"; or a return said to sit below the 475 that solves it)
_FELL_OR_LOW = lazy_regex.compile(rf"(?i)\b(?:{FALL_VERBS}|degrad\w*|unlearn\w*)\b|"
                                  r"\b(?:returns?|rewards?|scores?)\b[^.\n]{0,40}?\b(?:around|about|at|of|~)\s*(?:[1-9]\d?|[1-3]\d\d|4[0-6]\d)"
                                  r"(?:\.\d+)?\b(?!\s*(?:k|episodes?|steps?))")


# Two runs said to end far apart -- "completely different", one learning and the other not -- more than a drift of the
# last bits grows to in a healthy run
_RUNS_FAR_APART = lazy_regex.compile(r"(?i)\b(?:completely|totally|wildly|hugely|very|vastly|drastically|massively)\s+"
                                     r"(?:different|differ\w*)\b|\bhuge (?:difference|gap)\b|\bone (?:of them|run)\b[^.\n]{0,40}?"
                                     r"\b(?:fails?|failed|diverg\w*|collaps\w*|never learns?|doesn't learn)\b|"
                                     r"\bdiffer\w*\s+(?:a lot|significantly|greatly|massively)\b|"
                                     # (or against a paper's number: that is no second run of the same setup)
                                     r"\b(?:from|than|to|vs\.?|versus)\s+(?:the\s+)?(?:paper|reported|published)\w*\b")
# (two runs seeded differently are no same seed: "one with seed=0 and one with seed=1")
_SEEDS_NAMED = lazy_regex.compile(r"(?i)\bseed(?:\s*[=(:]\s*|\s+)(\d+)")
# ... or two scores given that differ by two points or more: "92% vs 61%", "by 5 points"
_SCORES_APART = lazy_regex.compile(r"(?i)(?<![\d.])(\d{1,3}(?:\.\d+)?|0?\.\d+)\s?(%?)(?:\s*\)?)\s*(?:vs\.?|versus|and|against|"
                                   r"and the other(?: \w+)?|,? the other(?: \w+)?)\s*(\d{1,3}(?:\.\d+)?|0?\.\d+)\s?(%?)(?!\d|\.\d)|"
                                   r"\bby\s+(?:about\s+|~\s?)?(\d{1,3}(?:\.\d+)?)\s*(?:percentage\s+)?points\b")


# Two runs, or their curves, said to diverge from each other: apart, not each to a nan ("the two curves diverge from
# one another after step 40")
_APART = r"diverg\w*\s+(?:from\s+(?:each\s+other|one\s+another)|apart)"
_DRIFT_APART = lazy_regex.compile(r"(?i)\b" + _APART + r"\b")
# (a training and a validation loss said to diverge from each other: the gap, not two runs' drift)
_TRAIN_VAL_APART = lazy_regex.compile(r"(?i)\btrain\w*\s+(?:loss\s+)?(?:and|&)\s+(?:the\s+)?val\w*[^.\n]{0,40}?\b" + _APART)


NATS_BITS = "a loss in nats beside a figure in bits"
# A figure given in bits: per dimension, pixel, character, byte or token, or as its abbreviation (bpd, bpc, bpb)
_BITS_GIVEN = (r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:bits?\s*(?:/|per\s+)\s*(?:dim\w*|sub-?pixels?|pixels?|char\w*|bytes?|"
               r"tokens?)|bpd|bpc|bpb)\b")
# ... or a fairseq log's loss or nll_loss, which its criteria log in bits: they divide by ln 2 before logging
# (fairseq/criterions/label_smoothed_cross_entropy.py, reduce_metrics, at v0.12.2) -- on fairseq's own lines only
# (logscan's fairseq dialect: `| valid | epoch 023 | valid on 'dev' subset | loss 4.871 | nll_loss 3.102 | ...`)
# (its nll_loss only: its loss is the label-smoothed one, no cross-entropy; and none of fairseq's lines is compared,
# a checkpoint's `score 6.012` as much as an epoch's fields: all in bits)
_FAIRSEQ_LINE = lazy_regex.compile(r"(?m)^[^\n]{0,200}" + FAIRSEQ_LINE_MARK + r"[^\n]*$")
_FAIRSEQ_ANY_LINE = lazy_regex.compile(r"(?m)^[^\n]{0,200}\| (?:INFO|WARNING|DEBUG) \| [^\n]*$")
_FAIRSEQ_FIELD = lazy_regex.compile(r"(?<= )nll_loss[ =](\d+\.\d+)(?=[ ,|]|$)")
_BITS_FIGURE = lazy_regex.compile(r"(?i)" + _BITS_GIVEN)
# (asked by a figure in bits or by an nll_loss field; nats_as_bits checks that the field is on fairseq's own line)
_BITS_ASKED = lazy_regex.compile(r"(?i)" + _BITS_GIVEN + r"|(?<=\| )nll_loss[ =]\d")
# (a number with three significant digits or more: "0.9" and "3.9" are near many things)
_DECIMAL = lazy_regex.compile(r"(?<![\w.])(\d+\.\d+)(?![\w]|\.\d)")
_SIGNIFICANT = lazy_regex.compile(r"[1-9]\d*\.?\d*$")
# (within this share of each other: the loss of a model a little worse or better than the paper's, not another number)
NATS_AS_BITS_NEAR = 0.03


SOFT_TARGETS_DENIED = lazy_regex.compile(r"(?i)\b(?:without|no|not using|w/o)\s+(?:any\s+)?(?:mixup|cutmix|label[ _-]?smoothing|"
                                         r"soft[ _-]?(?:targets?|labels?))|\bone[- ]hot\b|\bhard\s+labels?\b")


def nats_as_bits(text: str) -> str:
    """A number the text gives that is a figure it gives in bits times ln 2, within NATS_AS_BITS_NEAR ("2.0476" beside
    "2.92 bits/dim": 2.0476 / ln 2 = 2.954), as "y / ln 2 = y' against x bits"; or ""."""
    tagged = [(m.start(1), float(m.group(1))) for m in itertools.islice(_BITS_FIGURE.finditer(text), 10)]
    fairseq = [(m.start(), m.end()) for m in itertools.islice(_FAIRSEQ_LINE.finditer(text), 50)]
    figures = tagged + [(a + f.start(1), float(f.group(1))) for a, b in fairseq[:10]
                        for f in itertools.islice(_FAIRSEQ_FIELD.finditer(text[a:b]), 1)]
    if not figures:
        return ""
    logged = fairseq + [(m.start(), m.end()) for m in itertools.islice(_FAIRSEQ_ANY_LINE.finditer(text), 50)]
    in_bits = {at for at, _ in tagged}          # (a number given in bits is no nats to divide)
    for m in itertools.islice(_DECIMAL.finditer(text), 200):
        significant = _SIGNIFICANT.search(m.group(1))       # (none in "0.0")
        if m.start() in in_bits or any(a <= m.start() < b for a, b in logged) \
                or not significant or len(significant.group(0).replace(".", "")) < 3:
            continue
        value = float(m.group(1))
        for at, bits in figures:
            if bits > 0 and abs(value / math.log(2) - bits) <= NATS_AS_BITS_NEAR * bits:
                return f"{m.group(1)} / ln 2 = {value / math.log(2):.3f}, against {bits:g} bits"
    return ""


def _runs_far_apart(text: str) -> str:
    """The words that say two runs ended far apart (_RUNS_FAR_APART), or two scores two points apart or more; or ""."""
    if far := _RUNS_FAR_APART.search(text):
        return far.group(0)
    if len({m.group(1) for m in itertools.islice(_SEEDS_NAMED.finditer(text), 10)}) > 1:
        return "two seeds"
    for m in itertools.islice(_SCORES_APART.finditer(text), 10):
        if m.group(5):
            gap = float(m.group(5))
        else:
            # (a fraction in points of a percent: 0.912 and 0.614 are 29.8 points apart)
            a, b = (float(m.group(i)) * (1 if m.group(i + 1) or float(m.group(i)) > 1 else 100) for i in (1, 3))
            gap = abs(a - b)
        if gap >= 2:
            return m.group(0)
    return ""


# An FID said to get worse, or to stop improving
_FID_WORSE = lazy_regex.compile(r"(?i)\bfid\b[^.\n]{0,40}?\b(?:rises|rising|rose|increas\w*|goes up|went up|gets? worse|got worse|"
                                r"worsen\w*|climb\w*|stuck|plateau\w*|stopped improving|not improving|no longer improv\w*)\b")


# An FID said in numbers to have risen: "the FID went from 40 to 75"
_FID_FROM_TO = lazy_regex.compile(r"(?i)\bfid\b[^.\n\d]{0,30}?\bfrom\s+(\d+(?:\.\d+)?)\s+(?:up\s+)?to\s+(\d+(?:\.\d+)?)")


def _fid_rose(text: str) -> str:
    m = _FID_FROM_TO.search(text)
    return m.group(0) if m and float(m.group(2)) > float(m.group(1)) else ""


# A score said not to improve, of training or of validation: the question is then the run, not the two metrics
_SCORE_STUCK = lazy_regex.compile(r"(?i)\b(?:not|n't|never)\s+(?:\w+\s+)?improv\w*|\bstuck\b|\bplateau\w*")


def _fraction(said: str) -> tuple[float, float]:
    """A score as written, as a fraction, and the half-width of the rounding it was written with."""
    percent, number = said.rstrip().endswith("%"), said.rstrip("% ").strip()
    return (float(number) / 100, rounding_of(number) / 100) if percent else (float(number), rounding_of(number))


def _dice_iou_apart(text: str) -> str:
    """Why a Dice and an IoU the words give are not the same predictions' (not both given, or out of the range one
    Dice allows the IoU), or "" when they are: for one pair of masks IoU = Dice / (2 - Dice); averaged over images, the
    mean IoU lies between the mean Dice put through that formula (which is convex: Jensen) and the mean Dice itself."""
    dice, iou = _DICE_SAID.search(text), _IOU_SAID.search(text)
    if not (dice and iou):
        return ""                       # (the question needs both: its pattern asks for them)
    (d, d_half), (j, j_half) = _fraction(dice.group(1)), _fraction(iou.group(1))
    if not 0 < d <= 1 or not 0 < j <= 1:
        return "a score out of range"
    low = (d - d_half) / (2 - (d - d_half))
    return "" if low - j_half <= j <= d + d_half + j_half else "an IoU that one Dice does not allow"


# What a tool prints, or a number it reports, that looks like a fault and is not: each answers a question asked about
# it, with the tool's own source. Before the generic answers (a large start, a gap between training and validation):
# they name the tool, and explain more.
# (scores that are no log-probabilities: a critic's, a reward model's, an anomaly detector's, a metric's)
NOT_LOG_PROB_SCORES = lazy_regex.compile(r"(?i)\b(?:critic|discriminator|reward|anomal\w*|r2|r²|f1|bleu|rouge|silhouette|"
                                         r"decision_function)\b[^.?!\n]{0,40}?\bscores?\b")
TOOL_ANSWERS = (
    # (asked of a sequence model's output: a generation, a beam search, a translation's hypotheses -- not of a critic's,
    # a reward model's, an anomaly detector's or a metric's scores, which are no log-probabilities)
    Normal("a sequence model's scores, which are log-probabilities",
           lazy_regex.compile(r"(?s)\A(?=.*(?:\bbeam\b|\bhypothes\w*|sequences_scores|output_scores|\bgenerate\b|^[hp]-\d+\t|"
                              r"\btranslations?\b))(?=.*(?:\bnegative\s+(?:[\w-]+\s+)?(?:scores?|log[- ]?probs?|logprobs?|"
                              r"log[- ]?probabilit(?:y|ies))\b|(?:\b|_)(?:scores?|log[- ]?probs?|logprobs?|log[- ]?probabilit(?:y|ies))\b"
                              r"(?:[^.;!?\n]|\.(?=\d)){0,60}?\b(?:(?:are|is)\s+(?:all\s+|always\s+)?|all\s+)negative\b))", re.M),
           "a sequence model scores a hypothesis with the log of its probability (summed over its tokens, or per token): "
           "the log of a number at most 1, so never above 0, and the nearer 0 the likelier. fairseq-generate prints them "
           "in base 2, the H line's score (its tokens' sum, divided by the length to a power, --lenpen) and the P "
           "line's per-token scores (`hypo[\"score\"] / math.log(2)`, "
           "https://github.com/facebookresearch/fairseq/blob/v0.12.2/fairseq_cli/generate.py#L274-L295): a token's "
           "-0.5 there is a probability of 2^-0.5 = 0.71",
           "whether any score is above 0: a log-probability above 0 would be the bug",
           unless=lambda text: NOT_LOG_PROB_SCORES.search(text) is not None),
    Normal("YOLO's \"NMS time limit exceeded\" while an untrained detector is validated",
           lazy_regex.compile(r"\bnms time limit \d+(?:\.\d+)?s exceeded"),
           "ultralytics gives non-maximum suppression 2 s plus 0.05 s per image of the batch (`time_limit = 2.0 + "
           "max_time_img * bs`), then stops and warns \"NMS time limit ... exceeded\" (non_max_suppression in "
           "https://github.com/ultralytics/ultralytics/blob/7d4fe9cb7d452e69875abb3fd0836257184cd339/ultralytics/utils/ops.py). "
           "Validation keeps boxes down to a very low confidence, and a detector in its first epochs is unsure "
           "everywhere: many boxes, a slow NMS. The images of that batch left unprocessed get no boxes, so the early "
           "mAP reads a little low; training is untouched, and the warning goes once the model is confident",
           "whether the warning fades over the epochs while the losses fall and the mAP rises"),
    Normal("Keras's reported loss, which includes the weight penalties",
           # (a regularizer named, beside a reported loss said to stay above one computed by hand or never to go low)
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:kernel_regularizer|bias_regularizer|activity_regularizer|regularizers\.l[12]\w*|"
                              r"add_loss)\b)(?=.*\b(?:log_loss|from predict\(\)|on predict\(\)|computed (?:it )?manually|"
                              r"never gets below|never goes below)\b)"),
           "Keras adds the losses its layers hold -- the kernel_regularizer penalties among them -- to the compiled loss "
           "in compute_loss, in fit() and in evaluate() alike "
           "(https://github.com/keras-team/keras/blob/v3.15.1/keras/src/trainers/trainer.py#L390-L391; a layer's losses "
           "include its weight regularization: https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/"
           "layer.py#L1312-L1321). The loss it prints is the cross-entropy plus the penalty, and stays above the "
           "cross-entropy computed from predict() by about the size of the penalty in evaluate() (fit()'s printed loss "
           "is besides a mean over the epoch, with dropout on)",
           "sum(model.losses) beside the gap between the reported loss and the one computed from predict(): they "
           "should match"),
    Normal("a training loss that rose once class weights were added",
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:class_weights?|class weights?|pos_weight|sample_weights?)\b)"
                              r"(?=.*\bloss\w*\b[^.?\n]{0,100}?\b(?:went up|goes up|increas\w*|rose|higher|larger|bigger|"
                              r"worse|jumped)\b)"),
           "a class weight multiplies each example's loss by its class's weight, so the loss reported is another "
           "quantity than the unweighted one: the rare class, the one the model gets wrong most, now counts many times "
           "more, and the number rises while the model may be better at what the weights ask for (the rare class's "
           "recall); with a large weight on the rare class, the weighted mean is higher. Keras applies class_weight "
           "during training only (https://github.com/keras-team/keras/blob/v3.15.1/keras/src/trainers/trainer.py#L653-L655): "
           "its val_loss is unweighted, and the two are not comparable",
           "the unweighted loss of both models on the same data, and the metric the weights are there for (the rare "
           "class's recall and precision)",
           unless=_nonfinite_said),
    Normal("Keras's non-trainable parameters, which are BatchNormalization's moving statistics",
           # (Keras's summary line, `Non-trainable params: 1,920 (7.50 KB)`: not Lightning's table, `11.2 M  Non-trainable
           # params`, nor a model the words freeze on purpose)
           lazy_regex.compile(r"\bnon-trainable params:\s*(?!0\b)\d"),
           "a BatchNormalization layer keeps a moving mean and a moving variance for each channel, updated as running "
           "averages in training mode and not by gradients, so Keras counts them as non-trainable "
           "(https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/normalization/batch_normalization.py#L61-L62, "
           "created with trainable=False at #L262-L274): where no layer was frozen, that is what they are (a "
           "Normalization layer's statistics count there too)",
           "twice the channels of every BatchNormalization layer, summed: it should equal the non-trainable count",
           unless=_frozen_said),
    Normal("a diffusion model's per-step loss, which is mostly the noise level it drew",
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:diffusion|ddpm|ddim|denoising|noise[_ ]pred\w*|diffusers)\b)"
                              r"(?=.*(?<![a-z])loss\w*\b[^.?\n]{0,80}?\b(?:flat|noisy|jumps?|jumping|bounc\w+|fluctuat\w+))"),
           "a diffusion model trains on a noise level drawn at random for each example (DDPM draws the timestep "
           "uniformly and regresses the noise that was added: Ho et al. 2020, Algorithm 1), and how hard that is "
           "depends mostly on the draw, so one step's loss moves by an order of magnitude with the timesteps its batch "
           "got, and its average over a fine-tune that starts from a pretrained model barely moves: what the model "
           "learns is small next to that spread. Judge it by samples from fixed prompts and seeds",
           "samples from the same prompts and seeds at several checkpoints, or the loss averaged per timestep",
           explains_noise=True, unless=_diffusion_broken_said),
    Normal("PyTorch's \"enable_nested_tensor is True, but self.use_nested_tensor is False\" warning",
           lazy_regex.compile(r"\benable_nested_tensor is true, but self\.use_nested_tensor is false\b"),
           "nn.TransformerEncoder warns so when it is built, where one of its layers rules out the fast path that packs a "
           "padded batch into a nested tensor (norm_first=True is one such reason: "
           "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/modules/"
           "transformer.py#L398-L403). That path only makes inference faster: forward takes it only with "
           "the first layer out of training mode and no gradient wanted (#L462-L467, #L521-L525), and where it does not, "
           "it hands src_key_padding_mask to every layer as given (#L449, #L542). The padding is masked either way; "
           "what the warning costs is speed at inference",
           "the attention weights of one layer for a padded batch (its self_attn called with the same mask and "
           "need_weights=True): the padding positions should get a weight of 0",
           unless=_nonfinite_said),
    Normal("torchvision's `pretrained` deprecation warning, which names the weights it loads",
           # (the warning's last sentence naming a weights enum, not `weights=None`)
           lazy_regex.compile(r"(?i)the current behavior is equivalent to passing `weights=\w+_weights\.\w+`"),
           "torchvision 0.13 and later still read `pretrained=True`: handle_legacy_interface turns it into the weights "
           "enum the builder names, warns, and builds the model with those weights "
           "(https://github.com/pytorch/vision/blob/v0.16.0/torchvision/models/_utils.py#L200-L226; for resnet50 the "
           "enum is ResNet50_Weights.IMAGENET1K_V1, resnet.py#L735 there). The warning's last sentence names the "
           "weights that were loaded: the pretrained ImageNet weights are in the model. `weights=...DEFAULT` may name "
           "newer ones (ResNet50's DEFAULT is IMAGENET1K_V2, resnet.py#L396); only `weights=None` in that sentence "
           "would mean no pretrained weights",
           "the sentence \"The current behavior is equivalent to passing `weights=...`\" in the warning: a weights enum "
           "there is what was loaded",
           unless=lambda text: _nonfinite_said(text) or _not_learning_said(text)
           or _found(NO_WEIGHTS_PASSED, text)),
    Normal("a word error rate above 100%",
           # (above 100%, not at it: a WER of exactly 100% is every word deleted, a model that outputs nothing; nor a
           # fall "from 100%")
           lazy_regex.compile(r"\b(?:wer|cer|word error rate|character error rate)\b[^.?\n]{0,40}?(?:\b(?:above|over|more than|"
                              r"greater than|exceeds?|exceeding|higher than)\s+(?:100\s?%|1(?:\.0+)?\b)|(?<!from )(?<![\d.])"
                              r"(?:10[1-9]|1[1-9]\d|[2-9]\d\d)(?:\.\d+)?\s?%|(?<!from )(?<![\d.])100\.\d*[1-9]\d*\s?%)"),
           "jiwer counts the word error rate as (S + D + I) / (H + S + D) "
           "(https://github.com/jitsi/jiwer/blob/v4.0.0/src/jiwer/process.py#L247): substitutions, deletions and "
           "insertions over the words of the reference. Insertions have no bound, so a hypothesis with more words than "
           "its reference -- a young model that splits words apart -- makes more errors than the reference has words, "
           "and the rate passes 100%; the character error rate is the same count over characters. Early in training "
           "that is common, and the loss and the CER falling say the model learns",
           "the CER and the loss over the next epochs, and the hypotheses' length against the references': the WER "
           "comes below 100% as the insertions go",
           unless=lambda text: _nonfinite_said(text) or _not_learning_said(text)),
    Normal("a perplexity, the exponential of the loss, in the thousands at the start",
           # (a perplexity given as a number of three digits or more -- `eval_perplexity 10019.73`, "perplexity around
           # 10,000"; not a percentage, nor a count after it, "perplexity at step 1000 is 35" -- in a report that asks
           # about it: a question that names it, not a log's `ppl=` beside a question of another thing)
           lazy_regex.compile(r"(?si)\A(?=.*" + _PERPLEXITY_GIVEN + r")(?=.*(?<![a-z])(?:perplexity|ppl)\b[^.?!\n]*\?)"),
           "a perplexity is the exponential of the mean cross-entropy per token (\"the exponentiated average negative "
           "log-likelihood of a sequence\", https://huggingface.co/docs/transformers/perplexity): e^loss for a loss in "
           "nats, 2^loss for one in bits, as fairseq prints its loss and ppl (utils.get_perplexity, base=2, at v0.12.2). "
           "A model that guesses uniformly over V tokens has a perplexity of V whatever the base, a loss of ln V nats or "
           "log2 V bits: 10,000 for a 10,000-token vocabulary, where the loss is 9.21 nats. So thousands at the start and "
           "hundreds later are a language model learning from scratch, and the exponential makes small changes of the "
           "loss large ones of the perplexity (a loss 0.1 nats lower is a perplexity 9.5% lower)",
           "the loss behind it, the log of each perplexity (base 2 for fairseq's bits): it should start near the log "
           "of V and fall",
           frozenset({"diverge", "overflow"}),
           falls=True,        # (its answer is a perplexity that falls: not beside loss values that did not)
           unless=_perplexity_unless),
    Normal(NATS_BITS,
           # (a figure given in bits -- "2.92 bits/dim", "1.08 bpc" -- in a report that gives another number of the same
           # size; the arithmetic that ties them is nats_as_bits's)
           _BITS_ASKED,
           "a log-likelihood in bits is the same number in nats divided by ln 2 = 0.693: the loss PyTorch and most code "
           "compute uses the natural log, and papers on density models and character-level language models report bits "
           "per dimension or per character (PixelCNN++'s 2.92 bits/dim on CIFAR-10 is 2.02 nats per dimension: Salimans "
           "et al. 2017, https://arxiv.org/abs/1701.05517). A value in nats is 0.693 times the same figure in bits, so it "
           "looks 30% better than a paper that is no better; divided by ln 2 it is the figure to compare. fairseq logs "
           "its loss and nll_loss in bits too: its criteria divide by ln 2 before logging "
           "(fairseq/criterions/label_smoothed_cross_entropy.py, reduce_metrics, at v0.12.2), so a cross-entropy "
           "computed by hand from the same model, in nats, is 0.693 times its nll_loss",
           "the value divided by ln 2 (0.6931) beside the figure in bits (a paper's, or a fairseq log's): the same "
           "number, near enough, is a difference of units only",
           # (not beside words of a run that broke or does not learn: a unit explains a level, not a failure)
           unless=lambda text: _nonfinite_said(told(text)) or _not_learning_said(text)
           or ("" if nats_as_bits(text) else "no number that is the figure in bits times ln 2")),
    Normal("CartPole-v1's return of 500, the most an episode can give",
           # (v1, and 500 the return's own value: not "after 500 episodes", "batch size 500")
           lazy_regex.compile(r"(?s)\A(?=.*\bcart-?pole-v1\b|(?!.*\bcart-?pole-v0\b).*\bcart-?pole\b)"
                              r"(?=.*\b(?:returns?|rewards?|scores?)\b[^.\n\d]{0,40}?(?<![\d.])500(?:\.0+)?(?![\d.])(?!\s*(?:episodes?|"
                              r"steps?|iterations?|updates?)\b))"
                              r"(?=.*\b(?:never|plateau\w*|higher|above|past|beyond|cap\w*|limit\w*|max\w*)\b)"),
           "Gymnasium registers CartPole-v1 with max_episode_steps=500 (https://github.com/Farama-Foundation/Gymnasium/"
           "blob/v1.3.0/gymnasium/envs/__init__.py#L26-L32; v0 with 200) and gives a reward of +1 for every step "
           "(cartpole.py#L58-L59 there), so the time limit truncates every episode at 500 steps and a return of 500 "
           "is the most there is: an agent that returns it on every episode has solved the task (its reward threshold "
           "is 475), and no setting of the agent takes it higher",
           "the episode length: 500 steps, ended by truncation (the time limit), not by termination (the pole falling)",
           # (the return that climbed to it is the question)
           frozenset({"climb"}),
           unless=lambda text: _nonfinite_said(text) or _FELL_OR_LOW.search(text) is not None),
    Normal("a Cox partial likelihood computed over the batch, which grows with the batch size and stays far from 0",
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:cox|partial (?:log-?)?likelihood|deepsurv)\b)(?=.*\bbatch(?:[ _-]?size)?\b)"
                              r"(?=.*\bloss\w*\b[^?\n]{0,120}?\b(?:higher|larger|bigger|greater|grows?|increas\w*)\b)"),
           "a Cox partial likelihood computed within a mini-batch compares each event with the batch's own risk set, the "
           "samples still at risk at its time (DeepSurv's loss: Katzman et al. 2018, BMC Medical Research Methodology "
           "18:24, Eq. 4): the log of a sum over that set is in the loss, so the same model's loss grows by about the "
           "log of the batch sizes' ratio where it is averaged over the events (from 64 to 512, for example, by ln 8 = "
           "2.08), and stays far from 0 while the model ranks well -- a fall "
           "of a few percent from the first epoch is what learning looks like there. Compare the runs by the "
           "concordance index computed on the whole validation set, not by the loss",
           "the difference between the two runs' losses against ln of the ratio of their batch sizes, and the validation "
           "C-index of both",
           unless=lambda text: _cox_unless(text),
           explains_plateau=True),
    Normal("a loss on standardised targets, which is in units of their variance",
           lazy_regex.compile(r"(?s)\A(?=.*(?:\b(?:targets?|y|labels?|outputs?)\b[^.\n]{0,60}?\b(?:standardi[sz]\w*|normali[sz]\w*|"
                              r"z-?scor\w*|scaled)\b|\b(?:standardi[sz]\w*|normali[sz]\w*|z-?scor\w*|scaled)\b[^.\n]{0,60}?\b(?:targets?|"
                              r"target included|y)\b))(?=.*\b(?:convert\w*|back to|original (?:units|scale)|inverse_transform|"
                              r"de-?normali[sz]\w*|un-?scal\w*|rescal\w*)\b)(?=.*\b(?:mse|mae|rmse|error)\b)(?=.*\?)"),
           "a mean squared error on a standardised target is in units of the target's variance: its square root is the "
           "root-mean-squared error in standard deviations (an MSE of 0.03, for example, is an RMSE of 0.17 standard "
           "deviations), and in the original units the error is that times the target's standard deviation (for a "
           "standard deviation of 6.5 degrees, 0.17 x 6.5 = 1.1 degrees); a mean absolute error is a little smaller than the RMSE (about 0.8 of it for normal errors). A "
           "small loss on the scaled target and an error of a few units in the original one are the same number",
           "the target's standard deviation on the training split: the square root of the MSE times it should be close "
           "to the RMSE in the original units",
           unless=lambda text: _scaled_target_unless(text)),
    Normal("nnU-Net's loss, the cross-entropy plus minus the soft Dice, which goes below zero",
           # (nnU-Net named, and its loss said or printed below zero: `train_loss -0.6904`)
           lazy_regex.compile(r"(?s)\A(?=.*(?:" + MINUS_SCORE_TRAINER.pattern + r"))(?=.*(?:" + NEGATIVE_SAID.pattern
                              + r"|\b(?:train|val)_loss\s*(?::\s*)?-\d*\.?\d))", re.I),
           "nnU-Net trains on the cross-entropy plus the soft Dice with its sign flipped: its soft Dice loss returns "
           "-dc (https://github.com/MIC-DKFZ/nnUNet/blob/v2.8.1/nnunetv2/training/loss/dice.py#L119), DC_and_CE_loss "
           "adds it to the cross-entropy with weights of 1 (compound_losses.py#L55, nnUNetTrainer.py#L444-L446 there), "
           "and the deep-supervision weights are scaled to sum to 1 (nnUNetTrainer.py#L466). The cross-entropy is at "
           "least 0 and the soft Dice at most 1, so the loss goes as low as -1, crosses zero once the Dice outgrows the "
           "cross-entropy, and the lower it goes the better: a loss of -L means a soft Dice of at least L (its weighted "
           "mean over the deep-supervision outputs)",
           "the pseudo Dice nnU-Net prints beside the loss each epoch: it should rise as the loss falls below zero",
           unless=lambda text: _nonfinite_said(text) or _not_learning_said(text)),
    Normal("a log loss on rare positives, which sits near the base rate's entropy and has little room to fall",
           # (a binary log loss, positives said rare, the loss said to barely move, and a ranking measure said to be
           # above a baseline or to rise)
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:log[ _-]?loss|logloss|bce\w*|binary[ _]cross[ _-]?entropy\w*)\b)"
                              r"(?=.*(?:\b(?:a\s+)?(?:small|tiny|low)\s+(?:share|fraction|percentage|proportion)\b|\brare\b|"
                              r"\bimbalanc\w*|\b(?:only|about|around|under|below)\s+\d(?:\.\d+)?\s?%\s+(?:of\s+)?(?:\w+\s+){0,3}?"
                              r"(?:are\s+|is\s+|get\s+|gets\s+)?(?:positive|opened|click\w*|convert\w*|fraud\w*|churn\w*|buy\w*)|"
                              # ("the positive rate is 2%", "click-through rate is 0.8%": a rate of one digit's percent)
                              r"\b(?:positive|click[- ]?through|conversion|fraud|churn|open|base)\s+rate\s+(?:is\s+|of\s+|=\s*|:\s*)?"
                              r"(?:about\s+|around\s+|~\s*)?(?<![\d.])\d(?:\.\d+)?\s?%))"
                              r"(?=.*\b(?:barely|hardly|only slightly|almost nothing|very little|little)\b)"
                              r"(?=.*\b(?:auc|pr-?auc|average precision|ndcg|recall@\d+)\b[^.\n]{0,60}?\b(?:higher|above|better|"
                              r"beats?|improv\w*|goes up|rises?|rising)\b)"),
           "with a share p of positives, the best a model can do knowing nothing of each example is to predict p for "
           "all of them, and its log loss is then the entropy of that base rate, -p ln p - (1 - p) ln(1 - p): 0.098 "
           "at p = 2%, 0.056 at 1% -- not ln 2 = 0.693, where a balanced problem starts. Once a model has learned that "
           "base rate (its bias), all its features can win is the distance from there to 0, small in "
           "absolute terms: at p = 2%, a fall from 0.10 to 0.09 is a tenth of all there is to win. That is why click "
           "models are judged by the log loss divided by the base rate's entropy (the normalised entropy of He et al. "
           "2014, Practical Lessons from Predicting Clicks on Ads at Facebook, section 2) or by a ranking measure "
           "such as the AUC",
           "the share of positives p in the training data, -p ln p - (1 - p) ln(1 - p) against the first and the last "
           "loss, and the validation AUC",
           # (and only where the loss values said are all of a rare class's size: a loss of 0.70 on 1% positives is
           # no base rate's entropy, which is below 0.33 up to 10% positives)
           unless=lambda text: _nonfinite_said(text) or _found(_AUC_AT_CHANCE, text)
           or _loss_above_rare(text)),
    Normal("a cross-entropy against soft targets, which cannot fall below the targets' own entropy",
           # (targets that are distributions -- MCTS visit counts, a teacher's probabilities, soft or smoothed labels,
           # mixup's blends -- and the loss said to flatten above 0, or expected to reach it)
           lazy_regex.compile(r"(?s)\A(?=.*(?:\bvisit[ _-]?counts?\b|\bsoft[ _-]?(?:targets?|labels?)\b|\bteacher'?s?\s+"
                              r"(?:probabilit\w*|distribution|soft)\w*|\blabel[ _-]?smoothing\b|\bmixup\b|\bcutmix\b|"
                              r"\btargets?\s+(?:is|are|=)\s+(?:the\s+)?(?:normali[sz]ed|a\s+distribution|probabilit)\w*))"
                              r"(?=.*\bcross[ _-]?entropy\b|.*\bkl\b|.*\bnll\b)"
                              r"(?=.*(?:\b(?:never|not|doesn't|does not|won't)\s+(?:gets?|go(?:es)?|fall\w*|drop\w*)\s+"
                              r"(?:any\s+)?(?:below|under|lower|further|to\s+(?:0|zero))\b|\bflatten\w*\b|\bplateau\w*\b|"
                              r"\bstuck\b|\btoward\s+0\b|\bgo\s+(?:to(?:ward)?\s+)?(?:0|zero)\b|\bfloor\b))"),
           "the cross-entropy against a target distribution p splits into p's own entropy and the distance from p to "
           "the model's q: H(p, q) = H(p) + KL(p || q), and the KL is never below 0, so the loss can fall only to H(p). "
           "Targets that are one-hot have no entropy and the loss can approach 0; soft ones do not -- root visit counts "
           "spread over many moves (more so with Dirichlet noise and a sampling temperature of 1), a teacher's "
           "probabilities, smoothed labels, mixup's blends. A loss flat well above 0 can be all H(p), the model "
           "matching its targets already; only the part above H(p) is the model's to win",
           "the targets' own entropy, -sum p ln p averaged over the data, against the loss: what lies between the two "
           "is the KL that training can still lower",
           explains_plateau=True,
           # (not where the words rule the soft targets out: "without mixup or label smoothing, plain one-hot labels")
           unless=lambda text: _nonfinite_said(text) or _found(SOFT_TARGETS_DENIED, text)),
    Normal("fastai's fit_one_cycle, whose rate rises before it falls",
           # (the one-cycle schedule named, and the rate said to go up)
           lazy_regex.compile(r"(?s)\A(?=.*(?<!replaced )(?<!instead of )(?<!switched from )(?<!not )\bfit_one_cycle\b)"
                              r"(?=.*\b(?:lr|learning rate)\b[^.\n]{0,60}?\b(?:goes|went|going)\s+up\b|.*\b(?:lr|learning rate)\b"
                              r"[^.\n]{0,60}?\b(?:rises|rose|increases|increased|climbs|climbed)\b)"),
           "fit_one_cycle follows the 1cycle policy (Smith 2018, A disciplined approach to neural network "
           "hyper-parameters, arXiv:1803.09820): over the first pct_start of the steps (0.25 by default) it raises the "
           "rate by a cosine from lr_max/div (div=25) to lr_max, then anneals it by a cosine to lr_max/div_final "
           "(div_final=1e5), and moves momentum through the Learner's moms by the same two cosines "
           "(https://github.com/fastai/fastai/blob/0a049e8a90b86d70860f68072698245a1ee787ca/fastai/callback/"
           "schedule.py, fit_one_cycle). A rate that rises first is that schedule's warmup, not a setting turned "
           "backwards",
           "learn.recorder.plot_sched(): the rate should peak at lr_max about pct_start of the way through and end "
           "far below it, momentum at its lowest where the rate peaks",
           # (the rate that goes up is the question -- not a loss that climbs with it, or an accuracy that falls: a
           # peak rate too high, WR-220)
           frozenset({"climb"}),
           unless=lambda text: _nonfinite_said(text) or _not_learning_said(text)
           or _went_wrong_with_it(text)),
    Normal("a sentence accuracy far below the token accuracy",
           # (a token accuracy and a share of whole sentences right, both given: _sentences_unlikely checks them)
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:token|tag|word|per-token|character|char)[- ]?(?:level\s+)?accuracy\b)"
                              r"(?=.*(?:\b(?:sentences?|sequences?|utterances?|exact[- ]match)\b|\bhalf\b))"),
           "a sentence counts as right only when every one of its tokens is: with a token accuracy a and n tokens, "
           "errors falling independently would leave a^n of the sentences right -- 0.95^12 = 0.54, 0.95^20 = 0.36 -- "
           "so 95% of the tokens and about half of the sentences go together for sentences of a dozen tokens. Errors "
           "that gather in the hard sentences, and sentences of unequal length, leave more sentences right than a^n "
           "at the mean length, not fewer",
           "the test set's mean sentence length n, and the token accuracy to the power n beside the sentence accuracy",
           unless=lambda text: _nonfinite_said(text) or _not_learning_said(text) or _sentences_unlikely(text)),
    Normal("a MAPE of hundreds or thousands of percent beside small errors",
           # (the MAPE named with a value of its own above 100 -- with a % or after its name's `:`, as Keras logs it in
           # percent; scikit-learn's fraction above 100 is huger still -- or "thousands of percent", not exactly 100%,
           # every prediction 0; and the errors said small, with no negation between, or the forecasts said to follow
           # the truth) (no possessive `{2,}+`, which Python 3.10 cannot read: a digit given back is one no branch
           # after it takes)
           lazy_regex.compile(r"(?s)\A(?=.*(?:\bmape\b|mean[ _]absolute[ _]percentage[ _]error)(?:\s*[:=]\s*(?!100(?:\.0+)?(?![\d.]))"
                              r"[1-9]\d{2,}(?:\.\d+)?(?!\d|\.\d)|[^.\n\d]{0,40}?(?<![\d.])(?!100(?:\.0+)?\s?%)[1-9]\d{2,}(?:[.,]\d+)?\s?%|"
                              r"[^.\n]{0,40}?\b(?:several |a few )?(?:thousands?|hundreds?) (?:of )?percent\b|[^.\n]{0,40}?\bseveral thousand\b))"
                              r"(?=.*(?:\b(?:mae|rmse|mse|errors?)\b(?:(?!\b(?:not|never|no)\b|n't\b)[^.\n]){0,60}?\b(?:small|low|tiny|fine|good)\b|"
                              r"(?<!n't )(?<!not )(?<!never )\b(?:follow|track|match)\w*\b(?:(?!\bnot\b)[^.\n]){0,40}?\b(?:closely|well|nicely)\b))"),
           "the MAPE divides each error by its true value -- scikit-learn's is |y_pred - y_true| / max(|y_true|, eps) "
           "(https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/metrics/_regression.py#L496; its docstring "
           "warns that \"bad predictions can lead to arbitrarily large MAPE values, especially if some `y_true` values "
           "are very close to zero\", #L463-L464 there). Divided by a true value near zero, even a small error is a "
           "huge share of it: a few targets near zero (a solar plant at dawn and dusk, a sales count of 0 or 1) "
           "make their terms enormous however small their errors, and the mean follows them. A small MAE beside such "
           "a MAPE says the errors are small and the measure is what blew up: report the MAE, or the sum of absolute "
           "errors over the sum of the targets (WAPE), or the MAPE over targets above a stated floor",
           "the MAPE with the targets below a small floor left out, beside the sum of absolute errors over the sum of "
           "the targets: both should be modest if the model is fine",
           # (not where the targets are said to be far from zero, nor the predictions all zero)
           unless=lambda text: _nonfinite_said(text) or _not_learning_said(text)
           or _found(_NO_TARGET_NEAR_ZERO, text)),
    Normal("a Dice score and an IoU that differ, for the same predictions",
           # (both given as numbers, and asked about; a Dice loss is not the score)
           lazy_regex.compile(r"(?s)\A(?=.*\bdice\b(?!\s*[_-]?(?:loss|@))[^.\n\d]{0,40}\d)"
                              rf"(?=.*(?<![a-z])(?:{IOU_NAME})(?![a-z])[^.\n\d]{{0,40}}\d)"
                              # (and the two set against each other: "but my IoU only", "much closer", "why do they differ")
                              r"(?=.*\b(?:but|while|whereas|differ\w*|closer|mismatch\w*|inconsisten\w*|lower than|higher than|"
                              r"gap|only)\b)(?=.*\?)"),
           "for one predicted mask and its target, Dice = 2|A∩B| / (|A| + |B|) and IoU = |A∩B| / |A∪B| are tied: "
           "IoU = Dice / (2 - Dice), so a Dice of 0.80 is an IoU of 0.667, and the IoU is never above the Dice. "
           "Averaged over images, the mean IoU lies between the mean Dice put through that formula and the mean Dice "
           "itself (the formula is convex). The two numbers given fall in that range: they are consistent with each "
           "other (a mean IoU taken per class over the whole split, Hugging Face evaluate's mean_iou, is a third "
           "average again, and need not sit in that range)",
           "each image's Dice put through IoU = Dice / (2 - Dice) and averaged: it should give the IoU reported",
           unless=lambda text: _dice_iou_apart(text) or _nonfinite_said(text) or _not_learning_said(text)
           or _SCORE_STUCK.search(text) is not None),
)


NORMALS = OBJECTIVES + TOOL_ANSWERS + (
    Normal("a log-likelihood below zero, the log of a probability",
           # (a log-likelihood or a log-probability -- not a negative log-likelihood, the loss -- said to be below zero,
           # in a report that asks)
           # (the sign its own: in the same clause, _LOGLIK_CLAUSE, and not denied, "no longer negative")
           lazy_regex.compile(r"(?s)\A(?=.*\?)(?=.*(?<!negative )(?<!negative-)(?<!minus )" + _LOGLIK + _LOGLIK_CLAUSE
                              + r"(?<!not )(?<!no longer )(?<!never )(?<!n't )(?:\bnegative\b|\bbelow (?:zero|0)\b|"
                              r"\bless than (?:zero|0)\b))"),
           "a log-likelihood of discrete outputs -- tokens, classes, a sequence of them -- is the log of a "
           "probability, at most 1, so it is at most 0: negative by definition, and summed over a sequence tens or "
           "hundreds below zero (30 tokens at 0.4 nats each score -12). The loss a model trains on is minus it, the "
           "negative log-likelihood or cross-entropy, above zero. Evaluation tools report the log-likelihood itself: "
           "lm-evaluation-harness's LM.loglikelihood returns `(logprob, is_greedy)` tuples, \"the log-probability of "
           "the continuation\" (lm_eval/api/model.py at v0.4.12), and a value closer to 0 is a likelier answer",
           "the training loss the run printed (above zero and falling) and how the log-likelihoods move between "
           "checkpoints: closer to 0 is better",
           frozenset({"negative"}),
           # (not beside a nan or an inf said, a run said not to learn, or a loss itself said below zero: the
           # negative-loss answer's; nor a log-likelihood said above zero, or to fall away from 0, nor a KL said below
           # zero -- each impossible, or a model getting worse)
           unless=lambda text: _nan_or_inf_said(text) or _not_learning_said(text) or _found(_LOSS_BELOW_ZERO, text)
           or _found(_LOGLIK_WRONG, text),
           # (and its rise toward 0 is the model learning: "the log-likelihood is negative and getting bigger every
           # iteration", "increasing towards zero")
           # (not a negative log-likelihood's, the loss; nor a rise "in magnitude", away from 0)
           accounts_said=lazy_regex.compile(r"(?i)(?<!negative )(?<!negative-)(?<!minus )" + _LOGLIK + r"[^.?!\n]{0,60}?\b(?:increas\w*|"
                                            r"ris(?:es|ing)|rose|grow\w*|(?:gets?|getting)\s+bigger|climb\w*|go(?:es|ing)\s+up)\b"
                                            r"(?!\s+in\s+(?:magnitude|absolute))|\b(?:increas\w*|ris(?:es|ing)|"
                                            r"climb\w*|go(?:es|ing)\s+up|(?:gets?|getting)\s+(?:bigger|closer))\s+(?:\w+\s+){0,2}?"
                                            r"towards?\s+(?:zero|0)\b")),
    Normal("negative loss", NEGATIVE_SAID,
           "a negative loss is normal when the loss is a negative log-likelihood of continuous data (a density can "
           "exceed 1) or minus a score such as Dice or a cosine similarity (SimSiam's loss, lightly's "
           "NegativeCosineSimilarity: -1 when the two views agree), or minus a ratio in decibels, unbounded below "
           "(source separation's negative SI-SDR or SI-SNR; image restoration's PSNR loss, NAFNet's PSNRLoss: 10 "
           "log10 of the mean squared error, minus the PSNR, bounded only by the small number added inside its log, "
           "-80 for NAFNet's 1e-8); it is impossible for cross-entropy or BCE whose "
           "targets lie "
           "in [0, 1], where it means the targets do not (masks of 0/255, labels past the last class)",
           "the loss function you use and the range of your targets (for example 0/1 or 0/255 masks)",
           # (not one of -1e6 or beyond: a likelihood or a critic that grew without bound; nor where every saying of it
           # denies it, "it never goes negative")
           # (nor beside a log-likelihood said above zero or to fall over training, or a KL said below zero)
           unless=lambda text: _found(HUGE_LOSS_SAID, text) or _negative_denied(text) or reward_fell(text)
           or _found(_LOGLIK_WRONG, text)),
    Normal("skipped steps under dynamic loss scaling",
           lazy_regex.compile(r"gradient overflow\.?\s+skipping step|overflow! rank|gradient overflow detected|"
                              r"reducing loss scale|skipping step|gradients? overflow|"
                              # (PyTorch's warning when a scheduler steps after a first optimizer step the scaler skipped)
                              r"detected call of `?lr_scheduler\.step\(\)`? before `?optimizer\.step\(\)`?|"
                              # (the scale itself said to fall in the first steps, "GradScaler scale drops from 65536 to 8192
                              # in the first iterations", as it calibrates -- torch/amp/grad_scaler.py's docstring: it skips
                              # steps "for the first few iterations" while it calibrates; not one said to reach a minimum or
                              # zero, which fairseq's and DeepSpeed's scalers stop at)
                              r"\b(?:grad ?scaler|loss[ _]scal\w*|get_scale|scaler|the scale)\b[^.\n?]{0,60}?\b(?:drops?|dropp\w*|falls?|"
                              r"fell|halv\w*|decreas\w*|goes down|reduc\w*|shrinks?)\b(?:(?!minimum|\bmin\b|zero)[^.\n?]){0,60}?"
                              r"\b(?:(?:in|during|over|for) the (?:very )?first|at the (?:very )?(?:start|beginning))\b"),
           "with dynamic loss scaling an occasional overflow is expected: the step is skipped, the scale is "
           "halved and training carries on (PyTorch's GradScaler starts at 65536 and skips its first steps while it "
           "calibrates; a scheduler stepped after a skipped first step warns \"Detected call of `lr_scheduler.step()` "
           "before `optimizer.step()`\", since that step never called the optimizer); it is a failure only when the "
           "scale keeps falling to its minimum or the loss itself turns nan",
           "the loss values over time and how the loss scale moves (does it keep falling?)",
           frozenset({"overflow"}),
           # (not where nothing shows a loss scaler or half precision: a scheduler warning in a float32 run is the
           # loop's own order, and "the scale" of something else is no scaler)
           # (nor where the scale is said or printed at its floor, every step skipped: the failure the answer names)
           unless=lambda text: ("no loss scaling" if not (HALF_SHOWN.search(text) or SCALER_SHOWN.search(text)) else
                                "the scale at its floor" if _SCALE_AT_FLOOR.search(text) else ""),
           # (a skipped step is one whose gradients held an inf or a nan: their norm, logged for that step, is inf or nan;
           # and a skipped step leaves the weights as they were, so a question whether they went inf is answered too,
           # and so is a fear of it, "I'm worried the expert weights are going inf somewhere" -- not "I'm afraid",
           # which as often says politely that they did, nor a fear with its reason, "worried because ... went inf")
           # (the norm as hand-written GradScaler loops print it, `gnorm inf`, and "inf / nan" said together -- fairseq
           # logs no norm for a step it skips; the norm's own nan, in its clause: not "the grad norm stays around 3
           # but the loss is nan")
           accounts_said=lazy_regex.compile(r"(?i)\b(?:grad(?:ient)?[ _-]?|g)norms?\b['\"]?[ \t]*(?:[:=][ \t]*|(?:\w+[ \t]+){0,3}?)"
                                            r"(?:nan|inf)\b(?:\s*(?:/|,|or|and)\s*(?:nan|inf)\b)*|"
                                            r"\b(?:nan|inf)\b[^.\n]{0,30}?\b(?:grad(?:ient)?[ _-]?|g)norms?\b|"
                                            r"\b(?:nan|inf)\s+weights\b[^.\n?]{0,80}\?|"
                                            r"\b(?:worried|concerned|scared)\b(?:(?!\b(?:because|since|as)\b)[^.\n?]){0,40}?"
                                            r"\bweights\b[^.\n?]{0,30}?\b(?:nan|inf)\b|"
                                            # (the gradients of a skipped step, which are what overflowed: "inf gradients every
                                            # thousand steps", "found inf in grads", and the question which tensor it was or what made it; a fear that something
                                            # blows up for some input, the very overflow the scaler caught -- "makes me nervous
                                            # that some rare input blows my kernel up")
                                            r"\b(?:nan|inf)s?\s+(?:(?:in|of)\s+(?:the\s+)?)?(?:grad(?:ient)?s|grads)\b|"
                                            r"\b(?:grad(?:ient)?s|grads)\s+(?:are|were|go|went|"
                                            r"become|became)\s+(?:nan|inf)\b|\bwhich\s+(?:\w+\s+){0,2}?(?:is|are|was|were|goes|went|"
                                            r"becomes?|became)\s+(?:nan|inf)\b" + _NO_LOSS_TO_MARK + r"|"
                                            # (or whether some part makes it: "is the kernel producing inf?" -- a question that
                                            # names no loss: "... when the loss goes nan at step 4000?" reports its nan)
                                            r"\b(?:is|are|does|do|could|can|might)\b(?:(?!\bloss)[^.\n?]){0,60}?\b(?:produc|giv|mak|"
                                            r"output|creat|generat)\w*\s+(?:an?\s+)?(?:nan|inf)s?\b" + _NO_LOSS_TO_MARK + r"|"
                                            # (the fear ends where another clause may report: a comma, a colon, a dash)
                                            r"\b(?:worried|concerned|scared|nervous)\b(?:(?!\b(?:because|since|as)\b|\s-+\s)"
                                            r"[^.\n?,:;\u2013\u2014]){0,80}?\b(?:(?:blows?|blew|blowing)\s+(?:\w+\s+){0,2}?up|explod\w*|"
                                            r"overflow\w*|(?:goes|going)\s+(?:nan|inf))\b"),
           # (half precision switched on in a run that printed a nan or an inf: at a skipped step, the skip's own)
           explains_parts=frozenset({"precision"})),
    # Keras's warning that a cross-entropy told from_logits=True was handed a softmax's or a sigmoid's output: the
    # TensorFlow backend raises it exactly where it found the logits the activation kept on the tensor it returned, and
    # computes the loss from them (keras/src/backend/tensorflow/nn.py at v3.15.1, _get_logits; WR-130's page): the loss
    # was computed as if the model had been written right
    Normal("Keras computed the loss from the logits its softmax or sigmoid kept",
           lazy_regex.compile(r"received `?from_logits=true`?, but the `?output`? argument was produced by an? "
                              r"(?:sigmoid or softmax|softmax|sigmoid) activation and thus does not represent logits"),
           "on the TensorFlow backend a Keras softmax or sigmoid keeps its input, the logits, on the tensor it returns, "
           "and the cross-entropy losses use them when they find them: Keras prints this warning exactly then, so the "
           "loss was computed from the logits, as if the model had been written right (WR-130 is the case where "
           "probabilities do reach a loss that applies its own softmax, with no warning at all). To silence it, drop "
           "`from_logits=True` (the model already outputs probabilities) or drop the activation and keep it",
           "the loss values from the start of the run, if it still does not learn",
           frozenset()),
    # (the more particular first: a validation loss that rose is overfitting, and a gap too)
    Normal("overfitting: a validation loss that rises while the training loss falls",
           # ("has crept up slowly since", "bottomed at 0.33 around epoch 12")
           lazy_regex.compile(rf"val(?:idation)?[ _-]?loss\b{_SAME_SUBJECT}(?:increas\w*|\bris(?:es|ing)\b|\brose\b|"
                              r"go(?:es|ing)? up(?! and down)|went up|climb\w*|gets? worse|\bcre(?:pt|eps?|eping) up|"
                              r"bottom(?:s|ed)? (?:out|at))|"
                              rf"val(?:idation)?[ _-]?acc(?:uracy)?\b{_SAME_SUBJECT}(?:decreas\w*|\bdrops?\b|"
                              r"dropping|\bfall(?:s|ing)\b|gets? worse)"),
           "a validation loss that bottoms out and then rises while the training loss keeps falling is overfitting: "
           "the model learns what is particular to the training examples. It is what training does on too little "
           "data for too long, not a numerical failure, and not one this catalogue covers; the usual remedies are "
           "early stopping at the lowest validation loss (Keras's EarlyStopping(restore_best_weights=True)), more data "
           "or augmentation, weight decay or dropout, or a smaller model",
           "the validation loss of each epoch beside the training loss: overfitting shows it lowest some epochs in, "
           "then rising while the training loss falls; a failure shows in the training loss itself, as nan, inf or a "
           "climb",
           frozenset({"climb"})),
    Normal("a gap between training and validation loss",
           # (whole words: "a 6k-image flowers subset" holds no "lower")
           # (or the accuracy's, said against the training one: "val accuracy way lower than train")
           # (an "evaluation loss" too; and the two curves said to drift apart, "diverge from each other", or said to
           # diverge where the validation loss is said still to fall: "train loss is 1.62 and eval loss 1.79, and the
           # two curves have been slowly diverging since epoch 1, although eval loss still goes down" -- not both
           # curves diverging on their own, "then both curves diverge, 35.2 and 41.7", which is a blow-up of both)
           lazy_regex.compile(_HELD_OUT_LOSS + r".{0,80}\b(?:higher|lower|bigger|smaller|greater|"
                              r"(?:above|below)\s+(?:the\s+|my\s+|our\s+)?train(?:ing)?\b|than|"
                              r"differ|(?:two|both)\s+(?:loss\s+)?curves\b[^.\n]{0,30}?\b(?:" + _APART + r"|"
                              r"drift\w*\s+apart|mov\w*\s+apart|diverg\w*(?=[^.\n]{0,80}?\b" + _HELD_OUT_LOSS
                              + r"\s+(?:still\s+)?(?:goes\s+down|falls|decreases|improves|drops)\b)))|"
                              r"val(?:idation)?[ _-]?acc(?:uracy)?\b[^.\n]{0,30}?\b(?:lower|higher|smaller|bigger|worse|better) "
                              r"than (?:the )?train|"
                              r"\b(?:higher|lower|bigger|smaller|greater) than.{0,40}(?:evaluat|validation|val[ _-]loss)|"
                              # (a training accuracy of 90% or more beside the validation one, "train accuracy is 100% by step
                              # 500, but validation accuracy stayed between 1 and 5%"; or a model said only to memorise its
                              # training set -- not one that cannot memorise a batch, the failed sanity check)
                              r"\btrain\w*[ _-]?acc(?:uracy)?\b[^.\n]{0,40}?\b(?:(?:100|9\d)(?:\.\d+)?\s*%|1\.0\b|0\.9\d*\b)[^\n]{0,120}?"
                              r"\bval(?:idation)?[ _-]?acc(?:uracy)?\b|"
                              r"\b(?:just|only|simply|merely)\s+memori[sz](?:e|es|ing)\s+(?:the\s+)?train(?:ing)?\s+(?:set|data)\b|"
                              # (or the held-out accuracy said to level off while the training one keeps rising, in one sentence:
                              # "the test accuracy sits at 91% from epoch 6 on, while the training accuracy keeps rising")
                              r"\b(?:val(?:idation)?|test)[ _-]?acc(?:uracy)?\b(?:[^.\n]|\.\d){0,80}?\b(?:stays?|stayed|sits?|"
                              r"stuck|plateau\w*|flat|wobbl\w*|hovers?|stall\w*|levels?\s+off|stops?\s+(?:improving|rising))\b"
                              r"(?:[^.\n]|\.\d){0,80}?\bwhile\s+(?:the\s+)?train(?:ing)?[ _-]?acc(?:uracy)?\b[^.\n]{0,20}?"
                              r"\b(?:keeps?\s+(?:climbing|rising|going\s+up|improving)|climbs|rises|goes\s+up)\b|"
                              # (within one sentence: "train and validation accuracy 10.0%. Every image gets the same
                              # prediction" says no gap)
                              r"(?:fit|train\w*)(?:[^.\n]|\.\d){0,40}(?:evaluate|validation)(?:[^.\n]|\.\d){0,40}(?:same|differ)"),
           "the training loss is an average over an epoch while the weights change (and with dropout on); the "
           "validation loss is measured once at the end, so the two differ even in a healthy run. Both make training "
           "look worse than it is: they explain a validation loss a little below the training loss, not a validation "
           "score well below the training one -- a gap that way means the model fits the rows it trained on better "
           "than new ones (overfitting), or the validation rows differ from the training rows (a split that is not "
           "random, another preprocessing)",
           "both curves over the epochs: a failure shows as nan, inf or a climb, not as a gap",
           # (not beside a nan, an inf or a loss of a million said: a blow-up, whatever gap came before it)
           unless=lambda text: _nan_or_inf_said(text) or _found(HUGE_LOSS_SAID, text)),
    Normal("spikes in a falling curve",
           # (or a loss said to jump between two levels from step to step, not from epoch to epoch, or to be noisy: not
           # noisy labels or targets)
           lazy_regex.compile(r"\bspik\w*|\bspiky\b|\bjumps? (?:up|around)\b|"
                              r"\bloss\b[^.?!\n]{0,60}?\bjumps? between\b(?![^?!\n]{0,60}?\b(?:from\s+(?:one\s+)?epoch\s+to|"
                              r"between\s+epochs|each\s+epoch|per\s+epoch|every\s+epoch)\b)|"
                              r"\b(?:loss(?:es)?|curves?)\s+(?:is|are|looks?|seems?|curve\s+is|curve\s+looks)\s+(?:\w+\s+){0,2}?"
                              r"(?:noisy|jumpy|erratic)\b|\b(?:noisy|jumpy|erratic)\s+(?:training\s+)?(?:loss|curve)\b"),
           "isolated spikes in a curve that trends down are mini-batch noise, larger with small batches; a spike "
           "in the first steps that then recovers is the no-warmup signature instead",
           "the loss values: where the spikes are and whether the curve still trends down",
           falls=True,        # (its answer is a curve that trends down: not beside values that did not fall)
           # (nor where the words give that signature: no warmup, or a jump in the first steps; nor where they say the
           # loss does not go down at all, which no falling curve is)
           unless=lambda text: no_warmup_said(text) or early_jump_seen(text) is not None or says_not_learning(text)),
    Normal("a large loss at the start",
           lazy_regex.compile(r"loss (?:is|was|looks) (?:so |very |too )?(?:big|large|huge|high)|(?:big|large|huge|high) "
                              r"loss|(?:starts?|starting|begins?) (?:so |this |that |very |too |really )?(?:big|large|huge|high)"
                              r"|is it (?:an error|normal)"),
           "a loss that starts high and falls is healthy; what matters is whether it falls, not where it starts",
           "the loss values over the first epochs", falls=True),
    Normal("an optimizer stopped at its iteration limit",
           # (scikit-learn's MLPClassifier and MLPRegressor, at the end of fit())
           lazy_regex.compile(r"maximum iterations \(\d+\) reached and the optimization hasn'?t converged yet"),
           "scikit-learn's MLPClassifier and MLPRegressor warn \"Stochastic Optimizer: Maximum iterations (N) reached "
           "and the optimization hasn't converged yet.\" whenever fit() runs its max_iter epochs without stopping "
           "earlier (https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/"
           "_multilayer_perceptron.py#L786-L787); it stops earlier only once the training loss (or, with "
           "early_stopping=True, the validation score) has not improved by tol for n_iter_no_change epochs in a row. "
           "The warning says only that the epochs ran out before that stop: most often the loss is still improving, "
           "and the model is as trained as max_iter allowed (a run that never settles, or blows up, gets it too, so "
           "it proves nothing either way). Judge the model by its held-out score and loss_curve_; raise max_iter, or "
           "set early_stopping=True, if the curve is still falling",
           "clf.loss_curve_ over the iterations (still falling at the end?) and the held-out score",
           # (not beside words that the model did not learn -- chance accuracy, a flat loss, an R^2 below 0 -- nor a
           # run that blew up: the warning is printed then too, and says nothing of why)
           unless=_not_learned_said),
    Normal("scikit-learn's squared-error loss_, which is half the mean squared error",
           # (MLPRegressor's loss_ or loss_curve_ said to be half, or twice, the MSE the reporter computes)
           lazy_regex.compile(r"\bloss_(?:curve_)?\b[^\n]{0,160}?\b(?:half|twice|2x|factor of (?:2|two))\b|"
                              r"\b(?:half|twice)\b[^\n]{0,80}?\bloss_(?:curve_)?\b"),
           "scikit-learn's MLPRegressor minimises half the mean squared error, 0.5 * mean((y - y_pred) ** 2) "
           "(https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/_base.py#L187-L189), plus "
           "its L2 penalty, 0.5 * alpha * (the sum of the squared weights) / n_samples "
           "(https://github.com/scikit-learn/scikit-learn/blob/1.9.1/sklearn/neural_network/_multilayer_perceptron.py#L361): "
           "its loss_ and loss_curve_ are about half of mean_squared_error on the same rows (a little more, by the "
           "penalty), by definition; the model is the one fit() trained",
           "2 * reg.loss_ beside mean_squared_error(y_train, reg.predict(X_train)): equal, up to the small L2 term"),
    Normal("runs with the same seed that differ a little on a GPU",
           # (a seed said fixed, a GPU, two runs of one setup, and the runs said to differ: all four)
           lazy_regex.compile(r"(?s)\A(?=.*(?:\b(?:same|fixed|identical|set|fixing|setting)\s+(?:(?:the|all|random|rng|every)\s+)?"
                              r"seeds?\b|\bseeded\b|\bmanual_seed\w*|\.seed\(|\bprngkey\(\d+\)|\bset_seed\b|\bseed_everything\b|"
                              r"\bseed(?:\s*[=(]\s*|\s+)\d+))"
                              r"(?=.*\b(?:gpus?|cuda|cudnn|a100|v100|h100|a6000|t4|rtx\s?\d+|nvidia)\b)"
                              r"(?=.*(?:\b(?:two|2|both|second|another|repeated)\s+(?:\w+\s+)?(?:runs?|trainings?|times)\b|"
                              r"\bre-?r[au]n\w*|\brun[- ]to[- ]run\b|\bback[- ]to[- ]back\b|\btwice\b|\bbetween runs\b|"
                              r"\ba second time\b|\bfrom one run to the next\b|\b(?:run|ran) (?:it|the script|the same \w+) again\b))"
                              r"(?=.*\b(?:differ\w*|different|" + _APART + r"|drift\w*\s+apart|not (?:the same|identical|bit-?identical|"
                              r"reproducible|deterministic)|non-?deterministic|don't match|do not match|doesn't match|vary|varies|"
                              r"not reproduc\w*)\b)"),
           "a seed fixes the random numbers, not the order of the additions: on a GPU, operations that add in parallel "
           "(atomicAdd) and cuDNN's convolution algorithms, which its benchmark may pick differently from run to run, "
           "add in an order that can change between runs. Floating-point addition is not associative, so the last bits "
           "differ, and each step of training feeds them into the next, so two runs drift apart by more over time -- "
           "PyTorch says so for releases, platforms and CPU against GPU \"even when using identical seeds\" "
           "(https://pytorch.org/docs/2.4/notes/randomness.html; the ops that add by atomics, and those with no "
           "deterministic kernel, are listed under https://docs.pytorch.org/docs/2.2/generated/"
           "torch.use_deterministic_algorithms.html). A small drift and final scores within noise of each other are "
           "this, not a bug. Most of it goes with torch.use_deterministic_algorithms(True), "
           "torch.backends.cudnn.benchmark = False and CUBLAS_WORKSPACE_CONFIG=:4096:8 set before CUDA starts "
           "(PyTorch: an op with no deterministic kernel then raises a RuntimeError), "
           "tf.config.experimental.enable_op_determinism() (TensorFlow: "
           "https://github.com/tensorflow/tensorflow/blob/v2.15.0/tensorflow/python/framework/config.py#L932-L933) or "
           "XLA_FLAGS=--xla_gpu_deterministic_ops=true (JAX's XLA, which the JAX maintainers name for its autotuned "
           "kernels and atomic reductions: https://github.com/google/jax/discussions/10674), at some cost in speed",
           "the same two runs on the CPU, or on the GPU with deterministic algorithms on: identical there, the drift "
           "is the GPU's order of additions",
           # (runs said to diverge from each other drift, which is this; a yes/no question reports nothing)
           # (nor beside a jump one run never came back from, or a training and a validation loss apart)
           unless=lambda text: _nonfinite_said(_DRIFT_APART.sub(" ", told(text))) or _not_learning_said(text)
           or _runs_far_apart(told(text)) or never_recovered_said(text) or _found(_TRAIN_VAL_APART, text),
           accounts_said=_DRIFT_APART),
    Normal("PyTorch's warning on a read-only NumPy array",
           lazy_regex.compile(r"the given numpy array is not writable"),
           "torch.from_numpy and torch.as_tensor share memory with the array they are given, and a read-only array "
           "(np.load(..., mmap_mode=\"r\"), an array over a bytes buffer) cannot be made writable for them, so "
           "PyTorch warns once that writing to the tensor would be undefined behavior (\"The given NumPy array is not "
           "writable, and PyTorch does not support non-writable tensors.\", triggered at "
           "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/csrc/utils/tensor_numpy.cpp#L213 in the 2.13.0 "
           "build). Reading from the tensor, as a Dataset's __getitem__ does, is fine: the warning changes no value. "
           "Copy the array (np.array(x), torch.tensor(x)) to silence it",
           "whether anything writes to those tensors in place (an augmentation that changes its input, `x += ...`), "
           "and the loss values over the epochs"),
    Normal("a learning-rate finder's sweep, which ends in divergence by design",
           # (Lightning's message, or a range test, an lr finder named beside a loss said to diverge or shoot up)
           # (the sweep's own end -- Lightning's line -- or the finder's plot or curve said to shoot up)
           lazy_regex.compile(r"lr finder stopped early after \d+ steps due to diverging loss|"
                              r"\b(?:lr[ _]?find(?:er)?|learning[ -]rate finder|lr range test|learning[ -]rate range test)\b"
                              r"[^.\n?]{0,40}?\b(?:plot|curve|sweep|ended|ends?|stopped|stops|shows?|showed)\b[^.\n?]{0,60}?"
                              r"\b(?:diverg\w*|shoots? up|blows? up|explod\w*)\b(?![^.\n]{0,60}\?)"),
           "a learning-rate range test raises the rate step by step, over one short run, from far too small to far too "
           "large, and reads where training stops improving and starts to fall apart (Smith, Cyclical Learning Rates "
           "for Training Neural Networks, 2017, section 3.3, raises it linearly and plots the accuracy; Lightning plots "
           "the loss and raises the rate exponentially by default): the blow-up at the end of the sweep is its "
           "purpose, not a fault of the model. "
           "Lightning's Tuner.lr_find stops when the smoothed loss passes early_stop_threshold (4.0) times its lowest "
           "and then logs \"LR finder stopped early after N steps due to diverging loss.\" -- a line it prints "
           "whenever the search ran fewer than its num_training steps, whatever stopped it "
           "(https://github.com/Lightning-AI/pytorch-lightning/blob/2.6.6/src/lightning/pytorch/tuner/lr_finder.py#L269-L270, "
           "the check at #L425-L430); the rate to train with is the one it suggests, well below where the loss turned. "
           "fastai v1's LRFinder stops at 4 times the lowest smoothed loss, or at a nan, skips validation "
           "(`return {'skip_validate': True}`), so its table prints `#na#` -- not available, no number at all -- for "
           "the validation loss (and no metric), and ends with \"LR Finder is complete, type "
           "{learner_name}.recorder.plot() to see the graph.\" "
           "(https://github.com/fastai/fastai1/blob/1.0.63/fastai/callbacks/lr_finder.py#L23-L43, and "
           "Recorder.format_stats, fastai/basic_train.py#L503 there: `'#na#' if stat is None`)",
           "the finder's loss-against-rate plot: flat, then falling, then shooting up at the high end; and a run at "
           "the suggested rate",
           # (a nan too: fastai's sweep stops at one)
           frozenset({"diverge", "climb", "nan"}),
           # (not beside a training run said to break: at the rate the finder suggested, or any other)
           unless=_training_broke_said, explains_climb=True),
    Normal("Monodepth2's median scaling of a model trained on monocular video",
           # (the ratios' spread under a fifth of their median: a scale that drifts from image to image is no answer, and
           # no failure of training either -- not asked, so not ruled out)
           lazy_regex.compile(r"scaling ratios \| med: [\d.]+ \| std: 0\.[01]"),
           "a depth network trained from monocular video alone learns depth only up to an unknown scale: the same "
           "images fit a scene twice as large seen from a camera moving twice as fast (Zhou et al., Unsupervised "
           "Learning of Depth and Ego-Motion from Video, CVPR 2017, arXiv:1704.07813; Godard et al., Digging Into "
           "Self-Supervised Monocular Depth Estimation, ICCV 2019, arXiv:1806.01260). So monodepth2's evaluate_depth.py, "
           "in its mono evaluation, multiplies each prediction by the ratio of the ground truth's median depth to its "
           "own before any metric (`ratio = np.median(gt_depth) / np.median(pred_depth)`) and prints the median of "
           "those ratios and their spread relative to it, \"Scaling ratios | med: ... | std: ...\" "
           "(https://github.com/nianticlabs/monodepth2/blob/77f141057a01e33fa127a350a280bdcfc056f954/evaluate_depth.py). "
           "A median ratio of 30 is that unknown scale, not an error; a std of a few hundredths says the scale is the "
           "same from image to image, which is what the published numbers assume",
           "the std of the scaling ratios (a few hundredths is usual; a large one means the scale drifts between "
           "images) and the metrics after scaling beside the published ones",
           # (not beside metrics far from a trained model's, printed on the row under their header: the scale explains a
           # ratio, not an abs_rel of 0.45)
           unless=lambda text: _depth_metrics_poor(text)),
    Normal("nan in a Darknet Region line with no objects",
           lazy_regex.compile(r"region (?:\d+ )?avg \(?iou: -?nan[^\n]*count: 0\b"),
           "a Darknet `Region` line with `count: 0` divides its IOU, Class, Obj and recall sums by that count of "
           "objects, 0/0, and prints -nan (https://github.com/pjreddie/darknet/blob/"
           "011eed632d70c4e907ad512e2ac1e04d90b1072c/src/yolo_layer.c): no object of that scale was in the batch. "
           "`No Obj` divides by the number of anchors instead, so a nan there, like a nan in the `avg` (loss) "
           "field, means the outputs are nan; the AlexeyAB fork's README gives the rule for the avg field "
           "(https://github.com/AlexeyAB/darknet/blob/61307b664f3c19e001699b80ed21c0817cbb67a3/README.md)",
           "the iteration lines (`1234: 2.31, 2.45 avg loss, ...`) and the `No Obj` values: whether any is nan",
           frozenset({"nan"})),
    Normal("nuScenes detection evaluation's nan errors for traffic cones and barriers, by design",
           # (nuScenes' metrics named, and a nan beside a cone's or a barrier's name in the per-class table)
           lazy_regex.compile(r"(?s)\A(?=.*\b(?:nuscenes|nds|maoe|mave|maae)\b)(?=.*\b(?:traffic_cone|traffic cones?|barriers?)\b"
                              r"[^\n]{0,80}?\bnan\b)"),
           "nuScenes' detection evaluation sets the orientation, velocity and attribute errors of traffic cones, and "
           "the velocity and attribute errors of barriers, to nan on purpose -- a cone has no heading, and neither moves "
           "nor has an attribute (`tp = np.nan`, python-sdk/nuscenes/eval/detection/evaluate.py#L135-L138 in "
           "nuscenes-devkit v1.1.2) -- and averages each error over the classes with np.nanmean (data_classes.py#L239 "
           "there), so mAOE, mAVE, mAAE and the NDS leave those cells out: the table is as the devkit makes it, and the "
           "model outputs no nan",
           "the per-class table: nan only in those cells (traffic_cone's AOE, AVE and AAE, barrier's AVE and AAE), and "
           "finite errors for every other class",
           frozenset({"nan"}),
           unless=lambda text: _found(_NUSCENES_OTHER_NAN, text) or _found(_NAN_SHOWN_ELSEWHERE, told(text))),
    Normal("COCO evaluation's -1 (detectron2's nan) for an area range with no objects",
           # (COCOeval's own summary line at -1.000, detectron2's note and its table's nan, mmdetection's bbox_mAP_s)
           lazy_regex.compile(r"\barea\s*=\s*(?:small|medium|large)\s*\|\s*maxdets\s*=\s*\d+\s*\]\s*=\s*-1\.000\b|"
                              r"some metrics cannot be computed and is shown as nan|"
                              r"\b(?:bbox|segm)_map_[sml]\b\s*[:=]\s*-1\.0+\b"),
           "COCOeval starts every precision and recall at -1 (https://github.com/cocodataset/cocoapi/blob/"
           "8c9bcc3cf640524c4c20a9c40e89cb6a2f2fa0e9/PythonAPI/pycocotools/cocoeval.py#L334), leaves a setting with no "
           "ground-truth object there (#L373), and its summary averages only the values above -1, printing -1 when "
           "there are none (#L452-L455). An area range is measured on each annotation's `area` field, small being under "
           "32 x 32 = 1024 (#L509): a -1.000 for small means no ground-truth object of the evaluated split is that "
           "small, in the units the annotations were written in -- nothing to measure, not a fault of training. "
           "detectron2 shows such a -1 as nan and logs \"Some metrics cannot be computed and is shown as NaN.\" "
           "(https://github.com/facebookresearch/detectron2/blob/v0.6/detectron2/evaluation/coco_evaluation.py#L337-L344); "
           "the other APs are the ones to read",
           "how many ground-truth annotations of the evaluated split have an `area` under 1024 (32 x 32); with none, "
           "the -1 is expected",
           frozenset({"nan"}), unless=_no_ground_truth_at_all),
)


# Not asked about but shown: NumPy's overflow warning from exp beside a loss that stayed finite and fell. The inf
# went nowhere the loss could see (WR-020's bonus point: a sigmoid written 1/(1 + exp(-z)) warns at z = -1000 and
# returns the correctly rounded 0.0); it becomes the failure once an inf meets a division or a log.
BENIGN_OVERFLOW = Normal(
    "an overflow warning beside a finite loss",
    lazy_regex.compile(r"overflow encountered in exp\b"),
    "exp overflowed to inf somewhere, but no inf or nan reached the loss, which stayed finite and fell: in a sigmoid "
    "written 1/(1 + exp(-z)), exp(-z) is inf for a very negative z and the result, 1/inf = 0.0, is the correctly "
    "rounded answer; the overflow is a failure where the inf meets a division or a log (a softmax's inf/inf is "
    "nan, log(0) is -inf), and then the loss shows it (WR-020)",
    "the line the warning names (a sigmoid's exp is harmless, a softmax's or a loss's is not) and whether the loss "
    "ever turns nan or inf",
    frozenset({"overflow"}))


# ... and PyTorch's warning that a standard deviation or a variance was taken over one value (its unbiased form divides
# by n - 1: 0/0, nan), beside a loss that stayed finite and fell: the nan went somewhere the loss does not reach
# (the words of PyTorch's warning after the op's name, "std" or "var": WR-060 declares it whole; weighing reads it too)
ONE_VALUE_SPREAD = "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor"
BENIGN_ONE_SPREAD = Normal(
    "a spread of one value beside a finite loss",
    lazy_regex.compile(r"\w+" + re.escape(ONE_VALUE_SPREAD) + r" \(input numel divided by output numel\)\.?", re.I),
    "a standard deviation or a variance was taken over a single value somewhere, and PyTorch's, which divides by n - 1 "
    "unless told otherwise, is 0/0 = nan there; but no nan reached the loss, which stayed finite and fell: the nan went "
    "into something the loss does not use (a statistic of a one-frame segment, a logged metric). It is a failure where "
    "it reaches the loss: a minibatch of one in a per-batch standardisation, (a - a.mean()) / (a.std() + eps), is nan "
    "whatever the eps (WR-060)",
    "the line the warning names (what its std feeds) and whether the loss ever turns nan or inf")
# (the warnings that say a value was made non-finite somewhere, harmless where the loss stayed finite and fell)
BENIGN_WARNINGS = (BENIGN_OVERFLOW, BENIGN_ONE_SPREAD)


# Asked about, in words: a first loss that is ln C for the C classes (or a vocabulary's C tokens) the report names
# (start_loss.uniform_start) -- the uniform guess a fresh classifier makes.
UNIFORM_START = Normal(
    "a first loss of ln C",
    lazy_regex.compile(r"(?!)"),        # (not asked by a pattern: diagnose asks start_loss.uniform_start)
    "a fresh classifier's first cross-entropy is near ln C for C classes (ln 10 = 2.3026; ln 32000 = 10.37 for a "
    "32,000-token vocabulary): its outputs start near equal, and the uniform guess costs ln C on every example; it is "
    "where a healthy run starts, not a sign that anything is broken, and what matters is that the loss falls from it",
    "the loss values after the first: whether they fall below ln C")


# Not asked about but shown: the loss rose each time the learning rate printed beside it jumped back up, and came
# back down (a warm restart, a cyclical schedule, a new warmup).
RESTARTED = Normal(
    "a rise each time the learning rate jumps back up",
    lazy_regex.compile(r"warm[ _-]?restarts?|cosineannealingwarmrestarts|sgdr|cyclic\w*|one[ _-]?cycle\w*|restarts?"),
    "a schedule that raises the learning rate again (a warm restart of a cosine schedule, a cyclical rate, a new "
    "warmup) makes the steps large again: they undo part of what the small steps had settled, the loss rises, and "
    "it comes back down as the rate decays; a rise that comes only with such a jump and recovers is the schedule at "
    "work, not a failure",
    "the learning rate and the loss around each rise: whether every rise comes with a jump of the rate and recovers")


def normals_asked(text: str) -> list[Normal]:
    low = text.lower()
    return [n for n in NORMALS if n.asked.search(low) and not (n.unless and n.unless(text))]


def normal_ruled_out(text: str) -> bool:
    """Does the text report a behaviour that would be normal, but not in the run it describes (spikes in a run said
    to have no warmup: that run's failure)?"""
    low = text.lower()
    return any(n.unless is not None and n.asked.search(low) and n.unless(text) for n in NORMALS)
