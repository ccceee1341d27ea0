"""The torch device the model tests run on.

``ANONYGRAPH_TEST_DEVICE`` (default ``cpu``) takes any device option: on a
GPU machine ``ANONYGRAPH_TEST_DEVICE=cuda`` tests the CUDA path.
"""

from __future__ import annotations

import os

TEST_DEVICE = os.environ.get("ANONYGRAPH_TEST_DEVICE", "cpu")
