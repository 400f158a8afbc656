"""What the paste shows of its data's values: labels set to -1 or counted as their distinct values with no map onto
0..C-1, masks that hold 255 or come out of ToTensor as 0 and 0.0039, raw 8-bit pixels fed as they are, and tables
merged (or a Keras Normalization adapted) where a nan gets in.

Mostly labels and pixels outside the range the loss or the model expects (WR-320's and WR-330's faces): values the
paste prints or the code makes plain, which the curve alone cannot tell apart from other causes.
"""
from __future__ import annotations

import itertools
import re

from .breaking_constructs import code_of, last_assignment, line_from
from .class_count import CLASS_COUNT
from .code_blocks import block_under, indent
from .sentences import denied_before, sentence_around, sentences_only, told
from .weight_init import without_unused_norm_layers
from . import lazy_regex

# What a paste shows of its data: labels set to -1 ("unlabelled rows set to y = -1"; not an `ignore_index=-1` the loss
# is told about, nor rows filtered out with `!= -1`, nor the -1/+1 labels of a hinge loss), and, beside a run that
# went wrong, an input whose largest value prints as 255 (`X_train.max()` -> 255, raw 8-bit pixels; not a mask's or a
# target's, nor in a paste that scales the pixels) -- half a printed fact for the entries whose phrases say so.
UNLABELLED_WORDS, RAW_PIXEL_WORDS = {"unlabell", "mark"}, {"raw", "pixel"}
# A class count taken as the number of distinct labels (`num_classes = len(np.unique(y_train))`, `y.nunique()`,
# `len(set(labels))`), with no map of the labels onto 0..C-1 anywhere (LabelEncoder, np.unique's return_inverse,
# factorize, cat.codes, searchsorted, a dict of them)
CLASSES_COUNTED = lazy_regex.compile(r"\b(?:num_classes|n_classes|num_labels|n_labels|classes|nclass\w*)\s*=\s*"
                                     r"(?:len\(\s*(?:np\.unique|set|torch\.unique|jnp\.unique)\(\s*[\w.\[\]\"']{1,40}\s*\)\s*\)|"
                                     r"[\w.\[\]\"']{1,40}\.nunique\(\))")
# ... or a class count set in the code below the one the words give: "14 categories" beside `num_classes = 13` -- the
# label 13 is past the last logit (WR-320's phrase: num_classes one smaller than the number of labels)
CLASSES_SET = lazy_regex.compile(r"(?i)\b(?:num_classes|n_classes|nb_classes|num_class|class_num|nclasses|num_labels|n_labels|"
                                 r"output_classes|number_of_classes)\s*[:=]\s*(\d{1,4})\b")


def classes_short(prose: str) -> tuple[str, str, int, int] | None:
    """The words that give a class count and the code that sets a smaller one (each as written, and the two counts),
    when the paste gives each once; or None."""
    # (class_count's CLASS_COUNT, the words' counts only: not its `num_classes = N` nor a softmax Dense's N, which are
    # the code's)
    said = {int(n): m for m in itertools.islice(CLASS_COUNT.finditer(prose), 10)
            if (n := m.group(1) or m.group(2) or m.group(4) or m.group(5))}
    set_ = {int(m.group(1)): m for m in itertools.islice(CLASSES_SET.finditer(prose), 10)}
    if len(said) != 1 or len(set_) != 1:
        return None                    # (several counts given: a report of two tasks, or of runs tried; no one pair)
    (n_said, m_said), (n_set, m_set) = next(iter(said.items())), next(iter(set_.items()))
    if not 2 <= n_set < n_said:
        return None
    return " ".join(m_said.group(0).split()), " ".join(m_set.group(0).split()), n_said, n_set


LABELS_REMAPPED = lazy_regex.compile(r"LabelEncoder|return_inverse|factorize|\.cat\.codes|searchsorted|"
                                     r"\{\s*\w+\s*:\s*\w+\s+for\s+\w+\s*,\s*\w+\s+in\s+enumerate\(")
MINUS_ONE_LABELS = lazy_regex.compile(r"\b(?:y|labels?|targets?)\s*(?:\[[^\]\n]{0,30}\]\s*)?=\s*-1\b(?!\s*(?:and|or|,|/)\s*\+?1\b)|"
                                      r"\bset (?:the |their |its |those |these )?(?:y|labels?|targets?) (?:to|as) -1\b", re.I)
MINUS_ONE_HANDLED = lazy_regex.compile(r"ignore_index\s*=\s*-1|!=\s*-1|>=\s*0\b|-1\s*(?:and|or|,|/)\s*\+?1\b|\{-1,\s*\+?1\}|"
                                       r"hinge", re.I)
# Segmentation masks said to hold 255 (0 and 255, [0, 255], "255 for the foreground"): a class index no C-class
# cross-entropy takes, a BCE or Dice target past 1. Half a printed fact for the entries whose phrases say the label
# masks' foreground is 255 -- unless the paste divides them, thresholds them, or tells the loss to ignore 255 (Pascal
# VOC marks its object borders 255 on purpose, with ignore_index=255).
MASK_255_WORDS = {"foreground", "label"}
# A 0/1 mask put through torchvision's ToTensor, alone or in the images' Compose (`tf(mask)` where `tf =
# transforms.Compose([..., transforms.ToTensor()])`, `TF.to_tensor(mask)`): it divides an 8-bit picture by 255
# (to_tensor, torchvision v0.20.0), so the mask comes out 0 and 0.0039 -- WR-320's fourth face. Only where the paste
# says the mask holds 0 and 1 (a 0/255 mask is what ToTensor expects), and not one opened as mode "1" (multiplied by
# 255 first), nor one the paste multiplies back or reads without ToTensor.
MASK_SCALED_WORDS = {"mask", "divid", "image"}
MASK_NAME = r"(?<!\w)\w{0,20}(?:mask|label|target|seg|gt|lbl)\w{0,20}(?!\w)"
TO_TENSOR_NAMED = lazy_regex.compile(r"(?m)^[ \t]*(?:self\.)?(?P<name>\w+)[ \t]*=[ \t]*(?:transforms|T|tv\.transforms)\."
                                     r"(?:Compose\(\[[^\]]{0,300}?ToTensor\(\)|ToTensor\(\))")
TO_TENSOR_DIRECT = lazy_regex.compile(rf"(?i)\b(?:TF|F|functional)\.to_tensor\([ \t]*{MASK_NAME}[ \t]*\)|"
                                      rf"\b(?:transforms|T)\.ToTensor\(\)\([ \t]*{MASK_NAME}[ \t]*\)")
