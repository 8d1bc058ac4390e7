"""A conversion script written the way rknn-toolkit2's examples are: PP-OCR's direction classifier to
an int8 model, inference and accuracy analysis. Run unchanged on npurt by test_rknn_api.py:

    python3 convert_ppocr_cls.py MODEL.onnx DATASET.txt IMAGE OUT_DIR
"""
import sys

import numpy as np
from rknn.api import RKNN

ONNX_MODEL, DATASET, IMAGE, OUT_DIR = sys.argv[1:5]

if __name__ == "__main__":
    rknn = RKNN(verbose=False)

    print("--> Config model")
    rknn.config(mean_values=[[127.5, 127.5, 127.5]], std_values=[[127.5, 127.5, 127.5]], target_platform="rk3588")
    print("done")

    print("--> Loading model")
    ret = rknn.load_onnx(model=ONNX_MODEL, inputs=["x"], input_size_list=[[1, 3, 48, 192]])
    if ret != 0:
        print("Load model failed!")
        exit(ret)
    print("done")

    print("--> Building model")
    ret = rknn.build(do_quantization=True, dataset=DATASET)
    if ret != 0:
        print("Build model failed!")
        exit(ret)
    print("done")

    print("--> Export rknn model")
    ret = rknn.export_rknn(OUT_DIR + "/cls.rknn")
    if ret != 0:
        print("Export rknn model failed!")
        exit(ret)
    print("done")

    print("--> Init runtime environment")
    ret = rknn.init_runtime(perf_debug=True, eval_mem=True)
    if ret != 0:
        print("Init runtime environment failed!")
        exit(ret)
    print("done")

    # A text-line-shaped input, NHWC uint8 as an application reads it.
    img = np.random.RandomState(0).randint(0, 256, (1, 48, 192, 3)).astype(np.uint8)
    outputs = rknn.inference(inputs=[img])
    np.save(OUT_DIR + "/input.npy", img)
    np.save(OUT_DIR + "/output.npy", outputs[0])
    print("direction scores:", outputs[0])

    print("--> Evaluate model performance and memory")
    rknn.eval_perf()
    rknn.eval_memory()
    print(rknn.get_sdk_version())

    print("--> Accuracy analysis")
    ret = rknn.accuracy_analysis(inputs=[IMAGE], output_dir=OUT_DIR + "/snapshot")
    if ret != 0:
        print("Accuracy analysis failed!")
        exit(ret)
    print("done")

    rknn.release()
