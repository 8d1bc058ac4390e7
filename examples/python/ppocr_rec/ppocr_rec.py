"""Board-side PP-OCRv4 text recognition with rknn-toolkit-lite2's RKNNLite: on a board, or on any
machine with npurt.

    python3 ppocr_rec.py MODEL.rknn ppocr_keys_v1.txt LINE.png [LINE.png ...]
    python3 ppocr_rec.py MODEL.rknn ppocr_keys_v1.txt --labels labels.tsv   # "path<TAB>text" lines

Each image is one text line: scaled to height 48 (aspect kept, at most 320 wide), BGR,
(v / 255 - 0.5) / 0.5, right-padded with zeros (PaddleOCR's resize_norm_img), then greedy CTC decoding.
Prints the text and score per line; with --labels, the exact-match count and the character error rate.
"""
import math
import os
import sys

import numpy as np
from PIL import Image
from rknnlite.api import RKNNLite

HEIGHT, WIDTH = 48, 320


def preprocess(path):
    image = Image.open(path).convert("RGB")
    w, h = image.size
    resized_w = min(WIDTH, int(math.ceil(HEIGHT * w / float(h))))
    line = np.asarray(image.resize((resized_w, HEIGHT), Image.BILINEAR), dtype=np.float32)
    line = line[:, :, ::-1]  # PaddleOCR's models read BGR
    line = (line / 255.0 - 0.5) / 0.5
    tensor = np.zeros((1, 3, HEIGHT, WIDTH), dtype=np.float32)
    tensor[0, :, :, :resized_w] = line.transpose(2, 0, 1)
    return tensor


def load_keys(path):
    with open(path, encoding="utf-8") as f:
        keys = [line.rstrip("\r\n") for line in f]
    return ["blank"] + keys + [" "]  # PaddleOCR: index 0 is the CTC blank, the space comes last


def ctc_decode(probs, keys):
    best = probs.argmax(axis=1)
    text, scores, previous = [], [], -1
    for t, index in enumerate(best):
        if index != 0 and index != previous:
            text.append(keys[index])
            scores.append(probs[t, index])
        previous = index
    return "".join(text), float(np.mean(scores)) if scores else 0.0


def edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[len(b)]


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        exit(1)
    model_path, keys_path = sys.argv[1], sys.argv[2]
    if sys.argv[3] == "--labels":
        base = os.path.dirname(os.path.abspath(sys.argv[4]))
        with open(sys.argv[4], encoding="utf-8") as f:
            items = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]
        items = [(os.path.join(base, path), label) for path, label in items]
    else:
        items = [(path, None) for path in sys.argv[3:]]
    keys = load_keys(keys_path)

    rknn_lite = RKNNLite()
    if rknn_lite.load_rknn(model_path) != 0:
        print("Load RKNN model failed")
        exit(1)
    if rknn_lite.init_runtime(core_mask=RKNNLite.NPU_CORE_AUTO) != 0:
        print("Init runtime environment failed")
        exit(1)

    exact, errors, characters = 0, 0, 0
    for path, label in items:
        outputs = rknn_lite.inference(inputs=[preprocess(path)], data_format=["nchw"])
        if outputs is None:
            print("Inference failed on %s" % path)
            exit(1)
        text, score = ctc_decode(outputs[0][0], keys)
        print("%s\t%s\t%.3f" % (os.path.basename(path), text, score))
        if label is not None:
            exact += text == label
            errors += edit_distance(text, label)
            characters += len(label)
    if characters:
        print("exact %d/%d, character error rate %.2f %%" % (exact, len(items), 100.0 * errors / characters))
    rknn_lite.release()


if __name__ == "__main__":
    main()