MASK_01 = lazy_regex.compile(r"(?i)(?:mask|maske|m[áa]scara|masque|maschera|маск|掩码|掩膜|マスク|마스크)[^\n]{0,100}?"
                             r"(?:\[[ \t]*0[ \t,]+1[ \t]*\]|(?<![\d.])0[ \t]*(?:/|and|und|y|et|e|и|和|与|か)[ \t]*1(?![\d.]))")
MASK_RESCUED = lazy_regex.compile(r"\*[ \t]*255|convert\([ \t]*['\"]1['\"][ \t]*\)|PILToTensor|pil_to_tensor")
# ... or a Keras ImageDataGenerator of the masks' own (named for them: `mask_datagen`) built with `rescale`, directly or
# through the images' arguments (`ImageDataGenerator(**data_gen_args)`, `data_gen_args = dict(rescale=1./255, ...)`):
# it multiplies every batch it standardizes (keras/src/legacy/preprocessing/image.py L1251-L1252 at v3.15.1)
KERAS_MASK_GENERATOR = lazy_regex.compile(rf"(?m)^[ \t]*(?:self\.)?(?P<name>{MASK_NAME})[ \t]*=[ \t]*(?:[\w.]{{0,40}}\.)?"
                                          r"ImageDataGenerator\((?P<args>[^\n]{0,300})\)")


def mask_to_tensor(prose: str) -> str:
    """The call, quoted, that puts a mask the paste says holds 0 and 1 through ToTensor, or the masks' own Keras
    generator built to rescale (see MASK_SCALED_WORDS); or ''."""
    if not MASK_01.search(prose) or MASK_RESCUED.search(prose) or MASK_255.search(prose):
        return ""
    if direct := TO_TENSOR_DIRECT.search(prose):
        return direct.group(0)
    for t in itertools.islice(TO_TENSOR_NAMED.finditer(prose), 10):
        call = re.search(rf"(?i)(?<![\w.])(?:self\.)?{re.escape(t.group('name'))}\([ \t]*{MASK_NAME}[ \t]*\)", prose)
        if call:
            return call.group(0)
    for g in itertools.islice(KERAS_MASK_GENERATOR.finditer(prose), 5):
        args = g.group("args")
        spread = re.search(r"\*\*[ \t]*(\w+)", args)
        given = spread and re.search(rf"(?m)^[ \t]*{re.escape(spread.group(1))}[ \t]*=[ \t]*(?:dict\(|\{{)[^\n]{{0,400}}?"
                                     r"\brescale\b", prose)
        if re.search(r"\brescale[ \t]*=", args) or given:
            return " ".join(g.group(0).split())
    return ""
# ... or through a function of the paste's own whose body divides its argument by 255: the images' helper, applied to
# the mask too (`def to_chw(x): x = x.astype('float32') / 255.0 ...`, then `return to_chw(img), to_chw(mask)`), with
# the same conditions (a mask said to hold 0 and 1, not multiplied back)
# (a helper of one parameter, which divides on its body's own level, not under an `if` or in a conditional expression,
# and whose result is not compared or rounded back to 0/1 where the mask goes through it -- code_review_s68 H4)
OWN_DEF = lazy_regex.compile(r"(?m)^(?P<indent>[ \t]*)def[ \t]+(?P<name>\w{1,40})\([ \t]*(?:self[ \t]*,[ \t]*)?(?P<arg>\w{1,30})"
                             r"[ \t]*\)[^\n:]{0,40}:(?P<rest>[^\n]*)")
CONDITIONAL = lazy_regex.compile(r"\bif\b|\belse\b")
RESULT_RESCUED = lazy_regex.compile(r"\)?[ \t]*(?:[<>]=?|==|!=)|\.(?:round|bool)\(")
DEF_BODY_LINES = 15


def _body(prose: str, found: re.Match) -> list[str]:
    """The lines of a def's body (its header's own rest first): to the first line indented no deeper than the def."""
    below = prose.find("\n", found.end())
    return [found.group("rest")] + (block_under(prose, below + 1, indent(found.group("indent")), DEF_BODY_LINES)
                                    if below >= 0 else [])


def mask_own_divider(prose: str) -> tuple[str, str] | None:
    """The call that puts a mask the paste says holds 0 and 1 through a function of the paste's own that divides its
    argument by 255, and the line of that function that divides, quoted; or None."""
    if not MASK_01.search(prose) or MASK_RESCUED.search(prose) or MASK_255.search(prose):
        return None
    for found in itertools.islice(OWN_DEF.finditer(prose), 20):
        arg = re.escape(found.group("arg"))
        body = [line for line in _body(prose, found)[1:] if line.strip()]
        level = indent(body[0]) if body else -1
        divides = next((line for line in body if indent(line) == level
                        and not CONDITIONAL.search(line)
                        and re.search(rf"\b{arg}\b[^\n]{{0,80}}?/=?[ \t]*255(?:\.0*)?(?![\d.])", line)), None)
        calls = re.finditer(rf"(?<![\w.]){re.escape(found.group('name'))}\([ \t]*{MASK_NAME}[ \t]*\)", prose) \
            if divides else ()
        call = next((c for c in itertools.islice(calls, 5) if not RESULT_RESCUED.match(prose, c.end(), c.end() + 10)),
                    None)
        if call:
            return call.group(0), " ".join(divides.split())
    return None


# A two-class mean IoU at 0.5: the entries whose phrases say so (one_class_iou.py)
ONE_CLASS_IOU_WORDS = {"iou", "foreground"}
MASK_255 = lazy_regex.compile(r"\b(?:(?:binary |segmentation |seg |label |gt |ground[ -]?truth )?masks?|ground[ -]?truths?|gt)\b"
                              r"[^.;!?\n]{0,60}?(?:\b0 *(?:and|or|,|/|-|to) *255\b|\[ *0 *, *255 *\]|\b255 (?:for|as|is|=)"
                              r"|\b(?:values?|pixels?) (?:of |are |is )?255\b)", re.I)
MASK_255_HANDLED = lazy_regex.compile(r"/ *255|ignore_index *= *255|\b(?:divided|divide|scaled|normali[sz]ed) (?:them |it |the "
                                      r"masks? )?by 255|> *(?:0|127|128)\b|\bthreshold\w*|\b(?:void|ignore[ds]?)\b", re.I)
MAX_255 = lazy_regex.compile(r"(?P<name>\b[A-Za-z_][\w\[\]'\".]{0,40})\.max\(\)[^\n]{0,80}?(?:\n[^\n]{0,80}?)?(?<![\d.])255"
                             r"(?:\.0*)?(?![\d.]|\.\d)")
