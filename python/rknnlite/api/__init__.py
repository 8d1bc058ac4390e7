"""``from rknnlite.api import RKNNLite``: rknn-toolkit-lite2's class, on npurt, on any machine."""
from rknnlite.api.rknn_lite import RKNNLite  # noqa: F401
