"""The exceptions of the tempcert package, one per exit code of the command
line: a refutation is a result, never an exception."""

from . import _core


class Error(Exception):
    """Base of every tempcert error. ``message`` is the command line's message
    (without the leading "tempcert: "), ``exit_code`` the code the command
    line would exit with."""

    exit_code = None

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


class BadInput(Error, ValueError):
    """Malformed model, formula, tensor file, certificate or option (exit 2).
    The message names the file, the place and what was expected."""

    exit_code = _core.exit_codes["bad_input"]


class LimitReached(Error):
    """A resource limit (--max-* option, --time-limit, memory) was reached
    before the answer (exit 3). Nothing was certified."""

    exit_code = _core.exit_codes["undecided"]


class Undecided(Error):
    """The method cannot decide this instance (exit 3): for example the
    layerwise method does not apply, or precision ran out. Nothing was
    certified."""

    exit_code = _core.exit_codes["undecided"]


class InternalError(Error):
    """A bug in tempcert (exit 70); please report it with the arguments."""

    exit_code = _core.exit_codes["internal"]
