"""Stand-ins for Tracr's compile_rasp_to_model output, for testing the
exporter and importer where Tracr itself cannot be installed.

Each builder follows Tracr's documented construction (craft/chamber/
categorical_attn.py, selector_width.py, numerical_mlp.py, categorical_mlp.py;
compiler/assemble.py for the layout) and returns an object with the
attributes the exporter reads: params (a dict of dicts of float32 arrays
keyed as Tracr's Haiku modules), model_config, residual_labels,
input_encoder.encoding_map / bos_token / pad_token and output_encoder.
Alongside: `program(word)`, the RASP program's own output per position
(None where the program has no output), to compare with.
"""
from types import SimpleNamespace

import numpy as np

BOS, PAD = "compiler_bos", "compiler_pad"


class Residual:
    """The residual space: labels "name:value" (or "name"), sorted."""

    def __init__(self, labels):
        self.labels = sorted(labels)
        self.index = {lab: i for i, lab in enumerate(self.labels)}

    def __len__(self):
        return len(self.labels)

    def col(self, label):
        return self.index[label]


class Layers:
    """Accumulates attention heads and MLPs in Tracr's parameter layout."""

    def __init__(self, res, num_layers, key_size, num_heads=1, mlp_hidden=1):
        self.res, self.L, self.K, self.H = res, num_layers, key_size, num_heads
        d = len(res)
        self.hidden = mlp_hidden
        self.params = {}
        for l in range(num_layers):
            p = f"transformer/layer_{l}/"
            for m in ("query", "key", "value"):
                self.params[p + "attn/" + m] = {"w": np.zeros((d, num_heads * key_size)),
                                                "b": np.zeros(num_heads * key_size)}
            self.params[p + "attn/linear"] = {"w": np.zeros((num_heads * key_size, d)),
                                              "b": np.zeros(d)}
            self.params[p + "mlp/linear_1"] = {"w": np.zeros((d, mlp_hidden)),
                                               "b": np.zeros(mlp_hidden)}
            self.params[p + "mlp/linear_2"] = {"w": np.zeros((mlp_hidden, d)), "b": np.zeros(d)}

    def head(self, layer, h, qk, ov):
        """qk: {(query label, key label): logit}; ov: {(in label, out label): weight}.
        As assemble.py: query = residual->query space @ W_QK, key = the
        projection onto the key space, value = residual->value space @ W_OV,
        linear = the projection from the output space."""
        p = f"transformer/layer_{layer}/attn/"
        qs = sorted({q for q, _ in qk})
        ks = sorted({k for _, k in qk})
        outs = sorted({o for _, o in ov})
        assert len(ks) <= self.K and len(outs) <= self.K
        c0 = h * self.K
        for (q, k), v in qk.items():
            self.params[p + "query"]["w"][self.res.col(q), c0 + ks.index(k)] += v
        for j, k in enumerate(ks):
            self.params[p + "key"]["w"][self.res.col(k), c0 + j] = 1
        for (i, o), v in ov.items():
            self.params[p + "value"]["w"][self.res.col(i), c0 + outs.index(o)] += v
        for j, o in enumerate(outs):
            self.params[p + "linear"]["w"][c0 + j, self.res.col(o)] = 1
        del qs

    def mlp(self, layer, units):
        """units: list of (in {label: w}, bias, out {label: w})."""
        p = f"transformer/layer_{layer}/mlp/"
        assert len(units) <= self.hidden
        for u, (win, b, wout) in enumerate(units):
            for lab, v in win.items():
                self.params[p + "linear_1"]["w"][self.res.col(lab), u] += v
            self.params[p + "linear_1"]["b"][u] = b
            for lab, v in wout.items():
                self.params[p + "linear_2"]["w"][u, self.res.col(lab)] += v