INPUT_NAME = lazy_regex.compile(r"(?i)\bx\b|x_|_x\b|inputs?|images?|imgs?|pixels?|features?|data")
NOT_INPUT_NAME = lazy_regex.compile(r"(?i)mask|label|target|seg|gt|\by\b|\by_")
# ... or images loaded with Keras's load_data() for a dataset whose pixels it returns as uint8 from 0 to 255 (the
# docstrings of keras/src/datasets/mnist.py, fashion_mnist.py, cifar10.py and cifar100.py at v3.6.0), never scaled
KERAS_UINT8 = lazy_regex.compile(r"\b(?P<name>mnist|fashion_mnist|cifar10|cifar100)\.load_data\(")
# ... or taken from a torchvision dataset's `.data`, which holds its pixels as stored, uint8 from 0 to 255 (MNIST and its
# kin a tensor, CIFAR and SVHN an array): the transform that would scale them (ToTensor) runs only when the dataset is
# indexed, never on `.data`
TORCHVISION_UINT8 = lazy_regex.compile(r"(?P<var>\b[A-Za-z_]\w{0,30})\s*=\s*(?:torchvision\.)?datasets\.(?P<name>MNIST|FashionMNIST|"
                                       r"KMNIST|EMNIST|QMNIST|CIFAR10|CIFAR100|SVHN)\(")
# ... or read by an image reader that gives 8-bit pixels (OpenCV's imread, PIL's Image.open, imageio's and scikit-image's
# imread -- not Matplotlib's, which gives a PNG as floats in [0, 1]) and made a tensor as they are: `x =
# torch.tensor(img, dtype=torch.float32)`, with no division of that image or that tensor by 255 in the paste
_READERS = r"(?:\bcv2\.imread|\bImage\.open|\bimageio\.(?:v\d\.)?imread|\b(?:skimage\.)?io\.imread)"
IMAGE_READER = lazy_regex.compile(_READERS + r"\b|\b(?:with|using|via|through|by) (?:opencv|cv2)\b", re.I)
# ... or read with torchvision's own readers, which give an 8-bit file's pixels as a uint8 tensor, 0 to 255
# (torchvision.io.read_video's frames, read_image, decode_image, decode_jpeg, decode_png): `.float()` keeps the range;
# or TensorFlow's decoders (tf.io.decode_jpeg, decode_png, decode_image, also under tf.image), uint8 as well, which
# tf.image.resize turns to float32 in the same 0 to 255 (tf.image.convert_image_dtype is what scales them to [0, 1])
# ... or loaded by Keras's image_dataset_from_directory, whose TensorFlow reader decodes each file and resizes it
# (tf.image.decode_image, then tf.image.resize: float32 in the same 0 to 255) and scales nothing (_load_image_tf in
# keras/src/utils/image_dataset_utils.py); its examples add a Rescaling layer for that. (The set the run trains on: not
# one named for validation or testing alone, `val_ds = ...`, whose pixels say nothing of what was trained.)
KERAS_DIRECTORY = lazy_regex.compile(r"\(?(?P<name>\b[A-Za-z_][\w, ]{0,40}?)\)?\s*=\s*(?:[\w.]+\.)?image_dataset_from_directory\(")
EVALUATION_SET = lazy_regex.compile(r"(?i)\A(?:val|valid|validation|test|eval|dev)(?:_|\b)")
# ... read only where the paste shows the Keras model's own layers (which would hold the Rescaling), and names no model
# of keras.applications, some of which take 0 to 255 and scale inside (EfficientNet, ConvNeXt, RegNet)
KERAS_LAYERS_SHOWN = lazy_regex.compile(r"\blayers\.(?:Conv\w*|Dense|Input|InputLayer)\(")
KERAS_APPLICATION = lazy_regex.compile(r"(?i)\bapplications\.|\b(?:efficientnet\w*|convnext\w*|regnet\w*|resnet\w*|densenet\w*|"
                                       r"mobilenet\w*|vgg\d+|xception|inception\w*|nasnet\w*)\b")
TORCHVISION_IO = lazy_regex.compile(r"(?:(?P<tf>\btf\.(?:io|image)\.)|(?<![\w.])(?:torchvision\.)?io\.)"
                                    r"(?P<fn>read_video|read_image|decode_image|decode_jpeg|decode_png)\(")
# Readers said to give the values as the file stores them, in units far from 1: scipy's wavfile.read (16-bit PCM as
# int16, -32768 to 32767), a 16-bit image (0 to 65535), rasterio's bands (a raster's stored values: Sentinel-2 L2A keeps
# reflectance times 10000). Said in a report that says nothing anywhere of scaling or normalising, beside a run that went
# wrong: inputs of that size, fed as they are (WR-330's face, half a printed fact).
# And the medical volumes' readers: nibabel's `get_fdata()`, pydicom's `pixel_array`, SimpleITK's `GetArrayFromImage`
# give a scan's stored values, a CT's Hounsfield units (air -1000, bone up to about 3000) or an MRI's raw intensities,
# often in the thousands (not on a line that reads the labels, `seg = nib.load(...)`).
RAW_UNITS_READER = lazy_regex.compile(r"(?i)\b(?:scipy\.io\.)?wavfile\.read\b|\b16-?bit\s+(?:pngs?|tiffs?|tifs?|images?|frames?|"
                                      r"depth\s+(?:maps?|frames?|images?))\b|\brasterio\b|"
                                      r"\bget_fdata\(|\.pixel_array\b|\bGetArrayFromImage\(")
MEDICAL_READERS = ("get_fdata", "pixel_array", "getarrayfromimage")
# (a scan is scaled by windowing as often as by a named normalisation: a clip to a range of units, a division by a
# number or by its max, a window of any name (SimpleITK's IntensityWindowing, a CTWindow class), pydicom's VOI LUT,
# MONAI's ScaleIntensityRange -- on a line of the volume's own name, or said: "already in [0, 1]", "preprocessed")
MEDICAL_SCALED = lazy_regex.compile(r"(?i)scaleintensity|window|apply_voi_lut|/\s*np\.max\(|-\s*np\.min\(|\bclamp\b|"
                                    r"already\s+(?:in\s+\[?0|normali[sz]ed|scaled)|preprocessed")
_READ_INTO = lazy_regex.compile(r"[ \t]*([A-Za-z_]\w{0,30})[ \t]*=")
LABEL_LINE = lazy_regex.compile(r"(?i)\b(?:labels?|masks?|segs?|segmentations?|gts?|annotations?|targets?|lbls?)\b|"
                                r"_(?:seg|mask|label|gt)\b")
