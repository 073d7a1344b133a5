"""Every key of the profiles named is one of ProfileKeys.inc's, but for the
names of precisions, memory spaces and integer kinds, which CostKinds.h
spells (under "flops", "flop_classes", "bytes", "int_classes", "by_width",
"by_kind"). Prints each key the list lacks, with its path, and the keys
checked; exits 1 when one is missing."""
import json
import re
import sys

inc, profiles = sys.argv[1], sys.argv[2:]
known = set(re.findall(r'ROOFLINE_PROFILE_KEY\(\w+, "([^"]+)"\)', open(inc).read()))
# Objects whose own keys are CostKinds.h names, and those whose children's are.
NAMED = {"flops", "bytes", "flop_classes", "int_classes", "by_width", "by_kind"}
NAMED_CHILDREN = {"flop_classes", "int_classes"}
seen, missing = set(), []


def walk(value, path, names_allowed=False):
    if isinstance(value, list):
        for item in value:
            walk(item, path + "[]")
    elif isinstance(value, dict):
        parent = path.rsplit(".", 1)[-1]
        for k, v in value.items():
            if k in known:
                seen.add(k)
            elif not (names_allowed or parent in NAMED):
                missing.append(path + "." + k)
            walk(v, path + "." + k, parent in NAMED_CHILDREN)


for p in profiles:
    walk(json.load(open(p)), p.rsplit("/", 1)[-1])
for m in missing:
    print("not in ProfileKeys.inc:", m)
print("%d keys checked, %d missing" % (len(seen), len(missing)))
sys.exit(1 if missing else 0)
