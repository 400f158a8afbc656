"""What a report's words say of its run: that something went wrong (not only asked whether it did), that it does
not learn, that the loss never came back from a jump, that an untrained model's output is already nan or enormous,
that the loss fell and then broke, that the place it broke moved with the data's order; and what kind of loss it is
(one that cannot go below zero, or a likelihood that can), with an overlap score printed outside [0, 1].
"""
from __future__ import annotations

import functools
import itertools
import re

from .safe_text import shown
from .sentences import (denied_before, negated, said_unnegated, sentence_around, sentences_and_ends, sentences_only,
                        told)
from .thesaurus import fold_text
from . import lazy_regex

# A batch size the paste sets or says: `batch_size=8`, "batch size 16", "--batch-size 4", "minibatch size 32", and a
# framework's prefixed names, `per_device_train_batch_size=8` (Hugging Face), `train_micro_batch_size_per_gpu: 4`
# (DeepSpeed). Not an evaluation's batch, which trains nothing ("eval batch size 2", `per_device_eval_batch_size`,
# `test_batch_size`), nor a bound (`max_batch_size`).
# (the Trainer's own name kept apart, group `trainer`: its log averages more than one batch, curve_shape._small_batch)
BATCH_SIZE = lazy_regex.compile(r"(?i)(?<![A-Za-z])(?P<trainer>per_device_train_)?(?<!eval[_ ])(?<!val[_ ])(?<!valid[_ ])"
                                r"(?<!test[_ ])(?<!dev[_ ])(?<!predict_)(?<!max_)(?:mini[ -]?|micro[_ -]?)?batch[_ -]?size"
                                r"(?:_per_(?:gpu|device))?\b['\"]?\s*(?:(?:[=:]|of|is|was)\s*)?(?P<size>\d{1,6})\b")


# The weights or the gradients said, or printed, to have turned non-finite: "weights turn into NaN after
# optimizer.step()", "every parameter is NaN", "the grads are inf", `non-finite params: [...]`, "NaN gradients". A
# nan there, beside a loss whose printed values stayed finite, is not in the curve: the run broke where the log does
# not look (a check that stops the loop once the weights are nan, before any nan loss is printed).
_WEIGHTS = r"(?:weights?|params?|parameters?|gradients?|grads?)"
_NONFINITE = r"(?:nan|nans|inf|infs|non-?finite|not finite)"
WEIGHTS_NONFINITE = lazy_regex.compile(
    r"(?i)\b" + _WEIGHTS + r"\b(?:(?!\b(?:loss\w*|outputs?|logits?|inputs?|data)\b)[^.;?\n]){0,40}?\b(?:turn\w*|become\w*|"
    r"became|go(?:es)?|went|are|is|were|was|get|gets|got)\s+(?:\w+\s+){0,2}?" + _NONFINITE + r"\b|"
    r"\b" + _NONFINITE + r"\s+" + _WEIGHTS + r"\b")


# (a nan named as what a check looks for, or kept away -- "a check for NaN gradients", "to avoid inf gradients", "a hook
# that catches NaN gradients" -- is none seen; nor "nan-free")
_LOOKED_FOR = lazy_regex.compile(r"(?i)\b(?:check\w*|detect\w*|catch\w*|find|finds|look\w*|avoid\w*|prevent\w*|guard\w*|"
                                 r"against|for|if|whether|no|never|without)\b(?:\s+\w+){0,3}\s*$")


def weights_nonfinite_said(prose: str) -> str:
    """The words that say the weights or the gradients turned nan or inf (WEIGHTS_NONFINITE), told and not denied (no
    negator among the three words before its nan, nor before the clause), nor looked for or kept away, as written
    (lowercased); or ""."""
    text = told(prose)
    for m in itertools.islice(WEIGHTS_NONFINITE.finditer(text), 10):
        if re.match(r"[-\w]", text[m.end():m.end() + 1]):        # ("nan-free", "infinite", "inf-norm")
            continue
        before = text[max(0, text.rfind("\n", 0, m.start()) + 1, m.start() - 60):m.start()]
        clause = before + m.group(0)
        if (said_unnegated(clause, {"nan", "inf"}) or re.search(r"non-?finite|not finite", m.group(0))) \
                and not denied_before(text, m.start(), reach=30) and not _LOOKED_FOR.search(before):
            return " ".join(m.group(0).split())
    return ""


def _line_of(text: str, m: re.Match) -> str:
    """The whole line (or lines) of the text that the match stands on."""
    end = text.find("\n", m.end())
    return text[text.rfind("\n", 0, m.start()) + 1:end if end >= 0 else len(text)]


def _code_line(line: str) -> bool:
    """Is the line code rather than a log's or a sentence's: a statement (an assignment, a call of print or of a
    logger, a condition, a return) or a template with its braces (`f"... {it}, skipping"`)?"""
    return bool(re.match(r"\s*(?:(?:if|elif|for|while|def|return|raise)\b|(?:print|logger\.\w+|logging\.\w+|log|"
                         r"warnings\.warn)\s*\()|"
                         r"\s*(?:self\.)?[\w.\[\]'\"]+\s*[-+*/]?=(?!=)", line)) or re.search(r"\{[^{}\n]*\}", line) is not None


# A loss printed or said non-finite and skipped: a guard in the loop that drops the batch ("WARNING non-finite loss at ep
# 3 it 2731, skipping", "skipping batch 412: loss is nan", "I skip the step when the loss is NaN"). The curve the log
# prints is then finite, the batches that broke it left out: a run gone wrong at those batches, whatever the rest did.
# (each alternative within one field of a log line: Megatron's `number of skipped iterations:   0 | number of nan
# iterations:   0` says none was; a count of 0 skipped is none)
NONFINITE_SKIPPED = lazy_regex.compile(r"(?i)\b(?:non-?finite|nan|inf)\b[^.;|\n]{0,40}?\bloss(?:es)?\b[^.;|\n]{0,60}?\bskipp(?:ing|ed)\b|"
                                       r"\bskip(?:s|ped|ping)?\b(?![^.;|\n]{0,40}?:\s*0\b)[^.;|\n]{0,40}?\b(?:step|batch|update|iteration)s?\b"
                                       r"[^.;|\n]{0,40}?\b(?:non-?finite|nan|inf)\b|"
                                       r"\bloss\b[^.;|\n]{0,30}?\b(?:is|was|becomes?|turns?)\s+(?:not\s+finite|non-?finite|nan|inf)\b"
                                       r"[^.;|\n]{0,30}?\bskipp(?:ing|ed)\b")


def nonfinite_skipped(prose: str) -> str:
    """The words or the log line that say a non-finite loss was skipped (NONFINITE_SKIPPED), told and not denied, as
    written (lowercased) -- not a line of code, a guard's own print statement whose template a report may paste beside
    words that it never fired; or ""."""
    text = told(prose)
    for m in itertools.islice(NONFINITE_SKIPPED.finditer(text), 10):
        line = _line_of(text, m)
        said = m.group(0).replace("not finite", "")
        if not _code_line(line) and not denied_before(text, m.start(), reach=30) \
                and not re.search(r"\b(?:no|never|not)\b", said):
            return " ".join(m.group(0).split())
    return ""


# The mean reward or return a run prints (TRL's `env/reward_mean 64.37`, Stable-Baselines3's `| ep_rew_mean | 212 |`,
# RLlib's `episode_reward_mean: 35.2`): the measure the RL answer points to, held to its own words
REWARD_PRINTED = lazy_regex.compile(r"(?i)(?<![\w/])(?P<key>(?:env/)?(?:reward|return|rew|ep_rew|episode_reward|mean_reward|"
                                    r"avg_reward)(?:[_/](?:mean|avg))?)\b[ \t|:=]{1,12}(-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)"
                                    r"(?![\d.])")
# A reinforcement-learning run, by its algorithms, its environments or its logged return: its loss says nothing of
# progress (a TD loss falls while the agent stays at the reward's floor), so words that it does not learn speak for the
# measure the reporter reads, the return
RL_ALGORITHMS = r"ppo|a2c|a3c|trpo|dqn|ddqn|sac|ddpg|td3|q-learning|reinforcement learning|replay buffer"
RL_RUN = lazy_regex.compile(r"(?i)\b(?:" + RL_ALGORITHMS + r"|gym(?:nasium)?\.make|ep_rew_mean|episode (?:reward|return)s?)\b")
REWARD_MOVED = 0.2          # a printed mean reward that ends this share of its first value's size or more away from it


def printed_rewards(text: str) -> list[float]:
    """The mean reward the log prints, in order, under the key it prints most (REWARD_PRINTED): not a line of code, a
    pasted environment's `reward = -100`."""
    by_key: dict[str, list[float]] = {}
    for m in itertools.islice(REWARD_PRINTED.finditer(text), 200):
        line = _line_of(text, m)
        if not _code_line(line):
            by_key.setdefault(m.group("key").lower(), []).append(float(m.group(2)))
    return max(by_key.values(), key=len, default=[])


def reward_rose(text: str) -> str:
    """The printed mean reward's rise, first to last, over three prints or more, the last above the first two (a noisy
    rise counts): an RL run that is learning, whatever its losses do; or ""."""
    return _reward_moved(text, up=True)


def reward_fell(text: str) -> str:
    """The printed mean reward's fall, first to last, over three prints or more, the last below the first two (a noisy
    fall counts); or ""."""
    return _reward_moved(text, up=False)


def _reward_moved(text: str, up: bool) -> str:
    values = printed_rewards(text)
    if len(values) < 3 or (values[-1] < max(values[:2]) if up else values[-1] > min(values[:2])):
        return ""
    first, last = values[0], values[-1]
    moved = (last - first) if up else (first - last)
    return (f"a printed mean reward that {'rose' if up else 'fell'} from {first:g} to {last:g}"
            if moved >= REWARD_MOVED * max(abs(first), 1e-9) else "")


# Words that say something went wrong. A report with none of them (and no message, and no
# broken curve) asks about a run that may be fine: it gets no failure candidates. Tokens of the
# thesaurus match whole; the other words by their start, so collapsed, crashing and failed count.
FAILURE_WORDS = frozenset("nan inf diverge climb overflow underflow negative divzero sigmoidzero".split())
FAILURE_ROOTS = ("error", "exception", "explod", "crash", "collaps", "stuck", "plateau", "fail", "broke",
                 "garbage", "terminat", "abort")
