"""Policies trained in Python written as ONNX files that the pipeline's `onnx` kind plays.

The graph takes the `briscola-v1` input (float32[N, 246]: the 206 observation values, then the
40-value legal mask) and gives each card's logit at the node `logits`, illegal cards set to
-1e9. A study file then names it:

    [policies.mine]
    kind = "onnx"
    model = "mine.onnx"
    encoding = "briscola-v1"

Only the `onnx` package is needed (no torch).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from ._core import NUM_ACTIONS, OBS_LEN

MASKED = -1.0e9


def _graph(weights: list, out: str | Path, hidden: bool) -> Path:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    for name, w in weights:
        bad = np.count_nonzero(~np.isfinite(np.asarray(w, dtype=np.float32)))
        if bad:
            raise ValueError(
                f"{name}: {bad} of its weights are NaN or infinite; a policy's weights must be finite numbers"
            )
    out = Path(out)
    if out.is_dir():
        raise ValueError(f"{out}: is a directory; name a file (e.g. mine.onnx)")
    if not out.parent.is_dir():
        raise ValueError(f"{out}: its directory {out.parent} does not exist")
    inits = [numpy_helper.from_array(np.asarray(w, dtype=np.float32), name) for name, w in weights]
    inits += [
        numpy_helper.from_array(np.array([0], dtype=np.int64), "obs_start"),
        numpy_helper.from_array(np.array([OBS_LEN], dtype=np.int64), "obs_end"),
        numpy_helper.from_array(np.array([OBS_LEN + NUM_ACTIONS], dtype=np.int64), "mask_end"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        numpy_helper.from_array(np.array(0.5, dtype=np.float32), "half"),
        numpy_helper.from_array(np.array(MASKED, dtype=np.float32), "masked"),
    ]
    nodes = [
        helper.make_node("Slice", ["input", "obs_start", "obs_end", "axis1"], ["obs"], name="obs"),
        helper.make_node("Slice", ["input", "obs_end", "mask_end", "axis1"], ["mask"], name="mask"),
    ]
    if hidden:
        nodes += [
            helper.make_node("Gemm", ["obs", "W1", "b1"], ["h_pre"], name="h_pre"),
            helper.make_node("Relu", ["h_pre"], ["h"], name="h"),
            helper.make_node("Gemm", ["h", "W2", "b2"], ["z"], name="z"),
        ]
    else:
        nodes.append(helper.make_node("Gemm", ["obs", "W", "b"], ["z"], name="z"))
    nodes += [
        helper.make_node("Greater", ["mask", "half"], ["legal"], name="legal"),
        helper.make_node("Where", ["legal", "z", "masked"], ["logits"], name="logits"),
    ]
    graph = helper.make_graph(
        nodes,
        "briscola_policy",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", OBS_LEN + NUM_ACTIONS])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", NUM_ACTIONS])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="briscola")
    model.ir_version = 8
    onnx.checker.check_model(model)
    # Written beside `out` and renamed over it when complete: a failed write leaves `out` as it
    # was, never half a model.
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    except OSError as e:
        raise ValueError(f"cannot write in {out.parent}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(model.SerializeToString())
        os.replace(tmp, out)
    except OSError as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise ValueError(f"cannot write {out}: {e.strerror}") from None
    return out


def linear_policy(W: np.ndarray, b: np.ndarray, out: str | Path) -> Path:
    """A linear softmax policy (logits = obs @ W + b, W: [206, 40], b: [40]) as an ONNX file."""
    W = np.asarray(W, dtype=np.float32)
    b = np.asarray(b, dtype=np.float32)
    if W.shape != (OBS_LEN, NUM_ACTIONS) or b.shape != (NUM_ACTIONS,):
        raise ValueError(f"W must be [{OBS_LEN}, {NUM_ACTIONS}] and b [{NUM_ACTIONS}]; got {W.shape} and {b.shape}")
    return _graph([("W", W), ("b", b)], out, hidden=False)


def mlp_policy(W1, b1, W2, b2, out: str | Path) -> Path:
    """A one-hidden-layer ReLU policy (W1: [206, H], b1: [H], W2: [H, 40], b2: [40])."""
    W1, b1, W2, b2 = (np.asarray(x, dtype=np.float32) for x in (W1, b1, W2, b2))
    h = W1.shape[1] if W1.ndim == 2 else -1
    if W1.shape != (OBS_LEN, h) or b1.shape != (h,) or W2.shape != (h, NUM_ACTIONS) or b2.shape != (NUM_ACTIONS,):
        raise ValueError("shapes: W1 [206, H], b1 [H], W2 [H, 40], b2 [40]")
    return _graph([("W1", W1), ("b1", b1), ("W2", W2), ("b2", b2)], out, hidden=True)
