#!/usr/bin/python3
"""Trains the small Fashion-MNIST CNN that npurt's INT8 accuracy check uses and
exports it to fashion_cnn.onnx (committed next to this script).

Run with Debian's python3 (python3-torch, python3-numpy) and Debian's
dataset-fashion-mnist:

    /usr/bin/python3 bench/fashion_mnist/train.py [--epochs 6] [--out fashion_cnn.onnx]

The network is what an embedded classifier typically looks like: three
conv-BN-ReLU blocks with max pooling, then Flatten + Linear. Its input is
1x1x28x28 float32 holding pixel / 255 (no mean subtraction), so a board
application feeds the uint8 image and converts with `--mean-values 0
--std-values 255`; the output is the 10 class logits.

Training is deterministic: fixed seeds, one thread, deterministic algorithms,
a seeded shuffle; the same torch build gives the same weights.
"""

import argparse
import gzip
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DATA_DIR = "/usr/share/datasets/fashion-mnist"
SEED = 20240601


def read_idx(path, header_bytes):
    # IDX: big-endian header (magic, dims), then raw uint8 data.
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=header_bytes)


def load_split(data_dir, prefix):
    images = read_idx(os.path.join(data_dir, f"{prefix}-images-idx3-ubyte.gz"), 16)
    labels = read_idx(os.path.join(data_dir, f"{prefix}-labels-idx1-ubyte.gz"), 8)
    images = images.reshape(-1, 1, 28, 28)
    assert images.shape[0] == labels.shape[0], f"{prefix}: {images.shape[0]} images, {labels.shape[0]} labels"
    # The model's input convention: pixel / 255, so npurt's mean 0 / std 255 reproduces it.
    return torch.from_numpy(images.astype(np.float32) / 255.0), torch.from_numpy(labels.astype(np.int64))


def conv_block(cin, cout):
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class FashionCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            *conv_block(1, 16), nn.MaxPool2d(2),   # 28 -> 14
            *conv_block(16, 32), nn.MaxPool2d(2),  # 14 -> 7
            *conv_block(32, 64), nn.MaxPool2d(2),  # 7 -> 3
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(64 * 3 * 3, 10))

    def forward(self, x):
        return self.classifier(self.features(x))


@torch.no_grad()
def evaluate(model, images, labels, batch=1000):
    model.eval()
    correct = 0
    for i in range(0, images.shape[0], batch):
        correct += (model(images[i:i + batch]).argmax(1) == labels[i:i + batch]).sum().item()
    return 100.0 * correct / images.shape[0]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", default=DATA_DIR)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(here, "fashion_cnn.onnx"))
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.benchmark = False

    train_x, train_y = load_split(args.data_dir, "train")
    test_x, test_y = load_split(args.data_dir, "t10k")
    print(f"train {tuple(train_x.shape)}  test {tuple(test_x.shape)}  torch {torch.__version__}")

    model = FashionCnn()
    steps_per_epoch = (train_x.shape[0] + args.batch - 1) // args.batch
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.epochs * steps_per_epoch)
    gen = torch.Generator().manual_seed(SEED)

    start = time.time()
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(train_x.shape[0], generator=gen)
        total_loss = 0.0
        for step in range(steps_per_epoch):
            idx = order[step * args.batch:(step + 1) * args.batch]
            x, y = train_x[idx], train_y[idx]
            # Horizontal flips: clothes are left/right symmetric; seeded like the shuffle.
            flip = torch.rand(x.shape[0], generator=gen) < 0.5
            x = torch.where(flip[:, None, None, None], x.flip(3), x)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total_loss += loss.item() * x.shape[0]
        acc = evaluate(model, test_x, test_y)
        print(f"epoch {epoch + 1}/{args.epochs}  loss {total_loss / train_x.shape[0]:.4f}  "
              f"test top-1 {acc:.2f} %  ({time.time() - start:.0f} s)", flush=True)

    model.eval()
    acc = evaluate(model, test_x, test_y)
    print(f"float test top-1 (torch): {acc:.2f} % on {test_x.shape[0]} images")

    # Eval-mode export: Dropout disappears; BatchNorm is kept or folded by the
    # exporter, and npurt's importer folds whatever remains.
    torch.onnx.export(model, torch.zeros(1, 1, 28, 28), args.out, opset_version=13,
                      input_names=["image"], output_names=["logits"], do_constant_folding=True)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")


if __name__ == "__main__":
    main()