# A jump the loss never came back from ("jumps to 2600 and never goes back down", "never recovers", "it never gets back
# to 0.03"): back, down or to where it was -- not "does not go back up", a loss that stayed low, nor "back to the initial
# value"; nor "I didn't go back to the old rate", a change the reporter did not make
NEVER_RECOVERED = lazy_regex.compile(
    r"(?<!\bi )(?<!\bwe )\b(?:won'?t|doesn'?t|does not|didn'?t|did not|never|not) (?:go(?:es)?|went|come|comes|"
    r"came|gets?|got) back\b(?!\s+(?:up|together|to (?:the )?(?:initial|start\w*|beginning|old|previous version)|to this))"
    r"|\b(?:won'?t|doesn'?t|does not|didn'?t|did not|never) recover\w*"
    # ("at one step it jumps way up and stays high for the rest of training": a jump that stays)
    r"|\b(?:loss\w*|it)\b[^.;\n]{0,40}?\b(?:jumps?|jumped|shoots?|shot|spikes?|spiked)\s+(?:way\s+)?up\b[^.;\n]{0,20}?"
    r"\b(?:and|then)\s+(?:it\s+)?(?:stays?|stayed|remains?|remained)\s+(?:high|up|there|elevated)\b")
# ... said of this run's loss: not in a condition, a fear or a plan ("if it doesn't come back I'll lower the lr", "I'm
# worried it won't recover"), not of a metric or another run ("the accuracy never went back below 90%", "in my second
# run the spikes never came back")
NOT_THE_LOSS_RECOVERING = lazy_regex.compile(r"\b(?:if|unless|worried|afraid|fear|might|may|will|would|could|should|hope)\b|'ll\b|"
                                             r"\b(?:acc\w*|val(?:idation)?|val_\w+|f1|iou|auc|bleu|reward\w*|returns?|metric\w*|score)\b|"
                                             r"\b(?:second|other|another|next|new|previous|first) run\b|\bwith clipping\b")
# ... nor, where it says something never came back, of what stayed away (a spike, a nan, "back above" a bound): a
# spike that "never recovered" is a loss that did not, but one that "never came back" is a spike that did not; a loss
# that never came "back down", or "back below" 0.9 or where it was, did not recover either (BACK_TO_ITS_LEVEL) -- not
# "never came back under any seed", the nans staying away
BACK_TO_ITS_LEVEL = r"\s+(?:down\b|(?:below|under)\s+(?:~\s*)?(?:\d|where|its\b|the\s+(?:previous|old|earlier)))"
STAYED_AWAY = lazy_regex.compile(r"\b(?:spikes?|nans?|infs?|problem|issue|error)\s+(?:(?:have|has|had)\s+)?(?:never|not|"
                                 r"didn'?t|don'?t|won'?t|doesn'?t)\b|\bback (?:above|over)\b")


def never_recovered_said(prose: str) -> str:
    """The words that this run's loss never came back from a jump (NEVER_RECOVERED), in a sentence that tells it of the
    loss (NOT_THE_LOSS_RECOVERING), as written (lowercased); or ""."""
    for sentence, end in sentences_and_ends(told(prose)):
        m = NEVER_RECOVERED.search(sentence)
        if m and end != "?" and not NOT_THE_LOSS_RECOVERING.search(sentence) \
                and not (" back" in m.group(0) and not re.match(BACK_TO_ITS_LEVEL, sentence[m.end():])
                         and STAYED_AWAY.search(sentence)):
            return m.group(0)
    return ""


STUCK = lazy_regex.compile(r"(?:won'?t|doesn'?t|does not|do not|don'?t|didn'?t|did not|never|not|no longer|stop(?:s|ped)?)"
                    r" (?:go(?:ing)? down|decreas\w*|improv\w*|learn\w*|converg\w*|drop\w*)"
                    r"|(?:all|always|stays?|stayed|remains?|remained|stuck at) (?:the )?(?:same|constant)"
                    r"|\balways (?:equals?|equal to|gives?|outputs?|predicts?)\b"
                    r"|\b(?:training|run|process) (?:stops|stopped|dies|died|hangs)\b|\bstops? training\b|"
                    + NEVER_RECOVERED.pattern)


# Words that a run does not learn ("doesn't learn at all", "accuracy stuck at 10%", "the loss plateaus"), said as a
# statement of this run now: not in a question ("is it stuck?"), of the past ("I was stuck on this for days"), of
# the validation or test scores, of a speed ("not decreasing as fast as in the paper"), nor a run that hangs.
NOT_LEARNING = lazy_regex.compile(r"(?:won'?t|doesn'?t|does not|do not|don'?t|didn'?t|did not|isn'?t|aren'?t|never|"
                                  r"not|no longer|stopped|stops)\s+"
                                  # (an adverb between, or a seeming: "it's not really learning anything", "it does not
                                  # seem to learn")
                                  r"(?:(?:really|actually|even)\s+)?(?:(?:seem|appear)s?\s+to\s+)?"
                                  # (a verb of the run's: not a schedule's, "I stopped learning rate decay")
                                  r"(?:go(?:ing)? down|decreas\w*|improv\w*|learn\w*(?![\s_-]*rate)|converg\w*|drop\w*|"
                                  # (the loss's moving, not a tensor's: "I did not move the model to the GPU")
                                  r"mov(?:e|es|ed|ing)\b(?!\s+(?:the|my|it|them|this|that|to|onto|data|model|tensors?|"
                                  r"everything|anything)\b))\b"
                                  r"(?!\s+(?:as|so)\s+(?:fast|quickly|much|well))|"
                                  r"(?<!was )(?<!were )(?<!been )\b(?:stuck|plateau\w*|flat ?lines?|never learns?)\b|"
                                  # ("mixed precision makes my autoencoder stop learning": the model's, not a schedule's
                                  # "stop learning rate decay")
                                  r"(?<!not )(?<!n't )(?<!never )\bstop\s+(?:learning|improving|converging)\b(?![\s_-]*rate)|"
                                  # (the loss said to hover at a value, English's word for a plateau: "then just hovers
                                  # around 1.5-2 million"; not another quantity named after the loss, "the loss falls and
                                  # the accuracy hovers around 50%", nor denied, "no longer hovers", nor left behind,
                                  # "hovers at 2.3 for five epochs, then drops", nor after it converged -- code_review_s70b 5)
                                  r"\bloss(?:es)?\b(?:(?!\b(?:acc\w*|norm|metrics?|scores?|lr|rate|auc|f1|mae|mse|errors?|converg\w*|"
                                  r"grad\w*)\b)(?:[^.?!\n;]|\.(?=\d))){0,80}?(?<!longer )(?<!not )(?<!never )(?<!n't )"
                                  r"\bhover(?:s|ed|ing)?\s+(?:around|at|near|about)\b"
                                  r"(?!(?:[^.?!\n]|\.(?=\d)){0,80}?\b(?:then|but|before|until)\b(?:[^.?!\n]|\.(?=\d)){0,40}?"
                                  r"\b(?:drops?|dropped|falls?|fell|decreas\w*|goes\s+down|went\s+down)\b)|"
                                  # (the loss said to be flat, or said not to change: "the loss is flat from the very first
                                  # epoch", "it hasn't changed in the last 40 epochs" -- not a change the reporter did not make,
                                  # "I haven't changed anything", nor a loss that did not change much on the way down)
                                  # (a title's, with no verb: "loss flat after ~30 epochs")
                                  r"\bloss(?:es)?\s+(?:curve\s+)?(?:(?:is|are|stays?|stayed|remains?|remained|looks?|went|goes|"
                                  r"becomes?|became)\s+)?(?:completely\s+|totally\s+|just\s+|basically\s+|almost\s+)?flat\b|"
                                  # (said of the loss or of "it": not a row of a matrix, nor an accuracy, that never changes)
                                  # ("it" only after the loss named in the sentence: "the seed is fixed so it never changes" is not)
                                  r"\bloss(?:es)?\b(?:[^.?!\n]{0,80}?\bit\b)?(?:\s+[\w']+){0,4}?\s+(?:has\s*n[o']?t|have\s*n[o']?t|"
                                  r"does\s*n[o']?t|do\s*n[o']?t|did\s*n[o']?t|never|no\s+longer)\s+(?:really\s+|even\s+)?"
                                  r"chang(?:e|es|ed|ing)\b"
                                  r"(?!\s+(?:anything|something|the|my|a|an|any|it|its|this|that|them|much|to|between|across)\b)|"
                                  # (one value at every epoch: "the loss prints 2.302585 at every single epoch" -- not a change
                                  # by so much each epoch)
                                  # (a word of staying before the number, and none of change: "drops 0.01 every epoch" moves)
                                  r"\bloss(?:es)?\b(?:(?!\b(?:drops?|dropping|falls?|falling|decreas\w*|chang\w*|improv\w*|goes|"
                                  r"down|by|rises?|rising|increas\w*|climbs?)\b)[^.?!\n\d]){0,30}?\b(?:is|was|prints?|printed|"
                                  r"stays?|stayed|sits?|sat|remains?|remained|reads|shows|at)\s+(?:exactly\s+|always\s+|still\s+)?"
                                  r"(?:~\s?)?(?<![\d.])\d+(?:\.\d+)?\s+(?:at\s+|in\s+|on\s+|for\s+)?(?:every|each)\s+(?:single\s+)?"
                                  r"(?:epoch|step|iteration|batch|update)s?\b|"
                                  # (a value it keeps for a long stretch: "then it just sits at 1.3520 until epoch 500",
                                  # "loss sits at ~2.30 from epoch 1 to epoch 20")
                                  r"\b(?:sits?|sat|sitting)\s+at\s+(?:~\s?)?\d+(?:\.\d+)?\s+(?:until|till|for|through|"
                                  r"from\s+(?:epoch|step|iteration)\s+\d+\s+(?:to|until|till))\b|"
                                  # (or keeps where it got to: "drops to ~1.60 and then sits there for 40 epochs")
                                  r"\b(?:sits?|sat|sitting|stays?|stayed|staying)\s+there\s+(?:for|until|till|through)\b|"
                                  # (a model that gives one answer whatever it is shown: "it predicts dandelion for every
                                  # image", "predicts the same class for all inputs")
                                  r"\bpredict(?:s|ed|ing)?\s+(?:[\w'\"-]+\s+){0,3}?(?:for|on)\s+(?:every|each|all)\s+(?:the\s+|single\s+)?"
                                  r"(?:images?|inputs?|samples?|examples?|photos?|pictures?|rows?|instances?|sentences?|"
                                  r"tokens?)\b|"
                                  r"\b(?:barely|hardly)\s+(?:learn\w*|improv\w*|decreas\w*|mov\w*|chang\w*|go(?:es)? down)\b|"
                                  # (an accuracy that falls short: "only reaches ~35% on MNIST", "only gets 60 %")
                                  r"\bonly\s+(?:reach|get|hit|achiev)\w*\s+(?:about\s+|around\s+|~\s?)?\d{1,2}(?:\.\d+)?\s?%|"
                                  # (or an accuracy that stops short: "stops at ~44% accuracy", "tops out at 61%")
                                  r"\b(?:stops?|stopped|stalls?|stalled|tops?\s+out|topped\s+out|maxes\s+out|maxed\s+out)\s+at\s+"
                                  r"(?:about\s+|around\s+|~\s?)?\d{1,2}(?:\.\d+)?\s?%|"
                                  # (or no better than guessing: "the accuracy never gets above chance", "stays at chance level")
                                  r"\b(?:never|not|doesn'?t|does not|didn'?t|did not)\s+(?:gets?|goes?|rises?|climbs?|moves?)\s+"
                                  r"(?:above|past|beyond|over)\s+(?:chance|random|guessing)\b|"
                                  r"\b(?:stuck|stays?|stayed|sits?|sat|remains?|remained)\s+at\s+(?:chance|random)(?:\s+level)?\b",
                                  re.I)
