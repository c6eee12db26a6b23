"""Loading photos: EXIF orientation, downscaling, and one plain error per bad file."""


import cv2
import numpy as np
import pytest
from PIL import Image

from dealer_assist.vision.images import MAX_SIDE_PX, ImageError, load_image


def _jpeg_with_orientation(path, orientation):
    # A landscape image with a red left half; EXIF orientation 6 = rotate 90° clockwise to view.
    arr = np.zeros((100, 200, 3), np.uint8)
    arr[:, :100] = (255, 0, 0)  # RGB red
    img = Image.fromarray(arr)
    exif = Image.Exif()
    exif[0x0112] = orientation
    img.save(path, "JPEG", exif=exif.tobytes(), quality=95)


def test_exif_orientation_is_honoured(tmp_path):
    p = tmp_path / "rotated.jpg"
    _jpeg_with_orientation(p, 6)
    image, scale = load_image(p)
    assert image.shape[:2] == (200, 100)  # portrait once rotated
    assert scale == 1.0
    # Rotated clockwise: the red left half is now the top half (BGR red = channel 2).
    assert image[:100, :, 2].mean() > 200 and image[100:, :, 2].mean() < 50


def test_huge_image_is_downscaled(tmp_path):
    p = tmp_path / "huge.png"
    cv2.imwrite(str(p), np.full((3000, 5000, 3), 128, np.uint8))
    image, scale = load_image(p)
    assert max(image.shape[:2]) == MAX_SIDE_PX
    assert scale == pytest.approx(MAX_SIDE_PX / 5000)


@pytest.mark.parametrize("content, fragment", [
    (b"", "empty"),
    (b"this is not an image at all", "not an image"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 50, "not an image"),  # truncated JPEG header
])
def test_bad_files_raise_one_sentence(tmp_path, content, fragment):
    p = tmp_path / "bad.jpg"
    p.write_bytes(content)
    with pytest.raises(ImageError, match=fragment) as info:
        load_image(p)
    assert str(p) in str(info.value) and "\n" not in str(info.value)


def test_tiny_image_is_refused(tmp_path):
    p = tmp_path / "tiny.png"
    cv2.imwrite(str(p), np.zeros((20, 30, 3), np.uint8))
    with pytest.raises(ImageError, match="too small"):
        load_image(p)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(ImageError, match="folder"):
        load_image(tmp_path)
