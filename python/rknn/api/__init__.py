"""``from rknn.api import RKNN``: rknn-toolkit2's class, on npurt (docs/python.md)."""
from rknn.api.rknn import RKNN  # noqa: F401