# ... and in the languages reports come in most after English: "não aprende", "no converge", "n'apprend pas", "lernt
# nicht", "non scende", "не обучается", "不收敛", "学習しない", "학습이 안 돼", "öğrenmiyor", "không hội tụ"
NOT_LEARNING_FOREIGN = lazy_regex.compile(
    r"(?i)\b(?:não|nao)\s+(?:está\s+|esta\s+)?(?:aprende\w*|converge\w*|diminui\w*|cai|caindo|desce|melhora\w*)\b|"
    r"\bno\s+(?:está\s+|esta\s+)?(?:aprende|aprendiendo|converge|baja|bajando|disminuye|mejora)\b|"
    r"\bnon\s+(?:sta\s+)?(?:impara|imparando|converge|scende|diminuisce|migliora)\b|"
    r"\bse\s+estanc\w*|\bestancad\w*|\bstagna(?:no|nte|ting|tes)?\b(?<!stagnation)|\bristagn\w*|"
    r"\bn'(?:apprend|converge|diminue|baisse)\w*\s+pas\b|\bne\s+(?:converge|diminue|baisse)\w*\s+pas\b|"
    r"\b(?:lernt|konvergiert|sinkt|fällt)\s+nicht\b|"
    r"(?<!\w)не\s+(?:обуча\w*|уч\w*|сход\w*|пада\w*|уменьша\w*|снижа\w*)|(?<!\w)застр\w*|"
    r"不收敛|不收斂|不下降|降不下去|学不到|不学习|不學習|卡在|学習しない|学習が進まない|収束しない|下がらない|"
    r"학습이\s*(?:안|되지)|수렴하지\s*않|(?:안|않)\s*떨어|떨어지지\s*않|"
    r"\b(?:öğrenmiyor|düşmüyor|yakınsamıyor)\b|\bkhông\s+(?:học|hội tụ|giảm)")
# (val_loss, val_acc, valid, validation: not "value", which `val\w*` took -- "the same value for 270 epochs")
NOT_THIS_RUN = lazy_regex.compile(r"\b(?:val(?:_\w+)?|valid(?:ation)?(?:_\w+)?|test|eval\w*)\b", re.I)


# A line a paragraph was wrapped at: it ends in a word or a comma, and the next goes on in lower case or with a number
# ("... and then it just sits at\n1.3520 until epoch 500")
WRAPPED = lazy_regex.compile(r"(?<=[\w,])[ \t]*\n(?=[a-z0-9])")


@functools.lru_cache(maxsize=8)      # (asked of the same text by the normals' unless, the weighing and the facts)
def says_not_learning(text: str) -> bool:
    """Does the text state that the run does not learn (NOT_LEARNING), outside questions and validation scores?
    (A paragraph's wrapped lines are one sentence here.)"""
    return next(not_learning_sentences(text), None) is not None


# (a stall the same sentence puts down to the run being at its start now: a clause after "but" or "though" whose present
# "be" puts the run at an early time -- "..., but it's early", "..., though it's only epoch 2", "..., but we're only 200
# steps in", "..., but it's still warming up", "..., but it's only been 3 epochs" -- or says it has just started, the
# clause ending there. Not a time the stall is dated from ("it has been like this since the first epoch", "it was fine
# at the start of training"), nor an early stop, a first time, a first head, a later epoch ("only epoch 90 of 100"):
# an early time is the first three epochs, or under ten thousand steps)
_EARLY_TIME = (r"early\b(?![\s-]*stop)|(?:in\s+|at\s+)?(?:the\s+)?(?:very\s+)?(?:first|second|third|start|beginning)\s+"
               r"(?:few\s+)?(?:epochs?|steps?|iterations?|iters?|batch(?:es)?|minutes?)\b|(?:at\s+)?(?:the\s+)?(?:start|beginning)\s+"
               r"of\s+(?:the\s+)?(?:training|run)\b|(?:at\s+|in\s+)?(?:epoch\s+[1-3]|(?:step|iteration)\s+\d{1,4})\b(?!\s*[/.,]?\d)|"
               r"(?:[1-3]\s+epochs?|\d{1,4}\s+(?:steps?|iterations?|iters?|batch(?:es)?))\b(?:\s+in\b)?|warming\s+up\b|"
               r"in\s+(?:the\s+)?warm-?up\b")
AT_ITS_START = lazy_regex.compile(
    r"(?i)\b(?:but|though|although)\b[^.;\n]{0,30}?\b(?:it'?s|it\s+is|we'?re|we\s+are|this\s+is|i'?m|i\s+am|"
    r"(?:training|the\s+run)\s+is)\s+(?:(?:only|still|just)\s+)?(?:been\s+)?(?:only\s+)?(?:" + _EARLY_TIME + r")|"
    r"\b(?:but|though|although)\b[^.;\n]{0,30}?\b(?:training|it|the\s+run|we)\s+(?:(?:has|have)\s+)?(?:only\s+)?just\s+"
    r"(?:started|began|begun)\s*(?:[.,;:!?)]|$)")


def not_learning_sentences(text: str):
    """Each sentence of the text that states the run does not learn (says_not_learning's reading, one at a time)."""
    return (sentence for sentence, end in sentences_and_ends(WRAPPED.sub(" ", text))
            if end != "?" and any(_said_of_this_run(sentence, m) and not AT_ITS_START.search(sentence, m.end())
                                  for pattern in (NOT_LEARNING, NOT_LEARNING_FOREIGN)
                                  for m in itertools.islice(pattern.finditer(sentence), 10)))


# The loss said to climb, in a sentence that does not say it then came back down or that it climbed only in the warmup:
# "the loss keeps going up", "it increases every epoch" -- not "during warmup the loss climbs a little, then it falls"
# (closed classes: prepositions, adverbs of time and degree or in -ly, conjunctions)
_AFTER_WORSE = (r"(?:about|above|across|after|around|at|before|below|beyond|by|during|for|from|in|into|near|of|on|over|"
                r"past|since|through|throughout|till|to|towards?|under|until|up|with|within|without|\w+ly|later|"
                r"afterwards|again|soon|fast|pretty|very|really|quite|still|overnight|and|or|but|then|so|as|when|"
                r"once|if|while|because|than|every|each|even|much|far|way|a\s+lot)\b")
LOSS_CLIMBS = lazy_regex.compile(r"(?i)\b(?:loss\w*|it|cost|error)\b[^.;\n]{0,40}?\b(?:keeps?\s+|kept\s+|is\s+|starts?\s+|started\s+)?"
                                 r"(?:going\s+up|goes\s+up|went\s+up|climb\w*|increas\w*|ris(?:es|ing)|rose|grow\w*|explod\w*|"
                                 r"diverg\w*|blows?\s+up|blew\s+up|cre(?:eps?|eping|pt)\s+up|drift(?:s|ed|ing)?\s+(?:back\s+)?up|"
                                 r"(?:goes|going|went|comes|came|climbs?|"
                                 r"climbed|shoots?|shot|then)\s+"
                                 r"back\s+up)\b|"
                                 # (a loss that "gets worse" is one that climbs -- the loss's own verb, a word or two after
                                 # it, not another subject's: "the loss falls but the accuracy gets worse"; "it gets worse" may
                                 # be the run's result at a rate)
                                 r"\b(?:loss\w*|cost)\s+(?:\w+\s+){0,2}?(?:gets?|got|getting|becomes?|became)\s+worse\b|"
                                 # (a fall, then the climb, one clause after the other: "loss drops at the start of every
                                 # epoch, then climbs back up", "loss improves at first, then gets worse" -- the verb after
                                 # ", then" is the loss's, with no object of its own: not "then increased patience to 20")
                                 r"\b(?:loss\w*|cost)\b(?:[^.;,\n]|\.\d){0,60}?,\s*(?:and\s+)?then\s+(?:climb\w*|ris(?:es|ing)|rose|"
                                 # (the loss's own worse, not an attribute of a noun after it -- "then got worse
                                 # results": what may follow is a preposition, an adverb, a conjunction or nothing;
                                 # and not of a run the words change, loss_climb_said's CHANGED_RUN)
                                 r"(?:gets?|got|getting)\s+worse\b(?!\s+(?!" + _AFTER_WORSE + r")[a-z]+\b)|"
                                 r"increas(?:es|ed)\b(?!\s+(?:the|my|a|an|our|its|\w+\s+to)\b)|"
                                 r"(?:goes|going|went|comes|came|shoots?|shot)\s+(?:back\s+)?up)\b")
# (a fall said after the climb, not denied -- "it never comes back down" -- nor the rate's, "drops the learning rate";
# or the climb said to be the warmup's: "during the warmup the loss climbs")
CAME_DOWN_AFTER = lazy_regex.compile(r"(?i)(?<!never )(?<!not )(?<!n't )(?<!ever )\b(?:fall\w*|fell|drops?|dropped|comes?\s+(?:back\s+)?down|"
                                     r"came\s+(?:back\s+)?down|decreas\w*|recover\w*|settles?|settled)\b(?!\s+(?:the\s+)?(?:lr|learning\s+rate))")
# (the fall's subject, the nearest named before it: the loss's or "it"'s, not an accuracy's, a metric's or the rate's --
# "the loss keeps going up and the accuracy drops" is a climb)
_FALL_SUBJECT = lazy_regex.compile(r"(?i)\b(?:(?P<loss>loss\w*|it|cost|error)|acc\w*|metric\w*|score\w*|auc|f1|lr|rate|psnr|iou|dice|"
                                   r"recall|precision|reward\w*)\b")
IN_WARMUP = lazy_regex.compile(r"(?i)\b(?:during|in|within|while)\s+(?:the\s+)?(?:lr\s+)?warm-?up\b(?:\s+(?:phase|period|steps?))?[^.;,\n]{0,60}")


