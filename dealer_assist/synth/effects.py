"""Photographic effects applied to a composed scene: light, glare, shadow, blur, noise, JPEG."""

from __future__ import annotations

import cv2
import numpy as np

from dealer_assist.synth.noise import noise_field, soft_blur
from dealer_assist.synth.presets import Preset


def _u(rng: np.random.Generator, r: tuple[float, float]) -> float:
    return float(rng.uniform(r[0], r[1])) if r[1] > r[0] else float(r[0])


def lighting(
    img: np.ndarray,
    rng: np.random.Generator,
    preset: Preset,
    glare_centre: tuple[float, float] | None = None,
) -> tuple[np.ndarray, np.ndarray, dict]:
    """Uneven light, colour cast, a soft cast shadow and a glare spot.

    ``img``: float32 ``(H, W, 3)`` BGR 0..255 (not modified). ``glare_centre``:
    where to put the glare spot (pixels) if one is drawn; random otherwise.
    Returns the lit image (float32, unclipped), the glare map (float32
    ``(H, W)`` 0..1, how much each pixel is washed out) and the parameters used.
    """
    h, w = img.shape[:2]
    info: dict = {}
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
    gain = _u(rng, preset.gain)
    ang = rng.uniform(0, 2 * np.pi)
    grad = preset.light_gradient * rng.uniform(0.3, 1.0)
    field = gain * (1 + grad * 0.5 * (np.cos(ang) * xn + np.sin(ang) * yn))
    vig = preset.vignette * rng.uniform(0.5, 1.0)
    field *= 1 - vig * 0.5 * (xn**2 + yn**2)
    if preset.light_gradient > 0:
        field *= 1 + 0.25 * preset.light_gradient * noise_field(rng, (h, w), max(w, h) / 3, 1)
    info.update(gain=round(gain, 3), light_gradient=round(grad, 3), vignette=round(vig, 3))
    if preset.colour_cast > 0:
        # colour temperature (warm lamp .. blue LED) plus a small green/magenta tint
        temp = rng.normal(0, preset.colour_cast)
        tint = rng.normal(0, preset.colour_cast * 0.3)
        cast = np.array([1 - temp, 1 + tint, 1 + temp])
    else:
        cast = np.ones(3)
    info["colour_cast"] = [round(float(c), 3) for c in cast]
    out = img * field[..., None] * cast.astype(np.float32)
    if rng.random() < preset.shadow_prob:
        # the soft shadow of a head or an arm: a blurred ellipse
        strength = _u(rng, preset.shadow_strength)
        m = np.zeros((h, w), np.float32)
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(0.15, 0.45) * w), int(rng.uniform(0.1, 0.3) * h))
        cv2.ellipse(m, c, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = soft_blur(m, max(w, h) * rng.uniform(0.02, 0.06))
        out *= (1 - strength * m)[..., None]
        info["shadow"] = {"centre": list(c), "strength": round(strength, 3)}
    glare = np.zeros((h, w), np.float32)
    if rng.random() < preset.glare_prob:
        strength = _u(rng, preset.glare_strength)
        radius = _u(rng, preset.glare_radius_frac) * float(np.hypot(w, h))
        if glare_centre is None:
            glare_centre = (rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h)
        gx, gy = glare_centre
        sx, sy = radius * rng.uniform(0.6, 1.4), radius * rng.uniform(0.4, 1.0)
        rot = rng.uniform(0, np.pi)
        dx, dy = xx - gx, yy - gy
        u = np.cos(rot) * dx + np.sin(rot) * dy
        v = -np.sin(rot) * dx + np.cos(rot) * dy
        glare = strength * np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2)) ** 1.5
        glare = np.minimum(glare, 1.0).astype(np.float32)
        out = out * (1 - glare[..., None]) + 255.0 * 1.08 * glare[..., None]
        info["glare"] = {
            "centre": [round(float(gx), 1), round(float(gy), 1)],
            "radius_px": round(radius, 1),
            "strength": round(strength, 3),
        }
    return out, glare, info


def blur(img: np.ndarray, rng: np.random.Generator, preset: Preset) -> tuple[np.ndarray, dict]:
    """Defocus (Gaussian) and, sometimes, motion blur along a random direction.

    ``img`` float32 (H, W, 3). Returns the blurred image and the parameters.
    """
    info: dict = {}
    sigma = _u(rng, preset.blur_sigma)
    if sigma > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    info["blur_sigma"] = round(sigma, 3)
    if rng.random() < preset.motion_blur_prob:
        length = _u(rng, preset.motion_blur_px)
        ang = rng.uniform(0, np.pi)
        k = int(np.ceil(length)) | 1
        kern = np.zeros((k, k), np.float32)
        c = k // 2
        d = np.array([np.cos(ang), np.sin(ang)]) * length / 2
        cv2.line(kern, (int(round(c - d[0])), int(round(c - d[1]))), (int(round(c + d[0])), int(round(c + d[1]))), 1.0, 1, cv2.LINE_AA)
        kern /= kern.sum()
        img = cv2.filter2D(img, -1, kern)
        info["motion_blur"] = {"length_px": round(length, 2), "angle_deg": round(float(np.rad2deg(ang)), 1)}
    return img, info


def sensor_noise(img: np.ndarray, rng: np.random.Generator, preset: Preset) -> tuple[np.ndarray, dict]:
    """Signal-dependent sensor noise with a little chroma noise. float32 in and out."""
    sigma = _u(rng, preset.noise_sigma)
    if sigma <= 0:
        return img, {"noise_sigma": 0.0}
    h, w = img.shape[:2]
    level = np.sqrt(np.clip(img.mean(axis=2, keepdims=True), 1, 255) / 128.0)
    luma = rng.normal(0, sigma, (h, w, 1)).astype(np.float32)
    chroma = rng.normal(0, sigma * 0.35, (h, w, 3)).astype(np.float32)
    return img + (luma + chroma) * level, {"noise_sigma": round(sigma, 3)}


def encode_jpeg(img: np.ndarray, quality: int, max_bytes: int | None = None) -> tuple[bytes, int]:
    """JPEG bytes of uint8 BGR ``img`` at ``quality``, lowered in steps of 5 until
    the file is at most ``max_bytes`` (if given). Returns (bytes, quality used).

    Raises ``ValueError`` if even quality 10 is too large.
    """
    q = int(quality)
    while True:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        if not ok:
            raise ValueError("JPEG encoding failed")
        data = buf.tobytes()
        if max_bytes is None or len(data) <= max_bytes:
            return data, q
        if q <= 10:
            raise ValueError(f"image does not fit in {max_bytes} bytes even at JPEG quality 10")
        q = max(10, q - 5)


def decode_jpeg(data: bytes) -> np.ndarray:
    """uint8 BGR image from JPEG bytes."""
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
