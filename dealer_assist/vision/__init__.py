"""Vision pipeline: pure functions over numpy images, free of game rules.

Stages (each a function of arrays; engines are passed in):

1. :mod:`.images` -- load a photo from disk (EXIF orientation honoured,
   huge images downscaled); the only module here that touches files.
2. :mod:`.ocr` -- the OCR engines behind one small interface
   (:class:`~.ocr.TextDetector`, :class:`~.ocr.TextRecognizer`).
3. :mod:`.geometry` -- quads, rectified crops, note quads from print pairs.
4. :mod:`.serials` -- parse OCR text into letters and digits.
5. :mod:`.reader` -- find every note's serial prints, read them with one or
   two engines, cross-check, and decide what is trusted.
"""