@functools.lru_cache(maxsize=4)      # (asked by the context and by the printed facts of the same text; read only)
def loss_climb_said(text: str) -> bool:
    """Does a sentence the text tells (a yes/no question asks) say the loss climbs (LOSS_CLIMBS), not denied, with no
    word after it that it came back down, nor that it climbed in a warmup (CAME_DOWN_AFTER, IN_WARMUP)?"""
    for sentence, _end in itertools.islice(sentences_and_ends(told(text)), 200):
        warmup = IN_WARMUP.search(sentence)
        pos = 0
        for _ in range(10):     # (each subject tried in turn: "It doesn't learn, the loss keeps going up")
            m = LOSS_CLIMBS.search(sentence, pos)
            if m is None:
                break
            denied = re.search(r"\b(?:not|never|no\s+longer)\b|n't\b", m.group(0))
            in_warmup = warmup is not None and warmup.start() <= m.start() < warmup.end()
            came_down = any((s := list(_FALL_SUBJECT.finditer(sentence, max(m.end(), f.start() - 40), f.start())))
                            and s[-1].group("loss") for f in CAME_DOWN_AFTER.finditer(sentence, m.end()))
            # ("then gets worse once I turn on augmentation": worse in a run the words change)
            changed = m.group(0).endswith("worse") and CHANGED_RUN.search(sentence[m.end():])
            if not denied and not in_warmup and not came_down and not changed:
                return True
            pos = m.start() + 1
    return False


# What a score's verb is said of: the loss, an accuracy, a metric
_SUBJECT = lazy_regex.compile(r"(?i)\b(?:loss\w*|acc(?:uracy)?|error|scores?|metrics?|f1|auc|map|iou|dice|wer|cer|bleu|perplexity|"
                              r"ppl|reward|it)\b")


def _said_of_this_run(sentence: str, m: re.Match) -> bool:
    """Is the match said of this run's training, not of a validation or test score? Its clause decides -- "the loss ...
    completely stops moving at ~1.92, val acc stuck at 32%" says the training loss stopped -- and, where the clause
    names no subject, the subject named last before it in the sentence, across an aside: "the validation accuracy,
    computed on one centre clip per video, topped out at 71%"."""
    start, end = _clause_span(sentence, m)
    if NOT_THIS_RUN.search(sentence, start, end):
        return False
    if _SUBJECT.search(sentence, start, m.start()):
        return True
    subject = None
    for subject in _SUBJECT.finditer(sentence, 0, m.start()):
        pass
    return subject is None or not NOT_THIS_RUN.search(sentence, max(0, subject.start() - 20), subject.end())


# A nan or an inf said in one of the report's sentences (not its code, nor a log line, nor a question) as what this
# run's loss became: the loss (or "it", the run, its outputs) before the verb, in the same clause ("the loss goes nan
# after ~350 epochs", "it goes down for a long time and then suddenly nan") -- not rows or values of the data that hold
# nan ("I dropped the rows with NaN values": no subject of the run's before it), not a condition or a guess ("stops
# training if the loss is nan", "it would go nan"), not the validation's, not denied ("it never goes nan"), and not a
# run the sentence sets apart: an earlier one ("before I fixed...", "my old run"), one at another setting ("with lr
# 1e-3 it went nan"), another's (a notebook's, a colleague's), or one the sentence says trains well after it ("..., now
# the loss falls smoothly")
NONFINITE_SAID = lazy_regex.compile(r"(?i)\b(?:loss\w*|it|training|the\s+run|(?:the\s+)?outputs?|predictions?|everything)\b"
                                    r"[^.;\n]{0,80}?\b(?:go(?:es|ing)?|went|gone|becom(?:es?|ing)|became|"
                                    r"turn(?:s|ed|ing)?|is|was|are|were|gets?|got|getting|shows?|showed|hits?|then|"
                                    r"suddenly)\s+(?:(?:a|an|all|to|into|suddenly|just|straight|completely)\s+)?"
                                    r"(?:nan|inf|infinity|nans)(?![\w.-])")
NOT_A_STATE = lazy_regex.compile(r"(?i)\b(?:if|whether|unless|would|could|might|will)\b")
# (a run another person made: "someone said their results...", "on my colleague's machine")
_OTHERS = r"someone|somebody|their|they|he|she|people|others?|colleague\w*"
ANOTHER_RUN = lazy_regex.compile(r"(?i)\bbefore\s+(?:i|we)\s+\w+ed\b|\b(?:old|previous|earlier|first)\s+(?:run|attempt|"
                                 r"version|try)\b|\bused\s+to\b|\b(?:notebook|paper|tutorial|" + _OTHERS + r")\b")
# (a run said to train well after the nan, in the same sentence: the nan was another's, or is gone)
WELL_AFTER = lazy_regex.compile(r"(?i)\b(?:now|mine|but|then)\b[^.;\n]{0,60}?\b(?:trains?|works?|falls?|fine|goes\s+down|"
                                r"decreas\w*|smooth\w*|converg\w*|learns?)\b")
# (four words or more besides the nan: not a table's row of numbers with a nan cell, `0  0  99  1.0986  NaN`)
SENTENCE_WORDS = 4
QUOTED_TEXT = lazy_regex.compile(r"\"[^\"\n]{0,200}\"|`[^`\n]{0,200}`|\u201c[^\u201d\n]{0,200}\u201d")


@functools.lru_cache(maxsize=8)      # (asked by the weighing's context and by the paste's facts, of the same text)
def nonfinite_said_of_this_run(text: str) -> str:
    """The first sentence that says this run's loss went nan or inf (NONFINITE_SAID), else ''."""
    # (not a message quoted, one the reporter does not see: '"Loss is nan, stopping training" never shows up')
    for sentence, end in sentences_and_ends(QUOTED_TEXT.sub(" ", WRAPPED.sub(" ", sentences_only(text)))):
        words = [w for w in re.findall(r"[A-Za-z]{2,}", sentence) if w.lower() not in ("nan", "inf", "nans")]
        if end == "?" or len(words) < SENTENCE_WORDS or ANOTHER_RUN.search(sentence) or CHANGED_RUN.search(sentence) \
                or NOT_A_STATE.search(sentence):
            continue
        m = NONFINITE_SAID.search(sentence)
        if m and not WELL_AFTER.search(sentence, m.end()) and said_unnegated(sentence, {"nan", "inf"}) \
                and _said_of_this_run(sentence, m):
            return " ".join(sentence.split())
    return ""


# (a clause also ends where a conjunction opens the next one with a subject of its own: "loss sits at ~2.30 from epoch 1
# to epoch 20 and test accuracy is 11.35%" says the training loss stopped, whatever the test accuracy's clause says --
# not "... and that is the validation loss", which qualifies the clause it ends)
CLAUSE_JOIN = lazy_regex.compile(r"\s(?:and|but|while|whereas)\s+(?=(?:the\s+|my\s+|our\s+|its\s+)?(?:[\w-]+\s+)?(?:loss|losses|"
                                 r"accuracy|acc|error|f1|auc|metric|score|model)\b)")


def _clause_span(sentence: str, m: re.Match) -> tuple[int, int]:
    """Where the clause of the sentence that holds the match begins and ends, between commas or semicolons, or before a
    conjunction after it."""
    start = max(sentence.rfind(",", 0, m.start()), sentence.rfind(";", 0, m.start())) + 1
    joined = CLAUSE_JOIN.search(sentence, m.end())
    ends = [i for i in (sentence.find(",", m.end()), sentence.find(";", m.end()), joined.start() if joined else -1)
            if i >= 0]
    return start, min(ends) if ends else len(sentence)


# A model's output said to be nan or inf in a report that names no training at all (no loss, epoch, step, optimizer,
# gradient, learning rate) nor a trained model (pretrained, a checkpoint, inference), nor a nan that comes and goes:
# a forward pass of a model that has not been trained, so the failure is there before the first update ("all NaNs
# as output" after swapping a layer in). When the words say nothing else of when, that is when. (Not an op's output:
# a softmax's or an attention's nan names its own mechanism.)
OUTPUT_NONFINITE = lazy_regex.compile(r"(?<!softmax )(?<!sigmoid )(?<!attention )(?<!exp )(?<!log )(?<!norm )"
                                      r"\b(?:outputs?|predictions?|logits|activations?)\b(?:[^.;!?\n]|\.(?=\w)){0,60}?"
                                      r"\b(?:nan|inf)s?\b|\b(?:nan|inf)s?\b[^.;!?\n]{0,20}?\b(?:as|in the|for the|in its) "
                                      r"(?:outputs?|predictions?|logits)\b", re.I)
TRAINING_NAMED = lazy_regex.compile(r"\b(?:train\w*|pre-?train\w*|epochs?|iter\w*|steps?|loss\w*|learn\w*|lr|optimi[sz]\w*"
                                    r"|fit\w*|converg\w*|backward|backprop\w*|gradients?|grads?|updates?|checkpoints?|ckpt"
                                    r"|inference|fine-?tun\w*|batch\w*"
                                    # (a nan that comes and goes comes from what changes: the batches, the steps)
                                    r"|sometimes|occasionally|frequently|often|randomly|intermittent\w*|at times)\b", re.I)


# ... or said outright to be so before any training, in a report that trains too: "even model.predict(X[:5]) before
# training returns nan", "before the first update the outputs are already nan". Not "before the first epoch finishes"
# (that is during it), and not across a contrast or a later time ("before training they are fine, but later nan",
# "... become nan after epoch 2").
_UNTRAINED = r"before (?:any )?(?:training|fit(?:ting)?|the first (?:update|step)|updating)\b"
_OUTPUT = r"\b(?:predict\w*|outputs?|forward(?: pass)?|logits)\b"
_CALM = r"(?:(?!\b(?:but|after|later|then|finite|fine|ok|okay|normal|and)\b)(?:[^.;!?\n,]|\.(?=\w)))"
_NAN_NOW = r"\b(?:nan|inf)s?\b(?!\s+(?:only\s+)?(?:after|from|since)\b)"
BEFORE_TRAINING_NONFINITE = lazy_regex.compile(
    _OUTPUT + _CALM + r"{0,40}?\b" + _UNTRAINED + _CALM + r"{0,25}?" + _NAN_NOW
    + r"|\b" + _UNTRAINED + r",?\s+" + _CALM + r"{0,30}?" + _OUTPUT + _CALM + r"{0,25}?" + _NAN_NOW, re.I)


@functools.lru_cache(maxsize=4)        # (asked by the facts, the context and the deciding question of one report)
def untrained_output_nonfinite(text: str) -> str:
    """The words that say an untrained model's output is nan or inf (OUTPUT_NONFINITE in a report that names no
    training, BEFORE_TRAINING_NONFINITE in any), or ""."""
    said = OUTPUT_NONFINITE.search(text)
    if said is None or TRAINING_NAMED.search(text) or not said_unnegated(said.group(0), {"nan", "inf"}):
        said = BEFORE_TRAINING_NONFINITE.search(text)
        if said is None or not said_unnegated(said.group(0), {"nan", "inf"}):
            return ""
    return " ".join(said.group(0).split())


