"""Every threshold of the serial reader, in one frozen, documented object.

Each field says its unit and how it was measured. The reader's stages take a
:class:`ReaderParams` (default :data:`DEFAULT_PARAMS`); a caller that needs
other values makes one with :func:`dataclasses.replace`, never by editing a
module constant.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ReaderParams", "DEFAULT_PARAMS", "SURE_WAY_UP"]

#: A classifier score below which live reads try the other way up of a line that
#: reads as nothing (on a synthetic table view a serial print was classified
#: upside down at 0.75). The general reader does not: on the real photos 119 of
#: 325 lines score lower, nearly all of them other text, and the extra
#: recognitions cost ~4% of its time for no note gained.
SURE_WAY_UP = 0.9


@dataclass(frozen=True)
class ReaderParams:
    """The reader's thresholds.

    Finding prints (:mod:`~.prints`):
        print_aspect: (min, max) long/short side ratio of a detector box that
            may hold a serial print. Serial boxes measured 2.98..7.54 on the real
            photos and synthetic presets; the range drops a seventh of the other
            text lines before recognition.
        min_print_height_px: smallest print height (px) worth reading (7-px
            digits are still legible).
        unsure_way_up: a line the up/down classifier turned with a score below
            this, and that then reads as no serial, is read the other way up too
            (0: never; live mode uses :data:`SURE_WAY_UP`).
        frame_margin_px: a print whose quad comes this close (px) to the
            image's edge is taken as cut by it.
        print_length_mm, print_height_mm: (min, max) size in millimetres of a
            text box that may hold a serial print, used when the image's scale
            is known (:class:`~.model.ReadHints`). Measured on the specimen
            notes' detector boxes (padded): 28-42 mm long; a 1997-series
            ruble's prints (letters and 7 digits) ~30-35 mm; digits alone (the
            detector may split off the letters) ~22 mm; padded digits 3-5 mm high.
        way_up_min_lines, way_up_majority, way_up_cos, way_up_radius_h: an
            ambiguous print's way up is settled by the classifier's verdicts on
            the parallel lines (|cos| > way_up_cos) within way_up_radius_h print
            heights: at least way_up_min_lines lines, way_up_majority of them agreeing.

    Grouping prints into notes (:mod:`~.grouping`):
        max_print_distance_h: two prints further apart than this many print
            heights are not one note.
        similar_hamming: two full reads differing in at most this many digits
            may be one serial read twice; a partial read may differ from a
            window of a full one in at most ``similar_partial_hamming``.
        ruble_du, ruble_dv, ruble_min_spread, ruble_min_cos: where the left
            print lies from the top-right one, in the top-right print's text
            frame in units of its length (du along the text, dv downwards).
            Measured on the 40 two-print rubles of the real photos: du
            -5.2..-3.0, dv 0.41..1.6; a Polish note's prints sit at du -2.5,
            dv 0.36. The left print must also be far enough left and down,
            ``-du + 2 dv >= ruble_min_spread``: real rubles score 4.2 and more,
            the specimen notes of :mod:`dealer_assist.synth` 3.7, the Polish
            pair 3.2; and the two prints must read in the same direction
            (cosine of their text directions above ruble_min_cos).
        ruble_du_known_scale, ruble_dv_known_scale: the same offsets where the
            image's scale is known (a live top view, in units of a print's
            physical 24 mm): the window of a real note, not of a photo's boxes.
            On the 21 real cut-outs of ``bench_live_real.py`` (rectified to
            157 x 69 mm) du is -4.65..-5.07 (-112..-122 mm), dv 0.80..1.43
            (19-34 mm); the 150-mm notes' are 5% shorter and the synthetic
            specimen's -4.4, 1.54; the window is these with ~15 mm to spare.
            With the photo window a live read of set-up C joined one note's
            left print and a neighbour's top-right print (66 mm apart) into a
            note at 0.6 times a note's size, 90 mm off the real note.
        outside_slack_mm: a note placed from one print at a known scale may
            reach this far (mm) beyond the image and still count as in it.
        on_note_slack_mm: a third print with similar digits lying within this
            distance (mm; scaled by the note's height) of a paired note's outline
            joins that note (a second detection box round one of its prints).

    Trusting a serial (:mod:`~.trust`):
        min_agreeing_reads: reads of one value needed to trust it.
        rival_ratio: the trusted value needs this many times the reads of any rival.
        small_print_px: a print lower than this (px) is small: its serial
            needs a second engine even when both prints agree (small prints
            fool one engine the same way on both prints: 0 read as 6 twice).
        one_print_confidence: confidence factor of a serial trusted from one
            print read by two engines.
        dispute_ignores: engines whose values do not dispute a note: Tesseract,
            the last cross-check, misreads too often (16 wrong 7-digit reads of
            83 real prints) for its values to hold a note back.
        require_letter_block: only a line read as two letters then the digits
            (:attr:`~.serials.SerialText.letter_block`) is a serial print; other
            numbers on a note ("1000 ◇ 1000") never vote.
        strict_rivals: any other 7-digit value read on the note by an engine
            not in ``dispute_ignores`` -- an ambiguous print's included, when
            neither of its ways reads the value -- blocks trust (otherwise a
            rival with at most ``1/rival_ratio`` of the reads is tolerated).
        one_print_min_char_prob: a serial seen on one print only is trusted
            when ``one_print_engines`` CTC engines read it with every digit's
            probability at least this (per-character confidences, not one
            score per line); ``None``: one print is never enough.
        one_print_engines: see ``one_print_min_char_prob``.
        two_print_min_char_prob: two prints agreeing are trusted when every digit
            of the value was read with at least this probability by a CTC engine on
            one of them. Measured on the degradation benchmark: two-print trusts
            that were right had every digit at 0.81 or more in 99.5 % of 556 cases
            (0.85 loses 4 of them); on a webcam's far, upside-down note at 2.4
            px/mm both prints misread a 5 as 3 with 0.81 and 0.60, twice.
        two_print_each_min_char_prob: a digit one print reads below this (and
            no two engines read the whole value on that print) stands only when
            the cross-check engines, asked then, read nothing else there: no 7
            digits in a row of their reads of that print match the value but
            for ``similar_hamming`` places and differ at that digit. One
            print's sure digit and the other's contradicted guess are not two
            pieces of evidence. Measured: on a webcam's far, upside-down
            1000-rouble note (2.5 px/mm, ``bench_live_real.py`` set-up B) both
            prints read a 4 as 9, one print sure (0.96-0.99), the other not
            (0.64-0.72), where PP-OCRv4 read "62744194"; the note was trusted
            wrong without this rule. Requiring 0.8 outright on each print
            instead cost the synthetic recordings of ``bench_live_recorded.py``
            12 of 45 notes; this form costs 5 (40 of 54 trusted), and on a
            replay of the degradation benchmark's gathered reads 6 of 1,282
            (0 wrong in every form).
        one_print_spaced: a serial seen on one print only also needs a read of
            that print (of its digits, give or take ``similar_hamming``)
            showing the letter block apart from the digits, as a 1997-series
            ruble prints it (a Polish note with the same format prints them
            together and was trusted from one print on 9 degraded images).
        one_print_model_letters_min_prob: for ``one_print_spaced``, a read of the project's serial
            model also shows the ruble's layout when it reads the value (heard: every digit at
            ``model_min_char_prob``) after exactly two Cyrillic letters, each at least this probability
            (:func:`~.trust._laid_out_as_ruble`; the model, trained on ruble prints only, writes the
            gap after any two letters, so only its letters tell); ``None``: its reads never do.
            Measured on the degradation benchmark's hard cases (``benchmarks/bench_trust_replay.py
            gather`` of a full ``bench_degrade.py --jobs 1 --seed 0 --json`` run at f513d3e: the 559
            images with a miss or an untrusted 7-digit read, re-read with per-character
            probabilities; then ``replay ... one_print_model_letters_min_prob=None,0.3,0.5,0.8,0.95``):
            of the 68 notes refused only for no spaced read while the model read the value, the
            Polish note (real_195, 2 images) was read by the model as digits alone (no letters,
            digits unsure: 0.64, 0.73); the replay trusts 49 more right serials at 0.3, 46 at 0.5,
            40 at 0.8, 35 at 0.95, none wrong at any. 0.8 keeps the letters a sure read.
        one_print_model_general_min_char_prob: a serial seen on one print only is also sure
            (instead of ``one_print_engines`` engines at ``one_print_min_char_prob``) when two engines of
            different families read it there: the serial model sure of every digit at
            ``model_first_min_char_prob`` (as when it reads a print alone) and a PP-OCR engine with every
            digit at least this (:func:`~.trust.model_and_general_sure`); the other one-print checks
            (no rival, the ruble's layout) still apply. ``None``: never. Measured on the same 559
            gathered images: no print had a model read sure at 0.95 of a wrong value (photos with
            uncertain labels left out), and of 169 PP-OCR reads agreeing with a sure model read 27 were
            below 0.9, 14 below 0.8; ``bench_trust_replay.py replay ...
            one_print_model_general_min_char_prob=None,0.9,0.85,0.8,0.5``: 0.85 gains 1 note, 0.8 and
            0.5 2, none wrong.
        model_way_up_min_char_prob: a print whose way up the primary engine cannot tell (digits both
            ways up, no letters read) and that the second engine's letters do not settle is settled by the
            serial model (:func:`~.prints._settle_by_model`) when it reads one way two letters then 7
            digits, every digit at least this, and the other way no serial-like run (it was trained to
            read nothing on a print turned over); only the way up is taken, its read does not vote.
            ``None``: never. Measured by reading again the 35 gathered images (as above) that hold an
            ambiguous print (``bench_trust_replay.py reread ...
            model_way_up_min_char_prob=None,0.5,0.9,0.97``): 0.9 (the level at which the model is
            heard, ``model_min_char_prob``) trusts 11 right serials there instead of 2, none wrong
            (real_157's 0900099, which reads 6600060 turned over, among them); 0.5 trusts 12, 0.97
            5, none wrong.
        model_engines, model_min_char_prob: the project's own serial model
            (:class:`~.recognizer.SerialCtcEngine`, a cross-check engine) is
            heard only when sure: a read of it counts -- votes, disagrees,
            contradicts or backs a digit -- only when every digit of it has at
            least ``model_min_char_prob``; an unsure read of it is kept for the
            person but never blocks a note nor backs one. Its reads never trust
            a value alone either: a PP-OCR engine (an engine neither in
            ``model_engines`` nor in ``dispute_ignores``) must read the value
            on some print of the note too. Measured on the held-out real prints
            (546 reads of the ``val`` and ``test`` prints, clean and degraded;
            ``benchmarks/bench_recognizer.py``, models/README.md): at 0.9 none
            of its reads sure of every digit was 7 other digits (3 at 0.85);
            on real_hands' hand_06 the earlier model's misread (7273906 for
            7273916) had the wrong digit at 0.41. With it the degradation
            subset (``bench_degrade.py --seed 0 --limit 200``) trusts 119 of
            164, 0 wrong (116 without the model).
        model_first_min_char_prob: the model reads every print line first, both
            ways up (:func:`~.prints.model_read`); a line it reads one way as two
            letters and 7 digits, every digit with at least this probability, and
            the other way as nothing, is read by the model alone. A note whose two
            prints were both so read, agree on all 7 digits and lie as a ruble's
            is trusted without the general engines (:func:`~.trust.model_two_prints`:
            two prints, two pieces of evidence); any other note's model-read prints
            are read again by the general engines and decided as without the model,
            so this threshold costs time, not notes. ``None``: the model is never
            asked first. Measured with the model alone on 600 degraded images
            (``benchmarks/bench_model_pairs.py --seed 0 --limit 600``): its pair rule
            trusted no wrong serial at any threshold from 0.5 (100 notes at 0.9, 92
            at 0.95); the surest wrong print (2535878 for 2535876, a dark photo) had
            every digit at 0.884 or more, so 0.95 keeps a margin above it.

    Fast path (:mod:`~.fastpath`):
        fast_note_height_px: height of the rectified note the print ROIs are cut from.
        fast_aspect_tolerance: a found quad's long/short side ratio may differ
            from the layout's by this fraction.
    """

    print_aspect: tuple[float, float] = (2.7, 10.0)
    min_print_height_px: float = 6.0
    unsure_way_up: float = 0.0
    frame_margin_px: float = 3.0
    print_length_mm: tuple[float, float] = (14.0, 62.0)
    print_height_mm: tuple[float, float] = (3.0, 17.0)
    way_up_min_lines: int = 3
    way_up_majority: float = 0.75
    way_up_cos: float = 0.9
    way_up_radius_h: float = 40.0

    max_print_distance_h: float = 60.0
    similar_hamming: int = 2
    similar_partial_hamming: int = 1
    ruble_du: tuple[float, float] = (-6.5, -2.0)
    ruble_dv: tuple[float, float] = (0.25, 2.2)
    ruble_min_spread: float = 3.5
    ruble_min_cos: float = 0.8
    ruble_du_known_scale: tuple[float, float] = (-5.6, -3.75)
    ruble_dv_known_scale: tuple[float, float] = (0.5, 1.9)
    outside_slack_mm: float = 20.0
    on_note_slack_mm: float = 10.0

    min_agreeing_reads: int = 2
    rival_ratio: int = 3
    small_print_px: float = 22.0
    one_print_confidence: float = 0.9
    dispute_ignores: frozenset[str] = frozenset({"tesseract"})
    require_letter_block: bool = True
    strict_rivals: bool = True
    one_print_min_char_prob: float | None = 0.9
    one_print_engines: int = 2
    one_print_spaced: bool = True
    one_print_model_letters_min_prob: float | None = 0.8
    one_print_model_general_min_char_prob: float | None = 0.8
    model_way_up_min_char_prob: float | None = 0.9
    two_print_min_char_prob: float | None = 0.85
    two_print_each_min_char_prob: float | None = 0.8
    model_engines: frozenset[str] = frozenset({"serial-ctc"})
    model_min_char_prob: float = 0.9
    model_first_min_char_prob: float | None = 0.95

    fast_note_height_px: int = 320
    fast_aspect_tolerance: float = 0.15


#: The reader's thresholds as measured (see :class:`ReaderParams`).
DEFAULT_PARAMS = ReaderParams()
