"""checks.py - the check counter of the Python test scripts.

check = Checks(LABEL): check(cond, what) counts a pass, or a failure printed
as "FAIL LABEL: what" (only the first `shown` ones when shown is given);
check.summary() prints "NAME: N passed, N failed" (NAME defaults to LABEL)
and returns the exit status, 1 when anything failed."""


class Checks:
    def __init__(self, label, name=None, shown=None):
        self.label, self.name, self.shown = label, name or label, shown
        self.ok = self.bad = 0

    def __call__(self, cond, what):
        if cond:
            self.ok += 1
        else:
            self.bad += 1
            if self.shown is None or self.bad <= self.shown:
                print("FAIL %s: %s" % (self.label, what))

    def summary(self):
        print("%s: %d passed, %d failed" % (self.name, self.ok, self.bad))
        return 1 if self.bad else 0
