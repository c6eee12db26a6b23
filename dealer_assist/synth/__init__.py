"""The seeded renderer of specimen notes, table scenes and dealt-hand sequences.

Everything here is deterministic given a seed (``numpy.random.default_rng``)
and works on numpy images (uint8 BGR, OpenCV's convention).
"""
