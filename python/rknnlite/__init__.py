"""rknn-toolkit-lite2's package name, on npurt (``from rknnlite.api import RKNNLite``)."""
