"""torchvision's PILToTensor keeps an 8-bit picture's values, uint8 from 0 to 255 ("this does not scale values", its
docstring; ToTensor is the one that divides by 255): images put through it and made floats with nothing scaling them
reach the model raw (s263/01, a DCGAN whose real images were 0 to 255 beside a tanh generator's [-1, 1])."""
import pytest

from conftest import diagnosis
from trainwreck.data_values import DIVIDED_255, pil_to_tensor_unscaled

DATASET = """class AnimeFaces(Dataset):
    def __init__(self, root):
        self.files = sorted(glob.glob(os.path.join(root, "*.jpg")))
        self.tf = transforms.Compose([transforms.Resize(64), transforms.CenterCrop(64), {to_tensor}])
    def __getitem__(self, i):
        return self.tf(Image.open(self.files[i]).convert("RGB"))

for i, data in enumerate(dataloader, 0):
    real_cpu = data.to(device, dtype=torch.float)
    output = netD(real_cpu).view(-1)
"""
LOG = "".join(f"[0/5][{50 * k}/497]\tLoss_D: {d:.4f}\tLoss_G: {g:.4f}\n" for k, (d, g) in enumerate(
    [(1.3333, 4.0628), (0.0021, 9.6480), (0.0, 16.0954), (0.0, 31.4087), (0.0, 58.0213), (0.0, 93.5521),
     (0.0, 100.0), (0.0, 100.0), (0.0, 100.0), (0.0, 100.0), (0.0, 100.0)]))
REPORT = "DCGAN: discriminator loss goes to 0 immediately, generator only makes grey mush\n" + DATASET + LOG


def test_images_through_pil_to_tensor_made_float_are_raw_pixels():
    assert pil_to_tensor_unscaled(REPORT.format(to_tensor="transforms.PILToTensor()")) == "transforms.PILToTensor()"
    d = diagnosis(REPORT.format(to_tensor="transforms.PILToTensor()"))
    assert d.matches and d.matches[0].entry.id == "WR-330"
    assert "torchvision's `transforms.PILToTensor()`, which keeps an 8-bit picture's values" in d.matches[0].evidence[0]
    # (PILToTensor scales nothing: it is no ToTensor to the other readings either)
    assert not DIVIDED_255.search("transforms.PILToTensor()") and DIVIDED_255.search("transforms.ToTensor()")


@pytest.mark.parametrize("to_tensor", [
    "transforms.ToTensor()",                                                       # divides by 255
    "transforms.PILToTensor(), transforms.ConvertImageDtype(torch.float)",         # scales to [0, 1]
    "v2.ToImage(), v2.ToDtype(torch.float32, scale=True)",                         # scales to [0, 1]
])
def test_a_pipeline_that_scales_is_not_read(to_tensor):
    assert pil_to_tensor_unscaled(REPORT.format(to_tensor=to_tensor)) == ""


def test_a_masks_pil_to_tensor_is_not_the_images():
    """Masks through PILToTensor keep their classes, as they should (beside images through ToTensor, or on a line of
    the masks' own)."""
    assert pil_to_tensor_unscaled("self.mask_tf = T.PILToTensor()\nx = img.float()\n") == ""
    assert pil_to_tensor_unscaled("img_tf = T.ToTensor()\ntf = T.PILToTensor()\nx = x.float()\n") == ""


def test_a_models_batchnorm_is_no_scaling_of_the_images_and_todtype_without_scale_makes_raw_floats():
    """code_review_s72 8 and 14: the DCGAN discriminator's nn.BatchNorm2d (or an AMP GradScaler) is in the code, not a
    scaling the words say; v2's ToDtype to a float without scale=True keeps 0 to 255."""
    netd = "netD = nn.Sequential(nn.Conv2d(3, 64, 4, 2, 1), nn.Conv2d(64, 128, 4, 2, 1), nn.BatchNorm2d(128))\n"
    assert pil_to_tensor_unscaled(REPORT.format(to_tensor="transforms.PILToTensor()") + netd) == "transforms.PILToTensor()"
    v2 = REPORT.format(to_tensor="v2.ToImage(), v2.ToDtype(torch.float32)").replace(
        "real_cpu = data.to(device, dtype=torch.float)", "real_cpu = data.to(device)")
    assert pil_to_tensor_unscaled(v2) == "v2.ToImage()"
    # (said in words, a scaling counts: "I normalise the images to [-1, 1]")
    assert pil_to_tensor_unscaled("I normalise the images to [-1, 1].\n" + REPORT.format(
        to_tensor="transforms.PILToTensor()")) == ""
