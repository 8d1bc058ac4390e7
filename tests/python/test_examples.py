"""examples/python/ppocr_rec: the rknn_model_zoo-style conversion script and the RKNNLite board script
on rendered text lines with known text (make_ocr_sets), run as a user runs them."""
import os
import re
import subprocess

import pytest

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python", "ppocr_rec")


@pytest.fixture(scope="module")
def ocr_sets(tmp_path_factory):
    tool = os.environ.get("NPURT_MAKE_OCR_SETS")
    if not tool or not os.path.isfile(tool):
        pytest.fail("NPURT_MAKE_OCR_SETS must name make_ocr_sets (ctest sets it)")
    data = os.environ.get("NPURT_DATA_DIR", os.path.expanduser("~/.cache/npurt"))
    keys = os.path.join(data, "models", "ppocr", "ppocr_keys_v1.txt")
    out = tmp_path_factory.mktemp("sets")
    subprocess.run([tool, "--keys", keys, "--out", str(out), "--rec-eval", "8", "--rec-calib", "8", "--cls-eval", "2",
                    "--cls-calib", "2", "--det-eval-pages", "1", "--det-calib-pages", "1"], check=True,
                   capture_output=True)
    return out, keys, os.path.join(data, "models", "ppocr", "ch_PP-OCRv4_rec_infer.onnx")


def run(args, cwd):
    result = subprocess.run(["/usr/bin/python3"] + args, capture_output=True, text=True, cwd=str(cwd))
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_rec_example_converts_quantizes_and_reads_the_lines(ocr_sets, tmp_path):
    sets, keys, onnx_model = ocr_sets
    run([os.path.join(EXAMPLE, "convert.py"), onnx_model, "rk3588", "i8", "rec.rknn",
         str(sets / "rec" / "calib.txt"), str(sets / "rec" / "calib" / "00000.npy")], tmp_path)
    assert (tmp_path / "snapshot" / "error_analysis.txt").is_file()
    assert any((tmp_path / "snapshot" / "golden").iterdir())
    out = run([os.path.join(EXAMPLE, "ppocr_rec.py"), "rec.rknn", keys, "--labels", str(sets / "rec" / "labels.tsv")],
              tmp_path)
    summary = re.search(r"exact (\d+)/8, character error rate ([0-9.]+) %", out)
    assert summary, out
    # The labels are the rendered text: the int8 recognizer reads nearly all of it (85.5 % exact lines on
    # bench/quant_accuracy's 200).
    assert int(summary.group(1)) >= 6 and float(summary.group(2)) <= 10.0, out