# ... or said to be enormous before any training: "I printed the logits of the very first batch before calling fit: their
# absolute values are around 1e9", "at initialisation the activations of the last layer are in the millions". A forward
# pass no update has touched is that large because of what it starts from (weights drawn too wide, inputs on their raw
# scale), not because of the learning rate. (A number of 1e4 or more, or words of that size; not "large".)
_UNTRAINED_WIDE = (r"(?:" + _UNTRAINED + r"|before calling (?:model\.)?fit\b|at init(?:iali[sz]ation)?\b|"
                   r"(?:of|for|on) the (?:very )?first (?:batch|forward pass)\b)")
_ENORMOUS = (r"(?:\b\d+(?:\.\d+)?e\+?0*(?:[4-9]|[1-9]\d)\b|\b10\^\d{1,3}\b|\b(?:millions|billions|trillions|huge|enormous|"
             r"astronomical|gigantic)\b)")
BEFORE_TRAINING_ENORMOUS = lazy_regex.compile(
    r"\b(?:outputs?|logits|activations?|predictions?)\b" + _CALM + r"{0,40}?\b" + _UNTRAINED_WIDE + _CALM + r"{0,60}?"
    + _ENORMOUS + r"|\b" + _UNTRAINED_WIDE + r",?\s+" + _CALM + r"{0,40}?\b(?:outputs?|logits|activations?|predictions?)\b"
    + _CALM + r"{0,40}?" + _ENORMOUS, re.I)


def untrained_output_enormous(text: str) -> str:
    """The words that say an untrained model's output is enormous (BEFORE_TRAINING_ENORMOUS), not denied, or ""."""
    for m in itertools.islice(BEFORE_TRAINING_ENORMOUS.finditer(text), 5):
        if not re.search(r"(?i)\b(?:not|no|never|nor)\b|n't\b", m.group(0)) and not denied_before(text, m.start(), 20):
            return " ".join(m.group(0).split())
    return ""


# Words that the loss fell, or the run trained well, before it broke.
FELL_SAID = lazy_regex.compile(r"\b(?:goes|went|going|came|comes)\s+down\b|\bdecreas\w*|\bfalling\b|\bfell\b|"
                               r"\btrain\w*\s+(?:well|fine|nicely|normally|great)\b|\b(?:fine|well|nicely|normally)\s+for\b",
                               re.I)


# A clause that describes a changed run, not this one: "if I drop the long sentences it trains fine", "with lr 1e-4 it
# trains fine", "when I remove the augmentation it works", "in fp32 it trains fine" (not "after warmup the loss goes
# down", "at first it decreases": this run)
CHANGED_RUN = lazy_regex.compile(r"(?i)^\s*(?:but\s+|and\s+)?(?:(?:if|unless|whenever)\b|(?:when|once|with|without|using|after)\s+"
                                 r"(?:i|we|you)\b|with(?:out)?\s+(?:a\s+|the\s+)?(?:lower|smaller|higher|bigger|different|other|old|"
                                 r"new|lr|fp32|fp16|bf16|amp|float32)\b|(?:in|on)\s+(?:fp32|fp16|bf16|float32|cpu|gpu|tf|tensorflow|"
                                 r"pytorch|keras|jax)\b|last\s+(?:week|time|month))")
# ... and a fall that is not the loss's: "I decreased the batch size", "the accuracy goes down" (a clause that names the
# loss is the loss's)
NOT_THE_LOSS = lazy_regex.compile(r"\b(?:i|we|you)\s+(?:\w+\s+)?$|\b(?:accuracy|acc|auc|f1|score|iou|dice|lr|learning rate|"
                                  r"batch size|memory|speed|throughput|gradients?|grad norm)\b", re.I)
def fell_then_broke(text: str, words: list[str]) -> bool:
    """Do the words tell the shape of a loss that fell (or a run that trained well) and then went nan or inf, and
    nowhere that it climbed or blew up ("goes down nicely for 11 epochs, and then in epoch 12 it prints nan")? The fall
    is said before a nan, of this run (not a changed one's, CHANGED_RUN) and of the loss (not NOT_THE_LOSS)."""
    if not {"nan", "inf"} & set(words) or {"climb", "diverge"} & set(words) \
            or re.search(r"(?i)\bspikes?\b|\bspiked\b|\bshoots? up\b|\bshot up\b", text):
        return False
    # (the last nan found once: a fall after it is said of no nan)
    last_nan = max((n.start() for n in re.finditer(r"(?i)\b(?:nan|inf|infinity)\b", text)), default=-1)
    for m in FELL_SAID.finditer(text):
        if m.end() > last_nan:
            break
        # (the clause is the text since the last stop, colon or comma before the fall; bounded, so many falls in a long
        # text each look back a little way only)
        clause = _clause_before(text, m.start(), 200, ".;:!?\n,")
        if CHANGED_RUN.search(clause) or (NOT_THE_LOSS.search(clause) and not re.search(r"(?i)\bloss", clause)):
            continue
        return True
    return False


# A loss said to fall faster than a run it is compared with -- the reference run, the tutorial, a port's original, a
# classmate's notebook -- and then to turn: back up, into swings, to nan. With plain SGD or momentum, a buffer
# that sums every gradient since the last clearing makes each step longer than a correct run's while the gradients
# agree, so it outruns the run it copies at first and then overshoots (WR-260's own start); under Adam the step is
# normalised, and the tell is the climb back. The comparison is with a run of reference, or what the reporter expected
# (not "faster than with SGD", another setting of the reporter's); the learning said in its sentence (not "each epoch
# runs faster": a speed); the turn in the sentences after it, not denied ("I never see it go back up"), of this run's
# training (not a validation score's); and neither said of a changed run ("with a higher lr it drops faster than...").
FASTER_THAN = lazy_regex.compile(r"(?i)\b(?:faster|quicker|more\s+quickly|more\s+rapidly)\s+than\b")
TRIVIAL_PREDICTOR = (r"\s+(?:(?:just\s+|simply\s+|always\s+)?(?:predicting|guessing|outputting)\s+(?:the\s+|a\s+)?"
                     r"(?:training\s+|train\s+)?(?:set\s+)?(?:mean|average|median|constant|zero|majority)\b|"
                     # (or a linear model on the same features, which a network with a linear output contains)
                     r"(?:a\s+|the\s+)?(?:plain\s+|simple\s+|basic\s+)?(?:sklearn\s+|scikit-learn\s+)?(?:linear|logistic|ridge)"
                     r"\s+regression\b)")
# (the trivial reference alone, for who must tell it from the others)
BELOW_A_CONSTANT = lazy_regex.compile(r"(?i)" + TRIVIAL_PREDICTOR)
REFERENCE = lazy_regex.compile(r"(?i)\s+(?:in\s+|with\s+|on\s+|for\s+|from\s+)?(?:the\s+|my\s+|our\s+|an?\s+|his\s+|her\s+|their\s+|"
                               r"\w+'s\s+)?(?:(?!(?:sgd|adam\w*|rmsprop|lr|batch|with|without|smaller|larger|higher|lower)\b)[\w'-]+\s+){0,3}?"
                               r"(?:reference|original|papers?'?s?|tutorials?'?s?|baselines?|official|repo\w*|"
                               r"notebooks?|copy|port|implementations?|version|examples?|runs?|logs?|curves?|anything|code|"
                               r"scripts?)\b|"
                               # (or what the reporter expected, where a turn follows that is not denied)
                               r"\s+(?:i\s+|we\s+)?(?:had\s+)?expected\b|"
                               # (or the same model in another framework or place, a port's twin: "faster than the same model
                               # did in Keras" -- not the same model at another setting of the reporter's, "at lr 0.01")
                               r"\s+(?:the\s+|my\s+|our\s+)?same\s+(?:model|network|net|architecture|code|setup)\s+"
                               r"(?:(?:did|does|do|trained|ran|runs)\s+)?(?:in|on|under)\s+(?:the\s+)?(?:keras|tensorflow|tf|"
                               r"pytorch|torch|jax|flax|paper|repo\w*|original|reference|tutorial|notebook)\b")
LEARNING = lazy_regex.compile(r"(?i)\b(?:loss\w*|learn\w*|drops?|dropped|dropping|falls?|fell|falling|decreas\w*|goes\s+down|went\s+down|"
                              r"converg\w*|improv\w*|accuracy|gets?\s+to|got\s+to|reach\w*)\b")
SPEED = lazy_regex.compile(r"(?i)\b(?:seconds?|minutes?|hours?|it/s|per\s+second|wall|throughput|runs?\s+faster|"
                           r"epochs?\s+(?:are|is|run|take))\b")
TURNED = lazy_regex.compile(r"(?i)\b(?:back\s+up|goes\s+up|went\s+up|going\s+up|climb\w*|creep\w*\s+(?:back\s+)?up|turns?\s+(?:a)?round|"
                            r"turned\s+(?:a)?round|(?:loss|it)\s+(?:gets?|got|getting|is|was)\s+worse|swing\w*|zig-?zag\w*|oscillat\w*|"
                            r"jump\w*\s+around|nan|inf|diverg\w*|explod\w*|blows?\s+up|blew\s+up|wander\w*|"
                            # (a rise said of the loss or "it": not "the accuracy increases", "the lr rises")
                            r"(?:loss\w*|it)\s+(?:\w+\s+){0,2}?(?:increas\w*|ris(?:es|ing)|rose|shoots?\s+up|shot\s+up|spik\w*))\b")
# (a turn denied in its clause: "I never see it go back up", "no nan or inf anywhere")
TURN_DENIED = lazy_regex.compile(r"(?i)(?:\b(?:no|not|never|nothing|without|neither|nor)\b|n't\b)[^.;,\n]{0,30}$")
TURN_SPAN, QUOTED = 400, 160


def faster_start_said(text: str) -> str:
    """The sentence that says the loss fell faster than a run it is compared with and then turned (FASTER_THAN,
    REFERENCE, TURNED), else ''."""
    text = WRAPPED.sub(" ", text)
    for m in itertools.islice(FASTER_THAN.finditer(text), 20):
        begin, end = sentence_around(text, m.start(), m.end(), stops=".;\n?!")
        sentence = text[begin:end]
        at = m.start() - begin
        if text[end:end + 1] == "?" or not REFERENCE.match(text, m.end()) or not LEARNING.search(sentence) \
                or SPEED.search(sentence) or CHANGED_RUN.search(sentence[:at]) or NOT_THIS_RUN.search(sentence[:at]) \
                or NOT_THIS_RUN.search(text, m.end(), min(end, m.end() + 40)):
            continue
        after = text[m.end():m.end() + TURN_SPAN]
        turn = next((t for t in TURNED.finditer(after) if not TURN_DENIED.search(after[:t.start()])), None)
        if turn and not NOT_THIS_RUN.search(after[:turn.start()][-60:]):
            return shown(" ".join(sentence.split()), QUOTED, quote=False)
    return ""