def embeddings(res, vocab, max_seq_len):
    tokens = list(vocab) + [BOS, PAD]
    encoding = {t: i for i, t in enumerate(sorted(tokens))}
    emb = np.zeros((len(tokens), len(res)))
    for t, i in encoding.items():
        emb[i, res.col(f"tokens:{t}")] = 1
        if "one" in res.index:
            emb[i, res.col("one")] = 1  # assemble.py: 'one' is 1 at every token
    pos = np.zeros((max_seq_len + 1, len(res)))
    for p in range(max_seq_len):  # row 0 (BOS) is zero; row p+1 is indices:p
        pos[p + 1, res.col(f"indices:{p}")] = 1
    return encoding, emb, pos


def categorical_attn_qk(query_labels, key_labels, predicate, coldness, always_bos=False):
    """Tracr's categorical_attn W_QK: (one, bos) scores coldness/2 (coldness
    with always_attend_to_bos); other pairs coldness * predicate(key, query)."""
    qk = {("one", f"tokens:{BOS}"): (1.0 if always_bos else 0.5) * coldness}
    for q, qv in query_labels:
        for k, kv in key_labels:
            if predicate(kv, qv):
                qk[(q, k)] = qk.get((q, k), 0) + coldness
    return qk


def assembled(res, layers, vocab, max_seq_len, num_layers, key_size, output_encoder,
              mlp_hidden, causal=False):
    encoding, emb, pos = embeddings(res, vocab, max_seq_len)
    params = {"token_embed": {"embeddings": emb}, "pos_embed": {"embeddings": pos}}
    params.update(layers.params)
    params = {m: {k: np.asarray(v, dtype=np.float32) for k, v in d.items()}
              for m, d in params.items()}
    cfg = SimpleNamespace(num_heads=layers.H, num_layers=num_layers, key_size=key_size,
                          mlp_hidden_size=mlp_hidden, causal=causal, layer_norm=False)
    enc = SimpleNamespace(encoding_map=encoding, bos_token=BOS, pad_token=PAD)
    return SimpleNamespace(params=params, model_config=cfg, residual_labels=res.labels,
                           input_encoder=enc, output_encoder=output_encoder)


def categorical_encoder(values):
    emap = {v: i for i, v in enumerate(sorted(values))}
    return SimpleNamespace(encoding_map=emap, decoding_map={i: v for v, i in emap.items()})


def shift_by_one(vocab=("a", "b", "c"), max_seq_len=8, coldness=100.0, causal=False):
    """shift = Aggregate(Select(indices, indices, q == k + 1), tokens):
    categorical; position i gets the token at i - 1, nothing at index 0."""
    idx = [f"indices:{p}" for p in range(max_seq_len)]
    labels = ["one"] + idx + [f"tokens:{t}" for t in list(vocab) + [BOS, PAD]] + \
        [f"shift:{t}" for t in vocab]
    res = Residual(labels)
    ql = [(f"indices:{p}", p) for p in range(max_seq_len)]
    qk = categorical_attn_qk(ql, ql, lambda k, q: q == k + 1, coldness)
    key_size = max(len(ql) + 2, len(ql) + 1)  # |query space| (indices, bos, one)
    layers = Layers(res, 1, key_size)
    ov = {(f"tokens:{t}", f"shift:{t}"): 1.0 for t in vocab}
    layers.head(0, 0, qk, ov)
    model = assembled(res, layers, vocab, max_seq_len, 1, key_size,
                      categorical_encoder(vocab), 1, causal=causal)

    def program(word):
        return [None] + list(word[:-1])
    return model, program