SCALING_SAID = lazy_regex.compile(r"(?i)normali[sz]|standardi[sz]|z-?scor|\bscal(?:e|ed|es|ing|er)\b|rescal|min-?max|\.div_?\(|"
                                  r"divid|/=?\s*(?:255|127\.5|32767|32768|65535|1000|10000|2\s*\*\*\s*15)\b|\bmean\s+and\s+(?:std|standard)|"
                                  # (a division by the largest value: `X / X.max()`, `x /= np.max(x)`)
                                  r"/=?\s*(?:(?:np|numpy|torch)\.max\(|[\w.\[\]'\"]{1,40}\.max\(\))|"
                                  r"(?:batch|layer|instance|group)[ _-]?norm|\bnormalization\b|"
                                  # (features computed from the samples: not raw samples then)
                                  r"\b(?:comput|extract|convert|turn|mak|tak|us)\w*[^.\n]{0,30}?\b(?:mfccs?|(?:mel[ -])?spectrograms?)\b")

def scaling_said(text: str) -> re.Match | None:
    """The words or code that say the inputs are scaled (SCALING_SAID), outside a normalisation layer said taken out
    (weight_init.NORM_LAYER_UNUSED); or None."""
    return SCALING_SAID.search(without_unused_norm_layers(text))



# (not where the same sentence says the files were made 8-bit -- "16-bit TIFFs converted to JPEG" -- nor that what the
# reader reads is the labels alone: "the label rasters are read with rasterio")
# (the files read, not what the run writes: "save the predictions as JPEG")
MADE_EIGHT_BIT = lazy_regex.compile(r"(?i)\b(?:convert\w*|sav\w*|export\w*|downsampl\w*|reduc\w*)\b(?:(?!\b(?:predict\w*|outputs?|"
                                    r"results?|renders?|visuali[sz]\w*|plots?|figures?)\b)[^.;\n]){0,40}?\b(?:to|as|into)\s+"
                                    r"(?:8-?bit|jpe?g|uint8)\b")
LABELS_NAMED = lazy_regex.compile(r"(?i)\b(?:labels?|masks?|annotations?|ground[ -]truth|targets?)\b")
INPUTS_NAMED = lazy_regex.compile(r"(?i)\b(?:images?|inputs?|bands?|features?|imagery|scenes?|tiles?|audio|waveforms?|signals?|"
                                  r"samples?|frames?|dems?|elevation|stacks?)\b")


def _not_the_inputs_raw(sentence: str, reader: str) -> bool:
    """Does the reader's sentence say the files were made 8-bit, or that rasterio read labels and no inputs? (A 16-bit
    image, frame or depth map names the inputs itself.)"""
    return bool(MADE_EIGHT_BIT.search(sentence) or ("rasterio" in reader.lower() and LABELS_NAMED.search(sentence)
                                                    and not INPUTS_NAMED.search(sentence)))


def raw_units_read(prose: str) -> tuple[str, str] | None:
    """The reader as the words name it and the range it gives, when they say the inputs are read with one that gives
    the file's raw units (RAW_UNITS_READER) and say nothing anywhere of scaling them (SCALING_SAID); or None."""
    if scaling_said(prose):
        return None
    text = told(prose)
    # (a medical reader's first line that reads no labels)
    m = next((r for r in itertools.islice(RAW_UNITS_READER.finditer(text), 10)
              if r.group(0).lower().rstrip("(").lstrip(".") not in MEDICAL_READERS
              or not LABEL_LINE.search(text, text.rfind("\n", 0, r.start()) + 1, _line_end(text, r.end()))), None)
    if not m or denied_before(text, m.start(), reach=30) \
            or _not_the_inputs_raw(text[slice(*sentence_around(text, m.start(), m.end()))], m.group(0)):
        return None
    said = " ".join(m.group(0).split())
    if said.lower().rstrip("(").lstrip(".") in MEDICAL_READERS:
        line_start = text.rfind("\n", 0, m.start()) + 1
        name = _READ_INTO.match(text, line_start)
        # (a look-ahead for the name, then one lazy scan of the line: a line that repeats the name is read once, not
        # once per repeat -- code_review_s68b H1; and in any case, `told` having lowered the text)
        if MEDICAL_SCALED.search(prose) or (name and re.search(
                rf"(?im)^(?=[^\n]*\b{re.escape(name.group(1))}\b)[^\n]*?(?:/=?[ \t]*\(?[ \t]*\d|\bclip\(|\bclamp_?\()",
                prose)):
            return None
        return said.rstrip("(").lstrip("."), ("a scan's stored values, often in the thousands: a CT's Hounsfield units "
                                              "(air at -1000, bone up to about 3000; pydicom's pixel_array before its "
                                              "rescale slope and intercept), or an MRI's raw intensities")
    units = ("16-bit PCM samples as int16, -32768 to 32767" if "wavfile" in said else
             "a raster's stored numbers: Sentinel-2 L2A, for one, keeps reflectance times 10000" if "rasterio" in said
             else "a 16-bit image's values, up to 65535 where it is read at its own depth -- OpenCV's imread gives 8 "
             "bits unless told IMREAD_UNCHANGED or IMREAD_ANYDEPTH")
    return said, units


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return end if end >= 0 else len(text)


IMAGE_TENSOR = lazy_regex.compile(r"(?P<name>\b[A-Za-z_]\w{0,30})\s*=\s*torch\.(?:tensor|from_numpy|as_tensor|FloatTensor)\(\s*"
                                  r"(?:np\.(?:array|asarray)\(\s*)?(?P<src>\b(?:img|image|im|frame|pic|photo|pixels)\w{0,10})\b")
# A Keras preprocessing Normalization layer adapted on the data (`norm.adapt(X_train)`), beside a run nan from its first
# step: the layer cannot divide by zero (max(sqrt(variance), 1e-7), normalization.py at v3.15.1), so a nan in the data
# it adapted on is what makes its statistics nan -- WR-310's Keras face. (Not BatchNormalization, LayerNormalization...)
KERAS_NORMALIZATION = lazy_regex.compile(r"(?P<name>\b[A-Za-z_]\w{0,40})\s*=\s*(?:\w+\.){0,5}(?<![A-Za-z])Normalization\(")
ADAPT_CALL = r"\b%s\.adapt\([^()\n]{0,60}(?:\([^()\n]{0,30}\)[^()\n]{0,20})?\)"
INPUT_NAN_WORDS = {"nan", "input", "data"}   # ("nan values in the input data")
# Tables merged or joined into the training data, in words or in pandas' calls ("I merged the CSV exports of 14
# stations with pandas", `df = sales.merge(weather, on="date", how="left")`): a row whose key has no match in the other
# table gets nan in that table's columns, as do the columns one of several concatenated frames lacks -- beside a nan,
# half a printed fact for the entries whose phrases say the input data holds a nan.
_DATA_TABLES = r"(?:pandas|data ?frames?|dfs?|(?<!embedding )(?<!lookup )(?<!hash )tables?|csvs?|exports?|spreadsheets?|" \
               r"excel (?:sheets?|files?))"
