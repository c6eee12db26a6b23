"""Train the serial recognizer, export it to ONNX and write its card's figures.

    PYTHONPATH=. nice -n 10 .venv/bin/python -m training.train [--seed 0] [--steps 4000] [--threads 2]
        [--minutes M] [--eval-every 150] [--init earlier.onnx|earlier.pt] [--out models/serial_ctc.onnx]

needs the ``[train]`` extra (``pip install -e '.[train]'``: PyTorch, onnx). One command:

1. locates the labelled prints of ``../shared/real_photos`` (:func:`training.data.real_prints`) and splits
   them by note into train / val / test;
2. renders ``--synth-notes`` specimen notes (both prints, plus negatives);
3. makes ``--samples`` augmented inputs (real train prints and synthetic ones) once, in memory;
4. trains the CTC model (:mod:`training.model`) for ``--steps`` steps (or until ``--minutes`` are used
   up: the learning rate, a short warm-up then a cosine decay, follows whichever is further along);
   every ``--eval-every`` steps it prints its figures on the **val** prints (clean, degraded, and
   degraded the hard way: :func:`held_out_hard_set`) and saves a checkpoint under
   ``/tmp/dealer-assist-training/`` (``<out>.last.pt``, and ``<out>.pt`` for the best val exact count
   so far, less ``SURE_WRONG_COST`` per wrong read sure of every digit), and the **best** checkpoint is the
   one exported;
5. fits the softmax temperature on the **val** prints (clean and degraded) so that the per-character
   probabilities are calibrated;
6. exports ``models/serial_ctc.onnx`` and measures it through onnxruntime on the **test** prints
   (clean and degraded, a fixed seed): :func:`evaluate`, written to ``models/serial_ctc.json``
   (with ``val_hard`` / ``test_hard``, the same on the hard variants).

``--hard-fraction`` of the training samples are degraded by :func:`training.data.hard_degrade` (what the
reader missed most) instead of the usual augmentation.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

from dealer_assist.vision.recognizer import CARD_PATH, CHARSET, MODEL_PATH

#: Degraded variants of each held-out print measured (val: calibration; test: the card's figures).
HELD_OUT_VARIANTS = 12
#: Seed of the held-out variants (fixed: the figures are reproducible from the model alone).
HELD_OUT_SEED = 12345
#: Seed of the held-out hard variants (:func:`held_out_hard_set`).
HELD_OUT_HARD_SEED = 23456
#: What one wrong val read sure of every digit costs a checkpoint's score, in right reads (its choice).
SURE_WRONG_COST = 5
#: Probability bins of the calibration table.
BINS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.99, 1.0001)


def held_out_set(split: str, variants: int = HELD_OUT_VARIANTS, seed: int = HELD_OUT_SEED
                 ) -> tuple[np.ndarray, list[str], list[str]]:
    """The ``split``'s real prints, clean and ``variants`` degraded copies each:
    ``(inputs (N, 1, 32, 128), targets, kinds "clean" | "degraded")``. Deterministic."""
    from training.data import real_samples, sample

    xs, ys, kinds = [], [], []
    rng = np.random.default_rng(seed)
    for ps in real_samples(split):
        x, y = sample(ps, rng, strength=0.0, flips=False)
        xs.append(x), ys.append(y), kinds.append("clean")
        for _ in range(variants):
            x, y = sample(ps, rng, strength=1.0, flips=False)
            xs.append(x), ys.append(y), kinds.append("degraded")
    return np.stack(xs).astype(np.float32), ys, kinds


def held_out_hard_set(split: str, variants: int = HELD_OUT_VARIANTS, seed: int = HELD_OUT_HARD_SEED
                      ) -> tuple[np.ndarray, list[str], list[str]]:
    """The ``split``'s real prints, ``variants`` copies each degraded by :func:`training.data.hard_degrade`
    (what the reader missed most: motion blur, blown highlights, heavy JPEG, defocus, low contrast):
    ``(inputs, targets, kinds "hard")``. Deterministic; its own seed, so :func:`held_out_set` is unchanged."""
    from training.data import real_samples, sample

    xs, ys = [], []
    rng = np.random.default_rng(seed)
    for ps in real_samples(split):
        for _ in range(variants):
            x, y = sample(ps, rng, flips=False, hard=True)
            xs.append(x), ys.append(y)
    return np.stack(xs).astype(np.float32), ys, ["hard"] * len(ys)


def _digits(text: str) -> str:
    runs = re.findall(r"\d+", text)
    return max(runs, key=len) if runs else ""


def decode_all(logits: np.ndarray, temperature: float) -> list[tuple[str, tuple[float, ...]]]:
    from dealer_assist.vision.ocr import ctc_decode
    from dealer_assist.vision.recognizer import _softmax

    return [ctc_decode(_softmax(s / temperature), list(CHARSET)) for s in logits]


def char_outcomes(decoded, targets) -> tuple[np.ndarray, np.ndarray]:
    """Per digit of the reads whose digit run has the target's length: (probability, right?)."""
    ps, ok = [], []
    for (text, probs), target in zip(decoded, targets):
        d, t = _digits(text), _digits(target)
        if not d or len(d) != len(t):
            continue
        start = text.find(d)
        for i, (a, b) in enumerate(zip(d, t)):
            ps.append(probs[start + i]), ok.append(a == b)
    return np.asarray(ps, np.float64), np.asarray(ok, bool)


