"""Models in Python: a checked, canonical model held in memory.

A Model is always one the C++ loader accepted: building one (from a file, a
dict or arrays) runs the same checks as the command line, and errors raise
BadInput with the loader's message (file or source, JSON path, what was
expected)."""

import json
import os
import tempfile
from fractions import Fraction

from . import _core
from ._errors import BadInput, LimitReached
from ._numbers import exact, text

# The model format from_arrays writes (docs/model-format.md).
_FORMAT = "tempcert-model/1"


def _to_json_value(x, where):
    """Converts numbers to the model format's exact forms (integers stay
    JSON integers; every other number becomes a "p/q" string), recursively.
    Strings are kept (expressions such as "log(n)" and labels)."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, dict):
        return {str(k): _to_json_value(v, f"{where}.{k}") for k, v in x.items()}
    if hasattr(x, "tolist") and not isinstance(x, (int, float)):  # numpy arrays and scalars
        if getattr(x, "dtype", None) is not None and x.dtype.kind in "fc":
            if x.dtype.kind == "c":
                raise BadInput(f"{where}: expected real numbers, got a complex array")
            return _array_to_json(x, where)
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        return [_to_json_value(v, f"{where}[{i}]") for i, v in enumerate(x)]
    if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > _MAX_INT_BITS:
        # Python refuses to print integers past 4300 digits (a bare
        # ValueError); the loader refuses them past --max-number-chars
        raise LimitReached(f"{where}: an integer of about {int(x.bit_length() * 0.30103)} "
                           "digits, more than the limit of --max-number-chars (2000 by default)")
    try:
        f = exact(x)
        return int(f) if isinstance(x, int) else text(f)
    except (TypeError, ValueError) as e:
        if "string conversion" in str(e):  # a fraction's terms past 4300 digits
            raise LimitReached(f"{where}: a number of more than 4300 digits, past the limit "
                               "of --max-number-chars (2000 by default)") from None
        raise BadInput(f"{where}: {e}") from None


# about 3,900 decimal digits: within Python's printing limit, past the loader's
_MAX_INT_BITS = 13000


def _array_to_json(a, where):
    """A float array entry by entry, each the exact rational it stores
    (numpy's as_integer_ratio is exact for every IEEE format)."""
    if a.ndim == 0:
        try:
            return text(exact(a[()]))
        except ValueError as e:
            raise BadInput(f"{where}: {e}") from None
    return [_array_to_json(a[i], f"{where}[{i}]") for i in range(a.shape[0])]


class Model:
    """A hard-attention transformer tempcert has checked.

    Build one with :func:`load_model`, :meth:`Model.from_dict`,
    :meth:`Model.from_arrays`, :func:`import_tracr` or :func:`compile`.
    ``to_dict()`` gives the canonical form (numbers as exact "p/q" strings),
    ``sha256`` the hash certificates record."""

    def __init__(self, verdict, origin, path=None):
        status, canonical, digest = verdict
        if status == "bad":
            raise BadInput(canonical)
        if status == "limit":
            raise LimitReached(canonical)
        self._canonical = canonical
        self._dict = json.loads(canonical)
        self.sha256 = digest
        self.origin = origin
        self._path = path
        self._stat = _file_identity(path) if path is not None else None
        self._tmpdir = None

    # -- construction -------------------------------------------------------
    @classmethod
    def from_dict(cls, d, origin="<dict>"):
        """A model from a dict in tempcert's model format (docs/model-format.md).
        Numbers may be ints, Fractions, exact strings ("1/3", "log(n)") or
        floats; a float is taken as the exact binary rational it stores,
        never rounded to a nearby decimal."""
        if not isinstance(d, dict):
            raise BadInput(f"{origin}: expected a dict (a JSON object), got {type(d).__name__}")
        try:
            text_form = json.dumps(_to_json_value(d, "$"))
        except RecursionError:
            raise BadInput(f"{origin}: nested too deeply to be a model") from None
        return cls(_core.check_model_text(text_form, origin), origin)

    @classmethod
    def from_arrays(cls, alphabet, embedding, layers, output, *, positions=(), bos=None,
                    name="model", max_length=None, beta_native=None, description=None):
        """A model from numpy arrays (or nested lists).

        ``embedding`` has one row per symbol of ``alphabet`` in order, then a
        row for ``bos`` when given. ``layers`` is a list of dicts with
        ``heads`` (each a dict with ``kind``, ``mask`` and the arrays
        ``query``, ``key``, ``value``, ``output``) and ``ffn`` (None or a dict
        with ``w1``, ``b1``, ``w2``, ``b2``). ``output`` is the read-out dict
        (``position``, ``weights``, ``bias`` or a categorical ``classes``).
        Float entries are converted exactly: a float32 weight 0.1 becomes
        13421773/134217728, as the Tracr importer reads it."""
        symbols = list(alphabet) + ([bos] if bos is not None else [])
        rows = list(embedding)
        if len(rows) != len(symbols):
            raise BadInput(f"{name}: embedding: expected {len(symbols)} rows (one per symbol"
                           f"{' and bos' if bos is not None else ''}), got {len(rows)}")
        width = len(rows[0]) if rows else 0
        d = {"format": _FORMAT, "name": name, "alphabet": list(alphabet), "bos": bos,
             "width": width, "embedding": dict(zip(symbols, rows)),
             "positions": list(positions), "layers": list(layers), "output": output}
        if description is not None:
            d["description"] = description
        if max_length is not None:
            d["max_length"] = max_length
        if beta_native is not None:
            d["beta_native"] = beta_native if isinstance(beta_native, str) else text(beta_native)
        return cls.from_dict(d, origin=f"<arrays {name}>")

    # -- views ----------------------------------------------------------------
    @property
    def name(self):
        return self._dict["name"]

    @property
    def alphabet(self):
        return list(self._dict["alphabet"])

    @property
    def bos(self):
        return self._dict.get("bos")

    @property
    def layers(self):
        return len(self._dict["layers"])

    @property
    def path(self):
        """The file this model was loaded from, or None."""
        return self._path

    def to_dict(self):
        """The canonical form: a fresh dict, numbers as exact strings."""
        return json.loads(self._canonical)

    def to_arrays(self):
        """The model's matrices as numpy object arrays of Fractions:
        {"embedding": (symbols + bos) x width, "layers": [...], "output": ...},
        the inverse of from_arrays."""
        import numpy as np

        def arr(m):
            return np.array([[Fraction(x) for x in row] for row in m], dtype=object)

        d = self.to_dict()
        symbols = d["alphabet"] + ([d["bos"]] if d.get("bos") is not None else [])
        layers = []
        for layer in d["layers"]:
            heads = [{**h, **{k: arr(h[k]) for k in ("query", "key", "value", "output")}}
                     for h in layer["heads"]]
            ffn = layer.get("ffn")
            if ffn is not None:
                ffn = {"w1": arr(ffn["w1"]), "b1": np.array([Fraction(x) for x in ffn["b1"]], dtype=object),
                       "w2": arr(ffn["w2"]), "b2": np.array([Fraction(x) for x in ffn["b2"]], dtype=object)}
            layers.append({"heads": heads, "ffn": ffn})
        return {"alphabet": d["alphabet"], "bos": d.get("bos"),
                "embedding": arr([d["embedding"][s] for s in symbols]),
                "positions": d.get("positions", []), "layers": layers, "output": d["output"]}

    def save(self, path):
        """Writes the canonical model to ``path`` (atomically: a temporary
        file in the same directory, then a rename)."""
        directory = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(prefix=".tempcert-", dir=directory)
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(self.to_dict(), f, indent=1)
                f.write("\n")
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def file(self):
        """A file holding this model, for the commands: the loaded file
        itself while it still holds this model, else the canonical form
        written once to a private temporary directory (removed when the
        Model is collected). A file edited after load_model is not read in
        its place: results and certificates refer to the loaded model."""
        if self._path is not None and self._unchanged():
            return self._path
        if self._tmpdir is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="tempcert-model-")
        p = os.path.join(self._tmpdir.name, "model.json")
        if not os.path.exists(p):
            with open(p, "w") as f:
                f.write(self._canonical)
        return p

    def _unchanged(self):
        """Whether the loaded file still holds this model: its identity
        (device, inode, size, modification time) as at load, or else its
        content hashing to the same model."""
        now = _file_identity(self._path)
        if now is not None and now == self._stat:
            return True
        try:
            status, _, digest = _core.check_model_file(self._path)
        except Exception:
            return False
        if status == "ok" and digest == self.sha256:
            self._stat = now
            return True
        return False

    def __eq__(self, other):
        return isinstance(other, Model) and self.sha256 == other.sha256

    def __hash__(self):
        return hash(self.sha256)

    def __repr__(self):
        return (f"<tempcert.Model {self.name!r}: {self.layers} layer(s) over "
                f"{{{', '.join(self.alphabet)}}}, sha256 {self.sha256[:12]}>")


def _file_identity(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def model_from_scratch_file(path, origin):
    """A model read from a file that is about to be deleted (a command's
    temporary output): checked and held in memory, not tied to the path."""
    return Model(_core.check_model_file(os.fspath(path)), origin)


def load_model(path):
    """Loads and checks a model file (BadInput naming the file and the JSON
    path of the first problem)."""
    path = os.fspath(path)
    return Model(_core.check_model_file(path), path, path=path)