# (not a branch, a commit or a model's weights merged: "I merged the upstream branch", "merging the LoRA weights")
_NOT_TABLES = r"(?:(?!\b(?:branch\w*|commits?|weights?|adapters?|lora|checkpoints?|models?|upstream|fork|repo\w*|pr)\b)[^.;!?\n])"
MERGED = lazy_regex.compile(r"\b(?:pd|pandas)\.(?:merge|concat)\(|\.merge\([^)\n]{0,80}\b(?:on|how|left_on|right_on)\s*=|"
                            r"\.join\([^)\n]{0,80}\bon\s*=|\b(?:merg|join)(?:e|ed|ing)\b" + _NOT_TABLES + r"{0,60}?\b" + _DATA_TABLES
                            + r"\b|\b" + _DATA_TABLES + r"\b" + _NOT_TABLES + r"{0,40}?\b(?:merg|join)(?:e|ed|ing)\b", re.I)
# ... or a table read with pandas and nothing in the paste that handles a missing value: read_csv reads an empty field
# (and NA, NULL, n/a, nan...) as nan by default (its `na_values`, `keep_default_na`), and a nan left in a feature makes
# the loss of every batch that holds its row nan -- beside a nan, half a printed fact for the same entries.
TABLE_READ = lazy_regex.compile(r"\b(?:pd|pandas)\.read_(?:csv|excel|table|parquet|json|feather|fwf|sql\w*)\(")
# (scikit-learn's imputers by their names: a bare `\w*Imputer` tries every start of a long run of letters)
MISSING_HANDLED = lazy_regex.compile(r"\b(?:fillna|dropna|isna|isnull|notna|notnull|interpolate|nan_to_num|ffill|bfill|na_values|"
                                     r"keep_default_na|isnan|nanmean|nanmedian|(?:Simple|KNN|Iterative|Missing)?Imputer)\b")


# ... and the features taken from a table's columns (`X = df[['Age', 'Fare']]`, `x = torch.tensor(df.drop('y',
# axis=1).values)`, `features = data.iloc[:, :-1]`): not a table of file names and labels beside images read from disk
# (or the columns a list names, out of a frame by a frame's name: `X = df[feature_cols].values` -- not an image array
# indexed by a count, `x = images[i].astype(np.float32)` -- code_review_s74 9)
FEATURES_FROM_TABLE = lazy_regex.compile(r"(?m)^[ \t]*(?:self\.)?(?:X|x|features?|inputs?)\w{0,12}\s*=\s*(?:[\w.]{1,30}\(\s*)?"
                                         r"(?:[A-Za-z_]\w{0,30}(?:\[\[|\.drop\(|\.iloc\[|\.loc\[|\.values\b|\.to_numpy\()|"
                                         r"(?:df|data|frame|table)\w{0,20}\[\s*[A-Za-z_]\w{0,30}\s*\]\s*(?:\.values\b|\.to_numpy\())")


def table_read_missing_unhandled(prose: str) -> str:
    """The pandas call that reads the data, where the features are a table's columns and nothing in the paste fills,
    drops or tests for a missing value; or ""."""
    read = TABLE_READ.search(prose)
    return read.group(0)[:-1] if read and FEATURES_FROM_TABLE.search(prose) and not MISSING_HANDLED.search(prose) else ""


# ... or an array stacked straight from the reader's calls: `X = np.stack([cv2.imread(p, 0).flatten() for p in paths])`
IMAGE_STACK = lazy_regex.compile(r"(?P<name>\b[A-Za-z_]\w{0,30})\s*=\s*(?:np|numpy|torch|jnp)\.(?:stack|array|asarray|vstack|"
                                 r"concatenate|tensor|as_tensor)\(\s*\[[^\]\n]{0,120}?" + _READERS + r"\(")
NOT_PIXELS = lazy_regex.compile(r"(?i)(?:^|_)(?:masks?|labels?|targets?|seg\w*|gts?|anno\w*|truths?|depths?)(?:_|$)")
# (a division or a rescaling the paste writes itself; or, for pixels it reads through a pipeline, a ToTensor there)
_DIVIDED = (r"/=?\s*(?:255|127\.5)\b|\.div_?\(\s*(?:255|127\.5)\b|\bToFloat\(|convert_image_dtype|Rescaling|rescale|normali[sz]|"
            r"\bto_tensor\(|"
            # (TensorFlow's and Keras's own scalers, and a decoder told to give floats, which it scales to [0, 1))
            r"preprocess_input|per_image_standardization|decode_image\((?:[^()\n]|\([^()\n]{0,60}\)){0,120}?float32")
DIVIDED_255_ITSELF = lazy_regex.compile(_DIVIDED)
# (PILToTensor scales nothing, nor does albumentations' ToTensorV2, which only moves the channels first:
# `torch.from_numpy(img.transpose(2, 0, 1))`, albumentations/pytorch/transforms.py)
DIVIDED_255 = lazy_regex.compile(_DIVIDED + r"|(?<!PIL)ToTensor(?!V2)")


# The keras.applications models that scale their own input: EfficientNet (V1 and V2) builds a Rescaling and a
# Normalization layer into the model, ConvNeXt a Normalization, MobileNetV3 a Rescaling (include_preprocessing=True),
# RegNet (tf.keras) one in its stem. The others build none (checked on Keras 3.15.1,
# tests/test_frameworks_keras_applications.py) and take what their preprocess_input makes: in "tf" mode, [-1, 1]
# (MobileNet, MobileNetV2, Xception, InceptionV3, ResNetV2, NASNet), in "torch" mode x / 255 less ImageNet's mean over
# its std (DenseNet, -2.12 to 2.64) -- 0 to 255 fed as it comes is 127.5 times too wide for the first, about 54 times
# for the second
# (keras/src/applications/mobilenet_v2.py and the others at v3.15.1, each `imagenet_utils.preprocess_input(...,
# mode=...)`). ResNet50 and VGG take "caffe" mode, 0 to 255 less the mean of each channel: the range they expect, so
# they are not read here.
SCALES_ITSELF = lazy_regex.compile(r"(?i)\b(?:efficientnet\w*|convnext\w*|regnet\w*|mobilenet_?v3\w*)\b")
APPLICATION_NAMED = lazy_regex.compile(r"(?i)\b(?:mobilenet(?:_?v2)?|xception|inception\w*|resnet\d*_?v2|nasnet\w*|densenet\w*)\b")
# (the model as its class is named, `InceptionV3(`, rather than its module, `inception_v3.`)
APPLICATION_CALLED = lazy_regex.compile(r"\b(?:MobileNet(?:V2)?|Xception|Inception\w*|ResNet\d*V2|NASNet\w*|DenseNet\d*)(?=\()")
PREPROCESSING_OFF = lazy_regex.compile(r"\binclude_preprocessing\s*=\s*False\b")
CAFFE_MODE = lazy_regex.compile(r"(?i)\b(?:resnet(?:50|101|152)?(?!\d*_?v2)\b|vgg\d+)")


