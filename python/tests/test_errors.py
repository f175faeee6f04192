"""Bad input raises tempcert.BadInput with the command line's message; limits
raise LimitReached; interrupts stop a run within a second."""

import _thread
import json
import os
import threading
import time
from fractions import Fraction

import pytest

import tempcert
from conftest import CASES, ROOT

BAD = os.path.join(ROOT, "tests", "bad")
HAS_B = os.path.join(CASES, "models", "has-b.json")


def catalogue():
    for name in sorted(os.listdir(BAD)):
        if name.endswith(".expect"):
            yield name[: -len(".expect")]


def expectation(name, tmp):
    lines = open(os.path.join(BAD, name + ".expect")).read().splitlines()
    code = int(next(l for l in lines if l.startswith("exit "))[5:])
    matches = [l[6:] for l in lines if l.startswith("match ")]
    args = [l[4:].replace("@FILE@", os.path.join(BAD, name + ".json"))
            .replace("@CASES@", CASES).replace("@TMP@", str(tmp))
            for l in lines if l.startswith("arg ")]
    return code, matches, args or ["eval", os.path.join(BAD, name + ".json"), "--input", "ab"]


@pytest.mark.parametrize("name", list(catalogue()))
def test_bad_input_catalogue(name, cli, tmp_path):
    code, matches, args = expectation(name, tmp_path)
    want_code, _, want_err = cli(*args, json_out=False)
    assert want_code == code
    if code == 1:
        # a certificate the checker rejects: a result (exit 1), same output
        got_code, out, err = tempcert.run(args)
        assert got_code == 1
        assert out == cli(*args, json_out=False)[1]
        for m in matches:
            assert m in out + err
        return
    kind = {2: tempcert.BadInput, 3: (tempcert.LimitReached, tempcert.Undecided)}[code]
    with pytest.raises(kind) as e:
        tempcert.run(args)
    assert isinstance(e.value, tempcert.Error)
    assert e.value.exit_code == code
    # the same message as the command line, word for word
    want = want_err.strip()
    for prefix in ("tempcert: limit reached: ", "tempcert: undecided: ", "tempcert: "):
        if want.startswith(prefix):
            want = want[len(prefix):]
            break
    assert e.value.message == want
    for m in matches:
        assert m in e.value.message


@pytest.mark.parametrize("name", [n for n in catalogue()
                                  if os.path.exists(os.path.join(BAD, n + ".json"))
                                  and not n.startswith("cert-")])
def test_bad_model_files_refused_by_load_model(name):
    code, matches, args = expectation(name, "/nonexistent")
    if args[0] != "eval" or code != 2:
        pytest.skip("not a model-loading case")
    try:
        m = tempcert.load_model(os.path.join(BAD, name + ".json"))
    except tempcert.BadInput as e:
        for frag in matches:
            assert frag in str(e)
        return
    # loadable models in the catalogue fail later, on the command's input
    with pytest.raises(tempcert.BadInput):
        tempcert.run(args)


def test_from_dict_errors_name_the_place():
    d = tempcert.load_model(HAS_B).to_dict()
    d["layers"][0]["heads"][0]["mask"] = "sideways"
    with pytest.raises(tempcert.BadInput, match=r"\$\.layers\[0\]\.heads\[0\]\.mask"):
        tempcert.Model.from_dict(d)
    with pytest.raises(tempcert.BadInput, match="expected a dict"):
        tempcert.Model.from_dict([1, 2])
    d = tempcert.load_model(HAS_B).to_dict()
    d["output"]["bias"] = float("nan")
    with pytest.raises(tempcert.BadInput, match="finite"):
        tempcert.Model.from_dict(d)


def test_bad_options_raise_bad_input():
    with pytest.raises(tempcert.BadInput, match="--eps"):
        tempcert.certify(HAS_B, 3, "tiny")
    with pytest.raises(tempcert.BadInput, match="--eps"):
        tempcert.certify(HAS_B, 3, 2)
    with pytest.raises(tempcert.BadInput, match="c"):
        tempcert.eval(HAS_B, "abc")
    with pytest.raises(tempcert.BadInput, match="nonexistent"):
        tempcert.load_model("/nonexistent/model.json")
    with pytest.raises(TypeError, match="max_wordz"):
        tempcert.gap(HAS_B, 3, max_wordz=5)


def test_numbers_are_never_truncated_or_guessed():
    for n in (5.7, 5.0, True, "5", None):
        with pytest.raises(tempcert.BadInput, match="expected an integer"):
            tempcert.gap(HAS_B, n)
    with pytest.raises(tempcert.BadInput, match="expected an integer"):
        tempcert.report(["has-b"], n=[2, 2.5], out="/nonexistent/never-written")
    deep = []
    for _ in range(100000):
        deep = [deep]
    with pytest.raises(tempcert.BadInput, match="nested too deeply"):
        tempcert.Model.from_dict({"layers": deep})


