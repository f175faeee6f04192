#!/usr/bin/env python3
"""Export a compiled Tracr model to a safetensors file tempcert imports.

    from export_tracr import export
    model = compiling.compile_rasp_to_model(program, vocab, max_seq_len)
    export(model, "model.safetensors")

or, for a model pickled with its attributes (params, model_config,
residual_labels, input_encoder, output_encoder):

    python3 tools/export_tracr.py MODEL.pkl OUT.safetensors [--output-name NAME]

Needs python3 and numpy only; nothing from Tracr is imported. Arrays are
written with the dtype they have (float32 from JAX, float64 from numpy), so
tempcert reads each weight as the exact dyadic rational it is. Then:

    tempcert import tracr OUT.safetensors -o model.json

The layout (tensor names, shapes, __metadata__ keys) is documented in
docs/import.md.
"""
import json
import struct
import sys

import numpy as np

_DTYPES = {
    np.dtype("float64"): "F64", np.dtype("float32"): "F32", np.dtype("float16"): "F16",
    np.dtype("int64"): "I64", np.dtype("int32"): "I32", np.dtype("int16"): "I16",
    np.dtype("int8"): "I8", np.dtype("uint64"): "U64", np.dtype("uint32"): "U32",
    np.dtype("uint16"): "U16", np.dtype("uint8"): "U8", np.dtype("bool"): "BOOL",
}


class ExportError(ValueError):
    """The object is not a Tracr model this exporter understands."""


def write_safetensors(tensors, metadata, path):
    """Writes {name: numpy array} and {str: str} metadata as safetensors."""
    header, chunks, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name in sorted(tensors):
        a = np.asarray(tensors[name])
        if a.dtype not in _DTYPES:
            raise ExportError(f"tensor {name}: unsupported dtype {a.dtype}")
        data = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        header[name] = {"dtype": _DTYPES[a.dtype], "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for c in chunks:
            f.write(c)


def _output_name(labels, values, output_name):
    """The residual name whose "name:value" labels are the output classes."""
    if output_name is not None:
        return output_name
    names = {lab.split(":", 1)[0] for lab in labels if ":" in lab}
    found = [n for n in sorted(names) if n not in ("tokens", "indices")
             and all(f"{n}:{v}" in labels for v in values)]
    if len(found) != 1:
        raise ExportError(f"cannot tell the output from the residual labels (candidates "
                          f"{found}); pass output_name")
    return found[0]


def _output_spec(model, labels, output_name):
    enc = getattr(model, "output_encoder", None)
    emap = getattr(enc, "encoding_map", None) if enc is not None else None
    if enc is not None and (hasattr(enc, "decoding_map") or emap):
        # categorical: argmax over the output space, index i decodes to the
        # value whose encoding is i
        by_index = sorted(emap.items(), key=lambda kv: kv[1])
        values = [v for v, _ in by_index]
        name = _output_name(labels, values, output_name)
        return {"kind": "categorical", "labels": [f"{name}:{v}" for v in values]}
    if output_name is None:
        plain = [lab for lab in labels if ":" not in lab and lab != "one"]
        if len(plain) != 1:
            raise ExportError(f"numerical output: pass output_name (candidates {plain})")
        output_name = plain[0]
    if output_name not in labels:
        raise ExportError(f"no residual coordinate is labelled {output_name!r}")
    return {"kind": "numerical", "label": output_name}


def export(assembled_model, path, output_name=None, name=None):
    """Writes `assembled_model` (what compile_rasp_to_model returns) to `path`."""
    cfg = assembled_model.model_config
    if getattr(cfg, "layer_norm", False):
        raise ExportError("layer_norm is on: tempcert models have no layer norm")
    tensors = {}
    for module, params in assembled_model.params.items():
        for key, value in params.items():
            tensors[f"{module}/{key}"] = np.asarray(value)
    labels = [str(lab) for lab in assembled_model.residual_labels]
    enc = assembled_model.input_encoder
    vocab = {str(k): int(v) for k, v in enc.encoding_map.items()}
    bos = getattr(enc, "bos_token", None) or "compiler_bos"
    pad = getattr(enc, "pad_token", None)
    max_seq_len = tensors["pos_embed/embeddings"].shape[0] - 1
    meta = {
        "format": "tracr",
        "name": name or "tracr-model",
        "vocab": json.dumps(vocab),
        "bos": str(bos),
        "max_seq_len": str(max_seq_len),
        "num_layers": str(cfg.num_layers),
        "num_heads": str(cfg.num_heads),
        "key_size": str(cfg.key_size),
        "causal": "true" if cfg.causal else "false",
        "residual_labels": json.dumps(labels),
        "output": json.dumps(_output_spec(assembled_model, labels, output_name)),
    }
    if pad is not None:
        meta["pad"] = str(pad)
    write_safetensors(tensors, meta, path)


def main(argv):
    import argparse
    import pickle
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", help="a pickled Tracr AssembledTransformerModel")
    p.add_argument("out", help="the .safetensors file to write")
    p.add_argument("--output-name", help="residual name of the program's output")
    a = p.parse_args(argv)
    with open(a.model, "rb") as f:
        model = pickle.load(f)
    try:
        export(model, a.out, a.output_name)
    except ExportError as e:
        print(f"export_tracr: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