def keras_directory_unscaled(prose: str) -> str:
    """Where the paste trains on images loaded by image_dataset_from_directory (KERAS_DIRECTORY) and scales them nowhere
    (no division, no Rescaling, no preprocess_input): the keras.applications model it names that takes no such input
    (see SCALES_ITSELF), or "the model's own layers" where it shows them and names no application; else ""."""
    # (the models the code builds, not ones the words mention: "with VGG16 it trains fine")
    code = code_of(prose)
    if not any(not EVALUATION_SET.match(m.group("name").strip()) for m in KERAS_DIRECTORY.finditer(prose)) \
            or DIVIDED_255.search(prose):
        return ""
    if (itself := SCALES_ITSELF.search(code)) and not PREPROCESSING_OFF.search(code):
        return ""
    if itself:          # (include_preprocessing=False: that model builds none either)
        return itself.group(0)
    if KERAS_APPLICATION.search(code):
        named = APPLICATION_CALLED.search(code) or APPLICATION_NAMED.search(code)
        return named.group(0) if named and not CAFFE_MODE.search(code) else ""
    return "the model's own layers" if KERAS_LAYERS_SHOWN.search(prose) else ""


# ... or read in a loop and made a float array with no scaling anywhere in the paste: `im = cv2.imread(f)`, appended to a
# list, the list made an array of float32 -- the reader's own line names an image (not a mask or a label), and the float
# is made of that name or of the list it went into, on a line of its own; not where the image is handed to a transform
# the paste does not show (`self.tf(img)`, an image processor), which may scale it
READ_INTO = lazy_regex.compile(r"(?P<name>\b[A-Za-z_]\w{0,30})\s*=\s*" + _READERS + r"\(")
MADE_FLOAT = lazy_regex.compile(r"dtype\s*=\s*['\"]?(?:np\.|numpy\.|torch\.)?float(?:16|32|64)?\b|\.astype\(\s*['\"]?(?:np\.)?float|"
                                r"\.float\(\)|\btf\.cast\([^()\n]{0,60}float")
TRANSFORMED = r"\b(?:\w*transform\w*|tfms?|tf|aug\w*|\w*processor|to_tensor|preprocess\w*)\("


# ... or read and made float in one expression: `np.asarray(Image.open(p).convert("L"), dtype=np.float32)`,
# `np.array(cv2.imread(f)).astype(np.float32)`, the dtype by keyword or by place
_CALLED = r"\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\)"
READ_AS_FLOAT = lazy_regex.compile(r"\b(?:np|numpy)\.(?:asarray|array)\(\s*" + _READERS + _CALLED + r"(?:\.\w+" + _CALLED + r")*"
                                   r"(?:\s*,\s*(?:dtype\s*=\s*)?['\"]?(?:np\.|numpy\.)?float|\s*\)\.astype\(\s*['\"]?(?:np\.)?float)")
# (the name the line assigns it to, alone or as a comprehension's list)
_ASSIGNED = lazy_regex.compile(r"^[ \t]*([A-Za-z_][\w.]{0,40})\s*=(?!=)")


def read_and_made_float(prose: str) -> str:
    """The reader's line, where the paste reads images (READ_INTO, not masks or labels), makes floats (MADE_FLOAT) of
    the name it read into or of a list it appended that name to (or in the reading expression itself, READ_AS_FLOAT),
    hands the image to no transform, and scales nothing anywhere (no division by 255, no normalising or rescaling
    said); or ""."""
    if DIVIDED_255.search(prose) or scaling_said(prose):
        return ""
    for inline in itertools.islice(READ_AS_FLOAT.finditer(prose), 5):
        line = line_from(prose, prose.rfind("\n", 0, inline.start()) + 1)
        named = _ASSIGNED.match(line)
        name = named.group(1) if named else ""
        # (not a mask's, a label's or a depth map's, by its name or its path's; nor one handed on to a transform, or
        # standardised by its own statistics after)
        if CLASSES_NAMED.search(line) or NOT_PIXELS.search(name.rsplit(".", 1)[-1]) \
                or name and (re.search(TRANSFORMED + r"[^()\n]{0,40}\b" + re.escape(name) + r"\b", prose)
                             or re.search(r"\(\s*" + re.escape(name) + r"\s*-[^\n]{0,40}?\)\s*/", prose)):
            continue
        return line_from(prose, inline.start())[:100].strip()
    floats = [line for line in prose.splitlines() if MADE_FLOAT.search(line)]     # (once, for every image read)
    if not floats:
        return ""
    for read in itertools.islice(READ_INTO.finditer(prose), 5):
        name = read.group("name")
        if NOT_PIXELS.search(name) or re.search(TRANSFORMED + r"[^()\n]{0,40}\b" + re.escape(name) + r"\b", prose):
            continue
        lists = {m.group(1) for m in re.finditer(r"\b([A-Za-z_]\w{0,30})\.append\([^\n]{0,80}\b" + re.escape(name) + r"\b",
                                                prose)}
        names = "|".join(re.escape(n) for n in {name} | lists)
        if any(re.search(rf"\b(?:{names})\b", line) for line in floats):
            return line_from(prose, read.start())[:100].strip()
    return ""


# ... or put through torchvision's PILToTensor (or its functional pil_to_tensor, or v2's ToImage), which keeps an 8-bit
# picture's type and values -- a uint8 tensor, 0 to 255 -- where ToTensor divides by 255; made float by the paste
# (`.float()`, `dtype=torch.float`) with no ConvertImageDtype, no ToDtype(..., scale=True), and nothing else that scales
# in the paste, its pixels reach the model as they are
PIL_TO_TENSOR = lazy_regex.compile(r"\b(?:(?:transforms|T|v2)\.)?(?:PILToTensor\(\)|pil_to_tensor\(|ToImage\(\))")
SCALED_BY_TORCHVISION = lazy_regex.compile(r"\bConvertImageDtype\(|\bconvert_image_dtype\(|\bToDtype\([^()\n]{0,80}scale\s*=\s*True|"
                                           r"\bto_dtype\([^()\n]{0,80}scale\s*=\s*True")
# (v2's ToDtype to a float without scale=True makes floats of the same 0 to 255)
MADE_FLOAT_ANY = lazy_regex.compile(MADE_FLOAT.pattern + r"|dtype\s*=\s*torch\.float\b|"
                                    r"\b(?:ToDtype|to_dtype)\((?![^()\n]{0,80}scale\s*=\s*True)[^()\n]{0,80}float")