# A run said to fall far short of one it is compared with -- the paper's, a public notebook's, the tutorial's, the
# official code's ("much worse than the public notebooks", "way below the reported numbers"): the same setup reaches
# more elsewhere, so this one has a bug, however its own loss falls (not a small gap, "a bit lower than the paper",
# which seeds and versions explain; not denied, "not much worse than the paper"; not asked)
SHORT_OF = lazy_regex.compile(r"(?i)\b(?:much|way|far|a\s+lot|significantly|substantially|dramatically|"
                              r"massively|hugely|considerably|miles)\s+(?:worse|lower|below|behind|weaker|poorer)\b"
                              r"(?:\s+than\b)?|"
                              # (any gap to a trivial reference, BELOW_A_CONSTANT's: "actually worse than linear
                              # regression" -- a network that any constant or linear fit beats is broken)
                              r"\b(?:worse|weaker|poorer)\s+than\b(?=" + TRIVIAL_PREDICTOR + r")")


LOSS_WORD = lazy_regex.compile(r"(?i)\b(?:loss\w*|perplexity|ppl|error|wer|cer|rmse|mae|mse)\b")
SCORE_WORD = lazy_regex.compile(r"(?i)\b(?:acc\w*|bleu|rouge\w*|map|miou|iou|dice|f1|auc|r2|r²|psnr|ssim|score\w*|"
                                r"rewards?|returns?|(?:reported|published)\s+numbers|results?|metrics?|recall|precision|mrr|"
                                r"ndcg|c-?index)\b")
# (the run's cost, not its quality, anywhere in the sentence: "memory use is far lower than the original code", "far
# behind the official implementation in speed")
RESOURCE_WORD = lazy_regex.compile(r"(?i)\b(?:memory|ram|vram|speed|throughput|latency|time|seconds?|hours?|it/s|lr|"
                                   r"learning\s+rate|batch(?:\s+size)?|params?|parameters|flops|size|cost|steps)\b")
# (the reference a comparison names, not the reporter's own run -- "the original is much worse than my version" -- nor
# the same run's training or validation, a generalisation gap: "test accuracy is much lower than the train run")
OWN_OR_SAME_RUN = lazy_regex.compile(r"(?i)\b(?:my|our|mine|ours|train\w*)\b|" + NOT_THIS_RUN.pattern)
# (and a gap the sentence takes back, after the reference: a run changed or fixed -- "until I fixed the preprocessing",
# "when I use fp16" -- or one that caught up -- "after 100 epochs it matches"; or another's run: "someone said their
# results...")
GAP_TAKEN_BACK = lazy_regex.compile(r"(?i)\b(?:until|unless|when|whenever|once|if|matches|match(?:ed)?|caught\s+up|catches\s+up|"
                                    r"on\s+par|same\s+as)\b")
OTHERS_RUN = lazy_regex.compile(r"(?i)\b(?:" + _OTHERS + r")\b")


# (a trivial reference is compared with a run of this one's model: not another learner's, the subject right before the
# gap -- "the random forest does worse than linear regression" --, nor a case put by the gap's own verb, "worse than
# predicting the mean would mean R2 < 0", nor an early stage said of the gap -- "at epoch 1 it is worse than predicting
# the mean" -- or one the run is then said to beat: "..., but by epoch 50 it is far better")
OTHER_LEARNER = lazy_regex.compile(r"(?i)\b(?:random\s+forests?|xgboost|xgb|lightgbm|lgbm|catboost|gradient[ -]boost\w*|"
                                   r"boosted\s+trees?|decision\s+trees?|svms?|svr|k-?nn|(?:linear|logistic|ridge|lasso)\s+"
                                   r"regression)\b(?:\s+\w+){0,3}\s*$")
EARLY_STAGE = lazy_regex.compile(r"(?i)\bat\s+epoch\s+[01]\b|\bfor\s+the\s+first\s+(?:few\s+|\d+\s+)?(?:epochs?|steps?|"
                                 r"iterations?|batches)\b|\bearly\s+(?:in|on)\s+(?:training|the\s+run)\b|\bat\s+first\b|"
                                 r"\binitially\b|\bat\s+the\s+(?:very\s+)?start\b")
TRIVIAL_BEATEN = lazy_regex.compile(r"(?i)\b(?:but|then|after|by|later)\b[^.;\n]{0,60}?\b(?:it|the\s+(?:model|net|network|nn|"
                                    r"run|loss)|this|ours)\b[^.;\n]{0,30}?(?<!no )(?<!not )\b(?:better|beats?|outperforms?)\b")


def _clause_of_the_gap(text: str, begin: int, gap: re.Match, end: int) -> str:
    """The clause of the sentence (text[begin:end]) that holds the gap: from the last comma, semicolon, "but" or "then"
    before it to the next comma or semicolon after it."""
    before = text[begin:gap.start()]
    cut = max(before.rfind(","), before.rfind(";"), *(m.end() for m in re.finditer(r"(?i)\b(?:but|then)\b", before)))
    after = re.search(r"[,;]", text[gap.end():end])
    return text[begin + cut + 1:gap.end() + (after.start() if after else end - gap.end())]


@functools.lru_cache(maxsize=8)      # (asked by the paste's facts and by the report's Read: line, of the same text)
def _short_of(text: str) -> tuple[str, bool]:
    """(the sentence, whether the reference is a trivial one: BELOW_A_CONSTANT) that says this run falls far short of a
    run it is compared with (SHORT_OF, then REFERENCE); else ("", False)."""
    text = WRAPPED.sub(" ", text)
    for m in itertools.islice(SHORT_OF.finditer(text), 20):
        begin, end = sentence_around(text, m.start(), m.end(), stops=".;\n?!")
        sentence, before = text[begin:end + 1], text[begin:m.start()]
        # (or the trivial predictor, a constant that every model starts able to match: "way worse than just predicting
        # the average energy" -- read here only, not by the other readings of REFERENCE: faster_start_said's twin run)
        trivial = BELOW_A_CONSTANT.match(text, m.end())
        reference = trivial or REFERENCE.match(text, m.end())
        # (lower or below of a score's: a loss lower than the paper's is better, not short of it)
        lower = re.search(r"(?i)\b(?:lower|below)\b", m.group(0)) is not None
        # (not a yes/no question's, "is it much worse than the paper?": what told leaves is what the report tells)
        if reference is None or denied_before(text, m.start()) or CHANGED_RUN.search(before) \
                or OWN_OR_SAME_RUN.search(reference.group(0)) and not trivial \
                or REFERENCE.search(re.split(r"[,;:]", before)[-1] if trivial else before) \
                or RESOURCE_WORD.search(sentence) or OTHERS_RUN.search(sentence) \
                or GAP_TAKEN_BACK.search(text, reference.end(), end) or CHANGED_RUN.search(text[reference.end():end]) \
                or m.group(0).lower() not in told(sentence) \
                or lower and (LOSS_WORD.search(before) or not SCORE_WORD.search(sentence)) \
                or trivial and (OTHER_LEARNER.search(before) or EARLY_STAGE.search(_clause_of_the_gap(text, begin, m, end))
                                or re.match(r"\s*would\b", text[reference.end():end])
                                or TRIVIAL_BEATEN.search(text, reference.end(), end)):
            continue
        return shown(" ".join(text[begin:end].split()), QUOTED, quote=False), trivial is not None
    return "", False


def short_of_reference_said(text: str) -> str:
    """The sentence that says this run falls far short of a run it is compared with (_short_of), else ''."""
    return _short_of(text)[0]


def short_of_a_trivial_reference(text: str) -> bool:
    """Is the run _short_of compares a constant prediction or a linear fit (BELOW_A_CONSTANT)?"""
    return _short_of(text)[1]


def says_failure(text: str, ignore: frozenset = frozenset()) -> bool:
    """Does the report say anything went wrong (not only ask whether it did, or say it did not:
    "nothing overflowed", "no nan")? Words in `ignore` (folded) are not counted."""
    text = fold_text(text)
    words = re.findall(r"[a-z_']+", text)
    for i, word in enumerate(words):
        if word in ignore:
            continue
        if (word in FAILURE_WORDS or word.startswith(FAILURE_ROOTS)) and not negated(words, i):
            return True
    return bool(STUCK.search(text))


# Losses that cannot go below zero when the targets are valid (cross-entropy, BCE, an overlap loss
# 1 - Dice, a squared error), against likelihoods of continuous data, which can. A bare "NLL" is
# either (PyTorch's NLLLoss is cross-entropy on log-probabilities), so it decides nothing.
BOUNDED_LOSS = lazy_regex.compile(r"\b(?:b?ce(?:loss\w*)?|bce_?with_?logits\w*|binary[ _-]?cross[ _-]?entropy|(?:sparse[ _-]?|categorical[ _-]?)*"
                                  r"cross[ _-]?entropy\w*|crossentropy\w*|dice\w*|iou\w*|jaccard\w*|focal\w*|mse\w*|mean[ _-]"
                                  r"squared|l1[ _-]?loss|smooth[ _-]?l1\w*|huber\w*|hinge\w*|softmax\w*|"
                                  # (and CTC, minus the log of a sum of path probabilities: at or above zero handed what it takes)
                                  r"ctc(?:_?loss|_batch_cost)?|charbonnier\w*)\b", re.I)
# A Wasserstein GAN in use: not one switched away from, denied, or left for another loss ("switched from WGAN-GP to the
# standard BCE loss"); NOT_IN_USE, the words before a name that say it is not the run's
NOT_IN_USE = (r"(?<!from )(?<!instead of )(?<!not a )(?<!not )(?<!not using )(?<!no )(?<!don't use )(?<!do not use )"
               r"(?<!without )(?<!non-)(?<!than )(?<!replaced )")
WGAN_IN_USE = (NOT_IN_USE + r"(?:\bw-?gan\w*|\bwasserstein)(?![\w-]*\s+to\s+(?:the\s+)?(?:standard|bce|vanilla|ns|"
               r"non-saturating|hinge|lsgan))")
