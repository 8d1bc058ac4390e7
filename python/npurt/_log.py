"""The toolkit's log lines, in the vendor's form: ``E build: message``.

Errors and warnings always go to stderr (as rknn-toolkit2 prints them); information lines only with
``verbose=True``. ``verbose_file`` receives every line too (the vendor writes it only with verbose).
"""
import sys


class Log:
    def __init__(self, verbose=False, verbose_file=None):
        self.verbose = bool(verbose)
        self._file = None
        if verbose_file is not None and self.verbose:
            self._file = open(verbose_file, "a", encoding="utf-8")
        self._warned = set()

    def _write(self, line, show):
        if show:
            print(line, file=sys.stderr, flush=True)
        if self._file is not None:
            self._file.write(line + "\n")
            self._file.flush()

    def e(self, where, message):
        self._write("E %s: %s" % (where, message), True)

    def w(self, where, message):
        self._write("W %s: %s" % (where, message), True)

    def w_once(self, where, message):
        """A warning printed once per object (for settings that have no effect on npurt)."""
        if (where, message) not in self._warned:
            self._warned.add((where, message))
            self.w(where, message)

    def i(self, message):
        self._write("I %s" % message, self.verbose)

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None