# (the images' own normalisers in the code: a transform's Normalize; not a model's BatchNorm, nor a GradScaler, whose
# names the words' SCALING_SAID would take for it -- read in the sentences only)
INPUT_NORMALISED = lazy_regex.compile(r"\b(?:transforms|T|v2|A)\.Normalize\(|\bNormalize\(\s*(?:mean|\(|\[)")
# (a name of the masks' or the labels' own, inside an identifier too: `mask_tf`, `seg_transform`)
CLASSES_NAMED = lazy_regex.compile(r"(?i)(?<![a-z])(?:masks?|labels?|targets?|segs?|segmentations?|segmaps?|gts?|annotations?|"
                                   r"lbls?|depths?)(?![a-z])")


def pil_to_tensor_unscaled(prose: str) -> str:
    """The call, quoted, where the paste turns its images into tensors with PILToTensor (PIL_TO_TENSOR), makes floats of
    them, and scales them nowhere (no division by 255, no torchvision scaling, no normalising said); or ""."""
    # (a mask's or a label's, whose classes PILToTensor keeps as they should be, is none: on a line that names one, or
    # beside a ToTensor that scales the images)
    m = next((m for m in itertools.islice(PIL_TO_TENSOR.finditer(prose), 5)
              if not CLASSES_NAMED.search(prose, prose.rfind("\n", 0, m.start()) + 1, _line_end(prose, m.end()))), None)
    if not m or not MADE_FLOAT_ANY.search(prose) or DIVIDED_255.search(prose) \
            or SCALED_BY_TORCHVISION.search(prose) or INPUT_NORMALISED.search(prose) \
            or scaling_said(sentences_only(prose)):
        return ""
    return " ".join(m.group(0).split())


# ... or an albumentations pipeline that ends in ToTensorV2 -- which turns an image to a tensor without scaling it,
# channels first, its values as they were -- with no A.Normalize (whose max_pixel_value of 255 divides them), in a paste
# that reads its pictures as 8-bit arrays (OpenCV's imread, PIL) and scales them nowhere
ALBUMENTATIONS_TO_TENSOR = lazy_regex.compile(r"\bToTensorV2\(\s*(?:transpose_mask\s*=\s*\w+\s*)?\)")


def albumentations_unscaled(prose: str) -> str:
    """The ToTensorV2 call, quoted, where the paste reads its images as pictures (IMAGE_READER) and hands them to an
    albumentations pipeline that normalises nothing; or ""."""
    called = ALBUMENTATIONS_TO_TENSOR.search(prose)
    if not called or not IMAGE_READER.search(prose) or DIVIDED_255.search(prose) or INPUT_NORMALISED.search(prose) \
            or scaling_said(sentences_only(prose)):
        return ""
    return " ".join(called.group(0).split())


# ... or stored as uint8 to save memory -- a replay buffer's frames (`self.obs = np.zeros((capacity, 4, 84, 84),
# dtype=np.uint8)`), an image array -- and made floats (`x.float()`) with nothing in the paste dividing them by 255 or
# scaling them (Gymnasium's AtariPreprocessing scales only when told `scale_obs=True`)
UINT8_STORE = lazy_regex.compile(r"(?P<name>(?:self\.)?[A-Za-z_]\w{0,40})\s*=\s*(?:np|numpy|torch)\.(?:zeros|empty|ones|full)\("
                                 r"[^\n]{0,160}?dtype\s*=\s*['\"]?(?:(?:np|numpy|torch)\.)?uint8\b")
# (not a state's: a board game's or a grid world's states are small integers stored as uint8 too)
PIXEL_STORE_NAME = lazy_regex.compile(r"(?i)obs|frame|image|img|screen|pixel|^(?:self\.)?x(?:_|$)")
SCALE_OBS = lazy_regex.compile(r"\bscale_obs\s*=\s*True\b")


def uint8_store_made_float(prose: str) -> str:
    """The line, quoted, where the paste stores observations or images as uint8 (UINT8_STORE, by a name of theirs), makes
    floats somewhere, and scales nothing (no division by 255, no scale_obs=True, no scaling said); or ""."""
    if not MADE_FLOAT_ANY.search(prose) or DIVIDED_255.search(prose) or SCALE_OBS.search(prose) \
            or INPUT_NORMALISED.search(prose) or scaling_said(sentences_only(prose)):
        return ""
    m = next((m for m in itertools.islice(UINT8_STORE.finditer(prose), 5)
              if PIXEL_STORE_NAME.search(m.group("name").split(".")[-1]) and not NOT_PIXELS.search(m.group("name"))), None)
    return line_from(prose, m.start())[:100] if m else ""


def dataset_data(prose: str) -> tuple[str, str] | None:
    """(the dataset, its variable) where the paste builds a torchvision image dataset and reads its `.data`; or None."""
    for m in itertools.islice(TORCHVISION_UINT8.finditer(prose), 5):
        if re.search(rf"\b{re.escape(m.group('var'))}\.data\b", prose[m.end():]):
            return m.group("name"), m.group("var")
    return None


# ... or a tensor made of a name the paste reads from an image file, directly or through the calls that keep its
# pixels' values -- a crop, a resize, a colour conversion, a transpose (`hr = cv2.imread(f)`, `lr = cv2.resize(hr, ...)`,
# then `torch.from_numpy(lr.transpose(2, 0, 1)).float()`): a low-resolution input made from a picture whose target copy
# alone is divided by 255. Each step back follows the name's last assignment before its use, to the one name that
# assignment keeps the values of: the receiver of a method (`hr[y:y+33]`, `lr.astype(...)`) or a value-keeping call's
# first argument (`cv2.resize(hr, ...)`); a scaling on the way (a division, a mean taken off, a normalising call,
# ToTensor) or a size read off it (`.shape`, `len(`) ends the chain.
TENSOR_OF_NAME = lazy_regex.compile(r"(?P<name>\b[A-Za-z_]\w{0,30})\s*=\s*torch\.(?:tensor|from_numpy|as_tensor|FloatTensor)\(\s*"
                                    r"(?:np\.(?:array|asarray)\(\s*)?(?P<src>\b[A-Za-z_]\w{0,30})\b(?![\w(])")
KEPT_FROM = lazy_regex.compile(r"^\s*(?:(?:cv2|np|numpy)\.(?:resize|cvtColor|flip|rotate|array|asarray|ascontiguousarray|"
                               r"transpose|copy|float32|uint8)\(\s*)?(?P<src>[A-Za-z_]\w{0,30})\b(?!\s*\()")
SIZE_OF = lazy_regex.compile(r"\.(?:shape|size|ndim|dtype)\b|\blen\(")
CLASS_TENSOR = lazy_regex.compile(r"\.(?:long|int|short|byte)\(\)|torch\.(?:int64|int32|long|uint8)\b|LongTensor|IntTensor")
READ_HOPS = 8          # (one assignment a hop: linear in them)


