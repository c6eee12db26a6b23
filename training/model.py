"""The serial recognizer's network: a small convolutional CTC model (PyTorch, for training only).

Input ``(N, 1, 32, 128)`` grey (see :func:`dealer_assist.vision.recognizer.preprocess`), output
``(N, 32, C)`` class scores, one frame per 4 input columns (C = ``len(CHARSET)``, class 0 the blank).
About 0.16 M parameters, ~13 M multiply-adds per print.
"""

from __future__ import annotations

import torch
from torch import nn


def _block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class SerialCTC(nn.Module):
    def __init__(self, n_classes: int, width: int = 1) -> None:
        super().__init__()
        c = [16 * width, 24 * width, 48 * width, 64 * width, 96 * width]
        self.features = nn.Sequential(
            _block(1, c[0], stride=2),                   # 16 x 64
            _block(c[0], c[1]), nn.MaxPool2d(2),         # 8 x 32
            _block(c[1], c[2]), nn.MaxPool2d((2, 1)),    # 4 x 32
            _block(c[2], c[3]), nn.MaxPool2d((2, 1)),    # 2 x 32
            nn.Conv2d(c[3], c[4], (2, 1), bias=False), nn.BatchNorm2d(c[4]), nn.ReLU(inplace=True),  # 1 x 32
        )
        self.sequence = nn.Sequential(
            nn.Conv1d(c[4], c[4], 5, padding=2, bias=False), nn.BatchNorm1d(c[4]), nn.ReLU(inplace=True),
            nn.Dropout(0.1),
            nn.Conv1d(c[4], c[4], 5, padding=2, bias=False), nn.BatchNorm1d(c[4]), nn.ReLU(inplace=True),
        )
        self.head = nn.Conv1d(c[4], n_classes, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x).squeeze(2)  # N, C, T
        return self.head(self.sequence(f)).permute(0, 2, 1)  # N, T, classes