def fit_temperature(logits: np.ndarray, targets: list[str]) -> float:
    """The temperature minimising the negative log-likelihood of each digit being right given its
    probability (a grid, 0.5..4)."""
    best, best_t = np.inf, 1.0
    for t in np.arange(0.5, 4.01, 0.05):
        p, ok = char_outcomes(decode_all(logits, t), targets)
        p = np.clip(p, 1e-6, 1 - 1e-6)
        nll = -np.mean(np.where(ok, np.log(p), np.log(1 - p)))
        if nll < best:
            best, best_t = nll, float(t)
    return round(best_t, 2)


def evaluate(logits: np.ndarray, targets: list[str], kinds: list[str], temperature: float) -> dict:
    """The card's figures on held-out inputs: per kind, prints, exact digit reads, wrong digit reads (a
    digit run of the target's length that differs), wrong reads sure of every digit (each >= 0.9), and
    the calibration table over digits (bin -> n, mean probability, fraction right). Kinds: ``clean``,
    ``degraded`` and, when ``kinds`` holds it, ``hard`` (:func:`held_out_hard_set`)."""
    decoded = decode_all(logits, temperature)
    out: dict = {}
    for kind in [k for k in ("clean", "degraded", "hard") if k in kinds]:
        idx = [i for i, k in enumerate(kinds) if k == kind]
        exact = wrong = sure_wrong = 0
        for i in idx:
            d, t = _digits(decoded[i][0]), _digits(targets[i])
            if d == t:
                exact += 1
            elif len(d) == len(t):
                wrong += 1
                start = decoded[i][0].find(d)
                if min(decoded[i][1][start:start + len(d)]) >= 0.9:
                    sure_wrong += 1
        out[kind] = {"prints": len(idx), "exact": exact, "wrong": wrong, "sure_wrong": sure_wrong}
    p, ok = char_outcomes(decoded, targets)
    table = []
    for lo, hi in zip(BINS[:-1], BINS[1:]):
        m = (p >= lo) & (p < hi)
        if m.any():
            table.append({"bin": [lo, min(hi, 1.0)], "digits": int(m.sum()), "mean_prob": round(float(p[m].mean()), 4),
                          "right": round(float(ok[m].mean()), 4)})
    out["calibration"] = table
    out["digits"] = int(len(p))
    out["ece"] = round(float(sum(abs(r["mean_prob"] - r["right"]) * r["digits"] for r in table) / max(len(p), 1)), 4)
    return out


def init_from(model, path: Path, batch) -> None:
    """Load ``model``'s weights from a saved state (``.pt``) or from an ONNX export of it, whose
    convolutions carry their batch norms folded in: each conv gets the folded weights, and its batch
    norm the mean and spread of its output on ``batch``, so that it first passes the folded outputs on."""
    import torch

    if path.suffix == ".pt":
        model.load_state_dict(torch.load(path))
        return
    import onnx
    from onnx import numpy_helper

    g = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = [n for n in g.node if n.op_type == "Conv"]
    modules = [m for m in model.modules() if isinstance(m, (torch.nn.Conv1d, torch.nn.Conv2d))]
    if len(convs) != len(modules):
        raise ValueError(f"{path} has {len(convs)} convolutions, the model {len(modules)}")
    bns = {}
    seq = [m for m in model.modules() if isinstance(m, (torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.BatchNorm1d,
                                                       torch.nn.BatchNorm2d))]
    for a, b in zip(seq, seq[1:]):
        if isinstance(b, (torch.nn.BatchNorm1d, torch.nn.BatchNorm2d)):
            bns[a] = b
    outs = {}
    hooks = [m.register_forward_hook(lambda mod, i, o: outs.__setitem__(mod, o.detach())) for m in bns]
    with torch.no_grad():
        for node, conv in zip(convs, modules):
            conv.weight.copy_(torch.from_numpy(inits[node.input[1]]))
            bias = torch.from_numpy(inits[node.input[2]]) if len(node.input) > 2 else torch.zeros(conv.out_channels)
            if conv in bns:
                bn = bns[conv]
                bn.weight.fill_(1.0), bn.bias.copy_(bias), bn.running_mean.zero_(), bn.running_var.fill_(1.0)
                bn.eps = 1e-5
                bn._folded_bias = bias
            else:
                conv.bias.copy_(bias)
        model.eval()
        # calibrate each batch norm in turn on its own input, front to back
        for conv, bn in bns.items():
            model(batch)
            o = outs[conv]
            dims = [0, 2, 3] if o.dim() == 4 else [0, 2]
            m, v = o.mean(dim=dims), o.var(dim=dims)
            bn.running_mean.copy_(m), bn.running_var.copy_(v)
            bn.weight.copy_(torch.sqrt(v + bn.eps)), bn.bias.copy_(m + bn._folded_bias)
    for h in hooks:
        h.remove()
    model.train()