def _read_from_a_file(name: str, prose: str) -> bool:
    """Is the name, through at most READ_HOPS assignments that keep its values (KEPT_FROM), one an image reader made
    (_READERS), with nothing on the way that scales it or reads its size?"""
    end = len(prose)
    for _ in range(READ_HOPS):
        made = last_assignment(prose, name, end)
        if made is None:
            return False
        rhs = made.group(1)
        # (a division or a subtraction of the value itself, outside any call's brackets: not `cv2.resize(hr, (w // 3,
        # h // 3))`, whose division is of the sizes)
        outside = rhs
        for _ in range(10):
            outside, n = re.subn(r"\([^()]*\)", "()", outside)
            if not n:
                break
        if re.search(r"/|\s-\s", outside) or DIVIDED_255.search(rhs) or SIZE_OF.search(rhs):
            return False
        if re.search(_READERS, rhs):
            return True
        kept = KEPT_FROM.match(rhs)
        if kept is None:
            return False
        name, end = kept.group("src"), made.start()
    return False


def image_tensor_unscaled(prose: str) -> str:
    """The line that makes a tensor of an image as it was read (IMAGE_TENSOR, TENSOR_OF_NAME), or an array of the
    images as they were read (IMAGE_STACK), when neither that image nor that tensor
    is divided by 255 anywhere in the paste (an aside on another pipeline's ToTensor() does not scale this one); or
    ""."""
    # (not a mask's or a label's, read from a picture too: its values are classes -- by its name, or by what the code
    # makes of it, integers: `y = torch.from_numpy(lbl).long()` -- reread_s74 7)
    named = (m for m in itertools.islice(TENSOR_OF_NAME.finditer(prose), 10)
             if not NOT_PIXELS.search(m.group("name")) and not NOT_PIXELS.search(m.group("src"))
             and not CLASS_TENSOR.search(line_from(prose, m.start())) and not re.match(r"y(?:_|$)", m.group("name"))
             and _read_from_a_file(m.group("src"), prose[:m.start()]))
    for m in itertools.chain(IMAGE_TENSOR.finditer(prose), IMAGE_STACK.finditer(prose), named):
        # (a stack's own line may end in its division, `...).astype(np.float32) / 255.0`; masks and labels read as
        # pictures hold classes, not pixels)
        if "src" not in m.groupdict() and (NOT_PIXELS.search(m.group("name"))
                                           or re.search(r"/=?\s*(?:255|127\.5)\b", line_from(prose, m.start()))):
            continue
        names = "|".join(re.escape(n) for n in {m.group("name"), m.groupdict().get("src") or m.group("name")})
        if not re.search(rf"\b(?:{names})\b[^\n]{{0,60}}?(?:/=?\s*(?:255|127\.5)\b|\.div_?\(\s*255)", prose):
            return line_from(prose, m.start())[:100]
    return ""


# An input's own statistics, printed non-finite: "I printed dense.min()/dense.max() for that batch and got nan/nan",
# `x.max() -> nan`, "batch['features'].mean() is nan". The data that batch brought (what a bad batch's entry looks
# for), not a tensor of the model's: a nan in the weights makes the output nan, not the input the loader hands over.
# (an input's name, as the data's names go: x and a split or a batch of it, inputs, features, dense -- a recommender's
# continuous features --, images, a batch's field; not x_hat, x_recon, x_out, a model's)
# (a split or a series of the data by its own name too: `train_s`, a Darts series scaled; `series`; read through the
# accessor that hands its values over, `.values()`, `.to_numpy()`)
_INPUT_TENSOR = (r"(?:x(?:_(?:train|tr|val|valid|test|batch|b|in|input|data))?|inputs?|features?|feats|dense(?:_feat\w{0,8})?|"
                 r"images?|imgs?|batch(?:\[[^\]\n]{1,20}\])?|data|(?:train|series)(?:_(?:s|x|df|data|set|ds|series|features?|"
                 r"inputs?|values|scaled))?)"
                 r"(?:\.(?:values|to_numpy|numpy)\(\))?")
# (the min, the max, the mean, the sum: not the std, which is nan for one example or a constant column's 0/0 in some
# libraries' unbiased form, with no nan in the data)
_STAT_CALL = r"(?:\.(?:min|max|mean|sum|abs\(\)\.max)\(\))"
# (the value the call's own: its verb a few words on, nothing of another subject between -- "x.mean() is fine but loss
# is nan" gives the loss's)
_GAP = r"(?:(?!\b(?:but|then|loss\w*|grad\w*|outputs?|logits?|weights?|model)\b)[^.;,\n]){0,30}?"
INPUT_STATS_NONFINITE = lazy_regex.compile(
    r"(?<![\w.])(?P<call>" + _INPUT_TENSOR + _STAT_CALL + r"(?:\s*(?:/|,|and)\s*`?" + _INPUT_TENSOR + _STAT_CALL + r")?)`?"
    + _GAP + r"\b(?:got|get|gives?|gave|prints?|printed|returns?|returned|shows?|showed|is|are|was|were)\s+"
    r"(?P<value>[-+]?(?:nan|inf)(?:\s*/\s*[-+]?(?:nan|inf))?)\b"
    r"|(?<![\w.])(?P<call2>" + _INPUT_TENSOR + _STAT_CALL + r")\s*(?:->|=>|=|:)\s*(?P<value2>[-+]?(?:nan|inf))\b", re.I)
# (a sentence about the model's inside -- "prints inside forward(): x.mean() is nan after the third block" -- is of an
# activation's, whatever its name; and a question, or a sentence that takes it back, states nothing)
INSIDE_THE_MODEL = lazy_regex.compile(r"(?i)\bforward\b|\binside\b|\blayers?\b|\bblocks?\b|\bactivations?\b|\bhidden\b|"
                                      r"\binput itself is fine\b")


def input_stats_nonfinite(prose: str) -> str:
    """The fact, when the paste prints a statistic of an input's (its min, max, mean) as nan or inf, unnegated, in a
    sentence about the data; else ""."""
    for m in itertools.islice(INPUT_STATS_NONFINITE.finditer(prose), 5):
        start, end = sentence_around(prose, m.start(), m.end(), stops=".;\n?")
        if denied_before(prose, m.start()) or re.search(r"(?i)\b(?:not|never|no)\b|n't\b", m.group(0)) \
                or INSIDE_THE_MODEL.search(prose, start, end) or prose[end:end + 1] == "?":
            continue
        call, value = m.group("call") or m.group("call2"), m.group("value") or m.group("value2")
        return (f"the report prints an input's statistics as non-finite (`{call}` gave {value}): a nan or an inf in "
                "the data a batch brings, before the model touches it -- the loss of that batch is nan whatever the "
                "weights are, and the update from it writes nan into them")
    return ""
