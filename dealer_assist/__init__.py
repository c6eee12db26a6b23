"""dealer-assist: the croupier's assistant for Banknote Hold'em.

Layers (see README):

* :mod:`dealer_assist.rules` -- the pure rules engine (RULES.md §2-4): no I/O.
* :mod:`dealer_assist.vision` -- pure functions over numpy images: find notes,
  rectify them, read serials. No game rules.
* :mod:`dealer_assist.synth` -- the seeded renderer of specimen notes and scenes.
* :mod:`dealer_assist.cli` and friends -- wiring only.
"""

__version__ = "0.1.0"