def test_an_option_looking_word_is_a_word():
    # "--json" as a word must not become an option of the command
    with pytest.raises(tempcert.BadInput, match="-"):
        tempcert.eval(HAS_B, "--json")


def test_limits_raise_limit_reached():
    with pytest.raises(tempcert.LimitReached, match="--max-words"):
        tempcert.certify(HAS_B, 12, "1/100", method="exhaustive", max_words=100)
    with pytest.raises(tempcert.LimitReached, match="--max-n"):
        tempcert.gap(HAS_B, 50, max_n=10)


def long_certify(**kw):
    # plain enumeration of every word up to 22 over {a, b} at a beta that
    # holds (no early refutation): minutes of work
    return tempcert.certify(HAS_B, 22, "1/100", beta=20, method="plain", **kw)


def test_keyboard_interrupt_stops_within_a_second():
    fired = []

    def interrupt():
        fired.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(1.0, interrupt)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        long_certify()
    stopped = time.monotonic()
    timer.cancel()
    assert fired, "the run finished before the interrupt"
    assert stopped - fired[0] < 1.0, f"stopped {stopped - fired[0]:.2f} s after the interrupt"
    # and the module works normally afterwards
    assert tempcert.gap(HAS_B, 4).min_gap == 2


def test_progress_callback_and_stopping_from_it():
    seen = []

    class Enough(Exception):
        pass

    def progress(done, total):
        seen.append((done, total))
        if len(seen) >= 3:
            raise Enough()

    start = time.monotonic()
    with pytest.raises(Enough):
        long_certify(progress=progress)
    assert time.monotonic() - start < 30
    assert len(seen) == 3
    assert all(total == 2 ** 23 - 2 for _, total in seen)  # words of length 1..22
    assert seen[0][0] <= seen[1][0] <= seen[2][0] < seen[0][1]


def test_runs_from_threads_are_serialised_and_correct():
    results = []

    def worker():
        results.append(tempcert.gap(HAS_B, 6).min_gap)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [Fraction(2)] * 4


def test_progress_true_draws_tqdm_bars(capsys):
    pytest.importorskip("tqdm")
    r = tempcert.certify(HAS_B, 10, "1/100", beta=20, method="plain", progress=True)
    assert r.verdict == "certified"
    err = capsys.readouterr().err
    assert "2046/2046" in err  # words of length 1..10, the bar completed


def test_certificate_to_standard_output_then_an_ordinary_command():
    # `-o -`: the certificate is the captured stdout, the summary stderr;
    # the next command in the same process prints its summary on stdout again
    import json
    for _ in range(2):
        code, out, err = tempcert.run(["certify", HAS_B, "--n", "3", "--eps", "1/100",
                                       "--beta", "20", "-o", "-"])
        assert code == 0
        assert json.loads(out)["format"] == "tempcert-certificate/1"
        assert "verdict: certified" in err
        code, out, err = tempcert.run(["gap", HAS_B, "--n", "3"])
        assert code == 0 and "model minimum gap: 2" in out and err == ""


def test_a_loaded_model_is_the_model_used_after_its_file_changes(tmp_path):
    import shutil
    p = tmp_path / "m.json"
    shutil.copy(HAS_B, p)
    m = tempcert.load_model(p)
    before = tempcert.gap(m, 4).min_gap
    # the file now holds another model (bias and a feature changed)
    p.write_text(open(HAS_B).read().replace('"expr": "j"', '"expr": "2*j"'))
    assert tempcert.gap(m, 4).min_gap == before == Fraction(2)
    assert tempcert.load_model(p).sha256 != m.sha256


def test_huge_integers_and_options_as_cases_raise_tempcert_errors():
    d = json.loads(open(HAS_B).read())
    d["output"]["bias"] = 10 ** 5000
    with pytest.raises(tempcert.LimitReached, match="max-number-chars"):
        tempcert.Model.from_dict(d)
    d["output"]["bias"] = Fraction(1, 10 ** 5000)
    with pytest.raises(tempcert.LimitReached, match="max-number-chars"):
        tempcert.Model.from_dict(d)
    with pytest.raises(tempcert.BadInput, match="not an option"):
        tempcert.report(["--help"])


def test_a_file_one_call_read_is_not_an_input_of_the_next(tmp_path):
    # The input registry was process-global, so a model file read
    # by eval was later refused as certify's output ("also an input")
    import shutil
    p = tmp_path / "m.json"
    shutil.copy(HAS_B, p)
    assert tempcert.eval(str(p), "ab").accept is True
    r = tempcert.certify(HAS_B, 3, Fraction(1, 100), output=str(p))
    assert r.verdict == "certified"
    assert json.loads(p.read_text())["format"] == "tempcert-certificate/1"
    # within one call the refusal stands: the model is also the output
    shutil.copy(HAS_B, p)
    with pytest.raises(tempcert.BadInput, match="also an input"):
        tempcert.certify(str(p), 3, Fraction(1, 100), output=str(p))