# (a normalizing flow by its names -- not a flow alone, which in a report as often is an optical or a scene flow, a
# data flow or flow matching, whose loss is a squared error; and a loss with a learned scale, Kendall and Gal's
# aleatoric uncertainty, |y - f(x)| exp(-s) + s: a Laplace or Gaussian negative log-likelihood, below zero once the
# scale is small -- not a Laplacian, a pyramid's or a smoothing term's, an L1 or L2 penalty)
LIKELIHOOD = lazy_regex.compile(r"likelihood|log[ _-]?prob|\blog[ _-]?p\b|densit(?:y|ies)|\bnormali[sz]ing[ -]flows?\b|"
                                r"\bflow[ -]based\b|\b(?:real[ -]?nvp|glow|nflows|normflows|ffjord|zuko|freia)\b|"
                                r"\bmaf\b(?=[^.\n]{0,60}?\bflows?\b)|"
                                r"\b(?:masked|inverse) autoregressive flows?\b|\b(?:neural spline|coupling|planar|radial) flows?\b|"
                                r"\belbo\b|gaussian|\blaplace|\baleatoric\b|\bheteroscedastic\b|mixture|"
                                # (and multi-task uncertainty weighting, as commonly implemented sum_i exp(-s_i) L_i + s_i with
                                # s_i the log of a task's variance: its s_i go below 0 as the task losses shrink -- Kendall, Gal
                                # and Cipolla 2018, arXiv:1705.07115; in use, not denied, and not Kendall's tau)
                                + NOT_IN_USE + r"(?<!not using )(?<!no )\buncertainty[ -]weight\w*|"
                                r"\bkendall\b(?!['\u2019]?s?[\s-]+(?:tau|τ|rank|correlation|coefficient|w)\b)"
                                # (and a Wasserstein critic's, negative by construction)
                                r"|variational|\bkl\b|" + WGAN_IN_USE, re.I)
# An overlap score is in [0, 1] whatever the model predicts, as long as the targets are: a Dice or
# IoU printed outside that range means the targets are not (a 0/255 mask gives a Dice above 1).
# (not a loss named for the score, `iou_loss = 1.2398`, `dice_coef_loss: 1.07`, "dice coefficient loss": a GIoU loss
# reaches 2 and a CIoU loss more, and a Dice loss is 1 minus the score)
# (a value, not a count said after the score's name: "the IoU still improves for 30+ epochs", "Dice over 40 scans")
SCORE = lazy_regex.compile(r"\b(?:dice|iou|jaccard|dsc)(?![a-z_ ]{0,16}loss)[a-z_ ]{0,20}?[:=\s-]\s*(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
                           r"(?![\d.%+])(?!\s*(?:more\s+)?(?:epochs?|steps?|iterations?|iters?|batches|images?|scans?|samples?|"
                           r"volumes?|cases?|classes|pixels?|px)\b)", re.I)


# A loss written as minus an overlap score (`return -(2 * inter + s) / (...)`, `bce - dice_coef`): below zero by design,
# whatever the targets; not one minus it (`1 - dice`), which stays at or above zero.
# (one run of blanks between the minus and what it negates: two, around an optional bracket, backtrack over a long run
# of spaces quadratically)
MINUS_SCORE = lazy_regex.compile(r"(?<![\d.])(?<![\d.] )-[ \t]*(?:\([ \t]*)?(?:\d+(?:\.\d*)?[ \t]*\*[ \t]*)?"
                                 r"(?:dice|iou|jaccard|inter(?:section)?)\w*", re.I)
# ... or minus a cosine similarity, in [-1, 1] and at -1 when the two views agree: SimSiam's D(p, z) = -cos(p, z) (Chen &
# He 2021), lightly's NegativeCosineSimilarity (its BYOL and SimSiam examples train on it), `-F.cosine_similarity(p, z)`;
# not BYOL's own 2 - 2 cos, which stays at or above zero
# (the library lightly, not the adverb: "Lightly", "lightly's", "lightly.loss", "the lightly docs" -- not "Lightly
# modified the augmentations")
_LIGHTLY = (r"(?:(?-i:\bLightly\b)(?!\s+\w+ed\b)|\blightly(?:'s|\.\w+|\s+(?:library|docs|example|package|ssl))\b)")
MINUS_SIMILARITY = lazy_regex.compile(r"\bnegative[ _-]?cosine[ _-]?similarity\b|\bNegativeCosineSimilarity\b|\bsimsiam\b|"
                                      # (lightly's BYOL example, examples/pytorch/byol.py at 05f242a: `criterion =
                                      # NegativeCosineSimilarity()`, named beside lightly within a sentence or two)
                                      + _LIGHTLY + r"(?=[^\n]{0,160}?\bbyol\b)|\bbyol\b(?=[^\n]{0,160}?" + _LIGHTLY + r")|"
                                      r"(?<![\w.)\]])-[ \t]*(?:(?:F|torch\.nn\.functional|nn\.functional)\.)?cosine_similarity\(", re.I)
# ... or minus a signal-to-distortion (or signal-to-noise) ratio, in dB and unbounded below, as source separation trains
# (Conv-TasNet's -SI-SNR; asteroid's SingleSrcNegSDR, PairwiseNegSDR, singlesrc_neg_sisdr): more negative is better
MINUS_RATIO = lazy_regex.compile(r"\b(?:SingleSrc|MultiSrc|Pairwise)NegSDR\b|\bNeg(?:ative)?_?SI_?S[DN]R\b|"
                                 r"\b(?:\w{0,20}_)?neg_?(?:si|sd)?_?s[dn]r\b|\bsi[_-]?s[dn]r[ _-]?loss\b|"
                                 # (SpeechBrain's separation recipes and DNS enhancement log their loss, minus the SI-SNR, as the
                                 # train stat `si-snr`, `stage_stats = {"si-snr": stage_loss}`: its train_log's ` - train si-snr: `)
                                 r"(?<= - )train (?:si-)?snr: |"
                                 # (minus the ratio's function: `-si_sdr(est, ref)`, torchmetrics' functional form)
                                 r"(?<![\w.)\]])-[ \t]*(?:\w{1,20}\.)?(?:si_?s[dn]r|sd_?sdr|sdr|"
                                 r"scale_invariant_signal_(?:distortion|noise)_ratio)\(|"
                                 # (in words, only as the loss: "the loss is negative SI-SDR", "a negative SI-SNR loss" -- not a
                                 # data condition, "clips at negative SNR", "evaluated at negative SDR levels")
                                 r"\b(?:loss|objective|criterion)\b[^.\n]{0,30}?(?<!\bat )(?<!\bunder )(?<!\bin )(?<!\bwith )"
                                 r"\bneg(?:ative)?[ -](?:si|sd)?-?s[dn]r\b(?![ -](?:conditions?|levels?|"
                                 r"mixtures?|clips?|data|noise))|"
                                 r"\bneg(?:ative)?[ -](?:si|sd)?-?s[dn]r[ -](?:loss|objective)\b|"
                                 # (... or image restoration's PSNR loss, 10 log10 of the mean squared error: minus the PSNR of
                                 # images in [0, 1] -- HINet's and NAFNet's PSNRLoss, basicsr/models/losses/losses.py in NAFNet's
                                 # repository at 2b4af71; its 1e-8 inside the log bounds it at -80)
                                 r"\bPSNR_?Loss\b|\bpsnr[ _-]loss\b|"
                                 r"\bloss\w*\s*=\s*-[ \t]*(?:\w{1,20}\.)?(?:peak_signal_noise_ratio|psnr)\(", re.I)
# ... and, more weakly, NAFNet's own training configs (its SIDD, GoPro and REDS ones; its NAFSSR ones an MSE), which
# train on that PSNRLoss; and the separation models whose papers train them on minus the SI-SNR, Conv-TasNet (Luo and
# Mesgarani 2019, arXiv:1809.07454), DPRNN (Luo et al. 2020, arXiv:1910.06379), SepFormer (Subakan et al. 2021,
# arXiv:2010.13154) and DCCRN (Hu et al. 2020, arXiv:2008.00264): the model's name says the loss only where no other
# loss is named
MINUS_RATIO_MODEL = lazy_regex.compile(r"\bNAFNet\b(?![ _-]?SSR)|\bConv-?TasNet\b|\bDPRNN\b|\bSepFormer\b|\bDCCRN\b", re.I)
# A run of a trainer whose default loss adds minus the soft Dice to the cross-entropy: nnU-Net (normals' answer cites its
# code) -- its command or trainer class, its log's pseudo Dice, or its loss named as its own ("nnU-Net's loss", "the
# nnU-Net loss"); not the name alone ("I tried nnU-Net first; now my own model's BCE loss is negative")
MINUS_SCORE_TRAINER = lazy_regex.compile(r"\bnnUNetv[12]_\w+|\bnnUNetTrainer\w*|\bnew best EMA pseudo Dice\b|"
                                         r"(?<!instead of )(?<!instead of the )(?<!not using )(?<!not using the )(?<!not )(?<!not the )"
                                         r"(?<!without )(?<!without the )(?<!replaced )(?<!replaced the )\b(?:the\s+)?nnu-?net(?:'s|\s+v?[12](?:\.\d+)*:?)?\s+(?:train(?:ing)?[ _])?loss\b",
                                         re.I)


# The loss the pasted code builds as the one it trains on, as PyTorch, Keras and optax spell it: assigned to a name
# that says so (`criterion = nn.GaussianNLLLoss()`, `loss_fn = keras.losses.BinaryCrossentropy(`, `loss =
# F.mse_loss(`), or compiled (`loss="binary_crossentropy"`) -- what this run computes, before a loss named in the words:
# a report may quote what another loss does ("someone said a negative cross-entropy means bad labels"). Not a loss
# built as a metric (`mae_fn = nn.L1Loss()`), nor one in a comment; where two disagree, the words decide.
LOSS_BUILT = lazy_regex.compile(r"(?im)^[ \t]*(?:self\.)?(?:crit\w{0,20}|\w{0,20}loss\w{0,20}|objective)[ \t]*=[ \t]*"
                                r"(?:torch\.)?(?:nn|F|functional|(?:keras\.|tf\.keras\.)?losses|optax)\.(\w+)[ \t]*\(|"
                                r"\bcompile\([^\n]*?\bloss[ \t]*=[ \t]*['\"](\w+)['\"]|"
                                # (or said to be what it trains with, by its class: "trained with nn.GaussianNLLLoss")
                                r"\b(?:trained|training|train|optimi[sz](?:ed|ing|e))\s+(?:it\s+|them\s+)?(?:with|on|using)\s+"
                                r"(?:an?\s+|the\s+)?(?:torch\.)?nn\.(\w+Loss)\b")


def losses_built(text: str) -> list[str]:
    """The names of the losses LOSS_BUILT finds, in order (`GaussianNLLLoss`, `binary_crossentropy`)."""
    return [next(g for g in groups if g) for groups in LOSS_BUILT.findall(text)]


# A loss named by its framework class in the words ("a Gaussian head (nn.GaussianNLLLoss on mean and variance)"):
# the run's loss by its exact name, which outranks a loss's name said in passing (the validation MSE of the predicted
# mean is a metric, not what it trains on). Not one switched away from, nor one the code assigns.
# (nor one the words give a metric's role: "I also log nn.MSELoss", "for validation I report nn.L1Loss", "as a sanity
# check")
AS_A_METRIC = lazy_regex.compile(r"(?i)\b(?:log(?:s|ged|ging)?|report\w*|track\w*|monitor\w*|metrics?|sanity|eval\w*|"
                                 r"validat\w*|for\s+comparison)\b")