def _make_training_set(n: int, real, synth, real_fraction: float, seed: int, hard_fraction: float = 0.0
                       ) -> tuple[np.ndarray, list[str]]:
    from training.data import sample

    rng = np.random.default_rng(seed)
    hard_rng = np.random.default_rng([seed, 1])  # its own stream: hard_fraction 0 makes the earlier sets
    xs, ys = [], []
    for i in range(n):
        pool = real if (real and rng.random() < real_fraction) else synth
        ps = pool[int(rng.integers(len(pool)))]
        if hard_fraction > 0 and hard_rng.random() < hard_fraction:
            x, y = sample(ps, hard_rng, hard=True)
        else:
            x, y = sample(ps, rng, strength=float(rng.choice([0.0, 0.5, 1.0, 1.0, 1.0])))
        xs.append(x), ys.append(y)
    return np.stack(xs).astype(np.float32), ys


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--samples", type=int, default=30000, help="augmented inputs made once (default 30000)")
    ap.add_argument("--synth-notes", type=int, default=300)
    ap.add_argument("--real-fraction", type=float, default=0.4)
    ap.add_argument("--hard-fraction", type=float, default=0.0,
                    help="share of the training samples degraded by training.data.hard_degrade (motion blur, blown "
                         "highlights, JPEG 4-30, defocus, low contrast) instead of the usual augmentation (default 0)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--minutes", type=float, default=None,
                    help="time budget of the training loop: the learning-rate schedule follows whichever of steps or "
                         "time is further along, and training stops when either is used up")
    ap.add_argument("--eval-every", type=int, default=150,
                    help="steps between validations on the val prints; each saves a checkpoint, the best is exported")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from this earlier export (ONNX) or its saved weights (.pt) instead of from scratch")
    args = ap.parse_args(argv)

    import torch

    from training.data import real_samples, synthetic_prints
    from training.model import SerialCTC

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    t0 = time.time()
    real_train = real_samples("train")
    synth = synthetic_prints(args.synth_notes, args.seed)
    print(f"prints: {len(real_train)} real (train), {len(synth)} synthetic ({time.time() - t0:.0f} s)", flush=True)
    x_train, y_train = _make_training_set(args.samples, real_train, synth, args.real_fraction, args.seed,
                                          args.hard_fraction)
    x_val, y_val, k_val = held_out_set("val")
    xh_val, yh_val, kh_val = held_out_hard_set("val")
    print(f"training set {len(x_train)}, val {len(x_val)} + {len(xh_val)} hard ({time.time() - t0:.0f} s)", flush=True)

    index = {c: i for i, c in enumerate(CHARSET)}
    model = SerialCTC(len(CHARSET))
    if args.init is not None:
        init_from(model, args.init, torch.from_numpy(x_train[:256]))
    print(f"parameters: {sum(p.numel() for p in model.parameters())}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True)
    rng = np.random.default_rng(args.seed)
    xt = torch.from_numpy(x_train)
    ckpt_dir = Path("/tmp/dealer-assist-training")  # checkpoints are kept out of the repository
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    last_pt, best_pt = ckpt_dir / (args.out.stem + ".last.pt"), ckpt_dir / (args.out.stem + ".pt")
    best_score, best_step = -float("inf"), 0
    t_loop = time.time()

    def validate(step: int, loss: float) -> None:
        nonlocal best_score, best_step
        model.eval()
        with torch.no_grad():
            lv = model(torch.from_numpy(np.concatenate([x_val, xh_val]))).numpy()
        model.train()
        ev = evaluate(lv, y_val + yh_val, k_val + kh_val, 1.0)
        sure_wrong = sum(ev[k]["sure_wrong"] for k in ("clean", "degraded", "hard"))
        # a wrong val read sure of every digit (at temperature 1, before calibration) costs SURE_WRONG_COST reads
        score = ev["clean"]["exact"] + ev["degraded"]["exact"] + ev["hard"]["exact"] - SURE_WRONG_COST * sure_wrong
        torch.save(model.state_dict(), last_pt)
        mark = ""
        if score > best_score:
            best_score, best_step = score, step
            torch.save(model.state_dict(), best_pt)
            mark = " *best"
        print(f"step {step} loss {loss:.3f} lr {opt.param_groups[0]['lr']:.2e} val clean "
              f"{ev['clean']['exact']}/{ev['clean']['prints']} degraded {ev['degraded']['exact']}/"
              f"{ev['degraded']['prints']} (wrong {ev['degraded']['wrong']}) hard {ev['hard']['exact']}/{ev['hard']['prints']} "
              f"(wrong {ev['hard']['wrong']}) sure-wrong {sure_wrong} {time.time() - t0:.0f} s{mark}", flush=True)

    model.train()
    step, loss_v = 0, float("nan")
    if args.steps > 0:
        validate(0, loss_v)
    while step < args.steps:
        progress = step / args.steps
        if args.minutes:
            progress = max(progress, (time.time() - t_loop) / (60 * args.minutes))
        if progress >= 1.0:
            print(f"time budget of {args.minutes} min used up at step {step}", flush=True)
            break
        warm = 0.05
        factor = progress / warm if progress < warm else 0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * (progress - warm) / (1 - warm)))
        for g in opt.param_groups:
            g["lr"] = args.lr * float(factor)
        step += 1
        idx = rng.integers(0, len(x_train), args.batch)
        x = xt[idx]
        targets = [[index[c] for c in y_train[i]] for i in idx]
        flat = torch.tensor([c for t in targets for c in t], dtype=torch.long)
        lengths = torch.tensor([len(t) for t in targets], dtype=torch.long)
        logp = model(x).log_softmax(2).permute(1, 0, 2)  # T, N, C
        loss = ctc(logp, flat, torch.full((len(idx),), logp.shape[0], dtype=torch.long), lengths)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_v = loss.item()
        if step % args.eval_every == 0:
            validate(step, loss_v)
    if args.steps > 0:
        if step % args.eval_every:
            validate(step, loss_v)
        print(f"best checkpoint: step {best_step} (val score {best_score}), {best_pt}", flush=True)
        model.load_state_dict(torch.load(best_pt))
    steps_done = step

    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 1, 32, 128), str(args.out), input_names=["image"],
                      output_names=["scores"], dynamic_axes={"image": {0: "n"}, "scores": {0: "n"}},
                      opset_version=17, dynamo=False)
    from dealer_assist.vision.recognizer import SerialCtcEngine

    engine = SerialCtcEngine(args.out, temperature=1.0)
    temperature = fit_temperature(engine.scores(x_val), y_val)
    x_test, y_test, k_test = held_out_set("test")
    xh_test, yh_test, kh_test = held_out_hard_set("test")
    card = {
        "model": args.out.name,
        "command": "PYTHONPATH=. .venv/bin/python -m training.train " + " ".join(argv if argv is not None
                                                                                 else sys.argv[1:]),
        "seed": args.seed, "steps": args.steps, "steps_done": steps_done, "best_step": best_step,
        "minutes": args.minutes, "init": str(args.init) if args.init else None, "lr": args.lr, "batch": args.batch, "samples": args.samples,
        "synth_notes": args.synth_notes, "real_fraction": args.real_fraction, "hard_fraction": args.hard_fraction,
        "parameters": int(sum(p.numel() for p in model.parameters())),
        "temperature": temperature,
        "held_out": {"variants": HELD_OUT_VARIANTS, "seed": HELD_OUT_SEED},
        "split": {s: {"notes": len({p.note for p in real_samples(s)}), "prints": len(real_samples(s))}
                  for s in ("train", "val", "test")},
        "val": evaluate(engine.scores(x_val), y_val, k_val, temperature),
        "test": evaluate(engine.scores(x_test), y_test, k_test, temperature),
        "held_out_hard": {"variants": HELD_OUT_VARIANTS, "seed": HELD_OUT_HARD_SEED},
        "val_hard": evaluate(engine.scores(xh_val), yh_val, kh_val, temperature),
        "test_hard": evaluate(engine.scores(xh_test), yh_test, kh_test, temperature),
        "train_seconds": round(time.time() - t0),
    }
    out_card = args.out.with_suffix(".json") if args.out != MODEL_PATH else CARD_PATH
    out_card.write_text(json.dumps(card, ensure_ascii=False, indent=1) + "\n")
    print(json.dumps({k: card[k] for k in ("temperature", "split", "val", "test", "val_hard", "test_hard")}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
