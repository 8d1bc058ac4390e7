"""Converts PP-OCRv4's text recognizer for the board, the way rknn_model_zoo's convert.py scripts do,
then checks the int8 model's accuracy layer by layer (rknn-toolkit2's accuracy_analysis).

    python3 convert.py ONNX_MODEL PLATFORM [i8|fp] [OUTPUT.rknn] [DATASET.txt] [ANALYSIS_INPUT]

The model takes a text line 48 pixels high and 320 wide, normalized by the application (see
ppocr_rec.py). DATASET.txt lists calibration samples, one per line (images or .npy); ANALYSIS_INPUT is
one of them for accuracy_analysis (written to ./snapshot).
"""
import sys

from rknn.api import RKNN

DEFAULT_RKNN_PATH = "./ppocrv4_rec.rknn"
DEFAULT_DATASET = "./dataset.txt"


def parse_arg():
    if len(sys.argv) < 3:
        print("Usage: python3 {} onnx_model_path [platform] [dtype(optional)] [output_rknn_path(optional)] "
              "[dataset(optional)] [analysis_input(optional)]".format(sys.argv[0]))
        print("       platform choose from [rk3562, rk3566, rk3568, rk3576, rk3588, rv1106, rv1103]")
        print("       dtype choose from [i8, fp]")
        exit(1)
    model_path = sys.argv[1]
    platform = sys.argv[2]
    do_quant = True
    if len(sys.argv) > 3:
        if sys.argv[3] not in ["i8", "fp"]:
            print("ERROR: Invalid model type: {}".format(sys.argv[3]))
            exit(1)
        do_quant = sys.argv[3] == "i8"
    output_path = sys.argv[4] if len(sys.argv) > 4 else DEFAULT_RKNN_PATH
    dataset = sys.argv[5] if len(sys.argv) > 5 else DEFAULT_DATASET
    analysis_input = sys.argv[6] if len(sys.argv) > 6 else None
    return model_path, platform, do_quant, output_path, dataset, analysis_input


if __name__ == "__main__":
    model_path, platform, do_quant, output_path, dataset, analysis_input = parse_arg()

    rknn = RKNN(verbose=False)

    # Pre-process config: the application normalizes the line itself.
    print("--> Config model")
    rknn.config(target_platform=platform)
    print("done")

    print("--> Loading model")
    ret = rknn.load_onnx(model=model_path, inputs=["x"], input_size_list=[[1, 3, 48, 320]])
    if ret != 0:
        print("Load model failed!")
        exit(ret)
    print("done")

    print("--> Building model")
    ret = rknn.build(do_quantization=do_quant, dataset=dataset)
    if ret != 0:
        print("Build model failed!")
        exit(ret)
    print("done")

    print("--> Export rknn model")
    ret = rknn.export_rknn(output_path)
    if ret != 0:
        print("Export rknn model failed!")
        exit(ret)
    print("done")

    if do_quant and analysis_input is not None:
        print("--> Accuracy analysis")
        ret = rknn.accuracy_analysis(inputs=[analysis_input], output_dir="./snapshot")
        if ret != 0:
            print("Accuracy analysis failed!")
            exit(ret)
        print("done: ./snapshot/error_analysis.txt")

    rknn.release()