# (not one the code assigns, `mae_fn = nn.L1Loss()`: LOSS_BUILT reads what the code builds, and a metric's is no loss)
ASSIGNED = lazy_regex.compile(r"=[ \t]*\Z")
LOSS_CLASS_NAMED = lazy_regex.compile(r"\b(?:torch\.)?nn\.(\w+Loss)\b|\b(?:tf\.)?keras\.losses\.(\w+)\b")


def _clause_before(text: str, at: int, reach: int = 60, stops: str = ".;\n") -> str:
    """The words of the clause before `at`, within `reach` characters: from the last of the `stops` characters."""
    window = text[max(0, at - reach):at]
    return window[max(window.rfind(c) for c in stops) + 1:]


def loss_kind(text: str) -> str:
    """"bounded" (a loss that cannot go below zero), "likelihood" (one that can), or "" (not said). The loss the code
    builds decides where it says; else a loss named by its framework class, where all of them agree; else the text's
    words."""
    kinds = {_kind_of(name) for name in losses_built(text)} - {""}
    if len(kinds) == 1:
        return kinds.pop()
    named = {_kind_of(next(g for g in m.groups() if g)) for m in itertools.islice(LOSS_CLASS_NAMED.finditer(text), 20)
             if not SWITCHED_FROM.search(text[max(0, m.start() - 80):m.start()])
             and not ASSIGNED.search(text, max(0, m.start() - 40), m.start())
             and not AS_A_METRIC.search(_clause_before(text, m.start()))} - {""}
    if not kinds and len(named) == 1:
        return named.pop()
    return _kind_of(text)


# (a loss switched away from is not the run's: "switched the head from MSE to GaussianNLLLoss", "better than the old MSE
# head" -- a verb of switching before its "from", so that "computed from the MSE" is still the run's)
SWITCHED_FROM = lazy_regex.compile(r"(?i)(?:\b(?:switch\w*|mov\w*|chang\w*|went|go(?:ing|ne)?|migrat\w*)\s+(?:[\w-]+\s+){0,6}?from|"
                                   r"\binstead\s+of|\bold|\breplac\w+|\bthan)\s+(?:the\s+|an?\s+|my\s+|our\s+)?$")


# A metric's column printed beside the loss (Keras's `- mse: 0.0187`, `val_dice=0.71`): a value the log prints under that
# name, which is not the name of the loss unless it says so (`bce_loss: 0.31`) or prints the loss's own value beside it
# (`loss: 0.52 - mse: 0.52`, the loss compiled as a metric too) -- nor is that name where the words speak of the
# column ("the mse/mae look OK")
METRIC_COLUMN = lazy_regex.compile(r"[ \t]*[:=][ \t]*(?P<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)")
LOSS_COLUMN = lazy_regex.compile(r"(?<![\w.])loss(?:[ \t]*[:=])?[ \t]*(?P<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)")


def _metric_columns(text: str, named: list[re.Match]) -> set[str]:
    """The names (lowercased) among `named` that the log prints as a column of their own beside the loss, with a value
    that is not the loss's on their line somewhere (see METRIC_COLUMN)."""
    twins, apart = set(), set()
    for m in named:
        name = m.group(0).lower()
        column = METRIC_COLUMN.match(text, m.end())
        if "loss" in name or not column:
            continue
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        loss = next(iter(LOSS_COLUMN.finditer(line)), None)
        (twins if loss and float(loss.group("value")) == float(column.group("value")) else apart).add(name)
    return apart - twins


def _kind_of(text: str) -> str:
    named = list(itertools.islice(BOUNDED_LOSS.finditer(text), 20))
    columns = _metric_columns(text, named)
    bounded = next((m for m in named if not SWITCHED_FROM.search(text[max(0, m.start() - 80):m.start()])
                    and m.group(0).lower() not in columns), None)
    likelihood = (LIKELIHOOD.search(text) or MINUS_SCORE.search(text) or MINUS_SCORE_TRAINER.search(text)
                  or MINUS_SIMILARITY.search(text) or MINUS_RATIO.search(text))
    if bounded and not likelihood:
        return "bounded"
    return "likelihood" if (likelihood or MINUS_RATIO_MODEL.search(text)) and not bounded else ""


def score_out_of_range(text: str) -> str:
    """The first Dice / IoU value printed outside [0, 1], as written, or ""."""
    for m in SCORE.finditer(text):
        if not 0.0 <= float(m.group(1)) <= 1.0:
            return m.group(0).strip()
    return ""


# The place the run breaks said to move when the data's order changed ("with shuffle=True it dies at a different batch
# each run", "with another shuffle seed the jump happens at step 820 instead"): a failure that one batch of the data
# brings, met wherever the order puts that batch. The order's own words only: a seed alone changes the first weights
# too. Not a question, nor a sentence that says it broke at the same place again.
ORDER_CHANGED = lazy_regex.compile(r"\b(?:re-?)?shuffl\w*|\bdata\s+order\b|\border\s+of\s+the\s+(?:data|samples|examples|"
                                   r"batches|rows)\b", re.I)
PLACE_MOVED = lazy_regex.compile(r"\b(?:a\s+)?(?:different|another|other)\s+(?:step|batch|epoch|iteration|iter|place|point|spot)\b|"
                                 # ("goes nan at a random iteration": where, not what is sampled -- "I sample a random
                                 # batch for each step", "it trains on a random batch")
                                 r"\bat\s+(?:a\s+)?random\s+(?:step|batch|epoch|iteration|iter|place|point|spot)\b|"
                                 # ("at step 820 instead", "at 44,870 this time instead of 41,2xx": a number with no
                                 # unit only where no setting is named just before it -- see BARE_PLACE)
                                 r"\bat\s+(?:step|batch|epoch|iteration|iter|it)\s+~?\d[\d,]*(?:\s+this\s+time)?\s+instead\b|"
                                 r"(?<![\w-])(?P<bare>[\w-]+\s+)at\s+~?\d[\d,]*(?:\s+this\s+time)?\s+instead\b|"
                                 r"\b(?:moves?|moved|shifts?|shifted)\s+(?:it|the\s+\w+\s+)?(?:to|around|elsewhere|with)\b|\belsewhere\b|"
                                 # ("when it goes nan depends on the shuffling seed": the place is the order's doing)
                                 r"\b(?:when|where|which\s+(?:step|batch|epoch|iteration|iter))\b(?:(?!\b(?:not|never)\b|n't\b)[^.;\n]){0,40}?"
                                 r"\bdepends?\s+on\b",
                                 re.I)
SAME_PLACE = lazy_regex.compile(r"\b(?:same|still|again)\b|(?:\bnot|\bnever|n't)\s+(?:move|change|shift)", re.I)
# (a setting's value, not a place the run broke: "the batch size at 32 instead of 64", "num_workers at 0 instead of 8")
SETTING = lazy_regex.compile(r"(?i)(?:size|workers|rate|lr|epochs?|seed|steps|momentum|decay|warmup|batch|bs|length|dim|width|"
                             r"depth|layers|heads|temperature|tau|beta\d?|eps\w*|clip\w*|norm|threads|gpus?|accum\w*)\s+$")
# (a clause of what was hoped or expected, not what happened: "I hoped reshuffling would move it to a different step")
HOPED = lazy_regex.compile(r"(?i)\b(?:hop(?:e|ed|ing)|expect\w*|thought|would|should|might|could|wanted|assum\w*|supposed)\b")


# (each clause on its own: "the same step whatever learning rate I use, and a different step when I change the shuffle
# seed" says the rate left it in place and the order moved it)
# (a "but" needs no comma before it: "it went nan again but at 44,870 this time")
CLAUSES = lazy_regex.compile(r",\s*(?=(?:and|but|while|whereas|yet)\b)|;|\s(?=but\b)")


def order_moved_it(text: str) -> str:
    """The clause (its words, shortened) that says the place the run broke moved with the data's order, or ""."""
    for sentence, end in sentences_and_ends(text):
        if end == "?":
            continue
        for clause in [sentence] + (CLAUSES.split(sentence) if SAME_PLACE.search(sentence) else []):
            moved = PLACE_MOVED.search(clause)
            if moved and moved.group("bare") and SETTING.search(moved.group("bare")):
                continue
            if ORDER_CHANGED.search(clause) and moved and not SAME_PLACE.search(clause) and not HOPED.search(clause):
                said = re.sub(r"(?i)^(?:[-*\u2022]\s+)?(?:(?:and|but|while|whereas|yet)\b\s*)?", "", " ".join(clause.split()))
                return said if len(said) <= 120 else said[:117] + "..."
    return ""


# The run said to break only on the reporter's own data ("Using torchgeo's EuroSAT I don't get this, only with my own
# tiles", "it only fails on my dataset", "it works on CIFAR-10 but gives nan on my own dataset"): the code and the
# settings ran elsewhere, so what differs is the data -- beside a nan, a value the data brings. Said of a failure (the
# sentence says so), not denied ("not only with my own data"), not a belief taken back ("I thought it was only with my
# own data, but ..."), nor asked.
_OWN_DATA = (r"(?:my|our)\s+(?:own\s+)?(?:\w+\s+)?(?:data(?:sets?)?|tiles?|images?|recordings?|csvs?|samples?|records?|corpus|"
             r"texts?|audio|scans?|volumes?|videos?|clips?|tables?|parquets?)\b")
OWN_DATA_ONLY = lazy_regex.compile(r"(?i)(?<!\bnot )\bonly\s+(?:happens\s+|occurs\s+|fails\s+|breaks\s+|shows\s+)?"
                                   r"(?:with|on|for|in)\s+" + _OWN_DATA + r"|"
                                   r"\bworks?\b[^.;\n]{0,60}?\bbut\b[^.;\n]{0,40}?\b(?:on|with)\s+" + _OWN_DATA)
FAILURE_SAID = lazy_regex.compile(r"(?i)\b(?:nan|inf|fail\w*|diverg\w*|break\w*|broke|explod\w*|blow\w*|happen\w*|occur\w*|"
                                  r"problem|issue|error|get this|crash\w*)\b")
BELIEF = lazy_regex.compile(r"(?i)\b(?:thought|assumed|believed|suspected|expected|at first|guess(?:ed)?)\b")


def own_data_only(text: str) -> str:
    """The words that say the failure shows only on the reporter's own data (OWN_DATA_ONLY), told; or ""."""
    for sentence, end in sentences_and_ends(text):
        if end == "?" or not FAILURE_SAID.search(sentence) or BELIEF.search(sentence):
            continue
        if m := OWN_DATA_ONLY.search(sentence):
            return " ".join(m.group(0).split())
    return ""
