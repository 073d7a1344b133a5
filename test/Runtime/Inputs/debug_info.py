"""`llvm-dwarfdump --statistics` of an object on stdin -> one line for
FileCheck: whether it has source variables (locals and parameters: full
debug information) and inlined functions (line tables alone have these,
not the variables)."""
import json
import sys

S = json.load(sys.stdin)


def some(key):
    return "some" if S.get(key, 0) > 0 else "none"


print("variables: %s, inlined functions: %s"
      % (some("#source variables"), some("#inlined functions")))
