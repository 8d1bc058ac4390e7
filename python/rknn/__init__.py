"""rknn-toolkit2's package name, on npurt (``from rknn.api import RKNN``)."""