def frac_prevs(vocab=("x", "y"), max_seq_len=8, coldness=100.0):
    """frac = numerical(Aggregate(Select(indices, indices, LEQ),
    numerical(Map(lambda t: t == "x", tokens)))): the fraction of x among
    the tokens up to each position. Layer 0's MLP is the categorical-to-
    numerical map; layer 1's head the numerical mean."""
    idx = [f"indices:{p}" for p in range(max_seq_len)]
    labels = ["one"] + idx + [f"tokens:{t}" for t in list(vocab) + [BOS, PAD]] + \
        ["is_x", "frac_prevs"]
    res = Residual(labels)
    hidden = len(vocab)
    layers = Layers(res, 2, max_seq_len + 2, mlp_hidden=hidden)
    # map_categorical_to_numerical_mlp: a hidden unit per token value
    layers.mlp(0, [({f"tokens:{t}": 1.0}, 0.0, {"is_x": 1.0 if t == "x" else 0.0})
                   for t in vocab])
    ql = [(f"indices:{p}", p) for p in range(max_seq_len)]
    qk = categorical_attn_qk(ql, ql, lambda k, q: k <= q, coldness)
    layers.head(1, 0, qk, {("is_x", "frac_prevs"): 1.0})
    model = assembled(res, layers, vocab, max_seq_len, 2, max_seq_len + 2, None, hidden)

    def program(word):
        return [sum(1 for t in word[:i + 1] if t == "x") / (i + 1) for i in range(len(word))]
    return model, program


def discretising_mlp(in_label, out_labels_by_value, input_values, f, large, hidden):
    """numerical_mlp.map_numerical_to_categorical_mlp: thresholds halfway
    between sorted input values; two ReLUs per threshold."""
    xs = sorted(input_values)
    outs = [f(x) for x in xs]
    th = [(xs[i] + xs[i + 1]) / 2 for i in range(len(xs) - 1)]
    units = [({"one": 1.0}, 0.0, {out_labels_by_value[outs[0]]: 1.0})]
    for k in range(1, len(xs)):
        diff = {}
        for lab, s in ((out_labels_by_value[outs[k]], 1.0), (out_labels_by_value[outs[k - 1]], -1.0)):
            diff[lab] = diff.get(lab, 0.0) + s
        units.append(({in_label: large, "one": 1 - large * th[k - 1]}, 0.0, diff))
        units.append(({in_label: large, "one": -large * th[k - 1]}, 0.0,
                      {lab: -v for lab, v in diff.items()}))
    assert len(units) <= hidden
    return units


def make_length(vocab=("a", "b"), max_seq_len=8, coldness=100.0, mlp_exactness=100.0,
                causal=False):
    """length = SelectorWidth(Select(tokens, tokens, TRUE)), categorical:
    an attention head that always attends to BOS gives 1/(w+1), and a
    discretising MLP (large_number = mlp_exactness) decodes w."""
    idx = [f"indices:{p}" for p in range(max_seq_len)]
    widths = list(range(0, max_seq_len + 1))
    attn_out = "length_selector_width_attn_output"
    labels = ["one"] + idx + [f"tokens:{t}" for t in list(vocab) + [BOS, PAD]] + \
        [f"length:{w}" for w in widths] + [attn_out]
    res = Residual(labels)
    hidden = 2 * len(widths) + 1
    layers = Layers(res, 1, len(vocab) + 2, mlp_hidden=hidden)
    tl = [(f"tokens:{t}", t) for t in vocab]
    qk = categorical_attn_qk(tl, tl, lambda k, q: True, coldness, always_bos=True)
    # always_attend_to_bos: BOS is in the value space, mapped to the output
    layers.head(0, 0, qk, {(f"tokens:{BOS}", attn_out): 1.0})
    units = discretising_mlp(attn_out, {w: f"length:{w}" for w in widths},
                             [1 / (w + 1) for w in widths], lambda x: round(1 / x - 1),
                             mlp_exactness, hidden - 1)
    # clean_bos MLP: subtract the head's output and length:0 at BOS
    units.append(({f"tokens:{BOS}": 1.0}, 0.0, {attn_out: -1.0, "length:0": -1.0}))
    layers.mlp(0, units)
    model = assembled(res, layers, vocab, max_seq_len, 1, len(vocab) + 2,
                      categorical_encoder(widths), hidden, causal=causal)

    def program(word):
        return [str(len(word))] * len(word)
    return model, program


PROGRAMS = {"shift": shift_by_one, "frac_prevs": frac_prevs, "length": make_length}
